/* Worksharing loops as clang compiles them: __kmpc_for_static_init_* for
 * schedule(static[,chunk]) and __kmpc_dispatch_*_{4,4u,8,8u} for the other
 * schedules, ordered included, over the four integer kinds, with positive
 * and negative steps.  Each iteration must run exactly once and
 * lastprivate must see the sequentially last value. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define N 1000
static int hits[N + 8];

static void reset(void)
{
    memset(hits, 0, sizeof hits);
}

/* Every index in [0, N) with (index - first) % step == 0 hit once, others 0. */
static void check_hits(int first, int step, const char *what)
{
    for (int x = 0; x < N; x++) {
        int want = x >= first && (x - first) % step == 0;
        if (hits[x] != want) {
            fprintf(stderr, "%s: index %d ran %d times\n", what, x, hits[x]);
            exit(1);
        }
    }
}

/* One loop of type T from LO up to HI (exclusive) by STEP, and back down. */
#define LOOP_UP(T, SCHED, LO, HI, STEP)                                         \
    do {                                                                       \
        reset();                                                               \
        T last = 0;                                                            \
        _Pragma("omp parallel num_threads(4)")                                 \
        _Pragma(SCHED) for (T v = (LO); v < (HI); v += (STEP))                 \
        {                                                                      \
            TEST_INC(&hits[v]);                                                \
            last = v;                                                          \
        }                                                                      \
        check_hits((int)(LO), (int)(STEP), #T " up " SCHED);                   \
        CHECK(last == (T)((LO) + (((HI) - (LO) - 1) / (STEP)) * (STEP)));      \
    } while (0)

#define LOOP_DOWN(T, SCHED, HI, LO, STEP)                                       \
    do {                                                                       \
        reset();                                                               \
        T last = 0;                                                            \
        _Pragma("omp parallel num_threads(3)")                                 \
        _Pragma(SCHED) for (T v = (HI); v > (LO); v -= (STEP))                 \
        {                                                                      \
            TEST_INC(&hits[v]);                                                \
            last = v;                                                          \
        }                                                                      \
        int lowest = (int)((HI) - (((HI) - (LO) - 1) / (STEP)) * (STEP));       \
        check_hits(lowest, (int)(STEP), #T " down " SCHED);                    \
        CHECK(last == (T)lowest);                                              \
    } while (0)

#define ALL_KINDS(SCHED)                                  \
    do {                                                  \
        LOOP_UP(int, SCHED, 0, N, 1);                     \
        LOOP_UP(int, SCHED, 3, N, 7);                     \
        LOOP_UP(unsigned, SCHED, 5, N, 3);                \
        LOOP_UP(long, SCHED, 1, N, 2);                    \
        LOOP_UP(unsigned long long, SCHED, 0, N, 5);      \
        LOOP_DOWN(int, SCHED, N - 1, -1, 1);              \
        LOOP_DOWN(unsigned, SCHED, N - 1, 0, 4);          \
        LOOP_DOWN(long, SCHED, N - 2, 10, 3);             \
        LOOP_DOWN(unsigned long long, SCHED, N - 1, 2, 6); \
    } while (0)

/* Ordered: the ordered regions run in iteration order. */
static void ordered_loop(void)
{
    int seq[N], pos = 0;
#pragma omp parallel for ordered schedule(dynamic, 3) num_threads(4)
    for (int v = 0; v < N; v++) {
#pragma omp ordered
        seq[pos++] = v;
    }
    CHECK(pos == N);
    for (int v = 0; v < N; v++)
        CHECK(seq[v] == v);
    unsigned long long useq[64];
    pos = 0;
#pragma omp parallel for ordered schedule(static, 2) num_threads(3)
    for (unsigned long long v = 64; v > 0; v--) {
#pragma omp ordered
        useq[pos++] = v;
    }
    CHECK(pos == 64);
    for (int v = 0; v < 64; v++)
        CHECK(useq[v] == (unsigned long long)(64 - v));
}

int main(void)
{
    ALL_KINDS("omp for lastprivate(last) schedule(static)");
    ALL_KINDS("omp for lastprivate(last) schedule(static, 4)");
    ALL_KINDS("omp for lastprivate(last) schedule(dynamic)");
    ALL_KINDS("omp for lastprivate(last) schedule(dynamic, 7)");
    ALL_KINDS("omp for lastprivate(last) schedule(monotonic: dynamic, 2)");
    ALL_KINDS("omp for lastprivate(last) schedule(guided)");
    ALL_KINDS("omp for lastprivate(last) schedule(guided, 5)");
    ALL_KINDS("omp for lastprivate(last) schedule(auto)");
    ALL_KINDS("omp for lastprivate(last) schedule(runtime)");
    omp_set_schedule(omp_sched_dynamic, 3);
    ALL_KINDS("omp for lastprivate(last) schedule(runtime)");
    ordered_loop();

    /* An empty loop and one shorter than the team. */
    int ran = 0;
    volatile int zero = 0, two = 2;
#pragma omp parallel for num_threads(4) schedule(static)
    for (int v = 0; v < zero; v++)
        TEST_INC(&ran);
    CHECK(ran == 0);
#pragma omp parallel for num_threads(4) schedule(static) reduction(+ : ran)
    for (int v = 0; v < two; v++)
        ran++;
    CHECK(ran == 2);

    printf("kmpc_loops: ok\n");
    return 0;
}
