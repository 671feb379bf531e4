/* OMPT for clang programs: the codeptr_ra of events that pvomp's __kmpc_*
 * entry points raise through its GOMP entry points (parallel, the join
 * barrier, explicit barrier, single, taskwait, task creation, dependences'
 * taskwait, cancel) is the program's call, not an address inside the
 * runtime; and the implicit task's exit_frame is the frame that called the
 * region's body.  The tool is this program (ompt_start_tool). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "kmpc_tool.h"
#include "pvomp_check.h"
#include "omp_test.h"

/* Events seen, and those whose codeptr_ra was not in this program. */
static int parallel_begins, parallel_ends, barriers, taskwaits, singles, creates, cancels;
static int foreign;

static int in_program(const void *codeptr)
{
    Dl_info mine, theirs;
    return codeptr && dladdr((void *)in_program, &mine) && dladdr(codeptr, &theirs) &&
           mine.dli_fbase == theirs.dli_fbase;
}

static void check(const void *codeptr, int *count)
{
    if (!in_program(codeptr)) {
        Dl_info at;
        fprintf(stderr, "codeptr_ra %p outside the program (in %s, %s; event counter %p)\n",
                codeptr, codeptr && dladdr(codeptr, &at) ? at.dli_fname : "?",
                codeptr && dladdr(codeptr, &at) && at.dli_sname ? at.dli_sname : "?",
                (void *)count);
        TEST_INC(&foreign);
    }
    TEST_INC(count);
}

static void on_parallel_begin(ompt_data_t *enc, const ompt_frame_t *frame, ompt_data_t *par,
                              unsigned n, int flags, const void *codeptr)
{
    (void)enc, (void)frame, (void)par, (void)n, (void)flags;
    check(codeptr, &parallel_begins);
}

static void on_parallel_end(ompt_data_t *par, ompt_data_t *enc, int flags, const void *codeptr)
{
    (void)par, (void)enc, (void)flags;
    check(codeptr, &parallel_ends);
}

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *par,
                    ompt_data_t *task, const void *codeptr)
{
    (void)par, (void)task;
    if (ep != ompt_scope_begin)
        return;
    if (kind == ompt_sync_region_taskwait)
        check(codeptr, &taskwaits);
    /* The workers' join barrier has no codeptr (libomp's too). */
    else if (kind == ompt_sync_region_barrier_explicit ||
             (kind == ompt_sync_region_barrier_implicit_parallel && omp_get_thread_num() == 0))
        check(codeptr, &barriers);
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep, ompt_data_t *par,
                    ompt_data_t *task, uint64_t count, const void *codeptr)
{
    (void)par, (void)task, (void)count;
    if (ep == ompt_scope_begin &&
        (type == ompt_work_single_executor || type == ompt_work_single_other))
        check(codeptr, &singles);
}

static void on_task_create(ompt_data_t *enc, const ompt_frame_t *frame, ompt_data_t *task,
                           int flags, int has_deps, const void *codeptr)
{
    (void)enc, (void)frame, (void)task, (void)has_deps;
    if (flags & (ompt_task_explicit | ompt_task_taskwait))
        check(codeptr, &creates);
}

static void on_cancel(ompt_data_t *task, int flags, const void *codeptr)
{
    (void)task;
    if (flags & ompt_cancel_activated)
        check(codeptr, &cancels);
}

static ompt_get_task_info_t get_task_info;
static int set_ok = 1;

static int tool_init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    set_ok &= set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin) ==
              ompt_set_always;
    set_ok &= set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end) ==
              ompt_set_always;
    set_ok &= set(ompt_callback_sync_region, (ompt_callback_t)on_sync) != ompt_set_never;
    set_ok &= set(ompt_callback_work, (ompt_callback_t)on_work) != ompt_set_never;
    set_ok &= set(ompt_callback_task_create, (ompt_callback_t)on_task_create) ==
              ompt_set_always;
    set_ok &= set(ompt_callback_cancel, (ompt_callback_t)on_cancel) != ompt_set_never;
    return get_task_info != NULL;
}

KMPC_TOOL(tool_init)

/* The current implicit task's exit_frame is the frame of the runtime's
 * function that called this region's outlined body: its caller's frame
 * (this is built with frame pointers; noinline keeps the body's frame). */
static int bad_exit_frame;

static __attribute__((noinline)) void check_exit_frame(void *body_caller)
{
    ompt_frame_t *frame = NULL;
    if (get_task_info(0, NULL, NULL, &frame, NULL, NULL) != 2 || !frame ||
        frame->exit_frame.ptr != body_caller)
        TEST_INC(&bad_exit_frame);
}

int main(void)
{
    int x = 0;
#pragma omp parallel num_threads(2)
    {
        check_exit_frame(__builtin_frame_address(1));
#pragma omp barrier
#pragma omp single
        {
#pragma omp task depend(out : x)
            x++;
#pragma omp task depend(in : x)
            x++;
#pragma omp taskwait depend(inout : x)
#pragma omp taskwait
        }
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp cancel parallel
    }
    CHECK(set_ok);
    CHECK(x == 2);
    CHECK(parallel_begins == 2 && parallel_ends == 2);
    CHECK(barriers >= 2 + 1); /* both threads' explicit barrier, the primary's join */
    CHECK(singles == 2);
    CHECK(creates >= 2);     /* the two tasks (and the depend taskwait's, as libomp's) */
    CHECK(taskwaits >= 1);
    if (omp_get_cancellation())
        CHECK(cancels >= 1);
    CHECK(bad_exit_frame == 0);
    CHECK(foreign == 0);
    printf("kmpc_ompt_codeptr: ok (%d events)\n",
           parallel_begins + parallel_ends + barriers + singles + creates + taskwaits + cancels);
    return 0;
}
