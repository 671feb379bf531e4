/* OMPT target callbacks and device tracing on pvomp's device 0: a tool
 * linked into the program (exported ompt_start_tool, -rdynamic) that keeps
 * every callback and every delivered record, and scenarios (argv[1]) that
 * check them:
 *   seed      start (in device_initialize), target, flush, target teams,
 *             stop; start/stop/start again; ompt_finalize_tool
 *   threads   four threads issuing target regions at once, 8-record buffers
 *   tiny      buffers of exactly one record
 *   pause     pause_trace / resume
 *   nobuf     the tool stops giving buffers (NULL, then 0 bytes)
 *   flushcb   flush_trace and stop_trace from inside buffer_complete
 *   fincb     ompt_finalize_tool from inside buffer_complete
 *   nonemi    the non-EMI callbacks
 * Common checks: every buffer handed back exactly once with buffer_owned;
 * every record delivered once, of a traced type, with consistent times and
 * the real thread id; data op and submission records match the callbacks'
 * host_op_ids one to one; nothing after the tool's finalizer. */
#define _GNU_SOURCE
#include <omp-tools.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pvomp_check.h"

#define MAXREC 200000
#define MAXBUF 100000
#define MAXOPS 200000

static const char *scenario = "";
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Entry points. */
static ompt_set_callback_t set_callback;
static ompt_get_target_info_t get_target_info;
static ompt_finalize_tool_t finalize_tool;
static ompt_device_t *dev;
static ompt_set_trace_ompt_t set_trace_ompt;
static ompt_set_trace_native_t set_trace_native;
static ompt_start_trace_t start_trace;
static ompt_pause_trace_t pause_trace;
static ompt_flush_trace_t flush_trace;
static ompt_stop_trace_t stop_trace;
static ompt_advance_buffer_cursor_t advance;
static ompt_get_record_type_t get_record_type;
static ompt_get_record_ompt_t get_record_ompt;
static ompt_get_device_time_t get_device_time;
static ompt_translate_time_t translate_time;
static ompt_get_device_num_procs_t get_device_num_procs;
static uint64_t (*lost_records)(ompt_device_t *);

/* What happened. */
static ompt_record_ompt_t recs[MAXREC];
static size_t nrecs;
static void *outstanding[MAXBUF];
static size_t nout, nbuffers, ncomplete;
static size_t req_bytes = 64 * sizeof(ompt_record_ompt_t);
static int give_nothing;          /* nobuf: 1 = NULL, 2 = 0 bytes */
static int finalized, dev_init, dev_load, dev_unload, dev_fini, flushed_in_cb, fin_in_cb;
static volatile int tracing;      /* the tool believes records are being made */
static volatile int fin_request;  /* fincb: finalize at the next delivery */

struct op {
    ompt_id_t id;
    pid_t tid;
    int traced;                   /* tracing was on (and not paused) at the op */
    ompt_callbacks_t kind;        /* of the op */
};
static struct op ops[MAXOPS];
static size_t nops;
static ompt_id_t last_target_id;
static int target_begins, target_ends, info_ok = 1;
/* EMI data op callbacks (at their end) per ompt_target_data_op_t: count, bytes. */
static size_t op_count[16], op_bytes[16];
static int op_addr_differs;       /* an associate/disassociate with src != dest */

static pid_t gettid_(void)
{
    return (pid_t)syscall(SYS_gettid);
}

static void fail(const char *what)
{
    fprintf(stderr, "trace_tool[%s]: %s\n", scenario, what);
    _exit(1);
}

/* ------------------------------------------------------------- buffers */

static void on_request(int device_num, ompt_buffer_t **buffer, size_t *bytes)
{
    if (device_num != 0)
        fail("buffer_request for a device other than 0");
    pthread_mutex_lock(&mu);
    if (give_nothing == 1 || (give_nothing == 2)) {
        *buffer = give_nothing == 1 ? NULL : malloc(16);
        *bytes = 0;
        if (*buffer)
            outstanding[nout++] = *buffer;
        pthread_mutex_unlock(&mu);
        return;
    }
    *bytes = req_bytes;
    *buffer = malloc(req_bytes);
    outstanding[nout++] = *buffer;
    nbuffers++;
    pthread_mutex_unlock(&mu);
}

static void take_back(void *b)
{
    for (size_t i = 0; i < nout; i++)
        if (outstanding[i] == b) {
            outstanding[i] = outstanding[--nout];
            return;
        }
    fail("buffer_complete for a buffer not outstanding (twice, or never given)");
}

static void on_complete(int device_num, ompt_buffer_t *buffer, size_t bytes,
                        ompt_buffer_cursor_t begin, int buffer_owned)
{
    if (finalized)
        fail("buffer_complete after the tool was finalized");
    if (device_num != 0 || !buffer_owned)
        fail("buffer_complete: wrong device or buffer not owned");
    if (bytes % sizeof(ompt_record_ompt_t))
        fail("buffer_complete: bytes not a whole number of records");
    if (bytes && begin != (ompt_buffer_cursor_t)(uintptr_t)buffer)
        fail("buffer_complete: begin is not the buffer's start");
    pthread_mutex_lock(&mu);
    take_back(buffer);
    ncomplete++;
    ompt_buffer_cursor_t cur = begin;
    size_t seen = 0;
    if (bytes) {
        do {
            if (get_record_type(buffer, cur) != ompt_record_ompt)
                fail("record type is not ompt");
            ompt_record_ompt_t *r = get_record_ompt(buffer, cur);
            if (nrecs == MAXREC)
                fail("too many records");
            recs[nrecs++] = *r;
            seen++;
        } while (advance(dev, buffer, bytes, cur, &cur));
    } else if (get_record_ompt(buffer, begin) != NULL) {
        fail("an empty buffer has a record");
    }
    if (seen * sizeof(ompt_record_ompt_t) != bytes)
        fail("advance_buffer_cursor did not walk exactly `bytes`");
    pthread_mutex_unlock(&mu);
    free(buffer);
    if (strcmp(scenario, "flushcb") == 0 && !flushed_in_cb) {
        flushed_in_cb = 1;
        if (flush_trace(dev) != 1)
            fail("flush_trace from inside buffer_complete failed");
        flushed_in_cb = 2;
    }
    if (strcmp(scenario, "fincb") == 0 && fin_request && !fin_in_cb) {
        fin_in_cb = 1;
        finalize_tool();
        fin_in_cb = 2;
    }
}

/* ----------------------------------------------------------- callbacks */

static void note_op(ompt_id_t id, ompt_callbacks_t kind)
{
    pthread_mutex_lock(&mu);
    if (nops == MAXOPS)
        fail("too many ops");
    ops[nops++] = (struct op){id, gettid_(), tracing, kind};
    pthread_mutex_unlock(&mu);
}

static void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                          ompt_data_t *task_data, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra)
{
    (void)task_data;
    (void)target_task_data;
    (void)codeptr_ra;
    (void)kind;
    if (finalized)
        fail("target callback after finalize");
    uint64_t d = 99;
    ompt_id_t tid = 0, op = 0;
    if (get_target_info(&d, &tid, &op) != 1 || (device_num == 0 && d != 0))
        info_ok = 0;
    if (endpoint == ompt_scope_begin) {
        target_data->value = tid;   /* the tool's data: the runtime's target id */
        __atomic_add_fetch(&target_begins, 1, __ATOMIC_RELAXED);
    } else {
        if (target_data->value != tid)
            info_ok = 0;
        __atomic_add_fetch(&target_ends, 1, __ATOMIC_RELAXED);
    }
    last_target_id = tid;
}

static void on_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                           ompt_data_t *target_data, ompt_id_t *host_op_id,
                           ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                           void *dest_addr, int dest_device_num, size_t bytes,
                           const void *codeptr_ra)
{
    (void)target_task_data;
    (void)codeptr_ra;
    (void)src_device_num;
    (void)dest_device_num;
    if (endpoint == ompt_scope_end && (unsigned)optype < 16) {
        op_count[optype]++;
        op_bytes[optype] += bytes;
        if ((optype == ompt_target_data_associate || optype == ompt_target_data_disassociate) &&
            src_addr != dest_addr)
            op_addr_differs = 1;
    }
    if (finalized)
        fail("data op callback after finalize");
    uint64_t d;
    ompt_id_t tid, op;
    if (get_target_info(&d, &tid, &op) == 1 &&
        (op != *host_op_id || (target_data && target_data->value != tid)))
        info_ok = 0;
    if (endpoint == ompt_scope_end)
        note_op(*host_op_id, ompt_callback_target_data_op);
}

static void on_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                          ompt_id_t *host_op_id, unsigned int requested_num_teams)
{
    (void)target_data;
    (void)requested_num_teams;
    if (endpoint == ompt_scope_end)
        note_op(*host_op_id, ompt_callback_target_submit);
}

static void on_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                      ompt_data_t *task_data, ompt_id_t target_id, const void *codeptr_ra)
{
    (void)kind;
    (void)device_num;
    (void)task_data;
    (void)codeptr_ra;
    if (endpoint == ompt_scope_begin)
        __atomic_add_fetch(&target_begins, 1, __ATOMIC_RELAXED);
    else
        __atomic_add_fetch(&target_ends, 1, __ATOMIC_RELAXED);
    last_target_id = target_id;
}

static void on_data_op(ompt_id_t target_id, ompt_id_t host_op_id, ompt_target_data_op_t optype,
                       void *src_addr, int src_device_num, void *dest_addr, int dest_device_num,
                       size_t bytes, const void *codeptr_ra)
{
    (void)target_id;
    (void)optype;
    (void)src_addr;
    (void)src_device_num;
    (void)dest_addr;
    (void)dest_device_num;
    (void)bytes;
    (void)codeptr_ra;
    note_op(host_op_id, ompt_callback_target_data_op);
}

static void on_submit(ompt_id_t target_id, ompt_id_t host_op_id, unsigned int requested)
{
    (void)target_id;
    (void)requested;
    note_op(host_op_id, ompt_callback_target_submit);
}

#define LOOKUP(var, type, name)                 \
    do {                                        \
        var = (type)lookup(name);               \
        if (!var)                               \
            fail("lookup of " name " failed"); \
    } while (0)

static void on_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation)
{
    (void)documentation;
    if (device_num != 0 || !type || !device || !lookup)
        fail("device_initialize arguments");
    dev_init++;
    dev = device;
    LOOKUP(set_trace_ompt, ompt_set_trace_ompt_t, "ompt_set_trace_ompt");
    LOOKUP(set_trace_native, ompt_set_trace_native_t, "ompt_set_trace_native");
    LOOKUP(start_trace, ompt_start_trace_t, "ompt_start_trace");
    LOOKUP(pause_trace, ompt_pause_trace_t, "ompt_pause_trace");
    LOOKUP(flush_trace, ompt_flush_trace_t, "ompt_flush_trace");
    LOOKUP(stop_trace, ompt_stop_trace_t, "ompt_stop_trace");
    LOOKUP(advance, ompt_advance_buffer_cursor_t, "ompt_advance_buffer_cursor");
    LOOKUP(get_record_type, ompt_get_record_type_t, "ompt_get_record_type");
    LOOKUP(get_record_ompt, ompt_get_record_ompt_t, "ompt_get_record_ompt");
    LOOKUP(get_device_time, ompt_get_device_time_t, "ompt_get_device_time");
    LOOKUP(translate_time, ompt_translate_time_t, "ompt_translate_time");
    LOOKUP(get_device_num_procs, ompt_get_device_num_procs_t, "ompt_get_device_num_procs");
    LOOKUP(lost_records, uint64_t(*)(ompt_device_t *), "pvomp_lost_records");
    if (lookup("ompt_get_record_native") == NULL || lookup("no_such_entry") != NULL)
        fail("device lookup");
    if (set_trace_ompt(device, 1, 0) != ompt_set_sometimes ||
        set_trace_ompt(device, 1, ompt_callback_target_map) != ompt_set_never ||
        set_trace_ompt(device, 1, ompt_callback_target_emi) != ompt_set_always ||
        set_trace_native(device, 1, 1) != ompt_set_never || set_trace_ompt(NULL, 1, 0) != ompt_set_error)
        fail("set_trace_ompt / set_trace_native answers");
    if (get_device_num_procs(device) < 1)
        fail("get_device_num_procs");
    double now = omp_get_wtime(), dt = translate_time(device, get_device_time(device));
    if (dt < now - 1 || dt > now + 1)
        fail("translate_time is not on omp_get_wtime's clock");
    if (strcmp(scenario, "pause") != 0 && strcmp(scenario, "nobuf") != 0) {
        if (start_trace(device, on_request, on_complete) != 1)
            fail("start_trace");
        if (start_trace(device, on_request, on_complete) != 0)
            fail("start_trace while started must fail");
        tracing = 1;
    }
}

static void on_device_load(int device_num, const char *filename, int64_t offset, void *vma,
                           size_t bytes, void *host_addr, void *device_addr, uint64_t module_id)
{
    (void)filename;
    (void)offset;
    (void)vma;
    (void)bytes;
    (void)host_addr;
    (void)device_addr;
    if (device_num != 0 || module_id == 0)
        fail("device_load");
    dev_load++;
}

static void on_device_unload(int device_num, uint64_t module_id)
{
    (void)module_id;
    if (device_num != 0 || finalized)
        fail("device_unload");
    dev_unload++;
}

static void on_device_finalize(int device_num)
{
    if (device_num != 0 || finalized || !dev_unload)
        fail("device_finalize");
    dev_fini++;
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)tool_data;
    (void)initial_device_num;
    LOOKUP(set_callback, ompt_set_callback_t, "ompt_set_callback");
    LOOKUP(get_target_info, ompt_get_target_info_t, "ompt_get_target_info");
    LOOKUP(finalize_tool, ompt_finalize_tool_t, "ompt_finalize_tool");
    const char *s = getenv("TRACE_SCENARIO");
    scenario = s ? s : "";
    set_callback(ompt_callback_device_initialize, (ompt_callback_t)on_device_initialize);
    set_callback(ompt_callback_device_load, (ompt_callback_t)on_device_load);
    set_callback(ompt_callback_device_unload, (ompt_callback_t)on_device_unload);
    set_callback(ompt_callback_device_finalize, (ompt_callback_t)on_device_finalize);
    if (strcmp(scenario, "nonemi") == 0) {
        set_callback(ompt_callback_target, (ompt_callback_t)on_target);
        set_callback(ompt_callback_target_data_op, (ompt_callback_t)on_data_op);
        set_callback(ompt_callback_target_submit, (ompt_callback_t)on_submit);
    } else {
        set_callback(ompt_callback_target_emi, (ompt_callback_t)on_target_emi);
        set_callback(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op_emi);
        set_callback(ompt_callback_target_submit_emi, (ompt_callback_t)on_submit_emi);
    }
    return 1;
}

static void tool_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    finalized = 1;
    /* The device is finalized already: flush must answer at once. */
    if (dev && flush_trace(dev) != 0)
        fail("flush_trace in the finalizer should fail (device finalized)");
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version;
    (void)runtime_version;
    static ompt_start_tool_result_t r = {tool_initialize, tool_finalize, {0}};
    return &r;
}

/* --------------------------------------------------------------- checks */

static size_t count_type(ompt_callbacks_t t)
{
    size_t n = 0;
    for (size_t i = 0; i < nrecs; i++)
        n += recs[i].type == t;
    return n;
}

static ompt_id_t rec_op_id(const ompt_record_ompt_t *r)
{
    return r->type == ompt_callback_target_data_op ? r->record.target_data_op.host_op_id
                                                    : r->record.target_kernel.host_op_id;
}

/* Records are well formed, and data ops / submissions match the callbacks
 * made while tracing one to one. */
static void check_records(void)
{
    for (size_t i = 0; i < nrecs; i++) {
        ompt_record_ompt_t *r = &recs[i];
        if (r->thread_id == 0 || r->time == 0)
            fail("record without thread id or time");
        switch (r->type) {
        case ompt_callback_target:
            if (r->record.target.device_num != 0 || r->record.target.target_id != r->target_id)
                fail("target record fields");
            break;
        case ompt_callback_target_data_op:
            if (r->record.target_data_op.end_time < r->time)
                fail("data op ends before it begins");
            break;
        case ompt_callback_target_submit:
            if (r->record.target_kernel.end_time < r->time ||
                r->record.target_kernel.granted_num_teams < 1)
                fail("submit record fields");
            break;
        default:
            fail("record of a type that was not asked for");
        }
    }
    /* Each traced op's id appears in exactly one record; each record's id
     * belongs to a callback. */
    for (size_t i = 0; i < nops; i++) {
        if (!ops[i].traced)
            continue;
        size_t hits = 0;
        for (size_t j = 0; j < nrecs; j++)
            if (recs[j].type == ops[i].kind && rec_op_id(&recs[j]) == ops[i].id) {
                hits++;
                if ((pid_t)recs[j].thread_id != ops[i].tid)
                    fail("record's thread id is not the thread of the callback");
            }
        if (hits != 1) {
            fprintf(stderr, "op %llu (kind %d): %zu records\n", (unsigned long long)ops[i].id,
                    ops[i].kind, hits);
            fail("a traced operation is not recorded exactly once");
        }
    }
    for (size_t j = 0; j < nrecs; j++) {
        if (recs[j].type == ompt_callback_target)
            continue;
        size_t hits = 0;
        for (size_t i = 0; i < nops; i++)
            hits += ops[i].kind == recs[j].type && ops[i].id == rec_op_id(&recs[j]);
        if (hits != 1)
            fail("a record's host_op_id does not match one callback");
    }
    /* Target records pair up: begin before end, once each. */
    for (size_t i = 0; i < nrecs; i++) {
        if (recs[i].type != ompt_callback_target ||
            recs[i].record.target.endpoint != ompt_scope_begin)
            continue;
        size_t ends = 0;
        for (size_t j = 0; j < nrecs; j++)
            if (recs[j].type == ompt_callback_target && recs[j].target_id == recs[i].target_id &&
                recs[j].record.target.endpoint == ompt_scope_end) {
                ends++;
                if (recs[j].time < recs[i].time)
                    fail("target region ends before it begins");
            }
        if (ends > 1)
            fail("target end recorded twice");
    }
}

static void check_end(void)
{
    if (nout != 0)
        fail("some buffers were never handed back");
    if (!info_ok)
        fail("ompt_get_target_info / target_data disagree with the callbacks");
    check_records();
}

/* ------------------------------------------------------------ scenarios */

static int region(int *a, int n)
{
    int s = 0;
    #pragma omp target map(tofrom: a[0:n]) map(from: s)
    {
        for (int i = 0; i < n; i++)
            a[i]++;
        s = a[0];
    }
    return s;
}

static unsigned last_granted(void)
{
    for (size_t i = nrecs; i > 0; i--)
        if (recs[i - 1].type == ompt_callback_target_submit)
            return recs[i - 1].record.target_kernel.requested_num_teams * 100 +
                   recs[i - 1].record.target_kernel.granted_num_teams;
    return 0;
}

static void seed(void)
{
    int a[64] = {0};
    region(a, 64);            /* device_initialize starts the trace */
    CHECK(dev_init == 1 && dev_load == 1);
    CHECK(flush_trace(dev) == 1);
    /* alloc, to, alloc, submit, from, delete, delete (+ target begin/end) */
    CHECK(count_type(ompt_callback_target) == 2);
    CHECK(count_type(ompt_callback_target_submit) == 1);
    CHECK(count_type(ompt_callback_target_data_op) >= 5);
    CHECK(last_granted() == 101);
    pid_t me = gettid_();
    for (size_t i = 0; i < nrecs; i++)
        CHECK((pid_t)recs[i].thread_id == me);
    int t[8] = {0};
    #pragma omp target teams num_teams(4) map(tofrom: t)
    t[omp_get_team_num()] = 1;
    CHECK(t[0] + t[1] + t[2] + t[3] == 4);
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    CHECK(last_granted() == 404);
    CHECK(stop_trace(dev) == 0);   /* not started */
    size_t before = nrecs;
    region(a, 64);
    CHECK(flush_trace(dev) == 1 && nrecs == before);
    for (int round = 0; round < 2; round++) {
        CHECK(start_trace(dev, on_request, on_complete) == 1);
        tracing = 1;
        region(a, 64);
        CHECK(stop_trace(dev) == 1);
        tracing = 0;
        CHECK(nrecs > before);
        before = nrecs;
    }
    CHECK(start_trace(dev, on_request, on_complete) == 1);
    tracing = 1;
    region(a, 8);   /* delivered by ompt_finalize_tool */
    size_t mid = nrecs;
    finalize_tool();
    CHECK(finalized && dev_fini == 1 && dev_unload == 1 && nrecs > mid);
    region(a, 8);   /* no tool any more */
    check_end();
}

static void threads(void)
{
    req_bytes = 8 * sizeof(ompt_record_ompt_t);
    int warm[4] = {0};
    region(warm, 4);
    #pragma omp parallel num_threads(4)
    {
        int a[16] = {0};
        for (int i = 0; i < 100; i++)
            region(a, 16);
    }
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    /* Each thread's records arrive in its order: ids and times grow. */
    for (size_t i = 0; i < nrecs; i++) {
        if (recs[i].type == ompt_callback_target)
            continue;
        for (size_t j = i + 1; j < nrecs; j++) {
            if (recs[j].thread_id != recs[i].thread_id || recs[j].type == ompt_callback_target)
                continue;
            if (rec_op_id(&recs[j]) <= rec_op_id(&recs[i]) || recs[j].time < recs[i].time)
                fail("a thread's records out of its order");
            break;
        }
    }
    CHECK(count_type(ompt_callback_target_submit) == 401);
    check_end();
}

static void tiny(void)
{
    req_bytes = sizeof(ompt_record_ompt_t);
    int a[4] = {0};
    for (int i = 0; i < 20; i++)
        region(a, 4);
    CHECK(flush_trace(dev) == 1);
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    CHECK(nbuffers == nrecs && ncomplete == nbuffers && nrecs >= 20 * 8);
    check_end();
}

static void pause_scenario(void)
{
    int a[4] = {0};
    region(a, 4);   /* device_initialize: tracing not started yet */
    CHECK(pause_trace(dev, 1) == 0);   /* not started */
    CHECK(start_trace(dev, on_request, on_complete) == 1);
    tracing = 1;
    region(a, 4);
    CHECK(flush_trace(dev) == 1);
    size_t first = nrecs;
    CHECK(first > 0);
    CHECK(pause_trace(dev, 1) == 1);
    tracing = 0;
    region(a, 4);
    region(a, 4);
    CHECK(flush_trace(dev) == 1 && nrecs == first);
    CHECK(pause_trace(dev, 0) == 1);
    tracing = 1;
    region(a, 4);
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    CHECK(nrecs > first);
    check_end();
}

static void nobuf(void)
{
    int a[4] = {0};
    region(a, 4);
    req_bytes = 2 * sizeof(ompt_record_ompt_t);
    CHECK(start_trace(dev, on_request, on_complete) == 1);
    tracing = 1;
    region(a, 4);            /* fills a few 2-record buffers */
    give_nothing = 1;        /* then: no buffer */
    tracing = 0;             /* records from here on are lost, not delivered */
    region(a, 4);
    region(a, 4);
    uint64_t lost = lost_records(dev);
    CHECK(lost > 0);
    CHECK(stop_trace(dev) == 1);
    /* 0 bytes: the buffer comes back (owned), recording stays off. */
    give_nothing = 2;
    CHECK(start_trace(dev, on_request, on_complete) == 1);
    CHECK(lost_records(dev) == 0);
    region(a, 4);
    CHECK(lost_records(dev) > 0);
    CHECK(stop_trace(dev) == 1);
    /* A new start with buffers again records again. */
    give_nothing = 0;
    size_t before = nrecs;
    CHECK(start_trace(dev, on_request, on_complete) == 1);
    tracing = 1;
    region(a, 4);
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    CHECK(nrecs > before && lost_records(dev) == 0);
    check_end();
}

static void flushcb(void)
{
    req_bytes = 4 * sizeof(ompt_record_ompt_t);
    int a[4] = {0};
    for (int i = 0; i < 5; i++)
        region(a, 4);
    CHECK(flush_trace(dev) == 1);
    CHECK(flushed_in_cb == 2);
    region(a, 4);
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    check_end();
}

static void fincb(void)
{
    req_bytes = 2 * sizeof(ompt_record_ompt_t);
    int a[4] = {0};
    for (int i = 0; i < 5; i++)
        region(a, 4);
    /* The next delivery finalizes the tool from inside buffer_complete (on
     * the helper thread) while we wait in flush_trace. */
    fin_request = 1;
    CHECK(flush_trace(dev) == 1);
    /* Our flush may return once the finalization (inline on the helper
     * thread) delivered our marker, before the tool's finalizer ran. */
    while (__atomic_load_n(&fin_in_cb, __ATOMIC_ACQUIRE) != 2)
        usleep(1000);
    CHECK(fin_in_cb == 2 && finalized && dev_fini == 1 && dev_unload == 1);
    region(a, 4);   /* no tool any more: no callback (on_* would fail) */
    CHECK(flush_trace(dev) == 0);
}

static void nonemi(void)
{
    int a[4] = {0};
    for (int i = 0; i < 3; i++)
        region(a, 4);
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    CHECK(target_begins == 3 && target_ends == 3);
    check_end();
}

/* The default mode (device 0 shares the host's memory): the same regions,
 * kernels and callbacks, data operations that associate and disassociate
 * with the items' real sizes, and no allocation or copy. */
static void shared(void)
{
    enum { N = 64 };
    int a[N] = {0};
    CHECK(region(a, N) == 1 && a[N - 1] == 1);   /* device_initialize starts the trace */
    CHECK(dev_init == 1);
    int b[N] = {0};
    #pragma omp target teams num_teams(2) map(to: b)
    b[omp_get_team_num()] = 7;   /* map(to:), and yet the host sees it */
    CHECK(b[0] == 7 && b[1] == 7);
    CHECK(stop_trace(dev) == 1);
    tracing = 0;
    CHECK(count_type(ompt_callback_target) == 4);          /* two regions, begin + end */
    CHECK(count_type(ompt_callback_target_submit) == 2);   /* two kernels */
    CHECK(last_granted() == 202);
    /* a (N ints) and s (one int), then b (N ints): each associated once and
     * disassociated once, with its size. */
    size_t bytes = 2 * N * sizeof(int) + sizeof(int);
    CHECK(op_count[ompt_target_data_associate] == 3);
    CHECK(op_bytes[ompt_target_data_associate] == bytes);
    CHECK(op_count[ompt_target_data_disassociate] == 3);
    CHECK(op_bytes[ompt_target_data_disassociate] == bytes);
    CHECK(!op_addr_differs);
    CHECK(op_count[ompt_target_data_alloc] == 0 && op_count[ompt_target_data_delete] == 0);
    CHECK(op_count[ompt_target_data_transfer_to_device] == 0);
    CHECK(op_count[ompt_target_data_transfer_from_device] == 0);
    size_t recorded = 0;
    for (size_t i = 0; i < nrecs; i++)
        if (recs[i].type == ompt_callback_target_data_op) {
            ompt_record_target_data_op_t *r = &recs[i].record.target_data_op;
            CHECK(r->optype == ompt_target_data_associate ||
                  r->optype == ompt_target_data_disassociate);
            CHECK(r->src_addr == r->dest_addr && r->dest_device_num == 0);
            recorded += r->bytes;
        }
    CHECK(recorded == 2 * bytes);
    check_end();
}

int main(int argc, char **argv)
{
    CHECK(argc == 2 && strcmp(argv[1], scenario) == 0);
    CHECK(set_callback != NULL);   /* the tool was initialized */
    static const struct {
        const char *name;
        void (*fn)(void);
    } all[] = {
        {"seed", seed}, {"threads", threads}, {"tiny", tiny}, {"pause", pause_scenario},
        {"nobuf", nobuf}, {"flushcb", flushcb}, {"fincb", fincb}, {"nonemi", nonemi},
        {"shared", shared},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(argv[1], all[i].name) == 0) {
            all[i].fn();
            printf("%s: ok (%zu records in %zu buffers)\n", argv[1], nrecs, ncomplete);
            return 0;
        }
    return 2;
}
