/* Places and CPU masks, shared by env.c (which reads OMP_PLACES and
 * GOMP_CPU_AFFINITY) and affinity_*.c / affinity_format.c (which own the place
 * list and bind threads).  Not part of the lead's internal contract. */
#ifndef PV_RUNTIME_AFFINITY_H
#define PV_RUNTIME_AFFINITY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Reads the process affinity mask; sets pv_num_procs.  Called first by env init. */
void pv_cpu_mask_init(void);
/* The process mask as read at init (NULL if it could not be read), its size in
 * bytes for the CPU_*_S macros, and the number of CPU numbers it can hold. */
const cpu_set_t *pv_cpu_mask(void);
size_t pv_cpu_set_bytes(void);
unsigned pv_cpu_set_max(void);

/* OMP_PLACES: parse `value` (of variable `name`).  With build == false only
 * the syntax is checked (OMP_PROC_BIND=false).  On success with build, the
 * place list pv_places/pv_num_places is set (restricted to the process mask).
 * On an invalid value a warning naming the variable is printed and false is
 * returned. */
bool pv_places_parse(const char *name, const char *value, bool build);
/* GOMP_CPU_AFFINITY: a list of CPU numbers and ranges, each CPU one place. */
bool pv_places_parse_cpu_list(const char *name, const char *value, bool build);
/* One place per hardware thread the process may use (quiet). */
bool pv_places_default(void);
/* Print the place list as libgomp's OMP_DISPLAY_ENV does: {0:2},{2},... */
void pv_places_print(FILE *f);
/* Append a CPU list ("0-3,6") of place `place`, or of the process mask when
 * place is out of range, to buf (snprintf semantics; returns the length). */
size_t pv_place_format(char *buf, size_t size, unsigned place);

/* Test hook: root of the sysfs tree used for topology ("/sys/devices/system"). */
extern const char *pv_affinity_sysfs_root;

#endif
