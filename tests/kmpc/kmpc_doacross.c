/* Doacross loops as clang compiles them (__kmpc_doacross_init/wait/post/
 * fini): a 1-D chain where each iteration needs the one before, under static,
 * dynamic and guided schedules, and a 2-D wavefront whose sinks reach outside
 * the nest (ignored), stepping down in one dimension. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define N 400
#define R 24
#define C 30

static int order[N], done_at[N];
static int grid[R][C];

int main(void)
{
    int clock = 0;
#pragma omp parallel for ordered(1) schedule(static, 1) num_threads(4)
    for (int i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
        order[i] = TEST_INC(&clock);
#pragma omp ordered depend(source)
        test_delay(i % 7 * 100);
    }
    for (int i = 0; i < N; i++)
        CHECK(order[i] == i);

    clock = 0;
#pragma omp parallel for ordered(1) schedule(dynamic, 3) num_threads(3)
    for (int i = N - 1; i >= 0; i -= 2) {
#pragma omp ordered depend(sink : i + 2)
        done_at[i] = TEST_INC(&clock);
#pragma omp ordered depend(source)
    }
    for (int i = N - 1, k = 0; i >= 0; i -= 2, k++)
        CHECK(done_at[i] == k);

    /* grid[i][j] needs its upper and upper-right neighbours; at j = C - 1 the
     * second sink lies outside the nest and is ignored.  (A sink past the
     * last j of a loop stepping down, j - 1 at j = 0, would wait forever,
     * on libomp too: clang 14 passes up = the trip count, so libomp takes
     * that iteration for a real one.) */
#pragma omp parallel for ordered(2) schedule(guided) num_threads(4)
    for (int i = 0; i < R; i++)
        for (int j = C - 1; j >= 0; j--) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i - 1, j + 1)
            {
                int up = i ? TEST_LOAD(&grid[i - 1][j]) : 0;
                int ur = i && j < C - 1 ? TEST_LOAD(&grid[i - 1][j + 1]) : 0;
                CHECK(i == 0 || (up > 0 && (j == C - 1 || ur > 0)));
                TEST_STORE(&grid[i][j], 1 + (up > ur ? up : ur));
            }
#pragma omp ordered depend(source)
        }
    for (int j = 0; j < C; j++)
        CHECK(grid[R - 1][j] == R);
    printf("kmpc_doacross: ok\n");
    return 0;
}
