/* phantom_change records carry the phantom page's average and sequence
 * number (checked by trace_test.py phantom, which plays pvomp-phantomd and
 * writes the page).  Run with GOMP_WAIT_POLICY=pvsched GOMP_SPINCOUNT=0, so
 * that every wait blocks and reports the phantom count it sees.
 *
 * Phase by phase: print "phase N", wait for a line on stdin (the test has
 * set the page for this phase by then), then run a region in which thread 0
 * waits at a barrier for thread 1. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pvomp_check.h"

int main(int argc, char **argv)
{
    int phases = argc > 1 ? atoi(argv[1]) : 3;
    int waited = 0, team = 0;
    for (int phase = 0; phase < phases; phase++) {
        char line[64];
        printf("phase %d\n", phase);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            return 1;
#pragma omp parallel num_threads(2) reduction(+ : waited)
        {
            if (omp_get_thread_num() == 1) {
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
