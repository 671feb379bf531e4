/* The barrier through libomp's ABI: __kmpc_barrier, GOMP_barrier's body
 * inlined (PV_KMPC_BARRIER, abi/kmpc.h); the split barriers are
 * kmpc_split_barrier.c. */
#include "abi/kmpc.h"
#include "runtime/barrier_site.h" /* pv_barrier_at */

PV_EXPORT void __kmpc_barrier(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
}
