/* An OpenMP program whose constructs the runtime's trace points must all
 * show, in known numbers (checked by trace_test.py runtime).  It prints
 * "generated NAME COUNT" for what the log must contain at least/exactly. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pvomp_check.h"

#define REGIONS 20
#define ITERS 1000

int main(void)
{
    int nthreads = 0;
    long sum = 0;
    unsigned criticals = 0, singles = 0, tasks = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
    omp_set_num_threads(2);
    for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel reduction(+ : sum)
        {
#pragma omp single
            {
                nthreads = omp_get_num_threads();
                singles++;
            }
#pragma omp for schedule(dynamic, 7)
            for (int i = 0; i < ITERS; i++)
                sum += i;
#pragma omp barrier
#pragma omp critical
            criticals++;
            omp_set_lock(&lock);
            omp_unset_lock(&lock);
#pragma omp master
            {
                for (int t = 0; t < 4; t++) {
#pragma omp task
                    {
#pragma omp atomic
                        tasks++;
                    }
                }
            }
        }
    }
    omp_destroy_lock(&lock);
    CHECK(sum == (long)REGIONS * ITERS * (ITERS - 1) / 2);
    CHECK(nthreads == 2);
    printf("generated threads %d\n", nthreads);
    printf("generated parallel %d\n", REGIONS);
    printf("generated critical %u\n", criticals);
    printf("generated lock %d\n", REGIONS * nthreads);
    printf("generated single %u\n", singles);
    printf("generated loop_iterations %d\n", REGIONS * ITERS);
    printf("generated task %u\n", tasks);
    return 0;
}
