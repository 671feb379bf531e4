/* Loop schedulers: who runs which iterations.
 *
 * Iterations are numbered 0..n-1 (loop.h).  Static scheduling is computed
 * by each thread from its team id alone and never writes shared memory; the
 * thread's progress is pv_thr.ts.static_trip (chunks taken so far, or
 * PV_TRIP_DONE once it took the last one).  Dynamic and guided scheduling
 * take ranges from the slot's shared cursor `next`, lock-free: dynamic with
 * one fetch_add when the cursor cannot wrap, otherwise (and for guided,
 * whose chunk size depends on where the cursor stands) with a CAS loop. */
#include "runtime/loop.h"
#include "trace/trace.h"

pv_ull pv_count_long(long start, long end, long incr)
{
    /* Distances are taken in unsigned arithmetic, where they cannot overflow. */
    if (incr > 0) {
        if (start >= end)
            return 0;
        return ((pv_ull)end - (pv_ull)start - 1) / (pv_ull)incr + 1;
    }
    if (incr < 0) {
        if (start <= end)
            return 0;
        return ((pv_ull)start - (pv_ull)end - 1) / (0ULL - (pv_ull)incr) + 1;
    }
    return 0;
}

/* Schedule kinds without the monotonic flag (low 31 bits of the ABI value). */
static int sched_kind(long sched)
{
    return (int)((unsigned long)sched & 0x7fffffffUL);
}

int pv_sched_runtime(pv_ull *chunk_out)
{
    const struct pv_icv *icv = pv_icv_get();
    long chunk = icv->run_sched_chunk;
    switch (sched_kind((long)icv->run_sched_var)) {
    case PV_SCHED_STATIC:
        *chunk_out = chunk > 0 ? (pv_ull)chunk : 0;
        return PV_SCHED_STATIC;
    case PV_SCHED_DYNAMIC:
        *chunk_out = chunk > 0 ? (pv_ull)chunk : 1;
        return PV_SCHED_DYNAMIC;
    case PV_SCHED_GUIDED:
        *chunk_out = chunk > 0 ? (pv_ull)chunk : 1;
        return PV_SCHED_GUIDED;
    default:
        /* auto: we choose static, one block per thread. */
        *chunk_out = 0;
        return PV_SCHED_STATIC;
    }
}

/* Values from the compiler: 0 = runtime, 4 = runtime with the nonmonotonic
 * modifier (GOMP_loop_start and friends); chunk <= 0 means "unspecified". */
int pv_sched_resolve(long sched, long chunk, pv_ull *chunk_out)
{
    int kind = sched_kind(sched);
    switch (kind) {
    case PV_SCHED_STATIC:
        *chunk_out = chunk > 0 ? (pv_ull)chunk : 0;
        return kind;
    case PV_SCHED_DYNAMIC:
    case PV_SCHED_GUIDED:
        *chunk_out = chunk > 0 ? (pv_ull)chunk : 1;
        return kind;
    default:
        return pv_sched_runtime(chunk_out);
    }
}

void pv_loop_setup(struct pv_ws *ws, pv_ull start, pv_ull end, pv_ull incr, pv_ull n,
                   int sched, pv_ull chunk, unsigned nthreads)
{
    if (sched != PV_SCHED_STATIC && chunk == 0)
        chunk = 1;
    ws->n = n;
    ws->start = start;
    ws->incr = incr;
    ws->end = end;
    ws->chunk = chunk;
    ws->sched = sched;
    ws->nthreads = nthreads;
    /* Every thread may add one chunk past n before it sees the loop is over:
     * fetch_add is safe when n + (nthreads + 1) * chunk does not wrap. */
    ws->fast_add = chunk <= (~0ULL - n) / ((pv_ull)nthreads + 1);
    ws->ordered_loop = false;
    ws->ordered = NULL;
    ws->doacross = NULL;
    ws->mem = NULL;
    atomic_store_explicit(&ws->next, 0, memory_order_relaxed);
    trace_loop_init(sched, start, end, incr, chunk);
}

void pv_ws_mem_init(struct pv_ws *ws, void **mem)
{
    if (!mem)
        return;
    size_t size = (size_t)(uintptr_t)*mem;
    if (size <= PV_WS_INLINE_MEM) {
        __builtin_memset(ws->inline_mem, 0, sizeof ws->inline_mem);
        ws->mem = ws->inline_mem;
    } else {
        /* Freed by the last thread leaving the slot (workshare.c). */
        ws->mem = pv_calloc(1, size);
    }
    *mem = ws->mem;
}

bool pv_iter_static(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
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
        if (n)
            trace_loop_chunk(0, n);
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
        trace_loop_chunk(b, b + q);
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
    trace_loop_chunk(b, e);
    return true;
}

bool pv_iter_dynamic(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
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
        trace_loop_chunk(*s0, *e0);
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
    trace_loop_chunk(b, e);
    return true;
}

pv_ull pv_guided_end(const struct pv_ws *ws, pv_ull s0, unsigned nthreads)
{
    /* A share of what is left, rounded up, at least the chunk size. */
    pv_ull left = ws->n - s0;
    pv_ull q = left / nthreads + (left % nthreads != 0);
    if (q < ws->chunk)
        q = ws->chunk;
    return q >= left ? ws->n : s0 + q;
}

bool pv_iter_guided(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
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
    trace_loop_chunk(b, e);
    return true;
}
