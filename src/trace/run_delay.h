/* A traced thread's run delay: its time so far runnable but without a CPU
 * (the kernel's schedstat), recorded as run_delay at the team's barriers so
 * that pvomp-trace advise can tell a member that lost its CPU while it
 * worked from one given more work.  A read costs a system call (1.6 us
 * measured on the development VM), so a thread reads at most once per
 * PV_RUN_DELAY_EVERY_NS of its records' time: under 0.2 % of its time. */
#ifndef PV_TRACE_RUN_DELAY_H
#define PV_TRACE_RUN_DELAY_H

#include "trace/trace.h"

#define PV_RUN_DELAY_EVERY_NS 1000000

void pv_trace_run_delay_read(struct pv_trace_ring *r) PV_HIDDEN __attribute__((cold, noinline));

/* Right after one of this thread's barrier records: read when that
 * record's time (so no clock read here) has reached the thread's next
 * reading time, a millisecond after its last (0 in a new ring: at once).
 * The event's flag is looked at there: a disabled run_delay costs this
 * test and one call a millisecond. */
static inline void pv_trace_run_delay_tick(void)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (r && r->last_ts >= r->run_delay_due)
        pv_trace_run_delay_read(r);
}

#endif
