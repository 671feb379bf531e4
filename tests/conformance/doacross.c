/* Doacross loops: depend(sink) waits until the named iteration has passed
 * its depend(source), for every schedule, long and unsigned long long, one
 * and two dimensions; plus the direct ABI with a nest whose counts do not fit
 * in 64 bits together (the per-dimension record).  Each iteration checks that
 * the iterations it depends on are marked done; a wavefront computation must
 * equal its sequential result. */
#define _GNU_SOURCE
#include "pvomp_check.h"

#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

typedef unsigned long long ull;

#define NI 61
#define NJ 37
static int done[NI][NJ];
static long grid[NI][NJ];
static int errors;

static void fail(const char *what, long i, long j)
{
    fprintf(stderr, "FAIL %s: iteration (%ld,%ld) ran before its dependences\n", what, i, j);
    __atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED);
}

static long expected(long i, long j)
{
    static long ref[NI][NJ];
    static bool have;
    if (!have) {
        for (long a = 0; a < NI; a++)
            for (long b = 0; b < NJ; b++)
                ref[a][b] = (a ? ref[a - 1][b] : 1) + (b ? ref[a][b - 1] : 1) + a * b % 7;
        have = true;
    }
    return ref[i][j];
}

static void check_grid(const char *what)
{
    for (long i = 0; i < NI; i++)
        for (long j = 0; j < NJ; j++) {
            if (grid[i][j] != expected(i, j) || done[i][j] != 1) {
                fprintf(stderr, "FAIL %s: cell (%ld,%ld) = %ld (done %d), want %ld\n", what, i, j,
                        grid[i][j], done[i][j], expected(i, j));
                errors++;
                return;
            }
        }
    memset(done, 0, sizeof done);
    memset(grid, 0, sizeof grid);
}

#define CELL(what, i, j)                                                                  \
    do {                                                                                  \
        if (((i) > 0 && !__atomic_load_n(&done[(i) - 1][(j)], __ATOMIC_ACQUIRE)) ||       \
            ((j) > 0 && !__atomic_load_n(&done[(i)][(j) - 1], __ATOMIC_ACQUIRE)))         \
            fail(what, (i), (j));                                                         \
        grid[i][j] = ((i) ? grid[(i) - 1][j] : 1) + ((j) ? grid[i][(j) - 1] : 1) +        \
                     (long)(i) * (long)(j) % 7;                                           \
        __atomic_store_n(&done[i][j], 1, __ATOMIC_RELEASE);                               \
    } while (0)

static void two_dims(int nthr, int chunk)
{
#pragma omp parallel num_threads(nthr)
    {
#pragma omp for ordered(2) schedule(static)
        for (long i = 0; i < NI; i++)
            for (long j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
                CELL("static", i, j);
#pragma omp ordered depend(source)
            }
    }
    check_grid("static");

#pragma omp parallel for ordered(2) schedule(static, chunk) num_threads(nthr)
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            CELL("static,chunk", i, j);
#pragma omp ordered depend(source)
        }
    check_grid("static,chunk");

#pragma omp parallel for ordered(2) schedule(dynamic, chunk) num_threads(nthr)
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            CELL("dynamic", i, j);
#pragma omp ordered depend(source)
        }
    check_grid("dynamic");

    /* Unsigned: start at 1 so that the out-of-space sinks do not wrap. */
#pragma omp parallel for ordered(2) schedule(guided, chunk) num_threads(nthr)
    for (ull i = 1; i <= NI; i++)
        for (ull j = 1; j <= NJ; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            CELL("guided ull", (long)i - 1, (long)j - 1);
#pragma omp ordered depend(source)
        }
    check_grid("guided ull");

#pragma omp parallel for ordered(2) schedule(runtime) num_threads(nthr)
    for (long i = NI - 1; i >= 0; i--)
        for (long j = 0; j < NJ; j++) {
#pragma omp ordered depend(sink : i + 1, j) depend(sink : i, j - 1)
            CELL("runtime down", NI - 1 - i, j);
#pragma omp ordered depend(source)
        }
    check_grid("runtime down");

    /* One dimension: a chain, each iteration after the previous one. */
    long chain = 0, bad = 0;
#pragma omp parallel for ordered(1) schedule(dynamic, chunk) num_threads(nthr) reduction(+ : bad)
    for (long i = 0; i < 3000; i++) {
#pragma omp ordered depend(sink : i - 1)
        bad += __atomic_load_n(&chain, __ATOMIC_ACQUIRE) != i;
        __atomic_store_n(&chain, i + 1, __ATOMIC_RELEASE);
#pragma omp ordered depend(source)
    }
    if (bad) {
        fprintf(stderr, "FAIL chain: %ld iterations ran out of order\n", bad);
        errors++;
    }
}

/* Direct ABI: three dimensions of 2^30 iterations each do not pack into 64
 * bits; only the outer loop runs, with the inner indices fixed, which the
 * runtime cannot tell from a real nest. */
bool GOMP_loop_doacross_start(unsigned, long *, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ull_doacross_start(unsigned, ull *, long, ull, ull *, ull *, uintptr_t *, void **);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_ull_runtime_next(ull *, ull *);
void GOMP_doacross_post(long *);
void GOMP_doacross_wait(long, ...);
void GOMP_doacross_ull_post(ull *);
void GOMP_doacross_ull_wait(ull, ...);
void GOMP_loop_end(void);

static int flag[200];

static void wide(int nthr, long sched, long chunk)
{
    memset(flag, 0, sizeof flag);
#pragma omp parallel num_threads(nthr)
    {
        long counts[3] = {200, 1L << 30, 1L << 30};
        long s, e;
        void *mem = (void *)(uintptr_t)24;
        bool more = GOMP_loop_doacross_start(3, counts, sched, chunk, &s, &e, NULL, &mem);
        CHECK(mem != NULL && ((long *)mem)[0] == 0 && ((long *)mem)[2] == 0);
        while (more) {
            for (long i = s; i < e; i++) {
                if (i > 0) {
                    GOMP_doacross_wait(i - 1, (1L << 30) - 1, 12345L);
                    if (!__atomic_load_n(&flag[i - 1], __ATOMIC_ACQUIRE))
                        fail("wide", i, 0);
                }
                __atomic_store_n(&flag[i], 1, __ATOMIC_RELAXED);
                long v[3] = {i, (1L << 30) - 1, 12345};
                GOMP_doacross_post(v);
            }
            more = GOMP_loop_runtime_next(&s, &e);
        }
        GOMP_loop_end();
    }
    memset(flag, 0, sizeof flag);
#pragma omp parallel num_threads(nthr)
    {
        ull counts[2] = {200, 1ULL << 62};
        ull s, e;
        bool more = GOMP_loop_ull_doacross_start(2, counts, sched, (ull)chunk, &s, &e, NULL, NULL);
        while (more) {
            for (ull i = s; i < e; i++) {
                if (i > 0) {
                    /* An earlier inner index of the previous outer iteration
                     * is satisfied by its post of a later one. */
                    GOMP_doacross_ull_wait(i - 1, 5ULL);
                    if (!__atomic_load_n(&flag[i - 1], __ATOMIC_ACQUIRE))
                        fail("wide ull", (long)i, 0);
                }
                __atomic_store_n(&flag[i], 1, __ATOMIC_RELAXED);
                ull v[2] = {i, (1ULL << 62) - 1};
                GOMP_doacross_ull_post(v);
            }
            more = GOMP_loop_ull_runtime_next(&s, &e);
        }
        GOMP_loop_end();
    }
}

int main(void)
{
    static const int chunks[] = {1, 2, 5, 64};
    omp_set_schedule(omp_sched_dynamic, 3);
    for (int nthr = 1; nthr <= 4; nthr++) {
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
            two_dims(nthr, chunks[c]);
        static const long scheds[] = {1, 2, 3, 0x80000002L, 0};
        for (size_t s = 0; s < sizeof scheds / sizeof scheds[0]; s++) {
            wide(nthr, scheds[s], scheds[s] == 1 || scheds[s] == 0 ? 0 : 1);
            wide(nthr, scheds[s], 7);
        }
    }
    if (errors)
        return 1;
    printf("doacross: every sink waited for its source\n");
    return 0;
}
