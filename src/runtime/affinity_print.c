/* The printed forms of the place list (OMP_DISPLAY_ENV: env.c, the affinity
 * format: affinity_format.c), out of the place API's file
 * (src/api/affinity_api.c): the runtime calls them, so they stay below the
 * omp_* API's folder.  See affinity_internal.h for the parts. */
#include <sched.h>
#include <stdio.h>

#include "runtime/affinity_internal.h"
#include "runtime/ompt_view.h"
#include "runtime/places.h"

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
