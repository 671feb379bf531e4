/* The team barrier (barrier.c): its state and its wait.  The sites that
 * wait in it, with their trace and OMPT events: barrier_site.h. */
#ifndef PV_RUNTIME_BARRIER_H
#define PV_RUNTIME_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"
#include "wait/wait.h"

struct pv_team;

/* Centralized barrier: the arrival counter and the generation word live on
 * separate cache lines so that spinning waiters do not slow arrivals.
 * gen.word = generation * PV_BAR_INCR | flags. */
#define PV_BAR_TASK 1u      /* tasks were queued while threads wait here */
#define PV_BAR_CANCEL 2u    /* the region was cancelled: cancellable waits return */
#define PV_BAR_INCR 4u
struct pv_barrier {
    _Alignas(PV_CACHELINE) _Atomic uint32_t arrived;
    /* Atomic only because the next fork rewrites it while a waiter of the
     * finished barrier may still compare against it (harmlessly). */
    _Atomic uint32_t total;
    _Alignas(PV_CACHELINE) pv_futex_t gen;
};

void pv_barrier_init(struct pv_barrier *b, unsigned total);
/* Wait for all `total` threads; while waiting, run the team's pending tasks.
 * Returns true only when `cancellable` and the region was cancelled. */
bool pv_barrier_wait(struct pv_barrier *b, struct pv_team *team, bool cancellable);
/* Tell threads waiting in the team's barriers that there is task work, or that
 * a task finished outside the team.  task.c calls it after queueing a task
 * (after its seq_cst count of the task's creation), task_run.c when a
 * thread that is not a member completes one. */
void pv_barrier_task_queued(struct pv_team *team);
void pv_barrier_tasks_changed(struct pv_team *team);
/* A thread outside the team completed a task: wakes the waiters where
 * everybody arrived (members' completions wake nobody: task_run.c). */
void pv_barrier_tasks_done(struct pv_team *team);
/* A thread waiting in a barrier took a queued task: wake one more sleeper. */
void pv_barrier_task_taken(struct pv_team *team);
/* Cancellation of the parallel region: release every cancellable wait. */
void pv_barrier_cancel(struct pv_barrier *b);

#endif
