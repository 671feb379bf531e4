/* A tool defined in the executable itself (exported with -rdynamic, so that
 * pvomp finds ompt_start_tool in the address space before looking at
 * OMP_TOOL_LIBRARIES) that checks every host entry point of the lookup
 * function against the omp_* API and the specification.
 *
 * argv[1]: "exit"          - the tool is finalized at program exit, after
 *                            the initial task end and the thread end;
 *          "finalize_tool" - main calls ompt_finalize_tool: the finalizer
 *                            runs then, exactly once, and no callback follows. */
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omp-tools.h"
#include "pvomp_check.h"

extern int omp_control_tool(int command, int modifier, void *arg) __attribute__((weak));

static ompt_function_lookup_t lookup;
#define ENTRY(type, name) static type name;
ENTRY(ompt_set_callback_t, set_callback)
ENTRY(ompt_get_callback_t, get_callback)
ENTRY(ompt_get_state_t, get_state)
ENTRY(ompt_get_parallel_info_t, get_parallel_info)
ENTRY(ompt_get_task_info_t, get_task_info)
ENTRY(ompt_get_task_memory_t, get_task_memory)
ENTRY(ompt_get_thread_data_t, get_thread_data)
ENTRY(ompt_get_unique_id_t, get_unique_id)
ENTRY(ompt_get_num_procs_t, get_num_procs)
ENTRY(ompt_get_num_places_t, get_num_places)
ENTRY(ompt_get_place_proc_ids_t, get_place_proc_ids)
ENTRY(ompt_get_place_num_t, get_place_num)
ENTRY(ompt_get_partition_place_nums_t, get_partition_place_nums)
ENTRY(ompt_get_proc_id_t, get_proc_id)
ENTRY(ompt_get_target_info_t, get_target_info)
ENTRY(ompt_get_num_devices_t, get_num_devices)
ENTRY(ompt_enumerate_states_t, enumerate_states)
ENTRY(ompt_enumerate_mutex_impls_t, enumerate_mutex_impls)
ENTRY(ompt_finalize_tool_t, finalize_tool)

/* What happened, in order. */
static int thread_begins, thread_ends, initial_begins, initial_ends, finalizes, after_finalize;
static int order_ok = 1;
static ompt_data_t *initial_parallel, *initial_task, *thread_data_seen;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data)
{
    if (finalizes)
        after_finalize++;
    CHECK(type == ompt_thread_initial);
    CHECK(initial_begins == 0);   /* thread_begin comes first */
    data->value = 0x1234;
    thread_data_seen = data;
    thread_begins++;
}

static void on_thread_end(ompt_data_t *data)
{
    if (finalizes)
        after_finalize++;
    CHECK(data == thread_data_seen && data->value == 0x1234);
    if (initial_ends != 1)
        order_ok = 0;             /* the initial task ends before its thread */
    thread_ends++;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *par, ompt_data_t *task,
                             unsigned int actual, unsigned int index, int flags)
{
    if (finalizes)
        after_finalize++;
    CHECK(flags & ompt_task_initial);
    CHECK(index == 1);
    if (endpoint == ompt_scope_begin) {
        CHECK(actual == 1);
        CHECK(thread_begins == 1);
        initial_parallel = par;
        initial_task = task;
        task->value = 0x5678;
        initial_begins++;
    } else {
        CHECK(endpoint == ompt_scope_end);
        CHECK(task == initial_task && task->value == 0x5678);
        initial_ends++;
    }
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr)
{
    (void)arg;
    (void)codeptr;
    if (finalizes)
        after_finalize++;
    return (int)(command + modifier);
}

static void never_called(void)
{
    abort();
}

/* set_callback must answer what pvomp documents (docs/ompt.md). */
static void check_set_callback(void)
{
    int targets_always = 0;
    static const struct {
        ompt_callbacks_t ev;
        ompt_set_result_t want;
    } table[] = {
        {ompt_callback_thread_begin, ompt_set_always},
        {ompt_callback_thread_end, ompt_set_always},
        {ompt_callback_parallel_begin, ompt_set_always},
        {ompt_callback_parallel_end, ompt_set_always},
        {ompt_callback_task_create, ompt_set_always},
        {ompt_callback_task_schedule, ompt_set_always},
        {ompt_callback_implicit_task, ompt_set_always},
        {ompt_callback_target, ompt_set_never},
        {ompt_callback_target_data_op, ompt_set_never},
        {ompt_callback_target_submit, ompt_set_never},
        {ompt_callback_control_tool, ompt_set_always},
        {ompt_callback_device_initialize, ompt_set_never},
        {ompt_callback_device_finalize, ompt_set_never},
        {ompt_callback_device_load, ompt_set_never},
        {ompt_callback_device_unload, ompt_set_never},
        {ompt_callback_sync_region_wait, ompt_set_always},
        {ompt_callback_mutex_released, ompt_set_always},
        {ompt_callback_dependences, ompt_set_always},
        {ompt_callback_task_dependence, ompt_set_always},
        {ompt_callback_work, ompt_set_always},
        {ompt_callback_masked, ompt_set_always},   /* clang programs only */
        {ompt_callback_target_map, ompt_set_never},
        {ompt_callback_sync_region, ompt_set_always},
        {ompt_callback_lock_init, ompt_set_always},
        {ompt_callback_lock_destroy, ompt_set_always},
        {ompt_callback_mutex_acquire, ompt_set_always},
        {ompt_callback_mutex_acquired, ompt_set_always},
        {ompt_callback_nest_lock, ompt_set_always},
        {ompt_callback_flush, ompt_set_always},
        {ompt_callback_cancel, ompt_set_always},
        {ompt_callback_reduction, ompt_set_always},
        {ompt_callback_dispatch, ompt_set_always},
        {ompt_callback_target_emi, ompt_set_never},
        {ompt_callback_target_data_op_emi, ompt_set_never},
        {ompt_callback_target_submit_emi, ompt_set_never},
        {ompt_callback_target_map_emi, ompt_set_never},
        {ompt_callback_error, ompt_set_always},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        ompt_callback_t cb = never_called, got = NULL;
        ompt_set_result_t r = set_callback(table[i].ev, cb);
        /* Target and device events: always once src/target dispatches them. */
        if (table[i].want == ompt_set_never && r == ompt_set_always)
            r = ompt_set_never, targets_always++;
        if (r != table[i].want) {
            fprintf(stderr, "set_callback(%d) = %d, expected %d\n", table[i].ev, r,
                    table[i].want);
            exit(1);
        }
        /* Registered only when it can be dispatched. */
        int has = get_callback(table[i].ev, &got);
        CHECK(has == (set_callback(table[i].ev, cb) >= ompt_set_sometimes));
        CHECK(!has || got == cb);
        /* NULL unregisters. */
        CHECK(set_callback(table[i].ev, NULL) >= r);
        CHECK(get_callback(table[i].ev, &got) == 0);
    }
    CHECK(set_callback((ompt_callbacks_t)0, never_called) == ompt_set_error);
    CHECK(set_callback((ompt_callbacks_t)38, never_called) == ompt_set_error);
    CHECK(set_callback((ompt_callbacks_t)-5, never_called) == ompt_set_error);
    CHECK(targets_always == 0 || targets_always == 12);   /* all target/device events, or none */
    printf("set_callback table: %zu events as documented (target events: %s)\n",
           sizeof table / sizeof table[0], targets_always ? "always" : "never");
}

static void check_enumerations(void)
{
    static const struct {
        int value;
        const char *name;
    } want[] = {
        {ompt_state_work_serial, "ompt_state_work_serial"},
        {ompt_state_work_parallel, "ompt_state_work_parallel"},
        {ompt_state_work_reduction, "ompt_state_work_reduction"},
        {ompt_state_wait_barrier_implicit_parallel, "ompt_state_wait_barrier_implicit_parallel"},
        {ompt_state_wait_barrier_implicit_workshare, "ompt_state_wait_barrier_implicit_workshare"},
        {ompt_state_wait_barrier_explicit, "ompt_state_wait_barrier_explicit"},
        {ompt_state_wait_barrier_implementation, "ompt_state_wait_barrier_implementation"},
        {ompt_state_wait_barrier_teams, "ompt_state_wait_barrier_teams"},
        {ompt_state_wait_taskwait, "ompt_state_wait_taskwait"},
        {ompt_state_wait_taskgroup, "ompt_state_wait_taskgroup"},
        {ompt_state_wait_mutex, "ompt_state_wait_mutex"},
        {ompt_state_wait_lock, "ompt_state_wait_lock"},
        {ompt_state_wait_critical, "ompt_state_wait_critical"},
        {ompt_state_wait_atomic, "ompt_state_wait_atomic"},
        {ompt_state_wait_ordered, "ompt_state_wait_ordered"},
        {ompt_state_idle, "ompt_state_idle"},
        {ompt_state_overhead, "ompt_state_overhead"},
    };
    int seen[sizeof want / sizeof want[0]] = {0};
    int state = ompt_state_undefined, n = 0;
    const char *name = NULL;
    while (enumerate_states(state, &state, &name)) {
        CHECK(name != NULL && strncmp(name, "ompt_state_", 11) == 0);
        CHECK(state != ompt_state_undefined);
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            if (want[i].value == state) {
                CHECK(strcmp(want[i].name, name) == 0);
                CHECK(!seen[i]);
                seen[i] = 1;
            }
        }
        CHECK(++n < 100);
    }
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK(seen[i]);
    int impl = ompt_mutex_impl_none, nimpl = 0;
    while (enumerate_mutex_impls(impl, &impl, &name)) {
        CHECK(impl != ompt_mutex_impl_none && name && *name);
        CHECK(++nimpl < 10);
    }
    CHECK(nimpl >= 1);
    printf("enumerate_states: %d states; enumerate_mutex_impls: %d\n", n, nimpl);
}

static int initialize(ompt_function_lookup_t lk, int initial_device_num, ompt_data_t *tool_data)
{
    lookup = lk;
#define LOOKUP(type, name)                                   \
    name = (type)lk("ompt_" #name);                          \
    CHECK(name != NULL);
    LOOKUP(ompt_set_callback_t, set_callback)
    LOOKUP(ompt_get_callback_t, get_callback)
    LOOKUP(ompt_get_state_t, get_state)
    LOOKUP(ompt_get_parallel_info_t, get_parallel_info)
    LOOKUP(ompt_get_task_info_t, get_task_info)
    LOOKUP(ompt_get_task_memory_t, get_task_memory)
    LOOKUP(ompt_get_thread_data_t, get_thread_data)
    LOOKUP(ompt_get_unique_id_t, get_unique_id)
    LOOKUP(ompt_get_num_procs_t, get_num_procs)
    LOOKUP(ompt_get_num_places_t, get_num_places)
    LOOKUP(ompt_get_place_proc_ids_t, get_place_proc_ids)
    LOOKUP(ompt_get_place_num_t, get_place_num)
    LOOKUP(ompt_get_partition_place_nums_t, get_partition_place_nums)
    LOOKUP(ompt_get_proc_id_t, get_proc_id)
    LOOKUP(ompt_get_target_info_t, get_target_info)
    LOOKUP(ompt_get_num_devices_t, get_num_devices)
    LOOKUP(ompt_enumerate_states_t, enumerate_states)
    LOOKUP(ompt_enumerate_mutex_impls_t, enumerate_mutex_impls)
    LOOKUP(ompt_finalize_tool_t, finalize_tool)
    /* Not host entry points (device tracing lives behind a device's lookup). */
    CHECK(lk("ompt_start_trace") == NULL);
    CHECK(lk("ompt_no_such_entry_point") == NULL);
    CHECK(lk("") == NULL);

    /* The tool is initialized before the initial thread begins. */
    CHECK(get_thread_data() == NULL);
    CHECK(get_state(NULL) == ompt_state_work_serial);   /* not begun yet: as libomp */
    CHECK(initial_device_num == omp_get_initial_device());
    CHECK(tool_data->value == 42);

    check_set_callback();
    check_enumerations();

    CHECK(set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin) ==
          ompt_set_always);
    CHECK(set_callback(ompt_callback_thread_end, (ompt_callback_t)on_thread_end) ==
          ompt_set_always);
    CHECK(set_callback(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task) ==
          ompt_set_always);
    CHECK(set_callback(ompt_callback_control_tool, (ompt_callback_t)on_control_tool) ==
          ompt_set_always);
    printf("exe tool: initialized\n");
    return 1;
}

static void finalize(ompt_data_t *tool_data)
{
    CHECK(tool_data->value == 42);
    finalizes++;
    printf("exe tool: finalize #%d thread_begin=%d thread_end=%d initial_task=%d/%d order=%s\n",
           finalizes, thread_begins, thread_ends, initial_begins, initial_ends,
           order_ok ? "ok" : "wrong");
    fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {initialize, finalize, {.value = 42}};
    CHECK(omp_version >= 201811);   /* at least OpenMP 5.0; pvomp says 5.1 */
    CHECK(runtime_version && strstr(runtime_version, "pvomp"));
    printf("exe tool: ompt_start_tool(%u, \"%s\")\n", omp_version, runtime_version);
    return &result;
}

/* Before main's first omp_* routine that needs its state: the initial
 * thread has not begun (it begins at that call, as in libomp, not when the
 * tool is initialized; docs/ompt.md); omp_get_thread_num is not such a call. */
static void check_not_begun(void)
{
    CHECK(thread_begins == 0 && initial_begins == 0);
    CHECK(get_thread_data() == NULL);
    CHECK(get_state(NULL) == ompt_state_work_serial);
    CHECK(get_task_info(0, NULL, NULL, NULL, NULL, NULL) == 0);
    CHECK(get_parallel_info(0, NULL, NULL) == 0);
    CHECK(omp_get_thread_num() == 0);
    CHECK(thread_begins == 0);
    CHECK(omp_get_num_threads() == 1);
    CHECK(thread_begins == 1 && initial_begins == 1);
    CHECK(omp_get_max_threads() >= 1);
    CHECK(thread_begins == 1 && initial_begins == 1);   /* once */
}

/* Entry points asked from the program, after initialization. */
static void check_from_main(void)
{
    CHECK(thread_begins == 1 && initial_begins == 1);
    ompt_data_t *td = get_thread_data();
    CHECK(td == thread_data_seen && td->value == 0x1234);
    ompt_wait_id_t w = 99;
    CHECK(get_state(&w) == ompt_state_work_serial);

    ompt_data_t *par = NULL;
    int size = 0;
    CHECK(get_parallel_info(0, &par, &size) == 2);
    CHECK(par == initial_parallel && size == 1);
    CHECK(get_parallel_info(1, &par, &size) == 0);

    int flags = 0, num = -1;
    ompt_data_t *task = NULL, *tpar = NULL;
    ompt_frame_t *frame = NULL;
    CHECK(get_task_info(0, &flags, &task, &frame, &tpar, &num) == 2);
    CHECK(flags == ompt_task_initial);
    CHECK(task == initial_task && task->value == 0x5678);
    CHECK(tpar == initial_parallel && num == 0 && frame != NULL);
    CHECK(get_task_info(1, &flags, &task, &frame, &tpar, &num) == 0);
    void *addr = NULL;
    size_t bytes = 0;
    CHECK(get_task_memory(&addr, &bytes, 0) == 0);

    uint64_t a = get_unique_id(), b = get_unique_id();
    CHECK(a != 0 && b > a);

    CHECK(get_num_procs() == omp_get_num_procs());
    CHECK(get_num_places() == omp_get_num_places());
    for (int p = 0; p < get_num_places(); p++) {
        int n = omp_get_place_num_procs(p);
        int ids[1024], mine[1024];
        CHECK(n > 0 && n <= 1024);
        CHECK(get_place_proc_ids(p, 0, NULL) == n);
        CHECK(get_place_proc_ids(p, 1024, mine) == n);
        omp_get_place_proc_ids(p, ids);
        CHECK(memcmp(ids, mine, (size_t)n * sizeof(int)) == 0);
    }
    CHECK(get_place_proc_ids(-1, 0, NULL) == 0);
    CHECK(get_place_num() == omp_get_place_num());
    int parts[1024];
    CHECK(get_partition_place_nums(1024, parts) == omp_get_partition_num_places());
    int cpu = get_proc_id();
    CHECK(cpu >= 0 && cpu < sysconf(_SC_NPROCESSORS_CONF));
    CHECK(get_num_devices() == omp_get_num_devices());
    uint64_t dev = 7;
    ompt_id_t tid = 7, op = 7;
    CHECK(get_target_info(&dev, &tid, &op) == 0);
    printf("entry points from main: ok (places=%d)\n", get_num_places());
}

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    CHECK(lookup != NULL);   /* initialized before main */
    check_not_begun();
    check_from_main();
    CHECK(omp_control_tool(3, 4, NULL) == 7);
    if (strcmp(argv[1], "finalize_tool") == 0) {
        finalize_tool();
        CHECK(finalizes == 1);
        /* Detached: no callback any more, omp_control_tool sees no tool. */
        CHECK(omp_control_tool(3, 4, NULL) == -2);
        finalize_tool();   /* a second call does nothing */
        CHECK(finalizes == 1 && after_finalize == 0);
        printf("finalize_tool: ok\n");
    }
    printf("main done\n");
    return 0;
}
