/* __kmpc_dist_for_static_init_*: distribute parallel for in one call, as
 * libomp's users (and the OpenMPIRBuilder) call it.  In a league of 3 teams
 * of 2 threads, every iteration goes to exactly one thread, the thread's
 * range lies in its team's [lower, *pupperD], and exactly one thread gets
 * the last-iteration flag: the one holding the last iteration. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef struct ident ident_t;
void __kmpc_dist_for_static_init_4(ident_t *, int, int, int *, int *, int *, int *, int *, int,
                                   int);
void __kmpc_dist_for_static_init_8u(ident_t *, int, int, int *, uint64_t *, uint64_t *,
                                    uint64_t *, int64_t *, int64_t, int64_t);

#define N 101

int main(void)
{
    static int hits[N], hits8[N];
    int lasts = 0, last_owner_ok = 1, outside = 0, lasts8 = 0;
#pragma omp teams num_teams(3)
#pragma omp parallel num_threads(2)
    {
        int lb = 0, ub = N - 1, ubD = 0, st = 0, last = 0;
        __kmpc_dist_for_static_init_4(NULL, 0, 34, &last, &lb, &ub, &ubD, &st, 1, 0);
        for (int i = lb; i <= ub; i++) {
            TEST_INC(&hits[i]);
            if (i > ubD)
                TEST_INC(&outside);
        }
        if (last) {
            TEST_INC(&lasts);
            if (ub != N - 1)
                last_owner_ok = 0;
        }
        /* chunked (33, chunk 4) over an unsigned range: chunks dealt round robin */
        uint64_t l8 = 0, u8 = N - 1, d8 = 0;
        int64_t s8 = 0;
        int last8 = 0;
        __kmpc_dist_for_static_init_8u(NULL, 0, 33, &last8, &l8, &u8, &d8, &s8, 1, 4);
        for (uint64_t c = l8; c <= d8; c += (uint64_t)s8)
            for (uint64_t i = c; i <= c + 3 && i <= d8; i++)
                TEST_INC(&hits8[i]);
        if (last8)
            TEST_INC(&lasts8);
    }
    for (int i = 0; i < N; i++)
        CHECK(hits[i] == 1 && hits8[i] == 1);
    CHECK(outside == 0 && lasts == 1 && last_owner_ok && lasts8 == 1);
    printf("kmpc_dist: ok\n");
    return 0;
}
