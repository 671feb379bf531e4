/* Undeferred tasks whose body the caller runs itself: libomp's if(0)
 * protocol (__kmpc_omp_task_begin_if0, the program's call of the task
 * routine, __kmpc_omp_task_complete_if0).  Between the two calls the task
 * is the thread's current task, so what its body does (create tasks, wait
 * for them, cancel, ask for its task info) is its own; its parent is
 * suspended meanwhile.  Part of task.c (see runtime/task_parts.h).
 *
 * A detached one, as libomp (and OpenMP: its generating task waits for the
 * body, not for the event) does it: when its event is still open at the end
 * of its body it stays incomplete, counted like a deferred task (the
 * parent's taskwait, its taskgroup and the team's barrier wait for it),
 * until omp_fulfill_event completes it.  Only in an included parent (no
 * team, or a final task: nothing may be deferred there) does it wait for
 * its event at its end, as GOMP's included tasks do. */
#include "runtime/task_parts.h"

/* The event may be fulfilled after the body: count t as the parent's child,
 * as spawn_deferred counts a deferred task. */
static bool completes_later(const struct pv_task *t)
{
    return (t->tflags & PV_TF_DETACH) && t->team && t->parent->kind != PV_TASK_STACK;
}

struct pv_task *pv_task_if0_begin(unsigned flags, void *detach, void *code, void *exit_frame)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    /* in a block: the task may outlive this frame's task, which it names */
    struct pv_task *parent = task_promote(team, pv_task_current());
    struct pv_task_args a = {.flags = flags, .detach = detach};
    struct pv_task *t = task_alloc(team, 0);
    task_init(t, parent, team, &a);
    t->kind = PV_TASK_HEAP;
    set_event(&a, t);
    if (completes_later(t)) {
        atomic_fetch_add_explicit(&parent->cnt, 1 + parent_ref(parent), memory_order_relaxed);
        if (t->taskgroup)
            atomic_fetch_add_explicit(&t->taskgroup->pending, 1, memory_order_relaxed);
        pv_task_count_created(team, thr->ts.team_id);
    } else if (t->tflags & PV_TF_DETACH) {
        t->tflags |= PV_TF_UNDEFERRED; /* omp_fulfill_event: pv_task_if0_end waits */
    }
    if (pv_ompt_tool())
        pv_ompt_task_create(t, true, flags, NULL);
    trace_task_create(t, code, flags, (void *)thr->task_site);
    thr->task = t;
    trace_task_begin(t);
    if (pv_ompt_tool())
        pv_ompt_task_begin_in_program(parent, t, exit_frame);
    return t;
}

void pv_task_if0_end(struct pv_task *t)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *parent = t->parent;
    trace_task_end(t);
    thr->task = parent;
    if (!completes_later(t)) {
        if (t->tflags & PV_TF_DETACH)
            wait_until(t->team, parent, event_fulfilled, t);
        if (pv_ompt_tool())
            pv_ompt_task_end(t, 0, parent);
        undeferred_block_done(t);
        return;
    }
    /* As task_run_one's end of a detached task: the tool hears it detached
     * unless the event is fulfilled already; whoever comes second of this
     * and omp_fulfill_event completes it. */
    if (pv_ompt_tool())
        pv_ompt_task_end(t, 0, parent);
    uint32_t old = atomic_fetch_or_explicit(&t->detach, PV_DETACH_BODY_DONE, memory_order_acq_rel);
    if (old & PV_DETACH_FULFILLED)
        (void)task_complete(t, false, false);
}
