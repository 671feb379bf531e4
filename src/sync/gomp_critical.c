/* critical (unnamed and named) and the atomic fallback lock.
 *
 * A critical lock is a 32-bit futex word: 0 free, 1 held, 2 held with
 * possible sleepers.  A named critical's lock word lives in the pointer-sized
 * common symbol that gcc emits for the name (.gomp_critical_user_<name>),
 * which starts zeroed. */
#include "abi/gomp.h"
#include "ompt/ompt.h"
#include "runtime/mutex.h"
#include "trace/held.h"

static _Atomic uint32_t unnamed_lock;
static _Atomic uint32_t atomic_lock;

/* One flag test per site, shared by the trace points and OMPT: the critical
 * group's trace flags, in which an attached tool sets a bit of its own
 * (ompt/observe.c).  Untraced and without a tool a site is the bare lock,
 * as in a build without OMPT; otherwise it goes out of line (the exported
 * function reads its return address for the tool only in that branch, so
 * the bare path needs no stack frame).  Nothing is recorded while the lock
 * is held (trace/held.h).  kind: critical or atomic. */
static __attribute__((noinline)) void critical_lock_observed(_Atomic uint32_t *m, int kind,
                                                             const void *ra)
{
    bool tool = pv_ompt_tool();
    if (tool)
        pv_ompt_mutex_acquire(kind, m, ra);
    if (pv_trace_held_traced(PV_TRACE_HELD_CRITICAL))
        pv_trace_held_take_at(PV_TRACE_HELD_CRITICAL, m, ra, pv_mutex_trylock(m),
                              pv_mutex_lock_slow(m));
    else if (!pv_mutex_trylock(m))
        pv_mutex_lock_slow(m);
    if (tool)
        pv_ompt_mutex_acquired(kind, m, ra);
}

static __attribute__((noinline)) void critical_unlocked_observed(_Atomic uint32_t *m, int kind,
                                                                 const void *ra)
{
    pv_trace_held_release(PV_TRACE_HELD_CRITICAL, m);
    if (pv_ompt_tool())
        pv_ompt_mutex_released(kind, m, ra);
}

/* Somebody may sleep on the word: wake one, then the site's test.  Out of
 * line (a tail call, as the observed branch), so that GOMP_critical_end
 * needs no stack frame for the call and can read its return address in
 * either branch without one. */
static __attribute__((noinline)) void critical_unlocked_wake(_Atomic uint32_t *m, int kind,
                                                             const void *ra)
{
    pv_wake_word(m, 1);
    if (pv_trace_held_on(PV_TRACE_HELD_CRITICAL))
        critical_unlocked_observed(m, kind, ra);
}

#define CRITICAL_LOCK(m, kind)                                                          \
    do {                                                                                \
        if (pv_trace_held_on(PV_TRACE_HELD_CRITICAL))                                   \
            critical_lock_observed((m), (kind), pv_ompt_entry_ra());                    \
        else if (!pv_mutex_trylock(m))                                                  \
            pv_mutex_lock_slow(m);                                                      \
    } while (0)

#define CRITICAL_UNLOCK(m, kind)                                                        \
    do {                                                                                \
        if (pv_mutex_release(m))                                                        \
            critical_unlocked_wake((m), (kind), pv_ompt_entry_ra());                    \
        else if (pv_trace_held_on(PV_TRACE_HELD_CRITICAL))                              \
            critical_unlocked_observed((m), (kind), pv_ompt_entry_ra());                \
    } while (0)

PV_EXPORT void GOMP_critical_start(void)
{
    CRITICAL_LOCK(&unnamed_lock, ompt_mutex_critical);
}

PV_EXPORT void GOMP_critical_end(void)
{
    CRITICAL_UNLOCK(&unnamed_lock, ompt_mutex_critical);
}

_Static_assert(sizeof(void *) >= sizeof(_Atomic uint32_t), "lock word must fit in a pointer");

PV_EXPORT void GOMP_critical_name_start(void **pptr)
{
    CRITICAL_LOCK((_Atomic uint32_t *)pptr, ompt_mutex_critical);
}

PV_EXPORT void GOMP_critical_name_end(void **pptr)
{
    CRITICAL_UNLOCK((_Atomic uint32_t *)pptr, ompt_mutex_critical);
}

/* The atomic fallback lock is traced as a critical section on its own lock. */
PV_EXPORT void GOMP_atomic_start(void)
{
    CRITICAL_LOCK(&atomic_lock, ompt_mutex_atomic);
}

PV_EXPORT void GOMP_atomic_end(void)
{
    CRITICAL_UNLOCK(&atomic_lock, ompt_mutex_atomic);
}
