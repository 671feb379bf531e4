/* The analysis (analyze.c): the intervals the runtime events describe,
 * per thread, parallel regions by outlined function, task sites. */
#ifndef PVOMP_TRACE_ANALYZE_H
#define PVOMP_TRACE_ANALYZE_H

#include <stdint.h>

#include "idmap.h"
#include "log.h"
#include "tasks.h"

/* Intervals that the runtime events describe, per thread (analyze.c). */
enum tr_iv {
    IV_REGION,      /* primary thread: parallel_begin .. parallel_end */
    IV_PARALLEL,    /* every member: implicit_task_begin .. _end */
    IV_BARRIER,
    IV_SPIN,        /* wait_begin/wake .. wait_block/end */
    IV_BLOCK,       /* wait_block .. wait_wake/end */
    IV_CRIT_WAIT, IV_CRIT,
    IV_LOCK_WAIT, IV_LOCK,
    IV_TASK, IV_TARGET,
    IV_PHANTOM,     /* process-wide: phantoms > 0 */
    IV__COUNT
};
extern const char *const tr_iv_name[IV__COUNT];

struct tr_thr {
    uint32_t tid;
    uint64_t first_ts, last_ts;
    uint64_t records, dropped;
    uint64_t t[IV__COUNT];              /* time in each kind of interval */
    uint64_t n[IV__COUNT];
    /* open intervals */
    uint64_t region_start[8];
    unsigned region_depth;
    uint64_t itask_start, itask_barrier;
    void *itask_team;
    unsigned itask_num;
    uint64_t barrier_start;
    uint64_t spin_start, block_start;
    struct tr_sect {                    /* critical sections, locks */
        uint64_t wait_start, start;     /* _enter; the outermost acquisition */
        unsigned depth;                 /* sections of the kind held */
    } crit, lock;
    uint64_t task_start[16], target_start[16];
    uint32_t task_site[16];             /* the running tasks' sites (tr_analysis.tasks) */
    unsigned task_depth, target_depth;
};

struct tr_region_fn {                   /* parallel regions, by outlined function */
    uint64_t fn;
    uint64_t instances, wall, work;
    double imb_sum, imb_max;
    unsigned max_threads;
};

typedef void (*tr_iv_fn)(void *ctx, uint32_t thr, enum tr_iv kind, uint64_t start, uint64_t end);

struct tr_analysis {
    struct tr_log *log;
    size_t nthr;                        /* streams + 1: the last is the top level */
    struct tr_thr *thr;
    uint64_t t0, t1;                    /* first and last timestamp */
    uint64_t records, dropped;
    struct tr_region_fn *fns;
    size_t nfns, fns_cap;
    struct tr_active_region *active;
    size_t nactive, active_cap;
    unsigned phantoms;
    uint64_t phantom_start, phantom_max;
    tr_iv_fn on_interval;               /* optional */
    void *ctx;
    uint64_t iv_fn;                     /* during on_interval: the region's outlined
                                           function (IV_REGION, IV_PARALLEL), or 0 */
    struct tr_tasks tasks;              /* explicit tasks by site (tasks.c) */
    uint32_t iv_site;                   /* during on_interval of IV_TASK: its site */
};
void tr_analysis_init(struct tr_analysis *a, struct tr_log *log);
void tr_analysis_add(struct tr_analysis *a, const struct tr_rec *r);
void tr_analysis_finish(struct tr_analysis *a);    /* closes open intervals */
void tr_analysis_free(struct tr_analysis *a);
/* Run a whole log through an analysis (time order). */
void tr_analysis_run(struct tr_analysis *a);

#endif
