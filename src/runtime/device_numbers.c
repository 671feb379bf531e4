/* omp_get_num_devices and omp_get_initial_device, out of the omp_* API's
 * folder (src/api/icv_api.c): OMPT, below the runtime, tells a tool these
 * device numbers (runtime/ompt_view.h), so they stay below it.  The devices
 * are src/target's: device 0 (a host device with its own memory) unless
 * OMP_TARGET_OFFLOAD=disabled; the host's number is the device count. */
#include "base/compiler.h"
#include "runtime/league.h"
#include "runtime/omp_api.h"
#include "runtime/ompt_view.h"

PV_EXPORT int omp_get_num_devices(void)
{
    return pv_target_num_devices();
}

PV_EXPORT int omp_get_initial_device(void)
{
    return omp_get_num_devices();
}
