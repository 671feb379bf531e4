/* Score-P's remediable probe missing_work_sections_end: a sections
 * construct (here orphaned, outside any parallel region) ends with a work
 * end event. */
#define PROBE_NAME "scorep_sections_end"
#include "probe.h"

static int ended;

static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                    ompt_data_t *task, uint64_t count, const void *codeptr)
{
    (void)type, (void)parallel, (void)task, (void)count, (void)codeptr;
    if (endpoint == ompt_scope_end)
        ended = 1;
}

static void probe_register(void)
{
    PROBE_REGISTER(ompt_callback_work, on_work);
}

static const char *probe_verdict(void)
{
    return ended ? NULL : "no work end event for the sections";
}

int main(void)
{
#pragma omp sections
    {
#pragma omp section
        probe_use(42);
    }
    return PROBE_NOT_FINALIZED;   /* the runtime's finalization ends the program first */
}
