/* Ordered loops: the hand-over of the turn between the chunks, which the
 * entry points (gomp_ordered.c: GOMP_ordered_start/end and the
 * GOMP_loop_*ordered_* family) run on.
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
#include "loops/loop.h"

void pv_ordered_setup(struct pv_ws *ws, unsigned nthreads)
{
    ws->ordered = &ws->ord;
    ws->ordered_loop = nthreads > 1;
    ws->ordered_start_work = ws->ordered_loop || pv_ompt_tool();
    atomic_store_explicit(&ws->ord.turn, 0, memory_order_relaxed);
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

/* pv_ordered_turn_wait's wait (loop.h): its test failed. */
void pv_ordered_turn_wait_slow(struct pv_ws *ws, pv_ull s0)
{
    struct pv_ordered *o = &ws->ord;
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
        pv_ordered_turn_wait(ws, s0);
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

