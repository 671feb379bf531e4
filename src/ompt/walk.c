/* Regions and tasks of the calling thread, from the inside out, for
 * ompt_get_parallel_info and ompt_get_task_info.
 *
 * Tasks: the tasks on the thread's stack (OpenMP 5.1, 4.6.1.14).  An
 * explicit task's ancestor is the task it interrupted: its parent, or,
 * for a task run at a barrier or wait of another task, that task
 * (`scheduler`, as libomp's scheduling parent); an implicit task's
 * ancestor is the task that encountered the parallel
 * construct, which the team remembers (it may be another thread's initial
 * task); an initial task has none.  Regions: the current team, then each
 * enclosing team, then the implicit parallel region around the outermost
 * team's encountering initial task. */
#include "ompt/events.h"

bool pv_ompt_region_at(int level, struct pv_ompt_region *r)
{
    if (level < 0 || pv_ompt_thr.use_ending)
        return false;
    struct pv_team *team = pv_thr_ts()->team;
    if (!team) {
        if (pv_ompt_in_league()) {
            /* the team's region (once begun), then the league */
            if (pv_ompt_thr.league_in_region && level == 0) {
                r->parallel = &pv_ompt_thr.league_region;
                r->team_size = 1;
                return true;
            }
            if (level != (pv_ompt_thr.league_in_region ? 1 : 0))
                return false;
            r->parallel = &pv_ompt_thr.league->parallel;
            r->team_size = pv_ompt_thr.league->size;
            return true;
        }
        if (level != 0)
            return false;
        r->parallel = pv_ompt_cur_parallel();
        r->team_size = 1;
        return true;
    }
    for (; level > 0; level--) {
        struct pv_team *outer = pv_team_outer(team);
        if (!outer) {
            if (level != 1 || !pv_team_ompt(team)->enclosing)
                return false;
            r->parallel = pv_team_ompt(team)->enclosing;
            r->team_size = 1;
            return true;
        }
        team = outer;
    }
    r->parallel = &pv_team_ompt(team)->data;
    r->team_size = pv_team_nthreads(team);
    return true;
}

struct pv_ompt_task *pv_ompt_task_at(int level)
{
    if (level < 0)
        return NULL;
    if (pv_ompt_thr.use_ending)
        return level == 0 ? &pv_ompt_thr.ending : NULL;
    struct pv_task *t = pv_thr_task();
    struct pv_ompt_task *o = pv_ompt_cur_task();
    for (; level > 0 && o; level--) {
        if (o == &pv_ompt_thr.league_implicit) {
            o = &pv_ompt_thr.league_task; /* the team's region: its initial task */
        } else if (o == &pv_ompt_thr.league_task) {
            o = pv_ompt_thr.league->enc;  /* a team's initial task: the league's encountering task */
        } else if (o->flags & ompt_task_initial) {
            o = NULL;
        } else if (o->flags & ompt_task_implicit) {
            o = pv_task_team(t) ? pv_team_ompt(pv_task_team(t))->encountering : NULL;
            t = pv_task_parent(t);
        } else {
            t = o->scheduler ? pv_task_resolve(o->scheduler) : pv_task_parent(t);
            o = pv_ompt_task_of(t);
        }
    }
    return o;
}
