/* The late-waiter rules' yield interval (src/wait/late.c, rule 2): a waiter
 * past its first `yield` (50 us) yields every `yield` us; with `fast` set, the
 * next yield comes `fast` us after one that gave the CPU back within `back`
 * us, and `yield` us after one that kept the waiter off its CPU longer.
 * The program defines sched_yield itself, so the runtime's calls come here
 * (the executable comes first in symbol lookup): it counts the calls thread
 * 1 makes while it waits in a barrier for thread 0's 5 ms of work, and with
 * the argument "slowback" sleeps 300 us after each real yield, as if a busy
 * co-runner had taken the CPU.  Judged per millisecond of thread 1's own CPU
 * time in those waits (a preempted waiter neither spins nor yields), over
 * enough steps for 40 ms of it:
 *   often     (the default, fast=5): more than 40 yields per ms (one per 25 us;
 *                                  measured ~100-130)
 *   seldom    (fast=0):            at most 25 per ms plus one per off-CPU gap
 *                                  (one per 50 us; measured ~20 quiet)
 *   slowback  (fast=5, crowd=0: slow yields, rule 3 off): the same as seldom
 *   crowded   (the default, slow yields): rule 3 (a yield that kept the
 *             waiter away `back` marks the thread crowded for `crowd`, 20 ms):
 *             thread 1 blocks instead of yielding, so over 200 steps (1 s)
 *             at most one yield per 10 ms of waiting plus one (one per
 *             ~20 ms expected; ~3 per ms with the rule off), and at most
 *             200 us of its CPU per wait (it blocks after `cspin`, 20 us;
 *             with the rule off it spins ~700 us a wait between the fake
 *             yields' 300 us sleeps) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pvomp_check.h"
#include "omp_test.h"

/* Steps until thread 1 has spun 40 ms in its waits (a loaded machine gives
 * it less of each wait), at most MAX_STEPS. */
enum { MAX_STEPS = 2000, WORK_NS = 5000000 };
static const long long ENOUGH_NS = 40000000;

static __thread bool counting;
static _Atomic long yields;
static bool slow_back;

int sched_yield(void)
{
    static int (*real)(void);
    if (!real)
        real = (int (*)(void))dlsym(RTLD_NEXT, "sched_yield");
    int r = real();
    if (counting) {
        atomic_fetch_add_explicit(&yields, 1, memory_order_relaxed);
        if (slow_back)
            nanosleep(&(struct timespec){0, 300000}, NULL);
    }
    return r;
}

static long long clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "seldom";
    bool crowded = !strcmp(mode, "crowded");
    slow_back = crowded || !strcmp(mode, "slowback");
    int max_steps = crowded ? 200 : MAX_STEPS;
    CHECK(omp_get_num_procs() >= 2);
    long long waited_cpu = 0, waited_wall = 0;
    long gaps = 0;
    int steps = 0;
    _Atomic bool enough = false;
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        for (int i = 0; i < max_steps && !atomic_load(&enough); i++) {
            if (me == 0) {
                long long until = clock_ns(CLOCK_THREAD_CPUTIME_ID) + WORK_NS;
                while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < until)
                    ;
            }
            long long c0 = 0, w0 = 0;
            long inv0 = 0;
            if (me == 1) {
                inv0 = test_involuntary_switches();
                c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
                w0 = clock_ns(CLOCK_MONOTONIC);
                counting = true;
            }
#pragma omp barrier
            if (me == 1) {
                counting = false;
                waited_cpu += clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
                waited_wall += clock_ns(CLOCK_MONOTONIC) - w0;
                gaps += test_involuntary_switches() - inv0;
                steps = i + 1;
                if (waited_cpu >= ENOUGH_NS && !crowded)
                    atomic_store(&enough, true);
            }
#pragma omp barrier
        }
    }
    long n = atomic_load(&yields);
    double per_ms = n / (waited_cpu / 1e6);
    printf("%s: %d steps; thread 1 waited %.1f ms (%.1f ms on its CPU), yielded %ld times (%.1f per ms "
           "of CPU), %ld involuntary switches\n",
           mode, steps, waited_wall / 1e6, waited_cpu / 1e6, n, per_ms, gaps);
    if (crowded) {
        CHECK(steps == max_steps);
        CHECK(n <= waited_wall / 10000000 + 1);
        CHECK(waited_cpu <= steps * 200000LL);
        return 0;
    }
    CHECK(waited_cpu >= ENOUGH_NS); /* thread 1 did wait, and spun */
    if (!strcmp(mode, "often"))
        CHECK(per_ms > 40);
    else
        CHECK(n <= waited_cpu / 40000 + gaps + steps);
    return 0;
}
