/* Contended path of the futex mutex (mutex.h). */
#include "runtime/mutex.h"

void pv_mutex_lock_slow(_Atomic uint32_t *m)
{
    /* Held without sleepers: spin as the policy allows, then try once. */
    if (atomic_load_explicit(m, memory_order_relaxed) == 1)
        pv_spin_while_eq(m, ~0u, 1);
    if (pv_mutex_trylock(m))
        return;
    /* From now on take the lock as 2 ("maybe sleepers"), so that our unlock
     * wakes the next sleeper: a woken thread never hides the others. */
    while (atomic_exchange_explicit(m, 2, memory_order_acquire) != 0)
        pv_wait_word(m, 2);
}
