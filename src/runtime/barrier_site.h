/* The one barrier site: trace enter, OMPT begin, the wait, OMPT end, trace
 * leave, for every team barrier of the runtime (GOMP_barrier, the ends of
 * worksharing constructs, copyprivate, the join, task reductions).
 *
 * Inline, with `kind` and `trace_prev` constants at each call, so that a
 * site without a tool or trace costs the flag tests and the wait, and the
 * tool's side stays out of line (pv_barrier_observed). */
#ifndef PV_RUNTIME_BARRIER_SITE_H
#define PV_RUNTIME_BARRIER_SITE_H

#include "ompt/ompt.h"
#include "runtime/barrier.h"
#include "runtime/barrier_kind.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "trace/run_delay.h"
#include "trace/trace.h"

/* The trace records no cancellable barrier outside a team. */
static inline __attribute__((always_inline)) bool pv_barrier_traced(enum pv_barrier_kind kind,
                                                                     struct pv_team *team)
{
    return team || !pv_barrier_cancellable(kind);
}

/* The wait, with or without the tool's events around it, and the trace's
 * leave record. */
static inline __attribute__((always_inline)) bool
pv_barrier_wait_leave(enum pv_barrier_kind kind, struct pv_team *team, const void *codeptr,
                      bool tool)
{
    bool cancellable = pv_barrier_cancellable(kind);
    bool traced = pv_barrier_traced(kind, team);
    unsigned tkind = pv_barrier_trace_kind(kind);
    struct pv_barrier *b = !team ? NULL : kind == PV_BARRIER_JOIN ? &team->final : &team->barrier;
    bool cancelled;
    if (tool) {
        /* The record the begin hook hands to the end hook lives on this
         * frame: a region nested in a task run during the wait has its own. */
        struct pv_ompt_sync s;
        pv_ompt_barrier_begin(&s, kind, codeptr);
        cancelled = b && pv_barrier_wait(b, team, cancellable);
        pv_ompt_barrier_end(&s, cancelled);
    } else {
        cancelled = b && pv_barrier_wait(b, team, cancellable);
    }
    /* After a join the team may be reused by its primary: not touched here. */
    if (traced)
        trace_barrier_leave_after(wait_end, tkind); /* one clock read for both (trace.h) */
    return cancelled;
}

/* The sequence: the trace's enter record, then the above. */
static inline __attribute__((always_inline)) bool
pv_barrier_sequence(enum pv_barrier_kind kind, struct pv_team *team, unsigned trace_prev,
                    const void *codeptr, bool tool)
{
    unsigned tkind = pv_barrier_trace_kind(kind);
    if (pv_barrier_traced(kind, team) &&
        __builtin_expect(pv_trace_state[PV_TRACE_EV_barrier_enter] & PV_TRACE_TRACED, 0)) {
        if (trace_prev) /* right after that event: share its clock read (trace.h) */
            pv_trace_emit_after_barrier_enter(trace_prev, tkind);
        else
            pv_trace_emit_barrier_enter(tkind);
        pv_trace_run_delay_tick(); /* the arrival: what the member's work lost */
    }
    return pv_barrier_wait_leave(kind, team, codeptr, tool);
}

/* The sequence when traced or a tool is attached (barrier.c; out of line,
 * so that a site without either keeps nothing for them: not even the
 * codeptr).  The tool's events if one is attached (none for task
 * reductions' barrier). */
bool pv_barrier_observed(enum pv_barrier_kind kind, unsigned trace_prev, const void *codeptr)
    __attribute__((cold, noinline));

/* The site's one flag test, shared by the trace and OMPT: barrier_enter's
 * flag, in which an attached tool sets a bit of its own (ompt/observe.c).
 * Without either the site is the wait and the leave record's test, as in
 * a build without OMPT. */
#define pv_barrier_observed_on() pv_trace_site_on(PV_TRACE_EV_barrier_enter)

/* Waits at the current team's barrier (the join: its final barrier;
 * outside a team only the events).  trace_prev: the trace event emitted
 * right before, whose clock read the enter record shares (0: none);
 * in_entry: the site is inlined in the exported function the program
 * called, whose return address is the tool's codeptr_ra (else OMPT finds
 * it by unwinding, only when a tool wants it).  Returns true when a
 * cancellable kind was cancelled.  Task reductions' barrier has no OMPT
 * events. */
static inline __attribute__((always_inline)) bool
pv_barrier_at(enum pv_barrier_kind kind, unsigned trace_prev, bool in_entry)
{
    if (pv_barrier_observed_on()) {
        if (in_entry)
            PV_OMPT_FRAME(); /* the entry's frame: the task's enter_frame while it waits */
        return pv_barrier_observed(kind, trace_prev, in_entry ? pv_ompt_entry_ra() : NULL);
    }
    return pv_barrier_sequence(kind, pv_thr.ts.team, trace_prev, NULL, false);
}

/* The join of `team`, the caller's current team (its final barrier). */
static inline __attribute__((always_inline)) void pv_barrier_join(struct pv_team *team)
{
    if (pv_barrier_observed_on())
        pv_barrier_observed(PV_BARRIER_JOIN, PV_TRACE_EV_implicit_task_end, NULL);
    else
        pv_barrier_sequence(PV_BARRIER_JOIN, team, PV_TRACE_EV_implicit_task_end, NULL, false);
}

#endif
