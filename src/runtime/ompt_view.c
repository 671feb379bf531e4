/* The runtime's fields that OMPT events report (ompt_view.h).  Out of
 * line, so that src/ompt needs none of the runtime's layouts; only events
 * with a tool attached call them. */
#include "runtime/places.h"
#include "runtime/task_parts.h"

struct pv_task *pv_thr_task(void)
{
    return pv_thr.task;
}

bool pv_thr_is_worker(void)
{
    return pv_thr.is_worker;
}

struct pv_ompt_task *pv_task_ompt(struct pv_task *t)
{
    return t ? &t->ompt : &pv_thr.initial_task.ompt;
}

struct pv_task *pv_task_parent(const struct pv_task *t)
{
    return t->parent;
}

struct pv_team *pv_task_team(const struct pv_task *t)
{
    return t->team;
}

void (*pv_task_body(const struct pv_task *t))(void *)
{
    return t->fn;
}

bool pv_task_is_final(const struct pv_task *t)
{
    return t->final;
}

bool pv_task_detach_pending(const struct pv_task *t)
{
    return (t->tflags & PV_TF_DETACH) && !event_fulfilled(t);
}

struct pv_task *pv_task_resolve(struct pv_task *t)
{
    return task_resolve(t);
}

unsigned pv_team_nthreads(const struct pv_team *team)
{
    return team->nthreads;
}

struct pv_ompt_team *pv_team_ompt(struct pv_team *team)
{
    return &team->ompt;
}

struct pv_ompt_task *pv_team_implicit_ompt(struct pv_team *team, unsigned member)
{
    return &team->implicit[member].ompt;
}

struct pv_team *pv_team_outer(const struct pv_team *team)
{
    return team->prev_ts.team;
}

const void *pv_team_barrier_id(const struct pv_team *team)
{
    return &team->barrier;
}

const void *pv_team_final_id(const struct pv_team *team)
{
    return &team->final;
}

const struct pv_ws *pv_team_combined(const struct pv_team *team)
{
    return team->ws_seq0 ? &team->ws[0] : NULL;
}

unsigned long long pv_ws_count(const struct pv_ws *ws)
{
    return ws->n;
}

int pv_ws_loop_work_type(const struct pv_ws *ws)
{
    switch (ws->sched) {
    case PV_SCHED_STATIC:
        return ompt_work_loop_static;
    case PV_SCHED_DYNAMIC:
        return ompt_work_loop_dynamic;
    case PV_SCHED_GUIDED:
        return ompt_work_loop_guided;
    default:
        return ompt_work_loop_other;
    }
}

const int *pv_place_cpus(unsigned p, unsigned *n)
{
    *n = pv_places[p].ncpus;
    return pv_places[p].cpus;
}
