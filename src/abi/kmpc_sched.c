/* run-sched-var as libomp's routines show it (docs/kmpc.md,
 * "Implementation-defined answers"): libgomp's view, as omp_get_schedule
 * gives it, turned into libomp's where pv_icv.run_sched_kmp says the two
 * differ (libomp's default is static unchunked, OMP_SCHEDULE=static shows
 * no monotonic modifier, trapezoidal is libomp's kind 101).  Both the
 * omp_get_schedule@VERSION answer (src/api/kmpc_answers.c) and a clang
 * program's schedule(runtime) loops (src/loops/kmpc_dispatch.c) use it. */
#include "abi/kmpc.h"
#include "runtime/icv.h"
#include "runtime/thread.h"

void pv_kmpc_sched_view(int *kind, int *chunk)
{
    switch (pv_icv_get()->run_sched_kmp) {
    case PV_RUN_SCHED_KMP_DEFAULT:
        *kind = PV_SCHED_STATIC;
        *chunk = 0;
        break;
    case PV_RUN_SCHED_KMP_NO_MODIFIER:
        *kind = (int)((unsigned)*kind & ~PV_KMP_SCHED_MONOTONIC);
        break;
    case PV_RUN_SCHED_KMP_TRAPEZOIDAL:
        *kind = (int)(((unsigned)*kind & PV_KMP_SCHED_MONOTONIC) | PV_KMP_SCHED_TRAPEZOIDAL);
        break;
    default:
        break;
    }
}
