/* Detached tasks: omp_fulfill_event.  Part of task.c (see runtime/task_parts.h). */

#include "runtime/task_parts.h"
#include "runtime/omp_api.h"
#include "base/message.h"

/* ---------------------------------------------------------------- detach */

PV_EXPORT void omp_fulfill_event(uintptr_t event)
{
    struct pv_task *t = (struct pv_task *)event;
    if (!t)
        pv_fatal("omp_fulfill_event: invalid event handle");
    struct pv_team *team = t->team;
    if (team)
        atomic_fetch_sub_explicit(&team->task_state->open_events, 1, memory_order_relaxed);
    if (t->tflags & PV_TF_UNDEFERRED) {
        /* The encountering thread waits for this bit, then frees t. */
        uint32_t old = atomic_fetch_or_explicit(&t->detach, PV_DETACH_FULFILLED,
                                                memory_order_seq_cst);
        if (old & PV_DETACH_FULFILLED)
            pv_fatal("omp_fulfill_event: event %p already fulfilled", (void *)t);
        pv_task_notify_if_idle(team);
        return;
    }
    uint32_t old = atomic_fetch_or_explicit(&t->detach, PV_DETACH_FULFILLED, memory_order_acq_rel);
    if (pv_ompt_tool() && !(old & PV_DETACH_FULFILLED))
        pv_ompt_task_fulfilled(t, (old & PV_DETACH_BODY_DONE) != 0);
    if (old & PV_DETACH_FULFILLED)
        pv_fatal("omp_fulfill_event: event %p already fulfilled", (void *)t);
    if (old & PV_DETACH_COMPLETED) {
        task_unref(t); /* completed while cancelled: only its own reference is left */
        return;
    }
    if (old & PV_DETACH_BODY_DONE)
        (void)task_complete(t, false, false); /* any thread may fulfil: queue */
}
