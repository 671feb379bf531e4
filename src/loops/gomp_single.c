/* The single construct. */
#include "abi/gomp.h"
#include "runtime/barrier_site.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"
#include "trace/trace.h"

/* The `single` record and the tool's single events of a thread that met a
 * single construct in a team (executor: it runs the body): one flag test,
 * the single event's, in which an attached tool sets a bit of its own
 * (ompt/observe.c); the rest out of line.  They return `executor`, so that
 * the entry calls them last (a tail call: its path without them needs no
 * stack frame, although it reads its return address for them). */
static __attribute__((noinline)) bool single_observed(bool executor, bool copy, const void *ra)
{
    trace_single(executor);
    if (pv_ompt_tool())
        pv_ompt_single(executor, copy, ra);
    return executor;
}

#define single_observed_on() pv_trace_site_on(PV_TRACE_EV_single)

/* Outside a team: no record, the tool's events. */
static __attribute__((noinline)) bool single_orphaned_told(const void *ra)
{
    pv_ompt_single(true, false, ra);
    return true;
}

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
            return single_orphaned_told(pv_ompt_entry_ra());
        return true;
    }
    uint64_t mine = thr->ts.single_seq++;
    uint64_t expected = mine;
    bool won = atomic_compare_exchange_strong_explicit(&team->single_seq, &expected, mine + 1,
                                                       memory_order_acq_rel, memory_order_relaxed);
    if (single_observed_on())
        return single_observed(won, false, pv_ompt_entry_ra());
    return won;
}

/* With copyprivate: a worksharing slot carries the executing thread's data
 * pointer to the others.  Returns NULL to the executing thread; the others
 * get the pointer after the executing thread has published it. */
PV_EXPORT void *GOMP_single_copy_start(void)
{
    if (pv_ws_start()) {
        trace_single(1); /* before the others can see the slot */
        pv_ws_init_done();
        if (pv_ompt_tool())
            pv_ompt_single(true, true, __builtin_return_address(0));
        return NULL;
    }
    if (single_observed_on())
        single_observed(false, true, pv_ompt_entry_ra());
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
