/* Tracing sections held under a mutex: critical sections (and the atomic
 * fallback lock) and omp locks.
 *
 * Whatever is done while a lock is held lengthens the section for every
 * thread that waits for it, and reading the clock costs as much as a short
 * section.  So the time is read once before the first try, and used both
 * for asking and for getting the lock when that try succeeds; the
 * acquisition is only remembered (three stores into the thread's ring
 * header), and after the release a single `_held` record (lock, ns held)
 * stands for `_acquired` + `_release`.  When the first try fails, `_enter`
 * is written at the time of asking before the thread waits, and the time is
 * read again once it holds the lock.  If the thread records anything else
 * while it holds the lock, the remembered acquisition is written first (the
 * ring's limit is 0 meanwhile, so that the next record takes the slow path,
 * which writes it): a thread's records stay in time order, and the section
 * then ends with `_release`.
 *
 *     pv_trace_held_take(PV_TRACE_HELD_LOCK, w, try_lock(w), lock_slow(w));
 *     ...
 *     unlock(w);
 *     pv_trace_held_release(PV_TRACE_HELD_LOCK, w);
 *
 * Which records a section gives follows the flags: with `_held` disabled,
 * `_acquired` (at the acquisition's time) and `_release`. */
#ifndef PV_TRACE_HELD_H
#define PV_TRACE_HELD_H

#include "trace/trace.h"

/* A group is its four events, in this order in the catalog. */
#define PV_TRACE_HELD_CRITICAL PV_TRACE_EV_critical_enter
#define PV_TRACE_HELD_LOCK PV_TRACE_EV_lock_enter
enum { PV_TRACE_HELD_ENTER, PV_TRACE_HELD_ACQUIRED, PV_TRACE_HELD_RELEASE, PV_TRACE_HELD_HELD };
_Static_assert(PV_TRACE_EV_critical_acquired == PV_TRACE_HELD_CRITICAL + PV_TRACE_HELD_ACQUIRED &&
                   PV_TRACE_EV_critical_release == PV_TRACE_HELD_CRITICAL + PV_TRACE_HELD_RELEASE &&
                   PV_TRACE_EV_critical_held == PV_TRACE_HELD_CRITICAL + PV_TRACE_HELD_HELD,
               "critical_enter/acquired/release/held are consecutive in trace-events");
_Static_assert(PV_TRACE_EV_lock_acquired == PV_TRACE_HELD_LOCK + PV_TRACE_HELD_ACQUIRED &&
                   PV_TRACE_EV_lock_release == PV_TRACE_HELD_LOCK + PV_TRACE_HELD_RELEASE &&
                   PV_TRACE_EV_lock_held == PV_TRACE_HELD_LOCK + PV_TRACE_HELD_HELD,
               "lock_enter/acquired/release/held are consecutive in trace-events");

/* The group's four flag bytes, in one 4-byte load. */
static inline uint32_t pv_trace_held_flags(unsigned group)
{
    uint32_t flags;
    __builtin_memcpy(&flags, &pv_trace_state[group], sizeof flags);
    return flags;
}

/* Some event of the group is traced, or a tool observes the site (bit 1 of
 * a flag, PV_TRACE_OBSERVED): the one test of a site whose OMPT event
 * shares it (src/sync: gomp_critical.c, lock.c). */
static inline bool pv_trace_held_on(unsigned group)
{
    return __builtin_expect(pv_trace_held_flags(group) != 0, 0);
}

/* Some event of the group is traced. */
static inline bool pv_trace_held_traced(unsigned group)
{
    return __builtin_expect((pv_trace_held_flags(group) & (PV_TRACE_TRACED * 0x01010101u)) != 0,
                            0);
}

/* Before the first try: the time of asking, or 0 when the group is off. */
static inline uint64_t pv_trace_held_ask(unsigned group)
{
    return pv_trace_held_traced(group) ? pv_trace_now() : 0;
}

/* The first try failed: `_enter` at `asked` (the thread is about to wait);
 * critical_enter also carries the construct's call site `ra`. */
void pv_trace_held_enter(unsigned group, uint64_t asked, const void *obj,
                         const void *ra) PV_HIDDEN;

void pv_trace_held_got_slow(unsigned group, uint64_t at, const void *obj) PV_HIDDEN;

/* The thread holds `obj` since `at`: remembered, written later.
 *
 * The remembered acquisition is an event generated, so it must reach the
 * log even when the log closes while the lock is held.  The owner touches
 * the four fields only in flight (pending != committed), after seeing the
 * log open; the closing thread waits for flights to end
 * (pv_trace_writer_quiesce), after which no owner touches them again, and
 * the writer writes what is still remembered (writer.c, write_held). */
static inline void pv_trace_held_got(unsigned group, uint64_t at, const void *obj)
{
    struct pv_trace_ring *r = pv_trace_tls;
    if (__builtin_expect(r == NULL || r->held_id != 0, 0)) {
        pv_trace_held_got_slow(group, at, obj);
        return;
    }
    if (!pv_trace_enter_flight(r, r->head + 1))
        return;
    r->held_id = group + PV_TRACE_HELD_ACQUIRED;
    r->held_ts = at;
    r->held_obj = (uint64_t)(uintptr_t)obj;
    r->held_limit = r->limit;
    r->limit = 0;
    /* Release: the closing thread that sees the flight over sees the fields. */
    __atomic_store_n(&r->pending, r->head, __ATOMIC_RELEASE);
}

/* After the release of `obj`: `_held`, or `_release`. */
void pv_trace_held_released(unsigned group, const void *obj) PV_HIDDEN;

/* Take a lock: `try_expr` tries once (true: got it), `wait_stmt` waits until
 * the thread holds it.  Untraced: one flag test more than the lock itself.
 * _at: with the call site for `_enter` (critical sections). */
#define pv_trace_held_take(group, obj, try_expr, wait_stmt) \
    pv_trace_held_take_at(group, obj, NULL, try_expr, wait_stmt)
#define pv_trace_held_take_at(group, obj, ra, try_expr, wait_stmt)   \
    do {                                                             \
        uint64_t t_ = pv_trace_held_ask(group);                      \
        if (!(try_expr)) {                                           \
            if (t_)                                                  \
                pv_trace_held_enter((group), t_, (obj), (ra));       \
            wait_stmt;                                               \
            if (t_)                                                  \
                t_ = pv_trace_now();                                 \
        }                                                            \
        if (t_)                                                      \
            pv_trace_held_got((group), t_, (obj));                   \
    } while (0)

/* An acquisition that cannot wait (a successful test, a nestable lock's
 * owner taking it again): remembered with the time now. */
#define pv_trace_held_got_now(group, obj)                            \
    do {                                                             \
        uint64_t t_ = pv_trace_held_ask(group);                      \
        if (t_)                                                      \
            pv_trace_held_got((group), t_, (obj));                   \
    } while (0)

/* Call after letting go of `obj`. */
#define pv_trace_held_release(group, obj)                            \
    do {                                                             \
        if (pv_trace_held_traced(group))                             \
            pv_trace_held_released((group), (obj));                  \
    } while (0)

/* Write the calling thread's remembered acquisition now (ring.c before any
 * other record of the thread, thread exit, flush). */
void pv_trace_held_flush(void) PV_HIDDEN;

#endif
