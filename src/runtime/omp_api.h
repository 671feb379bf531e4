/* The omp_* routines as pvomp defines them (OpenMP 5.2/6.0 names; the ABI
 * types of a program's omp.h as pvomp spells them: an allocator, memory
 * space or event handle is a uintptr_t, an enumeration an int, an interop
 * object a void *).  Included by the files that define them, so that a
 * declaration and its definition cannot disagree, and by every file that
 * calls one (the Fortran bindings, the __kmpc_* entries) instead of a local
 * prototype.  The lock routines are declared with the locks (lock.c).
 * Most of these routines are src/api's, but not all (parallel.c, env.c,
 * affinity_format.c, src/target define some), so the header stays here,
 * where every file that defines one can include it. */
#ifndef PV_RUNTIME_OMP_API_H
#define PV_RUNTIME_OMP_API_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------ threads and teams (ICVs) */
void omp_set_num_threads(int n);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_in_parallel(void);
void omp_set_dynamic(int val);
int omp_get_dynamic(void);
void omp_set_nested(int val);
int omp_get_nested(void);
int omp_get_cancellation(void);
void omp_set_schedule(int kind, int chunk);
void omp_get_schedule(int *kind, int *chunk);
int omp_get_thread_limit(void);
int omp_get_supported_active_levels(void);
void omp_set_max_active_levels(int levels);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int level);
int omp_get_team_size(int level);
int omp_get_active_level(void);
int omp_in_final(void);
int omp_in_explicit_task(void);
int omp_get_max_task_priority(void);
void omp_set_num_teams(int num_teams);
int omp_get_max_teams(void);
void omp_set_teams_thread_limit(int limit);
int omp_get_teams_thread_limit(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);

/* ----------------------------------------------------------- places */
int omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_num_procs(void);
int omp_get_place_num_procs(int place_num);
void omp_get_place_proc_ids(int place_num, int *ids);
int omp_get_place_num(void);
int omp_get_partition_num_places(void);
void omp_get_partition_place_nums(int *place_nums);
void omp_set_affinity_format(const char *format);
size_t omp_get_affinity_format(char *buffer, size_t size);
void omp_display_affinity(const char *format);
size_t omp_capture_affinity(char *buffer, size_t size, const char *format);

/* ----------------------------------------------------------- devices */
void omp_set_default_device(int device);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_device_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
const char *omp_get_uid_from_device(int device_num);
int omp_get_device_from_uid(const char *uid);
const char *omp_get_interop_str(void *interop, int property_id, int *ret_code);
const char *omp_get_interop_name(void *interop, int property_id);
const char *omp_get_interop_type_desc(void *interop, int property_id);
const char *omp_get_interop_rc_desc(void *interop, int ret_code);

/* --------------------------------------------------------- resources */
int omp_pause_resource(int kind, int device_num);
int omp_pause_resource_all(int kind);

/* -------------------------------------------------------- allocators */
struct trait; /* omp_alloctrait_t (api/alloc.c) */
uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits, const struct trait *traits);
void omp_destroy_allocator(uintptr_t allocator);
void omp_set_default_allocator(uintptr_t allocator);
uintptr_t omp_get_default_allocator(void);
void *omp_alloc(size_t size, uintptr_t allocator);
void *omp_aligned_alloc(size_t alignment, size_t size, uintptr_t allocator);
void *omp_calloc(size_t nmemb, size_t size, uintptr_t allocator);
void *omp_realloc(void *ptr, size_t size, uintptr_t allocator, uintptr_t free_allocator);
void omp_free(void *ptr, uintptr_t allocator);

/* ------------------------------------------------------- the rest */
void omp_fulfill_event(uintptr_t event);
double omp_get_wtime(void);
double omp_get_wtick(void);
void omp_display_env(int verbose);

#endif
