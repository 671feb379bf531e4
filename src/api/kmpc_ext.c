/* libomp's extension routines that its omp.h declares (kmp_*) and its
 * Fortran-side helpers (ompc_*), as thin wrappers on pvomp's ICVs and
 * routines.  What pvomp has no counterpart for is kept as a value the
 * getter returns (blocktime, library mode, warnings) or does nothing
 * (dispatch buffers: pvomp's loops need none); each such case is named. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "abi/kmpc.h"
#include "base/alloc.h"
#include "base/message.h"
#include "runtime/icv.h"
#include "runtime/omp_api.h"


/* ---------------------------------------------------------- stack size */
/* The stack size of threads created from now on (libomp: before the first
 * region only; pvomp's pool takes it for every thread it starts later). */
PV_EXPORT void kmp_set_stacksize_s(size_t size)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int err = pthread_attr_setstacksize(&attr, size);
    pthread_attr_destroy(&attr);
    if (err) {
        pv_warn("kmp_set_stacksize: %zu bytes is below the minimum; ignored", size);
        return;
    }
    pv_gicv.stacksize = size;
}

PV_EXPORT void kmp_set_stacksize(int size)
{
    if (size < 0) {
        pv_warn("kmp_set_stacksize: negative size %d ignored", size);
        return;
    }
    kmp_set_stacksize_s((size_t)size);
}

PV_EXPORT size_t kmp_get_stacksize_s(void)
{
    if (pv_gicv.stacksize)
        return pv_gicv.stacksize;
    pthread_attr_t attr;
    size_t size = 0;
    pthread_attr_init(&attr);
    pthread_attr_getstacksize(&attr, &size);
    pthread_attr_destroy(&attr);
    return size;
}

PV_EXPORT int kmp_get_stacksize(void)
{
    size_t s = kmp_get_stacksize_s();
    return s > (size_t)0x7fffffff ? 0x7fffffff : (int)s;
}

/* ------------------------------------------ blocktime, library, warnings */
/* pvomp's waits follow OMP_WAIT_POLICY / pvsched, not a block time.  Until
 * a program sets one (kmp_set_blocktime, or KMP_BLOCKTIME in the
 * environment, read at the first call), kmp_get_blocktime answers as libomp
 * does from the wait policy, which is what pvomp's waiters do too: active
 * (and pvsched) spin without end, INT_MAX; passive sleeps at once, 0;
 * otherwise libomp's default, 200 ms.  A value set is kept and returned. */
#define BLOCKTIME_UNSET (-1)
static int blocktime = BLOCKTIME_UNSET;

static int blocktime_of_environment(void)
{
    const char *v = getenv("KMP_BLOCKTIME");
    if (v && *v) {
        if (!strcasecmp(v, "infinite") || !strcasecmp(v, "infinity"))
            return INT_MAX;
        char *end;
        errno = 0;
        long ms = strtol(v, &end, 10);
        if (!*end && !errno && ms >= 0 && ms <= INT_MAX)
            return (int)ms;
        pv_warn("KMP_BLOCKTIME=%s: not a number of milliseconds or 'infinite'; ignored", v);
    }
    switch (pv_wait_policy()) {
    case PV_WAIT_ACTIVE:
    case PV_WAIT_PVSCHED:
        return INT_MAX;
    case PV_WAIT_PASSIVE:
        return 0;
    default:
        return 200;
    }
}
enum { LIBRARY_SERIAL = 1, LIBRARY_TURNAROUND = 2, LIBRARY_THROUGHPUT = 3 };
static int library = LIBRARY_THROUGHPUT;

PV_EXPORT void kmp_set_blocktime(int ms)
{
    blocktime = ms < 0 ? 0 : ms;
}

PV_EXPORT int kmp_get_blocktime(void)
{
    if (blocktime == BLOCKTIME_UNSET)
        blocktime = blocktime_of_environment();
    return blocktime;
}

/* serial runs later regions with one thread, as libomp does; turnaround
 * and throughput only name a waiting style. */
PV_EXPORT void kmp_set_library(int mode)
{
    if (mode < LIBRARY_SERIAL || mode > LIBRARY_THROUGHPUT) {
        pv_warn("kmp_set_library: unknown mode %d ignored", mode);
        return;
    }
    library = mode;
    if (mode == LIBRARY_SERIAL)
        omp_set_num_threads(1);
}

PV_EXPORT void kmp_set_library_serial(void)
{
    kmp_set_library(LIBRARY_SERIAL);
}

PV_EXPORT void kmp_set_library_turnaround(void)
{
    kmp_set_library(LIBRARY_TURNAROUND);
}

PV_EXPORT void kmp_set_library_throughput(void)
{
    kmp_set_library(LIBRARY_THROUGHPUT);
}

PV_EXPORT int kmp_get_library(void)
{
    return library;
}

static int warnings = 1;

PV_EXPORT void kmp_set_warnings_on(void)
{
    warnings = 1;
}

PV_EXPORT void kmp_set_warnings_off(void)
{
    warnings = 0; /* kept: pvomp's own messages are not silenced */
}

/* pvomp's dispatch loops use its worksharing slots, not libomp's buffers. */
PV_EXPORT void kmp_set_disp_num_buffers(int n)
{
    (void)n;
}

/* target-offload-var (pvomp's numbering: 0 default, 1 mandatory, 2
 * disabled); an unknown value means default, as libomp takes it. */
static void set_target_offload(const char *v)
{
    if (!strcasecmp(v, "mandatory")) {
        pv_gicv.target_offload = 1;
    } else if (!strcasecmp(v, "disabled")) {
        pv_gicv.target_offload = 2;
    } else {
        if (strcasecmp(v, "default"))
            pv_warn("kmp_set_defaults: OMP_TARGET_OFFLOAD=%s is not mandatory, disabled or "
                    "default; using default", v);
        pv_gicv.target_offload = 0;
    }
}

/* kmp_set_defaults("NAME=value ..."): the settings libomp reads from the
 * environment.  pvomp applies those that have a routine (the ICVs it read
 * at start-up are not read again); others get one message. */
PV_EXPORT void kmp_set_defaults(const char *str)
{
    if (!str)
        return;
    char *copy = strdup(str), *save = NULL;
    if (!copy)
        return;
    for (char *tok = strtok_r(copy, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            pv_warn("kmp_set_defaults: '%s' has no value; ignored", tok);
            continue;
        }
        *eq = '\0';
        const char *v = eq + 1;
        char *end;
        long n = strtol(v, &end, 10);
        bool num = *v && !*end;
        if (!strcmp(tok, "OMP_NUM_THREADS") && num && n > 0)
            omp_set_num_threads((int)n);
        else if (!strcmp(tok, "OMP_DYNAMIC"))
            omp_set_dynamic(!strcasecmp(v, "true") || !strcmp(v, "1"));
        else if (!strcmp(tok, "OMP_MAX_ACTIVE_LEVELS") && num && n >= 0)
            omp_set_max_active_levels((int)n);
        else if (!strcmp(tok, "OMP_TARGET_OFFLOAD"))
            set_target_offload(v);
        else if (!strcmp(tok, "KMP_BLOCKTIME") && num)
            kmp_set_blocktime((int)n);
        else if ((!strcmp(tok, "KMP_STACKSIZE") || !strcmp(tok, "OMP_STACKSIZE")) && num && n > 0)
            kmp_set_stacksize_s((size_t)n * 1024);
        else
            pv_warn("kmp_set_defaults: %s=%s is not applied by pvomp; ignored", tok, v);
    }
    free(copy);
}

/* ------------------------------------------------------------- memory */
PV_EXPORT void *kmp_malloc(size_t size)
{
    return malloc(size);
}

PV_EXPORT void *kmp_aligned_malloc(size_t size, size_t alignment)
{
    void *p = NULL;
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    if (alignment & (alignment - 1) || posix_memalign(&p, alignment, size))
        return NULL;
    return p;
}

PV_EXPORT void *kmp_calloc(size_t nelem, size_t elsize)
{
    return calloc(nelem, elsize);
}

PV_EXPORT void *kmp_realloc(void *ptr, size_t size)
{
    return realloc(ptr, size);
}

PV_EXPORT void kmp_free(void *ptr)
{
    free(ptr);
}

/* ----------------------------------------------------------- affinity */
/* libomp's kmp_affinity_mask_t is one pointer: here to a cpu_set_t. */
typedef void *kmp_affinity_mask_t;

PV_EXPORT int kmp_get_affinity_max_proc(void)
{
    long n = sysconf(_SC_NPROCESSORS_CONF);
    return n > 0 && n < CPU_SETSIZE ? (int)n : CPU_SETSIZE;
}

PV_EXPORT void kmp_create_affinity_mask(kmp_affinity_mask_t *mask)
{
    cpu_set_t *s = pv_malloc(sizeof *s);
    CPU_ZERO(s);
    *mask = s;
}

PV_EXPORT void kmp_destroy_affinity_mask(kmp_affinity_mask_t *mask)
{
    free(*mask);
    *mask = NULL;
}

PV_EXPORT int kmp_set_affinity_mask_proc(int proc, kmp_affinity_mask_t *mask)
{
    if (!mask || !*mask || proc < 0 || proc >= kmp_get_affinity_max_proc())
        return -1;
    CPU_SET((unsigned)proc, (cpu_set_t *)*mask);
    return 0;
}

PV_EXPORT int kmp_unset_affinity_mask_proc(int proc, kmp_affinity_mask_t *mask)
{
    if (!mask || !*mask || proc < 0 || proc >= kmp_get_affinity_max_proc())
        return -1;
    CPU_CLR((unsigned)proc, (cpu_set_t *)*mask);
    return 0;
}

PV_EXPORT int kmp_get_affinity_mask_proc(int proc, kmp_affinity_mask_t *mask)
{
    if (!mask || !*mask || proc < 0 || proc >= kmp_get_affinity_max_proc())
        return -1;
    return CPU_ISSET((unsigned)proc, (cpu_set_t *)*mask) != 0;
}

/* The calling thread's binding (0, or an errno value as libomp returns). */
PV_EXPORT int kmp_set_affinity(kmp_affinity_mask_t *mask)
{
    if (!mask || !*mask)
        return EINVAL;
    return sched_setaffinity(0, sizeof(cpu_set_t), *mask) ? errno : 0;
}

PV_EXPORT int kmp_get_affinity(kmp_affinity_mask_t *mask)
{
    if (!mask || !*mask)
        return EINVAL;
    return sched_getaffinity(0, sizeof(cpu_set_t), *mask) ? errno : 0;
}

/* -------------------------------------------------------------- ompc_* */
PV_EXPORT void ompc_set_num_threads(int n)
{
    omp_set_num_threads(n);
}

PV_EXPORT void ompc_set_dynamic(int flag)
{
    omp_set_dynamic(flag);
}

PV_EXPORT void ompc_set_nested(int flag)
{
    omp_set_nested(flag);
}

PV_EXPORT void ompc_set_max_active_levels(int levels)
{
    omp_set_max_active_levels(levels);
}

PV_EXPORT void ompc_set_schedule(int kind, int chunk)
{
    pv_kmp_omp_set_schedule(kind, chunk); /* libomp's kinds too */
}

PV_EXPORT int ompc_get_ancestor_thread_num(int level)
{
    return omp_get_ancestor_thread_num(level);
}

PV_EXPORT int ompc_get_team_size(int level)
{
    return omp_get_team_size(level);
}

PV_EXPORT void ompc_set_affinity_format(const char *format)
{
    pv_kmpc_start();
    omp_set_affinity_format(format);
}

PV_EXPORT size_t ompc_get_affinity_format(char *buffer, size_t size)
{
    pv_kmpc_start(); /* libomp's default format */
    return omp_get_affinity_format(buffer, size);
}

PV_EXPORT void ompc_display_affinity(const char *format)
{
    pv_kmpc_start();
    omp_display_affinity(format);
}

PV_EXPORT size_t ompc_capture_affinity(char *buffer, size_t size, const char *format)
{
    pv_kmpc_start();
    return omp_capture_affinity(buffer, size, format);
}
