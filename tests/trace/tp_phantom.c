/* phantom_change records carry the phantom page's average and sequence
 * number (checked by trace_test.py phantom, which plays pvomp-phantomd and
 * writes the page).  Run with GOMP_WAIT_POLICY=pvsched GOMP_SPINCOUNT=0, so
 * that every wait blocks and reports the phantom count it sees.
 *
 * Phase by phase: print "phase N", wait for a line on stdin (the test has
 * set the page for this phase by then), then run a region in which thread 0
 * waits at a barrier for thread 1 - or, with a second argument "barriers",
 * in which both run barriers back to back for 20 ms (many short waits). */
#define _GNU_SOURCE
#include <omp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvomp_check.h"

int main(int argc, char **argv)
{
    int phases = argc > 1 ? atoi(argv[1]) : 3;
    bool barriers = argc > 2 && strcmp(argv[2], "barriers") == 0;
    int waited = 0, team = 0;
    for (int phase = 0; phase < phases; phase++) {
        char line[64];
        printf("phase %d\n", phase);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            return 1;
#pragma omp parallel num_threads(2) reduction(+ : waited)
        {
            if (barriers) {
                /* Thread 0 decides when the 20 ms are over; both leave the
                 * loop after the same barrier. */
                static _Atomic bool over;
                double end = omp_get_wtime() + 0.02;
                if (omp_get_thread_num() == 0)
                    atomic_store(&over, false);
#pragma omp barrier
                for (;;) {
                    if (omp_get_thread_num() == 0 && omp_get_wtime() > end)
                        atomic_store(&over, true);
#pragma omp barrier
                    bool stop = atomic_load(&over);
#pragma omp barrier
                    if (stop)
                        break;
                }
                if (omp_get_thread_num() == 0) {
                    waited++;
                    team = omp_get_num_threads();
                }
            } else if (omp_get_thread_num() == 1) {
                usleep(20000);
            } else {
                waited++;
                team = omp_get_num_threads();
            }
#pragma omp barrier
        }
    }
    CHECK(waited == phases && team == 2);
    printf("done\n");
    return 0;
}
