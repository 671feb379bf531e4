/* OMPT device tracing (OpenMP 5.1, 4.2.5 and 4.6.2): the trace buffers of
 * pvomp's devices, as the runtime's event sites see them.
 *
 * A thread that records an event copies one ompt_record_ompt_t into its own
 * current buffer for that device: no lock, one atomic exchange.  Full
 * buffers, and the partly filled buffers that flush_trace and stop_trace
 * collect, go to a FIFO that one helper thread per device empties by calling
 * the tool's buffer_complete -- once per buffer, with buffer_owned set.
 * docs/target.md tells the whole protocol. */
#ifndef PV_OMPT_DEVICE_TRACE_H
#define PV_OMPT_DEVICE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <stdatomic.h>

#include "omp-tools.h"

#define PV_DT_MAX_DEVICES 4

/* Devices whose tracing is started (any): the event sites' first test. */
extern _Atomic unsigned pv_dtrace_started;

/* Should a record of this type be produced for the device now?  (Started,
 * not paused, type enabled with set_trace_ompt.) */
bool pv_dtrace_wants(int device, ompt_callbacks_t type);
static inline bool pv_dtrace_any(void)
{
    return __builtin_expect(atomic_load_explicit(&pv_dtrace_started, memory_order_relaxed) != 0, 0);
}

/* The tool uses OpenMP 6.0's tracing interface (it looked up a 6.0-only
 * device entry point): it is told 6.0's data-op kinds and gets 6.0 records. */
bool pv_dtrace_v60(void);

/* The type a record of `type` (a non-EMI target event) carries: the EMI
 * number when a 6.0 tool enabled it by that number, else `type`. */
ompt_callbacks_t pv_dtrace_record_type(int device, ompt_callbacks_t type);

/* Store one record (the caller filled it, times included). */
void pv_dtrace_emit(int device, const ompt_record_ompt_t *rec);

/* The device's handle and lookup function for device_initialize. */
ompt_device_t *pv_dtrace_handle(int device);
ompt_interface_fn_t pv_dtrace_lookup(const char *name);

/* The tool is going away: stop tracing on the device, deliver everything,
 * end the helper thread; no buffer callback is made afterwards. */
void pv_dtrace_finalize(int device);

/* Records that could not be stored since the last start (no buffer). */
uint64_t pv_dtrace_lost(int device);

/* Device time: CLOCK_MONOTONIC nanoseconds (the host's omp_get_wtime base). */
uint64_t pv_dtrace_now(void);

#endif
