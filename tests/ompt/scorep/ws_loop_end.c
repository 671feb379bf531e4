/* Score-P's critical probe (missing_ws_loop_end): ompt_callback_work is
 * answered ompt_set_always, and a worksharing loop with the default
 * schedule ends with a work end event.  gcc schedules such a loop inline
 * (no runtime call), so with gcc only the first part can hold. */
#define PROBE_NAME "scorep_ws_loop_end"
#define PROBE_WORK_END "loop"
#include "probe.h"

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
