/* master and masked through libomp's ABI (barrier, critical and flush are
 * src/sync's: kmpc_barrier.c, kmpc_critical.c, kmpc_flush.c; single,
 * copyprivate and ordered are src/loops': kmpc_single.c, kmpc_ordered.c). */
#include "abi/kmpc.h"
#include "ompt/ompt.h" /* pv_ompt_tool, the OMPT event sites */

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
