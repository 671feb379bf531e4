/* Client side of the phantom page (see include/pvomp/phantom.h and
 * tools/pvomp-phantomd).  The pvsched wait policy reads one word from the
 * page on its spin path: no system call, no lock. */
#ifndef PV_PHANTOM_PHANTOM_H
#define PV_PHANTOM_PHANTOM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Points at this process's phantom count in the mapped page, or at a zero
 * word while no page is mapped. */
extern const volatile uint32_t *pv_phantom_count_ptr;

/* Phantoms among this process's team threads right now (one plain load). */
static inline uint32_t pv_phantom_now(void)
{
    return *pv_phantom_count_ptr;
}

/* Map this process's page.  Returns false, with a reason in *why, when no
 * tracker is running or the page cannot be mapped. */
bool pv_phantom_open(const char **why);

/* Every team thread calls this once when it starts, so the tracker learns it.
 * A no-op unless pv_phantom_open() succeeded; repeated calls are free. */
void pv_phantom_thread_start(void);

/* This process's page (counts, average, sequence, timestamp), or NULL when
 * no page is mapped. */
struct pvomp_phantom_proc;
const struct pvomp_phantom_proc *pv_phantom_page(void);

/* Points at this process's queued_since_ns array (one word per CPU: since
 * when a task waits for that CPU, 0 if none), or at zeros while no page is
 * mapped (wait/slice.c reads it). */
extern const volatile uint64_t *pv_phantom_queued_ptr;

/* The exported function whose entry the tracker's registration uprobe
 * watches (listed in src/runtime/abi/pvomp.abi). */
void pvomp_phantom_register(void);

#endif
