/* Mutual exclusion events: critical, atomic (the lock gcc falls back to),
 * ordered, and the lock API.  wait_id is the address of the lock word (of
 * the loop's ordered hand-over for ordered), so acquire, acquired and
 * released of one lock carry the same id.  While a thread waits its state
 * says what for; it returns to its work state when it has the lock. */
#include "ompt/events.h"

static int wait_state(int kind)
{
    switch (kind) {
    case ompt_mutex_critical:
        return ompt_state_wait_critical;
    case ompt_mutex_atomic:
        return ompt_state_wait_atomic;
    case ompt_mutex_ordered:
        return ompt_state_wait_ordered;
    default:
        return ompt_state_wait_lock;
    }
}

static inline ompt_wait_id_t wid(const void *p)
{
    return (ompt_wait_id_t)(uintptr_t)p;
}

void pv_ompt_mutex_acquire(int kind, const void *wait_id, const void *codeptr)
{
    pv_ompt_enter();
    pv_ompt_set_state(wait_state(kind), wait_id);
    if (pv_ompt_on(mutex_acquire))
        pv_ompt_call(mutex_acquire, kind, 0, PV_OMPT_MUTEX_IMPL_FUTEX, wid(wait_id),
                     pv_ompt_codeptr(codeptr));
}

void pv_ompt_mutex_acquired(int kind, const void *wait_id, const void *codeptr)
{
    pv_ompt_set_state(pv_ompt_work_state(), NULL);
    if (pv_ompt_on(mutex_acquired))
        pv_ompt_callt(mutex_acquired, mutex, kind, wid(wait_id), pv_ompt_codeptr(codeptr));
}

void pv_ompt_mutex_failed(void)
{
    pv_ompt_set_state(pv_ompt_work_state(), NULL);
}

void pv_ompt_mutex_released(int kind, const void *wait_id, const void *codeptr)
{
    pv_ompt_enter();
    if (pv_ompt_on(mutex_released))
        pv_ompt_callt(mutex_released, mutex, kind, wid(wait_id), pv_ompt_codeptr(codeptr));
}

void pv_ompt_lock_init(int kind, unsigned hint, const void *wait_id, const void *codeptr)
{
    pv_ompt_enter();
    if (pv_ompt_on(lock_init))
        pv_ompt_callt(lock_init, mutex_acquire, kind, hint, PV_OMPT_MUTEX_IMPL_FUTEX, wid(wait_id),
                      pv_ompt_codeptr(codeptr));
}

void pv_ompt_lock_destroy(int kind, const void *wait_id, const void *codeptr)
{
    pv_ompt_enter();
    if (pv_ompt_on(lock_destroy))
        pv_ompt_callt(lock_destroy, mutex, kind, wid(wait_id), pv_ompt_codeptr(codeptr));
}

void pv_ompt_nest_lock(int endpoint, const void *wait_id, const void *codeptr)
{
    pv_ompt_enter();
    if (endpoint == ompt_scope_begin)   /* the owner's acquire did not wait */
        pv_ompt_set_state(pv_ompt_work_state(), NULL);
    if (pv_ompt_on(nest_lock))
        pv_ompt_call(nest_lock, endpoint, wid(wait_id), pv_ompt_codeptr(codeptr));
}
