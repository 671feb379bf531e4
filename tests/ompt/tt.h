/* The recording test tool (tt_tool.c): what it records and how tests read
 * it.  The tool registers every callback, gives every thread, parallel
 * region and task a unique id (through ompt_get_unique_id), and appends one
 * record per callback, including what the inquiry entry points answer from
 * inside the callback.  Tests run OpenMP constructs, then check the log. */
#ifndef PVOMP_TT_H
#define PVOMP_TT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "omp-tools.h"

/* tt_event.type of the device events, recorded without their arguments:
 * target regions, data operations, submissions, maps, device initialize
 * and load; device unload and finalize (when the tool is finalized). */
#define TT_TARGET_EVENT (-1)
#define TT_DEVICE_END (-2)

struct tt_event {
    uint64_t seq;            /* position in the log */
    int type;                /* ompt_callbacks_t */
    int endpoint;            /* ompt_scope_endpoint_t, when the callback has one */
    int kind;                /* sync/work/mutex/dispatch kind, thread type, task status */
    int flags;               /* task/parallel/cancel flags */
    uint64_t thread;         /* id of the thread (its thread data) */
    uint64_t parallel;       /* parallel id argument (0: NULL or none) */
    uint64_t task;           /* task id argument (encountering/prior/current task) */
    uint64_t task2;          /* second task id (new task, next task) */
    uint64_t a, b;           /* requested/actual parallelism and index, count, wait id,
                                hint/impl, command/modifier, dispatch instance ... */
    const void *codeptr;     /* codeptr_ra argument */
    ompt_frame_t frame_arg;  /* encountering task's frame argument (parallel_begin, task_create) */
    long tid;                /* kernel thread id */
    /* Answers of the inquiry entry points inside the callback. */
    int state;               /* ompt_get_state */
    uint64_t wait_id;        /* its wait id */
    int q_ok;                /* ompt_get_task_info(0) and ompt_get_parallel_info(0) answered */
    uint64_t q_task;         /* current task id */
    int q_task_flags;
    int q_thread_num;
    uint64_t q_parallel;     /* innermost parallel id */
    int q_team_size;
    const ompt_frame_t *q_frame;
    ompt_frame_t q_frame_copy;
};

/* The tool's interface for tests (defined in tt_tool.c). */
int tt_initialized(void);        /* the initializer ran and returned 1 */
int tt_finalized(void);          /* the finalizer ran */
ompt_function_lookup_t tt_lookup(void);
int tt_set_result(int event);    /* what ompt_set_callback answered at initialization */
size_t tt_count(void);
const struct tt_event *tt_get(size_t i);
void tt_reset(void);             /* forget the log (call between constructs, serially) */
void tt_dump(FILE *f);
const char *tt_name(int type);
/* tt_check.c: check the invariants of the whole log; reports up to 20
 * violations on `report` and returns how many there were.  The tool runs it
 * at finalization when TT_CHECK=1 and then exits with status 70 on any. */
size_t tt_check(FILE *report);

#endif
