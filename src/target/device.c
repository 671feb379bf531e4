/* The device table and device selection.
 *
 * pvomp has one non-host device, number 0 (see target.h), sharing the host's
 * memory unless PVOMP_DEVICE_MEMORY=separate gives it its own; the initial device
 * is number omp_get_num_devices().  With OMP_TARGET_OFFLOAD=disabled there
 * is no non-host device at all (omp_get_num_devices() == 0), so every
 * construct runs on the initial device.  A device is initialized when first
 * used; that is when the tool hears device_initialize. */
#include <stdlib.h>

#include "base/message.h"
#include "ompt/devices.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/thread.h"
#include "target/events.h"
#include "target/target.h"

static struct pv_device devices[PV_MAX_DEVICES];
/* Recursive: the tool's device_initialize may use the device routines. */
static pthread_mutex_t init_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void device_init(struct pv_device *d, int num)
{
    pthread_mutex_lock(&init_lock);
    if (atomic_load_explicit(&d->state, memory_order_acquire) == PV_DEV_UNINIT) {
        d->num = num;
        d->shared = !pv_gicv.device_separate;
        /* Recursive: tool callbacks dispatched while mapping may call the
         * device memory routines. */
        pthread_mutexattr_t a;
        pthread_mutexattr_init(&a);
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
        pthread_mutex_init(&d->lock, &a);
        pthread_mutexattr_destroy(&a);
        d->map = (struct pv_map_table){0};
        pv_target_declare_vars(d);
        /* Ready before the callback: the tool may map or copy from it. */
        atomic_store_explicit(&d->state, PV_DEV_READY, memory_order_release);
        pv_ev_device_init(num);
    }
    pthread_mutex_unlock(&init_lock);
}

struct pv_device *pv_target_device(int num)
{
    if (num < 0 || num >= pv_target_num_devices())
        return NULL;
    struct pv_device *d = &devices[num];
    if (pv_unlikely(atomic_load_explicit(&d->state, memory_order_acquire) != PV_DEV_READY))
        device_init(d, num);
    return d;
}

struct pv_device *pv_target_resolve(int id)
{
    if (id == PV_DEV_HOST_FALLBACK)
        return NULL;
    /* Inside a kernel a nested construct runs where it is (its addresses
     * are already the device's). */
    if (pv_target_in_kernel())
        return NULL;
    /* -5: GCC 16's device(omp_default_device) (GOMP_DEVICE_DEFAULT_OMP_61). */
    if (id == PV_DEV_ICV || id == PV_OMP_DEFAULT_DEVICE)
        id = pv_icv_get()->default_device_var;
    int n = pv_target_num_devices();
    if (id >= 0 && id < n)
        return pv_target_device(id);
    if (id != n && pv_gicv.target_offload == PV_OFFLOAD_MANDATORY)
        pv_fatal("OMP_TARGET_OFFLOAD is MANDATORY, but device %d is not available "
                 "(there %s %d non-host device%s)", id, n == 1 ? "is" : "are", n, n == 1 ? "" : "s");
    return NULL;
}

/* The tool is being finalized (src/ompt/tool.c calls this first): every
 * initialized device ends its tracing and says goodbye. */
static void detach_devices(void)
{
    for (int i = 0; i < PV_MAX_DEVICES; i++)
        if (atomic_load_explicit(&devices[i].state, memory_order_acquire) == PV_DEV_READY)
            pv_ev_device_fini(i);
}

/* src/ompt (below) reaches the devices only through this table, handed
 * down before main: a tool finalized or asking for target info at any time
 * after start-up finds it. */
static const struct pv_ompt_devices ompt_devices = {
    .target_info = pv_target_ompt_info,
    .detach = detach_devices,
    .end_threads = pv_league_end_threads,
};

__attribute__((constructor)) static void register_with_ompt(void)
{
    pv_ompt_devices_register(&ompt_devices);
}

/* Programs built with offload compilers register their device images at
 * start-up.  pvomp's device runs the host version of every kernel, so an
 * image for another kind of device is accepted and not used.  (The GCC 5
 * form without _ver stays "not supported yet".) */
PV_EXPORT void GOMP_offload_register_ver(unsigned version, const void *host_table,
                                         int target_type, const void *target_data)
{
    (void)version;
    (void)host_table;
    (void)target_type;
    (void)target_data;
}

PV_EXPORT void GOMP_offload_unregister_ver(unsigned version, const void *host_table,
                                           int target_type, const void *target_data)
{
    (void)version;
    (void)host_table;
    (void)target_type;
    (void)target_data;
}
