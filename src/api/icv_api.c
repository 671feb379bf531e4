/* The omp_* routines that read and set ICVs, plus the timer, device and
 * pause routines.  Edge cases follow libgomp 12: omp_set_num_threads with a
 * value below 1 sets 1; omp_set_max_active_levels ignores negative values and
 * caps at the supported level count; omp_set_schedule with a chunk below 1
 * uses the kind's default (0 for static, 1 otherwise) and ignores unknown
 * kinds; omp_set_num_teams / omp_set_teams_thread_limit ignore negative
 * values; omp_set_default_device maps negative values to 0. */
#include <limits.h>
#include <time.h>

#include "base/clock.h"
#include "base/compiler.h"
#include "ompt/ompt.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/omp_api.h"
#include "runtime/thread.h"

/* A read of the current task's ICVs, with the runtime set up; with a tool,
 * the calling thread begins as an OpenMP thread if it had not yet. */
static inline struct pv_icv *icv_read(void)
{
    pv_runtime_init();
    if (pv_ompt_tool())
        pv_ompt_thread_ensure();
    return pv_icv_get();
}

static inline struct pv_icv *icv_write(void)
{
    pv_runtime_init();
    if (pv_ompt_tool())
        pv_ompt_thread_ensure();
    return pv_icv_for_write();
}

PV_EXPORT void omp_set_num_threads(int n)
{
    icv_write()->nthreads_var = n > 0 ? (unsigned)n : 1;
}

PV_EXPORT int omp_get_max_threads(void)
{
    unsigned n = icv_read()->nthreads_var;
    return n > INT_MAX ? INT_MAX : (int)n;
}

PV_EXPORT void omp_set_dynamic(int val)
{
    icv_write()->dyn_var = val != 0;
}

PV_EXPORT int omp_get_dynamic(void)
{
    return icv_read()->dyn_var;
}

PV_EXPORT void omp_set_nested(int val)
{
    struct pv_icv *icv = icv_write();
    if (val)
        icv->max_active_levels_var = PV_SUPPORTED_ACTIVE_LEVELS;
    else if (icv->max_active_levels_var > 1)
        icv->max_active_levels_var = 1;
}

PV_EXPORT int omp_get_nested(void)
{
    unsigned m = icv_read()->max_active_levels_var;
    return m > 1 && m > pv_thr.ts.active_level;
}

PV_EXPORT void omp_set_schedule(int kind, int chunk)
{
    pv_icv_set_schedule(kind, chunk, PV_RUN_SCHED_KMP_SAME);
}

void pv_icv_set_schedule(int kind, int chunk, unsigned char kmp)
{
    unsigned k = (unsigned)kind;
    long c = chunk;
    switch (k & ~PV_SCHED_MONOTONIC) {
    case PV_SCHED_STATIC:
        if (c < 1)
            c = 0;
        break;
    case PV_SCHED_DYNAMIC:
    case PV_SCHED_GUIDED:
        if (c < 1)
            c = 1;
        break;
    case PV_SCHED_AUTO:
        c = -1; /* the chunk is left as it was */
        break;
    default:
        return;
    }
    struct pv_icv *icv = icv_write();
    icv->run_sched_var = k;
    icv->run_sched_kmp = kmp;
    if (c >= 0)
        icv->run_sched_chunk = c;
    __atomic_store_n(&pv_gicv.run_sched_api, true, __ATOMIC_RELAXED);
}

PV_EXPORT void omp_get_schedule(int *kind, int *chunk)
{
    int k, c;
    pv_icv_schedule(icv_read(), &k, &c);
    if (kind)
        *kind = k;
    if (chunk)
        *chunk = c;
}

PV_EXPORT int omp_get_thread_limit(void)
{
    unsigned t = icv_read()->thread_limit_var;
    return t > INT_MAX ? INT_MAX : (int)t;
}

PV_EXPORT void omp_set_max_active_levels(int levels)
{
    if (levels < 0)
        return;
    icv_write()->max_active_levels_var =
        (unsigned)levels > PV_SUPPORTED_ACTIVE_LEVELS ? PV_SUPPORTED_ACTIVE_LEVELS : (unsigned)levels;
}

PV_EXPORT int omp_get_max_active_levels(void)
{
    return (int)icv_read()->max_active_levels_var;
}

PV_EXPORT int omp_get_supported_active_levels(void)
{
    return (int)PV_SUPPORTED_ACTIVE_LEVELS;
}

PV_EXPORT int omp_get_cancellation(void)
{
    pv_runtime_init();
    return pv_gicv.cancel_var;
}

PV_EXPORT int omp_get_max_task_priority(void)
{
    pv_runtime_init();
    return pv_gicv.max_task_priority_var;
}

/* ---------------------------------------------------------------- teams */

PV_EXPORT void omp_set_num_teams(int num_teams)
{
    pv_runtime_init();
    if (num_teams >= 0)
        pv_gicv.num_teams_var = (unsigned)num_teams;
}

PV_EXPORT int omp_get_max_teams(void)
{
    pv_runtime_init();
    return (int)pv_gicv.num_teams_var;
}

PV_EXPORT void omp_set_teams_thread_limit(int limit)
{
    pv_runtime_init();
    if (limit >= 0)
        pv_gicv.teams_thread_limit_var = (unsigned)limit;
}

PV_EXPORT int omp_get_teams_thread_limit(void)
{
    pv_runtime_init();
    return (int)pv_gicv.teams_thread_limit_var;
}

/* -------------------------------------------------------------- devices */
/* The devices are src/target's: device 0 (a host device with its own memory)
 * unless OMP_TARGET_OFFLOAD=disabled; the host's number is the device count
 * (omp_get_num_devices, omp_get_initial_device: runtime/device_numbers.c). */

PV_EXPORT void omp_set_default_device(int device)
{
    icv_write()->default_device_var = device >= 0 ? device : 0;
}

PV_EXPORT int omp_get_default_device(void)
{
    return icv_read()->default_device_var;
}

PV_EXPORT int omp_get_device_num(void)
{
    return pv_target_current_device();
}

PV_EXPORT int omp_is_initial_device(void)
{
    return !pv_target_in_kernel();
}

/* ---------------------------------------------------------------- timer */

PV_EXPORT double omp_get_wtime(void)
{
    return (double)pv_monotonic_ns() * 1e-9;
}

PV_EXPORT double omp_get_wtick(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
        return 1e-9;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- pause */

enum { PAUSE_SOFT = 1, PAUSE_HARD = 2 };

/* The host can be paused only from outside every parallel region. */
static int pause_host(void)
{
    pv_runtime_init();
    if (pv_thr.ts.level > 0)
        return -1;
    pv_runtime_pause();
    return 0;
}

PV_EXPORT int omp_pause_resource(int kind, int device_num)
{
    if (kind != PAUSE_SOFT && kind != PAUSE_HARD)
        return -1;
    if (device_num == omp_get_initial_device())
        return pause_host();
    return device_num >= 0 && device_num < omp_get_num_devices() ? 0 : -1; /* nothing to pause */
}

PV_EXPORT int omp_pause_resource_all(int kind)
{
    if (kind != PAUSE_SOFT && kind != PAUSE_HARD)
        return -1;
    return pause_host();
}
