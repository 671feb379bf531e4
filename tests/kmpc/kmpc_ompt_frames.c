/* OMPT task frames of clang programs (ompt_get_task_info; OpenMP 5.1,
 * 4.4.4.28 ompt_frame_t): an explicit task's exit_frame is the frame that
 * called its routine, which is the body's __builtin_frame_address(1) (clang
 * inlines a task's body into its routine), in each part of an untied task
 * too; where the program calls the body itself (task if(0), parallel if(0))
 * it is the program's frame, the encountering function's, flagged
 * ompt_frame_application, as libomp gives it.  While a task's body runs,
 * its creator (level 1) has an enter_frame.  The tool is this program.
 * Built with frame pointers and -g0, as kmpc_ompt_codeptr. */
#define _GNU_SOURCE
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "kmpc_tool.h"
#include "pvomp_check.h"
#include "omp_test.h"

static ompt_get_task_info_t get_task_info;
static int creates;

static void on_task_create(ompt_data_t *enc, const ompt_frame_t *frame, ompt_data_t *task,
                           int flags, int has_deps, const void *codeptr)
{
    (void)enc, (void)frame, (void)task, (void)flags, (void)has_deps, (void)codeptr;
    TEST_INC(&creates);
}

static int tool_init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    return get_task_info && set(ompt_callback_task_create, (ompt_callback_t)on_task_create) ==
                                    ompt_set_always;
}

KMPC_TOOL(tool_init)

/* Checks, by kind; a failure prints what was seen. */
enum { DEFERRED, UNTIED_PART1, UNTIED_PART2, IF0_TASK, IF0_PARALLEL, NCASES };
static const char *const case_name[NCASES] = {"deferred task", "untied task, part 1",
                                              "untied task, part 2", "if(0) task",
                                              "parallel if(0)"};
static int seen[NCASES], bad[NCASES];

/* The current task (level 0) has `exit` as exit_frame, owned by `owner`
 * (ompt_frame_runtime or _application); its creator has an enter_frame. */
static __attribute__((noinline)) void check_frames(int which, void *exit, int owner)
{
    ompt_frame_t *f0 = NULL, *f1 = NULL;
    int ok = get_task_info(0, NULL, NULL, &f0, NULL, NULL) == 2 && f0 &&
             get_task_info(1, NULL, NULL, &f1, NULL, NULL) == 2 && f1;
    if (ok)
        ok = f0->exit_frame.ptr == exit && /* ompt_frame_runtime is 0 */
             (f0->exit_frame_flags & ompt_frame_application) == owner &&
             (f0->exit_frame_flags & 0x30) == ompt_frame_framepointer && f1->enter_frame.ptr;
    if (!ok)
        fprintf(stderr, "%s: exit_frame %p (flags %#x), expected %p (owner %#x); creator's "
                "enter_frame %p\n", case_name[which], f0 ? f0->exit_frame.ptr : NULL,
                f0 ? (unsigned)f0->exit_frame_flags : 0u, exit, (unsigned)owner,
                f1 ? f1->enter_frame.ptr : NULL);
    TEST_INC(&seen[which]);
    if (!ok)
        TEST_INC(&bad[which]);
}

/* The if(0) constructs' bodies are called by the function that encounters
 * them (or inlined into it: clang -O2 does so with the task's): its frame
 * is their exit_frame, which a body not inlined sees as
 * __builtin_frame_address(1). */
#define CALLED_FROM(mine)                                                               \
    (__builtin_frame_address(0) == (mine) ? (mine) : __builtin_frame_address(1))

static __attribute__((noinline)) void encounter_if0(void)
{
    void *mine = __builtin_frame_address(0);
    int zero = 0;
#pragma omp task if (zero) firstprivate(mine)
    {
        check_frames(IF0_TASK, mine, ompt_frame_application);
        if (CALLED_FROM(mine) != mine)
            TEST_INC(&bad[IF0_TASK]);
    }
#pragma omp parallel if (zero) firstprivate(mine)
    {
        check_frames(IF0_PARALLEL, mine, ompt_frame_application);
        if (CALLED_FROM(mine) != mine)
            TEST_INC(&bad[IF0_PARALLEL]);
    }
}

int main(void)
{
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        {
            for (int i = 0; i < 4; i++) {
#pragma omp task
                check_frames(DEFERRED, __builtin_frame_address(1), ompt_frame_runtime);
#pragma omp task untied
                {
                    check_frames(UNTIED_PART1, __builtin_frame_address(1), ompt_frame_runtime);
#pragma omp taskyield
                    check_frames(UNTIED_PART2, __builtin_frame_address(1), ompt_frame_runtime);
                }
            }
#pragma omp taskwait
            encounter_if0();
        }
    }
    encounter_if0(); /* outside any region: under the initial task */
    for (int i = 0; i < NCASES; i++) {
        if (!seen[i] || bad[i])
            fprintf(stderr, "%s: %d seen, %d wrong\n", case_name[i], seen[i], bad[i]);
        CHECK(seen[i] && !bad[i]);
    }
    CHECK(creates >= 4 * 2 + 2);
    printf("kmpc_ompt_frames: ok\n");
    return 0;
}
