/* Device queries that GCC 13-15 added to libgomp's ABI:
 * omp_get_mapped_ptr and omp_target_is_accessible (OpenMP 5.1, OMP_5.1.1),
 * omp_get_uid_from_device / omp_get_device_from_uid (OpenMP 6.0, GOMP_6.0),
 * and GOMP_target_map_indirect_ptr (GOMP_5.1.2).
 *
 * Device 0 is in this process (docs/target.md): with shared memory every
 * host address is accessible from it; with its own memory
 * (PVOMP_DEVICE_MEMORY=separate) a host address is not, as on a discrete
 * accelerator without unified memory. */
#include <string.h>

#include "base/compiler.h"
#include "runtime/league.h"
#include "target/mapint.h"
#include "runtime/omp_api.h"

PV_EXPORT void *omp_get_mapped_ptr(const void *ptr, int device_num)
{
    struct pv_device *d = NULL;
    if (!ptr)
        return NULL;
    int w = pv_target_which(device_num, &d);
    if (w <= 0)
        return w == 0 ? (void *)ptr : NULL;
    uintptr_t a = (uintptr_t)ptr;
    void *ret = NULL;
    pthread_mutex_lock(&d->lock);
    struct pv_mapping *m = pv_map_find_0len(&d->map, a, false);
    if (m)
        ret = (void *)pv_map_dev(m, a);
    pthread_mutex_unlock(&d->lock);
    return ret;
}

PV_EXPORT int omp_target_is_accessible(const void *ptr, size_t size, int device_num)
{
    struct pv_device *d = NULL;
    if (!ptr || !size)
        return 0;
    int w = pv_target_which(device_num, &d);
    if (w <= 0)
        return w == 0;
    return d->shared;
}

/* Unique ids: the initial device's is libgomp's "OMP_INITIAL_DEVICE", and
 * device n's "OMP_DEV_<n>", the form libgomp gives a device whose plugin
 * has no id of its own; both stay the same for the process's lifetime. */
static const char initial_uid[] = "OMP_INITIAL_DEVICE";
static const char *const device_uids[] = {"OMP_DEV_0"};

PV_EXPORT const char *omp_get_uid_from_device(int device_num)
{
    struct pv_device *d = NULL;
    int w = pv_target_which(device_num, &d);
    if (w < 0 || (w == 1 && (size_t)d->num >= sizeof device_uids / sizeof *device_uids))
        return NULL;
    return w == 0 ? initial_uid : device_uids[d->num];
}

PV_EXPORT int omp_get_device_from_uid(const char *uid)
{
    if (!uid)
        return PV_OMP_INVALID_DEVICE;
    if (strcmp(uid, initial_uid) == 0)
        return PV_OMP_INITIAL_DEVICE;
    int n = pv_target_num_devices();
    for (int i = 0; i < n && (size_t)i < sizeof device_uids / sizeof *device_uids; i++)
        if (strcmp(uid, device_uids[i]) == 0)
            return i;
    return PV_OMP_INVALID_DEVICE;
}

/* gcc calls this on an offload device to turn a host function pointer
 * into the device's (declare target indirect).  pvomp's device runs the
 * host's code, so the pointer is the same one: what libgomp does where
 * the code runs on the host. */
PV_EXPORT void *GOMP_target_map_indirect_ptr(void *ptr)
{
    return ptr;
}
