/* A tool compiled against LLVM's omp-tools.h (Debian's libomp-dev), not
 * pvomp's: it must run on pvomp unchanged.  It registers a few callbacks,
 * uses a few entry points, and prints what it saw. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "llvm_ompt_path.h"
#include LLVM_OMPT_TOOLS_H   /* the full path of LLVM's header, given by the build */

#ifndef __OMPT__
#error "not LLVM's omp-tools.h"
#endif

static ompt_get_unique_id_t get_unique_id;
static ompt_get_state_t get_state;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_enumerate_states_t enumerate_states;
static atomic_int parallels, implicit_begins, implicit_ends, barriers, threads;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data)
{
    data->value = get_unique_id();
    atomic_fetch_add(&threads, 1);
    if (type == ompt_thread_initial)
        printf("llvm-tool: initial thread begins\n");
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *par,
                              unsigned int requested, int flags, const void *codeptr)
{
    (void)task;
    (void)frame;
    (void)codeptr;
    par->value = get_unique_id();
    atomic_fetch_add(&parallels, 1);
    printf("llvm-tool: parallel begin requested=%u flags=0x%x\n", requested, flags);
}

static void on_parallel_end(ompt_data_t *par, ompt_data_t *task, int flags, const void *codeptr)
{
    (void)par;
    (void)task;
    (void)codeptr;
    printf("llvm-tool: parallel end flags=0x%x\n", flags);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *par, ompt_data_t *task,
                             unsigned int actual, unsigned int index, int flags)
{
    (void)par;
    (void)index;
    if (endpoint == ompt_scope_begin) {
        task->value = get_unique_id();
        atomic_fetch_add(&implicit_begins, 1);
        if (flags & ompt_task_initial)
            printf("llvm-tool: initial task begins (actual=%u)\n", actual);
    } else {
        atomic_fetch_add(&implicit_ends, 1);
    }
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *par, ompt_data_t *task, const void *codeptr)
{
    (void)kind;
    (void)par;
    (void)task;
    (void)codeptr;
    if (endpoint == ompt_scope_begin)
        atomic_fetch_add(&barriers, 1);
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr)
{
    (void)arg;
    int team_size = -1;
    ompt_data_t *par = NULL;
    int level0 = get_parallel_info(0, &par, &team_size);
    printf("llvm-tool: control_tool command=%llu modifier=%llu codeptr=%s state=0x%x "
           "parallel_info=%d team_size=%d\n",
           (unsigned long long)command, (unsigned long long)modifier, codeptr ? "set" : "NULL",
           (unsigned)get_state(NULL), level0, team_size);
    return 0;
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data)
{
    (void)tool_data;
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
    get_state = (ompt_get_state_t)lookup("ompt_get_state");
    get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
    enumerate_states = (ompt_enumerate_states_t)lookup("ompt_enumerate_states");
    if (!set_callback || !get_unique_id || !get_state || !get_parallel_info || !enumerate_states)
        return 0;
    int nstates = 0, state = ompt_state_undefined;
    const char *name;
    while (enumerate_states(state, &state, &name))
        nstates++;
    printf("llvm-tool: initialize initial_device_num=%d states=%d\n", initial_device_num,
           nstates);
    int r = 0;
    r |= set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin) !=
         ompt_set_always;
    r |= set_callback(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin) !=
         ompt_set_always;
    r |= set_callback(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end) !=
         ompt_set_always;
    r |= set_callback(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task) !=
         ompt_set_always;
    r |= set_callback(ompt_callback_sync_region, (ompt_callback_t)on_sync_region) !=
         ompt_set_always;
    r |= set_callback(ompt_callback_control_tool, (ompt_callback_t)on_control_tool) !=
         ompt_set_always;
    printf("llvm-tool: callbacks registered %s\n", r ? "with errors" : "ompt_set_always");
    return 1;
}

static void finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    printf("llvm-tool: finalize threads=%d parallels=%d implicit_begin=%d implicit_end=%d "
           "barriers=%d\n",
           atomic_load(&threads), atomic_load(&parallels), atomic_load(&implicit_begins),
           atomic_load(&implicit_ends), atomic_load(&barriers));
    fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {initialize, finalize, {0}};
    printf("llvm-tool: ompt_start_tool(%u, %s)\n", omp_version, runtime_version);
    return &result;
}
