/* The recording tool linked into the program (a DT_NEEDED library): pvomp
 * finds its ompt_start_tool in the address space.  Checks what happens
 * before any construct: set_callback answers, the initial thread and task,
 * the state seen from inside callbacks, omp_control_tool, and (argv[1] =
 * "finalize_tool") ompt_finalize_tool. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "pvomp_check.h"
#include "tt.h"

extern int omp_control_tool(int command, int modifier, void *arg) __attribute__((weak));

__attribute__((noinline)) static int call_control_tool(void *arg)
{
    volatile int r = omp_control_tool(2, 5, arg);   /* (volatile: no tail call) */
    return r;
}

int main(int argc, char **argv)
{
    CHECK(omp_get_max_threads() >= 1);   /* (also makes the program need libgomp.so.1) */
    CHECK(tt_initialized());
    CHECK(tt_set_result(ompt_callback_parallel_begin) == ompt_set_always);
    CHECK(tt_set_result(ompt_callback_masked) == ompt_set_always); /* clang programs (as libomp) */
    /* never, or always once the target module dispatches target events */
    CHECK(tt_set_result(ompt_callback_target) == ompt_set_never ||
          tt_set_result(ompt_callback_target) == ompt_set_always);

    /* The log so far: thread_begin(initial), then the initial task begins. */
    CHECK(tt_count() >= 2);
    const struct tt_event *tb = tt_get(0), *it = tt_get(1);
    CHECK(tb->type == ompt_callback_thread_begin && tb->kind == ompt_thread_initial);
    CHECK(tb->thread != 0 && tb->state == ompt_state_work_serial);
    CHECK(it->type == ompt_callback_implicit_task && it->endpoint == ompt_scope_begin);
    CHECK(it->flags == ompt_task_initial && it->a == 1 && it->b == 1);
    CHECK(it->thread == tb->thread && it->parallel != 0 && it->task != 0);
    /* Asked from inside the callback: the initial task and its region. */
    CHECK(it->q_ok == 3 && it->q_task == it->task && it->q_parallel == it->parallel);
    CHECK(it->q_team_size == 1 && it->q_thread_num == 0 && it->q_task_flags == ompt_task_initial);

    int arg;
    tt_reset();
    CHECK(call_control_tool(&arg) == 25);
    CHECK(tt_count() == 1);
    const struct tt_event *ct = tt_get(0);
    CHECK(ct->type == ompt_callback_control_tool && ct->a == 2 && ct->b == 5);
    CHECK(ct->task2 == (uint64_t)(uintptr_t)&arg);
    /* codeptr_ra: the return address inside call_control_tool. */
    CHECK((const char *)ct->codeptr > (const char *)call_control_tool &&
          (const char *)ct->codeptr < (const char *)call_control_tool + 256);
    CHECK(ct->state == ompt_state_work_serial && ct->q_task != 0);

    if (argc > 1 && strcmp(argv[1], "finalize_tool") == 0) {
        ompt_finalize_tool_t fin = (ompt_finalize_tool_t)tt_lookup()("ompt_finalize_tool");
        CHECK(fin != NULL);
        fin();
        CHECK(tt_finalized() == 1);
        size_t n = tt_count();
        CHECK(omp_control_tool(1, 0, NULL) == -2);
        CHECK(tt_count() == n);
        printf("finalize_tool: ok\n");
    }
    printf("linked: ok\n");
    return 0;
}
