/* Parallel regions under the recording tool: parallel_begin/end and
 * implicit_task pairs with matching ids, the encountering task, requested
 * and actual parallelism, thread numbers, the implicit barrier, worker
 * thread_begin, what the inquiry entry points answer inside the callbacks,
 * frames and codeptr_ra; nested regions and if(0).
 * argv[1] = "limit": run with OMP_THREAD_LIMIT=2 (requested 4, actual 2). */
#include <omp.h>
#include <stdlib.h>

#include "ttq.h"

static volatile int sink;

__attribute__((noinline)) static void region(int n)
{
#pragma omp parallel num_threads(n)
    sink += omp_get_thread_num() * 0;
    sink++; /* (no tail call: GOMP_parallel returns here) */
}

/* One region of `actual` threads requested as `requested`: check its events. */
static void check_region(unsigned requested, unsigned actual, uint64_t encountering)
{
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, actual);
    ttq_wait(ompt_callback_sync_region, ompt_scope_end, ompt_sync_region_barrier_implicit_parallel,
             actual);
    TCHECK(ttq_count(ompt_callback_parallel_begin, ANY, ANY) == 1);
    TCHECK(ttq_count(ompt_callback_parallel_end, ANY, ANY) == 1);
    const struct tt_event *pb = ttq_nth(ompt_callback_parallel_begin, ANY, ANY, 0);
    const struct tt_event *pe = ttq_nth(ompt_callback_parallel_end, ANY, ANY, 0);
    TCHECK(pb->parallel != 0 && pe->parallel == pb->parallel);
    TCHECK(pb->task == encountering && pe->task == encountering);
    TCHECK(pb->a == requested);
    TCHECK(pb->flags == (int)(ompt_parallel_team | ompt_parallel_invoker_runtime));
    TCHECK(pe->flags == pb->flags && pe->codeptr == pb->codeptr);
    /* codeptr_ra: the return address of GOMP_parallel, inside region(). */
    TCHECK((const char *)pb->codeptr > (const char *)region &&
           (const char *)pb->codeptr < (const char *)region + 512);
    /* The encountering task's frame: entered the runtime, at a real address. */
    TCHECK(pb->frame_arg.enter_frame.ptr != NULL);
    TCHECK(pb->frame_arg.enter_frame_flags == (ompt_frame_runtime | ompt_frame_cfa));
    TCHECK(pb->seq < pe->seq);
    TCHECK(pb->state == ompt_state_work_serial || pb->state == ompt_state_work_parallel);

    int seen[64] = {0};
    for (unsigned k = 0; k < actual; k++) {
        const struct tt_event *ib = ttq_nth(ompt_callback_implicit_task, ompt_scope_begin, ANY, k);
        TCHECK(ib && ib->parallel == pb->parallel && ib->flags == ompt_task_implicit);
        TCHECK(ib->a == actual && ib->b < actual && !seen[ib->b]);
        seen[ib->b] = 1;
        TCHECK(ib->task != 0 && ib->task != encountering);
        TCHECK(ib->seq > pb->seq);
        /* Asked inside the callback. */
        TCHECK(ib->state == ompt_state_work_parallel);
        TCHECK(ib->q_ok == 3 && ib->q_task == ib->task && ib->q_parallel == pb->parallel);
        TCHECK(ib->q_team_size == (int)actual && ib->q_thread_num == (int)ib->b);
        TCHECK(ib->q_task_flags == (ompt_task_implicit | ompt_task_undeferred)); /* as libomp */
        /* Workers report the runtime frame that called the region's body. */
        TCHECK(ib->b == 0 || ib->q_frame_copy.exit_frame.ptr != NULL);
        /* Its end: same task, same thread; after the barrier. */
        const struct tt_event *ie = NULL, *bb = NULL, *be = NULL;
        for (size_t i = 0; i < tt_count(); i++) {
            const struct tt_event *e = tt_get(i);
            if (e->thread != ib->thread)
                continue;
            if (ttq_is(e, ompt_callback_implicit_task, ompt_scope_end, ANY) && e->task == ib->task)
                ie = e;
            if (ttq_is(e, ompt_callback_sync_region, ompt_scope_begin,
                       ompt_sync_region_barrier_implicit_parallel) && e->task == ib->task)
                bb = e;
            if (ttq_is(e, ompt_callback_sync_region, ompt_scope_end,
                       ompt_sync_region_barrier_implicit_parallel) && e->task == ib->task)
                be = e;
        }
        TCHECK(ie && bb && be);
        TCHECK(ib->seq < bb->seq && bb->seq < be->seq && be->seq < ie->seq);
        TCHECK(bb->parallel == pb->parallel);
        TCHECK(ie->b == ib->b && ie->flags == ompt_task_implicit);
        /* The primary thread's implicit task ends before the region does;
         * every implicit-task-end has no parallel data (OpenMP 5.1, 4.5.2.11). */
        if (ib->b == 0)
            TCHECK(ie->seq < pe->seq);
        TCHECK(ie->parallel == 0);
    }
}

int main(int argc, char **argv)
{
    int limit = argc > 1 && strcmp(argv[1], "limit") == 0;
    CHECK(tt_initialized());
    uint64_t initial = ttq_begin_initial_thread();

    /* A first region: the workers are new threads. */
    tt_reset();
    region(4);
    unsigned actual = limit ? 2 : 4;
    check_region(4, actual, initial);
    TCHECK(ttq_count(ompt_callback_thread_begin, ANY, ompt_thread_worker) == actual - 1);
    for (size_t i = 0; i < actual - 1; i++) {
        const struct tt_event *tb = ttq_nth(ompt_callback_thread_begin, ANY, ANY, i);
        /* A worker's thread_begin precedes its first implicit task. */
        for (size_t k = 0; k < tt_count(); k++)
            if (tt_get(k)->thread == tb->thread && tt_get(k)->type == ompt_callback_implicit_task)
                TCHECK(tt_get(k)->seq > tb->seq);
    }
    /* Pooled workers again: same threads, no new thread_begin. */
    tt_reset();
    region(4);
    check_region(4, actual, initial);
    TCHECK(ttq_count(ompt_callback_thread_begin, ANY, ANY) == 0);
    if (limit) {
        printf("ompt_parallel (thread limit 2): ok\n");
        return 0;
    }

    /* if(0) and num_threads(1): one thread, requested 1. */
    tt_reset();
    region(1);
    check_region(1, 1, initial);

    /* Nested: the inner region's encountering task is the outer implicit task. */
    omp_set_max_active_levels(2);
    static uint64_t outer_task[4], inner_parent_par[4][2], inner_enc[4][2];
    tt_reset();
#pragma omp parallel num_threads(2)
    {
        int o = omp_get_thread_num();
        outer_task[o] = ttq_task_id(0);
#pragma omp parallel num_threads(2)
        {
            int i = omp_get_thread_num();
            inner_parent_par[o][i] = ttq_parallel_id(1);
            inner_enc[o][i] = ttq_task_id(1);
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, 6);
    TCHECK(ttq_count(ompt_callback_parallel_begin, ANY, ANY) == 3);
    const struct tt_event *outer = ttq_nth(ompt_callback_parallel_begin, ANY, ANY, 0);
    TCHECK(outer->task == initial);
    for (int k = 1; k < 3; k++) {
        const struct tt_event *in = ttq_nth(ompt_callback_parallel_begin, ANY, ANY, (size_t)k);
        int o = in->task == outer_task[0] ? 0 : 1;
        TCHECK(in->task == outer_task[o]);            /* encountering = outer implicit task */
        TCHECK(in->q_parallel == outer->parallel);    /* asked in the callback: the outer region */
        for (int i = 0; i < 2; i++) {
            TCHECK(inner_parent_par[o][i] == outer->parallel);
            TCHECK(inner_enc[o][i] == outer_task[o]);
        }
    }
    printf("ompt_parallel: ok\n");
    return 0;
}
