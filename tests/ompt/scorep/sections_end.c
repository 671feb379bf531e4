/* Score-P's remediable probe missing_work_sections_end: a sections
 * construct (here orphaned, outside any parallel region) ends with a work
 * end event. */
#define PROBE_NAME "scorep_sections_end"
#define PROBE_WORK_END "sections"
#include "probe.h"

int main(void)
{
#pragma omp sections
    {
#pragma omp section
        probe_use(42);
    }
    return PROBE_NOT_FINALIZED;   /* the runtime's finalization ends the program first */
}
