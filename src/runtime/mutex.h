/* A futex mutex in one 32-bit word (0 free, 1 held, 2 held and contended),
 * waiting through the wait primitive.  Used by critical, atomic and locks. */
#ifndef PV_RUNTIME_MUTEX_H
#define PV_RUNTIME_MUTEX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "wait/wait.h"

void pv_mutex_lock_slow(_Atomic uint32_t *m);

static inline bool pv_mutex_trylock(_Atomic uint32_t *m)
{
    uint32_t free_word = 0;
    return atomic_compare_exchange_strong_explicit(m, &free_word, 1, memory_order_acquire,
                                                   memory_order_relaxed);
}

static inline void pv_mutex_lock(_Atomic uint32_t *m)
{
    if (!pv_mutex_trylock(m))
        pv_mutex_lock_slow(m);
}

/* Lets go of the word; true: somebody may sleep on it (the caller wakes
 * one, pv_wake_word(m, 1)). */
static inline bool pv_mutex_release(_Atomic uint32_t *m)
{
    /* Release: publishes the critical section to the next holder. */
    return atomic_exchange_explicit(m, 0, memory_order_release) == 2;
}

static inline void pv_mutex_unlock(_Atomic uint32_t *m)
{
    if (pv_mutex_release(m))
        pv_wake_word(m, 1);
}

#endif
