/* The calling thread's league (struct pv_league): its team of a teams
 * construct and the device it runs on, with the device count that
 * target-offload-var gives.  The teams construct's entry points are in
 * src/parallel/gomp_teams.c; src/target (above) builds the devices on these, and
 * the runtime never calls it (docs/DESIGN.md, "Layers"). */
#include "base/compiler.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/omp_api.h"
#include "runtime/ompt_view.h"

PV_EXPORT int omp_get_num_teams(void)
{
    return (int)pv_league.num_teams;
}

PV_EXPORT int omp_get_team_num(void)
{
    return (int)pv_league.team_num;
}

int pv_target_num_devices(void)
{
    pv_runtime_init();
    return pv_gicv.target_offload == PV_OFFLOAD_DISABLED ? 0 : PV_MAX_DEVICES;
}

bool pv_target_in_kernel(void)
{
    return pv_league.device != 0;
}

int pv_target_current_device(void)
{
    return pv_league.device ? (int)pv_league.device - 1 : pv_target_num_devices();
}
