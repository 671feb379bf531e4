/* What the writer drains: every thread's ring not yet freed, and the log's
 * own records (declarations) queued for its next pass.  The writer and the
 * crash handler (flight.c) read it; threads add to it. */
#ifndef PV_TRACE_REGISTRY_H
#define PV_TRACE_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

void pv_trace_registry_add(struct pv_trace_ring *r) PV_HIDDEN;
/* The list under its lock (the writer's pass, the quiesce at exit). */
void pv_trace_registry_lock(void) PV_HIDDEN;
void pv_trace_registry_unlock(void) PV_HIDDEN;
struct pv_trace_ring *pv_trace_registry_first(void) PV_HIDDEN; /* with the lock held */
void pv_trace_registry_remove(struct pv_trace_ring *r) PV_HIDDEN; /* takes the lock */
/* The newest ring (the list goes on through ->next), for the crash handler,
 * which takes no lock (flight.c says why it may walk it). */
struct pv_trace_ring *pv_trace_registry_head(void) PV_HIDDEN;

/* Queue records (mapping + declaration) that the writer must put in the log
 * before any chunk committed after this call. */
void pv_trace_meta_append(const void *bytes, size_t len) PV_HIDDEN;
/* The writer: everything queued so far, the queue left empty. */
struct pv_trace_buf pv_trace_meta_take(void) PV_HIDDEN;
/* What is queued, without the lock (for the crash handler). */
void pv_trace_meta_pending(const uint8_t **p, size_t *len) PV_HIDDEN;

/* In a fork child: an empty registry and fresh locks. */
void pv_trace_registry_forget(void) PV_HIDDEN;

#endif
