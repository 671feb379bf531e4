/* OMPT dispatch, as runtime code sees it.
 *
 * With no tool attached an event site costs one load and one predictable,
 * not-taken branch:
 *
 *     if (pv_ompt_on(parallel_begin)) pv_ompt_parallel_begin(...);
 *     if (pv_ompt_tool()) pv_ompt_barrier(...); else pv_team_barrier();
 *
 * pv_ompt_on(ev) tests the registered callback of one event; pv_ompt_tool()
 * tests whether a tool is attached at all (for sites that keep thread state
 * or do several events).  Everything behind the branch is out of line in
 * src/ompt.  Building with -DPVOMP_NO_OMPT (cmake -DPVOMP_OMPT=OFF) turns
 * every site into dead code, for the overhead benchmark. */
#ifndef PV_OMPT_OMPT_H
#define PV_OMPT_OMPT_H

#include <stdbool.h>

#include "omp-tools.h"
#include "ompt/ompt_types.h"

#define PV_OMPT_NEVENTS 38   /* event ids are 1..37 (ompt_callbacks_t) */

/* The tool's callbacks by event id (NULL: none registered).  Written by
 * ompt_set_callback and at finalization, read by every event site. */
extern ompt_callback_t pv_ompt_callbacks[PV_OMPT_NEVENTS];
/* A tool is attached: its initializer succeeded and it is not finalized. */
extern bool pv_ompt_active;

#ifdef PVOMP_NO_OMPT
#define pv_ompt_on(ev) 0
#define pv_ompt_tool() 0
#else
/* Relaxed loads: a plain mov; a callback registered concurrently with an
 * event is seen by later events. */
#define pv_ompt_on(ev)                                                                  \
    __builtin_expect(__atomic_load_n(&pv_ompt_callbacks[ompt_callback_##ev],            \
                                     __ATOMIC_RELAXED) != 0, 0)
#define pv_ompt_tool() __builtin_expect(__atomic_load_n(&pv_ompt_active, __ATOMIC_RELAXED), 0)
#endif

/* The registered callback of `ev`, with its type. */
#define pv_ompt_cb(ev)                                                                  \
    ((ompt_callback_##ev##_t)__atomic_load_n(&pv_ompt_callbacks[ompt_callback_##ev],     \
                                             __ATOMIC_RELAXED))

/* Per-thread OMPT state. */
struct pv_ompt_thread {
    ompt_data_t data;             /* the tool's thread data */
    int state;                    /* ompt_state_t, for ompt_get_state */
    ompt_wait_id_t wait_id;       /* what the thread waits for in a wait state */
    const void *codeptr;          /* return address of the runtime call being served */
    void *enter_frame;            /* frame address of that call */
    unsigned requested;           /* requested parallelism of the region being forked */
    unsigned char begun;          /* thread_begin dispatched */
    unsigned char ended;          /* thread_end dispatched */
    unsigned char type;           /* ompt_thread_t */
    unsigned char pending_single; /* a single's end is owed (see events) */
    const void *pending_codeptr;
    struct pv_ompt_task initial;  /* the thread's initial task ... */
    struct pv_ompt_team initial_parallel;   /* ... and its implicit parallel region */
};

extern __thread struct pv_ompt_thread pv_ompt_thr __attribute__((tls_model("initial-exec")));

/* At an exported entry point (GOMP_*, omp_*): remember where the program
 * called from and the entry's frame, for the events the call causes. */
#define PV_OMPT_ENTRY()                                                      \
    do {                                                                     \
        if (pv_ompt_tool()) {                                                \
            pv_ompt_thr.codeptr = __builtin_return_address(0);               \
            pv_ompt_thr.enter_frame = __builtin_frame_address(0);            \
        }                                                                    \
    } while (0)

/* ------------------------------------------------------ start and stop */
void pv_ompt_init(void);          /* tool discovery and initialization (once) */
void pv_ompt_shutdown(void);      /* end of program: finalize the tool */

#endif
