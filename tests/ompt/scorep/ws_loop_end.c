/* Score-P's critical probe (missing_ws_loop_end): ompt_callback_work is
 * answered ompt_set_always, and a worksharing loop with the default
 * schedule ends with a work end event.  gcc schedules such a loop inline
 * (no runtime call), so with gcc only the first part can hold. */
#define PROBE_NAME "scorep_ws_loop_end"
#include "probe.h"

static int work_ended;

static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                    ompt_data_t *task, uint64_t count, const void *codeptr)
{
    (void)type, (void)parallel, (void)task, (void)count, (void)codeptr;
    if (endpoint == ompt_scope_end)
        __atomic_store_n(&work_ended, 1, __ATOMIC_RELAXED);
}

static void probe_register(void)
{
    PROBE_REGISTER(ompt_callback_work, on_work);
}

static const char *probe_verdict(void)
{
    return work_ended ? NULL : "no work end event for the loop";
}

int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 1; i < 5; i++)
            probe_use(i);
    }
    if (probe_initialized)
        probe_finalize_tool();
    return probe_not_finalized();
}
