/* Worksharing loops: every schedule (static, static with chunk, dynamic,
 * guided, auto, runtime) with monotonic/nonmonotonic modifiers, over int,
 * long (near LONG_MAX/LONG_MIN) and unsigned long long (beyond 2^63)
 * iteration spaces, increasing and decreasing, collapse(2), nowait chains
 * longer than any work-share ring, lastprivate, combined parallel loops, and
 * the loop entry points of the ABI called directly.
 *
 * Every executed iteration is recorded (logical index, thread); the checks
 * are: every iteration exactly once; static: at most one chunk per thread;
 * static,k: chunk j goes to thread j mod T; dynamic,k: each aligned block of
 * k iterations goes to one thread; guided,k: chunks of at least k except the
 * last; monotonic: each thread sees its iterations in increasing order.
 *
 * Modes: none = everything, with schedule(runtime) driven by
 * omp_set_schedule; "env KIND CHUNK MOD" = OMP_SCHEDULE was set in the
 * environment; the test checks omp_get_schedule() against KIND (static,
 * dynamic, guided, auto), CHUNK (0 = not given) and MOD (none, monotonic,
 * nonmonotonic) and runs the runtime-scheduled loops. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <limits.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef unsigned long long ull;

#define MAXN 5000
#define MAXT 8

enum kind { K_STATIC, K_STATIC_CHUNK, K_DYNAMIC, K_GUIDED, K_AUTO, K_ANY };
struct sched {
    const char *name;
    enum kind kind;
    long chunk;
    bool mono;
};

static int cnt[MAXN];
static int own[MAXN];
static int logv[MAXT][MAXN];
static int logn[MAXT];
static int out_of_range;

static void reset(void)
{
    memset(cnt, 0, sizeof cnt);
    memset(own, -1, sizeof own);
    memset(logn, 0, sizeof logn);
    out_of_range = 0;
}

/* Record logical iteration L as executed by the calling thread. */
static void rec(long L)
{
    int me = omp_get_thread_num();
    if (L < 0 || L >= MAXN || me < 0 || me >= MAXT) {
        TEST_INC(&out_of_range);
        return;
    }
    TEST_INC(&cnt[L]);
    own[L] = me;
    logv[me][logn[me]++] = (int)L;
}

static void verify(const struct sched *s, const char *shape, long n, int nt)
{
#define LCHECK(c)                                                                     \
    do {                                                                              \
        if (!(c)) {                                                                   \
            fprintf(stderr, "schedule %s, loop %s, %ld iterations, %d threads: ", s->name, \
                    shape, n, nt);                                                    \
            CHECK(c);                                                                 \
        }                                                                             \
    } while (0)
    LCHECK(out_of_range == 0);
    for (long L = 0; L < MAXN; L++)
        LCHECK(cnt[L] == (L < n ? 1 : 0));
    for (long L = 0; L < n; L++)
        LCHECK(own[L] >= 0 && own[L] < nt);
    bool mono = s->mono || s->kind == K_STATIC || s->kind == K_STATIC_CHUNK;
    for (int t = 0; t < MAXT; t++) {
        for (int k = 1; k < logn[t]; k++) {
            if (mono)
                LCHECK(logv[t][k] > logv[t][k - 1]);
            if (s->kind == K_STATIC)
                LCHECK(logv[t][k] == logv[t][k - 1] + 1);
        }
    }
    long chunk = s->chunk > 0 ? s->chunk : 1;
    switch (s->kind) {
    case K_STATIC_CHUNK:
        for (long L = 0; L < n; L++)
            LCHECK(own[L] == (L / chunk) % nt);
        break;
    case K_DYNAMIC:
        for (long L = 0; L < n; L++)
            LCHECK(own[L] == own[(L / chunk) * chunk]);
        break;
    case K_GUIDED: {
        long run = 1;
        for (long L = 1; L < n; L++) {
            if (own[L] == own[L - 1]) {
                run++;
            } else {
                LCHECK(run >= chunk);
                run = 1;
            }
        }
        break;
    }
    default:
        break;
    }
#undef LCHECK
}

/* ------------------------------------------------------------ loop shapes */
#define PRAGMA(x) _Pragma(#x)

struct shapes {
    void (*int_up)(int nt, int lo, int hi, int st);
    void (*int_down)(int nt, int lo, int hi, int st);
    void (*long_top)(int nt, long span, long st);
    void (*long_bottom)(int nt, long span, long st);
    void (*ull_up)(int nt, ull span, ull st);
    void (*ull_down)(int nt, ull span, ull st);
    void (*collapse2)(int nt, int rows, int lo, int hi);
    int (*lastpriv)(int nt, int lo, int hi, int st);
    void (*nowait_chain)(int nt, int n);
};

#define CHAIN 12
static int chain_cnt[CHAIN][MAXN];

#define DEFINE_SHAPES(NAME, ...)                                                     \
    static void NAME##_int_up(int nt, int lo, int hi, int st)                        \
    {                                                                                \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for __VA_ARGS__)                                                  \
        for (int i = lo; i < hi; i += st)                                            \
            rec((i - lo) / st);                                                      \
    }                                                                                \
    static void NAME##_int_down(int nt, int lo, int hi, int st)                      \
    {                                                                                \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for __VA_ARGS__)                                                  \
        for (int i = hi; i > lo; i -= st)                                            \
            rec((hi - i) / st);                                                      \
    }                                                                                \
    static void NAME##_long_top(int nt, long span, long st)                          \
    {                                                                                \
        long top = LONG_MAX - 2, base = top - span;                                  \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for __VA_ARGS__)                                                  \
        for (long i = base; i < top; i += st)                                        \
            rec((i - base) / st);                                                    \
    }                                                                                \
    static void NAME##_long_bottom(int nt, long span, long st)                       \
    {                                                                                \
        long bottom = LONG_MIN + 2, top = bottom + span;                             \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for __VA_ARGS__)                                                  \
        for (long i = top; i > bottom; i -= st)                                      \
            rec((top - i) / st);                                                     \
    }                                                                                \
    static void NAME##_ull_up(int nt, ull span, ull st)                              \
    {                                                                                \
        ull base = (1ULL << 63) - 1000;                                              \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for __VA_ARGS__)                                                  \
        for (ull i = base; i < base + span; i += st)                                 \
            rec((long)((i - base) / st));                                            \
    }                                                                                \
    static void NAME##_ull_down(int nt, ull span, ull st)                            \
    {                                                                                \
        ull top = ULLONG_MAX - 3;                                                    \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for __VA_ARGS__)                                                  \
        for (ull i = top; i > top - span; i -= st)                                   \
            rec((long)((top - i) / st));                                             \
    }                                                                                \
    static void NAME##_collapse2(int nt, int rows, int lo, int hi)                   \
    {                                                                                \
        int cols = hi > lo ? (hi - lo + 2) / 3 : 0;                                  \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for collapse(2) __VA_ARGS__)                                      \
        for (int i = 0; i < rows; i++)                                               \
            for (int j = lo; j < hi; j += 3)                                         \
                rec((long)i * cols + (j - lo) / 3);                                  \
    }                                                                                \
    static int NAME##_lastpriv(int nt, int lo, int hi, int st)                       \
    {                                                                                \
        int last = -12345;                                                           \
        PRAGMA(omp parallel num_threads(nt))                                         \
        PRAGMA(omp for lastprivate(last) __VA_ARGS__)                                \
        for (int i = lo; i < hi; i += st)                                            \
            last = i;                                                                \
        return last;                                                                 \
    }                                                                                \
    static void NAME##_nowait_chain(int nt, int n)                                   \
    {                                                                                \
        PRAGMA(omp parallel num_threads(nt))                                         \
        {                                                                            \
            int me = omp_get_thread_num();                                           \
            for (int k = 0; k < CHAIN; k++) {                                        \
                PRAGMA(omp for nowait __VA_ARGS__)                                   \
                for (int i = 0; i < n; i++) {                                        \
                    TEST_INC(&chain_cnt[k][i]);                                      \
                    if ((i + me + k) % 97 == 0)                                      \
                        test_delay(2000 * (unsigned)(me + 1));                       \
                }                                                                    \
            }                                                                        \
        }                                                                            \
    }                                                                                \
    static const struct shapes NAME##_shapes = {                                     \
        NAME##_int_up,    NAME##_int_down,  NAME##_long_top,                        \
        NAME##_long_bottom, NAME##_ull_up,  NAME##_ull_down,                         \
        NAME##_collapse2, NAME##_lastpriv,  NAME##_nowait_chain,                     \
    };

DEFINE_SHAPES(s_static, schedule(static))
DEFINE_SHAPES(s_static1, schedule(static, 1))
DEFINE_SHAPES(s_static7, schedule(static, 7))
DEFINE_SHAPES(s_mstatic2, schedule(monotonic : static, 2))
DEFINE_SHAPES(s_dynamic, schedule(dynamic))
DEFINE_SHAPES(s_dynamic13, schedule(dynamic, 13))
DEFINE_SHAPES(s_mdynamic3, schedule(monotonic : dynamic, 3))
DEFINE_SHAPES(s_nmdynamic3, schedule(nonmonotonic : dynamic, 3))
DEFINE_SHAPES(s_guided, schedule(guided))
DEFINE_SHAPES(s_guided5, schedule(guided, 5))
DEFINE_SHAPES(s_mguided4, schedule(monotonic : guided, 4))
DEFINE_SHAPES(s_nmguided, schedule(nonmonotonic : guided))
DEFINE_SHAPES(s_auto, schedule(auto))
DEFINE_SHAPES(s_default, )
DEFINE_SHAPES(s_runtime, schedule(runtime))
DEFINE_SHAPES(s_mruntime, schedule(monotonic : runtime))
DEFINE_SHAPES(s_nmruntime, schedule(nonmonotonic : runtime))

struct case_ {
    struct sched s;
    const struct shapes *sh;
};

static const struct case_ fixed_cases[] = {
    {{"static", K_STATIC, 0, false}, &s_static_shapes},
    {{"static,1", K_STATIC_CHUNK, 1, false}, &s_static1_shapes},
    {{"static,7", K_STATIC_CHUNK, 7, false}, &s_static7_shapes},
    {{"monotonic:static,2", K_STATIC_CHUNK, 2, true}, &s_mstatic2_shapes},
    {{"dynamic", K_DYNAMIC, 1, false}, &s_dynamic_shapes},
    {{"dynamic,13", K_DYNAMIC, 13, false}, &s_dynamic13_shapes},
    {{"monotonic:dynamic,3", K_DYNAMIC, 3, true}, &s_mdynamic3_shapes},
    {{"nonmonotonic:dynamic,3", K_DYNAMIC, 3, false}, &s_nmdynamic3_shapes},
    {{"guided", K_GUIDED, 1, false}, &s_guided_shapes},
    {{"guided,5", K_GUIDED, 5, false}, &s_guided5_shapes},
    {{"monotonic:guided,4", K_GUIDED, 4, true}, &s_mguided4_shapes},
    {{"nonmonotonic:guided", K_GUIDED, 1, false}, &s_nmguided_shapes},
    {{"auto", K_AUTO, 0, false}, &s_auto_shapes},
    {{"(none)", K_ANY, 0, false}, &s_default_shapes},
};

/* Run every shape of one schedule with nt threads and n iterations. */
static void run_shapes(const struct sched *s, const struct shapes *sh, int nt, int n)
{
    for (int st = 1; st <= 3; st += 2) {
        int lo = -37, hi = n ? lo + (n - 1) * st + 1 : lo;
        reset();
        sh->int_up(nt, lo, hi, st);
        verify(s, "int up", n, nt);

        reset();
        sh->int_down(nt, lo, hi, st);
        verify(s, "int down", n, nt);

        int last = sh->lastpriv(nt, lo, hi, st);
        if (n > 0)
            CHECK(last == lo + (n - 1) * st);

        long span = n ? (long)(n - 1) * st + 1 : 0;
        reset();
        sh->long_top(nt, span, st);
        verify(s, "long near LONG_MAX", n, nt);

        reset();
        sh->long_bottom(nt, span, st);
        verify(s, "long near LONG_MIN", n, nt);

        reset();
        sh->ull_up(nt, (ull)span, (ull)st);
        verify(s, "unsigned long long across 2^63", n, nt);

        reset();
        sh->ull_down(nt, (ull)span, (ull)st);
        verify(s, "unsigned long long down from ULLONG_MAX", n, nt);
    }
    /* collapse(2): rows x cols with cols = ceil((hi-lo)/3). */
    int rows = n % 7 + 1, cols = n / rows;
    if (n == 0)
        rows = 0, cols = 5;
    reset();
    sh->collapse2(nt, rows, 4, 4 + 3 * cols - 2);
    verify(s, "collapse(2)", (long)rows * cols, nt);
    rows = 3;
    reset();
    sh->collapse2(nt, rows, 10, 10); /* empty inner dimension */
    verify(s, "collapse(2), empty inner", 0, nt);

    memset(chain_cnt, 0, sizeof chain_cnt);
    sh->nowait_chain(nt, n);
    for (int k = 0; k < CHAIN; k++)
        for (int i = 0; i < MAXN; i++)
            CHECK(chain_cnt[k][i] == (i < n ? 1 : 0));
}

static const int sizes[] = {0, 1, 7, 1000, 4099};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* The schedule that run-sched-var currently describes, for verify(). */
static struct sched runtime_sched(const char *name, bool force_mono)
{
    omp_sched_t k;
    int chunk;
    omp_get_schedule(&k, &chunk);
    struct sched s = {name, K_ANY, chunk, force_mono || (k & omp_sched_monotonic) != 0};
    switch (k & ~omp_sched_monotonic) {
    case omp_sched_static: s.kind = chunk > 0 ? K_STATIC_CHUNK : K_STATIC; break;
    case omp_sched_dynamic: s.kind = K_DYNAMIC; break;
    case omp_sched_guided: s.kind = K_GUIDED; break;
    case omp_sched_auto: s.kind = K_AUTO; break;
    default: CHECK(!"omp_get_schedule returned an unknown kind");
    }
    return s;
}

static void run_runtime_forms(void)
{
    struct sched plain = runtime_sched("runtime", false);
    struct sched mono = runtime_sched("monotonic:runtime", true);
    /* nonmonotonic:runtime only promises the iterations. */
    struct sched any = {"nonmonotonic:runtime", K_ANY, 0, false};
    for (int nt = 1; nt <= 4; nt++) {
        for (int k = 0; k < NSIZES; k++) {
            run_shapes(&plain, &s_runtime_shapes, nt, sizes[k]);
            run_shapes(&mono, &s_mruntime_shapes, nt, sizes[k]);
            run_shapes(&any, &s_nmruntime_shapes, nt, sizes[k]);
        }
    }
}

/* ------------------------------------------------- combined parallel loops */
/* Constant bounds let gcc emit the combined GOMP_parallel_loop_* calls. */
#define COMBINED(NAME, ...)                                                          \
    static void NAME(void)                                                           \
    {                                                                                \
        PRAGMA(omp parallel for num_threads(3) __VA_ARGS__)                          \
        for (int i = 0; i < 1000; i++)                                               \
            rec(i);                                                                  \
    }
COMBINED(c_static, schedule(static))
COMBINED(c_static5, schedule(static, 5))
COMBINED(c_dynamic4, schedule(dynamic, 4))
COMBINED(c_mdynamic4, schedule(monotonic : dynamic, 4))
COMBINED(c_guided3, schedule(guided, 3))
COMBINED(c_mguided3, schedule(monotonic : guided, 3))
COMBINED(c_runtime, schedule(runtime))
COMBINED(c_mruntime, schedule(monotonic : runtime))
COMBINED(c_nmruntime, schedule(nonmonotonic : runtime))

static void test_combined(void)
{
    static const struct {
        void (*fn)(void);
        struct sched s;
    } c[] = {
        {c_static, {"parallel for static", K_STATIC, 0, false}},
        {c_static5, {"parallel for static,5", K_STATIC_CHUNK, 5, false}},
        {c_dynamic4, {"parallel for dynamic,4", K_DYNAMIC, 4, false}},
        {c_mdynamic4, {"parallel for monotonic:dynamic,4", K_DYNAMIC, 4, true}},
        {c_guided3, {"parallel for guided,3", K_GUIDED, 3, false}},
        {c_mguided3, {"parallel for monotonic:guided,3", K_GUIDED, 3, true}},
    };
    for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
        reset();
        c[k].fn();
        verify(&c[k].s, "combined", 1000, 3);
    }
    void (*rt[])(void) = {c_runtime, c_mruntime, c_nmruntime};
    for (int k = 0; k < 3; k++) {
        struct sched s = k == 2 ? (struct sched){"parallel for nonmonotonic:runtime", K_ANY, 0, false}
                                : runtime_sched("parallel for runtime", k == 1);
        reset();
        rt[k]();
        verify(&s, "combined", 1000, 3);
    }
}

/* --------------------------------------------- ABI entry points, directly */
bool GOMP_loop_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_static_next(long *, long *);
bool GOMP_loop_dynamic_next(long *, long *);
bool GOMP_loop_guided_next(long *, long *);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_nonmonotonic_dynamic_next(long *, long *);
bool GOMP_loop_nonmonotonic_guided_next(long *, long *);
bool GOMP_loop_nonmonotonic_runtime_next(long *, long *);
bool GOMP_loop_maybe_nonmonotonic_runtime_next(long *, long *);
bool GOMP_loop_ull_static_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_static_next(ull *, ull *);
bool GOMP_loop_ull_runtime_next(ull *, ull *);
bool GOMP_loop_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ull_start(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *, void **);
bool GOMP_loop_ordered_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ordered_runtime_next(long *, long *);
void GOMP_ordered_start(void);
void GOMP_ordered_end(void);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
bool GOMP_loop_end_cancel(void);
void GOMP_parallel_end(void);
void GOMP_parallel_loop_static_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_dynamic_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_guided_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_runtime_start(void (*)(void *), void *, unsigned, long, long, long);
void GOMP_parallel_loop_static(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_dynamic(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_guided(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_runtime(void (*)(void *), void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_dynamic(void (*)(void *), void *, unsigned, long, long, long,
                                             long, unsigned);
void GOMP_parallel_loop_nonmonotonic_guided(void (*)(void *), void *, unsigned, long, long, long,
                                            long, unsigned);
void GOMP_parallel_loop_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long, long,
                                             unsigned);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long,
                                                   long, unsigned);

/* GFS_* schedule encodings of the ABI. */
enum { GFS_RUNTIME = 0, GFS_STATIC = 1, GFS_DYNAMIC = 2, GFS_GUIDED = 3, GFS_AUTO = 4 };

struct abi_loop {
    bool (*next)(long *, long *);
    long start, incr;
};

static void abi_body(void *p)
{
    struct abi_loop *d = p;
    long s, e;
    while (d->next(&s, &e))
        for (long i = s; d->incr > 0 ? i < e : i > e; i += d->incr)
            rec((i - d->start) / d->incr);
    GOMP_loop_end_nowait();
}

static void test_abi_parallel_loops(void)
{
    /* 4.0+ combined forms: the runtime runs abi_body on every thread. */
    static const struct {
        const char *name;
        void (*start)(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
        bool (*next)(long *, long *);
        enum kind kind;
    } c4[] = {
        {"GOMP_parallel_loop_static", GOMP_parallel_loop_static, GOMP_loop_static_next, K_STATIC_CHUNK},
        {"GOMP_parallel_loop_dynamic", GOMP_parallel_loop_dynamic, GOMP_loop_dynamic_next, K_DYNAMIC},
        {"GOMP_parallel_loop_guided", GOMP_parallel_loop_guided, GOMP_loop_guided_next, K_GUIDED},
        {"GOMP_parallel_loop_nonmonotonic_dynamic", GOMP_parallel_loop_nonmonotonic_dynamic,
         GOMP_loop_nonmonotonic_dynamic_next, K_DYNAMIC},
        {"GOMP_parallel_loop_nonmonotonic_guided", GOMP_parallel_loop_nonmonotonic_guided,
         GOMP_loop_nonmonotonic_guided_next, K_GUIDED},
    };
    for (unsigned k = 0; k < sizeof c4 / sizeof c4[0]; k++) {
        struct sched s = {c4[k].name, c4[k].kind, 4, c4[k].kind != K_DYNAMIC && c4[k].kind != K_GUIDED};
        if (k < 3)
            s.mono = true; /* the GOMP_1.0/4.0 dynamic and guided forms are monotonic */
        struct abi_loop d = {c4[k].next, 100, -3};
        reset();
        c4[k].start(abi_body, &d, 3, 100, 100 - 3 * 777, -3, 4, 0);
        verify(&s, "direct call, step -3", 777, 3);
    }
    /* GOMP_1.0 forms: the caller runs the body itself, then GOMP_parallel_end. */
    static const struct {
        const char *name;
        void (*start)(void (*)(void *), void *, unsigned, long, long, long, long);
        bool (*next)(long *, long *);
        enum kind kind;
    } c1[] = {
        {"GOMP_parallel_loop_static_start", GOMP_parallel_loop_static_start, GOMP_loop_static_next,
         K_STATIC_CHUNK},
        {"GOMP_parallel_loop_dynamic_start", GOMP_parallel_loop_dynamic_start,
         GOMP_loop_dynamic_next, K_DYNAMIC},
        {"GOMP_parallel_loop_guided_start", GOMP_parallel_loop_guided_start, GOMP_loop_guided_next,
         K_GUIDED},
    };
    for (unsigned k = 0; k < sizeof c1 / sizeof c1[0]; k++) {
        struct sched s = {c1[k].name, c1[k].kind, 5, true};
        struct abi_loop d = {c1[k].next, 7, 2};
        reset();
        c1[k].start(abi_body, &d, 3, 7, 7 + 2 * 1001, 2, 5);
        abi_body(&d);
        GOMP_parallel_end();
        verify(&s, "direct call, step 2", 1001, 3);
    }
    /* Runtime forms, with run-sched-var = dynamic,6 (monotonic). */
    omp_set_schedule(omp_sched_dynamic | omp_sched_monotonic, 6);
    struct sched rs = {"direct runtime forms", K_DYNAMIC, 6, false};
    {
        struct abi_loop d = {GOMP_loop_runtime_next, 0, 1};
        reset();
        GOMP_parallel_loop_runtime_start(abi_body, &d, 2, 0, 999, 1);
        abi_body(&d);
        GOMP_parallel_end();
        verify(&rs, "GOMP_parallel_loop_runtime_start", 999, 2);
    }
    static const struct {
        const char *name;
        void (*start)(void (*)(void *), void *, unsigned, long, long, long, unsigned);
        bool (*next)(long *, long *);
    } cr[] = {
        {"GOMP_parallel_loop_runtime", GOMP_parallel_loop_runtime, GOMP_loop_runtime_next},
        {"GOMP_parallel_loop_nonmonotonic_runtime", GOMP_parallel_loop_nonmonotonic_runtime,
         GOMP_loop_nonmonotonic_runtime_next},
        {"GOMP_parallel_loop_maybe_nonmonotonic_runtime",
         GOMP_parallel_loop_maybe_nonmonotonic_runtime, GOMP_loop_maybe_nonmonotonic_runtime_next},
    };
    for (unsigned k = 0; k < sizeof cr / sizeof cr[0]; k++) {
        struct abi_loop d = {cr[k].next, 0, 1};
        reset();
        cr[k].start(abi_body, &d, 4, 0, 2000, 1, 0);
        rs.name = cr[k].name;
        rs.kind = k == 1 ? K_ANY : K_DYNAMIC;
        verify(&rs, "direct call", 2000, 4);
    }
    omp_set_schedule(omp_sched_static, 0);
}

static void test_abi_worksharing_calls(void)
{
    /* GOMP_loop_static_start (never emitted by gcc 12, still in the ABI). */
    reset();
#pragma omp parallel num_threads(3)
    {
        long s, e;
        if (GOMP_loop_static_start(0, 500, 1, 4, &s, &e)) {
            do {
                for (long i = s; i < e; i++)
                    rec(i);
            } while (GOMP_loop_static_next(&s, &e));
        }
        GOMP_loop_end();
    }
    struct sched st4 = {"GOMP_loop_static_start", K_STATIC_CHUNK, 4, true};
    verify(&st4, "direct", 500, 3);

    reset();
#pragma omp parallel num_threads(3)
    {
        ull s, e, base = 1ULL << 63;
        if (GOMP_loop_ull_static_start(false, base + 300, base, (ull)-1, 0, &s, &e)) {
            do {
                for (ull i = s; i > e; i--)
                    rec((long)(base + 300 - i));
            } while (GOMP_loop_ull_static_next(&s, &e));
        }
        GOMP_loop_end_nowait();
    }
    struct sched stb = {"GOMP_loop_ull_static_start", K_STATIC, 0, true};
    verify(&stb, "direct, down", 300, 3);

    /* GOMP_loop_start: shared zeroed memory for the construct, same pointer
     * for every thread, and dynamic scheduling through runtime_next. */
    for (int rep = 0; rep < 3; rep++) {
        void *mems[4] = {0};
        int bad = 0, tickets[8] = {0};
        reset();
#pragma omp parallel num_threads(4)
        {
            long s, e;
            void *mem = (void *)(uintptr_t)64;
            bool got = GOMP_loop_start(0, 1500, 1, GFS_DYNAMIC, 10, &s, &e, NULL, &mem);
            mems[omp_get_thread_num()] = mem;
            if (!mem || ((uintptr_t)mem % __alignof__(long long)) != 0)
                TEST_INC(&bad);
            else
                TEST_INC(&tickets[TEST_INC((int *)mem) & 7]);
            if (got) {
                do {
                    for (long i = s; i < e; i++)
                        rec(i);
                } while (GOMP_loop_runtime_next(&s, &e));
            }
            GOMP_loop_end();
        }
        CHECK(bad == 0);
        for (int t = 1; t < 4; t++)
            CHECK(mems[t] == mems[0]);
        /* The memory started zeroed: the four threads drew tickets 0..3. */
        for (int t = 0; t < 8; t++)
            CHECK(tickets[t] == (t < 4));
        struct sched d10 = {"GOMP_loop_start", K_DYNAMIC, 10, false};
        verify(&d10, "direct", 1500, 4);
    }

    /* GOMP_loop_ull_start without mem, guided. */
    reset();
#pragma omp parallel num_threads(3)
    {
        ull s, e;
        if (GOMP_loop_ull_start(true, 10, 10 + 3 * 700, 3, GFS_GUIDED, 8, &s, &e, NULL, NULL)) {
            do {
                for (ull i = s; i < e; i += 3)
                    rec((long)((i - 10) / 3));
            } while (GOMP_loop_ull_runtime_next(&s, &e));
        }
        GOMP_loop_end();
    }
    struct sched g8 = {"GOMP_loop_ull_start", K_GUIDED, 8, false};
    verify(&g8, "direct", 700, 3);

    /* GOMP_loop_ordered_start: ordered regions run in iteration order. */
    static long order[900];
    int pos = 0;
    reset();
#pragma omp parallel num_threads(3)
    {
        long s, e;
        if (GOMP_loop_ordered_start(0, 900, 1, GFS_DYNAMIC, 7, &s, &e, NULL, NULL)) {
            do {
                for (long i = s; i < e; i++) {
                    rec(i);
                    GOMP_ordered_start();
                    order[pos++] = i;
                    GOMP_ordered_end();
                }
            } while (GOMP_loop_ordered_runtime_next(&s, &e));
        }
        GOMP_loop_end();
    }
    struct sched o7 = {"GOMP_loop_ordered_start", K_DYNAMIC, 7, false};
    verify(&o7, "direct", 900, 3);
    CHECK(pos == 900);
    for (int i = 0; i < 900; i++)
        CHECK(order[i] == i);

    /* GOMP_loop_end_cancel without cancellation: not cancelled. */
    int cancelled = 0;
#pragma omp parallel num_threads(2)
    {
        long s, e;
        if (GOMP_loop_static_start(0, 10, 1, 0, &s, &e)) {
            do {
            } while (GOMP_loop_static_next(&s, &e));
        }
        if (GOMP_loop_end_cancel())
            TEST_INC(&cancelled);
    }
    CHECK(cancelled == 0);
}

static void test_set_schedule_runtime(void)
{
    static const struct {
        omp_sched_t k;
        int chunk;
    } settings[] = {
        {omp_sched_static, 0},   {omp_sched_static, 3}, {omp_sched_dynamic, 0},
        {omp_sched_dynamic, 5},  {omp_sched_guided, 0}, {omp_sched_guided, 4},
        {omp_sched_auto, 0},     {omp_sched_dynamic | omp_sched_monotonic, 2},
        {omp_sched_guided | omp_sched_monotonic, 3},    {omp_sched_static | omp_sched_monotonic, 0},
    };
    for (unsigned k = 0; k < sizeof settings / sizeof settings[0]; k++) {
        omp_set_schedule(settings[k].k, settings[k].chunk);
        omp_sched_t got;
        int chunk;
        omp_get_schedule(&got, &chunk);
        CHECK(got == settings[k].k);
        if (settings[k].chunk > 0)
            CHECK(chunk == settings[k].chunk);
        run_runtime_forms();
        test_combined();
    }
}

static void mode_env(char **argv)
{
    const char *kind = argv[2];
    int chunk = atoi(argv[3]);
    const char *mod = argv[4];
    omp_sched_t want = strcmp(kind, "static") == 0    ? omp_sched_static
                       : strcmp(kind, "dynamic") == 0 ? omp_sched_dynamic
                       : strcmp(kind, "guided") == 0  ? omp_sched_guided
                       : strcmp(kind, "auto") == 0    ? omp_sched_auto
                                                      : (omp_sched_t)-1;
    CHECK(want != (omp_sched_t)-1);
    if (strcmp(mod, "monotonic") == 0)
        want = (omp_sched_t)(want | omp_sched_monotonic);
    else
        CHECK(strcmp(mod, "none") == 0 || strcmp(mod, "nonmonotonic") == 0);
    omp_sched_t got;
    int got_chunk;
    omp_get_schedule(&got, &got_chunk);
    fprintf(stderr, "OMP_SCHEDULE=%s: omp_get_schedule = %#x, %d\n", getenv("OMP_SCHEDULE"),
            (unsigned)got, got_chunk);
    /* static is monotonic whatever the modifier, so the bit may be set. */
    if (want == omp_sched_static)
        got = (omp_sched_t)(got & ~omp_sched_monotonic);
    CHECK(got == want);
    if (chunk > 0)
        CHECK(got_chunk == chunk);
    run_runtime_forms();
    test_combined();
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        CHECK(argc == 5 && strcmp(argv[1], "env") == 0);
        mode_env(argv);
        printf("omp_loops env %s %s %s: ok\n", argv[2], argv[3], argv[4]);
        return 0;
    }
    for (int nt = 1; nt <= 4; nt++)
        for (unsigned c = 0; c < sizeof fixed_cases / sizeof fixed_cases[0]; c++)
            for (int k = 0; k < NSIZES; k++)
                run_shapes(&fixed_cases[c].s, fixed_cases[c].sh, nt, sizes[k]);
    test_set_schedule_runtime();
    test_abi_parallel_loops();
    test_abi_worksharing_calls();
    printf("omp_loops: ok\n");
    return 0;
}
