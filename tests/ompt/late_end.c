/* A tool whose callback for the end of a worker's implicit task takes a
 * while (100 ms): the program returns from main meanwhile, and the tool must
 * still be finalized only after that callback (OpenMP 5.1: no callback
 * after the finalizer; before the fix the finalizer ran while the worker was
 * still in it, and a callback made after it could find the table cleared).
 * The tool is in the program itself (ompt_start_tool exported, -rdynamic). */
#include <omp.h>
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "pvomp_check.h"

static atomic_int worker_begins, worker_ends, finalized;

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                             ompt_data_t *task, unsigned int team_size, unsigned int index,
                             int flags)
{
    (void)parallel, (void)task, (void)team_size;
    if (!(flags & ompt_task_implicit) || index == 0)
        return;
    if (endpoint == ompt_scope_begin) {
        atomic_fetch_add(&worker_begins, 1);
        return;
    }
    struct timespec t = { 0, 100000000 };
    nanosleep(&t, NULL);
    if (atomic_load(&finalized))
        printf("LATE: a worker's implicit task ended after the finalizer\n");
    atomic_fetch_add(&worker_ends, 1);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    return set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task) == ompt_set_always;
}

static void fini(ompt_data_t *data)
{
    (void)data;
    atomic_store(&finalized, 1);
    printf("finalize: worker implicit tasks ended %d of %d\n", atomic_load(&worker_ends),
           atomic_load(&worker_begins));
    fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    static ompt_start_tool_result_t r = { init, fini, { 0 } };
    (void)version, (void)runtime;
    return &r;
}

int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp atomic
    n++;
    CHECK(n == 2);
    printf("main returns\n");
    return 0;
}
