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
    struct pv_ompt_team *par = pv_team_ompt(team);
    unsigned n = pv_team_nthreads(team);
    unsigned requested = me->requested ? me->requested : n;
    int flags = ompt_parallel_team |
                (me->legacy ? ompt_parallel_invoker_program : ompt_parallel_invoker_runtime);
    bool combined_sections = me->combined;
    me->requested = 0;
    me->legacy = 0;
    me->combined = 0;

    par->data.value = 0;
    par->codeptr = codeptr;
    par->flags = flags;
    /* A combined loop's work type is its schedule's (OpenMP 5.2); its
     * worksharing state was set up with the team. */
    const struct pv_ws *cws = pv_team_combined(team);
    par->combined_work = !cws                ? 0
                         : combined_sections ? ompt_work_sections
                                             : pv_ws_loop_work_type(cws);
    par->encountering = enc;
    par->fn = me->given_body ? me->given_body : fn; /* PV_OMPT_GIVE_BODY */
    me->given_body = NULL;
    par->enclosing = pv_ompt_cur_parallel();
    for (unsigned i = 0; i < n; i++) {
        struct pv_ompt_task *o = pv_team_implicit_ompt(team, i);
        memset(o, 0, sizeof *o);
        o->flags = ompt_task_implicit | ompt_task_undeferred; /* runs at once, as libomp reports it */
        o->thread_num = (int)i;
        o->parallel = &par->data;
    }
    enc->frame.enter_frame.ptr = frame;
    enc->frame.enter_frame_flags = frame ? ompt_frame_runtime | ompt_frame_cfa : 0;
    if (pv_ompt_on(parallel_begin))
        pv_ompt_call(parallel_begin, &enc->data, &enc->frame, &par->data, requested, flags,
                     codeptr);
}

/* The combined construct a member starts inside (parallel for/sections). */
static void combined_work_begin(struct pv_team *team, struct pv_ompt_task *o)
{
    struct pv_ompt_team *par = pv_team_ompt(team);
    int *slot = pv_ompt_work_slot();
    if (slot)
        *slot = par->combined_work;
    const void **sections = pv_ompt_sections_codeptr_slot();
    if (sections && par->combined_work == ompt_work_sections)
        *sections = par->codeptr;
    if (pv_ompt_on(work))
        pv_ompt_call(work, par->combined_work, ompt_scope_begin, &par->data, &o->data,
                     pv_ws_count(pv_team_combined(team)), par->codeptr);
}

void pv_ompt_implicit_begin(struct pv_team *team, unsigned id, void *exit_frame)
{
    pv_ompt_enter();
    struct pv_ompt_task *o = pv_team_implicit_ompt(team, id);
    struct pv_ompt_team *par = pv_team_ompt(team);
    if (exit_frame) {
        o->frame.exit_frame.ptr = exit_frame;
        o->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
    }
    pv_ompt_set_state(ompt_state_work_parallel, NULL);
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_begin, &par->data, &o->data,
                     pv_team_nthreads(team), id, ompt_task_implicit);
    if (par->combined_work)
        combined_work_begin(team, o);
}

static void set_exit_frame(void *frame, int owner)
{
    struct pv_ompt_task *o = pv_ompt_cur_task();
    o->frame.exit_frame.ptr = frame;
    o->frame.exit_frame_flags = owner | ompt_frame_framepointer;
}

void pv_ompt_exit_frame(void *frame)
{
    set_exit_frame(frame, ompt_frame_runtime);
}

void pv_ompt_exit_program_frame(void *frame)
{
    set_exit_frame(frame, ompt_frame_application);
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

void pv_ompt_parallel_end(struct pv_team *team)
{
    pv_ompt_enter();
    struct pv_ompt_team *par = pv_team_ompt(team);
    struct pv_ompt_task *enc = par->encountering;
    if (pv_ompt_on(parallel_end))
        pv_ompt_call(parallel_end, &par->data, &enc->data, par->flags, par->codeptr);
    enc->frame.enter_frame.ptr = NULL;
    enc->frame.enter_frame_flags = 0;
    pv_ompt_set_state(pv_ompt_work_state(), NULL);
}

void pv_ompt_thread_exit(void)
{
    pv_ompt_thread_end();
}

/* ------------------------------------------------------------ barriers */

static int sync_region_kind(enum pv_barrier_kind kind)
{
    switch (kind) {
    case PV_BARRIER_JOIN:
        return ompt_sync_region_barrier_implicit_parallel;
    case PV_BARRIER_WORKSHARE:
    case PV_BARRIER_WORKSHARE_CANCEL:
        return ompt_sync_region_barrier_implicit_workshare;
    case PV_BARRIER_COPYPRIVATE:
        return ompt_sync_region_barrier_implementation;
    default:
        return ompt_sync_region_barrier_explicit;
    }
}

/* The region's final barrier.  A worker reaches it from the runtime's
 * thread loop, not from a call in the program: no code address (as
 * libomp); the primary reports the region's. */
static void join_begin(struct pv_ompt_sync *s)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_team *team = pv_thr_ts()->team;
    unsigned id = pv_thr_ts()->team_id;
    struct pv_ompt_team *par = pv_team_ompt(team);
    struct pv_ompt_task *o = pv_team_implicit_ompt(team, id);
    o->frame.exit_frame.ptr = NULL;
    s->member = id;
    s->join = id ? 2 : 1;
    /* The implicit task's end gives the team size on the primary, 0 on the
     * workers (as libomp; tasks/taskloop.c checks it). */
    s->nthreads = id ? 0 : pv_team_nthreads(team);
    s->parallel = NULL; /* at the end: the region ended in the barrier (as libomp) */
    s->task = &o->data;
    s->codeptr = id ? NULL : par->codeptr;
    barrier_enter(s->kind, &par->data, &o->data, s->codeptr, pv_team_final_id(team));
    if (id) {
        /* After the barrier a worker must not touch the team: it ends on a
         * copy, taken after the begin events, so that what the tool stored
         * in the task's data there is in the copy its end events carry. */
        me->ending = *o;
        me->ending.parallel = NULL;
        s->task = &me->ending.data;
        /* Before the barrier: the primary passes it only after this. */
        atomic_fetch_add_explicit(&workers_ending, 1, memory_order_relaxed);
        ending_here = true;
    }
}

static void join_end(struct pv_ompt_sync *s)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    bool worker = s->join == 2;
    if (worker)
        me->use_ending = 1; /* the team is the primary thread's again */
    barrier_leave(s->kind, NULL, s->task, s->codeptr, ompt_state_overhead);
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_end, NULL, s->task, s->nthreads, s->member,
                     ompt_task_implicit);
    me->use_ending = 0;
    int *slot = pv_ompt_work_slot();
    if (slot)
        *slot = 0;
    if (worker) {
        pv_ompt_set_state(ompt_state_idle, NULL);
        /* Release: the callbacks above are done before the finalizer goes on. */
        ending_here = false;
        atomic_fetch_sub_explicit(&workers_ending, 1, memory_order_release);
    }
}

void pv_ompt_barrier_begin(struct pv_ompt_sync *s, enum pv_barrier_kind kind, const void *codeptr)
{
    pv_ompt_enter();
    s->kind = sync_region_kind(kind);
    s->join = 0;
    if (kind == PV_BARRIER_JOIN) {
        join_begin(s);
        return;
    }
    /* The task waits here: its enter_frame is the entry's frame, handed
     * over (PV_OMPT_FRAME in pv_barrier_at) or found by unwinding, with the
     * codeptr of a deep site in the same walk. */
    void *frame = pv_ompt_take_frame();
    if (!frame)
        pv_ompt_caller(codeptr ? NULL : &codeptr, &frame);
    if (pv_ompt_on(sync_region) || pv_ompt_on(sync_region_wait) || pv_ompt_on(cancel))
        codeptr = pv_ompt_codeptr(codeptr);
    s->codeptr = codeptr;
    s->waiter = pv_ompt_cur_task();
    pv_ompt_set_enter(s->waiter, frame);
    s->task = &s->waiter->data;
    s->parallel = pv_ompt_cur_parallel();
    struct pv_team *team = pv_thr_ts()->team;
    barrier_enter(s->kind, s->parallel, s->task, codeptr, team ? pv_team_barrier_id(team) : NULL);
}

void pv_ompt_barrier_end(struct pv_ompt_sync *s, bool cancelled)
{
    if (s->join) {
        join_end(s);
    } else {
        barrier_leave(s->kind, s->parallel, s->task, s->codeptr, pv_ompt_work_state());
        pv_ompt_set_enter(s->waiter, NULL);
        if (cancelled)
            pv_ompt_cancel(0, false, s->codeptr);
    }
    pv_trace_time_unshare(); /* the callbacks above took time */
}

/* ---------------------------------------------------- host teams regions */

void pv_ompt_league_begin(struct pv_ompt_league *l, unsigned num_teams, const void *codeptr)
{
    pv_ompt_enter();
    pv_ompt_register_atexit();
    struct pv_ompt_thread *me = &pv_ompt_thr;
    l->enc = pv_ompt_cur_task();
    l->size = num_teams;
    l->codeptr = codeptr;
    l->parallel.value = 0;
    if (pv_ompt_on(parallel_begin))
        pv_ompt_call(parallel_begin, &l->enc->data, &l->enc->frame, &l->parallel, num_teams,
                     ompt_parallel_league | ompt_parallel_invoker_runtime, codeptr);
    me->league_at = pv_thr_task();
    me->league = l;
}

void pv_ompt_league_join(struct pv_ompt_league *l)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    if (!me->begun)
        me->begin_as_worker = 1;
    pv_ompt_enter();
    me->league_at = pv_thr_task();
    me->league = l;
}

void pv_ompt_league_leave(void)
{
    pv_ompt_thr.league = NULL;
}

void pv_ompt_league_team(bool begin, unsigned team_num)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_ompt_league *l = me->league;
    struct pv_ompt_task *init = &me->league_task, *impl = &me->league_implicit;
    int flags = ompt_parallel_team | ompt_parallel_invoker_runtime;
    if (begin) {
        memset(init, 0, sizeof *init);
        init->flags = ompt_task_initial;
        init->parallel = &l->parallel;
        init->thread_num = 0;
        if (pv_ompt_on(implicit_task))
            pv_ompt_call(implicit_task, ompt_scope_begin, &l->parallel, &init->data, l->size,
                         team_num, ompt_task_initial);
        me->league_region.value = 0;
        if (pv_ompt_on(parallel_begin))
            pv_ompt_call(parallel_begin, &init->data, &init->frame, &me->league_region, 1, flags,
                         NULL);
        memset(impl, 0, sizeof *impl);
        impl->flags = ompt_task_implicit | ompt_task_undeferred;
        impl->parallel = &me->league_region;
        impl->thread_num = 0;
        me->league_in_region = 1;
        if (pv_ompt_on(implicit_task))
            pv_ompt_call(implicit_task, ompt_scope_begin, &me->league_region, &impl->data, 1, 0,
                         ompt_task_implicit);
        return;
    }
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_end, &me->league_region, &impl->data, 0, 0,
                     ompt_task_implicit);
    me->league_in_region = 0;
    if (pv_ompt_on(parallel_end))
        pv_ompt_call(parallel_end, &me->league_region, &init->data, flags, NULL);
    if (pv_ompt_on(implicit_task))
        pv_ompt_call(implicit_task, ompt_scope_end, &l->parallel, &init->data, 0, team_num,
                     ompt_task_initial);
}

void pv_ompt_league_end(void)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_ompt_league *l = me->league;
    me->league = NULL;
    if (pv_ompt_on(parallel_end))
        pv_ompt_call(parallel_end, &l->parallel, &l->enc->data,
                     ompt_parallel_league | ompt_parallel_invoker_runtime, l->codeptr);
}
