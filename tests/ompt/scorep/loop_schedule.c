/* Score-P's remediable probe missing_work_loop_schedule: the work events of
 * schedule(static), (dynamic) and (guided) loops carry OpenMP 5.2's loop
 * work types (ompt_work_loop_static/_dynamic/_guided/_other).  Score-P
 * passes a runtime that sends one of them; this probe also counts which. */
#define PROBE_NAME "scorep_loop_schedule"
#include "probe.h"

static int seen[4];   /* static, dynamic, guided, other */

static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                    ompt_data_t *task, uint64_t count, const void *codeptr)
{
    (void)endpoint, (void)parallel, (void)task, (void)count, (void)codeptr;
    switch (type) {
    case ompt_work_loop_static: __atomic_store_n(&seen[0], 1, __ATOMIC_RELAXED); break;
    case ompt_work_loop_dynamic: __atomic_store_n(&seen[1], 1, __ATOMIC_RELAXED); break;
    case ompt_work_loop_guided: __atomic_store_n(&seen[2], 1, __ATOMIC_RELAXED); break;
    case ompt_work_loop_other: __atomic_store_n(&seen[3], 1, __ATOMIC_RELAXED); break;
    default: break;
    }
}

static void probe_register(void)
{
    PROBE_REGISTER(ompt_callback_work, on_work);
}

static const char *probe_verdict(void)
{
    printf("%s: loop types seen: static=%d dynamic=%d guided=%d other=%d\n", PROBE_NAME, seen[0],
           seen[1], seen[2], seen[3]);
    return seen[0] || seen[1] || seen[2] || seen[3] ? NULL : "no 5.2 loop work type";
}

int main(void)
{
#pragma omp parallel for schedule(static)
    for (unsigned i = 0; i < 100; ++i)
        probe_use((int)i);
#pragma omp parallel for schedule(dynamic)
    for (unsigned i = 0; i < 100; ++i)
        probe_use((int)i);
#pragma omp parallel for schedule(guided)
    for (unsigned i = 0; i < 100; ++i)
        probe_use((int)i);
    return PROBE_NOT_FINALIZED;   /* the runtime's finalization ends the program first */
}
