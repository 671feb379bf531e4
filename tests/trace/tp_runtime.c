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
    unsigned criticals = 0, inner = 0, singles = 0, tasks = 0, tested = 0, test_failed = 0, nested = 0;
    unsigned section_runs[3] = { 0, 0, 0 };
    long double atomics = 0;
    omp_lock_t lock;
    omp_nest_lock_t nlock;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nlock);
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
            /* Records while the lock is held (an undeferred task, a nested
             * critical section): the lock's acquisition must precede them
             * in the thread's records. */
#pragma omp task if (0)
            {
#pragma omp atomic
                tasks++;
            }
#pragma omp critical(inner)
            inner++;
            omp_unset_lock(&lock);
            /* omp_test_lock until it succeeds: every success is an
             * acquisition; failures are counted by the program only. */
            while (!omp_test_lock(&lock)) {
#pragma omp atomic
                test_failed++;
            }
#pragma omp atomic
            tested++;
            omp_unset_lock(&lock);
            /* Nestable: set, then test while owning (count 2), then unset twice. */
            omp_set_nest_lock(&nlock);
            if (omp_test_nest_lock(&nlock) == 2) {
#pragma omp atomic
                nested++;
                omp_unset_nest_lock(&nlock);
            }
            omp_unset_nest_lock(&nlock);
            /* A long double: gcc calls GOMP_atomic_start/end (twice, so that
             * the atomic lock's count differs from the critical's). */
#pragma omp atomic
            atomics += 1;
#pragma omp atomic
            atomics += 1;
#pragma omp sections
            {
#pragma omp section
                section_runs[0]++;
#pragma omp section
                section_runs[1]++;
#pragma omp section
                section_runs[2]++;
            }
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
    omp_destroy_nest_lock(&nlock);
    CHECK(sum == (long)REGIONS * ITERS * (ITERS - 1) / 2);
    CHECK(nthreads == 2);
    CHECK(tested == (unsigned)(REGIONS * nthreads) && nested == tested);
    CHECK(atomics == (long double)(2 * REGIONS * nthreads));
    for (int i = 0; i < 3; i++)
        CHECK(section_runs[i] == REGIONS);
    printf("generated threads %d\n", nthreads);
    printf("generated parallel %d\n", REGIONS);
    printf("generated critical %u\n", criticals);
    printf("generated inner %u\n", inner);
    /* set + successful test: the simple lock; set + nested test: the nest lock */
    printf("generated lock %u\n", REGIONS * nthreads + tested);
    printf("generated nest_lock %u\n", 2 * nested);
    printf("generated test_failed %u\n", test_failed);
    printf("generated atomic %d\n", (int)atomics);
    printf("generated sections %d\n", REGIONS);
    printf("generated section_count %d\n", 3);
    printf("generated single %u\n", singles);
    printf("generated loop_iterations %d\n", REGIONS * ITERS);
    printf("generated task %u\n", tasks);
    return 0;
}
