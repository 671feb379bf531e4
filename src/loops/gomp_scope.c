/* libgomp's entry point of the scope construct (OpenMP 5.1), for a scope
 * with task reductions; they end in GOMP_workshare_task_reduction_unregister
 * (src/tasks/gomp_task_reduction.c). */
#include <stdint.h>

#include "runtime/task_internal.h"

/* scope with task reductions: treated as a worksharing construct only to
 * agree on who allocates; gcc emits the barrier and the unregister call. */
PV_EXPORT void GOMP_scope_start(uintptr_t *reductions)
{
    if (pv_ws_start())
        pv_ws_init_done();
    pv_task_ws_reductions(reductions);
    pv_ws_end_nowait();
}
