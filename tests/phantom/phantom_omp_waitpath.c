/* Observed wait-path behaviour, in the spirit of the seed's tests: eBPF
 * probes watch pvomp's wait path (uprobe/uretprobe on pv_wait_while_eq), the
 * futex system call (raw sys_enter, futex number) and sched_switch while a
 * two-thread team (one thread per CPU) runs barriers.
 *
 *   quiet:  nothing else runs.  pvsched waiters spin and return; they block
 *           only when the tracker saw a phantom, and rarely.
 *   inject: a SCHED_FIFO injector is busy 5 ms of every 10 ms on CPU 0, so
 *           thread 0 is a phantom half of the time.  pvsched waiters reach
 *           the futex quickly; under active they never do (they spin on the
 *           phantom); default ones, which use the running tracker, reach it
 *           quickly too; without their late-waiter rules (PVOMP_WAIT_ADAPT=0)
 *           only after the spin count.
 *
 * Each (scenario, policy) runs in a child of this test; the child prints one
 * STATS line that the parent checks. */
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "phtest.h"
#include "pvomp_check.h"
#include "waitobs.skel.h"

#define HIST 40
struct stats {
    unsigned long long entries, returned, blocked, futex, preempted, lat_sum, hist[HIST];
};

static _Atomic int inj_stop;

static void *injector(void *arg)
{
    (void)arg;
    ph_pin_cpu(0);
    struct sched_param sp = { .sched_priority = 10 };
    CHECK(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0);
    while (!atomic_load(&inj_stop)) {
        ph_busy_ns(5000000);
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static struct waitobs_bpf *observe(void)
{
    struct waitobs_bpf *o = waitobs_bpf__open();
    CHECK(o != NULL);
    o->rodata->target_tgid = (uint32_t)getpid();
    o->rodata->futex_nr = SYS_futex;
    CHECK(waitobs_bpf__load(o) == 0);
    LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = "pv_wait_while_eq");
    o->links.wait_enter =
        bpf_program__attach_uprobe_opts(o->progs.wait_enter, getpid(), ph_runtime_path(), 0, &uo);
    if (!o->links.wait_enter)
        fprintf(stderr, "uprobe on pv_wait_while_eq in %s: %s\n", ph_runtime_path(),
                strerror(errno));
    CHECK(o->links.wait_enter != NULL);
    uo.retprobe = true;
    o->links.wait_exit =
        bpf_program__attach_uprobe_opts(o->progs.wait_exit, getpid(), ph_runtime_path(), 0, &uo);
    CHECK(o->links.wait_exit != NULL);
    o->links.futex_enter = bpf_program__attach(o->progs.futex_enter);
    CHECK(o->links.futex_enter != NULL);
    o->links.waiter_switch = bpf_program__attach(o->progs.waiter_switch);
    CHECK(o->links.waiter_switch != NULL);
    return o;
}

static int child(const char *scenario)
{
    bool inject = strcmp(scenario, "inject") == 0;
    ph_proc_t *p = ph_find(getpid()); /* NULL unless pvsched */
    struct waitobs_bpf *o = observe();
    pthread_t inj;
    uint64_t ev0 = p ? p->phantom_events + p->vcpu_events : 0;
    if (inject)
        CHECK(pthread_create(&inj, NULL, injector, NULL) == 0);

    static _Atomic int stop;
    uint64_t end = ph_now_ns() + 1000000000ull;
    long barriers = 0;
#pragma omp parallel num_threads(2)
    {
        ph_pin_cpu(omp_get_thread_num());
        for (;;) {
            if (omp_get_thread_num() == 0 && ph_now_ns() > end)
                atomic_store(&stop, 1);
#pragma omp barrier
            if (atomic_load(&stop))
                break;
#pragma omp barrier
            if (omp_get_thread_num() == 0)
                barriers += 2;
        }
    }
    if (inject) {
        atomic_store(&inj_stop, 1);
        pthread_join(inj, NULL);
    }
    uint64_t events = p ? p->phantom_events + p->vcpu_events - ev0 : 0;
    struct stats s;
    uint32_t key = 0;
    CHECK(bpf_map_lookup_elem(bpf_map__fd(o->maps.stats), &key, &s) == 0);
    waitobs_bpf__destroy(o);
    /* Median of entry -> futex wait, from the log2 histogram (bucket's top). */
    unsigned long long seen = 0, p50 = 0;
    for (int b = 0; b < HIST && s.blocked; b++) {
        seen += s.hist[b];
        if (seen * 2 >= s.blocked) {
            p50 = 1ull << (b + 1);
            break;
        }
    }
    printf("STATS barriers=%ld entries=%llu returned=%llu blocked=%llu futex=%llu "
           "preempted=%llu p50_ns=%llu mean_ns=%llu phantom_events=%llu phantom_page=%d\n",
           barriers, s.entries, s.returned, s.blocked, s.futex, s.preempted, p50,
           s.blocked ? s.lat_sum / s.blocked : 0, (unsigned long long)events, p != NULL);
    return 0;
}

struct result {
    long barriers;
    unsigned long long entries, returned, blocked, futex, preempted, p50, mean, events;
    int page; /* the child found its phantom page (pvsched is really on) */
};

static struct result run(const char *scenario, const char *policy)
{
    const char *args[] = { scenario, NULL };
    char *out = ph_run_child(policy, args);
    struct result r;
    char *line = strstr(out, "STATS ");
    CHECK(line != NULL);
    CHECK(sscanf(line,
                 "STATS barriers=%ld entries=%llu returned=%llu blocked=%llu futex=%llu "
                 "preempted=%llu p50_ns=%llu mean_ns=%llu phantom_events=%llu phantom_page=%d",
                 &r.barriers, &r.entries, &r.returned, &r.blocked, &r.futex, &r.preempted, &r.p50,
                 &r.mean, &r.events, &r.page) == 10);
    /* pvsched children are tracked (they have a phantom page), and so are
     * default ones, which use a running tracker by themselves; others not */
    CHECK(r.page == (!strcmp(policy, "pvsched") || !strcmp(policy, "default")));
    printf("%-6s %-8s %9ld barriers, %9llu waits: %9llu returned spinning, %7llu blocked "
           "(median %7llu ns, mean %8llu ns after entering), %6llu switched out spinning; "
           "%llu phantom events\n",
           scenario, policy, r.barriers, r.entries, r.returned, r.blocked, r.p50, r.mean,
           r.preempted, r.events);
    free(out);
    return r;
}

int main(int argc, char **argv)
{
    (void)argc;
    if (ph_is_child())
        return child(argv[1]);
    CHECK(sysconf(_SC_NPROCESSORS_ONLN) >= 2);
    ph_start_daemon();

    struct result q = run("quiet", "pvsched");
    CHECK(q.entries > 1000 && q.returned > 0);
    /* Without phantoms they spin and never block: no phantom event, no
     * block.  A phantom episode (a vCPU preempted by the host, a thread
     * preempted by a stray task) stays flagged until the tracker sees it end,
     * and every wait in it blocks, so one episode can account for several
     * blocks (53 blocks from 25 events in one CI run).  So: blocking is
     * rare, or there were phantom episodes enough to explain it (other work
     * on the machine makes real phantoms; a spinning policy would block
     * on none of them, a blocking one on every wait). */
    CHECK(q.events > 0 || q.blocked == 0);
    CHECK(q.blocked * 100 <= q.entries || q.blocked <= 64 * q.events);

    struct result ip = run("inject", "pvsched");
    struct result ia = run("inject", "active");
    struct result id = run("inject", "default");
    struct result io = run("inject", "default-noadapt");
    /* With phantoms pvsched waiters block, and quickly: the median waiter
     * reaches the futex within a tenth of an injection burst (5 ms), long
     * before default's spin count runs out; active never blocks. */
    CHECK(ip.blocked > 0 && ip.p50 > 0);
    CHECK(ip.p50 <= 500000);
    CHECK(ia.blocked == 0);
    /* default uses the running tracker: it blocks on phantoms too, once a
     * wait is late (50 us), within a tenth of a burst like pvsched */
    CHECK(id.blocked > 0 && id.p50 <= 500000);
    /* without its late-waiter rules it blocks only after its spin count:
     * milliseconds, not the microseconds of pvsched (8 ms median in one
     * run, docs/pvsched.md) */
    CHECK(io.blocked == 0 || (io.p50 > ip.p50 && io.p50 >= 1000000));
    printf("PASS\n");
    return 0;
}
