/* Tasks under the recording tool: task_create with the encountering task
 * and flags, schedule pairs (switch to the task, complete back), ids that
 * the task sees as its own, dependences, taskwait and taskgroup regions,
 * undeferred and final tasks, taskloop. */
#include <omp.h>
#include <stdbool.h>

#include "ttq.h"

#define T 3

/* libgomp's task entry point, called directly for what gcc 12 cannot emit. */
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
#define GOMP_TASK_FLAG_DEPEND 8

static void count_task(void *data)
{
    __atomic_fetch_add(*(int **)data, 1, __ATOMIC_RELAXED);
}
#define NT 20

static uint64_t task_ids[NT], parent_ids[NT];
/* Per task: while the body runs, its exit frame lies above (the stack grows
 * down) the body's own frame: the runtime frame that called the body is
 * still on the stack (not replaced by a tail call to the body). */
static int frame_ok[NT];

/* For one created task: exactly one switch to it and one completion of it,
 * on the same thread, the completion after the switch. */
static void check_task_life(const struct tt_event *c)
{
    const struct tt_event *in = NULL, *out = NULL;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type != ompt_callback_task_schedule)
            continue;
        if (e->task2 == c->task2 && e->kind == ompt_task_switch) {
            TCHECK(!in);
            in = e;
        }
        if (e->task == c->task2 && e->kind == ompt_task_complete) {
            TCHECK(!out);
            out = e;
        }
    }
    TCHECK(in && out && in->seq > c->seq && out->seq > in->seq);
    TCHECK(in->thread == out->thread && out->task2 == in->task);
    TCHECK(in->state == ompt_state_work_parallel || in->state == ompt_state_work_serial);
}

int main(void)
{
    CHECK(tt_initialized());

    /* Deferred tasks from a single; a taskwait. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        {
            for (int i = 0; i < NT; i++) {
#pragma omp task firstprivate(i)
                {
                    task_ids[i] = ttq_task_id(0);
                    parent_ids[i] = ttq_task_id(1);
                    char *exit_frame = ttq_exit_frame();
                    frame_ok[i] = exit_frame && exit_frame > (char *)__builtin_frame_address(0);
                }
            }
#pragma omp taskwait
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    TCHECK(ttq_count(ompt_callback_task_create, ANY, ANY) == NT);
    const struct tt_event *c0 = ttq_nth(ompt_callback_task_create, ANY, ANY, 0);
    for (int k = 0; k < NT; k++) {
        const struct tt_event *c = ttq_nth(ompt_callback_task_create, ANY, ANY, (size_t)k);
        TCHECK(c->flags == ompt_task_explicit);
        TCHECK(c->task == c0->task && c->task == c->q_task);   /* the single's implicit task */
        TCHECK(c->task2 != 0 && ttq_in_program(c->codeptr));
        check_task_life(c);
        TCHECK(frame_ok[k]);
    }
    for (int i = 0; i < NT; i++) {
        int found = 0;
        for (int k = 0; k < NT; k++)
            found += ttq_nth(ompt_callback_task_create, ANY, ANY, (size_t)k)->task2 == task_ids[i];
        TCHECK(found == 1);              /* the task saw its own id */
        /* Its ancestor is the task it interrupted on its thread (OpenMP 5.1,
         * 4.6.1.14: the tasks on the thread's stack): the creating implicit
         * task in the taskwait, or the implicit task of a thread that ran
         * it at the barrier; the switch to it names that task. */
        const struct tt_event *in = ttq_nth(ompt_callback_task_schedule, ANY, ompt_task_switch, 0);
        for (size_t k = 0; in && in->task2 != task_ids[i]; k++)
            in = ttq_nth(ompt_callback_task_schedule, ANY, ompt_task_switch, k + 1);
        TCHECK(in && parent_ids[i] == in->task);
        TCHECK(in->task == c0->task || ttq_implicit_of(in->thread) == in->task);
    }
    TCHECK(ttq_count(ompt_callback_sync_region, ompt_scope_begin, ompt_sync_region_taskwait) == 1);
    TCHECK(ttq_count(ompt_callback_sync_region, ompt_scope_end, ompt_sync_region_taskwait) == 1);
    const struct tt_event *tw =
        ttq_nth(ompt_callback_sync_region_wait, ompt_scope_begin, ompt_sync_region_taskwait, 0);
    TCHECK(tw && tw->state == ompt_state_wait_taskwait && tw->task == c0->task);

    /* Undeferred (if(0)) and final tasks; dependences; taskgroup. */
    static int x, y;
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        {
#pragma omp task if (0)
            x++;
#pragma omp task final(1)
            {
#pragma omp task
                x++;
            }
#pragma omp taskwait
#pragma omp taskgroup
            {
#pragma omp task depend(out : x)
                x++;
#pragma omp task depend(in : x) depend(inout : y)
                y = x;
            }
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    CHECK(x == 3 && y == 3);
    TCHECK(ttq_count(ompt_callback_task_create, ANY, ANY) == 5);
    const struct tt_event *u = ttq_nth(ompt_callback_task_create, ANY, ANY, 0);
    TCHECK(u->flags == (ompt_task_explicit | ompt_task_undeferred));
    TCHECK(ttq_nth(ompt_callback_task_create, ANY, ANY, 1)->flags & ompt_task_final);
    const struct tt_event *inner = ttq_nth(ompt_callback_task_create, ANY, ANY, 2);
    TCHECK(inner->flags & ompt_task_final);   /* included in a final task */
    TCHECK(inner->task == ttq_nth(ompt_callback_task_create, ANY, ANY, 1)->task2);
    for (int k = 0; k < 5; k++)
        check_task_life(ttq_nth(ompt_callback_task_create, ANY, ANY, (size_t)k));
    const struct tt_event *d1 = ttq_nth(ompt_callback_task_create, ANY, ANY, 3);
    const struct tt_event *d2 = ttq_nth(ompt_callback_task_create, ANY, ANY, 4);
    TCHECK(d1->a == 1 && d2->a == 1);      /* has_dependences */
    TCHECK(ttq_count(ompt_callback_dependences, ANY, ANY) == 2);
    const struct tt_event *dep1 = ttq_nth(ompt_callback_dependences, ANY, ANY, 0);
    const struct tt_event *dep2 = ttq_nth(ompt_callback_dependences, ANY, ANY, 1);
    TCHECK(dep1->task == d1->task2 && dep1->a == 1 && dep1->b == (uintptr_t)&x);
    TCHECK(dep1->kind == ompt_dependence_type_inout || dep1->kind == ompt_dependence_type_out);
    TCHECK(dep2->task == d2->task2 && dep2->a == 2);
    TCHECK(dep1->seq > d1->seq && dep1->seq < d2->seq);
    /* The in-task starts only after the out-task completed. */
    const struct tt_event *done1 = NULL, *start2 = NULL;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type == ompt_callback_task_schedule && e->task == d1->task2 &&
            e->kind == ompt_task_complete)
            done1 = e;
        if (e->type == ompt_callback_task_schedule && e->task2 == d2->task2 &&
            e->kind == ompt_task_switch)
            start2 = e;
    }
    TCHECK(done1 && start2 && done1->seq < start2->seq);
    /* An edge, when the out-task was still unfinished at the in-task's creation. */
    for (size_t k = 0; k < ttq_count(ompt_callback_task_dependence, ANY, ANY); k++) {
        const struct tt_event *e = ttq_nth(ompt_callback_task_dependence, ANY, ANY, k);
        TCHECK(e->task == d1->task2 && e->task2 == d2->task2);
    }
    TCHECK(ttq_count(ompt_callback_sync_region, ompt_scope_begin, ompt_sync_region_taskgroup) == 1);
    const struct tt_event *tg_end =
        ttq_nth(ompt_callback_sync_region, ompt_scope_end, ompt_sync_region_taskgroup, 0);
    TCHECK(tg_end && tg_end->seq > done1->seq);

    /* taskloop: a work region around the tasks it creates. */
    static int hit[100];
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp single
#pragma omp taskloop num_tasks(4)
        for (int i = 0; i < 100; i++)
            hit[i]++;
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    for (int i = 0; i < 100; i++)
        CHECK(hit[i] == 1);
    TCHECK(ttq_count(ompt_callback_work, ompt_scope_begin, ompt_work_taskloop) == 1);
    const struct tt_event *tl = ttq_nth(ompt_callback_work, ompt_scope_begin, ompt_work_taskloop, 0);
    TCHECK(tl->a == 100 && ttq_in_program(tl->codeptr));
    TCHECK(ttq_count(ompt_callback_task_create, ANY, ANY) == 4);
    /* ... inside its taskgroup, on the encountering thread: taskgroup begin,
     * taskloop begin, the tasks, taskloop end (with the count), the
     * taskgroup's wait and end. */
    const struct tt_event *tl_end = ttq_nth(ompt_callback_work, ompt_scope_end, ompt_work_taskloop, 0);
    TCHECK(tl_end && tl_end->a == 100 && tl_end->thread == tl->thread);
    TCHECK(ttq_count(ompt_callback_sync_region, ompt_scope_begin, ompt_sync_region_taskgroup) == 1);
    const struct tt_event *g0 =
        ttq_nth(ompt_callback_sync_region, ompt_scope_begin, ompt_sync_region_taskgroup, 0);
    const struct tt_event *g1 =
        ttq_nth(ompt_callback_sync_region, ompt_scope_end, ompt_sync_region_taskgroup, 0);
    TCHECK(g0 && g1 && g0->thread == tl->thread && g1->thread == tl->thread);
    TCHECK(g0->seq < tl->seq && tl_end->seq < g1->seq && g0->task == tl->task);
    /* Each task begins its chunk (OpenMP 5.2 ompt_dispatch_taskloop_chunk):
     * right after the switch to it, with its own task id; the chunks cover
     * the logical iterations 0..99 once. */
    static int covered[100];
    for (int k = 0; k < 4; k++) {
        const struct tt_event *c = ttq_nth(ompt_callback_task_create, ANY, ANY, (size_t)k);
        TCHECK(c->codeptr == tl->codeptr && c->seq > tl->seq && c->seq < tl_end->seq);
        check_task_life(c);
        const struct tt_event *d = NULL;
        for (size_t i = 0; i < tt_count(); i++) {
            const struct tt_event *e = tt_get(i);
            if (ttq_is(e, ompt_callback_dispatch, ANY, ompt_dispatch_taskloop_chunk) &&
                e->task == c->task2) {
                TCHECK(!d);
                d = e;
            }
        }
        TCHECK(d && d->task == d->q_task && d->parallel == tl->parallel);
        const struct tt_event *sw = NULL;   /* the thread's event before d */
        for (size_t i = d->seq; i-- > 0 && !sw;)
            if (tt_get(i)->thread == d->thread)
                sw = tt_get(i);
        TCHECK(sw && sw->type == ompt_callback_task_schedule && sw->task2 == c->task2);
        TCHECK(d->a == 25 && d->b + d->a <= 100);
        for (uint64_t i = d->b; i < d->b + d->a && i < 100; i++)
            covered[i]++;
    }
    for (int i = 0; i < 100; i++)
        TCHECK(covered[i] == 1);

    /* depend(omp_all_memory) as gcc 13 passes it (one out item, address
     * NULL; gcc 12 cannot write it): OpenMP 6.0's out_all_memory, as libomp
     * reports it. */
    tt_reset();
    static int all_ran;
    int *arg = &all_ran;
    void *all_memory[6] = {0, (void *)1, (void *)1, 0, 0, NULL};
#pragma omp parallel num_threads(T)
#pragma omp single
    GOMP_task(count_task, &arg, NULL, sizeof arg, _Alignof(int *), true, GOMP_TASK_FLAG_DEPEND,
              all_memory, 0, NULL);
    CHECK(all_ran == 1);
    TCHECK(ttq_count(ompt_callback_dependences, ANY, ANY) == 1);
    const struct tt_event *all = ttq_nth(ompt_callback_dependences, ANY, ANY, 0);
    TCHECK(all->a == 1 && all->kind == ompt_dependence_type_out_all_memory && all->b == 0);
    printf("ompt_tasks: ok\n");
    return 0;
}
