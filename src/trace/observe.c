/* Events derived from what the runtime observes rather than from one call
 * site: the phantom count.  Every waiter that reads the count reports it;
 * only a change of the process-wide value becomes a phantom_change record. */
#include "trace/trace.h"

static _Atomic uint32_t last_phantoms;

void pv_trace_phantom_observed(uint32_t phantoms)
{
    if (atomic_load_explicit(&last_phantoms, memory_order_relaxed) == phantoms)
        return;
    if (atomic_exchange_explicit(&last_phantoms, phantoms, memory_order_relaxed) != phantoms)
        trace_phantom_change(phantoms, 0, 0);
}
