/* Parallel regions (GOMP_parallel and the legacy start/end pair) and
 * cancellation. */
#include "abi/gomp.h"
#include "runtime/barrier.h"
#include "runtime/icv.h"
#include "runtime/task_internal.h"
#include "runtime/team.h"
#include "runtime/thread.h"

/* GOMP_CANCEL_* as gcc encodes the `which` argument. */
enum {
    PV_CANCEL_PARALLEL = 1,
    PV_CANCEL_LOOP = 2,
    PV_CANCEL_FOR = PV_CANCEL_LOOP,
    PV_CANCEL_SECTIONS = 4,
    PV_CANCEL_TASKGROUP = 8,
};

/* With a tool: the requested team size, the primary's exit frame (the
 * entry's address and frame are set in GOMP_parallel's one test). */
static __attribute__((noinline, cold)) void parallel_told(void (*fn)(void *), void *data,
                                                          unsigned num_threads, unsigned flags)
{
    pv_team_start_ws(fn, data, pv_resolve_num_threads(num_threads, 0), flags, NULL, NULL);
}

PV_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                             unsigned flags)
{
    if (pv_ompt_tool()) {
        PV_OMPT_ENTRY_SET();
        parallel_told(fn, data, num_threads, flags);
        return;
    }
    pv_team_run(fn, data, pv_team_threads(num_threads, 0), flags, NULL, NULL);
}

PV_EXPORT void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads)
{
    unsigned n = pv_resolve_num_threads(num_threads, 0);
    PV_OMPT_ENTRY();
    if (pv_ompt_tool())
        pv_ompt_thr.legacy = 1; /* the program calls the body */
    pv_team_fork_ws(fn, data, n, 0, NULL, NULL);
}

PV_EXPORT void GOMP_parallel_end(void)
{
    pv_team_end();
}

/* ---------------------------------------------------------- cancellation */

static bool cancellation_point(int which);

PV_EXPORT bool GOMP_cancellation_point(int which)
{
    bool cancelled = cancellation_point(which);
    if (pv_ompt_tool() && cancelled)
        pv_ompt_cancel(which, false, pv_ompt_entry_ra());
    return cancelled;
}

static bool cancellation_point(int which)
{
    if (!pv_gicv.cancel_var)
        return false;
    struct pv_team *team = pv_thr.ts.team;
    if (which & (PV_CANCEL_LOOP | PV_CANCEL_SECTIONS))
        return team && atomic_load_explicit(&team->ws_cancelled, memory_order_relaxed);
    if ((which & PV_CANCEL_TASKGROUP) && pv_taskgroup_cancel(true))
        return true;
    /* Cancelling a parallel region also cancels its explicit tasks. */
    return pv_team_cancelled();
}

PV_EXPORT bool GOMP_cancel(int which, bool do_cancel)
{
    if (!pv_gicv.cancel_var)
        return false;
    if (!do_cancel)
        return cancellation_point(which);
    if (pv_ompt_tool())
        pv_ompt_cancel(which, true, pv_ompt_entry_ra());
    struct pv_team *team = pv_thr.ts.team;
    if (which & (PV_CANCEL_LOOP | PV_CANCEL_SECTIONS)) {
        if (team)
            atomic_store_explicit(&team->ws_cancelled, 1, memory_order_relaxed);
        return true;
    }
    if (which & PV_CANCEL_TASKGROUP)
        return pv_taskgroup_cancel(false), true;
    if (team) {
        atomic_store_explicit(&team->cancelled, 1, memory_order_relaxed);
        pv_barrier_cancel(&team->barrier);
    }
    return true;
}
