/* libomp's answers where the specification leaves the answer to the
 * implementation, for clang programs (the omp_*@VERSION routines they bind
 * to); gcc programs keep libgomp's through the OMP_x.y versions.  The ICVs
 * stay one set per process (docs/kmpc.md, "Implementation-defined answers"):
 *
 * - devices: a clang program's target regions run on the host without
 *   pvomp's device (clang calls no GOMP_target), so, as libomp without an
 *   offload plugin, it sees no device: omp_get_num_devices is 0, and 0 is
 *   the initial device's number;
 * - run-sched-var: libomp's default is static unchunked (libgomp's
 *   dynamic,1), OMP_SCHEDULE=static shows no monotonic modifier, and libomp's
 *   own trapezoidal kind is 101 (pv_icv.run_sched_kmp says where the two
 *   views differ; omp_set_schedule takes 101 and 102, static_steal, too);
 *   a clang program's schedule(runtime) loops run this view
 *   (kmpc_dispatch.c);
 * - the environment: libomp reads it at its first call, pvomp at load, so
 *   the first clang entry reads OMP_SCHEDULE again if the program changed it
 *   (setenv) and no omp_set_schedule has set the ICV since;
 * - affinity: lines on stdout and libomp's default format (affinity_format.c,
 *   pv_affinity_display_kmp). */
#include "abi/kmpc.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/thread.h"
#include "target/target.h"
#include "runtime/omp_api.h"

PV_EXPORT void pv_kmp_omp_get_schedule(int *kind, int *chunk)
{
    pv_kmpc_start();
    int k, c;
    omp_get_schedule(&k, &c);
    pv_kmpc_sched_view(&k, &c);
    if (kind)
        *kind = k;
    if (chunk)
        *chunk = c;
}
PV_KMP_SYMVER(pv_kmp_omp_get_schedule, omp_get_schedule);

/* libomp's own kinds as OMP_SCHEDULE's words for them (env.c): trapezoidal
 * runs as guided and libomp's view shows 101; static_steal runs, and is
 * shown, as dynamic (libomp 14 takes 102, then its omp_get_schedule stops
 * the program: "Unknown scheduling type"). */
PV_EXPORT void pv_kmp_omp_set_schedule(int kind, int chunk)
{
    pv_kmpc_start();
    unsigned modifier = (unsigned)kind & PV_KMP_SCHED_MONOTONIC;
    switch ((unsigned)kind & ~PV_KMP_SCHED_MONOTONIC) {
    case PV_KMP_SCHED_TRAPEZOIDAL:
        pv_icv_set_schedule((int)(modifier | PV_SCHED_GUIDED), chunk, PV_RUN_SCHED_KMP_TRAPEZOIDAL);
        break;
    case PV_KMP_SCHED_STATIC_STEAL:
        pv_icv_set_schedule((int)(modifier | PV_SCHED_DYNAMIC), chunk, PV_RUN_SCHED_KMP_SAME);
        break;
    default:
        pv_icv_set_schedule(kind, chunk, PV_RUN_SCHED_KMP_SAME);
        break;
    }
}
PV_KMP_SYMVER(pv_kmp_omp_set_schedule, omp_set_schedule);

PV_EXPORT int pv_kmp_omp_get_num_devices(void)
{
    return 0;
}
PV_KMP_SYMVER(pv_kmp_omp_get_num_devices, omp_get_num_devices);

PV_EXPORT int pv_kmp_omp_get_initial_device(void)
{
    return 0; /* omp_get_num_devices */
}
PV_KMP_SYMVER(pv_kmp_omp_get_initial_device, omp_get_initial_device);

/* On the host, the initial device; in a kernel of pvomp's device (a gcc
 * target region calling clang-compiled code), that device's number. */
PV_EXPORT int pv_kmp_omp_get_device_num(void)
{
    return pv_target_in_kernel() ? pv_target_current_device() : 0;
}
PV_KMP_SYMVER(pv_kmp_omp_get_device_num, omp_get_device_num);

/* Device 0 is the host (the initial device); there is no other. */
PV_EXPORT int pv_kmp_omp_pause_resource(int kind, int device_num)
{
    return device_num == 0 ? omp_pause_resource(kind, omp_get_initial_device()) : -1;
}
PV_KMP_SYMVER(pv_kmp_omp_pause_resource, omp_pause_resource);
