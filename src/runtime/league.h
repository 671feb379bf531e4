/* The host teams construct's league, per thread, and what the ICVs and
 * the league say about devices (league.c). */
#ifndef PV_RUNTIME_LEAGUE_H
#define PV_RUNTIME_LEAGUE_H

#include <stdbool.h>

/* Teams construct (host): the team number and count, per thread. */
struct pv_league {
    unsigned num_teams;
    unsigned team_num;
    unsigned device;   /* 1 + device number inside a target region on a non-host device (src/target) */
};
extern __thread struct pv_league pv_league;

/* What the ICVs and the thread's league say about devices (league.c);
 * src/target builds the devices themselves on these. */
#define PV_MAX_DEVICES 1          /* non-host devices pvomp provides */
/* target-offload-var (pv_gicv.target_offload), OMP_TARGET_OFFLOAD's words. */
enum { PV_OFFLOAD_DEFAULT = 0, PV_OFFLOAD_MANDATORY = 1, PV_OFFLOAD_DISABLED = 2 };
/* omp_get_num_devices(): 1, or 0 with OMP_TARGET_OFFLOAD=disabled. */
int pv_target_num_devices(void);
/* omp_is_initial_device, omp_get_device_num (a kernel knows its device). */
bool pv_target_in_kernel(void);
int pv_target_current_device(void);

#endif
