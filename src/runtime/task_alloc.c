/* Task blocks: the per-member pools, freeing and references; the per-team
 * tasking state.  Part of task.c (see task_parts.h). */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "runtime/task_parts.h"

/* ----------------------------------------------------------- allocation */

/* Task blocks of one size class are recycled through pools, one per team
 * member (teams are never freed, so a pool outlives its blocks).  The member
 * that allocated a block gets it back: directly when it frees the block
 * itself, else through the pool's lock-free return stack, which it empties
 * when its own list runs dry.  Larger tasks (big firstprivate data, many
 * depend items), and those of a thread outside any team (an if(0) task of
 * tasks/task_if0.c), use malloc. */
#define TASK_BLOCK 576u
#define POOL_KEEP 1024u

struct pv_task *task_alloc(struct pv_team *team, size_t extra)
{
    size_t size = sizeof(struct pv_task) + extra;
    if (size > TASK_BLOCK || !team) {
        struct pv_task *t = pv_malloc(size);
        t->tflags = 0;
        t->pool = NULL;
        return t;
    }
    struct pv_tpool *pool = &team->task_state->pools[pv_thr.ts.team_id];
    struct pv_task *t = pool->local;
    /* Blocks taken back from the return stack are not counted in nlocal
     * (that would mean walking them): the cap only limits local frees. */
    if (!t)
        t = atomic_exchange_explicit(&pool->remote, NULL, memory_order_acquire);
    if (t) {
        pool->local = t->next;
        if (pool->nlocal)
            pool->nlocal--;
    } else {
        t = pv_malloc(TASK_BLOCK);
    }
    t->tflags = PV_TF_CACHED;
    t->pool = pool;
    return t;
}

void task_free(struct pv_task *t)
{
    if (t->deps)
        pv_deps_free(t->deps);
    free(t->succ);
    struct pv_tpool *pool = t->pool;
    if (!pool) {
        free(t);
        return;
    }
    struct pv_team *team = pv_thr.ts.team;
    if (team && pool == &team->task_state->pools[pv_thr.ts.team_id]) {
        if (pool->nlocal >= POOL_KEEP) {
            free(t);
            return;
        }
        t->next = pool->local;
        pool->local = t;
        pool->nlocal++;
        return;
    }
    /* Another member's block: push it on that pool's return stack (only
     * pushes race; the owner takes the whole stack at once, so no ABA). */
    struct pv_task *head = atomic_load_explicit(&pool->remote, memory_order_relaxed);
    do
        t->next = head;
    while (!atomic_compare_exchange_weak_explicit(&pool->remote, &head, t, memory_order_release,
                                                  memory_order_relaxed));
}

/* t is complete and unreferenced: free it and drop the reference it held on
 * its parent, and so on up while ancestors become free too. */
void task_free_chain(struct pv_task *t)
{
    for (;;) {
        struct pv_task *p = t->parent;
        task_free(t);
        if (!parent_ref(p))
            return;
        if (atomic_fetch_sub_explicit(&p->cnt, PV_TASK_REF, memory_order_acq_rel) != PV_TASK_REF)
            return;
        t = p;
    }
}

/* Drop a task's own reference. */
void task_unref(struct pv_task *t)
{
    if (atomic_fetch_sub_explicit(&t->cnt, PV_TASK_REF, memory_order_acq_rel) == PV_TASK_REF)
        task_free_chain(t);
}

/* ------------------------------------------------------------ team state */

void pv_task_team_init(struct pv_team *team)
{
    struct pv_tstate *ts = team->task_state;
    if (!ts) {
        ts = pv_aligned_alloc(PV_CACHELINE, sizeof *ts);
        memset(ts, 0, sizeof *ts);
        ts->cap = team->capacity;
        ts->q = pv_aligned_alloc(PV_CACHELINE, ts->cap * sizeof *ts->q);
        memset(ts->q, 0, ts->cap * sizeof *ts->q);
        ts->impl_deps = pv_calloc(ts->cap, sizeof *ts->impl_deps);
        ts->pools = pv_aligned_alloc(PV_CACHELINE, ts->cap * sizeof *ts->pools);
        memset(ts->pools, 0, ts->cap * sizeof *ts->pools);
        pv_tq_init(ts);
        team->task_state = ts;
    }
    pv_task_ws_reductions_reset(ts);
    /* The counts balance only summed over the members that made them: a
     * region of the same size reuses them as they are (so a fork writes no
     * member's line: resetting them every time cost PARALLEL 50 % more);
     * another size starts from zero.  The threads of the last region wrote
     * them before its barrier ended. */
    if (ts->counted != team->nthreads) {
        ts->counted = team->nthreads;
        for (unsigned i = 0; i < ts->cap; i++) {
            atomic_store_explicit(&ts->pools[i].created, 0, memory_order_relaxed);
            atomic_store_explicit(&ts->pools[i].completed, 0, memory_order_relaxed);
            ts->pools[i].unshared = 0;
        }
        atomic_store_explicit(&ts->completed_outside, 0, memory_order_relaxed);
        atomic_store_explicit(&ts->outstanding, 0, memory_order_relaxed);
    }
    for (unsigned i = 0; i < team->nthreads; i++) {
        struct pv_task *t = &team->implicit[i];
        t->team = team;
        t->deps = ts->impl_deps[i];
    }
}

