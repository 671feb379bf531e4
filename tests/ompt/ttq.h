/* Queries over the recording tool's log (tt.h) for the construct tests.
 * A test resets the log, runs a construct, waits until the events it
 * expects have all been recorded (workers end their implicit tasks after
 * the primary thread has left the region), then checks them. */
#ifndef PVOMP_TTQ_H
#define PVOMP_TTQ_H

#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pvomp_check.h"
#include "tt.h"

#define ANY -1

/* Does e match type and endpoint (ANY: any) and kind (ANY: any)? */
static inline int ttq_is(const struct tt_event *e, int type, int endpoint, int kind)
{
    return e->type == type && (endpoint == ANY || e->endpoint == endpoint) &&
           (kind == ANY || e->kind == kind);
}

static inline size_t ttq_count(int type, int endpoint, int kind)
{
    size_t n = 0;
    for (size_t i = 0; i < tt_count(); i++)
        n += ttq_is(tt_get(i), type, endpoint, kind);
    return n;
}

/* The k-th (from 0) matching event, or NULL. */
static inline const struct tt_event *ttq_nth(int type, int endpoint, int kind, size_t k)
{
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (ttq_is(e, type, endpoint, kind) && k-- == 0)
            return e;
    }
    return NULL;
}

/* The id of the implicit task last begun on `thread` (0: none in the log). */
static inline uint64_t ttq_implicit_of(uint64_t thread)
{
    uint64_t id = 0;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (ttq_is(e, ompt_callback_implicit_task, ompt_scope_begin, ANY) && e->thread == thread)
            id = e->task;
    }
    return id;
}

static inline void ttq_dump(const char *what);

/* Wait until at least n matching events are in the log.  Events that never
 * come are a failure, reported after a minute of waiting (a guard against a
 * hang, not a timing check: the events normally arrive within microseconds). */
static inline void ttq_wait(int type, int endpoint, int kind, size_t n)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (ttq_count(type, endpoint, kind) < n) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > 60) {
            ttq_dump("missing events");
            fprintf(stderr, "FAIL: waited for %zu events %s (endpoint %d, kind %d), have %zu\n", n,
                    tt_name(type), endpoint, kind, ttq_count(type, endpoint, kind));
            exit(1);
        }
        usleep(50);
    }
}

/* Print the log (for a failing test's output). */
static inline void ttq_dump(const char *what)
{
    fprintf(stderr, "---- log: %s\n", what);
    tt_dump(stderr);
}

#define TCHECK(cond)                                                                     \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            ttq_dump(#cond);                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* The calling thread's current task and innermost region ids, through the
 * tool's lookup (for comparisons with the log). */
static inline uint64_t ttq_task_id(int level)
{
    ompt_get_task_info_t f = (ompt_get_task_info_t)tt_lookup()("ompt_get_task_info");
    ompt_data_t *task = NULL;
    int flags, num;
    return f(level, &flags, &task, NULL, NULL, &num) == 2 && task ? task->value : 0;
}

/* The calling thread, not yet an OpenMP thread, becomes one: pvomp (as
 * libomp) begins a native thread -- the program's initial thread included
 * -- at its first construct or omp_* routine that needs its state, not
 * when the tool is initialized (docs/ompt.md).  Checks that the thread has
 * no task before omp_get_num_threads, and that the call logs its
 * thread_begin (ompt_thread_initial) and then its initial task's begin;
 * returns the initial task's id. */
static inline uint64_t ttq_begin_initial_thread(void)
{
    long me = syscall(SYS_gettid);
    TCHECK(ttq_task_id(0) == 0);
    for (size_t i = 0; i < tt_count(); i++)
        TCHECK(tt_get(i)->tid != me);
    size_t from = tt_count();
    TCHECK(omp_get_num_threads() == 1);
    uint64_t task = ttq_task_id(0);
    TCHECK(task != 0);
    const struct tt_event *tb = NULL, *ib = NULL;
    for (size_t i = from; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->tid != me)
            continue;
        if (ttq_is(e, ompt_callback_thread_begin, ANY, ompt_thread_initial))
            tb = e;
        else if (ttq_is(e, ompt_callback_implicit_task, ompt_scope_begin, ANY) && e->task == task)
            ib = e;
    }
    TCHECK(tb && ib && tb->seq < ib->seq && ib->flags == ompt_task_initial);
    TCHECK(ttq_task_id(0) == task);   /* once */
    return task;
}

/* The calling thread's current task's exit frame (NULL if none). */
static inline void *ttq_exit_frame(void)
{
    ompt_get_task_info_t f = (ompt_get_task_info_t)tt_lookup()("ompt_get_task_info");
    ompt_frame_t *frame = NULL;
    int flags, num;
    return f(0, &flags, NULL, &frame, NULL, &num) == 2 && frame ? frame->exit_frame.ptr : NULL;
}

static inline uint64_t ttq_parallel_id(int level)
{
    ompt_get_parallel_info_t f = (ompt_get_parallel_info_t)tt_lookup()("ompt_get_parallel_info");
    ompt_data_t *par = NULL;
    int size;
    return f(level, &par, &size) == 2 && par ? par->value : 0;
}

/* Is p inside the program's own text (not in pvomp, not in the tool)? */
#include <dlfcn.h>
static inline int ttq_in_program(const void *p)
{
    Dl_info a, b;
    if (!p || !dladdr(p, &a) || !dladdr((void *)ttq_in_program, &b))
        return 0;
    return a.dli_fbase == b.dli_fbase;
}

#endif
