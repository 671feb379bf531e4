/* The split barriers through libomp's ABI (__kmpc_barrier_master*), on
 * GOMP_barrier's body inlined (PV_KMPC_BARRIER, abi/kmpc.h).  A file of
 * their own: beside __kmpc_barrier, gcc folds end_barrier_master, whose body
 * is the same, into a jump to it. */
#include "abi/kmpc.h"
#include "runtime/barrier_site.h" /* pv_barrier_at */

/* A barrier whose primary thread runs a block (until end_barrier_master)
 * before the others leave it; they wait at a second barrier. */
PV_EXPORT kmp_int32 __kmpc_barrier_master(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
    if (omp_get_thread_num() == 0)
        return 1;
    PV_KMPC_BARRIER(); /* the primary's end_barrier_master */
    return 0;
}

PV_EXPORT void __kmpc_end_barrier_master(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
}

/* The same, the others not waiting for the primary's block. */
PV_EXPORT kmp_int32 __kmpc_barrier_master_nowait(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
    return omp_get_thread_num() == 0;
}
