/* The team inquiry routines of the omp_* API (the GOMP_parallel entry
 * points and cancellation: src/parallel/gomp_parallel.c).  They stay in
 * the runtime: it calls them itself (affinity_format.c, fortran.c), and so
 * do the other families (src/loops, src/sync, src/api). */
#include "ompt/ompt.h"
#include "runtime/omp_api.h"
#include "runtime/team.h"
#include "runtime/thread.h"

/* omp_get_num_threads is the call programs make to get OpenMP going on a
 * thread (and libomp registers the thread there): with a tool, the thread
 * begins as an OpenMP thread if it had not yet.  omp_get_thread_num does
 * not, as in libomp.  A thread in a team has begun already (its implicit
 * task's begin, or the fork's events, made it known), so only a thread
 * outside any team tests for a tool: the team's path is the one of a build
 * without OMPT. */
static __attribute__((noinline, cold)) int num_threads_told(void)
{
    pv_ompt_thread_ensure();
    return 1;
}

PV_EXPORT int omp_get_num_threads(void)
{
    struct pv_team *team = pv_thr.ts.team;
    if (team)
        return (int)team->nthreads;
    if (pv_ompt_tool())
        return num_threads_told();
    return 1;
}

PV_EXPORT int omp_get_thread_num(void)
{
    return (int)pv_thr.ts.team_id;
}

PV_EXPORT int omp_in_parallel(void)
{
    return pv_thr.ts.active_level > 0;
}

PV_EXPORT int omp_get_level(void)
{
    return (int)pv_thr.ts.level;
}

PV_EXPORT int omp_get_active_level(void)
{
    return (int)pv_thr.ts.active_level;
}

/* The thread's state at nesting level `level`, or NULL when out of range. */
static const struct pv_ts *ts_at_level(int level)
{
    const struct pv_ts *ts = &pv_thr.ts;
    if (level < 0 || (unsigned)level > ts->level)
        return NULL;
    while (ts->level > (unsigned)level)
        ts = &ts->team->prev_ts;
    return ts;
}

PV_EXPORT int omp_get_ancestor_thread_num(int level)
{
    const struct pv_ts *ts = ts_at_level(level);
    return ts ? (int)ts->team_id : -1;
}

PV_EXPORT int omp_get_team_size(int level)
{
    const struct pv_ts *ts = ts_at_level(level);
    if (!ts)
        return -1;
    return ts->team ? (int)ts->team->nthreads : 1;
}

PV_EXPORT int omp_in_final(void)
{
    struct pv_task *t = pv_thr.task;
    return t && t->final;
}

/* OpenMP 5.2 (GCC 13's OMP_5.2): whether the encountering task is an
 * explicit task (an included or undeferred one too).  Implicit tasks, the
 * initial tasks included, are the zeroed ones at depth 0. */
PV_EXPORT int omp_in_explicit_task(void)
{
    struct pv_task *t = pv_thr.task;
    return t && t->depth > 0;
}
