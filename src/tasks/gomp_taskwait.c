/* libgomp's entry points of the taskwait construct: GOMP_taskwait and
 * GOMP_taskwait_depend.  The waiting is the runtime's
 * (src/runtime/task_wait.c: wait_until, pv_taskwait_depend; pv_taskwait is
 * its inline part in runtime/task_parts.h, so GOMP_taskwait compiles to the
 * instructions it had there). */
#include "abi/gomp.h"
#include "runtime/task_parts.h"

/* Out of line, so that GOMP_taskwait without a tool saves no registers. */
static __attribute__((noinline)) void taskwait_under_tool(const void *codeptr)
{
    pv_ompt_sync_begin(ompt_sync_region_taskwait, codeptr);
    pv_taskwait();
    pv_ompt_sync_end(ompt_sync_region_taskwait, codeptr);
}

/* GOMP_taskwait jumps to one of these (PV_OMPT_SWITCHED): without a tool
 * it makes no test of its own. */
static void taskwait_told(void)
{
    PV_OMPT_FRAME();
    taskwait_under_tool(pv_ompt_entry_ra());
}

PV_OMPT_SWITCHED(GOMP_taskwait, pv_taskwait, taskwait_told)

/* The tool's codeptr and frame are this entry's, taken before the runtime
 * decides whether there is anything to do. */
PV_EXPORT void GOMP_taskwait_depend(void **depend)
{
    PV_OMPT_ENTRY();
    pv_taskwait_depend(depend);
}

static void no_work(void *arg)
{
    (void)arg;
}

/* taskwait depend(...) nowait (OpenMP 5.1; GCC 13's GOMP_5.1.1): the
 * construct acts as a task with an empty body and these dependences, so
 * later tasks that depend on the same storage wait for what was before it;
 * the encountering task does not wait. */
PV_EXPORT void GOMP_taskwait_depend_nowait(void **depend)
{
    PV_TASK_SITE_OUTER_BEGIN();   /* the task's site, for the log and tools: this call's */
    PV_OMPT_GIVE();
    GOMP_task(no_work, NULL, NULL, 0, 1, true, PV_GTF_DEPEND, depend, 0, NULL);
    PV_OMPT_GIVEN_DROP();
    PV_TASK_SITE_OUTER_END();
}
