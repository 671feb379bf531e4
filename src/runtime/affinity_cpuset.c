/* CPU sets: the process mask read at init, the set helpers every part of the
 * place code uses, and the place list (building one, installing it as
 * pv_places).  See affinity_internal.h for the parts. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/message.h"
#include "runtime/affinity_internal.h"
#include "runtime/ompt_view.h"
#include "runtime/places.h"

struct pv_place *pv_places;
unsigned pv_num_places;

cpu_set_t *pv_proc_mask;       /* the process affinity mask at init */
size_t pv_set_bytes;           /* size of every cpu_set_t here */
unsigned pv_set_max;           /* CPU numbers representable: 8 * pv_set_bytes */
cpu_set_t **pv_place_sets;     /* pv_place_sets[i]: the CPUs of place i */

/* ----------------------------------------------------------- masks */

void pv_cpu_mask_init(void)
{
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    size_t ncpus = conf > 1024 ? (size_t)conf : 1024;
    for (;;) {
        pv_set_bytes = CPU_ALLOC_SIZE(ncpus);
        pv_proc_mask = pv_calloc(1, pv_set_bytes);
        if (sched_getaffinity(0, pv_set_bytes, pv_proc_mask) == 0)
            break;
        free(pv_proc_mask);
        pv_proc_mask = NULL;
        if (errno != EINVAL || ncpus >= (1u << 22))
            break;
        ncpus *= 2; /* the kernel's mask is larger than ours */
    }
    pv_set_max = 8 * pv_set_bytes;
    if (!pv_proc_mask) {
        /* Unknown: assume every online CPU. */
        long onln = sysconf(_SC_NPROCESSORS_ONLN);
        pv_proc_mask = pv_calloc(1, pv_set_bytes);
        for (long c = 0; c < (onln > 0 ? onln : 1) && c < (long)pv_set_max; c++)
            CPU_SET_S((size_t)c, pv_set_bytes, pv_proc_mask);
    }
    unsigned n = (unsigned)CPU_COUNT_S(pv_set_bytes, pv_proc_mask);
    pv_num_procs = n ? n : 1;
}

const cpu_set_t *pv_cpu_mask(void)
{
    return pv_proc_mask;
}

size_t pv_cpu_set_bytes(void)
{
    return pv_set_bytes;
}

unsigned pv_cpu_set_max(void)
{
    return pv_set_max;
}

cpu_set_t *pv_cpuset_new(void)
{
    return pv_calloc(1, pv_set_bytes);
}

cpu_set_t *pv_cpuset_dup(const cpu_set_t *s)
{
    cpu_set_t *d = pv_cpuset_new();
    memcpy(d, s, pv_set_bytes);
    return d;
}

bool pv_cpuset_empty(const cpu_set_t *s)
{
    return CPU_COUNT_S(pv_set_bytes, s) == 0;
}

/* ------------------------------------------------------- place lists */

void pv_plist_push(struct plist *l, cpu_set_t *s)
{
    PV_GROW(l->v, l->n, l->cap, 16);
    l->v[l->n++] = s;
}

void pv_plist_free(struct plist *l)
{
    for (unsigned i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

/* Make `l` the place list: each place cut down to the process mask, empty
 * places dropped.  `what` names the source for the warnings. */
bool pv_plist_install(struct plist *l, const char *name, const char *value)
{
    unsigned kept = 0, given = l->n;
    for (unsigned i = 0; i < l->n; i++) {
        CPU_AND_S(pv_set_bytes, l->v[i], l->v[i], pv_proc_mask);
        if (pv_cpuset_empty(l->v[i]))
            free(l->v[i]);
        else
            l->v[kept++] = l->v[i];
    }
    l->n = kept;
    if (kept == 0) {
        if (name)
            pv_warn("no place in %s='%s' contains a CPU this process may run on; "
                    "threads are not bound", name, value);
        pv_plist_free(l);
        return false;
    }
    if (kept < given && name)
        pv_warn("%s='%s': %u of %u places contain no CPU this process may run on and were "
                "dropped", name, value, given - kept, given);

    pv_places = pv_calloc(kept, sizeof *pv_places);
    pv_place_sets = l->v;
    for (unsigned i = 0; i < kept; i++) {
        unsigned n = (unsigned)CPU_COUNT_S(pv_set_bytes, l->v[i]), k = 0;
        pv_places[i].ncpus = n;
        pv_places[i].cpus = pv_calloc(n, sizeof(int));
        for (unsigned c = 0; c < pv_set_max && k < n; c++)
            if (CPU_ISSET_S(c, pv_set_bytes, l->v[i]))
                pv_places[i].cpus[k++] = (int)c;
    }
    pv_num_places = kept;
    l->v = NULL;
    l->n = l->cap = 0;
    return true;
}
