/* Stress: 10^6 parallel regions whose team size changes every region (1 to
 * 4 threads), one in 64 of them nested (2 outer threads, each with an inner
 * team of 1 to 4).  Every region must run exactly its team; the run must
 * end (CTest's timeout is the only time bound).  The elapsed time is
 * printed for information only. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define REGIONS 1000000L

int main(int argc, char **argv)
{
    long regions = argc > 1 ? atol(argv[1]) : REGIONS;
    omp_set_max_active_levels(2);
    double t0 = omp_get_wtime();
    long members = 0, expected = 0;
    int bad = 0;
    for (long r = 0; r < regions; r++) {
        int n = 1 + (int)(r % 4);
        int cnt = 0;
        if (r % 64 == 63) {
#pragma omp parallel num_threads(2)
            {
                if (omp_get_num_threads() != 2)
                    TEST_INC(&bad);
#pragma omp parallel num_threads(n)
                {
                    TEST_INC(&cnt);
                    if (omp_get_num_threads() != n || omp_get_level() != 2)
                        TEST_INC(&bad);
                }
            }
            expected += 2 * n;
        } else {
#pragma omp parallel num_threads(n)
            {
                TEST_INC(&cnt);
                if (omp_get_num_threads() != n)
                    TEST_INC(&bad);
            }
            expected += n;
        }
        members += cnt;
        if (bad || members != expected) {
            fprintf(stderr, "region %ld: %d wrong team sizes, %ld members, expected %ld\n", r, bad,
                    members, expected);
            CHECK(bad == 0 && members == expected);
        }
    }
    printf("stress_regions: %ld regions, %ld implicit tasks, %.1f s\n", regions, members,
           omp_get_wtime() - t0);
    return 0;
}
