/* Synchronization through libomp's ABI: barrier, single, master, masked,
 * critical, ordered, flush, copyprivate, on pvomp's GOMP entry points. */
#include <stdatomic.h>

#include "kmpc/kmpc.h"
#include "runtime/barrier_site.h" /* pv_barrier_at */
#include "runtime/internal.h" /* pv_ompt_tool, the OMPT event sites */

PV_EXPORT void __kmpc_barrier(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_KMPC_BARRIER();
}

PV_EXPORT kmp_int32 __kmpc_single(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_OMPT_GIVE_RA();
    return GOMP_single_start();
}

/* clang emits the closing barrier itself (unless nowait); only the executor
 * calls this: OMPT's end of its single. */
PV_EXPORT void __kmpc_end_single(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    if (pv_ompt_tool())
        pv_ompt_single_end(pv_ompt_entry_ra());
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

PV_EXPORT void __kmpc_ordered(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_ordered_start();
}

PV_EXPORT void __kmpc_end_ordered(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_ordered_end();
}

PV_EXPORT void __kmpc_flush(ident_t *loc)
{
    (void)loc;
    atomic_thread_fence(memory_order_seq_cst);
    if (pv_ompt_tool())
        pv_ompt_flush(__builtin_return_address(0));
}

/* copyprivate: the thread that ran the single (didit) publishes its data;
 * every thread copies from it between two barriers.  KNOWN LIMIT: one slot
 * for the process, so two teams running copyprivate at the same moment
 * (nested parallelism) would mix; a per-team slot is still to come. */
static void *_Atomic copyprivate_src;

PV_EXPORT void __kmpc_copyprivate(ident_t *loc, kmp_int32 gtid, size_t cpy_size,
                                  void *cpy_data, void (*cpy_func)(void *, void *),
                                  kmp_int32 didit)
{
    (void)loc, (void)gtid, (void)cpy_size;
    if (didit)
        atomic_store_explicit(&copyprivate_src, cpy_data, memory_order_relaxed);
    PV_KMPC_BARRIER(); /* publishes the source (the barrier orders memory) */
    if (!didit)
        cpy_func(cpy_data, atomic_load_explicit(&copyprivate_src, memory_order_relaxed));
    PV_KMPC_BARRIER(); /* the source outlives every copy */
}
