/* `pvomp-phantomd status`: live phantom counts per process, for anyone (the
 * map comes read-only over the socket, or from the pinned path). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "phantom/connect.h"
#include "phantomd.h"
#include "pvomp/phantom.h"

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void comm_of(uint32_t pid, char *out, size_t len)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%u/comm", pid);
    FILE *f = fopen(path, "re");
    if (!f || !fgets(out, (int)len, f))
        snprintf(out, len, "?");
    else
        out[strcspn(out, "\n")] = 0;
    if (f)
        fclose(f);
}

static void show(const volatile struct pvomp_phantom_page *pg, uint32_t nr_pages)
{
    const volatile struct pvomp_phantom_global *g = &pg[0].g;
    uint64_t now = mono_ns();
    printf("tracker: %u CPUs, %u us ticks (%llu so far, last %.1f ms ago), vCPU phantoms %s, "
           "%llu threads registered\n",
           g->nr_cpus, g->period_us, (unsigned long long)g->ticks,
           g->tick_ns && now > g->tick_ns ? (double)(now - g->tick_ns) / 1e6 : 0.0,
           g->flags & PVOMP_PHANTOM_F_VCPU ? "tracked" : "not tracked",
           (unsigned long long)g->registrations);
    if (g->unregistrable)
        printf("warning: %u registrations refused (thread ids beyond pid_max when the tracker "
               "started; restart pvomp-phantomd)\n", g->unregistrable);
    printf("%-4s %-8s %-10s %12s %16s\n", "CPU", "RUNS", "PREEMPTED", "STEAL", "PREEMPTED TICKS");
    for (uint32_t c = 0; c < g->nr_cpus && c < PVOMP_PHANTOM_MAX_CPUS; c++) {
        char pid[16] = "-";
        if (g->cpu[c].pid)
            snprintf(pid, sizeof(pid), "%u", g->cpu[c].pid);
        uint32_t f = g->cpu[c].preempted;
        printf("%-4u %-8s %-10s %9.1f ms %16llu\n", c, pid,
               f & PVOMP_PHANTOM_CPU_PREEMPTED ? "yes"
               : f & PVOMP_PHANTOM_CPU_SIMULATED ? "simulated" : "no",
               (double)g->cpu[c].steal_ns / 1e6, (unsigned long long)g->cpu[c].preempted_ticks);
    }
    printf("%-8s %-16s %7s %9s %7s %7s %9s %10s %12s %9s\n", "PID", "COMMAND", "THREADS",
           "PHANTOMS", "THREAD", "VCPU", "AVERAGE", "EVENTS", "SEQ", "AGE");
    int shown = 0;
    for (uint32_t i = 1; i < nr_pages; i++) {
        const volatile struct pvomp_phantom_proc *p = &pg[i].p;
        uint32_t pid = p->pid;
        if (!pid)
            continue;
        char comm[32];
        comm_of(pid, comm, sizeof(comm));
        uint64_t upd = p->update_ns;
        printf("%-8u %-16s %7u %9u %7u %7u %9.3f %10llu %12llu %6.1f ms\n", pid, comm, p->threads,
               p->phantoms, p->thread_phantoms, p->vcpu_phantoms,
               (double)p->avg / (double)(1u << PVOMP_PHANTOM_AVG_SHIFT),
               (unsigned long long)p->phantom_events, (unsigned long long)p->seq,
               upd && now > upd ? (double)(now - upd) / 1e6 : 0.0);
        shown++;
    }
    if (!shown)
        printf("(no pvomp process has registered threads)\n");
}

static void usage(FILE *f)
{
    fprintf(f, "usage: pvomp-phantomd status [--socket PATH] [--pin DIR] [--watch SECONDS]\n"
               "Shows live phantom counts per process (any user may run it).\n");
}

int pvd_status_main(int argc, char **argv)
{
    const char *sock = pv_phantomd_socket_path();
    const char *pin_dir = PVD_DEFAULT_PIN_DIR;
    double watch = 0;
    static const struct option opts[] = {
        { "socket", required_argument, NULL, 's' },
        { "pin", required_argument, NULL, 'p' },
        { "watch", required_argument, NULL, 'w' },
        { "help", no_argument, NULL, 'h' },
        { 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "s:p:w:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': sock = optarg; break;
        case 'p': pin_dir = optarg; break;
        case 'w': watch = atof(optarg); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    char why[400];
    uint32_t n = 0;
    int fd = pv_phantomd_request(sock, PVOMP_PHANTOMD_OP_MAP, NULL, &n, why, sizeof(why));
    if (fd < 0) {
        /* The pinned map works too, if the daemon pinned it. */
        char path[4200];
        snprintf(path, sizeof(path), "%s/pages", pin_dir);
        fd = bpf_obj_get(path);
        n = PVOMP_PHANTOM_PAGES;
        if (fd < 0) {
            fprintf(stderr, "pvomp-phantomd status: %s\n", why);
            return 1;
        }
    }
    const volatile struct pvomp_phantom_page *pg = pv_phantom_map_pages(fd, n);
    close(fd);
    if (!pg || pg[0].hdr.magic != PVOMP_PHANTOM_MAGIC || pg[0].hdr.version != PVOMP_PHANTOM_VERSION) {
        fprintf(stderr, "pvomp-phantomd status: cannot map the phantom page: %s\n",
                pg ? "unknown layout" : strerror(errno));
        return 1;
    }
    for (;;) {
        show(pg, n);
        if (watch <= 0)
            break;
        fflush(stdout);
        usleep((useconds_t)(watch * 1e6));
        printf("\n");
    }
    return 0;
}
