/* Explicit tasks by their creation site (tasks.c), for the analysis. */
#ifndef PVOMP_TRACE_TASKS_H
#define PVOMP_TRACE_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "idmap.h"
#include "log.h"

/* Explicit tasks, by where they were created: task_create's fn (the body)
 * and codeptr_ra (the program's call that created it; 0 when not known).
 * sites[0] stands for tasks whose task_create is not in the log. */
struct tr_task_site {
    uint64_t fn, ra;
    uint64_t instances, total, max;     /* task_begin .. task_end, ns */
    uint64_t *ran;                      /* bit per thread (tr_analysis.thr) that ran one */
};
struct tr_tasks {
    struct tr_task_site *sites;         /* [0]: tasks created before the log */
    size_t nsites, sites_cap;
    struct tr_idmap pending;            /* created, not yet begun: task -> site */
};
/* task_create maps its task to a site; task_begin takes the task's site (0:
 * created before the log); a finished run counts (thr: one of nthr threads). */
void tr_task_created(struct tr_tasks *t, const struct tr_rec *r);
uint32_t tr_task_begun(struct tr_tasks *t, uint64_t task);
void tr_task_ran(struct tr_tasks *t, size_t nthr, uint32_t site, uint32_t thr, uint64_t ns);
void tr_tasks_free(struct tr_tasks *t);

#endif
