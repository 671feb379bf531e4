/* ompt_finalize_tool while another thread is in the middle of a callback:
 * the tool's finalize must run after that callback has returned, and no
 * callback may start after it.  A plain pthread takes and releases an omp
 * lock over and over; each mutex callback stays in the tool for about 2 us,
 * so that a finalize that does not wait for callbacks in progress almost
 * surely overlaps one.  The tool is in the program itself (ompt_start_tool
 * exported, -rdynamic). */
#include <omp.h>
#include <omp-tools.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "pvomp_check.h"

static ompt_finalize_tool_t finalize_tool;
static atomic_long calls, late, overlapped, finalized_calls;
static atomic_int inside, finalized, stop;

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void on_mutex(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)kind, (void)wait_id, (void)codeptr;
    if (atomic_load(&finalized))
        atomic_fetch_add(&late, 1); /* a callback after the finalizer */
    atomic_fetch_add(&inside, 1);
    for (long t0 = now_ns(); now_ns() - t0 < 2000;)
        ;
    atomic_fetch_sub(&inside, 1);
    atomic_fetch_add(&calls, 1);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set_cb = (ompt_set_callback_t)lookup("ompt_set_callback");
    finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
    return set_cb && finalize_tool &&
           set_cb(ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex) == ompt_set_always &&
           set_cb(ompt_callback_mutex_released, (ompt_callback_t)on_mutex) == ompt_set_always;
}

static void fini(ompt_data_t *data)
{
    (void)data;
    if (atomic_load(&inside))
        atomic_fetch_add(&overlapped, 1); /* a callback still running */
    atomic_fetch_add(&finalized_calls, 1);
    atomic_store(&finalized, 1);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    static ompt_start_tool_result_t r = { init, fini, { 0 } };
    (void)version, (void)runtime;
    return &r;
}

static omp_lock_t lock;
static atomic_long rounds;

static void *locker(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        omp_set_lock(&lock);
        omp_unset_lock(&lock);
        atomic_fetch_add_explicit(&rounds, 1, memory_order_relaxed);
    }
    return NULL;
}

int main(void)
{
    long finalized_at = 0;
    CHECK(finalize_tool != NULL);
    omp_init_lock(&lock);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, locker, NULL) == 0);
    /* The locker is well into its callbacks before the finalizer runs. */
    while (atomic_load(&calls) < 2000)
        ;
    finalize_tool();
    finalized_at = atomic_load(&rounds);
    /* The locker goes on: its locks reach no tool any more. */
    while (atomic_load(&rounds) < finalized_at + 100000)
        ;
    atomic_store(&stop, 1);
    CHECK(pthread_join(t, NULL) == 0);
    omp_destroy_lock(&lock);
    long c = atomic_load(&calls), l = atomic_load(&late), o = atomic_load(&overlapped);
    printf("%ld callbacks, finalize called %ld time(s), %ld callback(s) running at finalize, "
           "%ld callback(s) after it, %ld lock rounds\n",
           c, atomic_load(&finalized_calls), o, l, atomic_load(&rounds));
    CHECK(atomic_load(&finalized_calls) == 1);
    CHECK(o == 0);
    CHECK(l == 0);
    printf("ok\n");
    return 0;
}
