/* Waiting for tasks: the wait loop that runs ready descendants meanwhile,
 * its completion tests, taskyield (libomp's), taskwait and taskwait with
 * depend (their entry points: src/tasks/gomp_taskwait.c).  Part of task.c
 * (see task_parts.h). */
#include <stdlib.h>

#include "base/alloc.h"
#include "runtime/task_parts.h"

/* Process-wide wait word for task waits outside any team (detach). */
static pv_futex_t orphan_work;

void pv_task_notify(struct pv_team *team)
{
    pv_futex_t *f = team ? &team->task_state->work : &orphan_work;
    atomic_fetch_add_explicit(&f->word, 1, memory_order_seq_cst);
    pv_wake(f);
}

/* --------------------------------------------------------------- waiting */

/* Run ready descendants of `under` until done(arg); sleep when there are none. */
void wait_until(struct pv_team *team, const struct pv_task *under, wait_done_fn done,
                const void *arg)
{
    struct pv_thread *thr = &pv_thr;
    if (!team) {
        /* No queues: somebody else will make done() true. */
        while (!done(arg)) {
            uint32_t snap = atomic_load_explicit(&orphan_work.word, memory_order_seq_cst);
            if (done(arg))
                break;
            pv_wait_while_eq(&orphan_work, snap);
        }
        return;
    }
    struct pv_tstate *ts = team->task_state;
    unsigned me = thr->ts.team_id, n = team->nthreads;
    for (;;) {
        if (done(arg))
            return;
        struct pv_task *t = pv_tq_take(ts, me, n, under);
        if (t) {
            task_run(thr, t);
            continue;
        }
        /* Announce, then look once more: whoever makes work or completes
         * something after our look sees `idle` and bumps `work`. */
        atomic_fetch_add_explicit(&ts->idle, 1, memory_order_seq_cst);
        atomic_thread_fence(memory_order_seq_cst);
        uint32_t snap = atomic_load_explicit(&ts->work.word, memory_order_seq_cst);
        struct pv_task_mark *mark =
            pv_unlikely(pv_gicv.task_checks) ? pv_task_check_mark(ts) : NULL;
        if (!done(arg) && !(t = pv_tq_take(ts, me, n, under))) {
            if (mark)
                pv_task_check_wait(ts, mark, me, under, "a task wait");
            mark = NULL;
            pv_wait_while_eq(&ts->work, snap);
        } else if (mark) {
            free(mark);
        }
        atomic_fetch_sub_explicit(&ts->idle, 1, memory_order_relaxed);
        if (t)
            task_run(thr, t);
    }
}

void pv_task_yield(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    if (!team || !thr->task)
        return;
    struct pv_task *t = pv_tq_take(team->task_state, thr->ts.team_id, team->nthreads, thr->task);
    if (!t)
        return;
    if (pv_ompt_tool())
        pv_ompt_task_yield(true); /* t begins with ompt_task_yield */
    task_run(thr, t);
    if (pv_ompt_tool())
        pv_ompt_task_yield(false);
}

/* taskwait with depend: as if an included, empty task with those
 * dependences ran here.  With no sibling dependences recorded there is
 * nothing to wait for; a tool still sees the task (its create and
 * completion). */
void pv_taskwait_depend(void **depend)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    struct pv_task *parent = thr->task;
    bool may_wait = team && parent && !pv_deps_empty(parent->deps);
    if (!may_wait && !pv_ompt_tool())
        return;
    if (pv_unlikely(pv_gicv.cancel_var) && team && pv_task_creation_cancelled(team, parent))
        return;
    size_t ndeps = may_wait ? pv_deps_count(depend) : 0;
    struct pv_dep_node stack_nodes[ndeps <= 16 && ndeps ? ndeps : 1];
    struct pv_dep_node *nodes = ndeps <= 16 ? stack_nodes : pv_malloc(ndeps * sizeof *nodes);
    struct pv_task_args a = {.flags = PV_GTF_DEPEND};
    struct pv_task w;
    task_init(&w, parent, team, &a);
    w.kind = PV_TASK_STACK;
    w.tflags = PV_TF_WAITER | PV_TF_UNDEFERRED;
    w.dnodes = nodes;
    if (pv_ompt_tool())
        pv_ompt_taskwait_init(&w, depend);
    if (may_wait) {
        pv_deps_register(parent, &w, depend);
        if (atomic_fetch_sub_explicit(&w.npred, 1, memory_order_seq_cst) != 1)
            wait_until(team, parent, preds_done, &w);
    }
    if (pv_ompt_tool())
        pv_ompt_taskwait_complete(&w);
    if (w.ndeps)
        (void)pv_deps_release(&w, false);
    if (nodes != stack_nodes)
        free(nodes);
}
