/* Doacross loops (ordered(n) with depend(sink)/depend(source)): when a
 * depend(sink: v) returns, the iteration v has passed its depend(source), so
 * everything it wrote before is visible.  Checked with a "done" flag per
 * iteration and with wavefront computations compared against a sequential
 * run, for every schedule, 1 to 4 threads, ordered(1), ordered(2),
 * ordered(3), negative and non-unit steps, and unsigned long long loops. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <limits.h>
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef unsigned long long ull;

#define PRAGMA(x) _Pragma(#x)
#define R 40
#define C 37

static int done2[R][C];
static long val2[R][C];
static int bad;

static long seq_wave(int i, int j, long up, long left)
{
    return (up * 3 + left * 7 + i + j) % 1000003;
}

static void reset2(void)
{
    memset(done2, 0, sizeof done2);
    memset(val2, 0, sizeof val2);
    bad = 0;
}

static void check_wave2(const char *name, int nt)
{
    long ref[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            ref[i][j] = seq_wave(i, j, i ? ref[i - 1][j] : 1, j ? ref[i][j - 1] : 1);
    int ok = bad == 0;
    for (int i = 0; i < R && ok; i++)
        for (int j = 0; j < C && ok; j++)
            ok = done2[i][j] == 1 && val2[i][j] == ref[i][j];
    if (!ok) {
        fprintf(stderr, "doacross %s with %d threads: %d dependence violations\n", name, nt, bad);
        CHECK(ok);
    }
}

/* 2-D wavefront: (i,j) needs (i-1,j) and (i,j-1); plus (i-1,j+1), the
 * classic "previous row, next column" vector. */
#define DEFINE_WAVE2(NAME, ...)                                                       \
    static void NAME(int nt)                                                         \
    {                                                                                \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for ordered(2) __VA_ARGS__)                                       \
        for (int i = 0; i < R; i++)                                                  \
            for (int j = 0; j < C; j++) {                                            \
                PRAGMA(omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)    \
                           depend(sink : i - 1, j + 1))                              \
                if ((i > 0 && !TEST_LOAD(&done2[i - 1][j])) ||                       \
                    (j > 0 && !TEST_LOAD(&done2[i][j - 1])) ||                       \
                    (i > 0 && j + 1 < C && !TEST_LOAD(&done2[i - 1][j + 1])))        \
                    TEST_INC(&bad);                                                  \
                if ((i + j) % 11 == 0)                                               \
                    test_delay(2000);                                                \
                val2[i][j] = seq_wave(i, j, i ? val2[i - 1][j] : 1, j ? val2[i][j - 1] : 1); \
                TEST_STORE(&done2[i][j], 1);                                         \
                PRAGMA(omp ordered depend(source))                                   \
            }                                                                        \
    }

DEFINE_WAVE2(w_default, )
DEFINE_WAVE2(w_static, schedule(static))
DEFINE_WAVE2(w_static1, schedule(static, 1))
DEFINE_WAVE2(w_static3, schedule(static, 3))
DEFINE_WAVE2(w_dynamic, schedule(dynamic))
DEFINE_WAVE2(w_dynamic3, schedule(dynamic, 3))
DEFINE_WAVE2(w_guided, schedule(guided))
DEFINE_WAVE2(w_guided2, schedule(guided, 2))
DEFINE_WAVE2(w_runtime, schedule(runtime))

/* ordered(1): a chain x[i] = x[i-1] + 1 over a decreasing loop with step 2. */
#define N1 3001
static long chain[N1 + 2];
static int done1[N1 + 2];

#define DEFINE_CHAIN(NAME, ...)                                                       \
    static void NAME(int nt)                                                         \
    {                                                                                \
        PRAGMA(omp parallel for num_threads(nt) ordered(1) __VA_ARGS__)              \
        for (int i = N1; i >= 1; i -= 2) {                                           \
            PRAGMA(omp ordered depend(sink : i + 2))                                 \
            if (i + 2 <= N1 && !TEST_LOAD(&done1[i + 2]))                            \
                TEST_INC(&bad);                                                      \
            chain[i] = (i + 2 <= N1 ? chain[i + 2] : 0) + 1;                         \
            TEST_STORE(&done1[i], 1);                                                \
            PRAGMA(omp ordered depend(source))                                       \
        }                                                                            \
    }
DEFINE_CHAIN(c_static, schedule(static))
DEFINE_CHAIN(c_dynamic, schedule(dynamic, 5))
DEFINE_CHAIN(c_guided, schedule(guided))

static void check_chain(const char *name, int nt)
{
    int ok = bad == 0;
    for (int i = N1, k = 1; i >= 1 && ok; i -= 2, k++)
        ok = chain[i] == k && done1[i] == 1;
    if (!ok) {
        fprintf(stderr, "doacross chain %s with %d threads: %d violations\n", name, nt, bad);
        CHECK(ok);
    }
}

/* unsigned long long iteration space (GOMP_doacross_ull_*), ordered(2). */
static void ull_wave(int nt, int sched)
{
    ull base = ULLONG_MAX - 1000;
    if (sched == 0) {
#pragma omp parallel for num_threads(nt) ordered(2) schedule(static, 2)
        for (ull i = base; i < base + R; i++)
            for (ull j = 5; j < 5 + C; j++) {
                int a = (int)(i - base), b = (int)(j - 5);
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
                if ((a > 0 && !TEST_LOAD(&done2[a - 1][b])) || (b > 0 && !TEST_LOAD(&done2[a][b - 1])))
                    TEST_INC(&bad);
                val2[a][b] = seq_wave(a, b, a ? val2[a - 1][b] : 1, b ? val2[a][b - 1] : 1);
                TEST_STORE(&done2[a][b], 1);
#pragma omp ordered depend(source)
            }
    } else {
#pragma omp parallel for num_threads(nt) ordered(2) schedule(dynamic)
        for (ull i = base; i < base + R; i++)
            for (ull j = 5; j < 5 + C; j++) {
                int a = (int)(i - base), b = (int)(j - 5);
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
                if ((a > 0 && !TEST_LOAD(&done2[a - 1][b])) || (b > 0 && !TEST_LOAD(&done2[a][b - 1])))
                    TEST_INC(&bad);
                val2[a][b] = seq_wave(a, b, a ? val2[a - 1][b] : 1, b ? val2[a][b - 1] : 1);
                TEST_STORE(&done2[a][b], 1);
#pragma omp ordered depend(source)
            }
    }
}

/* ordered(3): (i,j,k) needs (i-1,j,k), (i,j-1,k), (i,j,k-1). */
#define D3 9
static int done3[D3][D3][D3];
static void wave3(int nt)
{
#pragma omp parallel for num_threads(nt) ordered(3) schedule(dynamic, 2)
    for (int i = 0; i < D3; i++)
        for (int j = 0; j < D3; j++)
            for (int k = 0; k < D3; k++) {
#pragma omp ordered depend(sink : i - 1, j, k) depend(sink : i, j - 1, k) depend(sink : i, j, k - 1)
                if ((i && !TEST_LOAD(&done3[i - 1][j][k])) || (j && !TEST_LOAD(&done3[i][j - 1][k])) ||
                    (k && !TEST_LOAD(&done3[i][j][k - 1])))
                    TEST_INC(&bad);
                TEST_STORE(&done3[i][j][k], 1);
#pragma omp ordered depend(source)
            }
}

int main(void)
{
    static const struct {
        const char *name;
        void (*fn)(int);
    } waves[] = {
        {"(none)", w_default},       {"static", w_static},       {"static,1", w_static1},
        {"static,3", w_static3},     {"dynamic", w_dynamic},     {"dynamic,3", w_dynamic3},
        {"guided", w_guided},        {"guided,2", w_guided2},    {"runtime", w_runtime},
    };
    for (int nt = 1; nt <= 4; nt++) {
        for (unsigned w = 0; w < sizeof waves / sizeof waves[0]; w++) {
            reset2();
            waves[w].fn(nt);
            check_wave2(waves[w].name, nt);
        }
        static const struct {
            omp_sched_t k;
            int chunk;
        } rt[] = {{omp_sched_static, 0}, {omp_sched_dynamic, 2}, {omp_sched_guided, 0}};
        for (unsigned r = 0; r < sizeof rt / sizeof rt[0]; r++) {
            omp_set_schedule(rt[r].k, rt[r].chunk);
            reset2();
            w_runtime(nt);
            check_wave2("runtime (omp_set_schedule)", nt);
        }

        void (*chains[])(int) = {c_static, c_dynamic, c_guided};
        for (int c = 0; c < 3; c++) {
            memset(chain, 0, sizeof chain);
            memset(done1, 0, sizeof done1);
            bad = 0;
            chains[c](nt);
            check_chain(c == 0 ? "static" : c == 1 ? "dynamic,5" : "guided", nt);
        }

        for (int s = 0; s < 2; s++) {
            reset2();
            ull_wave(nt, s);
            check_wave2(s ? "unsigned long long, dynamic" : "unsigned long long, static,2", nt);
        }

        memset(done3, 0, sizeof done3);
        bad = 0;
        wave3(nt);
        CHECK(bad == 0);
        for (int i = 0; i < D3; i++)
            for (int j = 0; j < D3; j++)
                for (int k = 0; k < D3; k++)
                    CHECK(done3[i][j][k] == 1);
    }
    printf("omp_doacross: ok\n");
    return 0;
}
