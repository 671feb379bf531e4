/* Events of parallel regions: parallel_begin/end, implicit_task, the
 * implicit barrier that ends a region, team barriers, thread end.
 *
 * Ids and data: the region's parallel data lives in its team, each implicit
 * task's data in team->implicit[i].  After the final barrier a worker must
 * not touch the team (its primary may already reuse it), so a worker ends
 * its barrier and its implicit task on a private copy of the task's tool
 * data, with parallel_data NULL (as OpenMP 5.1 allows for those events). */
#include <stdatomic.h>
#include <string.h>

#include "ompt/events.h"
#include "ompt/tool.h"
#include "trace/trace.h"

/* Workers between their arrival at a region's final barrier and their last
 * callback after it.  The primary leaves the barrier (and may return from
 * main and finalize the tool) while they still make those callbacks, so the
 * finalizer waits for them (pv_ompt_wait_workers_ended). */
static atomic_uint workers_ending;
static __thread bool ending_here; /* this thread is one of them */

static int barrier_state(int kind)
{
    switch (kind) {
    case ompt_sync_region_barrier_implicit_parallel:
        return ompt_state_wait_barrier_implicit_parallel;
    case ompt_sync_region_barrier_implicit_workshare:
        return ompt_state_wait_barrier_implicit_workshare;
    case ompt_sync_region_barrier_implementation:
        return ompt_state_wait_barrier_implementation;
    case ompt_sync_region_barrier_teams:
        return ompt_state_wait_barrier_teams;
    default:
        return ompt_state_wait_barrier_explicit;
    }
}

/* A barrier's events around the wait: sync_region begin; the wait state
 * and sync_region_wait begin; then (barrier_leave) sync_region_wait end,
 * the state `after`, sync_region end. */
static void barrier_enter(int kind, ompt_data_t *par, ompt_data_t *task, const void *codeptr,
                          const void *wait_id)
{
    if (pv_ompt_on(sync_region))
        pv_ompt_call(sync_region, kind, ompt_scope_begin, par, task, codeptr);
    pv_ompt_set_state(barrier_state(kind), wait_id);
    if (pv_ompt_on(sync_region_wait))
        pv_ompt_callt(sync_region_wait, sync_region, kind, ompt_scope_begin, par, task, codeptr);
}

static void barrier_leave(int kind, ompt_data_t *par, ompt_data_t *task, const void *codeptr,
                          int after)
{
    if (pv_ompt_on(sync_region_wait))
        pv_ompt_callt(sync_region_wait, sync_region, kind, ompt_scope_end, par, task, codeptr);
    pv_ompt_set_state(after, NULL);
    if (pv_ompt_on(sync_region))
        pv_ompt_call(sync_region, kind, ompt_scope_end, par, task, codeptr);
}

/* ---------------------------------------------------------- the region */

void pv_ompt_parallel_begin(struct pv_team *team, void (*fn)(void *))
{
    pv_ompt_enter();
    pv_ompt_register_atexit();   /* main runs: finalize before library destructors */
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_ompt_task *enc = pv_ompt_cur_task();

    const void *codeptr = me->codeptr;
    void *frame = me->enter_frame;
    me->codeptr = NULL;
    me->enter_frame = NULL;
    if (!codeptr)
        pv_ompt_caller(&codeptr, &frame);
    unsigned n = team->nthreads;
    unsigned requested = me->requested ? me->requested : n;
    int flags = ompt_parallel_team |
                (me->legacy ? ompt_parallel_invoker_program : ompt_parallel_invoker_runtime);
    int combined = me->combined ? ompt_work_sections : ompt_work_loop;
    me->requested = 0;
    me->legacy = 0;
    me->combined = 0;

    team->ompt.data.value = 0;
    team->ompt.codeptr = codeptr;
    team->ompt.flags = flags;
    team->ompt.combined_work = team->ws_seq0 ? combined : 0;
    team->ompt.encountering = enc;
    team->ompt.fn = fn;
    team->ompt.enclosing = pv_ompt_cur_parallel();
    for (unsigned i = 0; i < n; i++) {
        struct pv_ompt_task *o = &team->implicit[i].ompt;
        memset(o, 0, sizeof *o);
        o->flags = ompt_task_implicit | ompt_task_undeferred; /* runs at once, as libomp reports it */
        o->thread_num = (int)i;
        o->parallel = &team->ompt.data;
    }
    enc->frame.enter_frame.ptr = frame;
    enc->frame.enter_frame_flags = frame ? ompt_frame_runtime | ompt_frame_cfa : 0;
    if (pv_ompt_on(parallel_begin))
        pv_ompt_call(parallel_begin, &enc->data, &enc->frame, &team->ompt.data, requested, flags,
                     codeptr);
}

/* The combined construct a member starts inside (parallel for/sections). */
static void combined_work_begin(struct pv_team *team, struct pv_ompt_task *o)
{
    int *slot = pv_ompt_work_slot();
    if (slot)
        *slot = team->ompt.combined_work;
    if (pv_ompt_on(work))
        pv_ompt_call(work, team->ompt.combined_work, ompt_scope_begin, &team->ompt.data, &o->data,
                     team->ws[0].n, team->ompt.codeptr);
}

void pv_ompt_implicit_begin(struct pv_team *team, unsigned id, void *exit_frame)
{
    pv_ompt_enter();
    struct pv_ompt_task *o = &team->implicit[id].ompt;
    if (exit_frame) {
        o->frame.exit_frame.ptr = exit_frame;
        o->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
    }
    pv_ompt_set_state(ompt_state_work_parallel, NULL);
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_begin, &team->ompt.data, &o->data, team->nthreads,
                     id, ompt_task_implicit);
    if (team->ompt.combined_work)
        combined_work_begin(team, o);
}

void pv_ompt_exit_frame(void *frame)
{
    struct pv_ompt_task *o = pv_ompt_cur_task();
    o->frame.exit_frame.ptr = frame;
    o->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
}

void pv_ompt_worker_end(struct pv_team *team, unsigned id)
{
    pv_ompt_enter();
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_ompt_task *o = &team->implicit[id].ompt;
    /* A worker reaches the region's end barrier from the runtime's thread
     * loop, not from a call in the program: no code address (as libomp). */
    const void *codeptr = NULL;
    const int kind = ompt_sync_region_barrier_implicit_parallel;
    o->frame.exit_frame.ptr = NULL;
    barrier_enter(kind, &team->ompt.data, &o->data, codeptr, &team->final);
    /* Copied after the barrier's begin events: what the tool stored in the
     * task's data there is in the copy that its end events carry. */
    me->ending = *o;
    me->ending.parallel = NULL;

    /* Before the barrier: the primary passes it only after this. */
    atomic_fetch_add_explicit(&workers_ending, 1, memory_order_relaxed);
    ending_here = true;
    pv_barrier_wait(&team->final, team, false);
    /* The team is the primary thread's again: only the copy from here on. */
    me->use_ending = 1;
    barrier_leave(kind, NULL, &me->ending.data, codeptr, ompt_state_overhead);
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_end, NULL, &me->ending.data, 0, id,
                     ompt_task_implicit);
    me->use_ending = 0;
    int *slot = pv_ompt_work_slot();
    if (slot)
        *slot = 0;
    pv_ompt_set_state(ompt_state_idle, NULL);
    /* Release: the callbacks above are done before the finalizer goes on. */
    ending_here = false;
    atomic_fetch_sub_explicit(&workers_ending, 1, memory_order_release);
    pv_trace_time_unshare(); /* the callbacks above took time */
}

/* Before the tool is finalized: let the workers of the last region finish
 * their callbacks (at most about a second, for a worker that is not
 * scheduled; a program that exits while other threads still run its
 * regions is not waited for). */
static bool workers_ended(void)
{
    /* ending_here: finalized from one of those callbacks. */
    return atomic_load_explicit(&workers_ending, memory_order_acquire) <= (unsigned)ending_here;
}

void pv_ompt_wait_workers_ended(void)
{
    pv_ompt_wait_until(workers_ended);
}

void pv_ompt_primary_end(struct pv_team *team)
{
    pv_ompt_enter();
    struct pv_ompt_task *o = &team->implicit[0].ompt;
    const void *codeptr = team->ompt.codeptr;
    const int kind = ompt_sync_region_barrier_implicit_parallel;
    o->frame.exit_frame.ptr = NULL;
    barrier_enter(kind, &team->ompt.data, &o->data, codeptr, &team->final);
    pv_barrier_wait(&team->final, team, false);
    /* The region ended in the barrier: its end and the implicit task's end
     * have no parallel data, on the primary as on the workers (as libomp). */
    barrier_leave(kind, NULL, &o->data, codeptr, ompt_state_overhead);
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_end, NULL, &o->data, 0, 0, ompt_task_implicit);
    int *slot = pv_ompt_work_slot();
    if (slot)
        *slot = 0;
    pv_trace_time_unshare(); /* the callbacks above took time */
}

void pv_ompt_parallel_end(struct pv_team *team)
{
    pv_ompt_enter();
    struct pv_ompt_task *enc = team->ompt.encountering;
    if (pv_ompt_on(parallel_end))
        pv_ompt_call(parallel_end, &team->ompt.data, &enc->data, team->ompt.flags,
                     team->ompt.codeptr);
    enc->frame.enter_frame.ptr = NULL;
    enc->frame.enter_frame_flags = 0;
    pv_ompt_set_state(pv_ompt_work_state(), NULL);
}

void pv_ompt_thread_exit(void)
{
    pv_ompt_thread_end();
}

/* ------------------------------------------------------------ barriers */

bool pv_ompt_barrier(int kind, const void *codeptr, bool cancellable)
{
    pv_ompt_enter();
    /* The task waits here: its enter_frame is the entry's frame, handed
     * over (PV_OMPT_FRAME) or found by unwinding, with the codeptr of a
     * deep site in the same walk. */
    void *frame = pv_ompt_take_frame();
    if (!frame)
        pv_ompt_caller(codeptr ? NULL : &codeptr, &frame);
    if (pv_ompt_on(sync_region) || pv_ompt_on(sync_region_wait) || pv_ompt_on(cancel))
        codeptr = pv_ompt_codeptr(codeptr);
    struct pv_ompt_task *task = pv_ompt_cur_task();
    pv_ompt_set_enter(task, frame);
    ompt_data_t *par = pv_ompt_cur_parallel();
    struct pv_team *team = pv_thr.ts.team;
    barrier_enter(kind, par, &task->data, codeptr, team ? (void *)&team->barrier : NULL);
    bool cancelled = false;
    if (cancellable)
        cancelled = pv_team_barrier_cancel();
    else
        pv_team_barrier();
    barrier_leave(kind, par, &task->data, codeptr, pv_ompt_work_state());
    pv_ompt_set_enter(task, NULL);
    if (cancelled)
        pv_ompt_cancel(0, false, codeptr);
    pv_trace_time_unshare(); /* the callbacks above took time */
    return cancelled;
}

/* ---------------------------------------------------- host teams regions */

void pv_ompt_league_begin(unsigned num_teams, const void *codeptr)
{
    pv_ompt_enter();
    pv_ompt_register_atexit();
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_ompt_task *enc = pv_ompt_cur_task();
    me->league_enc = enc;
    me->league_at = pv_thr.task;
    me->league_size = num_teams;
    me->league_codeptr = codeptr;
    me->league_parallel.value = 0;
    if (pv_ompt_on(parallel_begin))
        pv_ompt_call(parallel_begin, &enc->data, &enc->frame, &me->league_parallel, num_teams,
                     ompt_parallel_league | ompt_parallel_invoker_runtime, codeptr);
    me->in_league = 1;
}

void pv_ompt_league_team(bool begin, unsigned team_num)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_ompt_task *o = &me->league_task;
    if (begin) {
        memset(o, 0, sizeof *o);
        o->flags = ompt_task_initial;
        o->parallel = &me->league_parallel;
        o->thread_num = 0;
    }
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, begin ? ompt_scope_begin : ompt_scope_end, &me->league_parallel,
                     &o->data, begin ? me->league_size : 0, team_num,
                     ompt_task_initial);
}

void pv_ompt_league_end(void)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    me->in_league = 0;
    if (pv_ompt_on(parallel_end))
        pv_ompt_call(parallel_end, &me->league_parallel, &me->league_enc->data,
                     ompt_parallel_league | ompt_parallel_invoker_runtime,
                     me->league_codeptr);
}
