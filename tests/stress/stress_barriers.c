/* Stress: 10^6 barriers in teams whose size changes from region to region
 * (1 to 4 threads), a tenth of them in two nested teams at once.  After
 * each barrier every thread checks that the whole team arrived (three
 * rotating counters, as in tests/omp/omp_barrier.c).  No hang: CTest's
 * timeout is the only time bound. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define TOTAL 1000000L
#define PER_REGION 1000

struct counters {
    int c[3];
    int bad;
};

static void steps(struct counters *s, int count)
{
    int n = omp_get_num_threads(), me = omp_get_thread_num();
    for (int k = 0; k < count; k++) {
        TEST_INC(&s->c[k % 3]);
#pragma omp barrier
        if (TEST_LOAD(&s->c[k % 3]) != n)
            TEST_INC(&s->bad);
        if (me == 0)
            TEST_STORE(&s->c[(k + 2) % 3], 0);
    }
}

int main(int argc, char **argv)
{
    long total = argc > 1 ? atol(argv[1]) : TOTAL;
    omp_set_max_active_levels(2);
    double t0 = omp_get_wtime();
    long done = 0;
    for (long round = 0; done < total; round++) {
        int n = 1 + (int)(round % 4);
        if (round % 10 == 9) {
            struct counters s[2];
            memset(s, 0, sizeof s);
#pragma omp parallel num_threads(2)
            {
                struct counters *mine = &s[omp_get_thread_num()];
#pragma omp parallel num_threads(n)
                steps(mine, PER_REGION / 2);
            }
            CHECK(s[0].bad == 0 && s[1].bad == 0);
            done += PER_REGION; /* two teams, PER_REGION/2 barriers each */
        } else {
            struct counters s;
            memset(&s, 0, sizeof s);
#pragma omp parallel num_threads(n)
            steps(&s, PER_REGION);
            if (s.bad) {
                fprintf(stderr, "round %ld (%d threads): %d early departures\n", round, n, s.bad);
                CHECK(s.bad == 0);
            }
            done += PER_REGION;
        }
    }
    printf("stress_barriers: %ld barriers, %.1f s\n", done, omp_get_wtime() - t0);
    return 0;
}
