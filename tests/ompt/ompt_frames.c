/* Task frames and ancestors under the recording tool (OpenMP 5.1,
 * 4.4.4.28 ompt_frame_t; 4.6.1.14 ompt_get_task_info): while a task is
 * suspended in the runtime (a barrier, a taskwait, a taskgroup's end, the
 * creation of a task, an undeferred task it created) its enter_frame is set,
 * and cleared when it returns to its own code; the implicit barrier that
 * ends a region has neither frame; a task run at another task's barrier has
 * that task (on its own thread) as its ancestor. */
#include <omp.h>

#include "ttq.h"

#define CFA_FLAGS (ompt_frame_runtime | ompt_frame_cfa)

static ompt_frame_t frame_at(int level, uint64_t *id)
{
    ompt_get_task_info_t f = (ompt_get_task_info_t)tt_lookup()("ompt_get_task_info");
    ompt_frame_t *frame = NULL, none = {{0}, {0}, 0, 0};
    ompt_data_t *task = NULL;
    int flags, num;
    if (f(level, &flags, &task, &frame, NULL, &num) != 2 || !frame)
        return none;
    if (id)
        *id = task ? task->value : 0;
    return *frame;
}

/* What a thread's region body saw: its own frame, its task's frames in its
 * code before and after the constructs. */
static char *body_frame[2];
static ompt_frame_t after_barrier[2], after_task[2], after_wait[2];
/* What the task run at thread 1's barrier saw. */
static volatile int task_ran;
static uint64_t anc_id, anc2_flags_ok;
static ompt_frame_t anc_frame;
static int ran_on = -1;
/* The undeferred task's view of its creator. */
static ompt_frame_t if0_creator;
static uint64_t if0_creator_id;

int main(void)
{
    CHECK(tt_initialized());
    tt_reset();
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        TCHECK(omp_get_num_threads() == 2);
        body_frame[me] = __builtin_frame_address(0);
        if (me == 0) {
            /* Only thread 1, waiting at the barrier below, can run it. */
#pragma omp task
            {
                ran_on = omp_get_thread_num();
                anc_frame = frame_at(1, &anc_id);
                ompt_get_task_info_t f = (ompt_get_task_info_t)tt_lookup()("ompt_get_task_info");
                int flags = 0;
                anc2_flags_ok = f(2, &flags, NULL, NULL, NULL, NULL) == 2 &&
                                (flags & ompt_task_initial);
                __atomic_store_n(&task_ran, 1, __ATOMIC_RELEASE);
            }
            after_task[0] = frame_at(0, NULL);
            while (!__atomic_load_n(&task_ran, __ATOMIC_ACQUIRE))
                sched_yield();
        }
#pragma omp barrier
        after_barrier[me] = frame_at(0, NULL);
        if (me == 0) {
#pragma omp task if(0)
            if0_creator = frame_at(1, &if0_creator_id);
            after_task[1] = frame_at(0, NULL);
#pragma omp task
            ;
#pragma omp taskwait
#pragma omp taskgroup
            {
#pragma omp task
                ;
            }
            after_wait[0] = frame_at(0, NULL);
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, 2);
    ttq_wait(ompt_callback_sync_region, ompt_scope_end, ompt_sync_region_barrier_implicit_parallel,
             2);

    /* In the explicit barrier: each implicit task's exit frame lies above
     * its body's frame, its enter frame (the CFA of GOMP_barrier) below. */
    TCHECK(ttq_count(ompt_callback_sync_region, ompt_scope_begin,
                     ompt_sync_region_barrier_explicit) == 2);
    for (size_t k = 0; k < 2; k++) {
        const struct tt_event *b =
            ttq_nth(ompt_callback_sync_region, ompt_scope_begin, ompt_sync_region_barrier_explicit, k);
        int n = b->q_thread_num;
        TCHECK(n == 0 || n == 1);
        const ompt_frame_t *fr = &b->q_frame_copy;
        TCHECK(fr->exit_frame.ptr && (char *)fr->exit_frame.ptr > body_frame[n]);
        TCHECK(fr->enter_frame.ptr && (char *)fr->enter_frame.ptr <= body_frame[n]);
        TCHECK(fr->enter_frame_flags == CFA_FLAGS);
        /* back in the program's code: no enter frame */
        TCHECK(after_barrier[n].enter_frame.ptr == NULL && after_barrier[n].exit_frame.ptr);
    }
    /* The region's end barrier: the implicit task has left its body. */
    for (size_t k = 0; k < 2; k++) {
        const struct tt_event *b = ttq_nth(ompt_callback_sync_region, ompt_scope_begin,
                                           ompt_sync_region_barrier_implicit_parallel, k);
        TCHECK(!b->q_frame_copy.exit_frame.ptr && !b->q_frame_copy.enter_frame.ptr);
    }

    /* The task ran on thread 1 at its barrier: its ancestor is thread 1's
     * implicit task, suspended in the barrier (both frames set), then the
     * initial task. */
    TCHECK(ran_on == 1);
    const struct tt_event *c = ttq_nth(ompt_callback_task_create, ANY, ANY, 0);
    TCHECK(c && c->flags == ompt_task_explicit);
    TCHECK(c->frame_arg.enter_frame.ptr && c->frame_arg.enter_frame_flags == CFA_FLAGS);
    TCHECK(after_task[0].enter_frame.ptr == NULL); /* GOMP_task returned */
    const struct tt_event *sw = NULL;
    for (size_t k = 0; (sw = ttq_nth(ompt_callback_task_schedule, ANY, ompt_task_switch, k)); k++)
        if (sw->task2 == c->task2)
            break;
    TCHECK(sw && sw->task != c->task && sw->task == ttq_implicit_of(sw->thread));
    TCHECK(anc_id == sw->task && anc2_flags_ok);
    TCHECK(anc_frame.exit_frame.ptr && anc_frame.enter_frame.ptr);

    /* The undeferred task: its creator stays suspended in GOMP_task with
     * the enter frame it had at the task's creation; cleared after. */
    const struct tt_event *u = ttq_nth(ompt_callback_task_create, ANY, ANY, 1);
    TCHECK(u && (u->flags & ompt_task_undeferred) && u->task == if0_creator_id);
    TCHECK(if0_creator.enter_frame.ptr && if0_creator.enter_frame.ptr == u->frame_arg.enter_frame.ptr);
    TCHECK(if0_creator.exit_frame.ptr);
    TCHECK(after_task[1].enter_frame.ptr == NULL);

    /* taskwait and the end of a taskgroup: suspended there. */
    const struct tt_event *tw =
        ttq_nth(ompt_callback_sync_region_wait, ompt_scope_begin, ompt_sync_region_taskwait, 0);
    TCHECK(tw && tw->q_frame_copy.enter_frame.ptr && tw->q_frame_copy.enter_frame_flags == CFA_FLAGS);
    TCHECK((char *)tw->q_frame_copy.enter_frame.ptr <= body_frame[0]);
    const struct tt_event *tg =
        ttq_nth(ompt_callback_sync_region_wait, ompt_scope_begin, ompt_sync_region_taskgroup, 0);
    TCHECK(tg && tg->q_frame_copy.enter_frame.ptr && tg->q_frame_copy.enter_frame_flags == CFA_FLAGS);
    TCHECK(after_wait[0].enter_frame.ptr == NULL);

    printf("ompt_frames: ok\n");
    return 0;
}
