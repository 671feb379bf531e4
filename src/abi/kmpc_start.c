/* pv_kmpc_start, which every __kmpc_* entry calls first: the first one
 * initialises the runtime if nothing has yet, prints libomp's affinity
 * lines when asked, and, outside every region, reads OMP_SCHEDULE again in
 * case the program changed it with setenv before its first clang entry
 * (libomp reads the environment at its first call, pvomp at load;
 * src/api/kmpc_answers.c has the rest of libomp's answers). */
#include "abi/kmpc.h"
#include "runtime/icv.h"
#include "runtime/places.h"
#include "runtime/thread.h"
#include "runtime/omp_api.h"

/* Set once the first clang entry has done its switch. */
static bool started;

void pv_kmpc_start(void)
{
    if (__builtin_expect(__atomic_load_n(&started, __ATOMIC_ACQUIRE), 1))
        return;
    if (__atomic_exchange_n(&started, true, __ATOMIC_ACQ_REL))
        return;
    pv_runtime_init();
    pv_affinity_display_kmp();
    /* Only outside every region: a team may be reading the ICVs. */
    if (!__atomic_load_n(&pv_gicv.run_sched_api, __ATOMIC_RELAXED) && omp_get_level() == 0)
        pv_env_schedule_reread(pv_icv_get());
}
