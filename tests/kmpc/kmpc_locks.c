/* omp_lock_t and omp_nest_lock_t in libomp's layout (clang's omp.h: one
 * pointer each), through omp_*@VERSION: mutual exclusion and nesting. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define ITERS 20000

int main(void)
{
    CHECK(sizeof(omp_lock_t) == sizeof(void *) && sizeof(omp_nest_lock_t) == sizeof(void *));

    omp_lock_t lock;
    omp_init_lock(&lock);
    long counter = 0;
    int inside = 0, overlap = 0;
#pragma omp parallel num_threads(4)
    for (int i = 0; i < ITERS; i++) {
        omp_set_lock(&lock);
        if (TEST_INC(&inside) != 0)
            TEST_INC(&overlap);
        counter++;
        __atomic_fetch_sub(&inside, 1, __ATOMIC_RELAXED);
        omp_unset_lock(&lock);
    }
    CHECK(overlap == 0 && counter == 4L * ITERS);
    omp_set_lock(&lock);
    int got = 1;
#pragma omp parallel num_threads(2)
#pragma omp single
    got = omp_test_lock(&lock); /* held by the initial thread's task */
    CHECK(got == 0);
    omp_unset_lock(&lock);
    omp_destroy_lock(&lock);

    /* Nestable: the owner re-enters; others wait until the count drops to 0. */
    omp_nest_lock_t nl;
    omp_init_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == 1);
    CHECK(omp_test_nest_lock(&nl) == 2);
    omp_set_nest_lock(&nl);
    int other = -1;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1)
        other = omp_test_nest_lock(&nl);
    CHECK(other == 0);
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    counter = 0;
#pragma omp parallel num_threads(4)
    for (int i = 0; i < ITERS / 4; i++) {
        omp_set_nest_lock(&nl);
        omp_set_nest_lock(&nl);
        counter++;
        omp_unset_nest_lock(&nl);
        omp_unset_nest_lock(&nl);
    }
    CHECK(counter == ITERS);
    omp_destroy_nest_lock(&nl);

    printf("kmpc_locks: ok\n");
    return 0;
}
