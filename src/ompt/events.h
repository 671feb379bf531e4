/* Shared by the event files of src/ompt (ev_*.c). */
#ifndef PV_OMPT_EVENTS_H
#define PV_OMPT_EVENTS_H

#include "ompt/inquiry.h"
#include "ompt/tool.h"
#include "runtime/ompt_view.h"

/* The tool's view of a task on the calling thread's chain (NULL and the
 * thread's embedded initial task are its initial task). */
static inline struct pv_ompt_task *pv_ompt_task_of(struct pv_task *t)
{
    return pv_task_ompt(t);
}

/* The current task and the innermost parallel region, as the tool sees them. */
/* In a host teams region, at its level (no team of its own begun). */
static inline bool pv_ompt_in_league(void)
{
    return pv_ompt_thr.league && !pv_thr_ts()->team && pv_thr_task() == pv_ompt_thr.league_at;
}

static inline struct pv_ompt_task *pv_ompt_cur_task(void)
{
    if (pv_ompt_thr.use_ending)
        return &pv_ompt_thr.ending;
    if (__builtin_expect(pv_ompt_in_league(), 0))
        return pv_ompt_thr.league_in_region ? &pv_ompt_thr.league_implicit
                                            : &pv_ompt_thr.league_task;
    return pv_ompt_task_of(pv_thr_task());
}

static inline ompt_data_t *pv_ompt_cur_parallel(void)
{
    if (pv_ompt_thr.use_ending)
        return NULL;
    struct pv_team *team = pv_thr_ts()->team;
    if (team)
        return &pv_team_ompt(team)->data;
    if (__builtin_expect(pv_ompt_in_league(), 0))
        return pv_ompt_thr.league_in_region ? &pv_ompt_thr.league_region
                                            : &pv_ompt_thr.league->parallel;
    return &pv_ompt_thr.initial_parallel.data;
}

/* Every event function starts here: the thread is known to the tool, and
 * an owed single end goes out first. */
void pv_ompt_flush_pending(void);
static inline void pv_ompt_enter(void)
{
    pv_ompt_thread_ensure();
    if (__builtin_expect(pv_ompt_thr.pending_single, 0))
        pv_ompt_flush_pending();
}

static inline void pv_ompt_set_state(int state, const void *wait_id)
{
    pv_ompt_thr.wait_id = (ompt_wait_id_t)(uintptr_t)wait_id;
    __atomic_store_n(&pv_ompt_thr.state, state, __ATOMIC_RELAXED);
}

/* o's enter_frame: the CFA of the entry point through which the task
 * entered the runtime, where it is suspended (NULL: it runs its own code). */
static inline void pv_ompt_set_enter(struct pv_ompt_task *o, void *cfa)
{
    o->frame.enter_frame.ptr = cfa;
    o->frame.enter_frame_flags = cfa ? ompt_frame_runtime | ompt_frame_cfa : 0;
}

/* The entry's CFA handed over by PV_OMPT_ENTRY / PV_OMPT_FRAME (taken:
 * it serves one event), else NULL. */
static inline void *pv_ompt_take_frame(void)
{
    void *f = pv_ompt_thr.enter_frame;
    pv_ompt_thr.enter_frame = NULL;
    return f;
}

/* The state of a thread that works in its current task. */
static inline int pv_ompt_work_state(void)
{
    return pv_thr_ts()->team ? ompt_state_work_parallel : ompt_state_work_serial;
}

/* The worksharing construct the thread is in at its level (ev_work.c). */
static inline int *pv_ompt_work_slot(void)
{
    unsigned level = pv_thr_ts()->level;
    return level < PV_OMPT_WORK_LEVELS ? &pv_ompt_thr.work[level] : NULL;
}

/* The codeptr_ra of the sections construct the thread is in (its section
 * dispatches name it), at the same level. */
static inline const void **pv_ompt_sections_codeptr_slot(void)
{
    unsigned level = pv_thr_ts()->level;
    return level < PV_OMPT_WORK_LEVELS ? &pv_ompt_thr.sections_codeptr[level] : NULL;
}

#endif
