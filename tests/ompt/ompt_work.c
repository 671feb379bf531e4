/* Worksharing under the recording tool: work begin/end pairs (loop,
 * sections, single executor/other, combined parallel for and parallel
 * sections) with the iteration count, dispatch events (OpenMP 5.2
 * ws_loop_chunk for loops) that cover every chunk and section exactly once, and ids that match the implicit tasks. */
#include <omp.h>

#include "ttq.h"

#define T 3
#define N 1000

/* For each thread: a begin and a later end of `type`, with the thread's
 * implicit task and the region; returns how many threads had one. */
static size_t check_work(int type, uint64_t count, size_t threads)
{
    ttq_wait(ompt_callback_work, ompt_scope_end, type, threads);
    TCHECK(ttq_count(ompt_callback_work, ompt_scope_begin, type) == threads);
    TCHECK(ttq_count(ompt_callback_work, ompt_scope_end, type) == threads);
    for (size_t k = 0; k < threads; k++) {
        const struct tt_event *b = ttq_nth(ompt_callback_work, ompt_scope_begin, type, k);
        TCHECK(count == (uint64_t)-1 || b->a == count);
        TCHECK(b->parallel != 0 && b->task == b->q_task && b->parallel == b->q_parallel);
        TCHECK(ttq_in_program(b->codeptr));
        const struct tt_event *e = NULL;
        for (size_t i = b->seq + 1; i < tt_count() && !e; i++)
            if (tt_get(i)->thread == b->thread &&
                ttq_is(tt_get(i), ompt_callback_work, ompt_scope_end, type))
                e = tt_get(i);
        TCHECK(e && e->task == b->task && e->parallel == b->parallel);
    }
    return threads;
}

/* Dispatch events of kind, with the instance values seen. */
static void check_dispatch(int kind, uint64_t *seen, size_t n)
{
    memset(seen, 0, n * sizeof *seen);
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (!ttq_is(e, ompt_callback_dispatch, ANY, kind))
            continue;
        TCHECK(e->b < n);
        seen[e->b]++;
        TCHECK(e->task == e->q_task && e->parallel == e->q_parallel);
    }
}

/* Section dispatches: `count` in all, `per_thread` (or -1: any number) on
 * the threads of the team with team numbers 0..T-1, each inside its
 * thread's sections region and naming the construct's code address
 * (OpenMP 5.1 instance.ptr; as libomp). */
static void check_sections(size_t count, const int *per_thread)
{
    TCHECK(ttq_count(ompt_callback_dispatch, ANY, ompt_dispatch_section) == count);
    int got[T] = {0};
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *d = tt_get(i);
        if (!ttq_is(d, ompt_callback_dispatch, ANY, ompt_dispatch_section))
            continue;
        TCHECK(d->task == d->q_task && d->parallel == d->q_parallel);
        const struct tt_event *b = NULL;   /* the thread's sections begin */
        for (size_t k = d->seq; k-- > 0 && !b;)
            if (tt_get(k)->thread == d->thread &&
                ttq_is(tt_get(k), ompt_callback_work, ANY, ompt_work_sections))
                b = tt_get(k);
        TCHECK(b && b->endpoint == ompt_scope_begin && d->b == (uint64_t)(uintptr_t)b->codeptr);
        TCHECK(d->q_thread_num >= 0 && d->q_thread_num < T);
        got[d->q_thread_num]++;
    }
    for (int t = 0; t < T; t++)
        TCHECK(per_thread[t] < 0 || got[t] == per_thread[t]);
}

/* The loop work type of schedule(runtime): run-sched-var's kind. */
static int runtime_work_type(void)
{
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    switch ((unsigned)kind & ~(unsigned)omp_sched_monotonic) {
    case omp_sched_dynamic:
        return ompt_work_loop_dynamic;
    case omp_sched_guided:
        return ompt_work_loop_guided;
    default:   /* static, and auto, which pvomp runs static */
        return ompt_work_loop_static;
    }
}

int main(void)
{
    CHECK(tt_initialized());
    static int hit[N];
    static uint64_t seen[N + 1];

    /* A dynamic loop, chunks of 10: one dispatch per chunk, covering 0..N-1. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp for schedule(dynamic, 10)
        for (int i = 0; i < N; i++)
            hit[i]++;
    }
    check_work(ompt_work_loop_dynamic, N, T);   /* OpenMP 5.2's loop work types */
    TCHECK(ttq_count(ompt_callback_work, ANY, ompt_work_loop) == 0);
    check_dispatch(ompt_dispatch_ws_loop_chunk, seen, N);
    for (int i = 0; i < N; i++)
        TCHECK(seen[i] == (i % 10 == 0));
    for (size_t i = 0; i < tt_count(); i++)   /* OpenMP 5.2 chunks: 10 iterations each */
        if (ttq_is(tt_get(i), ompt_callback_dispatch, ANY, ompt_dispatch_ws_loop_chunk))
            TCHECK(tt_get(i)->a == 10);

    /* guided and runtime schedules, nowait. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp for schedule(guided) nowait
        for (int i = 0; i < N; i++)
            hit[i]++;
#pragma omp for schedule(runtime)
        for (int i = 0; i < N; i++)
            hit[i]++;
    }
    check_work(ompt_work_loop_guided, N, T + (runtime_work_type() == ompt_work_loop_guided) * T);
    if (runtime_work_type() != ompt_work_loop_guided)
        check_work(runtime_work_type(), N, T);
    for (int i = 0; i < N; i++)
        CHECK(hit[i] == 3);

    /* sections: each section dispatched once, numbered 1..4. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp sections
        {
#pragma omp section
            hit[0]++;
#pragma omp section
            hit[1]++;
#pragma omp section
            hit[2]++;
#pragma omp section
            hit[3]++;
        }
    }
    check_work(ompt_work_sections, 4, T);
    /* Each thread takes one section first (the fourth goes to any). */
    CHECK(hit[0] == 4 && hit[1] == 4 && hit[2] == 4 && hit[3] == 4);   /* 3 loops before */
    check_sections(4, (const int[T]){-1, -1, -1});
    for (int t = 0; t < T; t++) {
        size_t mine = 0;
        for (size_t i = 0; i < tt_count(); i++)
            mine += ttq_is(tt_get(i), ompt_callback_dispatch, ANY, ompt_dispatch_section) &&
                    tt_get(i)->q_thread_num == t;
        TCHECK(mine >= 1);
    }

    /* single: one executor, the others skip; the executor's end comes
     * before the implicit barrier. */
    tt_reset();
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        hit[5]++;
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    check_work(ompt_work_single_executor, 1, 1);
    check_work(ompt_work_single_other, 1, T - 1);
    const struct tt_event *ex = ttq_nth(ompt_callback_work, ompt_scope_end,
                                        ompt_work_single_executor, 0);
    const struct tt_event *bar = NULL;
    for (size_t i = ex->seq; i < tt_count() && !bar; i++)
        if (tt_get(i)->thread == ex->thread && tt_get(i)->type == ompt_callback_sync_region)
            bar = tt_get(i);
    TCHECK(bar && bar->seq > ex->seq);
    TCHECK(ex->a == 1);   /* a single's end counts 1, as its begin (as libomp) */

    /* single with copyprivate. */
    tt_reset();
    int value = 0;
#pragma omp parallel num_threads(T) firstprivate(value)
    {
#pragma omp single copyprivate(value)
        value = 42;
        CHECK(value == 42);
    }
    check_work(ompt_work_single_executor, 1, 1);
    check_work(ompt_work_single_other, 1, T - 1);

    /* Combined parallel for: every member starts inside the loop. */
    tt_reset();
#pragma omp parallel for schedule(dynamic, 100) num_threads(T)
    for (int i = 0; i < N; i++)
        hit[i]++;
    check_work(ompt_work_loop_dynamic, N, T);
    const struct tt_event *pb = ttq_nth(ompt_callback_parallel_begin, ANY, ANY, 0);
    TCHECK(pb && ttq_nth(ompt_callback_work, ompt_scope_begin, ompt_work_loop_dynamic, 0)->parallel ==
                     pb->parallel);

    /* Combined parallel sections. */
    tt_reset();
#pragma omp parallel sections num_threads(T)
    {
#pragma omp section
        hit[10]++;
#pragma omp section
        hit[11]++;
    }
    check_work(ompt_work_sections, 2, T);
    /* Two sections, three threads: threads 0 and 1 take one each. */
    check_sections(2, (const int[T]){1, 1, 0});
    /* A doacross loop: each ordered depend(source) and depend(sink) is a
     * dependences event of the implicit task with the iteration vector (as
     * libomp reports them): a source for every iteration, a sink for every
     * iteration but the first (gcc skips the out-of-range i - 1), the sink of
     * iteration i naming i - 1 and coming before i's source on its thread. */
    tt_reset();
    enum { M = 40 };
    static int order[M], pos;
#pragma omp parallel num_threads(T)
    {
#pragma omp for ordered(1) schedule(dynamic, 3)
        for (int i = 0; i < M; i++) {
#pragma omp ordered depend(sink : i - 1)
            order[i] = __atomic_fetch_add(&pos, 1, __ATOMIC_RELAXED);
#pragma omp ordered depend(source)
        }
    }
    for (int i = 0; i < M; i++)
        CHECK(order[i] == i);
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, T);
    static int sources[M], sinks[M];
    for (size_t k = 0; k < tt_count(); k++) {
        const struct tt_event *e = tt_get(k);
        if (e->type != ompt_callback_dependences)
            continue;
        TCHECK(e->a == 1 && e->b < M && e->task == e->q_task && (e->q_task_flags & ompt_task_implicit));
        if (e->kind == ompt_dependence_type_source) {
            TCHECK(sinks[e->b] == (e->b > 0) && sources[e->b] == 0);
            sources[e->b]++;
        } else {
            TCHECK(e->kind == ompt_dependence_type_sink && e->b + 1 < M);
            sinks[e->b + 1]++;
        }
    }
    for (int i = 0; i < M; i++)
        TCHECK(sources[i] == 1 && sinks[i] == (i > 0));
    printf("ompt_work: ok\n");
    return 0;
}
