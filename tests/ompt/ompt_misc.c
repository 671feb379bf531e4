/* cancel, error and control_tool under the recording tool (run with
 * OMP_CANCELLATION=true): cancel activated/detected with the construct's
 * flag, tasks discarded by taskgroup cancellation, the error directive,
 * omp_control_tool from inside a region; the state asked inside each. */
#include <omp.h>

#include "ttq.h"

extern int omp_control_tool(int command, int modifier, void *arg) __attribute__((weak));

int main(void)
{
    CHECK(tt_initialized());
    CHECK(omp_get_cancellation());

    /* Cancel the parallel region. */
    tt_reset();
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
        }
#pragma omp cancellation point parallel
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, 2);
    size_t activated = 0;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type != ompt_callback_cancel)
            continue;
        TCHECK(e->flags & ompt_cancel_parallel);
        TCHECK((e->flags & (ompt_cancel_activated | ompt_cancel_detected)) != 0);
        TCHECK(e->task == e->q_task && ttq_in_program(e->codeptr));
        activated += (e->flags & ompt_cancel_activated) != 0;
    }
    TCHECK(activated == 1);

    /* Cancel a taskgroup: the tasks not started yet are discarded. */
    tt_reset();
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskgroup
    {
        for (int i = 0; i < 50; i++) {
#pragma omp task
            {
#pragma omp cancel taskgroup
            }
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, 2);
    size_t created = ttq_count(ompt_callback_task_create, ANY, ANY);
    size_t ended = ttq_count(ompt_callback_task_schedule, ANY, ompt_task_complete) +
                   ttq_count(ompt_callback_task_schedule, ANY, ompt_task_cancel);
    TCHECK(created > 0 && ended == created);   /* every task ends, one way or the other */
    size_t discarded = 0, activated_by_task = 0;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type == ompt_callback_cancel && (e->flags & ompt_cancel_discarded_task))
            discarded++;
        if (e->type == ompt_callback_cancel && (e->flags & ompt_cancel_activated)) {
            TCHECK(e->flags & ompt_cancel_taskgroup);
            activated_by_task++;
        }
    }
    /* a task ends cancelled when it was discarded, or when it cancelled
     * the taskgroup itself (its region ends at the cancel, as libomp has it) */
    TCHECK(discarded + activated_by_task ==
           ttq_count(ompt_callback_task_schedule, ANY, ompt_task_cancel));
    TCHECK(activated_by_task > 0);

    /* The error directive (at execution: GOMP_warning). */
    tt_reset();
#pragma omp error at(execution) severity(warning) message("ompt test warning")
    TCHECK(ttq_count(ompt_callback_error, ANY, ANY) == 1);
    const struct tt_event *err = ttq_nth(ompt_callback_error, ANY, ANY, 0);
    TCHECK(err->kind == ompt_warning && err->a == strlen("ompt test warning"));
    TCHECK(strncmp((const char *)(uintptr_t)err->b, "ompt test warning", err->a) == 0);
    TCHECK(ttq_in_program(err->codeptr));

    /* omp_control_tool inside a region: the thread's implicit task and region. */
    tt_reset();
    static int answers[2];
#pragma omp parallel num_threads(2)
    answers[omp_get_thread_num()] = omp_control_tool(3, omp_get_thread_num(), NULL);
    TCHECK(answers[0] == 30 && answers[1] == 31);
    ttq_wait(ompt_callback_control_tool, ANY, ANY, 2);
    for (size_t k = 0; k < 2; k++) {
        const struct tt_event *c = ttq_nth(ompt_callback_control_tool, ANY, ANY, k);
        TCHECK(c->state == ompt_state_work_parallel && c->q_team_size == 2);
        TCHECK(c->q_thread_num == (int)c->b);
        TCHECK(c->q_parallel == ttq_nth(ompt_callback_parallel_begin, ANY, ANY, 0)->parallel);
    }
    printf("ompt_misc: ok\n");
    return 0;
}
