/* OpenMP 6.0's device-tracing additions on pvomp's device 0 (separate
 * memory): a tool linked into the program (exported ompt_start_tool,
 * -rdynamic); argv[1] picks the scenario:
 *   v60     a 6.0 tool (it looks up ompt_get_buffer_limits): the data-op
 *           kinds transfer, memset, transfer_rect and their _async forms,
 *           with ompt_subvolume_t for transfer_rect; records typed with the
 *           EMI numbers it enabled, read as 6.0's *_emi records
 *   v51     the same program and tool without that lookup: what a 5.1
 *           tool saw before (to/from_device, no memset, rect copies as
 *           rows, records typed with the non-EMI numbers)
 *   limits  ompt_get_buffer_limits with PVOMP_OMPT_TRACE_BUFFERS=2: four
 *           threads record through a slow tool; never more than 2 buffers
 *           outstanding, and every record arrives (none lost)
 *   helper  limit 1: device work done inside buffer_complete (on the
 *           delivery thread, which cannot wait for itself) is counted lost
 * Prints "ompt60[SCENARIO]: ok" when every check passed. */
#include <omp-tools.h>
#include <omp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvomp_check.h"

/* The routines of GCC 13-16 (gcc 12's omp.h has none), called as NAME_v. */
#include "gcc16_refs.h"

/* 6.0's EMI records overlay 5.1's records of the same events. */
_Static_assert(offsetof(ompt_record_ompt_t, record.target_emi) ==
                   offsetof(ompt_record_ompt_t, record.target) &&
               sizeof(ompt_record_target_data_op_emi_t) == sizeof(ompt_record_target_data_op_t) &&
               sizeof(ompt_record_target_submit_emi_t) == sizeof(ompt_record_target_kernel_t),
               "EMI records");
_Static_assert(sizeof(ompt_any_record_ompt_t) == sizeof(((ompt_record_ompt_t *)0)->record),
               "record union");

#define MAXREC 100000
#define MAXOPS 10000
#define REGIONS 100   /* per thread, limits scenario */

static const char *scenario = "";
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int v60, limits, helper;
static int work_in_complete;   /* helper: 1 done, 2 returned */

static ompt_set_callback_t set_callback;
static ompt_device_t *dev;
static ompt_set_trace_ompt_t set_trace_ompt;
static ompt_start_trace_t start_trace;
static ompt_flush_trace_t flush_trace;
static ompt_stop_trace_t stop_trace;
static ompt_advance_buffer_cursor_t advance;
static ompt_get_record_ompt_t get_record_ompt;
static ompt_get_buffer_limits_t get_buffer_limits;
static uint64_t (*lost_records)(ompt_device_t *);
static int max_allocs;
static size_t rec_bytes;

static ompt_record_ompt_t recs[MAXREC];
static size_t nrecs;
static int outstanding, max_outstanding, nbuffers;

struct op {
    ompt_id_t id;
    ompt_target_data_op_t kind;
};
static struct op ops[MAXOPS];
static size_t nops;
static int kind_count[32];
static int rect_ok, rect_seen;

/* The rect copy: a 3x4 block of an 8x10 host array to a 6x5 device array. */
static int host2d[8][10], back2d[8][10];
static const size_t vol[2] = {3, 4}, hoff[2] = {2, 3}, doff[2] = {1, 1}, hdim[2] = {8, 10},
                    ddim[2] = {6, 5};

static void fail(const char *what)
{
    fprintf(stderr, "ompt60[%s]: FAIL: %s\n", scenario, what);
    _exit(1);
}

/* ------------------------------------------------------------- buffers */

static void on_request(int device_num, ompt_buffer_t **buffer, size_t *bytes)
{
    if (device_num != 0)
        fail("buffer_request for a device other than 0");
    pthread_mutex_lock(&mu);
    if (++outstanding > max_outstanding)
        max_outstanding = outstanding;
    nbuffers++;
    pthread_mutex_unlock(&mu);
    *bytes = rec_bytes;
    *buffer = malloc(rec_bytes);
}

static void on_complete(int device_num, ompt_buffer_t *buffer, size_t bytes,
                        ompt_buffer_cursor_t begin, int buffer_owned)
{
    if (device_num != 0 || !buffer_owned)
        fail("buffer_complete arguments");
    if (limits)
        usleep(1000);   /* a slow tool: buffers pile up unless the runtime waits */
    if (helper && !work_in_complete) {
        work_in_complete = 1;   /* alloc and delete: two data-op records, lost */
        omp_target_free(omp_target_alloc(8, 0), 0);
        work_in_complete = 2;
    }
    pthread_mutex_lock(&mu);
    ompt_buffer_cursor_t cur = begin;
    if (bytes) {
        do {
            if (nrecs == MAXREC)
                fail("too many records");
            recs[nrecs++] = *get_record_ompt(buffer, cur);
        } while (advance(dev, buffer, bytes, cur, &cur));
    }
    outstanding--;
    pthread_mutex_unlock(&mu);
    free(buffer);
}

/* ----------------------------------------------------------- callbacks */

static void on_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                           ompt_data_t *target_data, ompt_id_t *host_op_id,
                           ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                           void *dest_addr, int dest_device_num, size_t bytes,
                           const void *codeptr_ra)
{
    (void)target_task_data;
    (void)target_data;
    (void)codeptr_ra;
    if (optype == ompt_target_data_transfer_rect ||
        optype == ompt_target_data_transfer_rect_async) {
        /* 6.0: both addresses are subvolumes of the copy. */
        const ompt_subvolume_t *s = src_addr, *d = dest_addr;
        int host = omp_get_initial_device();
        rect_seen++;
        if (s->base == (void *)host2d && s->size == sizeof(int) && s->num_dims == 2 &&
            s->volume[0] == 3 && s->volume[1] == 4 && s->offsets[0] == 2 && s->offsets[1] == 3 &&
            s->dimensions[0] == 8 && s->dimensions[1] == 10 && d->size == sizeof(int) &&
            d->num_dims == 2 && d->offsets[0] == 1 && d->dimensions[1] == 5 &&
            d->volume == s->volume && src_device_num == host && dest_device_num == 0 &&
            bytes == 3 * 4 * sizeof(int))
            rect_ok++;
    }
    if (endpoint != ompt_scope_end)
        return;
    pthread_mutex_lock(&mu);
    if (nops == MAXOPS)
        fail("too many data ops");
    ops[nops++] = (struct op){*host_op_id, optype};
    if ((unsigned)optype < 32)
        kind_count[optype]++;
    pthread_mutex_unlock(&mu);
}

static void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                          ompt_data_t *task_data, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra)
{
    (void)kind, (void)endpoint, (void)device_num, (void)task_data, (void)target_task_data;
    (void)target_data, (void)codeptr_ra;
}

#define LOOKUP(var, type, name)                 \
    do {                                        \
        var = (type)lookup(name);               \
        if (!var)                               \
            fail("lookup of " name " failed");  \
    } while (0)

static void on_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation)
{
    (void)type;
    (void)documentation;
    if (device_num != 0)
        return;
    dev = device;
    LOOKUP(set_trace_ompt, ompt_set_trace_ompt_t, "ompt_set_trace_ompt");
    LOOKUP(start_trace, ompt_start_trace_t, "ompt_start_trace");
    LOOKUP(flush_trace, ompt_flush_trace_t, "ompt_flush_trace");
    LOOKUP(stop_trace, ompt_stop_trace_t, "ompt_stop_trace");
    LOOKUP(advance, ompt_advance_buffer_cursor_t, "ompt_advance_buffer_cursor");
    LOOKUP(get_record_ompt, ompt_get_record_ompt_t, "ompt_get_record_ompt");
    LOOKUP(lost_records, uint64_t(*)(ompt_device_t *), "pvomp_lost_records");
    rec_bytes = 16 * sizeof(ompt_record_ompt_t);
    if (v60 || limits || helper) {
        LOOKUP(get_buffer_limits, ompt_get_buffer_limits_t, "ompt_get_buffer_limits");
        size_t rec = 0;
        get_buffer_limits(device, &max_allocs, &rec);
        if (max_allocs < 1 || rec < sizeof(ompt_record_ompt_t) || rec % sizeof(ompt_record_ompt_t))
            fail("ompt_get_buffer_limits answers");
        const char *want = getenv("PVOMP_OMPT_TRACE_BUFFERS");
        if ((limits || helper) && (!want || max_allocs != atoi(want)))
            fail("ompt_get_buffer_limits: not PVOMP_OMPT_TRACE_BUFFERS");
        if (v60 && max_allocs < 4)
            fail("ompt_get_buffer_limits: the default is at least 4 buffers");
        /* limits: two records a buffer, so that many buffers are needed. */
        rec_bytes = limits || helper ? 2 * sizeof(ompt_record_ompt_t) : rec;
    }
    /* EMI numbers: a 6.0 tool gets records typed with them. */
    if (set_trace_ompt(device, 1, ompt_callback_target_emi) != ompt_set_always ||
        set_trace_ompt(device, 1, ompt_callback_target_data_op_emi) != ompt_set_always ||
        set_trace_ompt(device, 1, ompt_callback_target_submit_emi) != ompt_set_always)
        fail("set_trace_ompt");
    if (start_trace(device, on_request, on_complete) != 1)
        fail("start_trace");
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    LOOKUP(set_callback, ompt_set_callback_t, "ompt_set_callback");
    set_callback(ompt_callback_device_initialize, (ompt_callback_t)on_device_initialize);
    set_callback(ompt_callback_target_emi, (ompt_callback_t)on_target_emi);
    set_callback(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op_emi);
    return 1;
}

static void tool_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version;
    (void)runtime_version;
    const char *s = getenv("OMPT60_SCENARIO");
    scenario = s ? s : "";
    v60 = strcmp(scenario, "v60") == 0;
    limits = strcmp(scenario, "limits") == 0;
    helper = strcmp(scenario, "helper") == 0;
    static ompt_start_tool_result_t r = {tool_initialize, tool_finalize, {0}};
    return &r;
}

/* ------------------------------------------------------------- checks */

static size_t count_type(ompt_callbacks_t t)
{
    size_t n = 0;
    for (size_t i = 0; i < nrecs; i++)
        n += recs[i].type == t;
    return n;
}

/* The device work of the v60 and v51 scenarios. */
static void device_work(void)
{
    enum { N = 256 };
    int host = omp_get_initial_device();
    char h[N], b[N];
    memset(h, 3, N);
    int x = 1;
    #pragma omp target map(tofrom: x)
    x += 1;
    if (x != 2)
        fail("target region result");
    char *d = omp_target_alloc(N, 0);
    if (!d)
        fail("omp_target_alloc");
    if (omp_target_memcpy(d, h, N, 0, 0, 0, host) != 0)
        fail("omp_target_memcpy");
    omp_target_memset_v(d, 7, N / 2, 0);
    if (omp_target_memcpy(b, d, N, 0, 0, host, 0) != 0 || b[0] != 7 || b[N / 2 - 1] != 7 ||
        b[N / 2] != 3)
        fail("omp_target_memset result");
    omp_target_memset_async_v(d, 9, N, 0, 0, NULL);
    #pragma omp taskwait
    if (omp_target_memcpy_async_v(b, d, N, 0, 0, host, 0, 0, NULL) != 0)
        fail("omp_target_memcpy_async");
    #pragma omp taskwait
    if (b[0] != 9 || b[N - 1] != 9)
        fail("omp_target_memset_async / omp_target_memcpy_async result");
    omp_target_free(d, 0);

    int *d2 = omp_target_alloc(sizeof(int[6][5]), 0);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 10; j++)
            host2d[i][j] = 100 * i + j;
    if (omp_target_memcpy_rect(d2, host2d, sizeof(int), 2, vol, doff, hoff, ddim, hdim, 0,
                               host) != 0)
        fail("omp_target_memcpy_rect");
    if (omp_target_memcpy_rect_async_v(d2, host2d, sizeof(int), 2, vol, doff, hoff, ddim, hdim, 0,
                                     host, 0, NULL) != 0)
        fail("omp_target_memcpy_rect_async");
    #pragma omp taskwait
    const size_t zero[2] = {0, 0};
    if (omp_target_memcpy_rect(back2d, d2, sizeof(int), 2, vol, zero, doff, hdim, ddim, host,
                               0) != 0)
        fail("omp_target_memcpy_rect back");
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            if (back2d[i][j] != 100 * (i + 2) + j + 3)
                fail("omp_target_memcpy_rect result");
    omp_target_free(d2, 0);
}

/* Every data-op record matches a callback of the same id and kind, and
 * has the record type the tool should see. */
static void check_records(ompt_callbacks_t data_op, ompt_callbacks_t target,
                          ompt_callbacks_t submit)
{
    size_t ndata = count_type(data_op);
    if (ndata != nops)
        fail("not one data-op record per data-op callback");
    if (count_type(target) < 2 || count_type(submit) < 1)
        fail("target / submit records missing or of the wrong type");
    if (count_type(data_op) + count_type(target) + count_type(submit) != nrecs)
        fail("records of another type");
    for (size_t i = 0; i < nrecs; i++) {
        if (recs[i].type != data_op)
            continue;
        /* The same bytes: 6.0's view and 5.1's. */
        const ompt_record_target_data_op_emi_t *r = &recs[i].record.target_data_op_emi;
        if (r->host_op_id != recs[i].record.target_data_op.host_op_id)
            fail("the EMI record does not overlay the 5.1 record");
        int found = 0;
        for (size_t j = 0; j < nops; j++)
            found += ops[j].id == r->host_op_id && ops[j].kind == r->optype;
        if (found != 1)
            fail("a data-op record without its callback");
        if ((r->optype == ompt_target_data_transfer_rect ||
             r->optype == ompt_target_data_transfer_rect_async) &&
            ((r->src_addr != (void *)host2d && r->dest_addr != (void *)back2d) ||
             r->bytes != 3 * 4 * sizeof(int)))
            fail("transfer_rect record: the addresses are not the subvolumes' bases");
    }
}

static void scenario_kinds(void)
{
    device_work();
    if (flush_trace(dev) != 1)
        fail("flush_trace");
    int old_kinds = kind_count[ompt_target_data_transfer_to_device] +
                    kind_count[ompt_target_data_transfer_from_device];
    if (v60) {
        /* map to and from, and the two omp_target_memcpy: transfer. */
        if (kind_count[ompt_target_data_transfer] != 4 || old_kinds != 0 ||
            kind_count[ompt_target_data_transfer_async] != 1 ||
            kind_count[ompt_target_data_memset] != 1 ||
            kind_count[ompt_target_data_memset_async] != 1 ||
            kind_count[ompt_target_data_transfer_rect] != 2 ||
            kind_count[ompt_target_data_transfer_rect_async] != 1)
            fail("6.0 data-op kinds");
        /* Begin and end of three rect copies; the two to the device carry
         * exactly the subvolumes above (the copy back has other ones). */
        if (rect_seen != 6 || rect_ok != 4)
            fail("ompt_subvolume_t of transfer_rect");
        check_records(ompt_callback_target_data_op_emi, ompt_callback_target_emi,
                      ompt_callback_target_submit_emi);
    } else {
        /* 5.1: rows of the rect copies are transfers (3 rows each, three copies). */
        int new_kinds = 0;
        for (int k = ompt_target_data_transfer; k <= ompt_target_data_transfer_rect; k++)
            new_kinds += kind_count[k];
        for (int k = ompt_target_data_transfer_async; k <= ompt_target_data_transfer_rect_async; k++)
            new_kinds += kind_count[k];
        if (new_kinds != 0 || old_kinds != 2 + 3 + 9 || rect_seen != 0)
            fail("5.1 data-op kinds");
        check_records(ompt_callback_target_data_op, ompt_callback_target,
                      ompt_callback_target_submit);
    }
}

static void scenario_limits(void)
{
    /* The device (and tracing) starts here, before the threads race to it. */
    omp_target_free(omp_target_alloc(8, 0), 0);
    int nthreads = 0;
    #pragma omp parallel num_threads(4)
    {
        #pragma omp single
        nthreads = omp_get_num_threads();
        for (int i = 0; i < REGIONS; i++) {
            int y = i;
            #pragma omp target firstprivate(y)
            y++;
        }
    }
    if (stop_trace(dev) != 1)
        fail("stop_trace");
    size_t regions = (size_t)nthreads * REGIONS;
    if (nthreads != 4)
        fail("four threads");
    if (max_outstanding > max_allocs)
        fail("more buffers outstanding than ompt_get_buffer_limits allows");
    if (lost_records(dev) != 0)
        fail("records lost");
    if (count_type(ompt_callback_target_emi) != 2 * regions ||
        count_type(ompt_callback_target_submit_emi) != regions) {
        fprintf(stderr, "ompt60[limits]: %zu target records, %zu submit records, %zu regions\n",
                count_type(ompt_callback_target_emi),
                count_type(ompt_callback_target_submit_emi), regions);
        fail("not every record delivered");
    }
    printf("ompt60[limits]: %d buffers, at most %d outstanding (limit %d)\n", nbuffers,
           max_outstanding, max_allocs);
}

static void scenario_helper(void)
{
    omp_target_free(omp_target_alloc(8, 0), 0);
    for (int i = 0; i < 20; i++) {
        int y = i;
        #pragma omp target firstprivate(y)
        y++;
    }
    if (stop_trace(dev) != 1)
        fail("stop_trace");
    if (work_in_complete != 2)
        fail("no device work inside buffer_complete");
    if (lost_records(dev) != 2)
        fail("records made inside buffer_complete at the limit are not counted lost");
    if (count_type(ompt_callback_target_emi) != 40)
        fail("target records missing");
}

int main(void)
{
    if (!*scenario)
        fail("OMPT60_SCENARIO not set (or the tool was not started)");
    if (limits)
        scenario_limits();
    else if (helper)
        scenario_helper();
    else
        scenario_kinds();
    printf("ompt60[%s]: ok\n", scenario);
    return 0;
}
