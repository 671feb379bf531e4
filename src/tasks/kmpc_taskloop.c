/* taskloop through libomp's ABI.  clang builds one pattern task whose
 * kmp_task_t continues with the loop's bounds (lb, ub: inclusive, st) and
 * hands it to __kmpc_taskloop with pointers to those bounds.  The runtime
 * splits the iterations into tasks: each is a copy of the pattern's block
 * with its own bounds, task_dup (when clang passes one) copies the
 * firstprivates and sets the lastprivate flag on the copy that holds the
 * last iteration; the pattern itself never runs and is freed.
 *
 * How many tasks (libomp's rules): sched 1 = grainsize g: tc / g tasks
 * (at least 1), the iterations spread evenly, so each has g..2g-1 (with
 * the strict modifier of taskloop_5: chunks of exactly g, the last one
 * shorter); sched 2 = num_tasks n: min(n, tc) tasks spread evenly; sched 0:
 * ten tasks per thread of the team, at most tc.  if(0) runs the tasks
 * undeferred, one after the other.  Unless nogroup, the whole construct is a
 * taskgroup (clang 14 itself passes nogroup and brackets the call with
 * __kmpc_taskgroup/__kmpc_end_taskgroup).
 *
 * With a tool attached (as GOMP_taskloop reports it): the taskloop's work
 * begin/end (the trip count, the program's call as codeptr_ra) around the
 * tasks, each task created with that codeptr_ra and the entry's frame, and
 * its OpenMP 5.2 taskloop_chunk (first logical iteration, iterations) when
 * it begins. */
#include <string.h>

#include "tasks/kmpc_task.h"
#include "ompt/ompt.h"             /* pv_ompt_taskloop, pv_ompt_thr */
#include "runtime/task_internal.h" /* PV_TASK_SITE_OUTER_* */

typedef void (*task_dup_t)(kmp_task_t *dst, kmp_task_t *src, kmp_int32 lastpriv);

enum { SCHED_NONE = 0, SCHED_GRAINSIZE = 1, SCHED_NUM_TASKS = 2 };

/* The taskloop fields that follow the pattern's lower bound. */
struct bounds {
    kmp_uint64 lb, ub;
    kmp_int64 st;
    kmp_int32 liter;
};

static kmp_uint64 trip_count(kmp_uint64 lb, kmp_uint64 ub, kmp_int64 st)
{
    if (st > 0)
        return (kmp_int64)ub < (kmp_int64)lb ? 0 : (ub - lb) / (kmp_uint64)st + 1;
    if (st < 0)
        return (kmp_int64)lb < (kmp_int64)ub ? 0 : (lb - ub) / ((kmp_uint64)0 - (kmp_uint64)st) + 1;
    return 1;
}

/* The entry's call and frame, for the events (codeptr NULL: no tool). */
struct entry {
    const void *codeptr;
    void *frame;
};

#define ENTRY()                                                                          \
    (pv_ompt_tool() ? (struct entry){__builtin_return_address(0), __builtin_dwarf_cfa()} \
                    : (struct entry){NULL, NULL})

static void taskloop(kmp_task_t *task, kmp_int32 if_val, kmp_uint64 *lb, kmp_uint64 *ub,
                     kmp_int64 st, kmp_int32 nogroup, kmp_int32 sched, kmp_uint64 grainsize,
                     bool strict, task_dup_t task_dup, struct entry e)
{
    size_t off = (size_t)((char *)lb - (char *)task);
    kmp_uint64 first = *lb, last = *ub;
    kmp_uint64 tc = trip_count(first, last, st);
    if (!nogroup)
        GOMP_taskgroup_start();
    kmp_uint64 ntasks = 0, chunk = 0, extra = 0; /* tasks, iterations each, +1 for the first extra */
    if (tc > 0) {
        switch (sched) {
        case SCHED_GRAINSIZE:
            if (grainsize == 0)
                grainsize = 1;
            if (strict) {
                ntasks = (tc + grainsize - 1) / grainsize;
                chunk = grainsize;
                break;
            }
            ntasks = tc / grainsize ? tc / grainsize : 1;
            chunk = tc / ntasks, extra = tc % ntasks;
            break;
        case SCHED_NUM_TASKS:
            ntasks = grainsize == 0 ? 1 : grainsize < tc ? grainsize : tc;
            chunk = tc / ntasks, extra = tc % ntasks;
            break;
        default: {
            kmp_uint64 n = (kmp_uint64)omp_get_num_threads() * 10;
            ntasks = n < tc ? n : tc;
            chunk = tc / ntasks, extra = tc % ntasks;
        }
        }
    }
    if (e.codeptr)
        pv_ompt_taskloop(true, tc, e.codeptr);
    kmp_uint64 next = first, done = 0;
    for (kmp_uint64 k = 0; k < ntasks; k++) {
        kmp_uint64 n = chunk + (k < extra);
        if (n > tc - done)
            n = tc - done; /* strict: the last chunk is shorter */
        kmp_task_t *t = pv_kmpc_task_clone(task);
        struct bounds *b = (struct bounds *)((char *)t + off);
        done += n;
        b->lb = next;
        b->ub = next + (n - 1) * (kmp_uint64)st;
        next = b->ub + (kmp_uint64)st;
        kmp_int32 lastpriv = done == tc;
        b->liter = lastpriv;
        if (task_dup)
            task_dup(t, task, lastpriv);
        if (if_val) {
            if (e.codeptr) { /* for GOMP_task's task_create and the task's begin */
                pv_ompt_taskloop_chunk(done - n, n);
                pv_ompt_thr.given_codeptr = e.codeptr;
                pv_ompt_thr.given_frame = e.frame;
            }
            pv_kmpc_task_submit(t, NULL);
            PV_OMPT_GIVEN_DROP(); /* not taken when the task was discarded */
        } else { /* undeferred: run it here and now */
            t->routine(pv_kmpc_gtid(), t);
            pv_kmpc_task_discard(t);
        }
    }
    pv_kmpc_task_discard(task);
    if (e.codeptr)
        pv_ompt_taskloop(false, tc, e.codeptr);
    if (!nogroup)
        GOMP_taskgroup_end();
}

PV_EXPORT void __kmpc_taskloop(ident_t *loc, kmp_int32 gtid, kmp_task_t *task,
                               kmp_int32 if_val, kmp_uint64 *lb, kmp_uint64 *ub,
                               kmp_int64 st, kmp_int32 nogroup, kmp_int32 sched,
                               kmp_uint64 grainsize, void *task_dup)
{
    (void)loc, (void)gtid;
    PV_TASK_SITE_OUTER_BEGIN();
    taskloop(task, if_val, lb, ub, st, nogroup, sched, grainsize, false, (task_dup_t)task_dup,
             ENTRY());
    PV_TASK_SITE_OUTER_END();
}

/* OpenMP 5.1: modifier 1 is grainsize(strict: g) / num_tasks(strict: n). */
PV_EXPORT void __kmpc_taskloop_5(ident_t *loc, kmp_int32 gtid, kmp_task_t *task,
                                 kmp_int32 if_val, kmp_uint64 *lb, kmp_uint64 *ub,
                                 kmp_int64 st, kmp_int32 nogroup, kmp_int32 sched,
                                 kmp_uint64 grainsize, kmp_int32 modifier, void *task_dup)
{
    (void)loc, (void)gtid;
    PV_TASK_SITE_OUTER_BEGIN();
    taskloop(task, if_val, lb, ub, st, nogroup, sched, grainsize,
             modifier != 0 && sched == SCHED_GRAINSIZE, (task_dup_t)task_dup, ENTRY());
    PV_TASK_SITE_OUTER_END();
}
