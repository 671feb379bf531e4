/* libgomp's entry points of tasking: GOMP_task (with its fast path for a
 * plain task that runs at once, in this frame), GOMP_taskyield, the
 * taskgroup and the taskloop constructs.  The machinery is the runtime's
 * (src/runtime/task*.c) and this folder's (task.c, task_inline.c,
 * taskloop.c); the fast path uses its inline parts
 * (runtime/task_parts.h), so it compiles to the instructions it had there.
 * taskwait: gomp_taskwait.c; the task reductions: gomp_task_reduction.c. */
#include <stdint.h>

#include "abi/gomp.h"
#include "runtime/task_parts.h"

PV_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, bool if_clause, unsigned flags,
                         void **depend, int priority, void *detach)
{
    struct pv_thread *thr = &pv_thr;
    struct pv_team *team = thr->ts.team;
    struct pv_task *parent = thr->task;
    if (pv_unlikely(pv_gicv.cancel_var) && team && pv_task_creation_cancelled(team, parent))
        return;
    PV_TASK_SITE_ENTRY();
    /* Fast path: a plain task that runs at once (if(0), a one-thread team
     * unless it has a priority, or the throttle),
     * in this frame, with only the fields a running task needs. */
    if (pv_likely(team && !cpyfn && !(flags & (PV_GTF_DEPEND | PV_GTF_DETACH)) &&
                  !parent->final) &&
        (!if_clause || (team->nthreads == 1 && !(flags & PV_GTF_PRIORITY)) ||
         pv_task_throttled(team, 0))) {
        struct pv_task u;
        task_init_frame(&u, parent, team, (flags & PV_GTF_FINAL) != 0, 0); /* parent not final */
        u.kind = PV_TASK_STACK;
        u.tflags = PV_TF_UNDEFERRED | PV_TF_PROMOTABLE;
        task_created(&u, true, flags, NULL, (void *)fn);
        run_in_frame(thr, parent, &u, fn, data);
        promotable_end(thr, parent, &u);
        return;
    }
    struct pv_task_args a = pv_task_args_of(
        fn, data, cpyfn, arg_size, arg_align, flags,
        (flags & PV_GTF_PRIORITY) ? pv_task_priority_bound(priority) : 0);
    a.depend = depend;
    a.detach = detach;
    pv_task_spawn(&a, if_clause);
}

PV_EXPORT void GOMP_taskyield(void)
{
    /* Every task is tied and runs to its end; nothing to give way to that
     * the waiting points do not already run. */
}

PV_EXPORT void GOMP_taskgroup_start(void)
{
    pv_taskgroup_start_entry();
}

PV_EXPORT void GOMP_taskgroup_end(void)
{
    pv_taskgroup_end_entry();
}

PV_EXPORT void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                             long arg_size, long arg_align, unsigned flags,
                             unsigned long num_tasks, int priority, long start, long end,
                             long step)
{
    PV_TASK_SITE();
    uint64_t n = 0;
    if (step > 0 && start < end)
        n = ((uint64_t)end - (uint64_t)start - 1) / (uint64_t)step + 1;
    else if (step < 0 && start > end)
        n = ((uint64_t)start - (uint64_t)end - 1) / (0 - (uint64_t)step) + 1;
    pv_taskloop(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority,
             (uint64_t)start, n, (uint64_t)step,
             pv_ompt_tool() ? __builtin_return_address(0) : NULL);
}

PV_EXPORT void GOMP_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                 long arg_size, long arg_align, unsigned flags,
                                 unsigned long num_tasks, int priority,
                                 unsigned long long start, unsigned long long end,
                                 unsigned long long step)
{
    PV_TASK_SITE();
    uint64_t n = 0;
    if ((flags & PV_GTF_UP) && start < end)
        n = (end - start - 1) / step + 1;
    else if (!(flags & PV_GTF_UP) && start > end)
        n = (start - end - 1) / (0 - step) + 1;
    pv_taskloop(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, n, step,
             pv_ompt_tool() ? __builtin_return_address(0) : NULL);
}
