/* Device memory of the host device: separate heap blocks, and copies (or,
 * on a device sharing the host's memory, associations only).
 * Every allocation, transfer and release is an OMPT data operation and a
 * target_data event of the flight log (emitted before the operation).
 *
 * A device copy of a host object is placed at the same address modulo
 * PV_DEV_ALIGN (or the object's alignment, if larger), so that the
 * relative alignment of every field and element survives the copy, and a
 * struct whose first mapped field is not its first field still has a
 * correctly aligned device base. */
#include <stdlib.h>
#include <string.h>

#include "base/message.h"
#include "runtime/league.h"
#include "target/events.h"
#include "target/target.h"
#include "trace/trace.h"

#define PV_DEV_ALIGN 64u

static int host_dev(void)
{
    return pv_target_num_devices();
}

void *pv_dev_alloc(struct pv_device *d, size_t size, uintptr_t host_like, size_t align,
                   void **mem)
{
    size_t a = align > PV_DEV_ALIGN ? align : PV_DEV_ALIGN;
    if (a & (a - 1))
        a = PV_DEV_ALIGN;
    trace_target_data(PVTRACE_TARGET_KIND_ALLOC, d->num, size);
    char *block = malloc(size + a);
    if (!block)
        pv_fatal("device %d: out of memory allocating %zu bytes", d->num, size);
    uintptr_t b = (uintptr_t)block;
    uintptr_t dev = b + ((host_like - b) & (a - 1));
    *mem = block;
    if (pv_ev_on()) {
        struct pv_op op;
        pv_ev_data_op_begin(&op, ompt_target_data_alloc, (void *)host_like, host_dev(),
                            (void *)dev, d->num, size, d->num);
        pv_ev_data_op_end(&op);
    }
    return (void *)dev;
}

void pv_dev_free(struct pv_device *d, void *mem, void *dev_addr, size_t size)
{
    trace_target_data(PVTRACE_TARGET_KIND_FREE, d->num, size);
    if (pv_ev_on()) {
        struct pv_op op;
        pv_ev_data_op_begin(&op, ompt_target_data_delete, dev_addr, d->num, NULL, d->num, size,
                            d->num);
        free(mem);
        pv_ev_data_op_end(&op);
        return;
    }
    free(mem);
}

void pv_dev_share(struct pv_device *d, ompt_target_data_op_t optype, uintptr_t host, size_t size)
{
    if (pv_ev_on()) {
        struct pv_op op;
        pv_ev_data_op_begin(&op, optype, (void *)host, host_dev(), (void *)host, d->num, size,
                            d->num);
        pv_ev_data_op_end(&op);
    }
}

void pv_dev_to(struct pv_device *d, void *dev, const void *host, size_t size)
{
    trace_target_data(PVTRACE_TARGET_KIND_TO_DEVICE, d->num, size);
    if (pv_ev_on()) {
        struct pv_op op;
        pv_ev_data_op_begin(&op, pv_ev_transfer_kind(true, false), (void *)host, host_dev(),
                            dev, d->num, size, d->num);
        memcpy(dev, host, size);
        pv_ev_data_op_end(&op);
        return;
    }
    memcpy(dev, host, size);
}

void pv_dev_from(struct pv_device *d, void *host, const void *dev, size_t size)
{
    trace_target_data(PVTRACE_TARGET_KIND_FROM_DEVICE, d->num, size);
    if (pv_ev_on()) {
        struct pv_op op;
        pv_ev_data_op_begin(&op, pv_ev_transfer_kind(false, false), (void *)dev, d->num,
                            host, host_dev(), size, d->num);
        memcpy(host, dev, size);
        pv_ev_data_op_end(&op);
        return;
    }
    memcpy(host, dev, size);
}

/* omp_target_memcpy: every device's memory is addressable here, so a copy
 * is a memmove-free memcpy; the event says which way it went. */
void pv_dev_copy(int dst_dev, void *dst, int src_dev, const void *src, size_t size,
                 unsigned flags)
{
    int host = host_dev();
    if (dst_dev != host || src_dev != host)
        trace_target_data(src_dev == host   ? PVTRACE_TARGET_KIND_TO_DEVICE
                          : dst_dev == host ? PVTRACE_TARGET_KIND_FROM_DEVICE
                                            : PVTRACE_TARGET_KIND_DEVICE_TO_DEVICE,
                          src_dev == host ? dst_dev : src_dev, size);
    if (!pv_ev_on() || (flags & PV_COPY_QUIET) || (dst_dev == host && src_dev == host)) {
        memcpy(dst, src, size);
        return;
    }
    ompt_target_data_op_t t = pv_ev_transfer_kind(src_dev == host, flags & PV_COPY_ASYNC);
    int traced_dev = src_dev == host ? dst_dev : src_dev;
    struct pv_op op;
    pv_ev_data_op_begin(&op, t, (void *)src, src_dev, dst, dst_dev, size, traced_dev);
    memcpy(dst, src, size);
    pv_ev_data_op_end(&op);
}

/* omp_target_memset(_async) on a device: OpenMP 6.0's memset kinds, for a
 * 6.0 tool only (5.1 has no kind for a fill; the flight log records it as
 * a transfer to the device).  The source is none: NULL on the device. */
void pv_dev_fill(int device, void *ptr, int val, size_t count, bool async)
{
    trace_target_data(PVTRACE_TARGET_KIND_TO_DEVICE, device, count);
    if (!pv_ev_on() || !pv_ev_v60()) {
        memset(ptr, val, count);
        return;
    }
    struct pv_op op;
    pv_ev_data_op_begin(&op, async ? ompt_target_data_memset_async : ompt_target_data_memset,
                        NULL, device, ptr, device, count, device);
    memset(ptr, val, count);
    pv_ev_data_op_end(&op);
}
