/* A team (team.c): its members, its barriers, its worksharing slots and
 * its tasks; the fork and join.  Every wait goes through src/wait (spin,
 * then futex). */
#ifndef PV_RUNTIME_TEAM_H
#define PV_RUNTIME_TEAM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"
#include "ompt/ompt_types.h"
#include "runtime/barrier.h"
#include "runtime/league.h"
#include "runtime/ompt_view.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"

struct pv_team {
    struct pv_league league;        /* of the encountering thread, for every member */
    unsigned nthreads;
    unsigned level, active_level;   /* of the team's members */
    struct pv_barrier barrier;      /* barriers inside the region (cancellable) */
    struct pv_barrier final;        /* the implicit barrier that ends the region */
    struct pv_ts prev_ts;           /* the master's state before the team began */
    struct pv_task *prev_task;      /* the master's task before the team began */
    struct pv_thread **members;     /* members[i] runs implicit task i */

    _Atomic uint64_t single_seq;    /* single constructs claimed so far */
    _Atomic int cancelled;          /* parallel cancellation requested */
    _Atomic int ws_cancelled;       /* for/sections cancellation; cleared by the next barrier */
    bool nested;                    /* started from inside another team */
    bool display_all;               /* OMP_DISPLAY_AFFINITY: a member's place changed */

    uint64_t ws_seq0;               /* 1 when slot 0 was set up before the fork */
    struct pv_ws ws[PV_WS_SLOTS];
    struct pv_task *implicit;       /* implicit tasks, one per member */
    unsigned *place;                /* per member: place, partition (NULL: no places) */
    unsigned *part_off, *part_len;
    unsigned capacity;              /* members this allocation can hold */
    struct pv_team *spare_next;     /* link in the spare-team list */
    _Atomic unsigned *cg_extra;     /* the contention group's thread count */
    unsigned cg_added;              /* what this team added to it */
    struct pv_tstate *task_state;   /* tasking's per-team queues (task_internal.h) */
    struct pv_ompt_team ompt;       /* the tool's view (src/ompt; untouched without a tool) */
};

/* Number of threads for a parallel region (spec's algorithm); with a tool
 * attached, the requested parallelism is noted for its parallel_begin.
 * pv_team_threads: the number alone, for an entry point that has made its
 * one tool test already. */
unsigned pv_resolve_num_threads(unsigned requested, unsigned count);
unsigned pv_team_threads(unsigned requested, unsigned count);
/* Sets up the first worksharing construct of a combined construct. */
typedef void (*pv_ws_preinit_fn)(struct pv_ws *ws, void *arg);
/* Fork a team of nthreads (already resolved) running fn(data); the caller
 * becomes member 0 and returns at once (pv_team_end joins).  With `preinit`,
 * slot 0 is initialised by the caller before the fork and every member starts
 * inside it. */
void pv_team_fork_ws(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags,
                     pv_ws_preinit_fn preinit, void *arg);
/* Fork, run fn(data) as member 0, join (pv_team_run: without a tool, for
 * an entry point that has made its one tool test already). */
void pv_team_start_ws(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags,
                      pv_ws_preinit_fn preinit, void *arg);
void pv_team_run(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags,
                 pv_ws_preinit_fn preinit, void *arg);
/* The end of a region: the implicit barrier, then the caller's old state back. */
void pv_team_end(void);
/* pv_runtime_init, pv_runtime_pause: ompt_view.h. */

/* Tasking hooks (task.c). */
void pv_task_team_init(struct pv_team *team);      /* a team is (re)used */
/* The team may still have a task that is not complete (a barrier ends only
 * when it has none; task_run.c). */
bool pv_task_outstanding(const struct pv_team *team);
/* Run queued tasks of the team; true if at least one ran. */
bool pv_task_run_pending(struct pv_team *team);
/* The same for a thread waiting in the barrier whose word is gen_word at
 * generation gen: stops (true) once that barrier completed. */
bool pv_task_run_pending_gen(struct pv_team *team, _Atomic uint32_t *gen_word, uint32_t gen);
/* True when cancellation of the innermost parallel region was requested. */
static inline bool pv_team_cancelled(void)
{
    struct pv_team *t = pv_thr.ts.team;
    return t && atomic_load_explicit(&t->cancelled, memory_order_relaxed);
}

static inline unsigned pv_team_size(void)
{
    return pv_thr.ts.team ? pv_thr.ts.team->nthreads : 1;
}

#endif
