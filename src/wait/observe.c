/* Events derived from what the runtime observes rather than from one call
 * site: the phantom count.  Every waiter that reads the count reports it;
 * only a change of the process-wide value becomes a phantom_change record,
 * which also carries the page's smoothed average and update sequence number
 * as they are when the record is written. */
#include "phantom/phantom.h"
#include "pvomp/phantom.h"
#include "trace/trace.h"
#include "wait/observe.h"

static _Atomic uint32_t last_phantoms;

void pv_wait_phantoms_observed(uint32_t phantoms)
{
    if (atomic_load_explicit(&last_phantoms, memory_order_relaxed) == phantoms)
        return;
    if (atomic_exchange_explicit(&last_phantoms, phantoms, memory_order_relaxed) == phantoms)
        return;
    uint64_t avg = 0, seq = 0;
    const volatile struct pvomp_phantom_proc *page = pv_phantom_page();
    if (page) {
        /* The tracker bumps seq after every change of the counts and the
         * average; reading seq on both sides of avg gives a pair that
         * belongs together unless the page keeps changing (then: the
         * latest reads). */
        for (int tries = 0; tries < 4; tries++) {
            seq = page->seq;
            avg = page->avg;
            if (page->seq == seq)
                break;
        }
    }
    trace_phantom_change(phantoms, avg, seq);
}
