/* single through libomp's ABI: single/end_single on GOMP_single_start
 * (gomp_single.c), and copyprivate, the clause clang emits for it. */
#include <stdatomic.h>

#include "abi/kmpc.h"
#include "ompt/ompt.h"            /* pv_ompt_tool, the OMPT event sites */
#include "runtime/barrier_site.h" /* pv_barrier_at */

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
