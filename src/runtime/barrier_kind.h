/* The kinds of team barrier, one enumeration for the trace and for OMPT.
 *
 * 0..4 are the kinds the trace records (src/trace/trace-events,
 * barrier_enter/leave); the two after them are constructs that the trace
 * files under one of those but OMPT reports as something else: a
 * copyprivate barrier is a worksharing end to the trace and an
 * implementation barrier to OMPT; a cancellable end of a worksharing
 * construct is "cancellable" to the trace and an implicit workshare
 * barrier to OMPT.  pv_barrier_trace_kind() gives the trace's number, the
 * OMPT module maps every kind to its sync-region kind.  The names of 0..4
 * are the catalog's (#enum barrier_kind: explicit, workshare, join, cancel,
 * other); where the catalog's generated enum exists, these take its values. */
#ifndef PV_RUNTIME_BARRIER_KIND_H
#define PV_RUNTIME_BARRIER_KIND_H

enum pv_barrier_kind {
    PV_BARRIER_EXPLICIT = 0,         /* GOMP_barrier: explicit, or after single/sections */
    PV_BARRIER_WORKSHARE = 1,        /* end of a worksharing construct (loops, sections) */
    PV_BARRIER_JOIN = 2,             /* end of a parallel region (team->final) */
    PV_BARRIER_CANCEL = 3,           /* GOMP_barrier_cancel */
    PV_BARRIER_OTHER = 4,            /* task reductions (no OMPT events) */
    PV_BARRIER_COPYPRIVATE = 5,      /* single copyprivate: traced as 1 */
    PV_BARRIER_WORKSHARE_CANCEL = 6, /* cancellable end of a loop or sections: traced as 3 */
};

/* The kind as the trace catalog numbers it. */
static inline unsigned pv_barrier_trace_kind(enum pv_barrier_kind k)
{
    return k == PV_BARRIER_COPYPRIVATE ? PV_BARRIER_WORKSHARE
         : k == PV_BARRIER_WORKSHARE_CANCEL ? PV_BARRIER_CANCEL : (unsigned)k;
}

static inline int pv_barrier_cancellable(enum pv_barrier_kind k)
{
    return k == PV_BARRIER_CANCEL || k == PV_BARRIER_WORKSHARE_CANCEL;
}

#endif
