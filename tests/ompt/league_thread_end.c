/* Every thread that began ends before the tool is finalized: the device
 * threads that ran host teams (their initial threads) too, as the pool's
 * workers do, each on itself (thread_end), when the program ends.  A tool
 * in the executable (exported with -rdynamic) counts both ends. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "omp-tools.h"
#include "pvomp_check.h"

#define NT 4

static atomic_int begun, ended, ended_elsewhere;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread)
{
    (void)type;
    thread->value = (uint64_t)syscall(SYS_gettid);
    atomic_fetch_add(&begun, 1);
}

static void on_thread_end(ompt_data_t *thread)
{
    atomic_fetch_add(&ended, 1);
    if (thread->value != (uint64_t)syscall(SYS_gettid))
        atomic_fetch_add(&ended_elsewhere, 1);
}

static int initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
    (void)device;
    (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    CHECK(set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin) == ompt_set_always);
    CHECK(set(ompt_callback_thread_end, (ompt_callback_t)on_thread_end) == ompt_set_always);
    return 1;
}

static void finalize(ompt_data_t *data)
{
    (void)data;
    int b = atomic_load(&begun), e = atomic_load(&ended), x = atomic_load(&ended_elsewhere);
    printf("league_thread_end: %d threads began, %d ended (%d not on themselves)\n", b, e, x);
    /* the initial thread and the teams' NT - 1 others at least */
    if (b >= NT && e == b && x == 0)
        printf("league_thread_end: ok\n");
    else
        printf("league_thread_end: expected every one of the %d threads to end on itself\n", b);
    fflush(stdout);
}

/* pvomp_check.h proved pvomp was loaded before main. */
ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    (void)version, (void)runtime;
    static ompt_start_tool_result_t result = {initialize, finalize, {0}};
    return &result;
}

int main(void)
{
    static int seen[NT];
    for (int round = 0; round < 2; round++) {   /* the second league reuses the threads */
#pragma omp teams num_teams(NT)
        {
#pragma omp parallel num_threads(2)
            if (omp_get_thread_num() == 0)
                seen[omp_get_team_num()]++;
        }
    }
    for (int t = 0; t < NT; t++)
        CHECK(seen[t] == 2);
    return 0;   /* the tool is finalized at the program's end */
}
