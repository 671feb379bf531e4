/* What each phantom signal a process can read without root costs here (not
 * a test; docs/pvsched.md "Seeing phantoms without root").  A busy helper
 * thread plays the teammate whose state is read.  Prints one line per
 * signal: nanoseconds per read, median of 5 batches.
 *   signals [--batch N] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static _Atomic int stop;
static _Atomic pid_t peer_tid;
static const volatile uint32_t *_Atomic peer_rseq_cpu;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void *peer(void *arg)
{
    (void)arg;
    struct rseq *r = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
    atomic_store(&peer_rseq_cpu, __rseq_size ? &r->cpu_id : NULL);
    atomic_store(&peer_tid, (pid_t)syscall(SYS_gettid));
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        ;
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static long batch = 20000;
static clockid_t peer_clock;
static int fd_schedstat, fd_stat, fd_pressure, fd_loadavg, fd_procstat;
static char buf[4096];

#define SIGNAL(name, what, body)                                                   \
    static void name(void) { body; }                                               \
    static const char name##_what[] = what;

SIGNAL(s_rseq, "peer's CPU from its rseq area (a load)", (void)*atomic_load(&peer_rseq_cpu))
SIGNAL(s_getcpu, "sched_getcpu (own CPU, via rseq)", (void)sched_getcpu())
SIGNAL(s_vdso, "clock_gettime(CLOCK_MONOTONIC) (vDSO)", { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); })
SIGNAL(s_syscall, "a bare system call (getppid)", (void)syscall(SYS_getppid))
SIGNAL(s_cpuclock, "peer's thread CPU clock (clock_gettime)", { struct timespec t; clock_gettime(peer_clock, &t); })
SIGNAL(s_rusage, "getrusage(RUSAGE_THREAD) (own nivcsw)", { struct rusage r; getrusage(RUSAGE_THREAD, &r); })
SIGNAL(s_yield, "sched_yield (nothing else runnable here)", sched_yield())
SIGNAL(s_schedstat, "/proc/self/task/TID/schedstat (pread)", (void)!pread(fd_schedstat, buf, sizeof buf, 0))
SIGNAL(s_stat, "/proc/self/task/TID/stat (pread)", (void)!pread(fd_stat, buf, sizeof buf, 0))
SIGNAL(s_pressure, "/proc/pressure/cpu (pread)", (void)!pread(fd_pressure, buf, sizeof buf, 0))
SIGNAL(s_loadavg, "/proc/loadavg (pread: running tasks)", (void)!pread(fd_loadavg, buf, sizeof buf, 0))
SIGNAL(s_procstat, "/proc/stat (pread: steal per CPU)", (void)!pread(fd_procstat, buf, sizeof buf, 0))

static void measure(void (*fn)(void), const char *what, long n)
{
    double t[5];
    for (int k = 0; k < 5; k++) {
        double t0 = now_ns();
        for (long i = 0; i < n; i++)
            fn();
        t[k] = (now_ns() - t0) / n;
    }
    qsort(t, 5, sizeof t[0], cmp);
    printf("%10.1f ns  %s\n", t[2], what);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--batch"))
        batch = atol(argv[2]);
    pthread_t th;
    if (pthread_create(&th, NULL, peer, NULL))
        return 1;
    while (!atomic_load(&peer_tid))
        ;
    pthread_getcpuclockid(th, &peer_clock);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)peer_tid);
    fd_schedstat = open(path, O_RDONLY);
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)peer_tid);
    fd_stat = open(path, O_RDONLY);
    fd_pressure = open("/proc/pressure/cpu", O_RDONLY);
    fd_loadavg = open("/proc/loadavg", O_RDONLY);
    fd_procstat = open("/proc/stat", O_RDONLY);
    if (atomic_load(&peer_rseq_cpu))
        measure(s_rseq, s_rseq_what, batch * 10);
    measure(s_getcpu, s_getcpu_what, batch * 10);
    measure(s_vdso, s_vdso_what, batch * 10);
    measure(s_syscall, s_syscall_what, batch);
    measure(s_cpuclock, s_cpuclock_what, batch);
    measure(s_rusage, s_rusage_what, batch);
    measure(s_yield, s_yield_what, batch);
    if (fd_schedstat >= 0)
        measure(s_schedstat, s_schedstat_what, batch / 10);
    if (fd_stat >= 0)
        measure(s_stat, s_stat_what, batch / 10);
    if (fd_pressure >= 0)
        measure(s_pressure, s_pressure_what, batch / 10);
    measure(s_loadavg, s_loadavg_what, batch / 10);
    measure(s_procstat, s_procstat_what, batch / 100);
    atomic_store(&stop, 1);
    pthread_join(th, NULL);
    return 0;
}
