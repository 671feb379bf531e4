/* The entry points without a tool test (GOMP_taskwait, GOMP_ordered_end:
 * PV_OMPT_SWITCHED) and the sites that share a trace flag (the task
 * sites): while the tool is attached every taskwait, ordered region and
 * task reaches it, with the program's call as codeptr_ra; after
 * ompt_finalize_tool the entries are switched back and none does.  The
 * tool is in the program itself (ompt_start_tool exported, -rdynamic).
 * GOMP_ordered_end is patched (src/ompt/patch.h): its first byte is the
 * opcode of `jmp rel32` while the tool is attached and `ret` after. */
#include <dlfcn.h>
#include <omp.h>
#include <omp-tools.h>
#include <stdio.h>
#include <string.h>

#include "pvomp_check.h"

enum { ROUNDS = 50, ITERS = 40 };

static ompt_finalize_tool_t finalize_tool;
static long taskwaits, ordered_releases, tasks_created, tasks_ended, bad_codeptr;
static const void *ordered_codeptr_last;

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task, const void *codeptr)
{
    (void)parallel, (void)task;
    if (kind != ompt_sync_region_taskwait)
        return;
    if (endpoint == ompt_scope_begin)
        __atomic_fetch_add(&taskwaits, 1, __ATOMIC_RELAXED);
    if (!codeptr)
        __atomic_fetch_add(&bad_codeptr, 1, __ATOMIC_RELAXED);
}

static void on_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)wait_id;
    if (kind != ompt_mutex_ordered)
        return;
    __atomic_fetch_add(&ordered_releases, 1, __ATOMIC_RELAXED);
    if (!codeptr)
        __atomic_fetch_add(&bad_codeptr, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&ordered_codeptr_last, codeptr, __ATOMIC_RELAXED);
}

static void on_task_create(ompt_data_t *parent, const ompt_frame_t *frame, ompt_data_t *task,
                           int flags, int has_dependences, const void *codeptr)
{
    (void)parent, (void)frame, (void)task, (void)has_dependences;
    if (!(flags & ompt_task_explicit))
        return;
    __atomic_fetch_add(&tasks_created, 1, __ATOMIC_RELAXED);
    if (!codeptr)
        __atomic_fetch_add(&bad_codeptr, 1, __ATOMIC_RELAXED);
}

static void on_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next)
{
    (void)prior, (void)next;
    if (status == ompt_task_complete)
        __atomic_fetch_add(&tasks_ended, 1, __ATOMIC_RELAXED);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set_cb = (ompt_set_callback_t)lookup("ompt_set_callback");
    finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
    return set_cb && finalize_tool &&
           set_cb(ompt_callback_sync_region, (ompt_callback_t)on_sync) == ompt_set_always &&
           set_cb(ompt_callback_mutex_released, (ompt_callback_t)on_released) ==
               ompt_set_always &&
           set_cb(ompt_callback_task_create, (ompt_callback_t)on_task_create) ==
               ompt_set_always &&
           set_cb(ompt_callback_task_schedule, (ompt_callback_t)on_schedule) == ompt_set_always;
}

static void fini(ompt_data_t *data)
{
    (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    static ompt_start_tool_result_t r = {init, fini, {0}};
    (void)version, (void)runtime;
    return &r;
}

static long sum;

/* GOMP_ordered_end's first byte in the loaded runtime (its own definition,
 * not the program's PLT). */
static int ordered_end_byte(void)
{
    void *rt = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD);
    const unsigned char *f = rt ? (const unsigned char *)dlsym(rt, "GOMP_ordered_end") : NULL;
    return f ? f[0] : -1;
}

/* ROUNDS tasks and taskwaits, one ordered loop of ITERS iterations, on
 * `threads` threads. */
static void work(int threads)
{
#pragma omp parallel num_threads(threads)
    {
#pragma omp single
        for (int i = 0; i < ROUNDS; i++) {
#pragma omp task
            __atomic_fetch_add(&sum, 1, __ATOMIC_RELAXED);
#pragma omp taskwait
        }
#pragma omp for ordered schedule(dynamic)
        for (int i = 0; i < ITERS; i++) {
#pragma omp ordered
            sum += i;
        }
    }
}

int main(void)
{
    CHECK(finalize_tool != NULL);
    for (int threads = 1; threads <= 2; threads++)
        work(threads);
    long tw = taskwaits, rel = ordered_releases, cr = tasks_created, en = tasks_ended;
    printf("with the tool: %ld taskwaits, %ld ordered releases, %ld tasks created, %ld ended, "
           "%ld events without codeptr_ra\n", tw, rel, cr, en, bad_codeptr);
    CHECK(tw == 2 * ROUNDS);
    CHECK(rel == 2 * ITERS);
    CHECK(cr == 2 * ROUNDS);
    CHECK(en == 2 * ROUNDS);
    CHECK(bad_codeptr == 0);
    /* The address the program returns to from GOMP_ordered_end: inside
     * this program, not in the runtime. */
    CHECK(ordered_codeptr_last != NULL);
    int b = ordered_end_byte();
    if (b != 0xe9)
        printf("GOMP_ordered_end with the tool: first byte 0x%x, expected 0xe9 (jmp rel32)\n", b);
    CHECK(b == 0xe9);
    finalize_tool();
    b = ordered_end_byte();
    if (b != 0xc3)
        printf("GOMP_ordered_end after finalize: first byte 0x%x, expected 0xc3 (ret)\n", b);
    CHECK(b == 0xc3);
    for (int threads = 1; threads <= 2; threads++)
        work(threads);
    printf("after finalize: %ld taskwaits, %ld ordered releases, %ld tasks created, %ld ended\n",
           taskwaits - tw, ordered_releases - rel, tasks_created - cr, tasks_ended - en);
    CHECK(taskwaits == tw && ordered_releases == rel && tasks_created == cr &&
          tasks_ended == en);
    CHECK(sum == 4 * (ROUNDS + ITERS * (ITERS - 1) / 2));
    printf("ok\n");
    return 0;
}
