/* Score-P's configure-time OMPT probes, re-created from what its
 * build-config/m4/scorep_ompt.m4 checks (issue 29; our code, its facts).
 * Score-P runs each probe as a program that is its own tool: the tool
 * registers callbacks in its initializer, requiring ompt_set_always, and its
 * finalizer ends the program with the verdict.  Exit status, as Score-P
 * reads it: 0 the probe passed, 1 the tool was never initialized or
 * finalized (main returned), 2 the awaited events did not come, 3/4 a
 * lookup failed, 5 ompt_set_callback answered other than ompt_set_always.
 * Each probe prints one line with the reason.  As in Score-P, the probes
 * whose main returns (status 1) leave the finalizer to the runtime's end of
 * program; the others call ompt_finalize_tool first.
 *
 * A probe defines PROBE_NAME, probe_register() (its callbacks) and
 * probe_verdict() (NULL when its events came, else what is missing), and
 * its main.  Built with -DPROBE_ANY_RUNTIME it runs on any OpenMP runtime
 * (for libomp's results); otherwise it proves that pvomp is the runtime. */
#ifndef SCOREP_PROBE_H
#define SCOREP_PROBE_H

#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef PROBE_ANY_RUNTIME
#include "pvomp_check.h"
#endif

enum {
    PROBE_PASS = 0,
    PROBE_NOT_FINALIZED = 1,
    PROBE_MISSING_EVENTS = 2,
    PROBE_NO_SET_CALLBACK = 3,
    PROBE_NO_FINALIZE_TOOL = 4,
    PROBE_NOT_ALWAYS = 5,
};

static ompt_set_callback_t probe_set_callback;
static ompt_finalize_tool_t probe_finalize_tool;
static int probe_initialized;

static void probe_register(void);
static const char *probe_verdict(void);

static void probe_exit(int status, const char *why)
{
    printf("%s: %s (exit %d)\n", PROBE_NAME, why, status);
    fflush(stdout);
    _Exit(status);
}

/* Score-P requires ompt_set_always for every callback it registers. */
static void probe_register_always(ompt_callbacks_t event, ompt_callback_t cb, const char *name)
{
    ompt_set_result_t r = probe_set_callback(event, cb);
    if (r != ompt_set_always) {
        char why[128];
        snprintf(why, sizeof why, "ompt_set_callback(%s) answered %d, not ompt_set_always", name,
                 (int)r);
        probe_exit(PROBE_NOT_ALWAYS, why);
    }
}
#define PROBE_REGISTER(event, fn) probe_register_always(event, (ompt_callback_t)(fn), #event)

static int probe_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                            ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    probe_set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!probe_set_callback)
        probe_exit(PROBE_NO_SET_CALLBACK, "lookup(ompt_set_callback) failed");
    probe_finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
    if (!probe_finalize_tool)
        probe_exit(PROBE_NO_FINALIZE_TOOL, "lookup(ompt_finalize_tool) failed");
    probe_register();
    probe_initialized = 1;
    return 1;
}

static void probe_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    if (!probe_initialized)
        return;
    const char *missing = probe_verdict();
    if (missing)
        probe_exit(PROBE_MISSING_EVENTS, missing);
    probe_exit(PROBE_PASS, "passed");
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {probe_initialize, probe_finalize, {0}};
    printf("%s: ompt_start_tool(%u, \"%s\")\n", PROBE_NAME, omp_version, runtime_version);
    return &result;
}

#ifdef PROBE_WORK_END
/* Probes that await a work end event (of the construct PROBE_WORK_END
 * names, for the verdict's message). */
static int probe_work_ended;

static void probe_on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                          ompt_data_t *parallel, ompt_data_t *task, uint64_t count,
                          const void *codeptr)
{
    (void)type, (void)parallel, (void)task, (void)count, (void)codeptr;
    if (endpoint == ompt_scope_end)
        __atomic_store_n(&probe_work_ended, 1, __ATOMIC_RELAXED);
}

static void probe_register(void)
{
    PROBE_REGISTER(ompt_callback_work, probe_on_work);
}

static const char *probe_verdict(void)
{
    return probe_work_ended ? NULL : "no work end event for the " PROBE_WORK_END;
}
#endif

/* After the program's own ompt_finalize_tool call: the finalizer would
 * have ended the program with its verdict. */
__attribute__((unused)) static int probe_not_finalized(void)
{
    printf("%s: the tool was not %s (exit 1)\n", PROBE_NAME,
           probe_initialized ? "finalized by ompt_finalize_tool" : "initialized");
    return PROBE_NOT_FINALIZED;
}

/* An opaque call, so that no construct is optimized away. */
__attribute__((noinline, unused)) static int probe_use(int i)
{
    __asm__ volatile("" : : "r"(i) : "memory");
    return i;
}

#endif
