/* Running tasks: queueing, running a task body, completion, and the runs of
 * queued tasks that the team barrier asks for.  Part of task.c (see
 * task_parts.h). */

#include <stdlib.h>

#include "runtime/task_parts.h"

/* ------------------------------------------------------------- queueing */

void task_queue(struct pv_team *team, struct pv_task *t)
{
    struct pv_tstate *ts = team->task_state;
    struct pv_thread *thr = &pv_thr;
    if (t->priority > 0 || thr->ts.team != team)
        pv_tq_push_shared(ts, t);
    else
        pv_tq_push(&ts->q[thr->ts.team_id], t);
    /* The task is in a queue; now look for waiters (Dekker with their
     * seq_cst announcement and fence before they look at the queues). */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&ts->idle, memory_order_relaxed) != 0)
        pv_task_notify(team);
    pv_barrier_task_queued(team);
}

bool pv_task_pred_release(struct pv_task *t)
{
    /* Read before the decrement: a waiter may leave as soon as it sees 0. */
    bool waiter = (t->tflags & PV_TF_WAITER) != 0;
    struct pv_team *team = t->team;
    if (atomic_fetch_sub_explicit(&t->npred, 1, memory_order_seq_cst) != 1)
        return false;
    if (waiter) {
        pv_task_notify_if_idle(team);
        return false;
    }
    return true;
}

void pv_task_queue_ready(struct pv_task *t)
{
    task_queue(t->team, t);
}

/* ------------------------------------------------------------ completion */

bool pv_task_creation_cancelled(struct pv_team *team, struct pv_task *parent)
{
    return atomic_load_explicit(&team->cancelled, memory_order_relaxed) ||
           taskgroup_cancelled(parent->taskgroup);
}

/* t's team counts its completion.  By a member, in its own count, and
 * nobody is woken: a member completes a task either inside the team
 * barrier's loop, which tests for the end itself next, or before it
 * arrives, and the barrier cannot end without it.  By any other thread
 * (omp_fulfill_event from outside the team, or from a nested team), in
 * the shared count, and the barrier's waiters are told (they may all
 * sleep, waiting for just this). */
static inline void count_completed(struct pv_team *team)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_tstate *ts = team->task_state;
    if (pv_likely(thr->ts.team == team)) {
        struct pv_tpool *p = &ts->pools[thr->ts.team_id];
        pv_task_share_change(ts, p, -1);
        pv_task_count_own(&p->completed);
        return;
    }
    atomic_fetch_sub_explicit(&ts->outstanding, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&ts->completed_outside, 1, memory_order_seq_cst);
    pv_barrier_tasks_done(team);
}

/* A deferred task is complete (body done, event fulfilled or cancelled).
 * With `keep`, the task keeps its own reference (a cancelled detached task
 * whose event may still be fulfilled later).  With `handoff`, a successor
 * that became ready is returned for this thread to run next instead of
 * being queued: along a dependence chain the next link then runs where the
 * last one ended, without a trip through the queue to another thread.  (It
 * is a sibling of t, so whatever allowed this thread to run t allows it.) */
struct pv_task *task_complete(struct pv_task *t, bool keep, bool handoff)
{
    struct pv_team *team = t->team;
    struct pv_task *next = t->ndeps ? pv_deps_release(t, handoff) : NULL;
    struct pv_taskgroup *tg = t->taskgroup;
    if (tg && atomic_fetch_sub_explicit(&tg->pending, 1, memory_order_seq_cst) == 1)
        pv_task_notify_if_idle(team);
    struct pv_task *p = t->parent;
    uint64_t drop = 1;
    if (!keep && atomic_fetch_sub_explicit(&t->cnt, PV_TASK_REF, memory_order_acq_rel) ==
                     PV_TASK_REF) {
        /* Nothing below t: free it now and give back its reference too. */
        task_free(t);
        drop += parent_ref(p);
    }
    uint64_t left = atomic_fetch_sub_explicit(&p->cnt, drop, memory_order_seq_cst) - drop;
    if (PV_TASK_PENDING(left) == 0)
        pv_task_notify_if_idle(team);
    if (left == 0 && p->kind == PV_TASK_HEAP)
        task_free_chain(p);
    /* Last: once it counts, a barrier may end and the team be reused (not
     * while a successor is handed over: it still counts). */
    count_completed(team);
    return next;
}

/* Whether the team may still have a task that is not complete: every
 * completion counted by the first pass, then every creation by the second
 * (docs/tasks.md, "Counting").  All counts are seq_cst stores and these are
 * seq_cst loads, so they lie in one order S; take the point p of S between
 * the passes.  The first pass counts at most the completions before p, the
 * second at least the creations before p, and a task's completion follows
 * its creation; equal sums therefore mean that at p every task created had
 * completed.  A member in the barrier creates tasks only inside a task it
 * runs, which would be one not complete; so once everybody has arrived and
 * this says no, no task can appear any more in this region. */
bool pv_task_outstanding(const struct pv_team *team)
{
    const struct pv_tstate *ts = team->task_state;
    unsigned n = team->nthreads < ts->cap ? team->nthreads : ts->cap;
    uint64_t done = atomic_load_explicit(&ts->completed_outside, memory_order_seq_cst);
    for (unsigned i = 0; i < n; i++)
        done += atomic_load_explicit(&ts->pools[i].completed, memory_order_seq_cst);
    uint64_t made = 0;
    for (unsigned i = 0; i < n; i++)
        made += atomic_load_explicit(&ts->pools[i].created, memory_order_seq_cst);
    return made != done;
}

/* Traced or with a tool attached a task body runs from here: this frame
 * is the one the tool sees as the task's exit frame.  Kept out of line so
 * that the paths without either need no frame pointer and keep nothing
 * live across the body for their sake. */
__attribute__((noinline)) void run_fn_observed(struct pv_task *prior, struct pv_task *t,
                                               void (*fn)(void *), void *arg)
{
    trace_task_begin(t);
    if (pv_ompt_tool())
        pv_ompt_task_begin(prior, t, __builtin_frame_address(0));
    fn(arg);
    /* Not a tail call: the frame must stay below the body while it runs. */
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline, cold)) void task_create_observed(struct pv_task *t, bool undeferred,
                                                          unsigned flags, void **depend,
                                                          void *body)
{
    if (pv_ompt_tool())
        pv_ompt_task_create(t, undeferred, flags, (flags & PV_GTF_DEPEND) ? depend : NULL);
    trace_task_create(t, body, flags, (void *)pv_thr.task_site);
}

__attribute__((noinline, cold)) void task_end_observed(struct pv_task *t, struct pv_task *next)
{
    if (pv_ompt_tool())
        pv_ompt_task_end(task_resolve(t), 0, next);
    trace_task_end(t);
}

/* Run t; returns a successor handed over by its completion, or NULL. */
struct pv_task *task_run_one(struct pv_thread *thr, struct pv_task *t)
{
    bool skip = pv_unlikely(pv_gicv.cancel_var) && !(t->tflags & PV_TF_COPIED) &&
                (atomic_load_explicit(&t->team->cancelled, memory_order_relaxed) ||
                 taskgroup_cancelled(t->taskgroup));
    if (!skip) {
        struct pv_task *prev = thr->task;
        thr->task = t;
        run_fn(prev, t, t->fn, t->arg);
        task_ended(t, prev);
        thr->task = prev;
    } else if (pv_ompt_tool()) {
        bool by_parallel = atomic_load_explicit(&t->team->cancelled, memory_order_relaxed);
        pv_ompt_task_end(t, by_parallel ? ompt_cancel_parallel : ompt_cancel_taskgroup, thr->task);
    }
    if (t->tflags & PV_TF_DETACH) {
        if (skip) {
            /* Cancelled: complete now, but keep the block until the event
             * is fulfilled (the program still holds the handle). */
            struct pv_task *next = task_complete(t, true, true);
            uint32_t old = atomic_fetch_or_explicit(&t->detach, PV_DETACH_COMPLETED,
                                                    memory_order_acq_rel);
            if (old & PV_DETACH_FULFILLED)
                task_unref(t);
            return next;
        }
        uint32_t old = atomic_fetch_or_explicit(&t->detach, PV_DETACH_BODY_DONE,
                                                memory_order_acq_rel);
        if (!(old & PV_DETACH_FULFILLED))
            return NULL; /* omp_fulfill_event completes it */
    }
    return task_complete(t, false, true);
}

/* Run queued tasks for a thread waiting in a team barrier whose generation
 * word is `gen_word`, while it still is at generation `gen`.  Once that
 * barrier completed, the master may already have started the next region on
 * the same team and queued its tasks: a task taken after that goes back to
 * the shared queue for the new region's members. */
bool pv_task_run_pending_gen(struct pv_team *team, _Atomic uint32_t *gen_word, uint32_t gen)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_tstate *ts = team->task_state;
    struct pv_task_mark *mark =
        pv_unlikely(pv_gicv.task_checks) && gen_word ? pv_task_check_mark(ts) : NULL;
    /* Pairs with the fence of a creator between queueing and looking at the
     * barrier's arrival counters. */
    atomic_thread_fence(memory_order_seq_cst);
    bool ran = false;
    struct pv_task *t;
    /* ts->cap, not team->nthreads: the latter is rewritten by the next fork. */
    while ((t = pv_tq_take(ts, thr->ts.team_id, ts->cap, NULL))) {
        /* Acquire: if t was queued in a later region, its queueing follows
         * the write that completed our barrier, and we see that write. */
        if (gen_word && (atomic_load_explicit(gen_word, memory_order_acquire) &
                         ~(PV_BAR_TASK | PV_BAR_CANCEL)) != gen) {
            pv_tq_push_shared(ts, t);
            atomic_thread_fence(memory_order_seq_cst);
            if (atomic_load_explicit(&ts->idle, memory_order_relaxed) != 0)
                pv_task_notify(team);
            pv_barrier_tasks_changed(team);
            if (mark)
                free(mark);
            return true;
        }
        if (gen_word)
            pv_barrier_task_taken(team);
        task_run(thr, t);
        ran = true;
    }
    /* Nothing found: the barrier waits now. */
    if (pv_unlikely(mark != NULL)) {
        if (!ran)
            pv_task_check_wait(ts, mark, thr->ts.team_id, NULL, "a team barrier");
        else
            free(mark);
    }
    return ran;
}

bool pv_task_run_pending(struct pv_team *team)
{
    return pv_task_run_pending_gen(team, NULL, 0);
}
