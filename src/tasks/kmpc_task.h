/* Explicit tasks through libomp's ABI: what kmpc_task.c shares with the
 * taskloop, task reduction and detach code. */
#ifndef PV_KMPC_TASK_H
#define PV_KMPC_TASK_H

#include "abi/kmpc.h"

typedef kmp_int32 (*kmp_routine_entry_t)(kmp_int32 gtid, void *task);

/* clang's kmp_task_t header; the privates follow it.  A taskloop's task
 * continues with its bounds (lb, ub, st, liter, reductions). */
typedef struct {
    void *shareds;
    kmp_routine_entry_t routine;
    kmp_int32 part_id;
    kmp_routine_entry_t destructors; /* data1 */
    kmp_int32 priority;              /* data2 */
} kmp_task_t;

/* libomp's kmp_tasking_flags_t bits that clang sets. */
enum {
    KMP_TASK_TIED = 1u << 0,
    KMP_TASK_FINAL = 1u << 1,
    KMP_TASK_MERGED_IF0 = 1u << 2,
    KMP_TASK_DESTRUCTORS = 1u << 3,
    KMP_TASK_PRIORITY = 1u << 5,
    KMP_TASK_DETACHABLE = 1u << 6,
};

/* A detachable task's event (what __kmpc_task_allow_completion_event hands
 * out): GOMP_task (or, for an if(0) task, task_begin_if0) stores pvomp's
 * own event into `gomp` when the task starts; omp_fulfill_event@VERSION
 * fulfils that one.  The task's block lives until its body has ended and
 * its event is fulfilled, as libomp's task (the program may still read the
 * task's privates, the event among them): the later of the two frees the
 * block and this event (`ends`: PV_KMPC_BODY_ENDED | PV_KMPC_FULFILLED). */
struct pv_kmpc_event {
    void *_Atomic gomp;
    _Atomic unsigned ends;
    kmp_task_t *task;
};
enum { PV_KMPC_BODY_ENDED = 1u, PV_KMPC_FULFILLED = 2u };

/* The task whose routine this thread runs (kmpc_task.c).  clang splits an
 * untied task at its scheduling points: the routine re-submits its own
 * kmp_task_t (part_id advanced) and returns; the re-submission only sets
 * `again`, and the routine is called once more for its next part. */
struct pv_kmpc_running {
    kmp_task_t *task;
    int again;
    struct pv_kmpc_running *outer; /* frames nest: a part may run other tasks */
};

/* Before the header, what pvomp keeps of the allocation: its flags, the
 * sizes (a taskloop copies the whole block), a detachable task's event, an
 * if(0) task's pvomp task and running frame between task_begin_if0 and
 * task_complete_if0. */
struct pv_kmpc_task_block {
    kmp_int32 flags;
    size_t task_bytes;    /* header + privates, rounded up to 16 */
    size_t shareds_bytes; /* the shared variables' pointers, after them */
    struct pv_kmpc_event *event;
    struct pv_task *if0;
    struct pv_kmpc_running if0_run;
    bool hidden_helper;                  /* a target task: runs on a hidden helper thread */
    struct pv_kmpc_task_block *helper_next; /* the helpers' queue (kmpc_hidden.c) */
    _Alignas(16) kmp_task_t task;
};

static inline struct pv_kmpc_task_block *pv_kmpc_block_of(kmp_task_t *t)
{
    return (struct pv_kmpc_task_block *)((char *)t - offsetof(struct pv_kmpc_task_block, task));
}

/* Hidden helper threads (kmpc_hidden.c): queue a submitted target task's
 * block for them; they run its routine, end it and fulfil its event. */
void pv_kmpc_hidden_post(struct pv_kmpc_task_block *b);
/* omp_fulfill_event@VERSION (kmpc_task.c): fulfils and frees ev. */
void pv_kmp_omp_fulfill_event(struct pv_kmpc_event *ev);
struct pv_kmpc_event *__kmpc_task_allow_completion_event(ident_t *loc, kmp_int32 gtid,
                                                         kmp_task_t *task);
kmp_task_t *__kmpc_omp_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                  size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                  kmp_routine_entry_t task_entry);

/* Hand a task to GOMP_task (depend: a GOMP depend array or NULL). */
void pv_kmpc_task_submit(kmp_task_t *t, void **depend);
/* A copy of a task's whole block, shareds pointer moved into the copy. */
kmp_task_t *pv_kmpc_task_clone(kmp_task_t *t);
/* Free a task that never runs, after its destructors (a taskloop's pattern). */
void pv_kmpc_task_discard(kmp_task_t *t);
/* A task's body has ended: its destructors run, and its block is freed
 * (a detached task's: once its event is fulfilled too). */
void pv_kmpc_task_ended(kmp_task_t *t);

/* Taskgroup nesting, for the task reductions (kmpc_taskred.c): called by
 * __kmpc_taskgroup after it starts, __kmpc_end_taskgroup after it waited. */
void pv_kmpc_taskred_enter(void);
void pv_kmpc_taskred_leave(void);

#endif
