/* Fortran bindings: the omp_*_ symbols gfortran's omp_lib calls.  Arguments
 * come by reference; the _8 forms take 64-bit integers (clamped to int);
 * character arguments come with their lengths appended, unterminated and
 * blank-padded.  The lock routines' bindings are src/sync/fortran_locks.c. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "runtime/icv.h"
#include "runtime/omp_api.h"
#include "runtime/ompt_view.h"

/* --- the C routines called here (runtime/omp_api.h: this folder's files,
 * the runtime's and src/target's) */

static inline int to_int(int64_t v)
{
    return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

/* ------------------------------------------------------------- settings */

PV_EXPORT void omp_set_dynamic_(const int32_t *v) { omp_set_dynamic(*v); }
PV_EXPORT void omp_set_dynamic_8_(const int64_t *v) { omp_set_dynamic(*v != 0); }
PV_EXPORT void omp_set_nested_(const int32_t *v) { omp_set_nested(*v); }
PV_EXPORT void omp_set_nested_8_(const int64_t *v) { omp_set_nested(*v != 0); }
PV_EXPORT void omp_set_num_threads_(const int32_t *n) { omp_set_num_threads(*n); }
PV_EXPORT void omp_set_num_threads_8_(const int64_t *n) { omp_set_num_threads(to_int(*n)); }
PV_EXPORT int32_t omp_get_dynamic_(void) { return omp_get_dynamic(); }
PV_EXPORT int32_t omp_get_nested_(void) { return omp_get_nested(); }
PV_EXPORT int32_t omp_in_parallel_(void) { return omp_in_parallel(); }
PV_EXPORT int32_t omp_in_final_(void) { return omp_in_final(); }
PV_EXPORT int32_t omp_in_explicit_task_(void) { return omp_in_explicit_task(); }
PV_EXPORT int32_t omp_get_max_threads_(void) { return omp_get_max_threads(); }
PV_EXPORT int32_t omp_get_num_procs_(void) { return omp_get_num_procs(); }
PV_EXPORT int32_t omp_get_num_threads_(void) { return omp_get_num_threads(); }
PV_EXPORT int32_t omp_get_thread_num_(void) { return omp_get_thread_num(); }
PV_EXPORT double omp_get_wtick_(void) { return omp_get_wtick(); }
PV_EXPORT double omp_get_wtime_(void) { return omp_get_wtime(); }

PV_EXPORT void omp_set_schedule_(const int32_t *kind, const int32_t *chunk)
{
    omp_set_schedule(*kind, *chunk);
}

PV_EXPORT void omp_set_schedule_8_(const int32_t *kind, const int64_t *chunk)
{
    omp_set_schedule(*kind, to_int(*chunk));
}

/* The monotonic flag is not shown to Fortran (OpenMP 4.5 code does not
 * expect it), as libgomp does. */
PV_EXPORT void omp_get_schedule_(int32_t *kind, int32_t *chunk)
{
    int k, c;
    omp_get_schedule(&k, &c);
    *kind = (int32_t)((unsigned)k & ~PV_SCHED_MONOTONIC);
    *chunk = c;
}

PV_EXPORT void omp_get_schedule_8_(int32_t *kind, int64_t *chunk)
{
    int k, c;
    omp_get_schedule(&k, &c);
    *kind = (int32_t)((unsigned)k & ~PV_SCHED_MONOTONIC);
    *chunk = c;
}

PV_EXPORT int32_t omp_get_thread_limit_(void) { return omp_get_thread_limit(); }
PV_EXPORT void omp_set_max_active_levels_(const int32_t *n) { omp_set_max_active_levels(*n); }
PV_EXPORT void omp_set_max_active_levels_8_(const int64_t *n) { omp_set_max_active_levels(to_int(*n)); }
PV_EXPORT int32_t omp_get_max_active_levels_(void) { return omp_get_max_active_levels(); }
PV_EXPORT int32_t omp_get_supported_active_levels_(void) { return omp_get_supported_active_levels(); }
PV_EXPORT int32_t omp_get_level_(void) { return omp_get_level(); }
PV_EXPORT int32_t omp_get_ancestor_thread_num_(const int32_t *l) { return omp_get_ancestor_thread_num(*l); }
PV_EXPORT int32_t omp_get_ancestor_thread_num_8_(const int64_t *l) { return omp_get_ancestor_thread_num(to_int(*l)); }
PV_EXPORT int32_t omp_get_team_size_(const int32_t *l) { return omp_get_team_size(*l); }
PV_EXPORT int32_t omp_get_team_size_8_(const int64_t *l) { return omp_get_team_size(to_int(*l)); }
PV_EXPORT int32_t omp_get_active_level_(void) { return omp_get_active_level(); }

PV_EXPORT void omp_set_num_teams_(const int32_t *n) { omp_set_num_teams(*n); }
PV_EXPORT void omp_set_num_teams_8_(const int64_t *n) { omp_set_num_teams(to_int(*n)); }
PV_EXPORT int32_t omp_get_max_teams_(void) { return omp_get_max_teams(); }
PV_EXPORT void omp_set_teams_thread_limit_(const int32_t *n) { omp_set_teams_thread_limit(*n); }
PV_EXPORT void omp_set_teams_thread_limit_8_(const int64_t *n) { omp_set_teams_thread_limit(to_int(*n)); }
PV_EXPORT int32_t omp_get_teams_thread_limit_(void) { return omp_get_teams_thread_limit(); }
PV_EXPORT int32_t omp_get_cancellation_(void) { return omp_get_cancellation(); }
PV_EXPORT int32_t omp_get_max_task_priority_(void) { return omp_get_max_task_priority(); }

/* ---------------------------------------------------------------- places */

PV_EXPORT int32_t omp_get_proc_bind_(void) { return omp_get_proc_bind(); }
PV_EXPORT int32_t omp_get_num_places_(void) { return omp_get_num_places(); }
PV_EXPORT int32_t omp_get_place_num_procs_(const int32_t *p) { return omp_get_place_num_procs(*p); }
PV_EXPORT int32_t omp_get_place_num_procs_8_(const int64_t *p) { return omp_get_place_num_procs(to_int(*p)); }
PV_EXPORT int32_t omp_get_place_num_(void) { return omp_get_place_num(); }
PV_EXPORT int32_t omp_get_partition_num_places_(void) { return omp_get_partition_num_places(); }

PV_EXPORT void omp_get_place_proc_ids_(const int32_t *p, int32_t *ids)
{
    omp_get_place_proc_ids(*p, (int *)ids);
}

PV_EXPORT void omp_get_place_proc_ids_8_(const int64_t *p, int64_t *ids)
{
    int place = to_int(*p), n = omp_get_place_num_procs(place);
    if (n <= 0)
        return;
    int *tmp = pv_malloc((size_t)n * sizeof *tmp);
    omp_get_place_proc_ids(place, tmp);
    for (int i = 0; i < n; i++)
        ids[i] = tmp[i];
    free(tmp);
}

PV_EXPORT void omp_get_partition_place_nums_(int32_t *nums)
{
    omp_get_partition_place_nums((int *)nums);
}

PV_EXPORT void omp_get_partition_place_nums_8_(int64_t *nums)
{
    int n = omp_get_partition_num_places();
    if (n <= 0)
        return;
    int *tmp = pv_malloc((size_t)n * sizeof *tmp);
    omp_get_partition_place_nums(tmp);
    for (int i = 0; i < n; i++)
        nums[i] = tmp[i];
    free(tmp);
}

/* --------------------------------------------------------------- devices */

PV_EXPORT void omp_set_default_device_(const int32_t *d) { omp_set_default_device(*d); }
PV_EXPORT void omp_set_default_device_8_(const int64_t *d) { omp_set_default_device(to_int(*d)); }
PV_EXPORT int32_t omp_get_default_device_(void) { return omp_get_default_device(); }
PV_EXPORT int32_t omp_get_num_devices_(void) { return omp_get_num_devices(); }
PV_EXPORT int32_t omp_get_num_teams_(void) { return omp_get_num_teams(); }
PV_EXPORT int32_t omp_get_team_num_(void) { return omp_get_team_num(); }
PV_EXPORT int32_t omp_is_initial_device_(void) { return omp_is_initial_device(); }
PV_EXPORT int32_t omp_get_initial_device_(void) { return omp_get_initial_device(); }
PV_EXPORT int32_t omp_get_device_num_(void) { return omp_get_device_num(); }

PV_EXPORT int32_t omp_pause_resource_(const int32_t *kind, const int32_t *device)
{
    return omp_pause_resource(*kind, *device);
}

PV_EXPORT int32_t omp_pause_resource_all_(const int32_t *kind)
{
    return omp_pause_resource_all(*kind);
}

/* ----------------------------------------------------------------- tasks */

/* omp_lib declares the event handle VALUE: it arrives by value, not by
 * reference like the other arguments here. */
PV_EXPORT void omp_fulfill_event_(intptr_t event)
{
    omp_fulfill_event((uintptr_t)event);
}

/* -------------------------------------------------------- affinity format */

/* A NUL-terminated copy of a Fortran string (NULL when it is empty). */
static char *cstr(const char *s, size_t len)
{
    if (!len)
        return NULL;
    char *c = pv_malloc(len + 1);
    memcpy(c, s, len);
    c[len] = '\0';
    return c;
}

/* Copy a C string into a blank-padded Fortran buffer. */
static void fstr(char *dst, size_t dst_len, const char *src, size_t src_len)
{
    size_t n = src_len < dst_len ? src_len : dst_len;
    memcpy(dst, src, n);
    memset(dst + n, ' ', dst_len - n);
}

PV_EXPORT void omp_set_affinity_format_(const char *format, size_t len)
{
    char *c = cstr(format, len);
    omp_set_affinity_format(c ? c : "");
    free(c);
}

PV_EXPORT int32_t omp_get_affinity_format_(char *buffer, size_t len)
{
    size_t n = omp_get_affinity_format(NULL, 0);
    char *tmp = pv_malloc(n + 1);
    omp_get_affinity_format(tmp, n + 1);
    fstr(buffer, len, tmp, n);
    free(tmp);
    return (int32_t)n;
}

PV_EXPORT void omp_display_affinity_(const char *format, size_t len)
{
    char *c = cstr(format, len);
    omp_display_affinity(c);
    free(c);
}

PV_EXPORT int32_t omp_capture_affinity_(char *buffer, const char *format, size_t buffer_len,
                                        size_t format_len)
{
    char *c = cstr(format, format_len);
    size_t n = omp_capture_affinity(NULL, 0, c);
    char *tmp = pv_malloc(n + 1);
    omp_capture_affinity(tmp, n + 1, c);
    fstr(buffer, buffer_len, tmp, n);
    free(tmp);
    free(c);
    return (int32_t)n;
}

/* ------------------------------------------------------------ allocators */

PV_EXPORT intptr_t omp_init_allocator_(const intptr_t *memspace, const int32_t *ntraits,
                                       const void *traits)
{
    return (intptr_t)omp_init_allocator((uintptr_t)*memspace, *ntraits, traits);
}

PV_EXPORT intptr_t omp_init_allocator_8_(const intptr_t *memspace, const int64_t *ntraits,
                                         const void *traits)
{
    return (intptr_t)omp_init_allocator((uintptr_t)*memspace, to_int(*ntraits), traits);
}

PV_EXPORT void omp_destroy_allocator_(const intptr_t *a) { omp_destroy_allocator((uintptr_t)*a); }
PV_EXPORT void omp_set_default_allocator_(const intptr_t *a) { omp_set_default_allocator((uintptr_t)*a); }
PV_EXPORT intptr_t omp_get_default_allocator_(void) { return (intptr_t)omp_get_default_allocator(); }

/* ------------------------------------------------------------------- env */

PV_EXPORT void omp_display_env_(const int32_t *verbose) { omp_display_env(*verbose); }
PV_EXPORT void omp_display_env_8_(const int64_t *verbose) { omp_display_env(*verbose != 0); }

/* ------------------------------------------- strings returned by pointer */
/* The routines GCC 14-15 added that return a string (omp_lib declares them
 * as functions returning a character pointer): the result comes back as a
 * pointer and a length (0 and NULL for none), and the scalar arguments
 * arrive by value (omp_lib's VALUE attribute). */
static void fres(const char **res, size_t *res_len, const char *s)
{
    *res = s;
    *res_len = s ? strlen(s) : 0;
}

PV_EXPORT void omp_get_interop_str_(const char **res, size_t *res_len, const void *interop,
                                    int32_t property_id, int32_t *ret_code)
{
    fres(res, res_len, omp_get_interop_str((void *)interop, property_id, (int *)ret_code));
}

PV_EXPORT void omp_get_interop_name_(const char **res, size_t *res_len, const void *interop,
                                     int32_t property_id)
{
    fres(res, res_len, omp_get_interop_name((void *)interop, property_id));
}

PV_EXPORT void omp_get_interop_type_desc_(const char **res, size_t *res_len,
                                          const void *interop, int32_t property_id)
{
    fres(res, res_len, omp_get_interop_type_desc((void *)interop, property_id));
}

PV_EXPORT void omp_get_interop_rc_desc_(const char **res, size_t *res_len, const void *interop,
                                        int32_t ret_code)
{
    fres(res, res_len, omp_get_interop_rc_desc((void *)interop, ret_code));
}

PV_EXPORT void omp_get_uid_from_device_(const char **res, size_t *res_len, int32_t device_num)
{
    fres(res, res_len, omp_get_uid_from_device(device_num));
}

PV_EXPORT void omp_get_uid_from_device_8_(const char **res, size_t *res_len, int64_t device_num)
{
    fres(res, res_len, omp_get_uid_from_device(to_int(device_num)));
}

/* The uid as given, its length the Fortran string's (trailing blanks are
 * part of it, as libgomp compares it). */
PV_EXPORT int32_t omp_get_device_from_uid_(const char *uid, size_t uid_len)
{
    char *c = cstr(uid, uid_len);
    int r = omp_get_device_from_uid(c ? c : "");
    free(c);
    return r;
}
