/* More threads than CPUs (run under `taskset -c 0`: 2 threads, 1 CPU).  A
 * waiter must hand the CPU to the teammate it waits for with sched_yield
 * rather than sleep on a futex each time (src/wait/policy.c): over 20000
 * barriers the team's voluntary context switches (the futex sleeps; a yield
 * counts as involuntary) stay under a tenth of them (before: one per
 * barrier).
 * With the argument "passive" (OMP_WAIT_POLICY=passive) the opposite: a
 * waiter sleeps at once, so most waits are sleeps; that shows the count
 * measures what it should. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pvomp_check.h"
#include "omp_test.h"

enum { ROUNDS = 20000 };

int main(int argc, char **argv)
{
    bool passive = argc > 1 && !strcmp(argv[1], "passive");
    CHECK(omp_get_num_procs() == 1); /* run under taskset -c 0 */
    long sleeps[2] = { 0 };
#pragma omp parallel num_threads(2)
    {
        long v0 = test_voluntary_switches();
        for (int i = 0; i < ROUNDS; i++) {
#pragma omp barrier
        }
        sleeps[omp_get_thread_num()] = test_voluntary_switches() - v0;
    }
    long n = sleeps[0] + sleeps[1];
    printf("2 threads on 1 CPU%s: %d barriers, %ld futex sleeps\n", passive ? " (passive)" : "",
           ROUNDS, n);
    CHECK(passive ? n > ROUNDS / 2 : n < ROUNDS / 10);
    return 0;
}
