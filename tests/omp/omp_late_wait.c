/* The default policy's no-root phantom rule (src/wait/late.c): a waiter that
 * is late blocks when the teammate it waits for is not running although it
 * is not waiting (its thread CPU clock advanced by less than half the wall
 * time).  Thread 0 (bound to CPU 0) works 2 ms of CPU time per step while
 * thread 1 (CPU 1) waits in the barrier; with the argument "contended" a busy
 * thread of the program's own (no team thread) shares CPU 0, so thread 0 is
 * preempted for milliseconds at a time.  Counted: thread 1's futex sleeps
 * (voluntary context switches; a yield is an involuntary one).
 *   contended:          thread 1 sleeps in at least a quarter of the steps
 *                       (the old default spun 300000 times, ~10 ms, first)
 *   contended, PVOMP_WAIT_ADAPT=0 (argument "noadapt"): under half of them,
 *                       showing that the count measures the rule
 *   quiet:              printed only (other work on the machine makes real
 *                       phantoms, and blocking on them is right) */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pvomp_check.h"

enum { STEPS = 200, WORK_NS = 2000000 };

static _Atomic bool stop;

static long voluntary_switches(void)
{
    char line[256];
    long n = -1;
    FILE *f = fopen("/proc/thread-self/status", "r");
    CHECK(f != NULL);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
            break;
    fclose(f);
    CHECK(n >= 0);
    return n;
}

static long long thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *co_runner(void *arg)
{
    (void)arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0);
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        ;
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "quiet";
    bool contended = strcmp(mode, "quiet") != 0;
    CHECK(omp_get_num_procs() >= 2);
    pthread_t co;
    if (contended)
        CHECK(pthread_create(&co, NULL, co_runner, NULL) == 0);
    long sleeps = 0;
    int cpus[2] = { -1, -1 };
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        cpus[me] = sched_getcpu();
        long v0 = voluntary_switches();
        for (int i = 0; i < STEPS; i++) {
            if (me == 0) {
                long long until = thread_cpu_ns() + WORK_NS;
                while (thread_cpu_ns() < until)
                    ;
            }
#pragma omp barrier
        }
        if (me == 1)
            sleeps = voluntary_switches() - v0;
    }
    atomic_store(&stop, true);
    if (contended)
        pthread_join(co, NULL);
    CHECK(cpus[0] == 0 && cpus[1] == 1); /* OMP_PLACES={0},{1} OMP_PROC_BIND=close */
    printf("%s: %d steps, the waiting thread slept %ld times\n", mode, STEPS, sleeps);
    if (!strcmp(mode, "contended"))
        CHECK(sleeps >= STEPS / 4);
    else if (!strcmp(mode, "noadapt"))
        CHECK(sleeps < STEPS / 2);
    return 0;
}
