/* Tasks, first cut: every task is executed immediately by the encountering
 * thread (an undeferred schedule, which the specification allows), so no
 * task is ever queued and team->task_count stays zero.  The tasking issue
 * replaces this file with deferred tasks, dependences and work stealing. */
#include <string.h>

#include "runtime/internal.h"

void pv_task_team_init(struct pv_team *team)
{
    (void)team;
}

bool pv_task_run_pending(struct pv_team *team)
{
    (void)team;
    return false;
}

bool pv_taskgroup_cancel(bool query_only)
{
    (void)query_only;
    return false;
}

/* GOMP_task flag bits as gcc 12 passes them. */
enum {
    PV_TASK_FLAG_UNTIED = 1,
    PV_TASK_FLAG_FINAL = 2,
    PV_TASK_FLAG_MERGEABLE = 4,
    PV_TASK_FLAG_DEPEND = 8,
    PV_TASK_FLAG_PRIORITY = 32,
    PV_TASK_FLAG_DETACH = 512,
};

PV_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, bool if_clause, unsigned flags,
                         void **depend, int priority, void *detach)
{
    (void)if_clause;
    (void)depend;
    (void)priority;
    if (flags & PV_TASK_FLAG_DETACH)
        pv_unsupported("GOMP_task with detach");
    struct pv_thread *thr = &pv_thr;
    struct pv_task task;
    memset(&task, 0, sizeof task);
    struct pv_task *parent = thr->task;
    task.icv = *pv_icv_get();
    task.parent = parent;
    task.final = (flags & PV_TASK_FLAG_FINAL) || (parent && parent->final);
    (void)detach;
    thr->task = &task;
    if (cpyfn) {
        char buf[arg_size + arg_align - 1];
        char *arg = (char *)(((uintptr_t)buf + arg_align - 1) & ~(uintptr_t)(arg_align - 1));
        cpyfn(arg, data);
        fn(arg);
    } else {
        fn(data);
    }
    thr->task = parent;
}

PV_EXPORT void GOMP_taskwait(void)
{
}

PV_EXPORT void GOMP_taskyield(void)
{
}

PV_EXPORT void GOMP_taskgroup_start(void)
{
}

PV_EXPORT void GOMP_taskgroup_end(void)
{
}
