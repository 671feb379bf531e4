/* Doacross loops: ordered(n) with depend(sink)/depend(source).
 *
 * The worksharing loop runs the outermost ordered loop as iterations
 * 0..counts[0]-1; a post of v (GOMP_doacross_post) says iteration vector v is
 * done up to its source point, a wait for w (GOMP_doacross_wait) waits until
 * w is.  The entry points are in gomp_doacross.c and kmpc_doacross.c.
 *
 * Iterations are grouped into "lanes" that one thread executes in
 * lexicographic order: a thread's whole share (static), a chunk (dynamic),
 * one outer iteration (guided, whose chunk bounds cannot be recomputed from
 * an iteration number).  Each lane records the last vector posted in it; w is
 * done when its lane's record is >= w.  When all counts fit in 64 bits the
 * vector is packed into one word ("flat"); otherwise the lane keeps one word
 * per dimension behind a sequence lock.  Either way the lane's futex word is
 * bumped on every post, and waiters sleep on it through the wait primitive. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "loops/loop.h"
#include "runtime/task_internal.h"

struct pv_doacross {
    unsigned ncounts;
    bool flat;                 /* vectors packed into one word */
    int sched;
    pv_ull nthreads;
    pv_ull chunk;              /* static (0: blocks) or dynamic chunk */
    pv_ull q, t, boundary;     /* static blocks: threads < t own q + 1 iterations */
    size_t lane_size;          /* bytes per lane, a multiple of the cache line */
    unsigned char *lanes;
    unsigned shift[];          /* flat: bit position of each dimension */
};

/* A lane: the futex word, then the record (values are vector + 1, so zero
 * means nothing posted yet). */
struct lane {
    pv_futex_t gen;
    _Atomic pv_ull rec[];
};

#define MAX_DIMS_STACK 16

static inline pv_ull count_at(const void *counts, bool is_ull, unsigned i)
{
    return is_ull ? ((const pv_ull *)counts)[i] : (pv_ull)((const long *)counts)[i];
}

void pv_doacross_setup(struct pv_ws *ws, unsigned ncounts, const void *counts, bool is_ull)
{
    ws->doacross = NULL;
    pv_ull nthr = ws->nthreads;
    if (nthr <= 1 || ncounts == 0)
        return;
    unsigned bits = 0;
    for (unsigned i = 0; i < ncounts; i++) {
        pv_ull c = count_at(counts, is_ull, i);
        if (c == 0)
            return;   /* no iteration runs: post and wait are never called */
        unsigned b = c == 1 ? 1 : 64 - (unsigned)__builtin_clzll(c - 1);
        bits = bits > 64 ? bits : bits + b;
    }
    bool flat = bits <= 63;   /* packed + 1 must not wrap */
    pv_ull n0 = count_at(counts, is_ull, 0), nlanes;
    if (ws->sched == PV_SCHED_STATIC)
        nlanes = nthr;
    else if (ws->sched == PV_SCHED_GUIDED)
        nlanes = n0;
    else
        nlanes = (n0 - 1) / ws->chunk + 1;
    size_t lane_size = sizeof(struct lane) + (flat ? 1 : ncounts) * sizeof(pv_ull);
    lane_size = (lane_size + PV_CACHELINE - 1) & ~(size_t)(PV_CACHELINE - 1);
    size_t head = sizeof(struct pv_doacross) + ncounts * sizeof(unsigned);
    head = (head + PV_CACHELINE - 1) & ~(size_t)(PV_CACHELINE - 1);
    size_t body;
    if (__builtin_mul_overflow((size_t)nlanes, lane_size, &body) ||
        __builtin_add_overflow(body, head, &body))
        pv_fatal("doacross loop too large (%llu lanes)", nlanes);

    struct pv_doacross *d = pv_aligned_alloc(PV_CACHELINE, body);
    d->ncounts = ncounts;
    d->flat = flat;
    d->sched = ws->sched;
    d->nthreads = nthr;
    d->chunk = ws->chunk;
    d->q = n0 / nthr;
    d->t = n0 % nthr;
    d->boundary = d->t * (d->q + 1);
    d->lane_size = lane_size;
    d->lanes = (unsigned char *)d + head;
    memset(d->lanes, 0, body - head);
    if (flat) {
        unsigned sh = 0;
        for (unsigned i = ncounts; i-- > 0;) {
            pv_ull c = count_at(counts, is_ull, i);
            d->shift[i] = sh;
            sh += c == 1 ? 1 : 64 - (unsigned)__builtin_clzll(c - 1);
        }
    }
    ws->doacross = d;
}

static inline struct lane *lane_at(const struct pv_doacross *d, pv_ull i)
{
    return (struct lane *)(d->lanes + i * d->lane_size);
}

/* The lane iteration `first` (outer number) belongs to. */
static pv_ull lane_of(const struct pv_doacross *d, pv_ull first)
{
    switch (d->sched) {
    case PV_SCHED_STATIC:
        if (d->chunk)
            return first / d->chunk % d->nthreads;
        if (first < d->boundary)
            return first / (d->q + 1);
        return d->t + (first - d->boundary) / d->q;
    case PV_SCHED_GUIDED:
        return first;
    default:
        return first / d->chunk;
    }
}

static pv_ull pack(const struct pv_doacross *d, const pv_ull *v)
{
    pv_ull x = 0;
    for (unsigned i = 0; i < d->ncounts; i++)
        x |= v[i] << d->shift[i];
    return x;
}

static void post(const struct pv_doacross *d, const void *counts, bool is_ull)
{
    /* Static: this thread's own lane; otherwise the iteration's. */
    pv_ull li = d->sched == PV_SCHED_STATIC ? pv_thr.ts.team_id
                                            : lane_of(d, count_at(counts, is_ull, 0));
    struct lane *l = lane_at(d, li);
    if (d->flat) {
        pv_ull x = 0;
        for (unsigned i = 0; i < d->ncounts; i++)
            x |= count_at(counts, is_ull, i) << d->shift[i];
        /* Release: the iteration's work before the source point. */
        atomic_store_explicit(&l->rec[0], x + 1, memory_order_release);
    } else {
        /* Sequence lock: odd while the record is being rewritten.  Only the
         * lane's owner writes it. */
        atomic_fetch_add_explicit(&l->gen.word, 1, memory_order_acq_rel);
        for (unsigned i = 0; i < d->ncounts; i++)
            atomic_store_explicit(&l->rec[i], count_at(counts, is_ull, i) + 1,
                                  memory_order_relaxed);
    }
    /* seq_cst as pv_wake requires; also releases the record. */
    atomic_fetch_add_explicit(&l->gen.word, 1, memory_order_seq_cst);
    pv_wake(&l->gen);
}

/* Is the lane's record >= v (lexicographically)?  Sets *g to the futex word
 * value the answer belongs to. */
static bool lane_reached(const struct pv_doacross *d, struct lane *l, const pv_ull *v,
                         pv_ull packed, uint32_t *g)
{
    *g = atomic_load_explicit(&l->gen.word, memory_order_acquire);
    if (d->flat)
        return atomic_load_explicit(&l->rec[0], memory_order_acquire) > packed;
    if (*g & 1)
        return false;   /* being written: wait for the next change */
    int cmp = 0;
    for (unsigned i = 0; i < d->ncounts && cmp == 0; i++) {
        pv_ull r = atomic_load_explicit(&l->rec[i], memory_order_relaxed);
        cmp = r > v[i] + 1 ? 1 : r < v[i] + 1 ? -1 : 0;
    }
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&l->gen.word, memory_order_relaxed) != *g)
        return false;   /* torn read: *g is stale, so the wait returns at once */
    return cmp >= 0;
}

static void wait_for(const struct pv_doacross *d, const pv_ull *v)
{
    struct lane *l = lane_at(d, lane_of(d, v[0]));
    pv_ull packed = d->flat ? pack(d, v) : 0;
    uint32_t g;
    while (!lane_reached(d, l, v, packed, &g))
        pv_wait_while_eq(&l->gen, g);
}

/* ------------------------------------------------------------ post / wait */

/* The current loop's doacross state; NULL when post and wait have nothing to
 * do (one thread, or an empty loop nest): they are then just a full fence. */
static inline const struct pv_doacross *current(void)
{
    struct pv_ws *ws = pv_thr.ts.ws;
    const struct pv_doacross *d = ws ? ws->doacross : NULL;
    if (!d)
        atomic_thread_fence(memory_order_seq_cst);
    return d;
}

static pv_ull *vec_alloc(unsigned n, pv_ull *stack)
{
    if (n <= MAX_DIMS_STACK)
        return stack;
    return pv_malloc(n * sizeof(pv_ull));
}

/* The loop's ordered(n) n, for the tool (also when post and wait have
 * nothing to do). */
static unsigned dims(const struct pv_doacross *d)
{
    const struct pv_ws *ws = pv_thr.ts.ws;
    return d ? d->ncounts : ws ? ws->doacross_dims : 0;
}

static __attribute__((noinline)) void post_under_tool(const struct pv_doacross *d,
                                                      const void *counts, bool is_ull)
{
    unsigned n = dims(d);
    pv_ull stack[MAX_DIMS_STACK] = {0}, *v = vec_alloc(n, stack);
    for (unsigned i = 0; i < n; i++)
        v[i] = count_at(counts, is_ull, i);
    pv_ompt_doacross(ompt_dependence_type_source, v, n);
    if (v != stack)
        free(v);
    if (d)
        post(d, counts, is_ull);
}

void pv_doacross_post(const void *counts, bool is_ull)
{
    const struct pv_doacross *d = current();
    if (pv_ompt_tool())
        post_under_tool(d, counts, is_ull);
    else if (d)
        post(d, counts, is_ull);
}

/* Wait for the vector (first, then the rest of it from ap, as long or as
 * unsigned long long); a tool hears of it first. */
static inline void wait_args(const struct pv_doacross *d, pv_ull first, va_list ap, bool is_ull)
{
    unsigned n = dims(d);
    pv_ull stack[MAX_DIMS_STACK], *v = vec_alloc(n ? n : 1, stack);
    v[0] = first;
    for (unsigned i = 1; i < n; i++)
        v[i] = is_ull ? va_arg(ap, pv_ull) : (pv_ull)va_arg(ap, long);
    if (pv_ompt_tool())
        pv_ompt_doacross(ompt_dependence_type_sink, v, n);
    if (d)
        wait_for(d, v);
    if (v != stack)
        free(v);
}

void pv_doacross_wait(pv_ull first, va_list ap, bool is_ull)
{
    const struct pv_doacross *d = current();
    if (d || pv_ompt_tool())
        wait_args(d, first, ap, is_ull);
}

/* ----------------------------------------------------------- loop starts */

struct pv_ws *pv_doacross_enter(unsigned ncounts, const void *counts, bool is_ull, int sched,
                                pv_ull chunk, void **mem)
{
    bool init = pv_ws_start();
    struct pv_ws *ws = pv_thr.ts.ws;
    if (init) {
        pv_ull n0 = count_at(counts, is_ull, 0);
        pv_loop_setup(ws, 0, n0, 1, n0, sched, chunk, pv_team_size());
        pv_doacross_setup(ws, ncounts, counts, is_ull);
        ws->doacross_dims = ncounts;
    }
    pv_ws_enter_done(ws, init, mem);
    if (pv_ompt_tool())
        pv_ompt_loop_begin(ws);
    return ws;
}
