/* The place API (omp_get_num_places ... omp_get_num_procs).  The printed
 * forms of the place list (OMP_DISPLAY_ENV, the affinity format) are the
 * runtime's: runtime/affinity_print.c.  See runtime/affinity_internal.h for
 * the parts. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "runtime/affinity_internal.h"
#include "runtime/omp_api.h"
#include "runtime/places.h"
#include "runtime/thread.h"

/* ------------------------------------------------------------- the API */

PV_EXPORT int omp_get_num_places(void)
{
    pv_runtime_init();
    return (int)pv_num_places;
}

PV_EXPORT int omp_get_place_num_procs(int place_num)
{
    pv_runtime_init();
    if (place_num < 0 || (unsigned)place_num >= pv_num_places)
        return 0;
    return (int)pv_places[place_num].ncpus;
}

PV_EXPORT void omp_get_place_proc_ids(int place_num, int *ids)
{
    pv_runtime_init();
    if (place_num < 0 || (unsigned)place_num >= pv_num_places || !ids)
        return;
    memcpy(ids, pv_places[place_num].cpus, pv_places[place_num].ncpus * sizeof(int));
}

PV_EXPORT int omp_get_place_num(void)
{
    pv_runtime_init();
    unsigned p = pv_thr.ts.place;
    return pv_num_places && p < pv_num_places ? (int)p : -1;
}

PV_EXPORT int omp_get_partition_num_places(void)
{
    pv_runtime_init();
    return pv_num_places ? (int)pv_thr.ts.part_len : 0;
}

PV_EXPORT void omp_get_partition_place_nums(int *place_nums)
{
    pv_runtime_init();
    if (!pv_num_places || !place_nums)
        return;
    for (unsigned i = 0; i < pv_thr.ts.part_len; i++)
        place_nums[i] = (int)(pv_thr.ts.part_off + i);
}

PV_EXPORT int omp_get_proc_bind(void)
{
    pv_runtime_init();
    return (int)pv_icv_get()->bind_var;
}

PV_EXPORT int omp_get_num_procs(void)
{
    pv_runtime_init();
    if (pv_num_places == 0) {
        /* Unbound: the mask may have been changed since init (taskset, the
         * program itself); count it now, as libgomp does. */
        cpu_set_t *s = pv_cpuset_new();
        int n = 0;
        if (sched_getaffinity(0, pv_set_bytes, s) == 0)
            n = CPU_COUNT_S(pv_set_bytes, s);
        free(s);
        if (n > 0)
            return n;
    }
    return (int)pv_num_procs;
}
