/* if(0) tasks and taskyield as clang compiles them (__kmpc_omp_task_begin_if0,
 * the program's call of the task routine, __kmpc_omp_task_complete_if0;
 * __kmpc_omp_taskyield), with libomp's semantics: the if(0) task is a task
 * of its own while its body runs (its task info, its children); an untied
 * one runs all its parts before the construct ends; a detached one whose
 * event is fulfilled after its body stays incomplete (the taskwait waits
 * for it) and its privates stay readable until then; taskyield runs a ready
 * task.  The tool (this program) checks the events libomp gives. */
#define _GNU_SOURCE
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "kmpc_tool.h"
#include "pvomp_check.h"
#include "omp_test.h"

static ompt_get_task_info_t get_task_info;
static int undeferred_created, yield_switches, detached_ends, late_fulfils;

static void on_task_create(ompt_data_t *parent, const ompt_frame_t *frame, ompt_data_t *task,
                           int flags, int deps, const void *codeptr)
{
    (void)parent, (void)frame, (void)task, (void)deps, (void)codeptr;
    if ((flags & ompt_task_explicit) && (flags & ompt_task_undeferred))
        TEST_INC(&undeferred_created);
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next)
{
    (void)prior, (void)next;
    if (status == ompt_task_yield)
        TEST_INC(&yield_switches);
    if (status == ompt_task_detach)
        TEST_INC(&detached_ends);
    if (status == ompt_task_late_fulfill)
        TEST_INC(&late_fulfils);
}

static int set_ok = 1;

static int tool_init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    set_ok &= set(ompt_callback_task_create, (ompt_callback_t)on_task_create) == ompt_set_always;
    set_ok &= set(ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule) ==
              ompt_set_always;
    return get_task_info != NULL;
}

KMPC_TOOL(tool_init)

static int task_type(int level)
{
    int type = 0;
    get_task_info(level, &type, NULL, NULL, NULL, NULL);
    return type;
}

int main(void)
{
    volatile int no = 0;
    int own_type = 0, parent_type = 0, child = 0, child_seen = 0;
    int parts = 0, order_ok = 1;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        /* its own task: task info, and its taskwait is for its child */
#pragma omp task if (no) shared(own_type, parent_type, child, child_seen)
        {
            own_type = task_type(0);
            parent_type = task_type(1);
#pragma omp task shared(child)
            TEST_STORE(&child, 1);
#pragma omp taskwait
            child_seen = TEST_LOAD(&child);
        }
        /* untied: every part, in order, before the construct ends */
#pragma omp task if (no) untied shared(parts, order_ok)
        {
            order_ok &= parts++ == 0;
#pragma omp taskyield
            order_ok &= parts++ == 1;
#pragma omp task
            ;
            order_ok &= parts++ == 2;
#pragma omp taskwait
            order_ok &= parts++ == 3;
        }
        CHECK(parts == 4 && order_ok);
    }
    CHECK((own_type & ompt_task_explicit) && (own_type & ompt_task_undeferred));
    CHECK(parent_type & ompt_task_implicit);
    CHECK(child_seen == 1);

    /* detached, fulfilled after its body by a later task: the body's end
     * does not wait for the event, the taskwait does, and the task's
     * private event is still there to be read (task_late_fulfill.c) */
    int fulfilled = 0, body_done = 0, early = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        omp_event_handle_t ev, *evp = NULL;
#pragma omp task detach(ev) if (no) shared(evp, body_done)
        {
            evp = &ev;
            body_done = 1;
        }
        CHECK(body_done == 1 && TEST_LOAD(&fulfilled) == 0);
        omp_event_handle_t copy = *evp;
#pragma omp task firstprivate(copy) shared(fulfilled)
        {
            TEST_STORE(&fulfilled, 1);
            omp_fulfill_event(copy);
        }
#pragma omp taskwait
        CHECK(TEST_LOAD(&fulfilled) == 1);
        /* fulfilled by its own body: complete at its end */
        omp_event_handle_t ev2;
#pragma omp task detach(ev2) if (no) shared(early)
        {
            early = 1;
            omp_fulfill_event(ev2);
        }
        CHECK(early == 1);
    }
    CHECK(detached_ends == 1 && late_fulfils == 1);

    /* taskyield runs a ready task here: the other thread is held in W */
    int w_started = 0, release = 0, t_done = 0, t_thread = -1;
#pragma omp parallel num_threads(2)
#pragma omp master
    {
#pragma omp task shared(w_started, release)
        {
            TEST_STORE(&w_started, 1);
            while (!TEST_LOAD(&release))
                ;
        }
        while (!TEST_LOAD(&w_started))
            ;
#pragma omp task shared(t_done, t_thread)
        {
            t_thread = omp_get_thread_num();
            TEST_STORE(&t_done, 1);
        }
#pragma omp taskyield
        CHECK(TEST_LOAD(&t_done) == 1 && t_thread == 0);
        TEST_STORE(&release, 1);
    }
    CHECK(set_ok);
    CHECK(yield_switches >= 1);
    CHECK(undeferred_created >= 4);
    printf("kmpc_if0: ok\n");
    return 0;
}
