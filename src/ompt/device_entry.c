/* The tracing entry points of a pvomp device (OpenMP 5.1, 4.6.2), handed to
 * the tool through the lookup function of device_initialize.
 *
 * Records: target (ompt_record_target_t, begin and end), target_data_op and
 * target_submit (ompt_record_target_kernel_t); the EMI event numbers select
 * the same records (for an OpenMP 6.0 tool typed with the EMI number: 6.0's
 * ompt_record_target_emi_t etc., the same layout).  target_map and every other event: never.  Native
 * records: never.  Cursors are addresses inside the buffer; every buffer is
 * handed back whole, so a record at `current` is valid while
 * current + its size <= buffer + bytes. */

#include <string.h>

#include "base/message.h"
#include "ompt/device_trace_int.h"
#include "ompt/entry_table.h"
#include "runtime/ompt_view.h"

#define TYPE_BIT(t) ((uint64_t)1 << (t))
static const uint64_t supported =
    TYPE_BIT(ompt_callback_target) | TYPE_BIT(ompt_callback_target_data_op) |
    TYPE_BIT(ompt_callback_target_submit);

/* EMI numbers select the record of the non-EMI event. */
static int record_type(unsigned etype)
{
    switch (etype) {
    case ompt_callback_target_emi:
        return ompt_callback_target;
    case ompt_callback_target_data_op_emi:
        return ompt_callback_target_data_op;
    case ompt_callback_target_submit_emi:
        return ompt_callback_target_submit;
    default:
        return (int)etype;
    }
}

static ompt_set_result_t set_trace_ompt(ompt_device_t *device, unsigned int enable,
                                        unsigned int etype)
{
    struct dt *d = pv_dt_from_handle(device);
    if (!d || etype > ompt_callback_target_map_emi + 1u)
        return ompt_set_error;
    uint64_t bits;
    if (etype == 0) {
        bits = supported;
    } else {
        int t = record_type(etype);
        if (!(supported & TYPE_BIT(t)))
            return enable ? ompt_set_never : ompt_set_always;
        bits = TYPE_BIT(t);
    }
    if (enable)
        atomic_fetch_or_explicit(&d->types, bits, memory_order_relaxed);
    else
        atomic_fetch_and_explicit(&d->types, ~bits, memory_order_relaxed);
    /* The number last enabled names the records (EMI or not). */
    if (enable && etype != 0 && (unsigned)record_type(etype) != etype)
        atomic_fetch_or_explicit(&d->emi_types, bits, memory_order_relaxed);
    else if (etype != 0)
        atomic_fetch_and_explicit(&d->emi_types, ~bits, memory_order_relaxed);
    /* All events at once: only some of them can be traced. */
    return etype == 0 && enable ? ompt_set_sometimes : ompt_set_always;
}

static ompt_set_result_t set_trace_native(ompt_device_t *device, int enable, int flags)
{
    (void)flags;
    if (!pv_dt_from_handle(device))
        return ompt_set_error;
    return enable ? ompt_set_never : ompt_set_always;
}

static int start_trace(ompt_device_t *device, ompt_callback_buffer_request_t request,
                       ompt_callback_buffer_complete_t complete)
{
    struct dt *d = pv_dt_from_handle(device);
    if (!d || !request || !complete)
        return 0;
    pthread_mutex_lock(&d->ctl);
    unsigned st = atomic_load_explicit(&d->state, memory_order_relaxed);
    if (st & (DT_STARTED | DT_FINAL)) {
        pthread_mutex_unlock(&d->ctl);
        return 0;
    }
    pv_dt_start_helper(d);
    d->request = request;
    d->complete = complete;
    atomic_store_explicit(&d->lost, 0, memory_order_relaxed);
    unsigned epoch = (st >> DT_EPOCH_SHIFT) + 1;
    /* Release: a producer that sees the new state sees the callbacks. */
    atomic_store_explicit(&d->state, epoch << DT_EPOCH_SHIFT | DT_STARTED, memory_order_seq_cst);
    atomic_fetch_add_explicit(&pv_dtrace_started, 1, memory_order_relaxed);
    pthread_mutex_unlock(&d->ctl);
    return 1;
}

static int pause_trace(ompt_device_t *device, int begin_pause)
{
    struct dt *d = pv_dt_from_handle(device);
    if (!d)
        return 0;
    pthread_mutex_lock(&d->ctl);
    unsigned st = atomic_load_explicit(&d->state, memory_order_relaxed);
    int ok = (st & DT_STARTED) != 0;
    if (ok)
        atomic_store_explicit(&d->state, begin_pause ? st | DT_PAUSED : st & ~(unsigned)DT_PAUSED,
                              memory_order_seq_cst);
    pthread_mutex_unlock(&d->ctl);
    return ok;
}

static int flush_trace(ompt_device_t *device)
{
    struct dt *d = pv_dt_from_handle(device);
    if (!d || (atomic_load_explicit(&d->state, memory_order_acquire) & DT_FINAL))
        return 0;
    pv_dt_flush(d);
    return 1;
}

static void report_lost(struct dt *d)
{
    uint64_t lost = atomic_load_explicit(&d->lost, memory_order_relaxed);
    if (lost)
        pv_note("device %d tracing: %llu records lost (the tool gave no usable buffer, or "
                "none came back in time: docs/target.md)",
                d->device_num, (unsigned long long)lost);
}

/* Ends the session (state store first: producers that see it stop), then
 * delivers what was recorded. */
static bool end_session(struct dt *d, unsigned extra)
{
    pthread_mutex_lock(&d->ctl);
    unsigned st = atomic_load_explicit(&d->state, memory_order_relaxed);
    bool was = (st & DT_STARTED) != 0;
    unsigned keep = (st & ~(unsigned)(DT_STARTED | DT_PAUSED | DT_FAULT)) | extra;
    atomic_store_explicit(&d->state, keep, memory_order_seq_cst);
    if (was)
        atomic_fetch_sub_explicit(&pv_dtrace_started, 1, memory_order_relaxed);
    pthread_mutex_unlock(&d->ctl);
    if (was) {
        pv_dt_flush(d);
        report_lost(d);
    }
    return was;
}

static int stop_trace(ompt_device_t *device)
{
    struct dt *d = pv_dt_from_handle(device);
    if (!d || (atomic_load_explicit(&d->state, memory_order_acquire) & DT_FINAL))
        return 0;
    return end_session(d, 0);
}

void pv_dtrace_finalize(int device)
{
    if (device < 0 || device >= PV_DT_MAX_DEVICES)
        return;
    struct dt *d = &pv_dt_devs[device];
    if (atomic_load_explicit(&d->state, memory_order_acquire) & DT_FINAL)
        return;
    end_session(d, DT_FINAL);
    pv_dt_flush(d);          /* buffers returned by racing producers */
    pv_dt_end_helper(d);
    __atomic_store_n(&d->no_callbacks, true, __ATOMIC_RELEASE);
}

static int advance_buffer_cursor(ompt_device_t *device, ompt_buffer_t *buffer, size_t size,
                                 ompt_buffer_cursor_t current, ompt_buffer_cursor_t *next)
{
    (void)device;
    uintptr_t start = (uintptr_t)buffer, cur = (uintptr_t)current;
    if (!buffer || !next || cur < start || cur - start > size)
        return 0;
    uintptr_t n = cur + DT_REC;
    if (n - start + DT_REC > size)
        return 0;
    *next = (ompt_buffer_cursor_t)n;
    return 1;
}

static ompt_record_t get_record_type(ompt_buffer_t *buffer, ompt_buffer_cursor_t current)
{
    if (!buffer || !current || (uintptr_t)current < (uintptr_t)buffer)
        return ompt_record_invalid;
    return ompt_record_ompt;
}

static ompt_record_ompt_t *get_record_ompt(ompt_buffer_t *buffer, ompt_buffer_cursor_t current)
{
    if (!buffer || !current || (uintptr_t)current < (uintptr_t)buffer)
        return NULL;
    return (ompt_record_ompt_t *)(uintptr_t)current;
}

static void *get_record_native(ompt_buffer_t *buffer, ompt_buffer_cursor_t current,
                               ompt_id_t *host_op_id)
{
    (void)buffer;
    (void)current;
    (void)host_op_id;
    return NULL;
}

static ompt_record_abstract_t *get_record_abstract(void *native_record)
{
    (void)native_record;
    return NULL;
}

static int get_device_num_procs(ompt_device_t *device)
{
    return pv_dt_from_handle(device) ? (int)pv_num_procs : 0;
}

static ompt_device_time_t get_device_time(ompt_device_t *device)
{
    return pv_dt_from_handle(device) ? pv_dtrace_now() : 0;
}

/* Device time is CLOCK_MONOTONIC in ns; omp_get_wtime is the same clock in s. */
static double translate_time(ompt_device_t *device, ompt_device_time_t time)
{
    (void)device;
    return (double)time * 1e-9;
}

/* OpenMP 6.0: the device keeps at most *max_concurrent_allocs buffers
 * outstanding (requested and not yet handed back) from now on, and would
 * like *recommended_bytes each. */
static void get_buffer_limits(ompt_device_t *device, int *max_concurrent_allocs,
                              size_t *recommended_bytes)
{
    struct dt *d = pv_dt_from_handle(device);
    if (!d)
        return;
    unsigned limit = pv_dt_buffer_limit();
    atomic_store_explicit(&d->limit, limit, memory_order_relaxed);
    if (max_concurrent_allocs)
        *max_concurrent_allocs = (int)limit;
    if (recommended_bytes)
        *recommended_bytes = pv_dt_buffer_bytes();
}

/* pvomp's own: records lost since the last start_trace. */
static uint64_t lost_records(ompt_device_t *device)
{
    struct dt *d = pv_dt_from_handle(device);
    return d ? atomic_load_explicit(&d->lost, memory_order_relaxed) : 0;
}

#define ENTRY(fn) {"ompt_" #fn, (ompt_interface_fn_t)(fn)}

static const struct pv_ompt_entry entries[] = {
    ENTRY(get_device_num_procs), ENTRY(get_device_time), ENTRY(translate_time),
    ENTRY(set_trace_ompt), ENTRY(set_trace_native), ENTRY(start_trace),
    ENTRY(pause_trace), ENTRY(flush_trace), ENTRY(stop_trace),
    ENTRY(advance_buffer_cursor), ENTRY(get_record_type), ENTRY(get_record_ompt),
    ENTRY(get_record_native), ENTRY(get_record_abstract), ENTRY(get_buffer_limits),
    {"pvomp_lost_records", (ompt_interface_fn_t)lost_records},
};

ompt_interface_fn_t pv_dtrace_lookup(const char *name)
{
    /* OpenMP has no version handshake from tool to runtime: a tool that
     * looks up 6.0's entry point was written for 6.0. */
    if (name && strcmp(name, "ompt_get_buffer_limits") == 0)
        pv_dt_mark_v60();
    return pv_ompt_entry_find(entries, sizeof entries / sizeof entries[0], name);
}
