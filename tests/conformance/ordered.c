/* Ordered loops: the ordered regions of a loop run in iteration order, for
 * every schedule (static, static with chunk, dynamic, guided, runtime), over
 * int, long and unsigned long long loops up and down, with iterations that
 * skip their ordered region, with nowait chains, orphaned, and through
 * GOMP_loop_ordered_start with the `mem` protocol.  Every iteration must also
 * run exactly once. */
#define _GNU_SOURCE
#include "pvomp_check.h"

#include <limits.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

typedef unsigned long long ull;

#define N 997
static int hits[N];
static long expect_next;   /* next iteration number the ordered regions must see */
static int errors;

static void check_hits(const char *what, int want_total)
{
    int total = 0;
    for (int i = 0; i < N; i++) {
        if (hits[i] > 1) {
            fprintf(stderr, "FAIL %s: iteration %d ran %d times\n", what, i, hits[i]);
            errors++;
        }
        total += hits[i];
        hits[i] = 0;
    }
    if (total != want_total) {
        fprintf(stderr, "FAIL %s: %d iterations ran, want %d\n", what, total, want_total);
        errors++;
    }
}

/* In an ordered region for iteration number k (0-based position in the
 * iteration sequence); `skip` regions are those not executed. */
static void ordered_visit(const char *what, long k, int skip)
{
    long want = expect_next;
    /* Skipped iterations: the regions seen jump over them. */
    while (skip && want % skip == skip - 1)
        want++;
    if (k != want) {
        fprintf(stderr, "FAIL %s: ordered region of iteration %ld after %ld\n", what, k,
                expect_next - 1);
        errors++;
    }
    expect_next = k + 1;
}

static void run_schedules(int nthr, int chunk, int skip)
{
    const char *what;
    /* skip > 0: iterations k with k % skip == skip - 1 have no ordered region. */
#define BODY(k)                                                         \
    do {                                                                \
        __atomic_fetch_add(&hits[(k)], 1, __ATOMIC_RELAXED);            \
        if (!skip || (k) % skip != skip - 1) {                          \
            _Pragma("omp ordered") ordered_visit(what, (k), skip);      \
        }                                                               \
    } while (0)

    what = "static";
    expect_next = 0;
#pragma omp parallel for ordered schedule(static) num_threads(nthr)
    for (int i = 0; i < N; i++)
        BODY(i);
    check_hits(what, N);

    what = "static,chunk";
    expect_next = 0;
#pragma omp parallel for ordered schedule(static, chunk) num_threads(nthr)
    for (long i = 0; i < N; i++)
        BODY(i);
    check_hits(what, N);

    what = "dynamic,chunk down";
    expect_next = 0;
#pragma omp parallel for ordered schedule(dynamic, chunk) num_threads(nthr)
    for (int i = N - 1; i >= 0; i--)
        BODY(N - 1 - i);
    check_hits(what, N);

    what = "guided,chunk long near LONG_MAX";
    expect_next = 0;
#pragma omp parallel for ordered schedule(guided, chunk) num_threads(nthr)
    for (long i = LONG_MAX - 3 * (long)N; i < LONG_MAX - 2; i += 3)
        BODY((i - (LONG_MAX - 3 * (long)N)) / 3);
    check_hits(what, N);

    what = "runtime ull up";
    expect_next = 0;
    const ull base = ULLONG_MAX - 2 * (ull)N - 1;   /* last i + 2 does not wrap */
#pragma omp parallel for ordered schedule(runtime) num_threads(nthr)
    for (ull i = base; i < ULLONG_MAX - 1; i += 2)
        BODY((long)((i - base) / 2));
    check_hits(what, N);

    what = "static,chunk ull down";
    expect_next = 0;
#pragma omp parallel for ordered schedule(static, chunk) num_threads(nthr)
    for (ull i = (ull)N * 5; i > 0; i -= 5)
        BODY((long)(N - i / 5));
    check_hits(what, N);

    /* Loops of a nowait chain are ordered each on its own. */
    long nexts[12] = {0};
#pragma omp parallel num_threads(nthr)
    {
        for (int rep = 0; rep < 12; rep++) {
#pragma omp for ordered schedule(monotonic: dynamic, chunk) nowait
            for (int i = 0; i < N; i++) {
                __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp ordered
                {
                    if (nexts[rep] != i) {
                        fprintf(stderr, "FAIL nowait chain: loop %d iteration %d after %ld\n",
                                rep, i, nexts[rep] - 1);
                        errors++;
                    }
                    nexts[rep] = i + 1;
                }
            }
        }
    }
    for (int i = 0; i < N; i++) {
        CHECK(hits[i] == 12);
        hits[i] = 0;
    }
#undef BODY
}

/* An orphaned ordered loop: called outside any parallel region. */
static void orphan(void)
{
    expect_next = 0;
#pragma omp for ordered schedule(dynamic, 3)
    for (int i = 0; i < N; i++) {
        __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp ordered
        ordered_visit("orphan", i, 0);
    }
    check_hits("orphan", N);
}

/* GOMP_loop_ordered_start and its ull form with `mem`: every thread gets the
 * same zeroed block, and the ordered turn works with any schedule. */
bool GOMP_loop_ordered_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ordered_runtime_next(long *, long *);
bool GOMP_loop_ull_ordered_start(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *,
                                 void **);
bool GOMP_loop_ull_ordered_runtime_next(ull *, ull *);
void GOMP_ordered_start(void);
void GOMP_ordered_end(void);
void GOMP_loop_end(void);

static void abi_ordered(int nthr)
{
    static const long scheds[] = {1, 2, 3, 0, 4, 0x80000002L};
    static const size_t sizes[] = {8, 64, 65, 4096};
    for (size_t si = 0; si < sizeof scheds / sizeof scheds[0]; si++) {
        for (size_t zi = 0; zi < sizeof sizes / sizeof sizes[0]; zi++) {
            void *blocks[8] = {0};
            int nonzero = 0;
            expect_next = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : nonzero)
            {
                void *mem = (void *)(uintptr_t)sizes[zi];
                long s, e;
                bool more = GOMP_loop_ordered_start(0, 2 * N, 2, scheds[si], 5, &s, &e, NULL,
                                                    &mem);
                blocks[omp_get_thread_num()] = mem;
                for (size_t b = 0; b < sizes[zi]; b++)
                    nonzero += ((unsigned char *)mem)[b] != 0;
                CHECK(((uintptr_t)mem & 7) == 0);
#pragma omp barrier
                if (omp_get_thread_num() == 0)
                    memset(mem, 0xab, sizes[zi]);   /* the block is the team's to use */
                while (more) {
                    for (long i = s; i < e; i += 2) {
                        __atomic_fetch_add(&hits[i / 2], 1, __ATOMIC_RELAXED);
                        GOMP_ordered_start();
                        ordered_visit("ordered_start", i / 2, 0);
                        GOMP_ordered_end();
                    }
                    more = GOMP_loop_ordered_runtime_next(&s, &e);
                }
                GOMP_loop_end();
            }
            CHECK(nonzero == 0);
            for (int t = 1; t < nthr; t++)
                CHECK(blocks[t] == blocks[0]);
            check_hits("GOMP_loop_ordered_start", N);

            expect_next = 0;
#pragma omp parallel num_threads(nthr)
            {
                void *mem = (void *)(uintptr_t)sizes[zi];
                ull s, e;
                bool more = GOMP_loop_ull_ordered_start(false, 3 * (ull)N, 0, (ull)-3LL,
                                                        scheds[si], 4, &s, &e, NULL, &mem);
                CHECK(mem != NULL);
                while (more) {
                    for (ull i = s; i > e; i -= 3) {
                        long k = (long)((3 * (ull)N - i) / 3);
                        __atomic_fetch_add(&hits[k], 1, __ATOMIC_RELAXED);
                        GOMP_ordered_start();
                        ordered_visit("ull_ordered_start", k, 0);
                        GOMP_ordered_end();
                    }
                    more = GOMP_loop_ull_ordered_runtime_next(&s, &e);
                }
                GOMP_loop_end();
            }
            check_hits("GOMP_loop_ull_ordered_start", N);
        }
    }
}

int main(void)
{
    static const int chunks[] = {1, 2, 3, 16, 1000};
    static const struct {
        omp_sched_t s;
        int c;
    } rts[] = {{omp_sched_static, 0}, {omp_sched_static, 7}, {omp_sched_dynamic, 2},
               {omp_sched_guided, 1}, {omp_sched_auto, 0}};
    for (int nthr = 1; nthr <= 4; nthr++) {
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            omp_set_schedule(rts[c].s, rts[c].c);
            for (int skip = 0; skip <= 3; skip += 3)
                run_schedules(nthr, chunks[c], skip);
        }
        abi_ordered(nthr);
    }
    orphan();
    if (errors)
        return 1;
    printf("ordered: ordered regions ran in iteration order\n");
    return 0;
}
