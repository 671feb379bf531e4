/* Explicit tasks: creation (the deferred path; GOMP_task is in gomp_task.c).  The rest of
 * tasking is cut into parts that share runtime/task_parts.h: task blocks
 * (runtime/task_alloc.c), queueing, running and completion
 * (runtime/task_run.c), waiting and taskwait (runtime/task_wait.c), included
 * and undeferred tasks (task_inline.c), taskgroups (runtime/task_group.c)
 * and detach (task_detach.c).  See task_internal.h
 * for the life of a task and docs/tasks.md for the design.
 *
 * Every task is tied: it runs start to end on the thread that began it.  A
 * thread that waits (taskwait, taskgroup end, dependences of an undeferred
 * task, an undeferred task's detach event) runs ready descendants of the
 * task it is in meanwhile, and otherwise sleeps on the team's `work` word,
 * which creators and completers bump when somebody is idle there. */
#include <stdlib.h>
#include <string.h>

#include "runtime/task_parts.h"

/* -------------------------------------------------------------- creation */

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
    task_created(t, false, a->flags, a->depend, (void *)a->fn);
    /* Count it everywhere before anybody can see it. */
    atomic_fetch_add_explicit(&parent->cnt, 1 + parent_ref(parent), memory_order_relaxed);
    if (t->taskgroup)
        atomic_fetch_add_explicit(&t->taskgroup->pending, 1, memory_order_relaxed);
    pv_task_count_created(team, thr->ts.team_id);

    if (ndeps) {
        if (!parent->deps) {
            parent->deps = pv_deps_new();
            if (parent->kind == PV_TASK_IMPLICIT && parent->team == team)
                team->task_state->impl_deps[thr->ts.team_id] = parent->deps;
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
     * at once (after their dependences).  In a one-thread team, plain tasks
     * always (as libomp: nobody else could run them earlier), but not those
     * with a priority (queued tasks run highest priority first) or with
     * dependences (a cancellation may still discard them).  Never a
     * detached task: its event may be fulfilled only by tasks created after
     * it; nor one with dependences while such an event is open (it might
     * wait for it). */
    if (deferrable && !(a->flags & PV_GTF_DETACH) &&
        ((team->nthreads == 1 && !(a->flags & (PV_GTF_DEPEND | PV_GTF_PRIORITY))) ||
         pv_task_throttled(team, 0)) &&
        (!(a->flags & PV_GTF_DEPEND) ||
         atomic_load_explicit(&team->task_state->open_events, memory_order_relaxed) == 0))
        deferrable = false;
    if (deferrable)
        spawn_deferred(team, a);
    else
        run_undeferred(team, a);
}
