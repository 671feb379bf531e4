/* The writer's doorbell (doorbell.h). */
#include <time.h>

#include "base/linux.h"
#include "trace/doorbell.h"

static _Atomic uint32_t rings;
static _Atomic int sleeping;

void pv_trace_doorbell_ring(void)
{
    /* seq_cst pairs with the writer's seq_cst store of `sleeping` and load
     * of `rings`: either it sees this increment or we see it asleep. */
    atomic_fetch_add_explicit(&rings, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&sleeping, memory_order_seq_cst))
        pv_futex_wake(&rings, 1);
}

uint32_t pv_trace_doorbell_count(void)
{
    return atomic_load_explicit(&rings, memory_order_seq_cst);
}

void pv_trace_doorbell_sleep(uint32_t seen, unsigned period_ms)
{
    atomic_store_explicit(&sleeping, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&rings, memory_order_seq_cst) == seen) {
        struct timespec t = { (time_t)(period_ms / 1000), (long)(period_ms % 1000) * 1000000L };
        pv_futex_wait_for(&rings, seen, period_ms ? &t : NULL);
    }
    atomic_store_explicit(&sleeping, 0, memory_order_relaxed);
}
