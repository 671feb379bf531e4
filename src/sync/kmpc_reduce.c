/* Reductions through libomp's ABI.  clang asks __kmpc_reduce{,_nowait}
 * which method to use: 1 = "combine under the lock, then call end_reduce",
 * 2 = "combine with atomics", 0 = "nothing to do here".  pvomp answers 1
 * (libomp's critical method) with the lock clang passes, a kmp_critical_name
 * of its own per reduction; a team of one skips the lock. */
#include "abi/kmpc.h"
#include "ompt/ompt.h"            /* pv_ompt_tool, the OMPT event sites */
#include "runtime/barrier_site.h" /* pv_barrier_at */

typedef void (*reduce_fn)(void *lhs, void *rhs);

/* OMPT's reduction callback: begin before the lock, end after it (as
 * libomp's critical method reports it), at the program's call site. */
static kmp_int32 reduce_begin(kmp_critical_name *lck, const void *codeptr)
{
    if (pv_ompt_tool())
        pv_ompt_reduction(ompt_scope_begin, codeptr);
    if (omp_get_num_threads() > 1)
        GOMP_critical_name_start((void **)lck);
    return 1;
}

static void reduce_end(kmp_critical_name *lck, const void *codeptr)
{
    if (omp_get_num_threads() > 1)
        GOMP_critical_name_end((void **)lck);
    if (pv_ompt_tool())
        pv_ompt_reduction(ompt_scope_end, codeptr);
}

PV_EXPORT kmp_int32 __kmpc_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars,
                                         size_t reduce_size, void *reduce_data,
                                         reduce_fn reduce_func, kmp_critical_name *lck)
{
    (void)loc, (void)gtid, (void)num_vars, (void)reduce_size, (void)reduce_data,
        (void)reduce_func;
    return reduce_begin(lck, __builtin_return_address(0));
}

PV_EXPORT void __kmpc_end_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck)
{
    (void)loc, (void)gtid;
    reduce_end(lck, __builtin_return_address(0));
}

PV_EXPORT kmp_int32 __kmpc_reduce(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars,
                                  size_t reduce_size, void *reduce_data,
                                  reduce_fn reduce_func, kmp_critical_name *lck)
{
    (void)loc, (void)gtid, (void)num_vars, (void)reduce_size, (void)reduce_data,
        (void)reduce_func;
    return reduce_begin(lck, __builtin_return_address(0));
}

/* The blocking form ends with the team's barrier: every partial result is
 * in before any thread reads the reduced variables. */
PV_EXPORT void __kmpc_end_reduce(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck)
{
    (void)loc, (void)gtid;
    reduce_end(lck, __builtin_return_address(0));
    PV_KMPC_BARRIER();
}
