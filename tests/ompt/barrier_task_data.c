/* A tool in the executable (exported with -rdynamic) that stores a value
 * of its own in the task data at every barrier's sync_region begin and
 * checks that the barrier's wait and end events carry it: a tool may keep
 * per-barrier state there (LLVM's ompt/synchronization/barrier/
 * implicit_task_data.c).  The workers' end-of-region barrier is the case:
 * its end events come after the worker left the team, from a copy of the
 * implicit task's data. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "omp-tools.h"
#include "pvomp_check.h"

#define T 4
#define ROUNDS 50

static ompt_get_unique_id_t get_unique_id;
static atomic_int begins[16], good_ends[16], bad;
static int is_pvomp;

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *par,
                    ompt_data_t *task, const void *codeptr)
{
    (void)par;
    (void)codeptr;
    if (kind >= 16)
        return;
    if (endpoint == ompt_scope_begin) {
        /* the barrier's own value, with its kind in the low bits */
        task->value = get_unique_id() << 4 | (uint64_t)kind;
        atomic_fetch_add(&begins[kind], 1);
    } else if ((task->value & 15) == (uint64_t)kind && task->value >> 4) {
        atomic_fetch_add(&good_ends[kind], 1);
    } else {
        atomic_fetch_add(&bad, 1);
    }
}

static void on_sync_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *par, ompt_data_t *task, const void *codeptr)
{
    (void)endpoint;
    (void)par;
    (void)codeptr;
    /* between the region's begin and end: the value stored at its begin */
    if (kind < 16 && (task->value & 15) != (uint64_t)kind)
        atomic_fetch_add(&bad, 1);
}

static int initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
    (void)device;
    (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
    CHECK(set(ompt_callback_sync_region, (ompt_callback_t)on_sync) == ompt_set_always);
    CHECK(set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_wait) == ompt_set_always);
    return 1;
}

static void finalize(ompt_data_t *data)
{
    (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    static ompt_start_tool_result_t result = {initialize, finalize, {0}};
    (void)version;
    is_pvomp = strncmp(runtime, "pvomp", 5) == 0;
    return &result;
}

int main(void)
{
    for (int r = 0; r < ROUNDS; r++) {
#pragma omp parallel num_threads(T)
        {
#pragma omp barrier
            if (omp_get_thread_num() == 0 && r % 10 == 0)
                usleep(1000); /* the workers wait at the end barrier first */
        }
    }
    CHECK(is_pvomp);
    /* Every worker's end barrier is done before the program's next region;
     * the last region's workers may still be in theirs: wait for them. */
    const int k = ompt_sync_region_barrier_implicit_parallel;
    for (int i = 0; i < 60000 && atomic_load(&good_ends[k]) + atomic_load(&bad) < ROUNDS * T; i++)
        usleep(1000);
    int explicit_begins = atomic_load(&begins[ompt_sync_region_barrier_explicit]);
    int explicit_ends = atomic_load(&good_ends[ompt_sync_region_barrier_explicit]);
    printf("barrier_task_data: explicit %d/%d, end-of-region %d/%d, wrong %d\n", explicit_ends,
           explicit_begins, atomic_load(&good_ends[k]), atomic_load(&begins[k]),
           atomic_load(&bad));
    CHECK(explicit_begins == ROUNDS * T && explicit_ends == explicit_begins);
    CHECK(atomic_load(&begins[k]) == ROUNDS * T && atomic_load(&good_ends[k]) == ROUNDS * T);
    CHECK(atomic_load(&bad) == 0);
    printf("barrier_task_data: ok\n");
    return 0;
}
