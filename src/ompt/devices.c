/* The device layer's entries, registered from above (ompt/devices.h). */
#include <stdatomic.h>
#include <stddef.h>

#include "ompt/devices.h"
#include "ompt/tool.h"

/* Release/acquire: a reader that sees the table sees its entries. */
static const struct pv_ompt_devices *_Atomic devices;

void pv_ompt_devices_register(const struct pv_ompt_devices *d)
{
    atomic_store_explicit(&devices, d, memory_order_release);
}

int pv_ompt_get_target_info(uint64_t *device_num, ompt_id_t *target_id, ompt_id_t *host_op_id)
{
    const struct pv_ompt_devices *d = atomic_load_explicit(&devices, memory_order_acquire);
    return d ? d->target_info(device_num, target_id, host_op_id) : 0;
}

void pv_ompt_devices_end_threads(void)
{
    const struct pv_ompt_devices *d = atomic_load_explicit(&devices, memory_order_acquire);
    if (d)
        d->end_threads();
}

void pv_ompt_devices_detach(void)
{
    const struct pv_ompt_devices *d = atomic_load_explicit(&devices, memory_order_acquire);
    if (d)
        d->detach();
}
