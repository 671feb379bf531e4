/* A tool that unregisters and registers its callbacks again and again from
 * a thread of its own while a team makes the events: a callback slot
 * cleared between the runtime's test of it and the call must not be called
 * (before the fix the runtime loaded the slot twice and could call address
 * 0).  The tool is in the program itself (ompt_start_tool exported,
 * -rdynamic). */
#include <omp.h>
#include <omp-tools.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "pvomp_check.h"

static ompt_set_callback_t set_cb;
static atomic_long calls;
static atomic_int stop;

static void on_mutex(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)kind, (void)wait_id, (void)codeptr;
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    set_cb = (ompt_set_callback_t)lookup("ompt_set_callback");
    return set_cb(ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex) == ompt_set_always &&
           set_cb(ompt_callback_mutex_released, (ompt_callback_t)on_mutex) == ompt_set_always;
}

static void fini(ompt_data_t *data)
{
    (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    static ompt_start_tool_result_t r = { init, fini, { 0 } };
    (void)version, (void)runtime;
    return &r;
}

static void *toggle(void *arg)
{
    long *rounds = arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        set_cb(ompt_callback_mutex_acquired, NULL);
        set_cb(ompt_callback_mutex_released, NULL);
        set_cb(ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex);
        set_cb(ompt_callback_mutex_released, (ompt_callback_t)on_mutex);
        ++*rounds;
    }
    return NULL;
}

int main(void)
{
    enum { SECTIONS = 2000000 };
    long rounds = 0, n = 0;
    pthread_t t;
    CHECK(set_cb != NULL);
    CHECK(pthread_create(&t, NULL, toggle, &rounds) == 0);
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
    for (int i = 0; i < SECTIONS; i++) {
        omp_set_lock(&lock);
        n++;
        omp_unset_lock(&lock);
    }
    atomic_store(&stop, 1);
    CHECK(pthread_join(t, NULL) == 0);
    omp_destroy_lock(&lock);
    CHECK(n == 2L * SECTIONS);
    /* Both states were seen: some sections were reported, not all. */
    long c = atomic_load(&calls);
    printf("%ld sections, %ld callbacks, %ld unregister/register rounds\n", n, c, rounds);
    CHECK(rounds > 0 && c > 0 && c < 4L * SECTIONS);
    printf("ok\n");
    return 0;
}
