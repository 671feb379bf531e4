/* Masked and master: only the thread whose number matches the filter (0
 * by default, and for master) executes the region; a filter that matches
 * no thread runs nothing; in nested teams the inner team's numbering
 * counts. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

int main(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        for (int rep = 0; rep < 100; rep++) {
            int c_masked = 0, c_f1 = 0, c_last = 0, c_none = 0, c_master = 0, bad = 0;
#pragma omp parallel num_threads(nt)
            {
                int me = omp_get_thread_num(), n = omp_get_num_threads();
#pragma omp masked
                {
                    TEST_INC(&c_masked);
                    if (me != 0)
                        TEST_INC(&bad);
                }
#pragma omp masked filter(1)
                {
                    TEST_INC(&c_f1);
                    if (me != 1)
                        TEST_INC(&bad);
                }
#pragma omp masked filter(n - 1)
                {
                    TEST_INC(&c_last);
                    if (me != n - 1)
                        TEST_INC(&bad);
                }
#pragma omp masked filter(n + 2)
                TEST_INC(&c_none);
#pragma omp master
                {
                    TEST_INC(&c_master);
                    if (me != 0)
                        TEST_INC(&bad);
                }
            }
            CHECK(bad == 0);
            CHECK(c_masked == 1 && c_master == 1 && c_last == 1 && c_none == 0);
            CHECK(c_f1 == (nt > 1));
        }
    }

    /* Nested teams: each inner team has its own thread 1. */
    omp_set_max_active_levels(2);
    int inner_f1 = 0, bad = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(3)
#pragma omp masked filter(1)
    {
        TEST_INC(&inner_f1);
        if (omp_get_thread_num() != 1 || omp_get_level() != 2)
            TEST_INC(&bad);
    }
    CHECK(inner_f1 == 2 && bad == 0);

    /* Combined parallel masked (clang 14, built by tests/kmpc, lacks it:
     * it ignores `masked` there with a warning). */
#if !defined(__clang__) || __clang_major__ > 14
    int pm = 0, who = -1;
#pragma omp parallel masked num_threads(3) filter(2)
    {
        TEST_INC(&pm);
        who = omp_get_thread_num();
    }
    CHECK(pm == 1 && who == 2);
#endif
    printf("omp_masked: ok\n");
    return 0;
}
