/* Places: the sets of CPUs that OpenMP threads are bound to.
 *
 * The list comes from OMP_PLACES (an abstract name - threads, cores, sockets,
 * ll_caches, numa_domains - read from the sysfs topology, or an explicit list
 * of {cpu,...} sets with intervals and exclusions), from GOMP_CPU_AFFINITY, or,
 * when a binding policy is asked for without places, one place per hardware
 * thread.  Every place is cut down to the CPUs this process may run on; places
 * left empty are dropped.
 *
 * pv_affinity_assign() implements the spec's close / primary / spread rules
 * (OpenMP 5.1, 2.6.2) for a new team; pv_affinity_bind_self() pins the
 * calling thread with pthread_setaffinity_np.
 *
 * The parts: affinity_cpuset.c (the process mask, set helpers, the place
 * list), affinity_sysfs.c (topology), affinity_places.c (OMP_PLACES and
 * GOMP_CPU_AFFINITY), affinity_bind.c (binding rules), affinity_print.c
 * (the printed place list) and src/api/affinity_api.c (the omp_* place
 * API).  This header is what they share; the rest of the runtime uses
 * affinity.h and places.h. */
#ifndef PV_RUNTIME_AFFINITY_INTERNAL_H
#define PV_RUNTIME_AFFINITY_INTERNAL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "runtime/affinity.h"

#define MAX_PLACES 65536u

/* affinity_cpuset.c */
extern cpu_set_t *pv_proc_mask;       /* the process affinity mask at init */
extern size_t pv_set_bytes;           /* size of every cpu_set_t here */
extern unsigned pv_set_max;           /* CPU numbers representable: 8 * pv_set_bytes */
extern cpu_set_t **pv_place_sets;     /* pv_place_sets[i]: the CPUs of place i */

cpu_set_t *pv_cpuset_new(void);
cpu_set_t *pv_cpuset_dup(const cpu_set_t *s);
bool pv_cpuset_empty(const cpu_set_t *s);

/* A place list being built. */
struct plist {
    cpu_set_t **v;
    unsigned n, cap;
};
void pv_plist_push(struct plist *l, cpu_set_t *s);
void pv_plist_free(struct plist *l);
/* Install `l` as the place list (false when no place is left). */
bool pv_plist_install(struct plist *l, const char *name, const char *value);

/* affinity_sysfs.c: the CPUs sharing `cpu`'s core, package, or last-level cache. */
enum level { L_THREADS = 1, L_CORES, L_SOCKETS, L_LLC, L_NUMA };
/* The places of an abstract name, in topology order. */
void pv_places_build_level(enum level level, unsigned long count, struct plist *l);

#endif
