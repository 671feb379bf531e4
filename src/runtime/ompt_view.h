/* What src/ompt may know of the runtime.  The OMPT module's include path
 * holds this header and barrier_kind.h of src/runtime, not team.h or thread.h
 * (cmake/layers.cmake, VIEWS): teams, tasks and threads are opaque to it,
 * and the few of their fields that events report come through here.
 *
 * Where the calling thread stands (struct pv_ts) is read in place: it is
 * the first member of the thread's state pv_thr (thread.h checks that).
 * Everything else is a function of ompt_view.c, called only behind the
 * event sites' tool test, so a program without a tool never runs one. */
#ifndef PV_RUNTIME_OMPT_VIEW_H
#define PV_RUNTIME_OMPT_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "ompt/ompt_types.h"

struct pv_team;
struct pv_task;
struct pv_thread;
struct pv_ws;

/* Where a thread stands. */
struct pv_ts {
    struct pv_team *team;           /* NULL outside any parallel region */
    unsigned team_id;
    unsigned level;                 /* nesting level (0 = initial) */
    unsigned active_level;          /* active (more than one thread) levels */
    unsigned place;                 /* place index, or UINT_MAX when unbound */
    unsigned part_off, part_len;    /* place partition */
    uint64_t ws_seq;                /* sequence number of the next worksharing construct */
    struct pv_ws *ws;               /* the construct this thread is in */
    uint64_t single_seq;            /* single constructs met (nowait form) */
    unsigned long static_trip;      /* static schedule: chunks taken so far */
};

extern __thread struct pv_thread pv_thr __attribute__((tls_model("initial-exec")));

/* The calling thread's position (read only). */
static inline const struct pv_ts *pv_thr_ts(void)
{
    return (const struct pv_ts *)(const void *)&pv_thr;
}

/* ---------------------------------------------------------- the thread */
struct pv_task *pv_thr_task(void);        /* current task (NULL: the initial task) */
bool pv_thr_is_worker(void);              /* a thread of the runtime's pool */

/* ------------------------------------------------------------- tasks */
/* The tool's view of t; t NULL: the calling thread's initial task. */
struct pv_ompt_task *pv_task_ompt(struct pv_task *t);
struct pv_task *pv_task_parent(const struct pv_task *t);
struct pv_team *pv_task_team(const struct pv_task *t);   /* counts it (pv_task_outstanding) */
void (*pv_task_body(const struct pv_task *t))(void *);   /* an explicit task's function */
bool pv_task_is_final(const struct pv_task *t);
/* t has a detach event that is not fulfilled yet. */
bool pv_task_detach_pending(const struct pv_task *t);
/* The task that t stands for: a task in a frame that has moved into a
 * block since (task.c, task_promote) is that block. */
struct pv_task *pv_task_resolve(struct pv_task *t);

/* ------------------------------------------------------------- teams */
unsigned pv_team_nthreads(const struct pv_team *team);
struct pv_ompt_team *pv_team_ompt(struct pv_team *team);
struct pv_ompt_task *pv_team_implicit_ompt(struct pv_team *team, unsigned member);
/* The team the master was in before this one began (NULL: none). */
struct pv_team *pv_team_outer(const struct pv_team *team);
/* Wait ids of the team's barriers: inside the region, and its end. */
const void *pv_team_barrier_id(const struct pv_team *team);
const void *pv_team_final_id(const struct pv_team *team);
/* Combined construct (parallel for / sections): the worksharing construct
 * its members start inside, set up before the fork; NULL without one. */
const struct pv_ws *pv_team_combined(const struct pv_team *team);

/* --------------------------------------------------- worksharing, places */
unsigned long long pv_ws_count(const struct pv_ws *ws);   /* iterations or sections */
/* The OpenMP 5.2 loop work type of the schedule the loop runs with
 * (ompt_work_loop_static, _dynamic or _guided; runtime and auto as resolved). */
int pv_ws_loop_work_type(const struct pv_ws *ws);
extern unsigned pv_num_procs;             /* CPUs this process may run on */
/* Of the omp_* API (device_numbers.c): the device numbers a tool is told. */
int omp_get_num_devices(void);
int omp_get_initial_device(void);
extern unsigned pv_num_places;
/* The CPUs of place p < pv_num_places; their number in *n. */
const int *pv_place_cpus(unsigned p, unsigned *n);

/* ----------------------------------------------------------- runtime */
/* Lazily created runtime state (env, places); safe to call often. */
void pv_runtime_init(void);
/* omp_pause_resource: flush what can be flushed (trace), release idle threads. */
void pv_runtime_pause(void);

#endif
