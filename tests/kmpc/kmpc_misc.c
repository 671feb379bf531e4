/* libomp's smaller entry points, as code written for libomp calls them:
 * __kmpc_*_lock (mutual exclusion, nesting), the split barrier
 * (__kmpc_barrier_master: the others leave only after the primary's block),
 * the error directive at warning severity (the program goes on), the
 * default target-offload value, allocators through __kmpc_*_allocator. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef struct ident ident_t;
void __kmpc_init_lock(ident_t *, int, void **);
void __kmpc_set_lock(ident_t *, int, void **);
void __kmpc_unset_lock(ident_t *, int, void **);
int __kmpc_test_lock(ident_t *, int, void **);
void __kmpc_destroy_lock(ident_t *, int, void **);
void __kmpc_init_nest_lock(ident_t *, int, void **);
void __kmpc_set_nest_lock(ident_t *, int, void **);
void __kmpc_unset_nest_lock(ident_t *, int, void **);
int __kmpc_test_nest_lock(ident_t *, int, void **);
void __kmpc_destroy_nest_lock(ident_t *, int, void **);
int __kmpc_barrier_master(ident_t *, int);
int __kmpc_global_thread_num(ident_t *);
#define GTID __kmpc_global_thread_num(NULL)
void __kmpc_end_barrier_master(ident_t *, int);
void __kmpc_error(ident_t *, int, const char *);
int __kmpc_get_target_offload(void);
uintptr_t __kmpc_init_allocator(int, uintptr_t, int, const void *);
void __kmpc_destroy_allocator(int, uintptr_t);
void __kmpc_set_default_allocator(int, uintptr_t);
uintptr_t __kmpc_get_default_allocator(int);

int main(void)
{
    void *lock, *nest;
    long counter = 0;
    int inside = 0, overlap = 0;
    __kmpc_init_lock(NULL, GTID, &lock);
#pragma omp parallel num_threads(4)
    for (int i = 0; i < 5000; i++) {
        __kmpc_set_lock(NULL, GTID, &lock);
        if (TEST_INC(&inside) != 0)
            TEST_INC(&overlap);
        counter++;
        __atomic_fetch_sub(&inside, 1, __ATOMIC_RELAXED);
        __kmpc_unset_lock(NULL, GTID, &lock);
    }
    CHECK(overlap == 0 && counter == 20000);
    CHECK(__kmpc_test_lock(NULL, GTID, &lock) == 1);
    CHECK(__kmpc_test_lock(NULL, GTID, &lock) == 0); /* a simple lock does not nest */
    __kmpc_unset_lock(NULL, GTID, &lock);
    __kmpc_destroy_lock(NULL, GTID, &lock);

    __kmpc_init_nest_lock(NULL, GTID, &nest);
    __kmpc_set_nest_lock(NULL, GTID, &nest);
    CHECK(__kmpc_test_nest_lock(NULL, GTID, &nest) == 2);
    int other = -1;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1)
        other = __kmpc_test_nest_lock(NULL, GTID, &nest); /* held by thread 0 */
    CHECK(other == 0);
    __kmpc_unset_nest_lock(NULL, GTID, &nest);
    __kmpc_unset_nest_lock(NULL, GTID, &nest);
    __kmpc_destroy_nest_lock(NULL, GTID, &nest);

    int block_done = 0, early = 0, ran = 0;
#pragma omp parallel num_threads(3)
    {
        if (__kmpc_barrier_master(NULL, GTID)) {
            test_delay(200000);
            TEST_STORE(&block_done, 1);
            TEST_INC(&ran);
            __kmpc_end_barrier_master(NULL, GTID);
        } else if (!TEST_LOAD(&block_done)) {
            TEST_INC(&early);
        }
    }
    CHECK(ran == 1 && early == 0);

    __kmpc_error(NULL, 1, "kmpc_misc: a warning-severity error directive (expected)");
    CHECK(__kmpc_get_target_offload() == 1); /* default */

    uintptr_t a = __kmpc_init_allocator(0, (uintptr_t)omp_default_mem_space, 0, NULL);
    CHECK(a != 0);
    uintptr_t before = __kmpc_get_default_allocator(0);
    __kmpc_set_default_allocator(0, a);
    CHECK(__kmpc_get_default_allocator(0) == a);
    __kmpc_set_default_allocator(0, before);
    __kmpc_destroy_allocator(0, a);
    printf("kmpc_misc: ok\n");
    return 0;
}
