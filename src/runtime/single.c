/* The single construct. */
#include "runtime/internal.h"
#include "trace/trace.h"

/* Without copyprivate: the thread that first claims the team's next single
 * construct executes it.  Claiming is one CAS on a team counter; each
 * thread counts the singles it has met, so a thread that arrives late for
 * construct k finds the counter already past k-1 and skips it. */
PV_EXPORT bool GOMP_single_start(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    if (!team) {
        if (pv_ompt_tool())
            pv_ompt_single(true, false, __builtin_return_address(0));
        return true;
    }
    uint64_t mine = thr->ts.single_seq++;
    uint64_t expected = mine;
    bool won = atomic_compare_exchange_strong_explicit(&team->single_seq, &expected, mine + 1,
                                                       memory_order_acq_rel, memory_order_relaxed);
    trace_single(won);
    if (pv_ompt_tool())
        pv_ompt_single(won, false, __builtin_return_address(0));
    return won;
}

/* With copyprivate: a worksharing slot carries the executing thread's data
 * pointer to the others.  Returns NULL to the executing thread; the others
 * get the pointer after the executing thread has published it. */
PV_EXPORT void *GOMP_single_copy_start(void)
{
    if (pv_ws_start()) {
        trace_single(1);
        pv_ws_init_done();
        if (pv_ompt_tool())
            pv_ompt_single(true, true, __builtin_return_address(0));
        return NULL;
    }
    trace_single(0);
    /* _after: back-to-back events share one clock read (trace.h). */
    trace_barrier_enter_after(single, PVTRACE_BARRIER_KIND_WORKSHARE);
    if (pv_ompt_tool()) {
        pv_ompt_single(false, true, __builtin_return_address(0));
        pv_ompt_barrier(ompt_sync_region_barrier_implementation, __builtin_return_address(0), false);
    } else {
        pv_team_barrier();
    }
    trace_barrier_leave_after(wait_end, PVTRACE_BARRIER_KIND_WORKSHARE);
    void *data = pv_thr.ts.ws->copyprivate;
    pv_ws_end_nowait();
    return data;
}

PV_EXPORT void GOMP_single_copy_end(void *data)
{
    struct pv_team *team = pv_thr.ts.team;
    if (team) {
        pv_thr.ts.ws->copyprivate = data;
        trace_barrier_enter(PVTRACE_BARRIER_KIND_WORKSHARE);
        if (pv_ompt_tool())
            pv_ompt_barrier(ompt_sync_region_barrier_implementation, __builtin_return_address(0), false);
        else
            pv_team_barrier();
        trace_barrier_leave_after(wait_end, PVTRACE_BARRIER_KIND_WORKSHARE);
    }
    pv_ws_end_nowait();
}
