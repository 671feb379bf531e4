/* Regions and tasks of the calling thread, from the inside out.
 * (First cut: the initial task and its implicit parallel region.) */
#include "ompt/inquiry.h"
#include "runtime/internal.h"

bool pv_ompt_region_at(int level, struct pv_ompt_region *r)
{
    if (level != 0 || pv_thr.ts.team)
        return false;
    r->parallel = &pv_ompt_thr.initial_parallel.data;
    r->team_size = 1;
    return true;
}

struct pv_ompt_task *pv_ompt_task_at(int level)
{
    if (level != 0 || pv_thr.ts.team)
        return NULL;
    return &pv_ompt_thr.initial;
}
