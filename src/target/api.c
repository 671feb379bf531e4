/* The device memory routines (OpenMP 5.1, 3.8): omp_target_alloc/free,
 * omp_target_is_present, omp_target_memcpy(_rect) and
 * omp_target_associate/disassociate_ptr.  Device numbers are checked:
 * the initial device is omp_get_num_devices() or omp_initial_device (-1),
 * omp_default_device (-5, OpenMP 6.0) is default-device-var's device, and
 * anything else outside [0, omp_get_num_devices()) is invalid (NULL /
 * EINVAL / 0).  A device
 * sharing the host's memory has nothing to associate (docs/target.md). */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "runtime/league.h"
#include "runtime/thread.h"
#include "target/events.h"
#include "target/mapint.h"
#include "trace/trace.h"

int pv_target_devnum(int num)
{
    if (num == PV_OMP_DEFAULT_DEVICE)
        num = pv_icv_get()->default_device_var;
    return num == PV_OMP_INITIAL_DEVICE ? pv_target_num_devices() : num;
}

int pv_target_which(int num, struct pv_device **d)
{
    num = pv_target_devnum(num);
    if (num == pv_target_num_devices())
        return 0;
    *d = pv_target_device(num);
    return *d ? 1 : -1;
}

PV_EXPORT void *omp_target_alloc(size_t size, int device_num)
{
    struct pv_device *d = NULL;
    int w = pv_target_which(device_num, &d);
    if (w < 0)
        return NULL;
    if (w == 1)
        trace_target_data(PVTRACE_TARGET_KIND_ALLOC, d->num, size);
    void *p = malloc(size ? size : 1);
    if (w == 1 && p && pv_ev_on()) {
        struct pv_op op;
        pv_ev_data_op_begin(&op, ompt_target_data_alloc, NULL, pv_target_num_devices(), p,
                            d->num, size, d->num);
        pv_ev_data_op_end(&op);
    }
    return p;
}

PV_EXPORT void omp_target_free(void *device_ptr, int device_num)
{
    struct pv_device *d = NULL;
    if (!device_ptr || pv_target_which(device_num, &d) < 0)
        return;
    if (d)
        trace_target_data(PVTRACE_TARGET_KIND_FREE, d->num, 0);   /* (the size is not known) */
    if (d && pv_ev_on()) {
        struct pv_op op;
        pv_ev_data_op_begin(&op, ompt_target_data_delete, device_ptr, d->num, NULL, d->num, 0,
                            d->num);
        free(device_ptr);
        pv_ev_data_op_end(&op);
        return;
    }
    free(device_ptr);
}

PV_EXPORT int omp_target_is_present(const void *ptr, int device_num)
{
    struct pv_device *d = NULL;
    int w = pv_target_which(device_num, &d);
    if (!ptr || w == 0)
        return 1;
    if (w < 0)
        return 0;
    pthread_mutex_lock(&d->lock);
    uintptr_t a = (uintptr_t)ptr;
    struct pv_mapping *m = pv_map_find(&d->map, a, a + 1);
    if (!m)
        m = pv_map_find_addr(&d->map, a);
    pthread_mutex_unlock(&d->lock);
    return m != NULL;
}

PV_EXPORT int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                                size_t src_offset, int dst_device_num, int src_device_num)
{
    struct pv_device *dd = NULL, *sd = NULL;
    if (pv_target_which(dst_device_num, &dd) < 0 || pv_target_which(src_device_num, &sd) < 0)
        return EINVAL;
    if (!length)
        return 0;
    if (!dst || !src)
        return EINVAL;
    pv_dev_copy(pv_target_devnum(dst_device_num), (char *)dst + dst_offset,
                pv_target_devnum(src_device_num),
                (const char *)src + src_offset, length, 0);
    return 0;
}

static int copy_rect(char *dst, const char *src, size_t elem, int dims, const size_t *volume,
                     const size_t *doff, const size_t *soff, const size_t *ddim,
                     const size_t *sdim, int ddev, int sdev, unsigned flags)
{
    size_t dslice = elem, sslice = elem, dpos, spos;
    if (dims == 1) {
        size_t len;
        if (__builtin_mul_overflow(elem, volume[0], &len) ||
            __builtin_mul_overflow(elem, doff[0], &dpos) ||
            __builtin_mul_overflow(elem, soff[0], &spos))
            return EINVAL;
        if (len)
            pv_dev_copy(ddev, dst + dpos, sdev, src + spos, len, flags);
        return 0;
    }
    for (int i = 1; i < dims; i++)
        if (__builtin_mul_overflow(dslice, ddim[i], &dslice) ||
            __builtin_mul_overflow(sslice, sdim[i], &sslice))
            return EINVAL;
    if (__builtin_mul_overflow(dslice, doff[0], &dpos) ||
        __builtin_mul_overflow(sslice, soff[0], &spos))
        return EINVAL;
    for (size_t j = 0; j < volume[0]; j++) {
        int r = copy_rect(dst + dpos, src + spos, elem, dims - 1, volume + 1, doff + 1, soff + 1,
                          ddim + 1, sdim + 1, ddev, sdev, flags);
        if (r)
            return r;
        dpos += dslice;
        spos += sslice;
    }
    return 0;
}

int pv_target_rect_check(const void *dst, const void *src, int num_dims, const size_t *volume,
                         const size_t *dst_offsets, const size_t *src_offsets,
                         const size_t *dst_dimensions, const size_t *src_dimensions,
                         int dst_device_num, int src_device_num)
{
    if (!dst && !src)
        return INT_MAX;   /* the number of dimensions supported */
    struct pv_device *dd = NULL, *sd = NULL;
    if (pv_target_which(dst_device_num, &dd) < 0 || pv_target_which(src_device_num, &sd) < 0)
        return EINVAL;
    if (!dst || !src || num_dims < 1 || !volume || !dst_offsets || !src_offsets ||
        !dst_dimensions || !src_dimensions)
        return EINVAL;
    return 0;
}

/* For a 6.0 tool one transfer_rect event whose source and destination are
 * OpenMP 6.0's ompt_subvolume_t of each side (bytes: the elements copied);
 * its rows are not reported again. */
int pv_target_copy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                        const size_t *volume, const size_t *dst_offsets,
                        const size_t *src_offsets, const size_t *dst_dimensions,
                        const size_t *src_dimensions, int dst_device_num, int src_device_num,
                        bool async)
{
    int ddev = pv_target_devnum(dst_device_num), sdev = pv_target_devnum(src_device_num);
    int host = pv_target_num_devices();
    unsigned flags = async ? PV_COPY_ASYNC : 0;
    if (!pv_ev_on() || !pv_ev_v60() || (ddev == host && sdev == host))
        return copy_rect(dst, src, element_size, num_dims, volume, dst_offsets, src_offsets,
                         dst_dimensions, src_dimensions, ddev, sdev, flags);
    ompt_subvolume_t sv = {src, element_size, (uint64_t)num_dims, volume, src_offsets,
                           src_dimensions};
    ompt_subvolume_t dv = {dst, element_size, (uint64_t)num_dims, volume, dst_offsets,
                           dst_dimensions};
    size_t bytes = element_size;
    for (int i = 0; i < num_dims; i++)
        if (__builtin_mul_overflow(bytes, volume[i], &bytes))
            bytes = SIZE_MAX;
    struct pv_op op;
    pv_ev_data_op_begin(&op,
                        async ? ompt_target_data_transfer_rect_async
                              : ompt_target_data_transfer_rect,
                        &sv, sdev, &dv, ddev, bytes, sdev == host ? ddev : sdev);
    int r = copy_rect(dst, src, element_size, num_dims, volume, dst_offsets, src_offsets,
                      dst_dimensions, src_dimensions, ddev, sdev, flags | PV_COPY_QUIET);
    pv_ev_data_op_end(&op);
    return r;
}

PV_EXPORT int omp_target_memcpy_rect(void *dst, const void *src, size_t element_size,
                                     int num_dims, const size_t *volume,
                                     const size_t *dst_offsets, const size_t *src_offsets,
                                     const size_t *dst_dimensions,
                                     const size_t *src_dimensions, int dst_device_num,
                                     int src_device_num)
{
    int r = pv_target_rect_check(dst, src, num_dims, volume, dst_offsets, src_offsets,
                                 dst_dimensions, src_dimensions, dst_device_num,
                                 src_device_num);
    if (r)
        return r;
    return pv_target_copy_rect(dst, src, element_size, num_dims, volume, dst_offsets,
                               src_offsets, dst_dimensions, src_dimensions, dst_device_num,
                               src_device_num, false);
}

PV_EXPORT int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr, size_t size,
                                       size_t device_offset, int device_num)
{
    struct pv_device *d = NULL;
    /* A device sharing the host's memory has nothing to associate (EINVAL,
     * as libgomp answers for its shared-memory devices). */
    if (pv_target_which(device_num, &d) != 1 || !host_ptr || d->shared)
        return EINVAL;
    uintptr_t s = (uintptr_t)host_ptr, e = s + size;
    uintptr_t dev = (uintptr_t)device_ptr + device_offset;
    int ret = EINVAL;
    pthread_mutex_lock(&d->lock);
    struct pv_mapping *m = size ? pv_map_find(&d->map, s, e) : pv_map_find_0len(&d->map, s, true);
    if (m) {
        /* Already associated the same way: fine; otherwise an error. */
        if (m->host_start <= s && e <= m->host_end && pv_map_dev(m, s) == dev)
            ret = 0;
    } else {
        m = pv_calloc(1, sizeof *m);
        *m = (struct pv_mapping){.host_start = s, .host_end = e, .dev_start = dev,
                                 .refcount = PV_REF_INF, .head = m, .device = d->num,
                                 .serial = pv_map_serial()};
        pv_map_insert(&d->map, m);
        ret = 0;
        if (pv_ev_on()) {
            struct pv_op op;
            pv_ev_data_op_begin(&op, ompt_target_data_associate, (void *)host_ptr,
                                pv_target_num_devices(), (void *)dev, d->num, size, d->num);
            pv_ev_data_op_end(&op);
        }
    }
    pthread_mutex_unlock(&d->lock);
    return ret;
}

PV_EXPORT int omp_target_disassociate_ptr(const void *ptr, int device_num)
{
    struct pv_device *d = NULL;
    if (pv_target_which(device_num, &d) != 1 || !ptr)
        return EINVAL;
    uintptr_t s = (uintptr_t)ptr;
    int ret = EINVAL;
    pthread_mutex_lock(&d->lock);
    struct pv_mapping *m = pv_map_find_0len(&d->map, s, false);
    if (m && m->host_start == s && m->refcount == PV_REF_INF && !m->mem && !m->members &&
        !m->identity && m->head == m) {
        if (pv_ev_on()) {
            struct pv_op op;
            pv_ev_data_op_begin(&op, ompt_target_data_disassociate, (void *)ptr,
                                pv_target_num_devices(), (void *)m->dev_start, d->num,
                                m->host_end - m->host_start, d->num);
            pv_ev_data_op_end(&op);
        }
        pv_map_remove(&d->map, m);
        free(m->attach);
        free(m);
        ret = 0;
    }
    pthread_mutex_unlock(&d->lock);
    return ret;
}
