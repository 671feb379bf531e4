/* Worksharing loops as gcc compiles them: every iteration exactly once for
 * dynamic, guided, runtime and combined forms with run-time chunk sizes over
 * int, long and unsigned long long loops up and down; collapse; nowait chains
 * longer than the slot ring mixing schedules; lastprivate(conditional:)
 * through the `mem` protocol (GOMP_loop_start, GOMP_loop_ordered_start);
 * nested regions inside loops (including inside an ordered loop whose chunk
 * is held across the nested region); cancellation of a loop. */
#define _GNU_SOURCE
#include "pvomp_check.h"

#include <limits.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

typedef unsigned long long ull;

#define N 1500
static int hits[N];
static int errors;

static void hit(long k)
{
    if (k < 0 || k >= N) {
        fprintf(stderr, "FAIL: iteration number %ld out of range\n", k);
        __atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED);
        return;
    }
    __atomic_fetch_add(&hits[k], 1, __ATOMIC_RELAXED);
}

static void expect(const char *what, int times, int n)
{
    for (int i = 0; i < n; i++) {
        if (hits[i] != times) {
            fprintf(stderr, "FAIL %s: iteration %d ran %d times, want %d\n", what, i, hits[i],
                    times);
            errors++;
            break;
        }
    }
    memset(hits, 0, sizeof hits);
}

static void schedules(int nthr, int chunk)
{
#pragma omp parallel for schedule(dynamic, chunk) num_threads(nthr)
    for (int i = 0; i < N; i++)
        hit(i);
    expect("dynamic int", 1, N);

#pragma omp parallel for schedule(monotonic: dynamic, chunk) num_threads(nthr)
    for (long i = LONG_MAX - 1; i > LONG_MAX - 1 - 2L * N; i -= 2)
        hit((LONG_MAX - 1 - i) / 2);
    expect("dynamic long down near LONG_MAX", 1, N);

#pragma omp parallel for schedule(guided, chunk) num_threads(nthr)
    for (long i = LONG_MIN + 3; i < LONG_MIN + 3 + 5L * N; i += 5)
        hit((i - (LONG_MIN + 3)) / 5);
    expect("guided long near LONG_MIN", 1, N);

#pragma omp parallel for schedule(monotonic: guided, chunk) num_threads(nthr)
    for (ull i = (1ULL << 63) + 7; i < (1ULL << 63) + 7 + (ull)N; i++)
        hit((long)(i - ((1ULL << 63) + 7)));
    expect("guided ull beyond 2^63", 1, N);

#pragma omp parallel for schedule(nonmonotonic: dynamic, chunk) num_threads(nthr)
    for (ull i = ULLONG_MAX - 1; i > ULLONG_MAX - 1 - 3ULL * N; i -= 3)
        hit((long)((ULLONG_MAX - 1 - i) / 3));
    expect("dynamic ull down", 1, N);

#pragma omp parallel for schedule(runtime) num_threads(nthr)
    for (int i = N - 1; i >= 0; i--)
        hit(i);
    expect("runtime int down", 1, N);

#pragma omp parallel for schedule(monotonic: runtime) num_threads(nthr)
    for (ull i = 0; i < N; i++)
        hit((long)i);
    expect("monotonic runtime ull", 1, N);

#pragma omp parallel for collapse(2) schedule(dynamic, chunk) num_threads(nthr)
    for (int i = 0; i < 30; i++)
        for (long j = 50; j > 0; j--)
            hit(i * 50 + (50 - j));
    expect("collapse(2) dynamic", 1, 1500);

    /* A nowait chain longer than the slot ring, mixing schedules. */
#pragma omp parallel num_threads(nthr)
    {
        for (int rep = 0; rep < 25; rep++) {
            switch (rep % 4) {
            case 0:
#pragma omp for schedule(dynamic, chunk) nowait
                for (int i = 0; i < N; i++)
                    hit(i);
                break;
            case 1:
#pragma omp for schedule(guided, chunk) nowait
                for (int i = 0; i < N; i++)
                    hit(i);
                break;
            case 2:
#pragma omp for schedule(runtime) nowait
                for (int i = 0; i < N; i++)
                    hit(i);
                break;
            default:
#pragma omp for schedule(static, chunk) nowait
                for (int i = 0; i < N; i++)
                    hit(i);
                break;
            }
        }
    }
    expect("nowait chain", 25, N);
}

/* lastprivate(conditional:) of an orphaned static loop: gcc passes the
 * per-team bookkeeping through GOMP_loop_start's mem. */
static int lp_a[N];
static int lp_u;
static long lp_v;

static void lastpriv_body(void)
{
#pragma omp for lastprivate(conditional : lp_u) nowait
    for (int i = 0; i < N; i++)
        if (lp_a[i] % 7 == 3)
            lp_u = i;
#pragma omp for schedule(dynamic, 4) lastprivate(conditional : lp_v)
    for (long i = 0; i < N; i++)
        if (lp_a[i] % 5 == 1)
            lp_v = i * 2;
}

static void lastpriv(int nthr)
{
    int want_u = -1;
    long want_v = -1;
    for (int i = 0; i < N; i++) {
        lp_a[i] = (i * 37 + nthr) % 101;
        if (lp_a[i] % 7 == 3)
            want_u = i;
        if (lp_a[i] % 5 == 1)
            want_v = i * 2L;
    }
    lp_u = -1;
    lp_v = -1;
#pragma omp parallel num_threads(nthr)
    lastpriv_body();
    if (lp_u != want_u || lp_v != want_v) {
        fprintf(stderr, "FAIL lastprivate(conditional): %d/%ld, want %d/%ld\n", lp_u, lp_v,
                want_u, want_v);
        errors++;
    }

    /* Ordered loop with lastprivate(conditional:): GOMP_loop_ordered_start's mem. */
    int last = -1;
    long seq = 0, bad = 0;
#pragma omp parallel for ordered lastprivate(conditional : last) schedule(dynamic, 3) \
    num_threads(nthr) reduction(+ : bad)
    for (int i = 0; i < N; i++) {
        if (lp_a[i] > 50)
            last = i;
#pragma omp ordered
        {
            bad += seq != i;
            seq = i + 1;
        }
    }
    int want_last = -1;
    for (int i = 0; i < N; i++)
        if (lp_a[i] > 50)
            want_last = i;
    if (last != want_last || bad) {
        fprintf(stderr, "FAIL ordered lastprivate(conditional): %d want %d, %ld out of order\n",
                last, want_last, bad);
        errors++;
    }
}

/* A nested parallel loop inside loop bodies: the outer loop's state (static
 * trip, held ordered chunk) must survive the inner region. */
static void nested(int nthr)
{
    static int inner[64][64];
    memset(inner, 0, sizeof inner);
    long seq = 0, bad = 0;
#pragma omp parallel for ordered schedule(static, 2) num_threads(nthr) reduction(+ : bad)
    for (int i = 0; i < 64; i++) {
#pragma omp parallel for schedule(dynamic, 3) num_threads(2)
        for (int j = 0; j < 64; j++)
            inner[i][j]++;
#pragma omp parallel num_threads(2)
        {
#pragma omp for ordered schedule(dynamic)
            for (int j = 0; j < 8; j++) {
#pragma omp ordered
                inner[i][j] += 10;
            }
        }
#pragma omp ordered
        {
            bad += seq != i;
            seq = i + 1;
        }
    }
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++)
            CHECK(inner[i][j] == (j < 8 ? 11 : 1));
    CHECK(bad == 0);

#pragma omp parallel num_threads(nthr)
    {
#pragma omp for schedule(runtime)
        for (int i = 0; i < N; i++) {
            hit(i);
            if (i % 100 == 0) {
#pragma omp parallel for schedule(guided) num_threads(2)
                for (int j = 0; j < 10; j++)
                    __atomic_fetch_add(&inner[0][j], 1, __ATOMIC_RELAXED);
            }
        }
    }
    expect("loop around nested loops", 1, N);
}

/* cancel for: after cancellation threads stop taking chunks; every
 * iteration still runs at most once. */
static void cancel(int nthr)
{
#pragma omp parallel num_threads(nthr)
    {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < N; i++) {
            hit(i);
            if (i == 10) {
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
    }
    for (int i = 0; i < N; i++)
        CHECK(hits[i] <= 1);
    CHECK(hits[10] == 1);
    memset(hits, 0, sizeof hits);
}

int main(void)
{
    static const int chunks[] = {1, 2, 5, 64, 5000};
    static const struct {
        omp_sched_t s;
        int c;
    } rts[] = {{omp_sched_static, 0}, {omp_sched_dynamic, 3}, {omp_sched_guided, 2},
               {omp_sched_auto, 0}, {omp_sched_static, 9}};
    for (int nthr = 1; nthr <= 4; nthr++) {
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            omp_set_schedule(rts[c].s, rts[c].c);
            schedules(nthr, chunks[c]);
        }
        lastpriv(nthr);
        nested(nthr);
        cancel(nthr);
    }
    if (errors)
        return 1;
    printf("loop_omp: every iteration ran exactly once\n");
    return 0;
}
