/* The writer's doorbell: producers (a ring a quarter fuller, a thread's
 * exit, a first drop, a snapshot request, a flush) ring it; the writer
 * sleeps on it between passes.  Below the writer and its sinks, so that
 * neither calls the other to wake it. */
#ifndef PV_TRACE_DOORBELL_H
#define PV_TRACE_DOORBELL_H

#include <stdint.h>

#include "base/compiler.h"

/* An atomic add, and a futex wake only when the writer sleeps. */
void pv_trace_doorbell_ring(void) PV_HIDDEN;
/* The writer: the count before a pass, then a sleep until it changes or
 * period_ms pass (0: no timeout). */
uint32_t pv_trace_doorbell_count(void) PV_HIDDEN;
void pv_trace_doorbell_sleep(uint32_t seen, unsigned period_ms) PV_HIDDEN;

#endif
