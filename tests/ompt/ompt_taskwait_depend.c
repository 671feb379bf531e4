/* taskwait with depend clauses (GOMP_taskwait_depend) under the recording
 * tool.  OpenMP 5.1 (2.19.5): such a taskwait behaves as an empty, mergeable,
 * included task with those dependences; its taskwait-init event is a
 * task_create with ompt_task_taskwait (and ompt_task_undeferred: no nowait),
 * its taskwait-complete event a task_schedule with ompt_taskwait_complete;
 * the taskwait-begin/end events (sync_region) belong to taskwait without
 * depend.  The dependences are reported like a task's (dependences, and
 * task_dependence from each unfinished predecessor). */
#include <omp.h>

#include "ttq.h"

#define T 3

int x, y, z; /* dependence addresses (z only ever named in a clause) */

static const int TW_FLAGS = ompt_task_taskwait | ompt_task_undeferred | ompt_task_mergeable;

/* The task_create of the k-th taskwait with depend, checked, and its
 * dependences and completion events. */
struct tw {
    const struct tt_event *create, *deps, *complete;
};

static struct tw taskwait_events(size_t k)
{
    struct tw w = {NULL, NULL, NULL};
    size_t seen = 0;
    for (size_t i = 0; i < tt_count() && !w.create; i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type == ompt_callback_task_create && (e->flags & ompt_task_taskwait) && seen++ == k)
            w.create = e;
    }
    TCHECK(w.create);
    const struct tt_event *c = w.create;
    TCHECK(c->flags == TW_FLAGS);
    TCHECK(c->a == 1);                              /* has_dependences */
    TCHECK(c->task != 0 && c->task2 != 0 && c->task == c->q_task);  /* the encountering task */
    TCHECK(ttq_in_program(c->codeptr));
    /* The encountering task's enter frame: the runtime's entry point. */
    TCHECK(c->frame_arg.enter_frame.ptr != NULL &&
           c->frame_arg.enter_frame_flags == (ompt_frame_runtime | ompt_frame_cfa));
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type == ompt_callback_dependences && e->task == c->task2) {
            TCHECK(!w.deps);
            w.deps = e;
        }
        if (e->type == ompt_callback_task_schedule && e->task == c->task2) {
            TCHECK(!w.complete);   /* no switch to it, no second completion */
            w.complete = e;
        }
        /* The stand-in task never runs: nothing switches to it. */
        TCHECK(!(e->type == ompt_callback_task_schedule && e->task2 == c->task2));
    }
    TCHECK(w.deps && w.deps->seq > c->seq && w.deps->thread == c->thread);
    /* The task that continues is the encountering task. */
    TCHECK(w.complete && w.complete->kind == ompt_taskwait_complete &&
           w.complete->task2 == c->task);
    TCHECK(w.complete->seq > w.deps->seq && w.complete->thread == c->thread);
    TCHECK(w.complete->state == ompt_state_work_parallel ||
           w.complete->state == ompt_state_work_serial);
    return w;
}

int main(void)
{
    CHECK(tt_initialized());

    /* Outside any parallel region: the initial task's taskwait. */
    tt_reset();
#pragma omp taskwait depend(in : x)
    struct tw s = taskwait_events(0);
    TCHECK(s.deps->a == 1 && s.deps->b == (uintptr_t)&x && s.deps->kind == ompt_dependence_type_in);
    TCHECK(s.complete->state == ompt_state_work_serial);
    TCHECK(ttq_count(ompt_callback_task_create, ANY, ANY) == 1);
    TCHECK(ttq_count(ompt_callback_task_dependence, ANY, ANY) == 0);
    TCHECK(ttq_count(ompt_callback_sync_region, ANY, ANY) == 0);
    TCHECK(ttq_count(ompt_callback_sync_region_wait, ANY, ANY) == 0);

    /* In a team, with no sibling dependences recorded yet: each thread's
     * own taskwait, from its implicit task. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp taskwait depend(inout : y) depend(in : z)
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    TCHECK(ttq_count(ompt_callback_task_create, ANY, ANY) == T);
    for (size_t k = 0; k < T; k++) {
        struct tw w = taskwait_events(k);
        TCHECK(w.deps->a == 2 && w.deps->b == (uintptr_t)&y);
        TCHECK(w.deps->kind == ompt_dependence_type_inout);
        const struct tt_event *it = NULL;
        for (size_t i = 0; i < tt_count() && !it; i++) {
            const struct tt_event *e = tt_get(i);
            if (ttq_is(e, ompt_callback_implicit_task, ompt_scope_begin, ANY) &&
                e->thread == w.create->thread)
                it = e;
        }
        TCHECK(it && w.create->task == it->task);
    }
    TCHECK(ttq_count(ompt_callback_sync_region, ANY, ompt_sync_region_taskwait) == 0);

    /* A sibling task that is still running when the taskwait registers its
     * dependences: an edge from it to the taskwait's task (reported while
     * the thread waits at the taskwait), its completion before the
     * taskwait's, and the taskwait returns after the task wrote x. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        {
#pragma omp task depend(out : x)
            {
                ttq_wait(ompt_callback_task_dependence, ANY, ANY, 1);
                x = 42;
            }
#pragma omp taskwait depend(in : x)
            CHECK(x == 42);
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    TCHECK(ttq_count(ompt_callback_task_create, ANY, ANY) == 2);
    const struct tt_event *pred = ttq_nth(ompt_callback_task_create, ANY, ANY, 0);
    TCHECK(pred->flags == ompt_task_explicit && pred->a == 1);
    struct tw w = taskwait_events(0);
    TCHECK(w.create->task == pred->task && w.create->seq > pred->seq);
    TCHECK(w.deps->a == 1 && w.deps->b == (uintptr_t)&x && w.deps->kind == ompt_dependence_type_in);
    TCHECK(ttq_count(ompt_callback_task_dependence, ANY, ANY) == 1);
    const struct tt_event *edge = ttq_nth(ompt_callback_task_dependence, ANY, ANY, 0);
    TCHECK(edge->task == pred->task2 && edge->task2 == w.create->task2);
    TCHECK(edge->seq > w.deps->seq && edge->thread == w.create->thread);
    TCHECK(edge->state == ompt_state_wait_taskwait);
    const struct tt_event *done = NULL;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type == ompt_callback_task_schedule && e->task == pred->task2 &&
            e->kind == ompt_task_complete)
            done = e;
    }
    TCHECK(done && done->seq < w.complete->seq);
    TCHECK(ttq_count(ompt_callback_sync_region, ANY, ompt_sync_region_taskwait) == 0);

    /* An if(0) task with dependences first waits for them, reported as a
     * taskwait with those dependences (as libomp): the same events as
     * above, then the task itself is created undeferred, without
     * dependences, from the same call, and runs after the wait. */
    tt_reset();
    x = 0;
    int ran = 0;
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        {
#pragma omp task depend(out : x)
            {
                ttq_wait(ompt_callback_task_dependence, ANY, ANY, 1);
                x = 42;
            }
#pragma omp task if (0) depend(in : x) shared(ran)
            ran = x;
        }
    }
    CHECK(ran == 42);
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    TCHECK(ttq_count(ompt_callback_task_create, ANY, ANY) == 3);
    pred = ttq_nth(ompt_callback_task_create, ANY, ANY, 0);
    w = taskwait_events(0);
    TCHECK(w.create->task == pred->task && w.create->seq > pred->seq);
    TCHECK(w.deps->b == (uintptr_t)&x && w.deps->kind == ompt_dependence_type_in);
    edge = ttq_nth(ompt_callback_task_dependence, ANY, ANY, 0);
    TCHECK(edge && edge->task == pred->task2 && edge->task2 == w.create->task2);
    const struct tt_event *own = ttq_nth(ompt_callback_task_create, ANY, ANY, 2);
    TCHECK(own->flags == (ompt_task_explicit | ompt_task_undeferred) && own->a == 0);
    TCHECK(own->seq > w.complete->seq && own->thread == w.create->thread);
    TCHECK(own->codeptr == w.create->codeptr && own->task == w.create->task);
    TCHECK(own->task2 != w.create->task2);
    size_t switches = 0;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type == ompt_callback_task_schedule && e->task2 == own->task2 &&
            e->kind == ompt_task_switch) {
            TCHECK(e->seq > own->seq && e->thread == own->thread);
            switches++;
        }
    }
    TCHECK(switches == 1);
    printf("ompt_taskwait_depend: ok\n");
    return 0;
}
