/* Ordered loops: GOMP_ordered_start/end and the GOMP_loop_*ordered_* entry
 * points.
 *
 * Chunks of an ordered loop partition 0..n-1 and must run their ordered
 * regions in iteration order, so they hand a turn on in the order of their
 * first iterations.  The slot holds `turn`, the first iteration of the chunk
 * that may run ordered regions now.  A thread holding chunk [s0, e0) waits
 * for turn == s0 at its first ordered region; when it is done with the
 * chunk (at its next *_next call, or when it leaves the loop) it waits for
 * the turn too -- its chunk may have had no ordered region -- and passes it
 * on by storing e0.  Chunks are scheduled exactly as in unordered loops, so
 * dynamic and guided stay lock-free.
 *
 * A thread's held chunk is kept in pv_thr.ts.static_trip as s0 + 1 (0: none),
 * which saves and restores with the rest of the thread state around nested
 * regions.  The end e0 is recomputed from s0: every schedule's chunk end is a
 * function of its start.  With a single thread none of this is needed, and
 * the plain schedulers run the loop (ws->ordered_loop is false). */
#include "runtime/loop.h"
#include "trace/trace.h"
#include "runtime/task_internal.h"
#include "ompt/patch.h"

void pv_ordered_setup(struct pv_ws *ws, unsigned nthreads)
{
    ws->ordered = &ws->ord;
    ws->ordered_loop = nthreads > 1;
    ws->ordered_start_work = ws->ordered_loop || pv_ompt_tool();
    atomic_store_explicit(&ws->ord.turn, 0, memory_order_relaxed);
}

void pv_ordered_release(struct pv_ws *ws)
{
    /* The hand-over state lives in the slot; nothing to free. */
    ws->ordered = NULL;
    ws->ordered_loop = false;
    ws->ordered_start_work = false;
}

/* The channel whose futex word the hand-over to turn t bumps: the chunk's
 * ordinal modulo the channel count.  The chunks being held at any moment are
 * consecutive in order (a thread cannot take a new chunk before the turn
 * reached its last one), so up to PV_ORD_CHANNELS threads never share a
 * channel.  Guided chunk ordinals are not a function of t; its starts are
 * spread by Fibonacci hashing instead.  Turn and channels share one cache
 * line, so a hand-over moves one line to the waiter. */
_Static_assert(sizeof(struct pv_ordered) <= PV_CACHELINE, "one line");

static pv_futex_t *chan_of(const struct pv_ws *ws, pv_ull t)
{
    pv_ull k, c = ws->chunk;
    if (ws->sched == PV_SCHED_GUIDED) {
        k = (((t * 0x9e3779b97f4a7c15ULL) >> 32) * PV_ORD_CHANNELS) >> 32;
    } else if (ws->sched == PV_SCHED_STATIC && c == 0) {
        /* Blocks: the first n % nthr hold q + 1 iterations. */
        pv_ull nthr = pv_team_size(), q = ws->n / nthr, r = ws->n % nthr;
        pv_ull edge = r * (q + 1);
        k = t < edge ? t / (q + 1) : r + (q ? (t - edge) / q : 0);
    } else {
        k = c == 1 ? t : t / c;
    }
    return (pv_futex_t *)&ws->ord.chan[k % PV_ORD_CHANNELS];
}

/* Wait until the chunk starting at s0 has the turn.  Turns only grow, and
 * never past a chunk that is still held, so `>=` is `==` in a correct
 * program; it keeps a program with stray ordered regions from hanging. */
static void turn_wait(struct pv_ws *ws, pv_ull s0)
{
    struct pv_ordered *o = &ws->ord;
    /* Acquire: the previous chunk's ordered regions happen before ours. */
    if (pv_likely(atomic_load_explicit(&o->turn, memory_order_acquire) >= s0))
        return;
    pv_futex_t *f = chan_of(ws, s0);
    for (;;) {
        /* Read the channel before the turn: a hand-over to s0 after this
         * read changes the channel word, so the wait below cannot miss it. */
        uint32_t g = atomic_load_explicit(&f->word, memory_order_acquire);
        if (atomic_load_explicit(&o->turn, memory_order_acquire) >= s0)
            return;
        pv_wait_while_eq(f, g);
    }
}

static void turn_pass(struct pv_ws *ws, pv_ull e0)
{
    atomic_store_explicit(&ws->ord.turn, e0, memory_order_release);
    if (e0 == ws->n)
        return;   /* the loop's end: nobody waits for it */
    pv_futex_t *f = chan_of(ws, e0);
    /* seq_cst, as pv_wake requires, after the turn is visible. */
    atomic_fetch_add_explicit(&f->word, 1, memory_order_seq_cst);
    pv_wake(f);
}

/* End of the chunk that starts at s0 (this thread's, for static). */
static pv_ull chunk_end(const struct pv_ws *ws, pv_ull s0)
{
    pv_ull n = ws->n, c = ws->chunk;
    unsigned nthr = pv_team_size();
    if (ws->sched == PV_SCHED_GUIDED)
        return pv_guided_end(ws, s0, nthr);
    if (ws->sched == PV_SCHED_STATIC && c == 0) {
        pv_ull id = pv_thr.ts.team_id;
        return s0 + n / nthr + (id < n % nthr);
    }
    return c >= n - s0 ? n : s0 + c;
}

/* Static schedule, chunk by chunk: the first one from the team id, each
 * following one nthreads chunks further on. */
static bool static_take(const struct pv_ws *ws, bool first, unsigned long held, pv_ull *s0,
                        pv_ull *e0)
{
    pv_ull n = ws->n, c = ws->chunk;
    pv_ull nthr = pv_team_size(), id = pv_thr.ts.team_id, b;
    if (c == 0) {
        if (!first)
            return false;
        pv_ull q = n / nthr, t = n % nthr;
        if (id < t)
            b = ++q * id;
        else
            b = q * id + t;
        if (q == 0)
            return false;
        *s0 = b;
        *e0 = b + q;
        return true;
    }
    if (first) {
        if (__builtin_mul_overflow(id, c, &b))
            return false;
    } else {
        pv_ull stride;
        if (!held || __builtin_mul_overflow(nthr, c, &stride) ||
            __builtin_add_overflow((pv_ull)held - 1, stride, &b))
            return false;
    }
    if (b >= n)
        return false;
    *s0 = b;
    *e0 = c >= n - b ? n : b + c;
    return true;
}

/* Give up the held chunk, if any: wait for its turn, pass the turn on. */
static unsigned long drop_chunk(struct pv_ws *ws)
{
    unsigned long held = pv_thr.ts.static_trip;
    if (held) {
        pv_ull s0 = held - 1;
        turn_wait(ws, s0);
        turn_pass(ws, chunk_end(ws, s0));
        pv_thr.ts.static_trip = 0;
    }
    return held;
}

bool pv_ordered_next(struct pv_ws *ws, bool first, pv_ull *s0, pv_ull *e0)
{
    if (!ws->ordered_loop)
        return pv_iter_next(ws, s0, e0);
    unsigned long held = drop_chunk(ws);
    bool got;
    if (ws->sched == PV_SCHED_STATIC)
        got = static_take(ws, first, held, s0, e0);
    else
        got = pv_iter_next(ws, s0, e0);
    if (got)
        pv_thr.ts.static_trip = (unsigned long)(*s0 + 1);
    return got;
}

void pv_ordered_leave(struct pv_ws *ws)
{
    drop_chunk(ws);
}

static inline void wait_for_turn(struct pv_ws *ws)
{
    if (ws->ordered_loop) {
        unsigned long held = pv_thr.ts.static_trip;
        if (held)
            turn_wait(ws, held - 1);
    }
}

/* With a tool: the mutex events around the wait for the turn (out of line:
 * without a tool GOMP_ordered_start needs no frame).  ws: NULL outside an
 * ordered loop. */
static __attribute__((noinline, cold)) void ordered_start_under_tool(struct pv_ws *ws,
                                                                     const void *ra)
{
    pv_ompt_mutex_acquire(ompt_mutex_ordered, ws, ra);
    if (ws)
        wait_for_turn(ws);
    pv_ompt_mutex_acquired(ompt_mutex_ordered, ws, ra);
}

/* The tool's test shares the loop's: an ordered loop that began with a tool
 * attached has ordered_start_work set (pv_ordered_setup). */
PV_EXPORT void GOMP_ordered_start(void)
{
    struct pv_ws *ws = pv_thr.ts.ws;
    if (ws && ws->ordered_start_work) {
        if (pv_ompt_tool())
            ordered_start_under_tool(ws, pv_ompt_entry_ra());
        else
            wait_for_turn(ws);
    } else if (!ws && pv_ompt_tool()) {
        ordered_start_under_tool(NULL, pv_ompt_entry_ra());
    }
}

/* GOMP_ordered_end: the turn moves on when the chunk is done (see above),
 * so without a tool there is nothing to do: the entry is a lone `ret`, which
 * a tool's start patches into a jump to the released event
 * (PV_OMPT_PATCHED, ompt/patch.h). */
static __attribute__((used)) void ordered_end_told(void)
{
    pv_ompt_mutex_released(ompt_mutex_ordered, pv_thr.ts.ws, pv_ompt_entry_ra());
}

PV_OMPT_PATCHED(GOMP_ordered_end, ordered_end_told);

/* Every ordered *_next does the same: the schedule is in the slot. */
static inline bool ordered_next(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
{
    return pv_ordered_next(ws, false, s0, e0);
}

/* A family's prefix##_ordered_runtime_next (loop.h), also exported as its
 * static, dynamic and guided *_next. */
#define ORDERED_NEXT_FAMILY(prefix, type, out)                                     \
    PV_LOOP_NEXT(prefix##_ordered_runtime_next, ordered_next, type, out)           \
    PV_ALIAS(prefix##_ordered_static_next, prefix##_ordered_runtime_next);         \
    PV_ALIAS(prefix##_ordered_dynamic_next, prefix##_ordered_runtime_next);        \
    PV_ALIAS(prefix##_ordered_guided_next, prefix##_ordered_runtime_next)

/* ------------------------------------------------------ long entry points */

static bool ordered_start(long start, long end, long incr, int sched, pv_ull chunk,
                          void **mem, long *istart, long *iend)
{
    struct pv_ws *ws = pv_loop_enter(PV_FORM_LONG, (pv_ull)start, (pv_ull)end, (pv_ull)incr,
                                     sched, chunk, true, mem);
    pv_ull s0, e0;
    return pv_out_long(ws, pv_ordered_next(ws, true, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_static_start(long start, long end, long incr, long chunk,
                                              long *istart, long *iend)
{
    return ordered_start(start, end, incr, PV_SCHED_STATIC, chunk > 0 ? (pv_ull)chunk : 0,
                         NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_dynamic_start(long start, long end, long incr, long chunk,
                                               long *istart, long *iend)
{
    return ordered_start(start, end, incr, PV_SCHED_DYNAMIC, chunk > 0 ? (pv_ull)chunk : 1,
                         NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_guided_start(long start, long end, long incr, long chunk,
                                              long *istart, long *iend)
{
    return ordered_start(start, end, incr, PV_SCHED_GUIDED, chunk > 0 ? (pv_ull)chunk : 1,
                         NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_runtime_start(long start, long end, long incr, long *istart,
                                               long *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return ordered_start(start, end, incr, sched, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_start(long start, long end, long incr, long sched, long chunk,
                                       long *istart, long *iend, uintptr_t *reductions,
                                       void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve(sched, chunk, &c);
    bool more = ordered_start(start, end, incr, kind, c, mem, istart, iend);
    if (reductions)
        pv_task_ws_reductions(reductions);
    return more;
}

/* GOMP_loop_ordered_{static,dynamic,guided,runtime}_next */
ORDERED_NEXT_FAMILY(GOMP_loop, long, pv_out_long);

/* ---------------------------------------- unsigned long long entry points */

static bool ordered_ull_start(bool up, pv_ull start, pv_ull end, pv_ull incr, int sched,
                              pv_ull chunk, void **mem, pv_ull *istart, pv_ull *iend)
{
    struct pv_ws *ws = pv_loop_enter(up ? PV_FORM_ULL_UP : PV_FORM_ULL_DOWN, start, end, incr,
                                     sched, chunk, true, mem);
    pv_ull s0, e0;
    return pv_out_ull(ws, pv_ordered_next(ws, true, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_static_start(bool up, pv_ull start, pv_ull end,
                                                  pv_ull incr, pv_ull chunk, pv_ull *istart,
                                                  pv_ull *iend)
{
    return ordered_ull_start(up, start, end, incr, PV_SCHED_STATIC, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_dynamic_start(bool up, pv_ull start, pv_ull end,
                                                   pv_ull incr, pv_ull chunk, pv_ull *istart,
                                                   pv_ull *iend)
{
    return ordered_ull_start(up, start, end, incr, PV_SCHED_DYNAMIC, chunk ? chunk : 1, NULL,
                             istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_guided_start(bool up, pv_ull start, pv_ull end,
                                                  pv_ull incr, pv_ull chunk, pv_ull *istart,
                                                  pv_ull *iend)
{
    return ordered_ull_start(up, start, end, incr, PV_SCHED_GUIDED, chunk ? chunk : 1, NULL,
                             istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_runtime_start(bool up, pv_ull start, pv_ull end,
                                                   pv_ull incr, pv_ull *istart, pv_ull *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return ordered_ull_start(up, start, end, incr, sched, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_start(bool up, pv_ull start, pv_ull end, pv_ull incr,
                                           long sched, pv_ull chunk, pv_ull *istart,
                                           pv_ull *iend, uintptr_t *reductions, void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve_ull(sched, chunk, &c);
    bool more = ordered_ull_start(up, start, end, incr, kind, c, mem, istart, iend);
    if (reductions)
        pv_task_ws_reductions(reductions);
    return more;
}

/* GOMP_loop_ull_ordered_{static,dynamic,guided,runtime}_next */
ORDERED_NEXT_FAMILY(GOMP_loop_ull, pv_ull, pv_out_ull);
