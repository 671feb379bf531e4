/* The trace's settings and its on switch, below every file of the trace:
 * control.c sets them (from the environment, at start and stop), the rest
 * read them. */
#include "trace/trace.h"

struct pv_trace_config pv_trace_cfg = {
    .path = NULL,
    .bufsize = PV_TRACE_DEFAULT_BUFSIZE,
    .period_ms = 100,
    .direct = true,
    .max_bytes = 0,
    .ring = false,
    .ring_bytes = PV_TRACE_DEFAULT_RING,
    .ring_ns = 0,
    .budget = PV_TRACE_DEFAULT_BUDGET,
};
_Atomic int pv_trace_on;
