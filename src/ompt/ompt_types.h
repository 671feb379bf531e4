/* OMPT state that the runtime keeps inside its own structures (a pv_task
 * holds a struct pv_ompt_task, a pv_team a struct pv_ompt_team).  Only
 * src/ompt reads or writes these fields; with no tool attached they are
 * never touched. */
#ifndef PV_OMPT_TYPES_H
#define PV_OMPT_TYPES_H

#include "omp-tools.h" /* include/, on every module's path (pvomp_flags) */

struct pv_task;

/* A task as the tool sees it. */
struct pv_ompt_task {
    ompt_data_t data;           /* the tool's task data */
    ompt_frame_t frame;         /* exit frame (runtime called the task), enter frame */
    ompt_data_t *parallel;      /* parallel data of the region the task binds to */
    int flags;                  /* ompt_task_flag_t; 0 = never announced to the tool */
    int thread_num;             /* team-local number of the thread that runs it */
    int saved_state;            /* the thread's state before it switched to this task */
    /* A taskloop's task: its chunk (ompt_dispatch_taskloop_chunk when it
     * begins); iterations 0 for other tasks. */
    uint64_t chunk_start, chunk_iterations;
    unsigned char clears_enter; /* undeferred: its end clears the creator's enter_frame */
    /* It activated or detected its taskgroup's cancellation (its region ends
     * there): it ends with ompt_task_cancel, as in libomp, whose tasks end
     * so whenever their taskgroup is cancelled. */
    unsigned char cancelled;
    /* The task the thread left for this one when that is not its parent (a
     * task run at a barrier or taskwait of another task): ompt_get_task_info
     * walks the thread's stack, so the ancestor of an explicit task is the
     * task it interrupted (OpenMP 5.1, 4.6.1.14; as libomp).  NULL: the parent. */
    struct pv_task *scheduler;
};

/* A parallel region as the tool sees it. */
struct pv_ompt_team {
    ompt_data_t data;           /* the tool's parallel data */
    const void *codeptr;        /* return address of the call that started it */
    int flags;                  /* ompt_parallel_flag_t given at begin */
    int combined_work;          /* combined construct: ompt_work_t of worksharing slot 0 */
    struct pv_ompt_task *encountering;  /* the task that encountered the construct */
    void (*fn)(void *);         /* the region's body (outlined function) */
    ompt_data_t *enclosing;     /* parallel data of the region around this one */
};

/* What a barrier's begin hook hands to its end hook; on the waiting
 * thread's stack (runtime/barrier.c). */
struct pv_ompt_sync {
    ompt_data_t *parallel;      /* the parallel and task data of the begin event */
    ompt_data_t *task;
    const void *codeptr;
    int kind;                   /* ompt_sync_region_t */
    int join;                   /* the region's final barrier: 1 primary, 2 worker */
    unsigned member;            /* join: the member's number */
    unsigned nthreads;          /* join: the team size the implicit task's end reports */
    struct pv_ompt_task *waiter; /* not the join: the task whose enter_frame the wait set */
};

#endif
