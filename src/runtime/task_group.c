/* Taskgroups: start, end (waiting for the group's tasks) and cancellation.
 * Part of task.c (see task_parts.h). */
#include <stdlib.h>

#include "base/alloc.h"
#include "runtime/task_parts.h"

/* ------------------------------------------------------------- taskgroup */

struct pv_taskgroup *pv_taskgroup_new(struct pv_taskgroup *prev)
{
    struct pv_taskgroup *tg = pv_malloc(sizeof *tg);
    tg->prev = prev;
    atomic_init(&tg->pending, 0);
    atomic_init(&tg->cancelled, false);
    tg->workshare = false;
    tg->reductions = prev ? prev->reductions : NULL;
    return tg;
}

void pv_taskgroup_start(void)
{
    struct pv_task *t = pv_task_current();
    t->taskgroup = pv_taskgroup_new(t->taskgroup);
}

void pv_taskgroup_end(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *t = thr->task;
    struct pv_taskgroup *tg = t ? t->taskgroup : NULL;
    if (!tg)
        return;
    if (!group_done(tg))
        wait_until(thr->ts.team, t, group_done, tg);
    t->taskgroup = tg->prev;
    free(tg);
}

/* Cancellation of the innermost taskgroup (called by GOMP_cancel and
 * GOMP_cancellation_point in src/parallel/gomp_parallel.c). */
bool pv_taskgroup_cancel(bool query_only)
{
    struct pv_task *t = pv_thr.task;
    struct pv_taskgroup *tg = t ? t->taskgroup : NULL;
    if (!tg)
        return false;
    if (query_only)
        return taskgroup_cancelled(tg);
    if (tg->workshare && tg->prev)
        tg = tg->prev;
    atomic_store_explicit(&tg->cancelled, true, memory_order_relaxed);
    return true;
}
