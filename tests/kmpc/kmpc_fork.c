/* __kmpc_fork_call with many shared arguments, num_threads, proc_bind,
 * if(false) (serialized parallel), nesting, and libomp's thread numbers. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

int main(void)
{
    /* 12 shared variables: the microtask gets 12 pointers after the tids. */
    int a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11, l = 12;
    int sum = 0, threads = 0;
#pragma omp parallel num_threads(3)
    {
        TEST_ADD(&sum, a + b + c + d + e + f + g + h + i + j + k + l);
        TEST_INC(&threads);
        CHECK(omp_get_num_threads() == 3);
    }
    CHECK(threads == 3 && sum == 3 * 78);

    /* if(false): a team of one, level 1, the body on the encountering thread. */
    int level = -1, n = -1, active = -1;
    volatile int no = 0;
#pragma omp parallel if (no) num_threads(4)
    {
        level = omp_get_level();
        n = omp_get_num_threads();
        active = omp_get_active_level();
    }
    CHECK(level == 1 && n == 1 && active == 0);

    /* proc_bind is accepted and the team still forms. */
    threads = 0;
#pragma omp parallel num_threads(2) proc_bind(close)
    TEST_INC(&threads);
    CHECK(threads == 2);

    /* Nested: 2 x 2 with two active levels. */
    omp_set_max_active_levels(2);
    int inner = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        {
            TEST_INC(&inner);
            CHECK(omp_get_level() == 2);
        }
    }
    CHECK(inner == 4);

    /* num_threads pushed for one region only: the next one uses the ICV. */
    omp_set_num_threads(2);
#pragma omp parallel num_threads(3)
    CHECK(omp_get_num_threads() == 3);
    threads = 0;
#pragma omp parallel
    TEST_INC(&threads);
    CHECK(threads == 2);

    printf("kmpc_fork: ok\n");
    return 0;
}
