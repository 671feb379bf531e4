/* The task scheduler's no-idle-sleep invariant, checked when
 * PVOMP_TASK_CHECKS is true (tests/tasks/task_sleep_check.c sets it):
 *
 *   a thread never goes to wait for news (in a team barrier or in a task
 *   wait) while a task that it may run was queued before its last look
 *   for work and is still queued.
 *
 * A task queued after the look is no violation: its queueing changes the
 * word the thread waits on.  "Before the look" is exact: every deque counts
 * its pushes and stamps each task with the count (task_queue.c), the shared
 * heap numbers its items; pv_task_check_mark() records the counts before
 * the look, pv_task_check_wait() finds any task still queued with an older
 * stamp that the thread may take (in a barrier: any; in a task wait: a
 * descendant of the task it is in).  A violation is reported with where
 * the thread waited and the program aborted: only a test sets the flag. */
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "runtime/mutex.h"
#include "runtime/task_internal.h"

struct pv_task_mark {
    unsigned n;
    uint64_t shared_seq;
    uint32_t pushes[];
};

struct pv_task_mark *pv_task_check_mark(struct pv_tstate *ts)
{
    struct pv_task_mark *m = pv_malloc(sizeof *m + ts->cap * sizeof m->pushes[0]);
    m->n = ts->cap;
    /* Under each lock: a push counted here completed before our look. */
    for (unsigned i = 0; i < ts->cap; i++) {
        pv_mutex_lock(&ts->q[i].lock);
        m->pushes[i] = ts->q[i].pushes;
        pv_mutex_unlock(&ts->q[i].lock);
    }
    pv_mutex_lock(&ts->shared_lock);
    m->shared_seq = ts->shared_seq;
    pv_mutex_unlock(&ts->shared_lock);
    return m;
}

static void violated(const char *where, unsigned me, const struct pv_task *t, const char *queue,
                     unsigned qi)
{
    fprintf(stderr,
            "pvomp: task check: thread %u goes to wait in %s while task %p (depth %u), queued "
            "before its look for work, is still queued in %s %u and may run on it\n",
            me, where, (const void *)t, t->depth, queue, qi);
    abort();
}

void pv_task_check_wait(struct pv_tstate *ts, struct pv_task_mark *m, unsigned me,
                        const struct pv_task *under, const char *where)
{
    for (unsigned i = 0; i < m->n; i++) {
        struct pv_tq *q = &ts->q[i];
        pv_mutex_lock(&q->lock);
        uint32_t head = atomic_load_explicit(&q->head, memory_order_relaxed);
        uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
        for (uint32_t k = head; k != tail; k++) {
            struct pv_task *t = q->buf[k & q->mask];
            /* Stamps wrap: older means a positive distance to the mark. */
            if ((int32_t)(m->pushes[i] - t->qstamp) > 0 && (!under || pv_task_descends(t, under)))
                violated(where, me, t, "deque", i);
        }
        pv_mutex_unlock(&q->lock);
    }
    pv_mutex_lock(&ts->shared_lock);
    unsigned n = atomic_load_explicit(&ts->nshared, memory_order_relaxed);
    for (unsigned k = 0; k < n; k++) {
        struct pv_task *t = ts->heap[k].task;
        if (ts->heap[k].seq < m->shared_seq && (!under || pv_task_descends(t, under)))
            violated(where, me, t, "the shared heap", k);
    }
    pv_mutex_unlock(&ts->shared_lock);
    free(m);
}
