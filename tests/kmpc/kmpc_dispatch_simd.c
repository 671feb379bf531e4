/* libomp's dispatch loops as a program may call them itself (LLVM's
 * runtime tests do): __kmpc_dispatch_init takes no chunk, so the primary
 * may take every chunk while the others take theirs only afterwards (and
 * get none); each chunk's upper bound is its last iteration (ub + st is the
 * next chunk's lb); the simd schedules 46 (guided_simd) and 45
 * (static_balanced_chunked) give chunks that are multiples of the chunk. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef struct {
    int reserved_1, flags, reserved_2, reserved_3;
    const char *psource;
} ident;

int __kmpc_global_thread_num(ident *);
void __kmpc_barrier(ident *, int gtid);
void __kmpc_dispatch_init_4(ident *, int gtid, int schedule, int lb, int ub, int st, int chunk);
int __kmpc_dispatch_next_4(ident *, int gtid, int *last, int *lb, int *ub, int *st);

static ident loc = {0, 2, 0, 0, ";kmpc_dispatch_simd.c;main;0;0;;"};
enum { SCHED_DYNAMIC = 35, SCHED_BALANCED_SIMD = 45, SCHED_GUIDED_SIMD = 46 };

/* The primary takes every chunk of lb..ub by st, then the others try. */
static int primary_takes_all(int schedule, int lb, int ub, int st, int chunk)
{
    static int done;
    int bad = 0, gtid = __kmpc_global_thread_num(&loc);
    int last, clb, cub, cst;
    __kmpc_dispatch_init_4(&loc, gtid, schedule, lb, ub, st, chunk);
    if (omp_get_thread_num() == 0) {
        int next = lb, saw_last = 0;
        while (__kmpc_dispatch_next_4(&loc, gtid, &last, &clb, &cub, &cst)) {
            int n = (cub - clb) / st + 1;
            bad += clb != next || cst != st || saw_last;
            bad += !last && n % chunk != 0; /* only the last may be short */
            next = cub + st;
            saw_last = last;
        }
        bad += !saw_last || (st > 0 ? next <= ub : next >= ub) || next - st != lb + (ub - lb) / st * st;
        TEST_STORE(&done, 1);
    } else {
        while (!TEST_LOAD(&done))
            ;
        bad += __kmpc_dispatch_next_4(&loc, gtid, &last, &clb, &cub, &cst) != 0;
    }
    __kmpc_barrier(&loc, gtid);
    if (omp_get_thread_num() == 0)
        TEST_STORE(&done, 0);
    __kmpc_barrier(&loc, gtid);
    return bad;
}

/* static_balanced_chunked: each thread one block, a multiple of the chunk. */
static int balanced_blocks(int n, int chunk)
{
    int bad = 0, gtid = __kmpc_global_thread_num(&loc), last, clb, cub, cst, chunks = 0;
    __kmpc_dispatch_init_4(&loc, gtid, SCHED_BALANCED_SIMD, 0, n - 1, 1, chunk);
    while (__kmpc_dispatch_next_4(&loc, gtid, &last, &clb, &cub, &cst)) {
        chunks++;
        bad += !last && (cub - clb + 1) % chunk != 0;
    }
    return bad + (chunks > 1);
}

int main(void)
{
    int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
    {
        for (int st = 1; st <= 3; st++)
            for (int ub = 0; ub < 40; ub += 3) {
                bad += primary_takes_all(SCHED_GUIDED_SIMD, 0, ub * st, st, 4);
                bad += primary_takes_all(SCHED_GUIDED_SIMD, ub * st, 0, -st, 8);
                bad += primary_takes_all(SCHED_DYNAMIC, -5, ub * st, st, 4);
            }
        bad += balanced_blocks(27, 4) + balanced_blocks(100, 8);
    }
    CHECK(bad == 0);
    printf("kmpc_dispatch_simd: ok\n");
    return 0;
}
