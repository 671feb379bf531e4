/* The single construct. */
#include "runtime/barrier_site.h"
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
            pv_ompt_single(true, false, pv_ompt_entry_ra());
        return true;
    }
    uint64_t mine = thr->ts.single_seq++;
    uint64_t expected = mine;
    bool won = atomic_compare_exchange_strong_explicit(&team->single_seq, &expected, mine + 1,
                                                       memory_order_acq_rel, memory_order_relaxed);
    trace_single(won);
    if (pv_ompt_tool())
        pv_ompt_single(won, false, pv_ompt_entry_ra());
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
    if (pv_ompt_tool())
        pv_ompt_single(false, true, __builtin_return_address(0));
    /* The barrier's trace point shares the clock read of `single` (trace.h). */
    pv_barrier_at(PV_BARRIER_COPYPRIVATE, PV_TRACE_EV_single, true);
    void *data = pv_thr.ts.ws->copyprivate;
    pv_ws_end_nowait();
    return data;
}

PV_EXPORT void GOMP_single_copy_end(void *data)
{
    struct pv_team *team = pv_thr.ts.team;
    if (team) {
        pv_thr.ts.ws->copyprivate = data;
        pv_barrier_at(PV_BARRIER_COPYPRIVATE, 0, true);
    }
    pv_ws_end_nowait();
}
