/* The devices as the tool interface reaches them.  src/target (the host
 * device) sits above src/ompt: it hands its entries down at start-up
 * (pv_ompt_devices_register, from a constructor), and src/ompt calls them
 * through this table, never by name. */
#ifndef PV_OMPT_DEVICES_H
#define PV_OMPT_DEVICES_H

#include <stdint.h>

#include "omp-tools.h"

struct pv_ompt_devices {
    /* ompt_get_target_info for the calling thread (0: not in a target region). */
    int (*target_info)(uint64_t *device_num, ompt_id_t *target_id, ompt_id_t *host_op_id);
    /* The tool is being finalized: every used device ends its tracing (all
     * records delivered) and dispatches device_unload/device_finalize. */
    void (*detach)(void);
    /* The program ends or the tool is finalized: the idle device threads
     * send their pools' workers away and end (thread_end on each). */
    void (*end_threads)(void);
};

/* `d` must live as long as the library (a static table). */
void pv_ompt_devices_register(const struct pv_ompt_devices *d);

#endif
