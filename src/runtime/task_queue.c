/* Ready-task queues of a team.
 *
 * Each member owns a deque: it pushes and pops its newest tasks at the tail
 * (depth first, good locality), idle members steal the oldest at the head
 * (big pieces of work).  Every deque has its own short lock, so there is no
 * team-wide lock on the common path, and a thief can look at a task before
 * taking it (tied-task scheduling constraint) while the task cannot vanish.
 * Tasks with a priority, and tasks made ready by a thread that is not a
 * member, go to one shared heap, checked first and only when non-empty. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "runtime/mutex.h"
#include "runtime/task_internal.h"

#define TQ_INITIAL 256u

void pv_tq_init(struct pv_tstate *ts)
{
    for (unsigned i = 0; i < ts->cap; i++) {
        struct pv_tq *q = &ts->q[i];
        atomic_init(&q->lock, 0);
        atomic_init(&q->head, 0);
        atomic_init(&q->tail, 0);
        q->mask = TQ_INITIAL - 1;
        q->pushes = 0;
        q->buf = pv_malloc(TQ_INITIAL * sizeof *q->buf);
    }
}

/* Under the lock: double the ring, keeping the order. */
static void tq_grow(struct pv_tq *q)
{
    uint32_t head = atomic_load_explicit(&q->head, memory_order_relaxed);
    uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
    uint32_t cap = q->mask + 1;
    struct pv_task **buf = pv_malloc(2 * (size_t)cap * sizeof *buf);
    for (uint32_t i = head; i != tail; i++)
        buf[i & (2 * cap - 1)] = q->buf[i & q->mask];
    free(q->buf);
    q->buf = buf;
    q->mask = 2 * cap - 1;
}

void pv_tq_push(struct pv_tq *q, struct pv_task *t)
{
    pv_mutex_lock(&q->lock);
    uint32_t head = atomic_load_explicit(&q->head, memory_order_relaxed);
    uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
    if (tail - head > q->mask)
        tq_grow(q);
    q->buf[tail & q->mask] = t;
    t->qstamp = q->pushes++;
    atomic_store_explicit(&q->tail, tail + 1, memory_order_relaxed);
    pv_mutex_unlock(&q->lock);
}

static inline bool tq_empty(struct pv_tq *q)
{
    return atomic_load_explicit(&q->head, memory_order_relaxed) ==
           atomic_load_explicit(&q->tail, memory_order_relaxed);
}

/* Under q's lock, with head != tail: the newest task that descends from
 * `under` (its descendants were queued after it began, so they are near the
 * tail); it leaves the ring and the newer tasks close the gap.  A waiting
 * thread may run any descendant of the task it waits in, not only one at an
 * end: tasks of other subtrees queued around its own would otherwise leave
 * it asleep beside work it may do (see task_check.c). */
__attribute__((noinline, cold)) static struct pv_task *
tq_take_inner(struct pv_tq *q, uint32_t head, uint32_t tail, const struct pv_task *under)
{
    uint32_t k = tail;
    do {
        if (k == head)
            return NULL;
        k--;
    } while (!pv_task_descends(q->buf[k & q->mask], under));
    struct pv_task *t = q->buf[k & q->mask];
    for (; k + 1 != tail; k++)
        q->buf[k & q->mask] = q->buf[(k + 1) & q->mask];
    atomic_store_explicit(&q->tail, tail - 1, memory_order_relaxed);
    return t;
}

/* Take a task from one end of q: the newest (the owner's end, `oldest`
 * false) or the oldest (a thief's).  With `under`, only a descendant of it:
 * the one at that end, else the newest. */
static inline __attribute__((always_inline)) struct pv_task *
tq_take_end(struct pv_tq *q, const struct pv_task *under, bool oldest)
{
    if (tq_empty(q))
        return NULL;
    struct pv_task *t = NULL;
    pv_mutex_lock(&q->lock);
    uint32_t head = atomic_load_explicit(&q->head, memory_order_relaxed);
    uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
    if (head != tail) {
        struct pv_task *c = q->buf[(oldest ? head : tail - 1) & q->mask];
        if (!under || pv_task_descends(c, under)) {
            t = c;
            if (oldest)
                atomic_store_explicit(&q->head, head + 1, memory_order_relaxed);
            else
                atomic_store_explicit(&q->tail, tail - 1, memory_order_relaxed);
        } else if (tail - head > 1) {
            t = tq_take_inner(q, head, tail, under);
        }
    }
    pv_mutex_unlock(&q->lock);
    return t;
}

/* The owner's end: the newest task. */
static struct pv_task *tq_pop(struct pv_tq *q, const struct pv_task *under)
{
    return tq_take_end(q, under, false);
}

/* A thief's end: the oldest task. */
static struct pv_task *tq_steal(struct pv_tq *q, const struct pv_task *under)
{
    return tq_take_end(q, under, true);
}

/* ------------------------------------------------------------ shared heap */

static inline bool prio_before(const struct pv_prio_item *a, const struct pv_prio_item *b)
{
    return a->priority > b->priority || (a->priority == b->priority && a->seq < b->seq);
}

void pv_tq_push_shared(struct pv_tstate *ts, struct pv_task *t)
{
    pv_mutex_lock(&ts->shared_lock);
    unsigned n = atomic_load_explicit(&ts->nshared, memory_order_relaxed);
    PV_GROW(ts->heap, n, ts->heap_cap, 64);
    struct pv_prio_item it = {t->priority, ts->shared_seq++, t};
    unsigned i = n;
    while (i > 0) {
        unsigned up = (i - 1) / 2;
        if (!prio_before(&it, &ts->heap[up]))
            break;
        ts->heap[i] = ts->heap[up];
        i = up;
    }
    ts->heap[i] = it;
    atomic_store_explicit(&ts->nshared, n + 1, memory_order_relaxed);
    pv_mutex_unlock(&ts->shared_lock);
}

/* Under the shared lock: remove heap item i, keeping the heap's order. */
static void heap_remove(struct pv_tstate *ts, unsigned i, unsigned n)
{
    struct pv_prio_item last = ts->heap[--n];
    if (i == n)
        return;
    /* Up while `last` goes before the parent (i was not the root)... */
    while (i > 0 && prio_before(&last, &ts->heap[(i - 1) / 2])) {
        ts->heap[i] = ts->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    /* ... else down while a child goes before it. */
    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && prio_before(&ts->heap[c + 1], &ts->heap[c]))
            c++;
        if (!prio_before(&ts->heap[c], &last))
            break;
        ts->heap[i] = ts->heap[c];
        i = c;
    }
    ts->heap[i] = last;
}

/* The first task in priority order, or with `under` the first descendant
 * of it (not only the top: see tq_take_inner). */
static struct pv_task *shared_take(struct pv_tstate *ts, const struct pv_task *under)
{
    struct pv_task *t = NULL;
    pv_mutex_lock(&ts->shared_lock);
    unsigned n = atomic_load_explicit(&ts->nshared, memory_order_relaxed);
    unsigned pick = n;
    if (n && (!under || pv_task_descends(ts->heap[0].task, under))) {
        pick = 0;
    } else {
        for (unsigned i = 1; i < n; i++)
            if (pv_task_descends(ts->heap[i].task, under) &&
                (pick == n || prio_before(&ts->heap[i], &ts->heap[pick])))
                pick = i;
    }
    if (pick < n) {
        t = ts->heap[pick].task;
        heap_remove(ts, pick, n);
        atomic_store_explicit(&ts->nshared, n - 1, memory_order_relaxed);
    }
    pv_mutex_unlock(&ts->shared_lock);
    return t;
}

struct pv_task *pv_tq_take(struct pv_tstate *ts, unsigned me, unsigned n,
                           const struct pv_task *under)
{
    struct pv_task *t;
    if (atomic_load_explicit(&ts->nshared, memory_order_relaxed) != 0 &&
        (t = shared_take(ts, under)))
        return t;
    if ((t = tq_pop(&ts->q[me], under)))
        return t;
    for (unsigned i = 1; i < n; i++) {
        unsigned v = me + i < n ? me + i : me + i - n;
        if ((t = tq_steal(&ts->q[v], under)))
            return t;
    }
    return NULL;
}
