/* Setting loops up for the schedulers of iter.h: iteration counts, schedule
 * resolution (runtime, auto, chunk defaults), the slot's loop description,
 * and the `mem` block. */
#include "base/alloc.h"
#include "loops/loop.h"
#include "trace/trace.h"

/* loop_init records the schedule as is: the catalog's loop_sched names it. */
_Static_assert((int)PV_SCHED_STATIC == (int)PVTRACE_LOOP_SCHED_STATIC &&
                   (int)PV_SCHED_DYNAMIC == (int)PVTRACE_LOOP_SCHED_DYNAMIC &&
                   (int)PV_SCHED_GUIDED == (int)PVTRACE_LOOP_SCHED_GUIDED,
               "enum pv_sched numbers its schedules as #enum loop_sched (trace-events)");

void pv_chunk_observe_slow(const struct pv_ws *ws, pv_ull s0, pv_ull e0)
{
    trace_loop_chunk(s0, e0);
    if (pv_ompt_tool())
        pv_ompt_dispatch_chunk(ws, s0, e0);
}

pv_ull pv_count_long(long start, long end, long incr)
{
    /* Distances are taken in unsigned arithmetic, where they cannot overflow. */
    if (incr > 0) {
        if (start >= end)
            return 0;
        pv_ull d = (pv_ull)end - (pv_ull)start;
        return incr == 1 ? d : (d - 1) / (pv_ull)incr + 1;
    }
    if (incr < 0) {
        if (start <= end)
            return 0;
        pv_ull d = (pv_ull)start - (pv_ull)end;
        return incr == -1 ? d : (d - 1) / (0ULL - (pv_ull)incr) + 1;
    }
    return 0;
}

/* Schedule kinds without the monotonic flag (low 31 bits of the ABI value). */
static int sched_kind(long sched)
{
    return (int)((unsigned long)sched & 0x7fffffffUL);
}

/* A schedule of a known kind (static, dynamic, guided) and its chunk size,
 * 0 meaning unspecified: one block per thread for static, 1 otherwise.
 * False for runtime, auto and anything else, which the caller resolves. */
static bool sched_known(int kind, pv_ull chunk, pv_ull *chunk_out)
{
    switch (kind) {
    case PV_SCHED_STATIC:
        *chunk_out = chunk;
        return true;
    case PV_SCHED_DYNAMIC:
    case PV_SCHED_GUIDED:
        *chunk_out = chunk ? chunk : 1;
        return true;
    default:
        return false;
    }
}

int pv_sched_runtime(pv_ull *chunk_out)
{
    const struct pv_icv *icv = pv_icv_get();
    long chunk = icv->run_sched_chunk;
    int kind = sched_kind((long)icv->run_sched_var);
    if (sched_known(kind, chunk > 0 ? (pv_ull)chunk : 0, chunk_out))
        return kind;
    /* auto: we choose static, one block per thread. */
    *chunk_out = 0;
    return PV_SCHED_STATIC;
}

/* Values from the compiler: 0 = runtime, 4 = runtime with the nonmonotonic
 * modifier (GOMP_loop_start and friends); chunk 0 means "unspecified". */
int pv_sched_resolve_ull(long sched, pv_ull chunk, pv_ull *chunk_out)
{
    int kind = sched_kind(sched);
    if (sched_known(kind, chunk, chunk_out))
        return kind;
    return pv_sched_runtime(chunk_out);
}

/* The same with a signed chunk, where <= 0 means "unspecified". */
int pv_sched_resolve(long sched, long chunk, pv_ull *chunk_out)
{
    return pv_sched_resolve_ull(sched, chunk > 0 ? (pv_ull)chunk : 0, chunk_out);
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
    pv_ull margin;
    ws->fast_add = !__builtin_mul_overflow(chunk, (pv_ull)nthreads + 1, &margin) &&
                   !__builtin_add_overflow(n, margin, &margin);
    ws->ordered_loop = false;
    ws->ordered_start_work = false;
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
