/* Waiters report the phantom count they read (observe.c); a change of the
 * process-wide value is recorded as the trace event phantom_change, with the
 * average and sequence number read from the phantom page then (0 without a
 * page).  Costs one flag test when the event is off.  It lives with the
 * waiters, above both the trace and the phantom page it joins. */
#ifndef PV_WAIT_OBSERVE_H
#define PV_WAIT_OBSERVE_H

#include <stdint.h>

#include "base/compiler.h"
#include "trace/trace.h"

void pv_wait_phantoms_observed(uint32_t phantoms) PV_HIDDEN;
#define pv_wait_report_phantoms(n)                                                \
    do {                                                                          \
        if (__builtin_expect(pv_trace_state[PV_TRACE_EV_phantom_change], 0))     \
            pv_wait_phantoms_observed((n));                                       \
    } while (0)

#endif
