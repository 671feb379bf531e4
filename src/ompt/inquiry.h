/* Walking the calling thread's regions and tasks for the inquiry entry
 * points (walk.c). */
#ifndef PV_OMPT_INQUIRY_H
#define PV_OMPT_INQUIRY_H

#include <stdbool.h>

#include "ompt/ompt.h"

struct pv_ompt_region {
    ompt_data_t *parallel;   /* the tool's parallel data */
    unsigned team_size;
};

/* The parallel region `level` levels out from the current task's innermost
 * one (0 = innermost); false when there is none. */
bool pv_ompt_region_at(int level, struct pv_ompt_region *r);
/* The task `level` ancestors up from the current task (0 = current). */
struct pv_ompt_task *pv_ompt_task_at(int level);

#endif
