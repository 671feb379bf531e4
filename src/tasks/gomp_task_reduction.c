/* libgomp's entry points of task reductions: taskgroup task_reduction,
 * in_reduction's remap, reduction(task, ...) on parallel and on the
 * worksharing constructs (scope's start: src/loops/gomp_scope.c).  The maps and
 * the private blocks are the runtime's (src/runtime/task_reduction.c). */
#include <stdint.h>

#include "runtime/barrier_site.h"
#include "runtime/task_internal.h"

PV_EXPORT void GOMP_taskgroup_reduction_register(uintptr_t *data)
{
    pv_taskgroup_reduction_register(data);
}

PV_EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t *data)
{
    pv_task_reduction_unregister(data);
}

PV_EXPORT void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs)
{
    pv_task_reduction_remap(cnt, cntorig, ptrs);
}

PV_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data,
                                            unsigned num_threads, unsigned flags)
{
    return pv_parallel_reductions(fn, data, num_threads, flags);
}

/* The construct's taskgroup ends and the reductions are freed (the
 * runtime's), then the barrier, unless the construct was cancelled. */
PV_EXPORT void GOMP_workshare_task_reduction_unregister(bool cancelled)
{
    pv_task_ws_reductions_end();
    if (!cancelled)
        pv_barrier_at(PV_BARRIER_OTHER, 0, false);
}
