/* Loop schedulers: who runs which iterations, inline for the entry points.
 *
 * Iterations are numbered 0..n-1 (see loop.h and struct pv_ws).  Static
 * scheduling is computed by each thread from its team id alone and never
 * writes shared memory; the thread's progress is pv_thr.ts.static_trip
 * (chunks taken so far, or PV_TRIP_DONE once it took the last one).  Dynamic
 * and guided scheduling take ranges from the slot's shared cursor `next`,
 * lock-free: dynamic with one fetch_add when the cursor cannot wrap,
 * otherwise (and for guided, whose chunk size depends on where the cursor
 * stands) with a CAS loop. */
#ifndef PV_LOOPS_ITER_H
#define PV_LOOPS_ITER_H

#include "runtime/icv.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"

typedef unsigned long long pv_ull;

/* static_trip value meaning "this thread took the very last chunk". */
#define PV_TRIP_DONE (~0UL)

/* Each scheduler returns false when the calling thread gets no more
 * iterations, else the range [*s0, *e0). */
static inline bool pv_iter_static(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
{
    struct pv_ts *ts = &pv_thr.ts;
    unsigned long trip = ts->static_trip;
    if (trip == PV_TRIP_DONE)
        return false;
    pv_ull n = ws->n;
    pv_ull nthr = pv_team_size();
    if (nthr == 1) {
        ts->static_trip = PV_TRIP_DONE;
        *s0 = 0;
        *e0 = n;
        return n != 0;
    }
    pv_ull id = ts->team_id;
    pv_ull c = ws->chunk;
    if (c == 0) {
        /* One block per thread: the first n % nthr threads get one more. */
        if (trip != 0)
            return false;
        pv_ull q = n / nthr, t = n % nthr, b;
        if (id < t)
            b = ++q * id;
        else
            b = q * id + t;
        ts->static_trip = 1;
        if (q == 0)
            return false;
        *s0 = b;
        *e0 = b + q;
        if (b + q == n)
            ts->static_trip = PV_TRIP_DONE;
        return true;
    }
    /* Chunk number trip * nthr + id, round robin; overflow means past n. */
    pv_ull k, b;
    if (__builtin_mul_overflow((pv_ull)trip, nthr, &k) || __builtin_add_overflow(k, id, &k) ||
        __builtin_mul_overflow(k, c, &b) || b >= n)
        return false;
    pv_ull e = c >= n - b ? n : b + c;
    *s0 = b;
    *e0 = e;
    ts->static_trip = e == n ? PV_TRIP_DONE : trip + 1;
    return true;
}

static inline bool pv_iter_dynamic(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
{
    pv_ull n = ws->n, c = ws->chunk, b;
    /* Relaxed: the cursor only divides work; the loop's description was
     * published by the slot's READY state (acquire in pv_ws_start). */
    if (pv_likely(ws->fast_add)) {
        b = atomic_fetch_add_explicit(&ws->next, c, memory_order_relaxed);
        if (b >= n)
            return false;
        *s0 = b;
        *e0 = c >= n - b ? n : b + c;
        return true;
    }
    pv_ull e;
    b = atomic_load_explicit(&ws->next, memory_order_relaxed);
    do {
        if (b >= n)
            return false;
        e = c >= n - b ? n : b + c;
    } while (!atomic_compare_exchange_weak_explicit(&ws->next, &b, e, memory_order_relaxed,
                                                    memory_order_relaxed));
    *s0 = b;
    *e0 = e;
    return true;
}

static inline pv_ull pv_guided_end(const struct pv_ws *ws, pv_ull s0, unsigned nthreads)
{
    /* A share of what is left, rounded up, at least the chunk size. */
    pv_ull left = ws->n - s0;
    pv_ull q = left / nthreads + (left % nthreads != 0);
    if (q < ws->chunk)
        q = ws->chunk;
    return q >= left ? ws->n : s0 + q;
}

static inline bool pv_iter_guided(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
{
    pv_ull n = ws->n, e;
    unsigned nthr = pv_team_size();
    pv_ull b = atomic_load_explicit(&ws->next, memory_order_relaxed);
    do {
        if (b >= n)
            return false;
        e = pv_guided_end(ws, b, nthr);
    } while (!atomic_compare_exchange_weak_explicit(&ws->next, &b, e, memory_order_relaxed,
                                                    memory_order_relaxed));
    *s0 = b;
    *e0 = e;
    return true;
}

static inline bool pv_iter_next(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
{
    switch (ws->sched) {
    case PV_SCHED_DYNAMIC:
        return pv_iter_dynamic(ws, s0, e0);
    case PV_SCHED_GUIDED:
        return pv_iter_guided(ws, s0, e0);
    default:
        return pv_iter_static(ws, s0, e0);
    }
}

/* Caller's values for the range [s0, e0): the last range ends at `end`. */
static inline void pv_iter_bounds(const struct pv_ws *ws, pv_ull s0, pv_ull e0,
                                  pv_ull *istart, pv_ull *iend)
{
    *istart = ws->start + s0 * ws->incr;
    *iend = e0 == ws->n ? ws->end : ws->start + e0 * ws->incr;
}

#endif
