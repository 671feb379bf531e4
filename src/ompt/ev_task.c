/* Task events: task_create, dependences, task_schedule, taskwait (with
 * and without depend) and taskgroup regions, taskloop; plus cancel and
 * error.
 *
 * Every task is tied and runs to its end on one thread, so a task's
 * schedule events come in pairs: the encountering (or waiting, or
 * yielding: ompt_task_yield) task switches to it, and it completes back.  Tasks skipped by cancellation are
 * reported switched to and ended with ompt_task_cancel, after a cancel
 * event with ompt_cancel_discarded_task. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "ompt/events.h"

/* GOMP_task flag bits (gcc 12). */
enum { GOMP_UNTIED = 1u << 0, GOMP_MERGEABLE = 1u << 2 };

/* The depend array of GOMP_task as ompt_dependence_t items.  gcc 12 passes
 * [n, nout, addr...] (out/inout first, then in) or [0, n, nout,
 * nmutexinoutset, nin, addr..., depobj...].  gcc does not tell out from
 * inout: both are reported as inout. */
static size_t decode_deps(void **depend, ompt_dependence_t *out, size_t cap)
{
    size_t n = (uintptr_t)depend[0];
    size_t nout, nmutex = 0, nin, first;
    if (n) {
        nout = (uintptr_t)depend[1];
        nin = n - nout;
        first = 2;
    } else {
        n = (uintptr_t)depend[1];
        nout = (uintptr_t)depend[2];
        nmutex = (uintptr_t)depend[3];
        nin = (uintptr_t)depend[4];
        first = 5;
    }
    for (size_t i = 0; i < n && i < cap; i++) {
        void *addr = depend[first + i];
        int type;
        if (i < nout) {
            /* An out item at NULL is omp_all_memory (gcc 13's encoding):
             * OpenMP 6.0's out_all_memory, as libomp reports it. */
            type = addr ? ompt_dependence_type_inout : ompt_dependence_type_out_all_memory;
        } else if (i < nout + nmutex) {
            type = ompt_dependence_type_mutexinoutset;
        } else if (i < nout + nmutex + nin) {
            type = ompt_dependence_type_in;
        } else {
            /* omp_depend_t object: { address, kind } */
            void **obj = addr;
            static const int kinds[] = {0, ompt_dependence_type_in, ompt_dependence_type_out,
                                        ompt_dependence_type_inout,
                                        ompt_dependence_type_mutexinoutset,
                                        ompt_dependence_type_inoutset};
            uintptr_t k = (uintptr_t)obj[1];
            addr = obj[0];
            type = k < sizeof kinds / sizeof kinds[0] ? kinds[k] : ompt_dependence_type_inout;
        }
        out[i].variable.ptr = addr;
        out[i].dependence_type = (ompt_dependence_type_t)type;
    }
    return n;
}

static void dependences_event(struct pv_ompt_task *o, void **depend, size_t n)
{
    ompt_dependence_t small[16];
    ompt_dependence_t *deps = n <= 16 ? small : pv_malloc(n * sizeof *deps);
    decode_deps(depend, deps, n);
    pv_ompt_call(dependences, &o->data, deps, (int)n);
    if (deps != small)
        free(deps);
}

void pv_ompt_doacross(int type, const unsigned long long *v, unsigned n)
{
    pv_ompt_enter();
    if (!pv_ompt_on(dependences) || n == 0)
        return;
    ompt_dependence_t small[16];
    ompt_dependence_t *deps = n <= 16 ? small : pv_malloc(n * sizeof *deps);
    for (unsigned i = 0; i < n; i++) {
        deps[i].variable.value = v[i];
        deps[i].dependence_type = (ompt_dependence_type_t)type;
    }
    pv_ompt_call(dependences, &pv_ompt_cur_task()->data, deps, (int)n);
    if (deps != small)
        free(deps);
}

/* t is announced with `flags`: task_create, and dependences when `depend`
 * names some.  The codeptr and frame come from PV_OMPT_ENTRY of the call:
 * the frame is the creating task's enter_frame during these events and,
 * for an undeferred task, until that task ends (the creator is suspended
 * in the entry point while it runs). */
static void announce(struct pv_task *t, int flags, void **depend)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    struct pv_ompt_task *o = pv_task_ompt(t);
    struct pv_ompt_task *enc = pv_ompt_task_of(pv_task_parent(t));
    memset(o, 0, sizeof *o);
    o->flags = flags;
    o->parallel = pv_ompt_cur_parallel();
    o->thread_num = (int)pv_thr_ts()->team_id;

    const void *codeptr = me->codeptr;
    void *frame = me->enter_frame;
    me->codeptr = NULL;
    me->enter_frame = NULL;
    if (!codeptr)
        codeptr = pv_ompt_codeptr(me->taskloop_codeptr);
    o->chunk_start = me->chunk_start;
    o->chunk_iterations = me->chunk_iterations;
    me->chunk_iterations = 0;
    size_t ndeps = depend ? (uintptr_t)(depend[0] ? depend[0] : depend[1]) : 0;
    if (frame)
        pv_ompt_set_enter(enc, frame);
    if (pv_ompt_on(task_create))
        pv_ompt_call(task_create, &enc->data, &enc->frame, &o->data, flags, ndeps > 0, codeptr);
    if (ndeps && pv_ompt_on(dependences))
        dependences_event(o, depend, ndeps);
    if (frame && (flags & ompt_task_undeferred))
        o->clears_enter = 1;
    else if (frame)
        pv_ompt_set_enter(enc, NULL);
}

void pv_ompt_task_create(struct pv_task *t, bool undeferred, unsigned gomp_flags, void **depend)
{
    pv_ompt_enter();
    int flags = ompt_task_explicit;
    if (undeferred)
        flags |= ompt_task_undeferred;
    if (gomp_flags & GOMP_UNTIED)
        flags |= ompt_task_untied;
    if (pv_task_is_final(t))
        flags |= ompt_task_final;
    if (gomp_flags & GOMP_MERGEABLE)
        flags |= ompt_task_mergeable;
    announce(t, flags, depend);
}

/* OpenMP 5.1 (2.19.5): a taskwait with depend clauses is an empty,
 * mergeable, included task with those dependences.  Its taskwait-init
 * event is the task_create of that task, flagged ompt_task_taskwait (and
 * undeferred: gcc 12 has no `nowait` on taskwait); the thread then waits at
 * the taskwait.  The sync_region events are for taskwait without depend. */
void pv_ompt_taskwait_init(struct pv_task *w, void **depend)
{
    pv_ompt_enter();
    announce(w, ompt_task_taskwait | ompt_task_undeferred | ompt_task_mergeable, depend);
    pv_ompt_set_state(ompt_state_wait_taskwait, NULL);
}

/* The taskwait-complete event: w's predecessors are done.  The empty task
 * is never switched to; next_task_data is the encountering task, which
 * continues (LLVM's runtime passes NULL there, and LLVM 14's Archer, which
 * does not know ompt_taskwait_complete, dereferences it). */
void pv_ompt_taskwait_complete(struct pv_task *w)
{
    pv_ompt_enter();
    pv_ompt_set_state(pv_ompt_work_state(), NULL);
    struct pv_ompt_task *enc = pv_ompt_task_of(pv_task_parent(w));
    if (pv_ompt_on(task_schedule))
        pv_ompt_call(task_schedule, &pv_task_ompt(w)->data, ompt_taskwait_complete, &enc->data);
    if (pv_task_ompt(w)->clears_enter)
        pv_ompt_set_enter(enc, NULL);
}

void pv_ompt_dep_wait_init(struct pv_task *t, void **depend)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    me->dep_wait_codeptr = me->codeptr;
    me->dep_wait_frame = me->enter_frame;
    pv_ompt_taskwait_init(t, depend);
}

void pv_ompt_dep_wait_done(struct pv_task *t, unsigned gomp_flags)
{
    struct pv_ompt_thread *me = &pv_ompt_thr;
    pv_ompt_taskwait_complete(t);
    me->codeptr = me->dep_wait_codeptr;
    me->enter_frame = me->dep_wait_frame;
    me->dep_wait_codeptr = NULL;
    me->dep_wait_frame = NULL;
    pv_ompt_task_create(t, true, gomp_flags, NULL);
}

void pv_ompt_task_dependence(struct pv_task *src, struct pv_task *sink)
{
    if (pv_ompt_on(task_dependence))
        pv_ompt_call(task_dependence, &pv_task_ompt(src)->data, &pv_task_ompt(sink)->data);
}

/* exit_flags: whose frame exit_frame is (ompt_frame_runtime or _application). */
static void task_begin(struct pv_task *prior, struct pv_task *next, void *exit_frame,
                       int exit_flags)
{
    pv_ompt_enter();
    struct pv_ompt_task *p = pv_ompt_task_of(prior);
    struct pv_ompt_task *n = pv_task_ompt(next);
    n->frame.exit_frame.ptr = exit_frame;
    n->frame.exit_frame_flags = exit_frame ? exit_flags | ompt_frame_framepointer : 0;
    n->scheduler = prior != pv_task_parent(next) ? prior : NULL;
    n->saved_state = pv_ompt_thr.state;
    n->thread_num = (int)pv_thr_ts()->team_id;
    pv_ompt_set_state(pv_ompt_work_state(), NULL);
    int status = pv_ompt_thr.yielded ? ompt_task_yield : ompt_task_switch;
    pv_ompt_thr.yielded = 0;
    if (pv_ompt_on(task_schedule))
        pv_ompt_call(task_schedule, &p->data, status, &n->data);
    if (n->chunk_iterations && pv_ompt_on(dispatch)) {
        /* OpenMP 5.2: a taskloop's task begins its chunk. */
        ompt_dispatch_chunk_t chunk = {n->chunk_start, n->chunk_iterations};
        pv_ompt_call(dispatch, n->parallel, &n->data, ompt_dispatch_taskloop_chunk,
                     (ompt_data_t){.ptr = &chunk});
    }
}

void pv_ompt_task_begin(struct pv_task *prior, struct pv_task *next, void *exit_frame)
{
    task_begin(prior, next, exit_frame, ompt_frame_runtime);
}

void pv_ompt_task_begin_in_program(struct pv_task *prior, struct pv_task *next, void *frame)
{
    task_begin(prior, next, frame, ompt_frame_application);
}

void pv_ompt_task_yield(bool on)
{
    pv_ompt_thr.yielded = on;
}

void pv_ompt_task_end(struct pv_task *t, int cancelled_by, struct pv_task *next)
{
    pv_ompt_enter();
    struct pv_ompt_task *o = pv_task_ompt(t);
    int status = ompt_task_complete;
    if (cancelled_by) {
        status = ompt_task_cancel;
        /* the flags name the cancelled construct too (OpenMP 5.1, 4.4.4.26) */
        if (pv_ompt_on(cancel))
            pv_ompt_call(cancel, &o->data, ompt_cancel_discarded_task | cancelled_by, NULL);
    } else if (o->cancelled) {
        status = ompt_task_cancel;
    } else if (pv_task_detach_pending(t)) {
        status = ompt_task_detach;
    }
    struct pv_ompt_task *n = pv_ompt_task_of(next);
    if (pv_ompt_on(task_schedule))
        pv_ompt_call(task_schedule, &o->data, status, &n->data);
    if (o->clears_enter)
        pv_ompt_set_enter(n, NULL);   /* the creator returns to its code */
    pv_ompt_set_state(o->saved_state, NULL);
}

void pv_ompt_task_fulfilled(struct pv_task *t, bool late)
{
    pv_ompt_enter();
    if (pv_ompt_on(task_schedule))
        pv_ompt_call(task_schedule, &pv_task_ompt(t)->data,
                     late ? ompt_task_late_fulfill : ompt_task_early_fulfill, NULL);
}

/* ------------------------------------------------- taskwait and taskgroup */

/* type: ompt_callback_sync_region or _wait (one signature). */
static void sync_event(int type, int kind, int endpoint, const void *codeptr)
{
    if (type == ompt_callback_sync_region)
        pv_ompt_call(sync_region, kind, endpoint, pv_ompt_cur_parallel(),
                     &pv_ompt_cur_task()->data, codeptr);
    else
        pv_ompt_callt(sync_region_wait, sync_region, kind, endpoint, pv_ompt_cur_parallel(),
                      &pv_ompt_cur_task()->data, codeptr);
}

static int sync_state(int kind)
{
    return kind == ompt_sync_region_taskwait ? ompt_state_wait_taskwait
                                             : ompt_state_wait_taskgroup;
}

/* The task is about to wait (taskwait, the end of a taskgroup): until
 * pv_ompt_sync_end its enter_frame is the entry's frame (PV_OMPT_FRAME, or
 * found by unwinding). */
static void wait_frame(void)
{
    void *frame = pv_ompt_take_frame();
    if (!frame)
        pv_ompt_caller(NULL, &frame);
    pv_ompt_set_enter(pv_ompt_cur_task(), frame);
}

void pv_ompt_sync_begin(int kind, const void *codeptr)
{
    pv_ompt_enter();
    if (kind == ompt_sync_region_taskwait)
        wait_frame();
    sync_event(ompt_callback_sync_region, kind, ompt_scope_begin, codeptr);
    if (kind == ompt_sync_region_taskwait) {
        pv_ompt_set_state(sync_state(kind), NULL);
        sync_event(ompt_callback_sync_region_wait, kind, ompt_scope_begin, codeptr);
    }
}

void pv_ompt_sync_wait(int kind, const void *codeptr)
{
    pv_ompt_enter();
    wait_frame();
    pv_ompt_set_state(sync_state(kind), NULL);
    sync_event(ompt_callback_sync_region_wait, kind, ompt_scope_begin, codeptr);
}

void pv_ompt_sync_end(int kind, const void *codeptr)
{
    pv_ompt_enter();
    sync_event(ompt_callback_sync_region_wait, kind, ompt_scope_end, codeptr);
    pv_ompt_set_state(pv_ompt_work_state(), NULL);
    sync_event(ompt_callback_sync_region, kind, ompt_scope_end, codeptr);
    pv_ompt_set_enter(pv_ompt_cur_task(), NULL);
}

void pv_ompt_taskloop(bool begin, unsigned long long count, const void *codeptr)
{
    pv_ompt_enter();
    if (begin)
        pv_ompt_thr.taskloop_codeptr = codeptr;
    else
        pv_ompt_thr.taskloop_codeptr = NULL;
    pv_ompt_thr.chunk_iterations = 0;
    if (pv_ompt_on(work))
        pv_ompt_call(work, ompt_work_taskloop, begin ? ompt_scope_begin : ompt_scope_end,
                     pv_ompt_cur_parallel(), &pv_ompt_cur_task()->data, count, codeptr);
}

void pv_ompt_taskloop_chunk(unsigned long long start, unsigned long long n)
{
    pv_ompt_thr.chunk_start = start;
    pv_ompt_thr.chunk_iterations = n;
}

/* ---------------------------------------------------- cancel and error */

void pv_ompt_cancel(int which, bool activated, const void *codeptr)
{
    pv_ompt_enter();
    if (which & 8) /* its task region ends here: the task ends cancelled */
        pv_ompt_cur_task()->cancelled = 1;
    if (!pv_ompt_on(cancel))
        return;
    int flags = activated ? ompt_cancel_activated : ompt_cancel_detected;
    if (which & 1 || which == 0)
        flags |= ompt_cancel_parallel;
    if (which & 2)
        flags |= ompt_cancel_loop;
    if (which & 4)
        flags |= ompt_cancel_sections;
    if (which & 8)
        flags |= ompt_cancel_taskgroup;
    pv_ompt_call(cancel, &pv_ompt_cur_task()->data, flags, pv_ompt_codeptr(codeptr));
}

void pv_ompt_error(int severity, const char *msg, size_t len, const void *codeptr)
{
    pv_ompt_enter();
    if (!pv_ompt_on(error))
        return;
    if (!msg)
        len = 0;
    else if (len == (size_t)-1)
        len = strlen(msg);
    pv_ompt_call(error, (ompt_severity_t)severity, msg, len, pv_ompt_codeptr(codeptr));
}
