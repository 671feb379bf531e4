/* What the parts of task.c share among themselves: task.c (creation and
 * GOMP_task), task_alloc.c (task blocks and references), task_run.c
 * (queueing, running, completion), task_wait.c (the wait loop, taskwait),
 * task_inline.c (included and undeferred tasks, promotion), task_if0.c
 * (libomp's if(0) tasks), task_group.c and task_detach.c; and ompt_view.c,
 * which reports tasks to OMPT.  task.c, task_inline.c, task_if0.c,
 * task_detach.c and the entry points (gomp_task.c, gomp_taskwait.c) are in
 * src/tasks, the rest here.  The other tasking files use task_internal.h
 * only. */
#ifndef PV_RUNTIME_TASK_PARTS_H
#define PV_RUNTIME_TASK_PARTS_H

#include "runtime/task_internal.h"
#include "trace/trace.h"

/* Hidden: calls and address loads go direct, not through the GOT. */
#pragma GCC visibility push(hidden)

/* --------------------------------------------------------- task_alloc.c */
struct pv_task *task_alloc(struct pv_team *team, size_t extra);
void task_free(struct pv_task *t);
void task_free_chain(struct pv_task *t);
void task_unref(struct pv_task *t);

/* ----------------------------------------------------------- task_run.c */
void task_queue(struct pv_team *team, struct pv_task *t);
struct pv_task *task_complete(struct pv_task *t, bool keep, bool handoff);
/* The out-of-line halves of the shared task sites below. */
__attribute__((noinline)) void run_fn_observed(struct pv_task *prior, struct pv_task *t,
                                               void (*fn)(void *), void *arg);
__attribute__((noinline, cold)) void task_create_observed(struct pv_task *t, bool undeferred,
                                                          unsigned flags, void **depend,
                                                          void *body);
__attribute__((noinline, cold)) void task_end_observed(struct pv_task *t, struct pv_task *next);
/* Run t; returns a successor handed over by its completion, or NULL. */
struct pv_task *task_run_one(struct pv_thread *thr, struct pv_task *t);

/* ---------------------------------------------------------- task_wait.c */
typedef bool (*wait_done_fn)(const void *);
void wait_until(struct pv_team *team, const struct pv_task *under, wait_done_fn done,
                const void *arg);

/* -------------------------------------------------------- task_inline.c */
void run_body_cb(void *a);
void run_included(const struct pv_task_args *a);
struct pv_task *task_promote(struct pv_team *team, struct pv_task *t);
void undeferred_block_done(struct pv_task *t);
void run_undeferred(struct pv_team *team, const struct pv_task_args *a);

#pragma GCC visibility pop

/* ------------------------------------------ inline helpers of the parts */

/* The one initialiser of a new task, in two halves.  task_init_frame sets
 * the fields a running task reads: a plain undeferred task that lives in
 * its encountering frame (GOMP_task's fast path) has only these.
 * task_init_links sets the rest, which queueing, dependences and detach
 * use; task_promote sets them when it moves a frame task into a block.
 * kind, tflags and pool are each caller's; `final` is the task's (the
 * final clause, or a final parent). */
static inline void task_init_frame(struct pv_task *t, struct pv_task *parent,
                                   struct pv_team *team, bool final, int priority)
{
    t->icv = parent ? parent->icv : pv_initial_icv;
    t->parent = parent;
    t->final = final;
    t->in_final = t->final;
    t->depth = parent ? parent->depth + 1 : 1;
    t->priority = priority;
    t->team = team;
    t->arg = NULL;
    t->taskgroup = parent ? parent->taskgroup : NULL;
    t->deps = NULL;
    atomic_init(&t->cnt, PV_TASK_REF);
}

static inline void task_init_links(struct pv_task *t, void (*fn)(void *), uint32_t npred)
{
    t->fn = fn;
    atomic_init(&t->npred, npred);
    atomic_init(&t->detach, 0);
    t->dnodes = NULL;
    t->ndeps = 0;
    t->nsucc = t->succ_cap = 0;
    t->succ = NULL;
    t->next = NULL;
}

/* A task created from `a`: one count of registration in npred (see
 * pv_deps_register). */
static inline void task_init(struct pv_task *t, struct pv_task *parent,
                             struct pv_team *team, const struct pv_task_args *a)
{
    bool final = (a->flags & PV_GTF_FINAL) || (parent && parent->final);
    task_init_frame(t, parent, team, final, a->priority);
    task_init_links(t, a->fn, 1);
}

static inline bool group_done(const void *arg)
{
    const struct pv_taskgroup *tg = arg;
    return atomic_load_explicit(&tg->pending, memory_order_seq_cst) == 0;
}

static inline bool children_done(const void *arg)
{
    const struct pv_task *t = arg;
    return PV_TASK_PENDING(atomic_load_explicit(&t->cnt, memory_order_seq_cst)) == 0;
}

/* taskwait (GOMP_taskwait's body): wait for the current task's children,
 * running ready descendants meanwhile. */
static inline void pv_taskwait(void)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *t = thr->task;
    if (thr->ts.team && t && !children_done(t))
        wait_until(thr->ts.team, t, children_done, t);
}

static inline bool preds_done(const void *arg)
{
    const struct pv_task *t = arg;
    return atomic_load_explicit(&t->npred, memory_order_seq_cst) == 0;
}

static inline bool event_fulfilled(const void *arg)
{
    const struct pv_task *t = arg;
    return (atomic_load_explicit(&t->detach, memory_order_seq_cst) & PV_DETACH_FULFILLED) != 0;
}

/* References on a parent are counted only for heap parents: implicit tasks
 * are never freed (and are reinitialised at the next fork), stack tasks
 * never have deferred children. */
static inline uint64_t parent_ref(const struct pv_task *p)
{
    return p && p->kind == PV_TASK_HEAP ? PV_TASK_REF : 0;
}

static inline bool taskgroup_cancelled(const struct pv_taskgroup *tg)
{
    return tg && (atomic_load_explicit(&tg->cancelled, memory_order_relaxed) ||
                  (tg->workshare && tg->prev &&
                   atomic_load_explicit(&tg->prev->cancelled, memory_order_relaxed)));
}

/* The task sites share their one flag test with the trace points of the
 * same name: an attached tool sets a bit of its own in task_create's,
 * task_begin's and task_end's flags (ompt/observe.c), so that without a
 * tool a task pays exactly the trace tests a build without OMPT pays.
 *
 * t is initialised, not yet visible: its create event (the tool's, with the
 * dependences in depend when flags has PV_GTF_DEPEND -- tested behind the
 * flag, not ahead of it -- and the trace's, after the tool heard of it). */
static inline void task_created(struct pv_task *t, bool undeferred, unsigned flags,
                                void **depend, void *body)
{
    if (pv_trace_site_on(PV_TRACE_EV_task_create))
        task_create_observed(t, undeferred, flags, depend, body);
}

/* Run a task's body (t is current): through run_fn_observed, which traces
 * its begin and is the tool's exit frame, when either observes it. */
static inline void run_fn(struct pv_task *prior, struct pv_task *t, void (*fn)(void *), void *arg)
{
    if (pv_trace_site_on(PV_TRACE_EV_task_begin))
        run_fn_observed(prior, t, fn, arg);
    else
        fn(arg);
}

/* t's body is done and `next` is current: its end, for the tool (a frame
 * task that moved into a block ends as that block, task_resolve) and the
 * trace. */
static inline void task_ended(struct pv_task *t, struct pv_task *next)
{
    if (pv_trace_site_on(PV_TRACE_EV_task_end))
        task_end_observed(t, next);
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
            atomic_fetch_add_explicit(&t->team->task_state->open_events, 1, memory_order_relaxed);
        *(void **)a->detach = t;
        /* gcc passes the event variable as the first firstprivate word. */
        if (a->data)
            *(void **)a->data = t;
    }
}

/* Run the body of t, a task that lives in this frame, as the current task.
 * The caller has reported its creation (task_created) and makes a parent
 * current again. */
static inline void run_in_frame(struct pv_thread *thr, struct pv_task *parent, struct pv_task *t,
                                void (*fn)(void *), void *arg)
{
    thr->task = t;
    run_fn(parent, t, fn, arg);
}

static inline struct pv_task *task_resolve(struct pv_task *t)
{
    if (t && t->kind == PV_TASK_STACK && (t->tflags & PV_TF_PROMOTABLE) && t->arg)
        return t->arg;
    return t;
}

/* After run_in_frame, for a promotable task u on this stack: the parent
 * may have moved into a block meanwhile, and so may u (then its block, in
 * u->arg, is what ends). */
static inline void promotable_end(struct pv_thread *thr, struct pv_task *parent, struct pv_task *u)
{
    thr->task = task_resolve(parent);
    task_ended(u, thr->task);
    if (u->arg)
        undeferred_block_done(u->arg);
}

static inline void task_run(struct pv_thread *thr, struct pv_task *t)
{
    do
        t = task_run_one(thr, t);
    while (t);
}

#endif
