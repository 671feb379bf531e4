/* The places threads are bound to, as the team code sees them: the list,
 * a new team's assignment, binding, and OMP_DISPLAY_AFFINITY's lines
 * (affinity_*.c, affinity_format.c; affinity.h and affinity_internal.h
 * hold what those files share among themselves). */
#ifndef PV_RUNTIME_PLACES_H
#define PV_RUNTIME_PLACES_H

#include <stdbool.h>

/* Places (affinity_*.c).  A place is a set of CPU numbers. */
struct pv_place {
    unsigned ncpus;
    int *cpus;
};
extern struct pv_place *pv_places;        /* pv_num_places of them (ompt_view.h) */

void pv_affinity_init(void);              /* affinity_bind.c: the initial thread's place */
/* Pick the places for a new team of n threads (bind policy `bind`) inside the
 * parent's partition; fills place[i] and partition for each member. */
void pv_affinity_assign(unsigned n, unsigned bind, unsigned parent_place,
                        unsigned part_off, unsigned part_len,
                        unsigned *place, unsigned *sub_off, unsigned *sub_len);
void pv_affinity_bind_self(unsigned place);  /* pins the calling thread; no-op without places */
/* OMP_DISPLAY_AFFINITY: print the calling thread's affinity line if it
 * changed since it last printed, or if `team_changed` (a teammate's place
 * changed: the spec then shows every thread of the team); no-op unless
 * pv_gicv.display_affinity.  Team code calls it in every member after
 * setting up pv_thr.ts. */
void pv_affinity_display_thread(bool team_changed); /* affinity_format.c */
unsigned pv_affinity_shown_place(void); /* the place of the caller's last line, or UINT_MAX */
/* The program speaks libomp's ABI (src/abi/kmpc_start.c calls it when a clang program
 * forks or displays): affinity lines go to stdout as libomp prints them,
 * not to stderr as libgomp does. */
void pv_affinity_display_kmp(void);       /* affinity_format.c */

#endif
