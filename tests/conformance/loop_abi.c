/* Loop entry points called directly through the GOMP ABI, for every schedule,
 * long and unsigned long long, up and down, extreme bounds, chunk sizes and
 * team sizes 1..4.  Each thread logs the ranges it is given; the log must tile
 * the iteration space exactly (every iteration once), each range must start on
 * the iteration grid and end on it or at the loop's end, and the ranges must
 * follow libgomp's assignment: static blocks by thread id, static chunks round
 * robin, dynamic chunks of exactly `chunk`, guided chunks of the remaining
 * share. */
#define _GNU_SOURCE
#include "pvomp_check.h"

#include <limits.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

typedef unsigned long long ull;

bool GOMP_loop_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_maybe_nonmonotonic_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_static_next(long *, long *);
bool GOMP_loop_dynamic_next(long *, long *);
bool GOMP_loop_guided_next(long *, long *);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_nonmonotonic_dynamic_next(long *, long *);
bool GOMP_loop_nonmonotonic_guided_next(long *, long *);
bool GOMP_loop_nonmonotonic_runtime_next(long *, long *);
bool GOMP_loop_maybe_nonmonotonic_runtime_next(long *, long *);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
void GOMP_parallel_loop_static(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_dynamic(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_guided(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_runtime(void (*)(void *), void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_dynamic(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_guided(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
void GOMP_parallel_loop_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*)(void *), void *, unsigned, long, long, long, unsigned);
void GOMP_parallel_loop_static_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_dynamic_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_guided_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_runtime_start(void (*)(void *), void *, unsigned, long, long, long);
void GOMP_parallel_end(void);

bool GOMP_loop_ull_static_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_dynamic_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_guided_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_dynamic_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_guided_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_maybe_nonmonotonic_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_start(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *, void **);
bool GOMP_loop_ull_static_next(ull *, ull *);
bool GOMP_loop_ull_dynamic_next(ull *, ull *);
bool GOMP_loop_ull_guided_next(ull *, ull *);
bool GOMP_loop_ull_runtime_next(ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_dynamic_next(ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_guided_next(ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_runtime_next(ull *, ull *);
bool GOMP_loop_ull_maybe_nonmonotonic_runtime_next(ull *, ull *);

enum kind { K_STATIC = 1, K_DYNAMIC = 2, K_GUIDED = 3 };

/* ------------------------------------------------------------- the loop */
struct loop {
    bool is_ull, up;
    ull start, end, incr;   /* bits; long loops cast */
    ull n;
};

static ull count(const struct loop *l)
{
    if (l->is_ull) {
        if (l->up)
            return l->start < l->end ? (l->end - l->start - 1) / l->incr + 1 : 0;
        return l->start > l->end ? (l->start - l->end - 1) / (0 - l->incr) + 1 : 0;
    }
    long s = (long)l->start, e = (long)l->end, i = (long)l->incr;
    if (i > 0)
        return s < e ? ((ull)e - (ull)s - 1) / (ull)i + 1 : 0;
    return s > e ? ((ull)s - (ull)e - 1) / (0 - (ull)i) + 1 : 0;
}

/* Iteration number of value v; false if v is not on the grid. */
static bool index_of(const struct loop *l, ull v, ull *k)
{
    bool up = l->is_ull ? l->up : (long)l->incr > 0;
    ull d = up ? v - l->start : l->start - v;
    ull step = up ? l->incr : 0 - l->incr;
    *k = d / step;
    return d % step == 0;
}

/* ------------------------------------------------------------- the log */
#define MAXLOG 8192
struct rec {
    ull s0, e0;
    int tid, seq;   /* seq: position in the thread's own sequence */
};
static struct rec logv[MAXLOG];
static int nlog;
static int seqs[8];
static const struct loop *cur;
static int failures;
static int verified;   /* configurations checked */

#define FAIL(...)                                                   \
    do {                                                            \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                      \
        fputc('\n', stderr);                                        \
        if (++failures > 20)                                        \
            exit(1);                                                \
    } while (0)

static void record(ull s, ull e)
{
    const struct loop *l = cur;
    ull s0 = 0, e0 = l->n;
    bool ok = index_of(l, s, &s0) && (e == l->end || index_of(l, e, &e0));
    int tid = omp_get_thread_num();
    if (!ok || s0 >= e0 || e0 > l->n) {
        FAIL("bad range [%llx,%llx) -> [%llu,%llu) n=%llu", s, e, s0, e0, l->n);
        return;
    }
    int i = __atomic_fetch_add(&nlog, 1, __ATOMIC_RELAXED);
    if (i >= MAXLOG) {
        FAIL("too many chunks");
        return;
    }
    logv[i] = (struct rec){s0, e0, tid, seqs[tid]++};
}

static int cmp_rec(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    return x->s0 < y->s0 ? -1 : x->s0 > y->s0;
}

/* Check the log against the schedule (chunk as resolved). */
static void verify(const char *what, int kind, ull chunk, int nthr)
{
    const struct loop *l = cur;
    int n = nlog < MAXLOG ? nlog : MAXLOG;
    verified++;
    qsort(logv, (size_t)n, sizeof logv[0], cmp_rec);
    ull at = 0;
    for (int i = 0; i < n; i++) {
        const struct rec *r = &logv[i];
        if (r->s0 != at) {
            FAIL("%s: gap/overlap at %llu (chunk starts %llu), n=%llu nthr=%d chunk=%llu", what,
                 at, r->s0, l->n, nthr, chunk);
            return;
        }
        at = r->e0;
        ull size = r->e0 - r->s0, left = l->n - r->s0;
        if (nthr == 1 && kind == K_STATIC) {
            if (size != l->n)
                FAIL("%s: one thread should get everything at once", what);
            continue;
        }
        if (kind == K_STATIC && chunk == 0) {
            ull q = l->n / (ull)nthr, t = l->n % (ull)nthr, id = (ull)r->tid;
            ull b = id < t ? (q + 1) * id : q * id + t;
            if (r->s0 != b || size != q + (id < t) || r->seq != 0)
                FAIL("%s: static block of thread %d is [%llu,%llu)", what, r->tid, r->s0, r->e0);
        } else if (kind == K_STATIC) {
            ull k = r->s0 / chunk;
            if (r->s0 % chunk || k % (ull)nthr != (ull)r->tid || (ull)r->seq != k / (ull)nthr ||
                size != (chunk < left ? chunk : left))
                FAIL("%s: static chunk [%llu,%llu) on thread %d seq %d", what, r->s0, r->e0,
                     r->tid, r->seq);
        } else if (kind == K_DYNAMIC) {
            if (r->s0 % chunk || size != (chunk < left ? chunk : left))
                FAIL("%s: dynamic chunk [%llu,%llu) chunk %llu", what, r->s0, r->e0, chunk);
        } else {
            ull share = left / (ull)nthr + (left % (ull)nthr != 0);
            ull want = share > chunk ? share : chunk;
            if (want > left)
                want = left;
            if (size != want)
                FAIL("%s: guided chunk [%llu,%llu) want size %llu", what, r->s0, r->e0, want);
        }
    }
    if (at != l->n)
        FAIL("%s: iterations %llu..%llu never handed out (nthr %d chunk %llu)", what, at, l->n,
             nthr, chunk);
}

static void reset(void)
{
    nlog = 0;
    memset(seqs, 0, sizeof seqs);
}

/* ------------------------------------------------------- long variants */
typedef bool (*lstart_fn)(long, long, long, long, long *, long *);
typedef bool (*lnext_fn)(long *, long *);

struct lvariant {
    const char *name;
    int kind;             /* 0: runtime start (no chunk argument) */
    lstart_fn start;
    bool (*rstart)(long, long, long, long *, long *);
    lnext_fn next;
    long gomp_sched;      /* >= 0: use GOMP_loop_start with this encoding */
};

static const struct lvariant lvariants[] = {
    {"static", K_STATIC, GOMP_loop_static_start, NULL, GOMP_loop_static_next, -1},
    {"dynamic", K_DYNAMIC, GOMP_loop_dynamic_start, NULL, GOMP_loop_dynamic_next, -1},
    {"guided", K_GUIDED, GOMP_loop_guided_start, NULL, GOMP_loop_guided_next, -1},
    {"nm_dynamic", K_DYNAMIC, GOMP_loop_nonmonotonic_dynamic_start, NULL,
     GOMP_loop_nonmonotonic_dynamic_next, -1},
    {"nm_guided", K_GUIDED, GOMP_loop_nonmonotonic_guided_start, NULL,
     GOMP_loop_nonmonotonic_guided_next, -1},
    {"runtime", 0, NULL, GOMP_loop_runtime_start, GOMP_loop_runtime_next, -1},
    {"nm_runtime", 0, NULL, GOMP_loop_nonmonotonic_runtime_start,
     GOMP_loop_nonmonotonic_runtime_next, -1},
    {"mnm_runtime", 0, NULL, GOMP_loop_maybe_nonmonotonic_runtime_start,
     GOMP_loop_maybe_nonmonotonic_runtime_next, -1},
    {"loop_start(static)", K_STATIC, NULL, NULL, GOMP_loop_runtime_next, 1},
    {"loop_start(monotonic:dynamic)", K_DYNAMIC, NULL, NULL, GOMP_loop_dynamic_next,
     0x80000002L},
    {"loop_start(guided)", K_GUIDED, NULL, NULL, GOMP_loop_guided_next, 3},
    {"loop_start(runtime)", 0, NULL, NULL, GOMP_loop_runtime_next, 0},
    {"loop_start(nonmonotonic:runtime)", 0, NULL, NULL, GOMP_loop_runtime_next, 4},
};

static const struct lvariant *lv;
static long lchunk;

static void run_long_body(void)
{
    const struct loop *l = cur;
    long s, e;
    bool more;
    if (lv->gomp_sched >= 0)
        more = GOMP_loop_start((long)l->start, (long)l->end, (long)l->incr, lv->gomp_sched, lchunk,
                               &s, &e, NULL, NULL);
    else if (lv->start)
        more = lv->start((long)l->start, (long)l->end, (long)l->incr, lchunk, &s, &e);
    else
        more = lv->rstart((long)l->start, (long)l->end, (long)l->incr, &s, &e);
    while (more) {
        record((ull)s, (ull)e);
        more = lv->next(&s, &e);
    }
    GOMP_loop_end();
}

/* The schedule a runtime-scheduled loop gets from omp_set_schedule. */
struct rt {
    omp_sched_t sched;
    int chunk;
    int kind;
    ull eff_chunk;
};
static const struct rt rts[] = {
    {omp_sched_static, 0, K_STATIC, 0},   {omp_sched_static, 5, K_STATIC, 5},
    {omp_sched_dynamic, 0, K_DYNAMIC, 1}, {omp_sched_dynamic, 3, K_DYNAMIC, 3},
    {omp_sched_guided, 0, K_GUIDED, 1},   {omp_sched_guided, 4, K_GUIDED, 4},
    {omp_sched_auto, 0, K_STATIC, 0},
};

static ull eff_chunk(int kind, long chunk)
{
    if (kind == K_STATIC)
        return chunk > 0 ? (ull)chunk : 0;
    return chunk > 0 ? (ull)chunk : 1;
}

/* Number of chunks a schedule will produce, to keep the log bounded. */
static bool too_many(const struct loop *l, int kind, ull chunk, int nthr)
{
    if (kind == K_GUIDED)
        return false;   /* a share of what is left: about nthr * 44 chunks at most */
    if (kind == K_STATIC && (chunk == 0 || nthr == 1))
        return false;
    return l->n / (chunk ? chunk : 1) > MAXLOG / 2;
}

static void test_long(const struct loop *l)
{
    static const long chunks[] = {0, 1, 2, 3, 7, 64, 1000, LONG_MAX / 3, -5};
    cur = l;
    for (size_t v = 0; v < sizeof lvariants / sizeof lvariants[0]; v++) {
        lv = &lvariants[v];
        for (int nthr = 1; nthr <= 4; nthr++) {
            size_t nruns = lv->kind ? sizeof chunks / sizeof chunks[0] : sizeof rts / sizeof rts[0];
            for (size_t c = 0; c < nruns; c++) {
                int kind;
                ull ec;
                if (lv->kind) {
                    kind = lv->kind;
                    lchunk = chunks[c];
                    ec = eff_chunk(kind, lchunk);
                } else {
                    omp_set_schedule(rts[c].sched, rts[c].chunk);
                    kind = rts[c].kind;
                    ec = rts[c].eff_chunk;
                    lchunk = 0;
                }
                if (too_many(l, kind, ec, nthr))
                    continue;
                reset();
#pragma omp parallel num_threads(nthr)
                run_long_body();
                char what[128];
                snprintf(what, sizeof what, "long %s [%ld,%ld) step %ld", lv->name,
                         (long)l->start, (long)l->end, (long)l->incr);
                verify(what, kind, ec, nthr);
            }
        }
    }
}

/* ------------------------------------------------- combined parallel loops */
static void combined_body(void *arg)
{
    lnext_fn next = (lnext_fn)arg;
    long s, e;
    while (next(&s, &e))
        record((ull)s, (ull)e);
    GOMP_loop_end_nowait();
}

static void test_combined(const struct loop *l)
{
    cur = l;
    long st = (long)l->start, en = (long)l->end, in = (long)l->incr;
    for (int nthr = 1; nthr <= 4; nthr++) {
        for (long chunk = 0; chunk <= 5; chunk += 5) {
            reset();
            GOMP_parallel_loop_static(combined_body, (void *)GOMP_loop_static_next, nthr, st, en,
                                      in, chunk, 0);
            verify("parallel_loop_static", K_STATIC, eff_chunk(K_STATIC, chunk), nthr);
            reset();
            GOMP_parallel_loop_static_start(combined_body, (void *)GOMP_loop_static_next, nthr,
                                            st, en, in, chunk);
            combined_body((void *)GOMP_loop_static_next);
            GOMP_parallel_end();
            verify("parallel_loop_static_start", K_STATIC, eff_chunk(K_STATIC, chunk), nthr);
        }
        static const struct {
            void (*fn)(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);
            lnext_fn next;
            int kind;
        } cs[] = {
            {GOMP_parallel_loop_dynamic, GOMP_loop_dynamic_next, K_DYNAMIC},
            {GOMP_parallel_loop_guided, GOMP_loop_guided_next, K_GUIDED},
            {GOMP_parallel_loop_nonmonotonic_dynamic, GOMP_loop_nonmonotonic_dynamic_next,
             K_DYNAMIC},
            {GOMP_parallel_loop_nonmonotonic_guided, GOMP_loop_nonmonotonic_guided_next,
             K_GUIDED},
        };
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
            reset();
            cs[i].fn(combined_body, (void *)cs[i].next, nthr, st, en, in, 3, 0);
            verify("parallel_loop_dynamic/guided", cs[i].kind, 3, nthr);
        }
        reset();
        GOMP_parallel_loop_dynamic_start(combined_body, (void *)GOMP_loop_dynamic_next, nthr, st,
                                         en, in, 2);
        combined_body((void *)GOMP_loop_dynamic_next);
        GOMP_parallel_end();
        verify("parallel_loop_dynamic_start", K_DYNAMIC, 2, nthr);
        reset();
        GOMP_parallel_loop_guided_start(combined_body, (void *)GOMP_loop_guided_next, nthr, st,
                                        en, in, 2);
        combined_body((void *)GOMP_loop_guided_next);
        GOMP_parallel_end();
        verify("parallel_loop_guided_start", K_GUIDED, 2, nthr);

        static const struct {
            void (*fn)(void (*)(void *), void *, unsigned, long, long, long, unsigned);
            lnext_fn next;
        } rs[] = {
            {GOMP_parallel_loop_runtime, GOMP_loop_runtime_next},
            {GOMP_parallel_loop_nonmonotonic_runtime, GOMP_loop_nonmonotonic_runtime_next},
            {GOMP_parallel_loop_maybe_nonmonotonic_runtime,
             GOMP_loop_maybe_nonmonotonic_runtime_next},
        };
        for (size_t r = 0; r < sizeof rts / sizeof rts[0]; r++) {
            omp_set_schedule(rts[r].sched, rts[r].chunk);
            if (too_many(l, rts[r].kind, rts[r].eff_chunk, nthr))
                continue;
            for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
                reset();
                rs[i].fn(combined_body, (void *)rs[i].next, nthr, st, en, in, 0);
                verify("parallel_loop_runtime", rts[r].kind, rts[r].eff_chunk, nthr);
            }
            reset();
            GOMP_parallel_loop_runtime_start(combined_body, (void *)GOMP_loop_runtime_next, nthr,
                                             st, en, in);
            combined_body((void *)GOMP_loop_runtime_next);
            GOMP_parallel_end();
            verify("parallel_loop_runtime_start", rts[r].kind, rts[r].eff_chunk, nthr);
        }
    }
}

/* ------------------------------------------------------------- ull variants */
typedef bool (*ustart_fn)(bool, ull, ull, ull, ull, ull *, ull *);
typedef bool (*unext_fn)(ull *, ull *);
struct uvariant {
    const char *name;
    int kind;
    ustart_fn start;
    bool (*rstart)(bool, ull, ull, ull, ull *, ull *);
    unext_fn next;
    long gomp_sched;
};
static const struct uvariant uvariants[] = {
    {"static", K_STATIC, GOMP_loop_ull_static_start, NULL, GOMP_loop_ull_static_next, -1},
    {"dynamic", K_DYNAMIC, GOMP_loop_ull_dynamic_start, NULL, GOMP_loop_ull_dynamic_next, -1},
    {"guided", K_GUIDED, GOMP_loop_ull_guided_start, NULL, GOMP_loop_ull_guided_next, -1},
    {"nm_dynamic", K_DYNAMIC, GOMP_loop_ull_nonmonotonic_dynamic_start, NULL,
     GOMP_loop_ull_nonmonotonic_dynamic_next, -1},
    {"nm_guided", K_GUIDED, GOMP_loop_ull_nonmonotonic_guided_start, NULL,
     GOMP_loop_ull_nonmonotonic_guided_next, -1},
    {"runtime", 0, NULL, GOMP_loop_ull_runtime_start, GOMP_loop_ull_runtime_next, -1},
    {"nm_runtime", 0, NULL, GOMP_loop_ull_nonmonotonic_runtime_start,
     GOMP_loop_ull_nonmonotonic_runtime_next, -1},
    {"mnm_runtime", 0, NULL, GOMP_loop_ull_maybe_nonmonotonic_runtime_start,
     GOMP_loop_ull_maybe_nonmonotonic_runtime_next, -1},
    {"ull_start(static)", K_STATIC, NULL, NULL, GOMP_loop_ull_static_next, 1},
    {"ull_start(dynamic)", K_DYNAMIC, NULL, NULL, GOMP_loop_ull_runtime_next, 2},
    {"ull_start(monotonic:guided)", K_GUIDED, NULL, NULL, GOMP_loop_ull_guided_next,
     0x80000003L},
    {"ull_start(runtime)", 0, NULL, NULL, GOMP_loop_ull_runtime_next, 0},
};
static const struct uvariant *uv;
static ull uchunk;

static void run_ull_body(void)
{
    const struct loop *l = cur;
    ull s, e;
    bool more;
    if (uv->gomp_sched >= 0)
        more = GOMP_loop_ull_start(l->up, l->start, l->end, l->incr, uv->gomp_sched, uchunk, &s,
                                   &e, NULL, NULL);
    else if (uv->start)
        more = uv->start(l->up, l->start, l->end, l->incr, uchunk, &s, &e);
    else
        more = uv->rstart(l->up, l->start, l->end, l->incr, &s, &e);
    while (more) {
        record(s, e);
        more = uv->next(&s, &e);
    }
    GOMP_loop_end_nowait();
}

static void test_ull(const struct loop *l)
{
    static const ull chunks[] = {0, 1, 2, 3, 7, 64, 1000, ULLONG_MAX / 3, 1ULL << 62};
    cur = l;
    for (size_t v = 0; v < sizeof uvariants / sizeof uvariants[0]; v++) {
        uv = &uvariants[v];
        for (int nthr = 1; nthr <= 4; nthr++) {
            size_t nruns = uv->kind ? sizeof chunks / sizeof chunks[0] : sizeof rts / sizeof rts[0];
            for (size_t c = 0; c < nruns; c++) {
                int kind;
                ull ec;
                if (uv->kind) {
                    kind = uv->kind;
                    uchunk = chunks[c];
                    ec = kind == K_STATIC ? uchunk : uchunk ? uchunk : 1;
                } else {
                    omp_set_schedule(rts[c].sched, rts[c].chunk);
                    kind = rts[c].kind;
                    ec = rts[c].eff_chunk;
                    uchunk = 0;
                }
                if (too_many(l, kind, ec, nthr))
                    continue;
                reset();
#pragma omp parallel num_threads(nthr)
                run_ull_body();
                char what[160];
                snprintf(what, sizeof what, "ull %s %s [%llu,%llu) step %llx", uv->name,
                         l->up ? "up" : "down", l->start, l->end, l->incr);
                verify(what, kind, ec, nthr);
            }
        }
    }
}

/* An orphaned loop (no enclosing parallel) runs everything in the caller. */
static void test_orphan(void)
{
    struct loop l = {false, true, 0, 100, 3, 0};
    l.n = count(&l);
    cur = &l;
    lv = &lvariants[1];
    lchunk = 4;
    reset();
    run_long_body();
    verify("orphaned dynamic", K_DYNAMIC, 4, 1);
}

int main(void)
{
    const long LMAX = LONG_MAX, LMIN = LONG_MIN;
    struct loop longs[] = {
        {false, true, 0, 1000, 1, 0},
        {false, true, 0, 1000, 7, 0},
        {false, true, (ull)-50L, 50, 13, 0},
        {false, true, 999, (ull)-1L, (ull)-1L, 0},
        {false, true, 1000, 0, (ull)-3L, 0},
        {false, true, 5, 5, 1, 0},                          /* empty */
        {false, true, 5, 0, 1, 0},                          /* empty, reversed */
        {false, true, 0, 1, 1, 0},
        {false, true, (ull)(LMAX - 1000), (ull)LMAX, 9, 0},
        {false, true, (ull)(LMIN + 1000), (ull)LMIN, (ull)-11L, 0},
        {false, true, (ull)LMIN, (ull)(LMIN + 500), 1, 0},
        {false, true, (ull)LMIN, (ull)LMAX, (ull)(LMAX / 100), 0},
        {false, true, (ull)LMAX, (ull)LMIN, (ull)-(LMAX / 50), 0},
        {false, true, (ull)LMIN, (ull)LMAX, 1, 0},          /* 2^64 - 1 iterations */
    };
    struct loop ulls[] = {
        {true, true, 0, 1000, 1, 0},
        {true, true, 3, 1000, 10, 0},
        {true, true, ULLONG_MAX - 500, ULLONG_MAX, 3, 0},
        {true, false, 1000, 0, (ull)-2LL, 0},
        {true, false, ULLONG_MAX, 0, 0 - ULLONG_MAX / 97, 0},
        {true, true, 0, ULLONG_MAX, ULLONG_MAX / 150, 0},
        {true, true, 10, 10, 1, 0},
        {true, false, 10, 20, (ull)-1LL, 0},
        {true, true, 0, ULLONG_MAX, 1, 0},                  /* 2^64 - 1 iterations */
        {true, false, ULLONG_MAX, 0, (ull)-1LL, 0},
    };
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++) {
        longs[i].n = count(&longs[i]);
        test_long(&longs[i]);
        if (longs[i].n < 1000000)
            test_combined(&longs[i]);
    }
    for (size_t i = 0; i < sizeof ulls / sizeof ulls[0]; i++) {
        ulls[i].n = count(&ulls[i]);
        test_ull(&ulls[i]);
    }
    test_orphan();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    CHECK(verified > 3000);
    printf("loop_abi: %d configurations partition their iteration spaces as specified\n",
           verified);
    return 0;
}
