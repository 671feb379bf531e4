/* The place API (omp_get_num_places ... omp_get_num_procs) and the printed
 * forms of the place list (OMP_DISPLAY_ENV, the affinity format).  See
 * affinity_internal.h for the parts. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/affinity_internal.h"
#include "runtime/internal.h"
#include "runtime/omp_api.h"

/* ------------------------------------------------------------ printing */

void pv_places_print(FILE *f)
{
    for (unsigned i = 0; i < pv_num_places; i++) {
        const struct pv_place *pl = &pv_places[i];
        fputc('{', f);
        for (unsigned k = 0; k < pl->ncpus;) {
            unsigned run = 1;
            while (k + run < pl->ncpus && pl->cpus[k + run] == pl->cpus[k] + (int)run)
                run++;
            fprintf(f, k ? ",%d" : "%d", pl->cpus[k]);
            if (run > 1)
                fprintf(f, ":%u", run);
            k += run;
        }
        fputs(i + 1 < pv_num_places ? "}," : "}", f);
    }
}

size_t pv_place_format(char *buf, size_t size, unsigned place)
{
    const cpu_set_t *s = place < pv_num_places ? pv_place_sets[place] : pv_proc_mask;
    size_t len = 0;
    bool first = true;
    for (unsigned c = 0; s && c < pv_set_max; c++) {
        if (!CPU_ISSET_S(c, pv_set_bytes, s))
            continue;
        unsigned e = c;
        while (e + 1 < pv_set_max && CPU_ISSET_S(e + 1, pv_set_bytes, s))
            e++;
        char tmp[32];
        int n = e > c ? snprintf(tmp, sizeof tmp, "%s%u-%u", first ? "" : ",", c, e)
                      : snprintf(tmp, sizeof tmp, "%s%u", first ? "" : ",", c);
        if (len < size)
            snprintf(buf + len, size - len, "%s", tmp);
        len += (size_t)n;
        first = false;
        c = e;
    }
    if (size && len >= size)
        buf[size - 1] = '\0';
    else if (size)
        buf[len] = '\0';
    return len;
}

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
