/* Explicit tasks: creation, scheduling, completion, taskwait, taskgroup,
 * detach and the hooks the team barrier uses.  See task_internal.h for the
 * life of a task and docs/tasks.md for the design.
 *
 * Every task is tied: it runs start to end on the thread that began it.  A
 * thread that waits (taskwait, taskgroup end, dependences of an undeferred
 * task, an undeferred task's detach event) runs ready descendants of the
 * task it is in meanwhile, and otherwise sleeps on the team's `work` word,
 * which creators and completers bump when somebody is idle there. */
#include <stdlib.h>
#include <string.h>

#include "runtime/task_internal.h"
#include "trace/trace.h"

/* ----------------------------------------------------------- allocation */

/* Task blocks of one size class are recycled through pools, one per team
 * member (teams are never freed, so a pool outlives its blocks).  The member
 * that allocated a block gets it back: directly when it frees the block
 * itself, else through the pool's lock-free return stack, which it empties
 * when its own list runs dry.  Larger tasks (big firstprivate data, many
 * depend items) use malloc. */
#define TASK_BLOCK 576u
#define POOL_KEEP 1024u

static struct pv_task *task_alloc(struct pv_team *team, size_t extra)
{
    size_t size = sizeof(struct pv_task) + extra;
    if (size > TASK_BLOCK) {
        struct pv_task *t = pv_malloc(size);
        t->tflags = 0;
        t->pool = NULL;
        return t;
    }
    struct pv_tpool *pool = &((struct pv_tstate *)team->task_state)->pools[pv_thr.ts.team_id];
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

static void task_free(struct pv_task *t)
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
    if (team && pool == &((struct pv_tstate *)team->task_state)->pools[pv_thr.ts.team_id]) {
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

/* References on a parent are counted only for heap parents: implicit tasks
 * are never freed (and are reinitialised at the next fork), stack tasks
 * never have deferred children. */
static inline uint64_t parent_ref(const struct pv_task *p)
{
    return p && p->kind == PV_TASK_HEAP ? PV_TASK_REF : 0;
}

/* t is complete and unreferenced: free it and drop the reference it held on
 * its parent, and so on up while ancestors become free too. */
static void task_free_chain(struct pv_task *t)
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
static void task_unref(struct pv_task *t)
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
    for (unsigned i = 0; i < team->nthreads; i++) {
        struct pv_task *t = &team->implicit[i];
        t->team = team;
        t->deps = ts->impl_deps[i];
    }
}

struct pv_task *pv_task_current(void)
{
    if (!pv_thr.task)
        pv_icv_for_write();
    return pv_thr.task;
}

/* Process-wide wait word for task waits outside any team (detach). */
static pv_futex_t orphan_work;

void pv_task_notify(struct pv_team *team)
{
    pv_futex_t *f = team ? &((struct pv_tstate *)team->task_state)->work : &orphan_work;
    atomic_fetch_add_explicit(&f->word, 1, memory_order_seq_cst);
    pv_wake(f);
}

/* ------------------------------------------------------------- queueing */

static void task_queue(struct pv_team *team, struct pv_task *t)
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

static inline bool taskgroup_cancelled(const struct pv_taskgroup *tg)
{
    return tg && (atomic_load_explicit(&tg->cancelled, memory_order_relaxed) ||
                  (tg->workshare && tg->prev &&
                   atomic_load_explicit(&tg->prev->cancelled, memory_order_relaxed)));
}

bool pv_task_creation_cancelled(struct pv_team *team, struct pv_task *parent)
{
    return atomic_load_explicit(&team->cancelled, memory_order_relaxed) ||
           taskgroup_cancelled(parent->taskgroup);
}

/* A deferred task is complete (body done, event fulfilled or cancelled).
 * With `keep`, the task keeps its own reference (a cancelled detached task
 * whose event may still be fulfilled later).  With `handoff`, a successor
 * that became ready is returned for this thread to run next instead of
 * being queued: along a dependence chain the next link then runs where the
 * last one ended, without a trip through the queue to another thread.  (It
 * is a sibling of t, so whatever allowed this thread to run t allows it.) */
static struct pv_task *task_complete(struct pv_task *t, bool keep, bool handoff)
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
    /* Last: once task_count is 0 a barrier may end and the team be reused
     * (not while a successor is handed over: it still counts). */
    if (atomic_fetch_sub_explicit(&team->task_count, 1, memory_order_seq_cst) == 1)
        pv_barrier_tasks_changed(team);
    return next;
}

/* With a tool attached a task body runs from here: this frame is the one
 * the tool sees as the task's exit frame.  Kept out of line so that the
 * paths without a tool need no frame pointer and keep nothing live across
 * the body for the tool's sake. */
static __attribute__((noinline)) void run_fn_under_tool(struct pv_task *prior, struct pv_task *t,
                                                        void (*fn)(void *), void *arg)
{
    pv_ompt_task_begin(prior, t, __builtin_frame_address(0));
    fn(arg);
    /* Not a tail call: the frame must stay below the body while it runs. */
    __asm__ volatile("" ::: "memory");
}

/* Run a task's body, through run_fn_under_tool when a tool is attached. */
static inline void run_fn(struct pv_task *prior, struct pv_task *t, void (*fn)(void *), void *arg)
{
    if (pv_ompt_tool())
        run_fn_under_tool(prior, t, fn, arg);
    else
        fn(arg);
}

/* Run t; returns a successor handed over by its completion, or NULL. */
static struct pv_task *task_run_one(struct pv_thread *thr, struct pv_task *t)
{
    bool skip = pv_unlikely(pv_gicv.cancel_var) && !(t->tflags & PV_TF_COPIED) &&
                (atomic_load_explicit(&t->team->cancelled, memory_order_relaxed) ||
                 taskgroup_cancelled(t->taskgroup));
    if (!skip) {
        struct pv_task *prev = thr->task;
        thr->task = t;
        trace_task_begin(t);
        if (pv_ompt_tool()) {
            run_fn_under_tool(prev, t, t->fn, t->arg);
            pv_ompt_task_end(t, 0, prev);
        } else {
            t->fn(t->arg);
        }
        trace_task_end(t);
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

static void task_run(struct pv_thread *thr, struct pv_task *t)
{
    do
        t = task_run_one(thr, t);
    while (t);
}

/* --------------------------------------------------------------- waiting */

typedef bool (*wait_done_fn)(const void *);

/* Run ready descendants of `under` until done(arg); sleep when there are none. */
static void wait_until(struct pv_team *team, const struct pv_task *under, wait_done_fn done,
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
        if (!done(arg) && !(t = pv_tq_take(ts, me, n, under)))
            pv_wait_while_eq(&ts->work, snap);
        atomic_fetch_sub_explicit(&ts->idle, 1, memory_order_relaxed);
        if (t)
            task_run(thr, t);
    }
}

static bool children_done(const void *arg)
{
    const struct pv_task *t = arg;
    return PV_TASK_PENDING(atomic_load_explicit(&t->cnt, memory_order_seq_cst)) == 0;
}

static bool group_done(const void *arg)
{
    const struct pv_taskgroup *tg = arg;
    return atomic_load_explicit(&tg->pending, memory_order_seq_cst) == 0;
}

static bool preds_done(const void *arg)
{
    const struct pv_task *t = arg;
    return atomic_load_explicit(&t->npred, memory_order_seq_cst) == 0;
}

static bool event_fulfilled(const void *arg)
{
    const struct pv_task *t = arg;
    return (atomic_load_explicit(&t->detach, memory_order_seq_cst) & PV_DETACH_FULFILLED) != 0;
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
            return true;
        }
        task_run(thr, t);
        ran = true;
    }
    return ran;
}

bool pv_task_run_pending(struct pv_team *team)
{
    return pv_task_run_pending_gen(team, NULL, 0);
}

/* -------------------------------------------------------------- creation */

static void task_init(struct pv_task *t, struct pv_task *parent, struct pv_team *team,
                      const struct pv_task_args *a)
{
    t->icv = parent ? parent->icv : pv_initial_icv;
    t->parent = parent;
    t->final = (a->flags & PV_GTF_FINAL) || (parent && parent->final);
    t->in_final = t->final;
    t->depth = parent ? parent->depth + 1 : 1;
    t->priority = a->priority;
    t->team = team;
    t->fn = a->fn;
    t->arg = NULL;
    t->taskgroup = parent ? parent->taskgroup : NULL;
    atomic_init(&t->cnt, PV_TASK_REF);
    atomic_init(&t->npred, 1);
    atomic_init(&t->detach, 0);
    t->deps = NULL;
    t->dnodes = NULL;
    t->ndeps = 0;
    t->nsucc = t->succ_cap = 0;
    t->succ = NULL;
    t->next = NULL;
}

/* Where the firstprivate block goes inside a task block. */
static inline char *align_up(char *p, long align)
{
    return (char *)(((uintptr_t)p + (uintptr_t)align - 1) & ~((uintptr_t)align - 1));
}

static inline void set_bounds(const struct pv_task_args *a, void *arg)
{
    if (a->bounds) {
        ((uint64_t *)arg)[0] = a->lo;
        ((uint64_t *)arg)[1] = a->hi;
    }
}

/* Publish the event handle of a detached task. */
static inline void set_event(const struct pv_task_args *a, struct pv_task *t)
{
    if (a->flags & PV_GTF_DETACH) {
        t->tflags |= PV_TF_DETACH;
        if (t->team)
            atomic_fetch_add_explicit(&((struct pv_tstate *)t->team->task_state)->open_events, 1,
                                      memory_order_relaxed);
        *(void **)a->detach = t;
        /* gcc passes the event variable as the first firstprivate word. */
        if (a->data)
            *(void **)a->data = t;
    }
}

/* The body of an undeferred task, with its firstprivate block in this frame. */
static void run_body(const struct pv_task_args *a)
{
    if (a->in_place) {
        set_bounds(a, a->data);
        a->fn(a->data);
    } else if (a->cpyfn || a->bounds) {
        char buf[a->arg_size + a->arg_align - 1];
        char *arg = align_up(buf, a->arg_align);
        if (a->cpyfn)
            a->cpyfn(arg, a->data);
        else
            memcpy(arg, a->data, a->arg_size);
        set_bounds(a, arg);
        a->fn(arg);
    } else {
        a->fn(a->data);
    }
}

static void run_body_cb(void *a)
{
    run_body(a);
}

/* The program's function that runs for fn(arg): run_body_cb runs the one
 * of its pv_task_args (for the trace: it names the task's code). */
static inline void *task_body(void (*fn)(void *), void *arg)
{
    return fn == run_body_cb ? (void *)((const struct pv_task_args *)arg)->fn : (void *)fn;
}

/* Run the body of t, a task that lives in this frame, as the current task.
 * Its creation is traced here, after the tool heard of it.  The caller
 * makes a parent current again. */
static inline void run_in_frame(struct pv_thread *thr, struct pv_task *parent, struct pv_task *t,
                                unsigned flags, void (*fn)(void *), void *arg)
{
    trace_task_create(t, task_body(fn, arg), flags);
    thr->task = t;
    trace_task_begin(t);
    run_fn(parent, t, fn, arg);
    trace_task_end(t);
}

/* After run_in_frame, for a task that cannot have moved (included, or in a
 * block from the start): the parent is current again, a detached task waits
 * for its event, and the task ends for the tool. */
static void frame_task_end(struct pv_thread *thr, struct pv_task *parent, struct pv_task *t)
{
    thr->task = parent;
    if (t->tflags & PV_TF_DETACH)
        wait_until(t->team, parent, event_fulfilled, t);
    if (pv_ompt_tool())
        pv_ompt_task_end(t, 0, parent);
}

/* Run fn in a task that lives in this frame: no team, or an included task
 * of a final task.  Nothing it creates can be deferred. */
static void run_included(const struct pv_task_args *a)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *parent = thr->task;
    struct pv_task t;
    task_init(&t, parent, thr->ts.team, a);
    t.kind = PV_TASK_STACK;
    t.tflags = PV_TF_UNDEFERRED;
    set_event(a, &t);
    if (pv_ompt_tool())
        pv_ompt_task_create(&t, true, a->flags, NULL);
    run_in_frame(thr, parent, &t, a->flags, run_body_cb, (void *)a);
    frame_task_end(thr, parent, &t);
    if (t.deps)
        pv_deps_free(t.deps);
}

/* A plain undeferred task runs in its encountering frame.  Should it create
 * a task that may outlive it (a deferred child, a task with dependences or
 * an event), it first moves into a task block, and so do its in-frame
 * ancestors: the block (kept in the frame's `arg`) becomes the current task
 * and the frames find it when they resume. */
static struct pv_task *task_promote(struct pv_team *team, struct pv_task *t)
{
    if (!t || t->kind != PV_TASK_STACK || !(t->tflags & PV_TF_PROMOTABLE))
        return t;
    if (t->arg)
        return t->arg;
    struct pv_task *p = task_promote(team, t->parent);
    struct pv_task *h = task_alloc(team, 0);
    uint8_t cached = h->tflags & PV_TF_CACHED;
    void *pool = h->pool;
    /* A frame task has only the fields a running task uses (see GOMP_task);
     * the rest starts empty. */
    memcpy((void *)h, (const void *)t, sizeof *h);
    h->kind = PV_TASK_HEAP;
    h->tflags = (uint8_t)((t->tflags & ~PV_TF_PROMOTABLE) | cached);
    h->pool = pool;
    h->parent = p;
    h->arg = NULL;
    h->fn = NULL;
    h->dnodes = NULL;
    h->ndeps = 0;
    h->next = NULL;
    atomic_init(&h->npred, 0);
    atomic_init(&h->detach, 0);
    h->nsucc = h->succ_cap = 0;
    h->succ = NULL;
    t->arg = h;
    if (pv_thr.task == t)
        pv_thr.task = h;
    return h;
}

static inline struct pv_task *task_resolve(struct pv_task *t)
{
    if (t && t->kind == PV_TASK_STACK && (t->tflags & PV_TF_PROMOTABLE) && t->arg)
        return t->arg;
    return t;
}

/* An undeferred task in a block is done: children still alive keep it, and
 * it then keeps its parent (which it did not reference while it ran: the
 * parent was suspended in this very call). */
static void undeferred_block_done(struct pv_task *t)
{
    if (atomic_load_explicit(&t->cnt, memory_order_acquire) == PV_TASK_REF) {
        task_free(t);
        return;
    }
    if (parent_ref(t->parent))
        atomic_fetch_add_explicit(&t->parent->cnt, PV_TASK_REF, memory_order_relaxed);
    task_unref(t);
}

/* After run_in_frame, for a promotable task u on this stack: the parent
 * may have moved into a block meanwhile, and so may u (then its block, in
 * u->arg, is what ends). */
static inline void promotable_end(struct pv_thread *thr, struct pv_task *parent, struct pv_task *u)
{
    thr->task = task_resolve(parent);
    if (pv_ompt_tool())
        pv_ompt_task_end(u->arg ? (struct pv_task *)u->arg : u, 0, thr->task);
    if (u->arg)
        undeferred_block_done(u->arg);
}

/* An undeferred task with dependences or an event lives in a block from the
 * start; it first waits for its predecessors, and after its body for its
 * event. */
static void run_undeferred_block(struct pv_team *team, const struct pv_task_args *a)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *parent = task_promote(team, thr->task);
    size_t ndeps = 0;
    if ((a->flags & PV_GTF_DEPEND) && !pv_deps_empty(parent->deps))
        ndeps = pv_deps_count(a->depend);
    struct pv_task *t = task_alloc(team, ndeps * sizeof(struct pv_dep_node));
    task_init(t, parent, team, a);
    t->kind = PV_TASK_HEAP;
    t->tflags |= PV_TF_UNDEFERRED | PV_TF_WAITER;
    set_event(a, t);
    if (pv_ompt_tool())
        pv_ompt_task_create(t, true, a->flags, ndeps ? a->depend : NULL);
    if (ndeps) {
        t->dnodes = (struct pv_dep_node *)(t + 1);
        pv_deps_register(parent, t, a->depend);
        if (atomic_fetch_sub_explicit(&t->npred, 1, memory_order_seq_cst) != 1)
            wait_until(team, parent, preds_done, t);
    }
    run_in_frame(thr, parent, t, a->flags, run_body_cb, (void *)a);
    frame_task_end(thr, parent, t);
    if (t->ndeps)
        (void)pv_deps_release(t, false);
    undeferred_block_done(t);
}

static void run_undeferred(struct pv_team *team, const struct pv_task_args *a)
{
    if (a->flags & (PV_GTF_DEPEND | PV_GTF_DETACH)) {
        run_undeferred_block(team, a);
        return;
    }
    struct pv_thread *thr = &pv_thr;
    struct pv_task *parent = thr->task;
    struct pv_task u;
    task_init(&u, parent, team, a);
    u.kind = PV_TASK_STACK;
    u.tflags = PV_TF_UNDEFERRED | PV_TF_PROMOTABLE;
    if (pv_ompt_tool())
        pv_ompt_task_create(&u, true, a->flags, NULL);
    run_in_frame(thr, parent, &u, a->flags, run_body_cb, (void *)a);
    promotable_end(thr, parent, &u);
}

static void spawn_deferred(struct pv_team *team, const struct pv_task_args *a)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *parent = task_promote(team, thr->task);
    size_t ndeps = (a->flags & PV_GTF_DEPEND) ? pv_deps_count(a->depend) : 0;
    size_t dsize = ndeps * sizeof(struct pv_dep_node);
    struct pv_task *t = task_alloc(team, dsize + (size_t)a->arg_size + (size_t)a->arg_align - 1);
    task_init(t, parent, team, a);
    t->kind = PV_TASK_HEAP;
    t->dnodes = (struct pv_dep_node *)(t + 1);
    char *arg = align_up((char *)(t + 1) + dsize, a->arg_align);
    t->arg = arg;
    set_event(a, t);
    if (a->cpyfn) {
        thr->task = t;
        a->cpyfn(arg, a->data);
        thr->task = parent;
        t->tflags |= PV_TF_COPIED;
    } else {
        memcpy(arg, a->data, a->arg_size);
    }
    set_bounds(a, arg);
    if (pv_ompt_tool())
        pv_ompt_task_create(t, false, a->flags, ndeps ? a->depend : NULL);

    trace_task_create(t, (void *)a->fn, a->flags);
    /* Count it everywhere before anybody can see it. */
    atomic_fetch_add_explicit(&parent->cnt, 1 + parent_ref(parent), memory_order_relaxed);
    if (t->taskgroup)
        atomic_fetch_add_explicit(&t->taskgroup->pending, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&team->task_count, 1, memory_order_seq_cst);

    if (ndeps) {
        if (!parent->deps) {
            parent->deps = pv_deps_new();
            if (parent->kind == PV_TASK_IMPLICIT && parent->team == team)
                ((struct pv_tstate *)team->task_state)->impl_deps[thr->ts.team_id] = parent->deps;
        }
        pv_deps_register(parent, t, a->depend);
        if (atomic_fetch_sub_explicit(&t->npred, 1, memory_order_seq_cst) != 1)
            return; /* the last predecessor queues it */
    } else {
        atomic_store_explicit(&t->npred, 0, memory_order_relaxed);
    }
    task_queue(team, t);
}

void pv_task_spawn(const struct pv_task_args *a, bool deferrable)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    struct pv_task *parent = thr->task;
    if (!team || !parent || parent->final) {
        run_included(a);
        return;
    }
    /* Throttle (as libgomp): with this many tasks outstanding, run new ones
     * at once (after their dependences).  Never a detached task: its event
     * may be fulfilled only by tasks created after it. */
    if (deferrable && !(a->flags & PV_GTF_DETACH) && pv_task_throttled(team, 0) &&
        (!(a->flags & PV_GTF_DEPEND) ||
         atomic_load_explicit(&((struct pv_tstate *)team->task_state)->open_events,
                              memory_order_relaxed) == 0))
        deferrable = false;
    if (deferrable)
        spawn_deferred(team, a);
    else
        run_undeferred(team, a);
}

/* -------------------------------------------------------------- the ABI */

static inline int bound_priority(int priority)
{
    if (priority < 0)
        return 0;
    return priority > pv_gicv.max_task_priority_var ? pv_gicv.max_task_priority_var : priority;
}

PV_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, bool if_clause, unsigned flags,
                         void **depend, int priority, void *detach)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    struct pv_task *parent = thr->task;
    if (pv_unlikely(pv_gicv.cancel_var) && team && pv_task_creation_cancelled(team, parent))
        return;
    PV_OMPT_ENTRY();
    /* Fast path: a plain task that runs at once (if(0), or the throttle),
     * in this frame, with only the fields a running task needs. */
    if (pv_likely(team && !cpyfn && !(flags & (PV_GTF_DEPEND | PV_GTF_DETACH)) &&
                  !parent->final) &&
        (!if_clause || pv_task_throttled(team, 0))) {
        struct pv_task u;
        u.icv = parent->icv;
        u.parent = parent;
        u.final = u.in_final = (flags & PV_GTF_FINAL) != 0;
        u.kind = PV_TASK_STACK;
        u.tflags = PV_TF_UNDEFERRED | PV_TF_PROMOTABLE;
        u.depth = parent->depth + 1;
        u.priority = 0;
        u.team = team;
        u.arg = NULL;
        u.taskgroup = parent->taskgroup;
        u.deps = NULL;
        atomic_init(&u.cnt, PV_TASK_REF);
        if (pv_ompt_tool())
            pv_ompt_task_create(&u, true, flags, NULL);
        run_in_frame(thr, parent, &u, flags, fn, data);
        promotable_end(thr, parent, &u);
        return;
    }
    struct pv_task_args a = {
        .fn = fn,
        .data = data,
        .cpyfn = cpyfn,
        .arg_size = arg_size,
        .arg_align = arg_align > 0 ? arg_align : 1,
        .flags = flags,
        .priority = (flags & PV_GTF_PRIORITY) ? bound_priority(priority) : 0,
        .depend = depend,
        .detach = detach,
    };
    pv_task_spawn(&a, if_clause);
}

static inline void taskwait(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *t = thr->task;
    if (thr->ts.team && t && !children_done(t))
        wait_until(thr->ts.team, t, children_done, t);
}

/* Out of line, so that GOMP_taskwait without a tool saves no registers. */
static __attribute__((noinline)) void taskwait_under_tool(const void *codeptr)
{
    pv_ompt_sync_begin(ompt_sync_region_taskwait, codeptr);
    taskwait();
    pv_ompt_sync_end(ompt_sync_region_taskwait, codeptr);
}

PV_EXPORT void GOMP_taskwait(void)
{
    if (pv_ompt_tool()) {
        PV_OMPT_FRAME();
        taskwait_under_tool(__builtin_return_address(0));
    } else {
        taskwait();
    }
}

/* taskwait with depend: as if an included, empty task with those
 * dependences ran here.  With no sibling dependences recorded there is
 * nothing to wait for; a tool still sees the task (its create and
 * completion). */
PV_EXPORT void GOMP_taskwait_depend(void **depend)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    struct pv_task *parent = thr->task;
    bool may_wait = team && parent && !pv_deps_empty(parent->deps);
    if (!may_wait && !pv_ompt_tool())
        return;
    if (pv_unlikely(pv_gicv.cancel_var) && team && pv_task_creation_cancelled(team, parent))
        return;
    PV_OMPT_ENTRY();
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

PV_EXPORT void GOMP_taskyield(void)
{
    /* Every task is tied and runs to its end; nothing to give way to that
     * the waiting points do not already run. */
}

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

PV_EXPORT void GOMP_taskgroup_start(void)
{
    pv_taskgroup_start();
    if (pv_ompt_tool())
        pv_ompt_sync_begin(ompt_sync_region_taskgroup, __builtin_return_address(0));
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

PV_EXPORT void GOMP_taskgroup_end(void)
{
    if (pv_ompt_tool()) {
        PV_OMPT_FRAME();
        pv_ompt_sync_wait(ompt_sync_region_taskgroup, __builtin_return_address(0));
    }
    pv_taskgroup_end();
    if (pv_ompt_tool())
        pv_ompt_sync_end(ompt_sync_region_taskgroup, __builtin_return_address(0));
}

/* Cancellation of the innermost taskgroup (called by GOMP_cancel and
 * GOMP_cancellation_point in parallel.c). */
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

/* ---------------------------------------------------------------- detach */

PV_EXPORT void omp_fulfill_event(uintptr_t event)
{
    struct pv_task *t = (struct pv_task *)event;
    if (!t)
        pv_fatal("omp_fulfill_event: invalid event handle");
    struct pv_team *team = t->team;
    if (team)
        atomic_fetch_sub_explicit(&((struct pv_tstate *)team->task_state)->open_events, 1,
                                  memory_order_relaxed);
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
