/* Event sites that share one flag test with a trace point.
 *
 * Without a tool such a site costs exactly what it costs in a build without
 * OMPT: it tests only the trace flag it tests anyway.  So that it also sees
 * a tool, the tool's bit (PV_TRACE_OBSERVED) is set in that flag while a
 * tool is attached; the site's out-of-line branch then records the trace
 * event if bit 0 says so and dispatches the OMPT events if a tool is active.
 *
 * The bits are set before pv_ompt_active (tool.c): a site that sees the bit
 * without an active tool dispatches nothing, one that sees the tool active
 * sees the bit (the constructor attaches the tool before the program runs a
 * construct).  They are cleared after the tool is detached.  The entry
 * points without a test (PV_OMPT_SWITCHED) switch at the same moments. */
#include "ompt/patch.h"
#include "ompt/ompt.h"
#include "trace/held.h"
#include "trace/trace.h"

/* The flag each site tests (held groups: the 4-byte test of the group sees
 * any of its bytes, the first carries the bit). */
static const unsigned shared_flags[] = {
    PV_TRACE_HELD_CRITICAL, /* sync/gomp_critical.c: GOMP_critical_*, GOMP_atomic_* */
    PV_TRACE_HELD_LOCK,     /* sync/lock.c: omp_set_lock, omp_unset_lock */
    PV_TRACE_EV_barrier_enter, /* barrier_site.h: every team barrier, the join */
    PV_TRACE_EV_single,        /* loops/gomp_single.c: GOMP_single_start, GOMP_single_copy_start */
    PV_TRACE_EV_loop_chunk,    /* loop.h: every chunk a loop hands out */
    PV_TRACE_EV_parallel_begin,      /* team.c: the primary's fork */
    PV_TRACE_EV_parallel_end,        /* team.c: the primary's end of the region */
    PV_TRACE_EV_implicit_task_begin, /* team.c: a worker's implicit task */
    PV_TRACE_EV_task_create,   /* task_parts.h, task_internal.h: a task's creation, */
    PV_TRACE_EV_task_begin,    /* its body */
    PV_TRACE_EV_task_end,      /* and its end */
};

/* The entry points that switch to their variant with the events
 * (PV_OMPT_SWITCHED): the linker's bounds of their section (none without
 * OMPT). */
#ifndef PVOMP_NO_OMPT
extern const struct pv_ompt_switch __start_pv_ompt_switch[] PV_HIDDEN;
extern const struct pv_ompt_switch __stop_pv_ompt_switch[] PV_HIDDEN;
#endif

void pv_ompt_observe_sites(bool on)
{
    for (unsigned i = 0; i < sizeof shared_flags / sizeof shared_flags[0]; i++)
        pv_trace_observe(shared_flags[i], on);
#ifndef PVOMP_NO_OMPT
    for (const struct pv_ompt_switch *s = __start_pv_ompt_switch; s < __stop_pv_ompt_switch; s++)
        __atomic_store_n(s->entry, on ? s->told : s->plain, __ATOMIC_RELAXED);
    pv_ompt_patch_sites(on); /* and the patched ones (patch.h) */
#endif
}
