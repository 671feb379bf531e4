/* Ordered loops: the ordered regions of a loop run one at a time, in the
 * order of the iterations, for every schedule, for int and unsigned long
 * long loops, increasing and decreasing, with collapse(2), with iterations
 * that skip their ordered region, and for `ordered threads`. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <limits.h>
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef unsigned long long ull;

#define MAXN 3000
#define PRAGMA(x) _Pragma(#x)

static long seq[MAXN];
static int nseq;
static int inside;
static int overlap;

static void reset(void)
{
    memset(seq, -1, sizeof seq);
    nseq = 0;
    inside = 0;
    overlap = 0;
}

/* Body of an ordered region: log L and check that no other ordered region
 * of the loop runs at the same time. */
static void in_order(long L)
{
    if (__atomic_exchange_n(&inside, 1, __ATOMIC_ACQ_REL) != 0)
        TEST_INC(&overlap);
    if (nseq < MAXN)
        seq[nseq] = L;
    nseq++;
    test_delay(50);
    __atomic_store_n(&inside, 0, __ATOMIC_RELEASE);
}

/* Work before the ordered region, uneven so that threads arrive out of turn. */
static void work(long L)
{
    if (L % 5 == 0)
        test_delay(3000);
}

/* skip != 0: iterations with L % skip == 1 do not execute their ordered
 * region (allowed: an iteration executes at most one). */
#define DEFINE_ORDERED(NAME, ...)                                                     \
    static void NAME##_up(int nt, int lo, int hi, int st, int skip)                  \
    {                                                                                \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for ordered __VA_ARGS__)                                          \
        for (int i = lo; i < hi; i += st) {                                          \
            long L = (i - lo) / st;                                                  \
            work(L);                                                                 \
            if (skip && L % skip == 1)                                               \
                continue;                                                            \
            PRAGMA(omp ordered)                                                      \
            in_order(L);                                                             \
        }                                                                            \
    }                                                                                \
    static void NAME##_down(int nt, int lo, int hi, int st, int skip)                \
    {                                                                                \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for ordered __VA_ARGS__)                                          \
        for (int i = hi; i > lo; i -= st) {                                          \
            long L = (hi - i) / st;                                                  \
            work(L);                                                                 \
            if (skip && L % skip == 1)                                               \
                continue;                                                            \
            PRAGMA(omp ordered threads)                                              \
            in_order(L);                                                             \
        }                                                                            \
    }                                                                                \
    static void NAME##_ull(int nt, int lo, int hi, int st, int skip)                 \
    {                                                                                \
        ull base = ULLONG_MAX - 10000, top = base + (ull)(hi - lo);                  \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for ordered __VA_ARGS__)                                          \
        for (ull i = base; i < top; i += (ull)st) {                                  \
            long L = (long)((i - base) / (ull)st);                                   \
            work(L);                                                                 \
            if (skip && L % skip == 1)                                               \
                continue;                                                            \
            PRAGMA(omp ordered)                                                      \
            in_order(L);                                                             \
        }                                                                            \
    }                                                                                \
    static void NAME##_collapse(int nt, int lo, int hi, int st, int skip)            \
    {                                                                                \
        int n = hi > lo ? (hi - lo + st - 1) / st : 0, rows = 4, cols = n / 4;       \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for ordered collapse(2) __VA_ARGS__)                              \
        for (int r = 0; r < rows; r++)                                               \
            for (int c = 0; c < cols; c++) {                                         \
                long L = (long)r * cols + c;                                         \
                work(L);                                                             \
                if (skip && L % skip == 1)                                           \
                    continue;                                                        \
                PRAGMA(omp ordered)                                                  \
                in_order(L);                                                         \
            }                                                                        \
    }                                                                                \
    static void (*const NAME##_forms[4])(int, int, int, int, int) = {                \
        NAME##_up, NAME##_down, NAME##_ull, NAME##_collapse};

DEFINE_ORDERED(o_default, )
DEFINE_ORDERED(o_static, schedule(static))
DEFINE_ORDERED(o_static1, schedule(static, 1))
DEFINE_ORDERED(o_static3, schedule(static, 3))
DEFINE_ORDERED(o_dynamic, schedule(dynamic))
DEFINE_ORDERED(o_dynamic4, schedule(dynamic, 4))
DEFINE_ORDERED(o_mdynamic2, schedule(monotonic : dynamic, 2))
DEFINE_ORDERED(o_guided, schedule(guided))
DEFINE_ORDERED(o_guided3, schedule(guided, 3))
DEFINE_ORDERED(o_auto, schedule(auto))
DEFINE_ORDERED(o_runtime, schedule(runtime))

static const struct {
    const char *name;
    void (*const *forms)(int, int, int, int, int);
} cases[] = {
    {"(none)", o_default_forms},      {"static", o_static_forms},
    {"static,1", o_static1_forms},    {"static,3", o_static3_forms},
    {"dynamic", o_dynamic_forms},     {"dynamic,4", o_dynamic4_forms},
    {"monotonic:dynamic,2", o_mdynamic2_forms},
    {"guided", o_guided_forms},       {"guided,3", o_guided3_forms},
    {"auto", o_auto_forms},           {"runtime", o_runtime_forms},
};

static const char *const form_names[4] = {"int up", "int down", "unsigned long long", "collapse(2)"};

static void run_case(const char *name, void (*const *forms)(int, int, int, int, int))
{
    static const int sizes[] = {0, 1, 5, 400, 2001};
    for (int nt = 1; nt <= 4; nt++) {
        for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            for (int skip = 0; skip <= 3; skip += 3) {
                for (int f = 0; f < 4; f++) {
                    int n = sizes[z], st = f == 1 ? 2 : 1, lo = -11;
                    int hi = n ? lo + (n - 1) * st + 1 : lo;
                    long expect = f == 3 ? (long)(n / 4) * 4 : n;
                    reset();
                    forms[f](nt, lo, hi, st, skip);
                    long k = 0;
                    int ok = overlap == 0;
                    for (long L = 0; L < expect && ok; L++) {
                        if (skip && L % skip == 1)
                            continue;
                        ok = k < nseq && seq[k] == L;
                        k++;
                    }
                    ok = ok && k == nseq;
                    if (!ok) {
                        fprintf(stderr, "ordered %s, %s, %ld iterations, %d threads, skip %d: "
                                "%d regions logged, %d overlaps\n",
                                name, form_names[f], expect, nt, skip, nseq, overlap);
                        CHECK(ok);
                    }
                }
            }
        }
    }
}

/* Two ordered loops back to back with nowait, then an orphaned ordered
 * construct in a function called from the loop body. */
static void orphan_ordered(long L)
{
#pragma omp ordered
    in_order(L);
}

static void test_nowait_and_orphan(void)
{
    static long seq2[2][600];
    int n2[2] = {0, 0};
#pragma omp parallel num_threads(3)
    {
        for (int k = 0; k < 2; k++) {
#pragma omp for ordered schedule(dynamic, 2) nowait
            for (int i = 0; i < 600; i++) {
                work(i);
#pragma omp ordered
                seq2[k][n2[k]++] = i;
            }
        }
    }
    for (int k = 0; k < 2; k++) {
        CHECK(n2[k] == 600);
        for (int i = 0; i < 600; i++)
            CHECK(seq2[k][i] == i);
    }

    reset();
#pragma omp parallel for ordered schedule(guided) num_threads(4)
    for (int i = 0; i < 1000; i++) {
        work(i);
        orphan_ordered(i);
    }
    CHECK(overlap == 0 && nseq == 1000);
    for (int i = 0; i < 1000; i++)
        CHECK(seq[i] == i);
}

int main(void)
{
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++)
        run_case(cases[c].name, cases[c].forms);
    static const struct {
        omp_sched_t k;
        int chunk;
    } rt[] = {{omp_sched_static, 0}, {omp_sched_static, 2}, {omp_sched_dynamic, 3},
              {omp_sched_guided, 2}, {omp_sched_auto, 0}};
    for (unsigned r = 0; r < sizeof rt / sizeof rt[0]; r++) {
        omp_set_schedule(rt[r].k, rt[r].chunk);
        run_case("runtime (omp_set_schedule)", o_runtime_forms);
    }
    test_nowait_and_orphan();
    printf("omp_ordered: ok\n");
    return 0;
}
