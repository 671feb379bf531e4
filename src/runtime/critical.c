/* critical (unnamed and named) and the atomic fallback lock.
 *
 * A critical lock is a 32-bit futex word: 0 free, 1 held, 2 held with
 * possible sleepers.  A named critical's lock word lives in the pointer-sized
 * common symbol that gcc emits for the name (.gomp_critical_user_<name>),
 * which starts zeroed. */
#include "runtime/internal.h"
#include "runtime/mutex.h"
#include "trace/held.h"

static _Atomic uint32_t unnamed_lock;
static _Atomic uint32_t atomic_lock;

/* Trace points: nothing is recorded while the lock is held (trace/held.h).
 * The traced acquisition is out of line, so that the untraced one needs no
 * stack frame: then the exported functions read their return address for
 * a tool only in the branch that has one (pv_ompt_entry_ra). */
static __attribute__((noinline)) void critical_lock_traced(_Atomic uint32_t *m)
{
    pv_trace_held_take(PV_TRACE_HELD_CRITICAL, m, pv_mutex_trylock(m), pv_mutex_lock_slow(m));
}

static inline void critical_lock(_Atomic uint32_t *m)
{
    if (pv_trace_held_on(PV_TRACE_HELD_CRITICAL))
        critical_lock_traced(m);
    else if (!pv_mutex_trylock(m))
        pv_mutex_lock_slow(m);
}

/* With a tool attached: the mutex events (kind: critical or atomic) around
 * the acquisition.  Out of line, so that without a tool GOMP_critical_*start
 * and GOMP_atomic_start are the bare lock. */
static __attribute__((noinline)) void critical_lock_under_tool(_Atomic uint32_t *m, int kind,
                                                               const void *ra)
{
    pv_ompt_mutex_acquire(kind, m, ra);
    critical_lock(m);
    pv_ompt_mutex_acquired(kind, m, ra);
}

static inline void critical_unlock(_Atomic uint32_t *m)
{
    pv_mutex_unlock(m);
    pv_trace_held_release(PV_TRACE_HELD_CRITICAL, m);
}

PV_EXPORT void GOMP_critical_start(void)
{
    if (pv_ompt_tool())
        critical_lock_under_tool(&unnamed_lock, ompt_mutex_critical, pv_ompt_entry_ra());
    else
        critical_lock(&unnamed_lock);
}

PV_EXPORT void GOMP_critical_end(void)
{
    critical_unlock(&unnamed_lock);
    if (pv_ompt_tool())
        pv_ompt_mutex_released(ompt_mutex_critical, &unnamed_lock, pv_ompt_entry_ra());
}

_Static_assert(sizeof(void *) >= sizeof(_Atomic uint32_t), "lock word must fit in a pointer");

PV_EXPORT void GOMP_critical_name_start(void **pptr)
{
    if (pv_ompt_tool())
        critical_lock_under_tool((_Atomic uint32_t *)pptr, ompt_mutex_critical,
                                 pv_ompt_entry_ra());
    else
        critical_lock((_Atomic uint32_t *)pptr);
}

PV_EXPORT void GOMP_critical_name_end(void **pptr)
{
    critical_unlock((_Atomic uint32_t *)pptr);
    if (pv_ompt_tool())
        pv_ompt_mutex_released(ompt_mutex_critical, (_Atomic uint32_t *)pptr, pv_ompt_entry_ra());
}

/* The atomic fallback lock is traced as a critical section on its own lock. */
PV_EXPORT void GOMP_atomic_start(void)
{
    if (pv_ompt_tool())
        critical_lock_under_tool(&atomic_lock, ompt_mutex_atomic, pv_ompt_entry_ra());
    else
        critical_lock(&atomic_lock);
}

PV_EXPORT void GOMP_atomic_end(void)
{
    critical_unlock(&atomic_lock);
    if (pv_ompt_tool())
        pv_ompt_mutex_released(ompt_mutex_atomic, &atomic_lock, pv_ompt_entry_ra());
}
