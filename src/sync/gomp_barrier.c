/* The barrier directive: GOMP_barrier and its cancellable form, each the
 * runtime's one barrier site (runtime/barrier_site.h). */
#include "abi/gomp.h"
#include "runtime/barrier_site.h"

PV_EXPORT void GOMP_barrier(void)
{
    pv_barrier_at(PV_BARRIER_EXPLICIT, 0, true);
}

PV_EXPORT bool GOMP_barrier_cancel(void)
{
    return pv_barrier_at(PV_BARRIER_CANCEL, 0, true);
}
