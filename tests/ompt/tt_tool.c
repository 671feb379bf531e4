/* The recording test tool.  Built as a shared library: linked into test
 * programs (found through ompt_start_tool in the address space) or loaded
 * through OMP_TOOL_LIBRARIES.  See tt.h for the record.
 *
 * Environment: TT_NAME names the tool in its messages; TT_INIT_RESULT is what
 * the initializer returns (default 1); TT_QUIET=1 silences the start and
 * finalize lines; TT_LOG=<file> dumps the log at finalization;
 * TT_CHECK=1 checks its invariants (tt_check.c) and TT_EVIDENCE=<file>
 * records that the tool initialised and what the check covered.  Built with
 * -DTT_START_RETURNS_NULL, ompt_start_tool declines (returns NULL). */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tt.h"

/* The log grows in chunks, so that TT_CHECK checks a program's whole log
 * whatever its length: a chunk is allocated by the first record that falls
 * in it and installed with a compare-exchange (a loser frees its copy).
 * Only when memory runs out (or past 2^24 events) is a record dropped, and
 * then TT_CHECK fails loudly (exit 71) rather than pass unchecked. */
#define TT_CHUNK_BITS 16
#define TT_CHUNK (1u << TT_CHUNK_BITS)
#define TT_MAX_CHUNKS (1u << 8)    /* 2^24 events (about 2 GiB): past it, exit 71 */
#define TT_MAX_EVENTS ((size_t)TT_CHUNK * TT_MAX_CHUNKS)

static _Atomic(struct tt_event *) *chunks;
static atomic_size_t nevents;
static atomic_size_t dropped;
static int initialized, finalized;
static const char *name = "tt";
static int quiet;

static ompt_function_lookup_t lookup;
static ompt_set_callback_t set_callback;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_state_t get_state;
static ompt_get_task_info_t get_task_info;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_thread_data_t get_thread_data;
static int set_results[64];

/* Counts kept for the finalize line (checked by tests through stdout). */
static atomic_int n_thread_begin, n_thread_end, n_initial_begin, n_initial_end;

/* TT_EVIDENCE=<file>: one line per step ("<pid> initialized -> 1",
 * "<pid> checked N events, 0 violation(s)") appended, so that a test runner
 * can tell that the tool ran in a test and checked its whole log. */
static void evidence(const char *fmt, ...)
{
    const char *path = getenv("TT_EVIDENCE");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(f, "%ld ", (long)getpid());
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    va_end(ap);
    fclose(f);
}

static uint64_t uid(void)
{
    return get_unique_id();
}

/* A new record with the common fields filled in; NULL when the log is full. */
static struct tt_event *record(int type, int with_queries)
{
    size_t i = atomic_fetch_add_explicit(&nevents, 1, memory_order_relaxed);
    if (i >= TT_MAX_EVENTS) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return NULL;
    }
    struct tt_event *c = atomic_load_explicit(&chunks[i >> TT_CHUNK_BITS], memory_order_acquire);
    if (!c) {
        struct tt_event *fresh = calloc(TT_CHUNK, sizeof *fresh), *none = NULL;
        if (!fresh) {
            atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
            return NULL;
        }
        if (atomic_compare_exchange_strong_explicit(&chunks[i >> TT_CHUNK_BITS], &none, fresh,
                                                    memory_order_acq_rel, memory_order_acquire))
            c = fresh;
        else {
            free(fresh);
            c = none;
        }
    }
    struct tt_event *e = &c[i & (TT_CHUNK - 1)];
    memset(e, 0, sizeof *e);
    e->seq = i;
    e->type = type;
    e->tid = syscall(SYS_gettid);
    ompt_data_t *td = get_thread_data();
    e->thread = td ? td->value : 0;
    ompt_wait_id_t w = 0;
    e->state = get_state(&w);
    e->wait_id = w;
    if (with_queries) {
        int flags = 0, thread_num = -1, team_size = 0;
        ompt_data_t *task = NULL, *par = NULL, *par2 = NULL;
        ompt_frame_t *frame = NULL;
        int ok1 = get_task_info(0, &flags, &task, &frame, &par, &thread_num);
        int ok2 = get_parallel_info(0, &par2, &team_size);
        e->q_ok = (ok1 == 2) | ((ok2 == 2) << 1);
        e->q_task = task ? task->value : 0;
        e->q_task_flags = flags;
        e->q_thread_num = thread_num;
        e->q_parallel = par2 ? par2->value : 0;
        e->q_team_size = team_size;
        e->q_frame = frame;
        if (frame)
            e->q_frame_copy = *frame;
    }
    return e;
}

static uint64_t id_of(const ompt_data_t *d)
{
    return d ? d->value : 0;
}

/* ------------------------------------------------------------ callbacks */

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    thread_data->value = uid();
    atomic_fetch_add(&n_thread_begin, 1);
    struct tt_event *e = record(ompt_callback_thread_begin, 0);
    if (e)
        e->kind = type;
}

static void on_thread_end(ompt_data_t *thread_data)
{
    atomic_fetch_add(&n_thread_end, 1);
    struct tt_event *e = record(ompt_callback_thread_end, 0);
    if (e)
        e->thread = id_of(thread_data);
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *par,
                              unsigned int requested, int flags, const void *codeptr)
{
    par->value = uid();
    struct tt_event *e = record(ompt_callback_parallel_begin, 1);
    if (!e)
        return;
    e->task = id_of(task);
    e->parallel = par->value;
    e->a = requested;
    e->flags = flags;
    e->codeptr = codeptr;
    if (frame)
        e->frame_arg = *frame;
}

static void on_parallel_end(ompt_data_t *par, ompt_data_t *task, int flags, const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_parallel_end, 1);
    if (!e)
        return;
    e->parallel = id_of(par);
    e->task = id_of(task);
    e->flags = flags;
    e->codeptr = codeptr;
}

static void on_task_create(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *new_task,
                           int flags, int has_dependences, const void *codeptr)
{
    new_task->value = uid();
    struct tt_event *e = record(ompt_callback_task_create, 1);
    if (!e)
        return;
    e->task = id_of(task);
    e->task2 = new_task->value;
    e->flags = flags;
    e->a = (uint64_t)has_dependences;
    e->codeptr = codeptr;
    if (frame)
        e->frame_arg = *frame;
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next)
{
    struct tt_event *e = record(ompt_callback_task_schedule, 1);
    if (!e)
        return;
    e->task = id_of(prior);
    e->kind = status;
    e->task2 = id_of(next);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *par, ompt_data_t *task,
                             unsigned int actual, unsigned int index, int flags)
{
    if (endpoint == ompt_scope_begin) {
        task->value = uid();
        if ((flags & ompt_task_initial) && par && par->value == 0)
            par->value = uid();
        if (flags & ompt_task_initial)
            atomic_fetch_add(&n_initial_begin, 1);
    } else if (flags & ompt_task_initial) {
        atomic_fetch_add(&n_initial_end, 1);
    }
    struct tt_event *e = record(ompt_callback_implicit_task, 1);
    if (!e)
        return;
    e->endpoint = endpoint;
    e->parallel = id_of(par);
    e->task = id_of(task);
    e->a = actual;
    e->b = index;
    e->flags = flags;
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_control_tool, 1);
    if (e) {
        e->a = command;
        e->b = modifier;
        e->task2 = (uint64_t)(uintptr_t)arg;
        e->codeptr = codeptr;
    }
    return (int)(command * 10 + modifier);
}

static void sync_common(int type, ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                        ompt_data_t *par, ompt_data_t *task, const void *codeptr)
{
    struct tt_event *e = record(type, 1);
    if (!e)
        return;
    e->kind = kind;
    e->endpoint = endpoint;
    e->parallel = id_of(par);
    e->task = id_of(task);
    e->codeptr = codeptr;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *par, ompt_data_t *task, const void *codeptr)
{
    sync_common(ompt_callback_sync_region, kind, endpoint, par, task, codeptr);
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *par, ompt_data_t *task, const void *codeptr)
{
    sync_common(ompt_callback_sync_region_wait, kind, endpoint, par, task, codeptr);
}

static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *par, ompt_data_t *task, const void *codeptr)
{
    sync_common(ompt_callback_reduction, kind, endpoint, par, task, codeptr);
}

static void mutex_common(int type, ompt_mutex_t kind, unsigned hint, unsigned impl,
                         ompt_wait_id_t wait_id, const void *codeptr)
{
    struct tt_event *e = record(type, 1);
    if (!e)
        return;
    e->kind = kind;
    e->a = wait_id;
    e->b = ((uint64_t)hint << 32) | impl;
    e->codeptr = codeptr;
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                             ompt_wait_id_t wait_id, const void *codeptr)
{
    mutex_common(ompt_callback_mutex_acquire, kind, hint, impl, wait_id, codeptr);
}

static void on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                         ompt_wait_id_t wait_id, const void *codeptr)
{
    mutex_common(ompt_callback_lock_init, kind, hint, impl, wait_id, codeptr);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    mutex_common(ompt_callback_mutex_acquired, kind, 0, 0, wait_id, codeptr);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    mutex_common(ompt_callback_mutex_released, kind, 0, 0, wait_id, codeptr);
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    mutex_common(ompt_callback_lock_destroy, kind, 0, 0, wait_id, codeptr);
}

static void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                         const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_nest_lock, 1);
    if (!e)
        return;
    e->endpoint = endpoint;
    e->a = wait_id;
    e->codeptr = codeptr;
}

static void on_dependences(ompt_data_t *task, const ompt_dependence_t *deps, int ndeps)
{
    struct tt_event *e = record(ompt_callback_dependences, 1);
    if (!e)
        return;
    e->task = id_of(task);
    e->a = (uint64_t)ndeps;
    if (ndeps > 0) {
        e->b = deps[0].variable.value;
        e->kind = deps[0].dependence_type;
    }
}

static void on_task_dependence(ompt_data_t *src, ompt_data_t *sink)
{
    struct tt_event *e = record(ompt_callback_task_dependence, 1);
    if (!e)
        return;
    e->task = id_of(src);
    e->task2 = id_of(sink);
}

static void on_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint, ompt_data_t *par,
                    ompt_data_t *task, uint64_t count, const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_work, 1);
    if (!e)
        return;
    e->kind = wstype;
    e->endpoint = endpoint;
    e->parallel = id_of(par);
    e->task = id_of(task);
    e->a = count;
    e->codeptr = codeptr;
}

static void on_dispatch(ompt_data_t *par, ompt_data_t *task, ompt_dispatch_t kind,
                        ompt_data_t instance)
{
    struct tt_event *e = record(ompt_callback_dispatch, 1);
    if (!e)
        return;
    e->parallel = id_of(par);
    e->task = id_of(task);
    e->kind = kind;
    if (kind == ompt_dispatch_ws_loop_chunk || kind == ompt_dispatch_taskloop_chunk ||
        kind == ompt_dispatch_distribute_chunk) {
        /* OpenMP 5.2: instance.ptr points to the chunk. */
        const ompt_dispatch_chunk_t *c = instance.ptr;
        e->b = c->start;
        e->a = c->iterations;
    } else {
        e->b = instance.value;   /* iteration number; a section's code address */
    }
}

static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *par, ompt_data_t *task,
                      const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_masked, 1);
    if (!e)
        return;
    e->endpoint = endpoint;
    e->parallel = id_of(par);
    e->task = id_of(task);
    e->codeptr = codeptr;
}

static void on_flush(ompt_data_t *thread_data, const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_flush, 1);
    if (e) {
        e->a = id_of(thread_data);
        e->codeptr = codeptr;
    }
}

static void on_cancel(ompt_data_t *task, int flags, const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_cancel, 1);
    if (!e)
        return;
    e->task = id_of(task);
    e->flags = flags;
    e->codeptr = codeptr;
}

static void on_error(ompt_severity_t severity, const char *message, size_t length,
                     const void *codeptr)
{
    struct tt_event *e = record(ompt_callback_error, 1);
    if (!e)
        return;
    e->kind = severity;
    e->a = length;
    e->b = (uint64_t)(uintptr_t)message;
    e->codeptr = codeptr;
}

/* Never expected on pvomp's host-only runtime; recorded if it happens. */
static void on_device_event(void)
{
    record(TT_TARGET_EVENT, 0);
}

static void on_device_end(void)
{
    record(TT_DEVICE_END, 0);
}

/* ------------------------------------------------------- start and stop */

#define REGISTER(ev, fn) set_results[ev] = set_callback(ev, (ompt_callback_t)(fn))

static int tt_initialize(ompt_function_lookup_t lk, int initial_device_num, ompt_data_t *tool_data)
{
    (void)tool_data;
    lookup = lk;
    set_callback = (ompt_set_callback_t)lk("ompt_set_callback");
    get_unique_id = (ompt_get_unique_id_t)lk("ompt_get_unique_id");
    get_state = (ompt_get_state_t)lk("ompt_get_state");
    get_task_info = (ompt_get_task_info_t)lk("ompt_get_task_info");
    get_parallel_info = (ompt_get_parallel_info_t)lk("ompt_get_parallel_info");
    get_thread_data = (ompt_get_thread_data_t)lk("ompt_get_thread_data");
    if (!set_callback || !get_unique_id || !get_state || !get_task_info || !get_parallel_info ||
        !get_thread_data) {
        fprintf(stderr, "tt[%s]: an entry point is missing\n", name);
        exit(2);
    }
    chunks = calloc(TT_MAX_CHUNKS, sizeof *chunks);
    if (!chunks)
        exit(2);
    REGISTER(ompt_callback_thread_begin, on_thread_begin);
    REGISTER(ompt_callback_thread_end, on_thread_end);
    REGISTER(ompt_callback_parallel_begin, on_parallel_begin);
    REGISTER(ompt_callback_parallel_end, on_parallel_end);
    REGISTER(ompt_callback_task_create, on_task_create);
    REGISTER(ompt_callback_task_schedule, on_task_schedule);
    REGISTER(ompt_callback_implicit_task, on_implicit_task);
    REGISTER(ompt_callback_control_tool, on_control_tool);
    REGISTER(ompt_callback_sync_region, on_sync_region);
    REGISTER(ompt_callback_sync_region_wait, on_sync_region_wait);
    REGISTER(ompt_callback_reduction, on_reduction);
    REGISTER(ompt_callback_mutex_acquire, on_mutex_acquire);
    REGISTER(ompt_callback_mutex_acquired, on_mutex_acquired);
    REGISTER(ompt_callback_mutex_released, on_mutex_released);
    REGISTER(ompt_callback_lock_init, on_lock_init);
    REGISTER(ompt_callback_lock_destroy, on_lock_destroy);
    REGISTER(ompt_callback_nest_lock, on_nest_lock);
    REGISTER(ompt_callback_dependences, on_dependences);
    REGISTER(ompt_callback_task_dependence, on_task_dependence);
    REGISTER(ompt_callback_work, on_work);
    REGISTER(ompt_callback_dispatch, on_dispatch);
    REGISTER(ompt_callback_masked, on_masked);
    REGISTER(ompt_callback_flush, on_flush);
    REGISTER(ompt_callback_cancel, on_cancel);
    REGISTER(ompt_callback_error, on_error);
    REGISTER(ompt_callback_target, on_device_event);
    REGISTER(ompt_callback_target_data_op, on_device_event);
    REGISTER(ompt_callback_target_submit, on_device_event);
    REGISTER(ompt_callback_target_map, on_device_event);
    REGISTER(ompt_callback_target_emi, on_device_event);
    REGISTER(ompt_callback_target_data_op_emi, on_device_event);
    REGISTER(ompt_callback_target_submit_emi, on_device_event);
    REGISTER(ompt_callback_target_map_emi, on_device_event);
    REGISTER(ompt_callback_device_initialize, on_device_event);
    REGISTER(ompt_callback_device_finalize, on_device_end);
    REGISTER(ompt_callback_device_load, on_device_event);
    REGISTER(ompt_callback_device_unload, on_device_end);
    const char *r = getenv("TT_INIT_RESULT");
    int result = r ? atoi(r) : 1;
    initialized = result != 0;
    evidence("initialized -> %d", result);
    if (!quiet)
        printf("tt[%s]: initialize(initial_device_num=%d) -> %d\n", name, initial_device_num,
               result);
    fflush(stdout);
    return result;
}

static void tt_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    finalized++;
    const char *log = getenv("TT_LOG");
    if (log) {
        FILE *f = fopen(log, "w");
        if (f) {
            tt_dump(f);
            fclose(f);
        }
    }
    const char *check = getenv("TT_CHECK");
    if (check && atoi(check) && finalized == 1) {
        /* To see the checker fail (its own tests): TT_CHECK_INJECT=1, a
         * release of a mutex nobody holds; 2, an event recorded as on a
         * thread that never began. */
        const char *inject = getenv("TT_CHECK_INJECT");
        int injected = inject ? atoi(inject) : 0;
        if (injected == 1)
            mutex_common(ompt_callback_mutex_released, ompt_mutex_lock, 0, 0, 0x5eed, NULL);
        struct tt_event *orphan = injected == 2 ? record(ompt_callback_control_tool, 0) : NULL;
        if (orphan)
            orphan->thread = 0;
        if (atomic_load(&dropped)) {
            fprintf(stderr, "tt_check: %zu events did not fit in the log; cannot check it\n",
                    atomic_load(&dropped));
            fflush(stdout);
            _exit(71);
        }
        size_t bad = tt_check(stderr);
        evidence("checked %zu events, %zu violation(s)", tt_count(), bad);
        if (bad) {
            fprintf(stderr, "tt_check: %zu OMPT invariant violation(s)\n", bad);
            fflush(stdout);
            _exit(70);
        }
        if (!quiet)
            printf("tt_check: %zu events, no violation\n", atomic_load(&nevents));
    }
    if (!quiet)
        printf("tt[%s]: finalize #%d: events=%zu dropped=%zu thread_begin=%d thread_end=%d "
               "initial_task_begin=%d initial_task_end=%d\n",
               name, finalized, atomic_load(&nevents), atomic_load(&dropped),
               atomic_load(&n_thread_begin), atomic_load(&n_thread_end),
               atomic_load(&n_initial_begin), atomic_load(&n_initial_end));
    fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    const char *n = getenv("TT_NAME");
    if (n)
        name = n;
    quiet = getenv("TT_QUIET") && atoi(getenv("TT_QUIET"));
#ifdef TT_START_RETURNS_NULL
    (void)tt_initialize;
    (void)tt_finalize;
    if (!quiet)
        printf("tt[%s-null]: ompt_start_tool(%u, \"%s\") -> NULL\n", name, omp_version,
               runtime_version);
    fflush(stdout);
    return NULL;
#else
    static ompt_start_tool_result_t result = {tt_initialize, tt_finalize, {0}};
    if (!quiet)
        printf("tt[%s]: ompt_start_tool(%u, \"%s\")\n", name, omp_version, runtime_version);
    fflush(stdout);
    return &result;
#endif
}

/* ------------------------------------------------------ interface for tests */

int tt_initialized(void)
{
    return initialized;
}

int tt_finalized(void)
{
    return finalized;
}

ompt_function_lookup_t tt_lookup(void)
{
    return lookup;
}

int tt_set_result(int event)
{
    return event > 0 && event < 64 ? set_results[event] : -1;
}

size_t tt_count(void)
{
    size_t n = atomic_load(&nevents);
    return n < TT_MAX_EVENTS ? n : TT_MAX_EVENTS;
}

const struct tt_event *tt_get(size_t i)
{
    if (i >= tt_count())
        return NULL;
    struct tt_event *c = atomic_load_explicit(&chunks[i >> TT_CHUNK_BITS], memory_order_acquire);
    return c ? &c[i & (TT_CHUNK - 1)] : NULL;
}

void tt_reset(void)
{
    atomic_store(&nevents, 0);
}

const char *tt_name(int type)
{
    static const char *names[] = {
        [ompt_callback_thread_begin] = "thread_begin",
        [ompt_callback_thread_end] = "thread_end",
        [ompt_callback_parallel_begin] = "parallel_begin",
        [ompt_callback_parallel_end] = "parallel_end",
        [ompt_callback_task_create] = "task_create",
        [ompt_callback_task_schedule] = "task_schedule",
        [ompt_callback_implicit_task] = "implicit_task",
        [ompt_callback_control_tool] = "control_tool",
        [ompt_callback_sync_region_wait] = "sync_region_wait",
        [ompt_callback_mutex_released] = "mutex_released",
        [ompt_callback_dependences] = "dependences",
        [ompt_callback_task_dependence] = "task_dependence",
        [ompt_callback_work] = "work",
        [ompt_callback_masked] = "masked",
        [ompt_callback_sync_region] = "sync_region",
        [ompt_callback_lock_init] = "lock_init",
        [ompt_callback_lock_destroy] = "lock_destroy",
        [ompt_callback_mutex_acquire] = "mutex_acquire",
        [ompt_callback_mutex_acquired] = "mutex_acquired",
        [ompt_callback_nest_lock] = "nest_lock",
        [ompt_callback_flush] = "flush",
        [ompt_callback_cancel] = "cancel",
        [ompt_callback_reduction] = "reduction",
        [ompt_callback_dispatch] = "dispatch",
        [ompt_callback_error] = "error",
    };
    if (type > 0 && type < (int)(sizeof names / sizeof names[0]) && names[type])
        return names[type];
    return type == TT_DEVICE_END ? "device end" : "device/target";
}

void tt_dump(FILE *f)
{
    size_t n = tt_count();
    for (size_t i = 0; i < n; i++) {
        const struct tt_event *e = tt_get(i);
        if (!e)
            continue;
        fprintf(f,
                "%6zu %-16s tid=%ld thr=%llu ep=%d kind=%d flags=0x%x par=%llu task=%llu "
                "task2=%llu a=%llu b=%llu code=%p state=0x%x q=%d q_task=%llu q_par=%llu "
                "q_size=%d q_num=%d\n",
                i, tt_name(e->type), e->tid, (unsigned long long)e->thread, e->endpoint,
                e->kind, (unsigned)e->flags, (unsigned long long)e->parallel,
                (unsigned long long)e->task, (unsigned long long)e->task2,
                (unsigned long long)e->a, (unsigned long long)e->b, e->codeptr,
                (unsigned)e->state, e->q_ok, (unsigned long long)e->q_task,
                (unsigned long long)e->q_parallel, e->q_team_size, e->q_thread_num);
    }
}
