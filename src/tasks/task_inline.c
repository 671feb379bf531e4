/* Tasks that run in their encountering frame: included tasks, undeferred
 * tasks, and the promotion of a frame task into a task block when it creates
 * a task that may outlive it.  Part of task.c (see runtime/task_parts.h). */
#include <string.h>

#include "runtime/task_parts.h"

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

void run_body_cb(void *a)
{
    run_body(a);
}

/* After run_in_frame, for a task that cannot have moved (included, or in a
 * block from the start): the parent is current again, a detached task waits
 * for its event, and the task ends for the tool. */
static void frame_task_end(struct pv_thread *thr, struct pv_task *parent, struct pv_task *t)
{
    trace_task_end(t);
    thr->task = parent;
    if (t->tflags & PV_TF_DETACH)
        wait_until(t->team, parent, event_fulfilled, t);
    if (pv_ompt_tool())
        pv_ompt_task_end(t, 0, parent);
}

/* Run fn in a task that lives in this frame: no team, or an included task
 * of a final task.  Nothing it creates can be deferred. */
void run_included(const struct pv_task_args *a)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_task *parent = thr->task;
    struct pv_task t;
    task_init(&t, parent, thr->ts.team, a);
    t.kind = PV_TASK_STACK;
    t.tflags = PV_TF_UNDEFERRED;
    set_event(a, &t);
    task_created(&t, true, a->flags, NULL, (void *)a->fn);
    run_in_frame(thr, parent, &t, run_body_cb, (void *)a);
    frame_task_end(thr, parent, &t);
    if (t.deps)
        pv_deps_free(t.deps);
}

/* A plain undeferred task runs in its encountering frame.  Should it create
 * a task that may outlive it (a deferred child, a task with dependences or
 * an event), it first moves into a task block, and so do its in-frame
 * ancestors: the block (kept in the frame's `arg`) becomes the current task
 * and the frames find it when they resume. */
struct pv_task *task_promote(struct pv_team *team, struct pv_task *t)
{
    if (!t || t->kind != PV_TASK_STACK || !(t->tflags & PV_TF_PROMOTABLE))
        return t;
    if (t->arg)
        return t->arg;
    struct pv_task *p = task_promote(team, t->parent);
    struct pv_task *h = task_alloc(team, 0);
    uint8_t cached = h->tflags & PV_TF_CACHED;
    void *pool = h->pool;
    /* A frame task has only the fields of task_init_frame (see GOMP_task);
     * the rest starts empty. */
    memcpy((void *)h, (const void *)t, sizeof *h);
    h->kind = PV_TASK_HEAP;
    h->tflags = (uint8_t)((t->tflags & ~PV_TF_PROMOTABLE) | cached);
    h->pool = pool;
    h->parent = p;
    h->arg = NULL;
    task_init_links(h, NULL, 0);
    t->arg = h;
    if (pv_thr.task == t)
        pv_thr.task = h;
    return h;
}

/* An undeferred task in a block is done: children still alive keep it, and
 * it then keeps its parent (which it did not reference while it ran: the
 * parent was suspended in this very call). */
void undeferred_block_done(struct pv_task *t)
{
    if (atomic_load_explicit(&t->cnt, memory_order_acquire) == PV_TASK_REF) {
        task_free(t);
        return;
    }
    if (parent_ref(t->parent))
        atomic_fetch_add_explicit(&t->parent->cnt, PV_TASK_REF, memory_order_relaxed);
    task_unref(t);
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
    bool dep_wait = (a->flags & PV_GTF_DEPEND) != 0;
    if (pv_ompt_tool()) {
        if (dep_wait)
            pv_ompt_dep_wait_init(t, a->depend);
        else
            pv_ompt_task_create(t, true, a->flags, NULL);
    }
    if (ndeps) {
        t->dnodes = (struct pv_dep_node *)(t + 1);
        pv_deps_register(parent, t, a->depend);
        if (atomic_fetch_sub_explicit(&t->npred, 1, memory_order_seq_cst) != 1)
            wait_until(team, parent, preds_done, t);
    }
    if (dep_wait && pv_ompt_tool())
        pv_ompt_dep_wait_done(t, a->flags);
    trace_task_create(t, (void *)a->fn, a->flags, (void *)thr->task_site);
    run_in_frame(thr, parent, t, run_body_cb, (void *)a);
    frame_task_end(thr, parent, t);
    if (t->ndeps)
        (void)pv_deps_release(t, false);
    undeferred_block_done(t);
}

void run_undeferred(struct pv_team *team, const struct pv_task_args *a)
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
    task_created(&u, true, a->flags, NULL, (void *)a->fn);
    run_in_frame(thr, parent, &u, run_body_cb, (void *)a);
    promotable_end(thr, parent, &u);
}
