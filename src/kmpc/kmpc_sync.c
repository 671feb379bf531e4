/* Synchronization through libomp's ABI: barrier, master, masked,
 * critical, flush, on pvomp's GOMP entry points (single, copyprivate and
 * ordered are src/loops': kmpc_single.c, kmpc_ordered.c). */
#include <stdatomic.h>

#include "kmpc/kmpc.h"
#include "runtime/barrier_site.h" /* pv_barrier_at */
#include "runtime/internal.h" /* pv_ompt_tool, the OMPT event sites */

PV_EXPORT void __kmpc_barrier(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
}

/* master and masked: OMPT's masked callback for the thread that runs the
 * body (begin here, end in end_masked, which only that thread calls);
 * codeptr is the program's call site. */
static kmp_int32 masked_begin(bool mine, const void *codeptr)
{
    if (mine && pv_ompt_tool())
        pv_ompt_masked(ompt_scope_begin, codeptr);
    return mine;
}

static void masked_end(const void *codeptr)
{
    if (pv_ompt_tool())
        pv_ompt_masked(ompt_scope_end, codeptr);
}

PV_EXPORT kmp_int32 __kmpc_master(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    return masked_begin(omp_get_thread_num() == 0, __builtin_return_address(0));
}

PV_EXPORT void __kmpc_end_master(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    masked_end(__builtin_return_address(0));
}

PV_EXPORT kmp_int32 __kmpc_masked(ident_t *loc, kmp_int32 gtid, kmp_int32 filter)
{
    (void)loc, (void)gtid;
    return masked_begin(omp_get_thread_num() == filter, __builtin_return_address(0));
}

PV_EXPORT void __kmpc_end_masked(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    masked_end(__builtin_return_address(0));
}

_Static_assert(sizeof(kmp_critical_name) >= sizeof(void *), "a GOMP critical name fits");

PV_EXPORT void __kmpc_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit)
{
    (void)loc, (void)gtid;
    GOMP_critical_name_start((void **)crit);
}

/* Hints are advisory (OpenMP 5.1 2.19.12): every hint gets the same lock. */
PV_EXPORT void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid,
                                         kmp_critical_name *crit, uint32_t hint)
{
    (void)loc, (void)gtid, (void)hint;
    GOMP_critical_name_start((void **)crit);
}

PV_EXPORT void __kmpc_end_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit)
{
    (void)loc, (void)gtid;
    GOMP_critical_name_end((void **)crit);
}

PV_EXPORT void __kmpc_flush(ident_t *loc)
{
    (void)loc;
    atomic_thread_fence(memory_order_seq_cst);
    if (pv_ompt_tool())
        pv_ompt_flush(__builtin_return_address(0));
}
