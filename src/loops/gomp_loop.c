/* Worksharing loops over `long` iteration variables: the GOMP_loop_* entry
 * points, the combined GOMP_parallel_loop_* constructs and the loop ends.
 *
 * A *_start call enters the construct (the first thread describes it) and
 * takes the calling thread's first range; *_next takes the following ones.
 * Nonmonotonic schedules are served by the monotonic implementations, which
 * satisfy both contracts.  The ordered forms are in gomp_ordered.c, doacross in
 * gomp_doacross.c, the unsigned long long forms in gomp_loop_ull.c. */
#include "abi/gomp.h"
#include "loops/loop.h"
#include "runtime/task_internal.h"

static bool loop_start(long start, long end, long incr, int sched, pv_ull chunk,
                       long *istart, long *iend)
{
    struct pv_ws *ws = pv_loop_enter(PV_FORM_LONG, (pv_ull)start, (pv_ull)end, (pv_ull)incr,
                                     sched, chunk, false, NULL);
    pv_ull s0, e0;
    return pv_out_long(ws, pv_iter_next(ws, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_static_start(long start, long end, long incr, long chunk,
                                      long *istart, long *iend)
{
    return loop_start(start, end, incr, PV_SCHED_STATIC, chunk > 0 ? (pv_ull)chunk : 0,
                      istart, iend);
}

PV_EXPORT bool GOMP_loop_dynamic_start(long start, long end, long incr, long chunk,
                                       long *istart, long *iend)
{
    return loop_start(start, end, incr, PV_SCHED_DYNAMIC, chunk > 0 ? (pv_ull)chunk : 1,
                      istart, iend);
}

PV_EXPORT bool GOMP_loop_guided_start(long start, long end, long incr, long chunk,
                                      long *istart, long *iend)
{
    return loop_start(start, end, incr, PV_SCHED_GUIDED, chunk > 0 ? (pv_ull)chunk : 1,
                      istart, iend);
}

PV_EXPORT bool GOMP_loop_runtime_start(long start, long end, long incr, long *istart,
                                       long *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return loop_start(start, end, incr, sched, chunk, istart, iend);
}

PV_ALIAS(GOMP_loop_nonmonotonic_dynamic_start, GOMP_loop_dynamic_start);
PV_ALIAS(GOMP_loop_nonmonotonic_guided_start, GOMP_loop_guided_start);
PV_ALIAS(GOMP_loop_nonmonotonic_runtime_start, GOMP_loop_runtime_start);
PV_ALIAS(GOMP_loop_maybe_nonmonotonic_runtime_start, GOMP_loop_runtime_start);

/* OpenMP 5.0 entry: any schedule, task reductions and the `mem` protocol.
 * With istart == NULL the caller only wants the construct (it schedules the
 * iterations itself). */
PV_EXPORT bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk,
                               long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve(sched, chunk, &c);
    struct pv_ws *ws = pv_loop_enter(PV_FORM_LONG, (pv_ull)start, (pv_ull)end, (pv_ull)incr,
                                     kind, c, false, mem);
    if (reductions)
        pv_task_ws_reductions(reductions);
    if (!istart)
        return true;
    pv_ull s0, e0;
    return pv_out_long(ws, pv_iter_next(ws, &s0, &e0), &s0, &e0, istart, iend);
}

/* ------------------------------------------------------------------- next */

/* GOMP_loop_{static,dynamic,guided,runtime}_next and the nonmonotonic
 * aliases (loop.h). */
PV_LOOP_NEXT_FAMILY(GOMP_loop, long, pv_out_long);

/* -------------------------------------------------------- combined forms */

/* The loop of a combined `parallel for`, described before the team forks so
 * that its members start inside it without meeting at the construct. */
struct loop_args {
    pv_ull start, end, incr, chunk;
    int sched;
    unsigned nthreads;
};

static void loop_preinit(struct pv_ws *ws, void *arg)
{
    const struct loop_args *a = arg;
    pv_loop_setup(ws, a->start, a->end, a->incr,
                  pv_count_long((long)a->start, (long)a->end, (long)a->incr), a->sched,
                  a->chunk, a->nthreads);
}

static void parallel_loop(void (*fn)(void *), void *data, unsigned num_threads, long start,
                          long end, long incr, int sched, pv_ull chunk, unsigned flags,
                          bool join)
{
    struct loop_args a = {
        .start = (pv_ull)start, .end = (pv_ull)end, .incr = (pv_ull)incr,
        .chunk = chunk, .sched = sched,
        .nthreads = pv_resolve_num_threads(num_threads, 0),
    };
    if (join)
        pv_team_start_ws(fn, data, a.nthreads, flags, loop_preinit, &a);
    else
        pv_team_fork_ws(fn, data, a.nthreads, flags, loop_preinit, &a);
}

PV_EXPORT void GOMP_parallel_loop_static(void (*fn)(void *), void *data, unsigned num_threads,
                                         long start, long end, long incr, long chunk,
                                         unsigned flags)
{
    parallel_loop(fn, data, num_threads, start, end, incr, PV_SCHED_STATIC,
                  chunk > 0 ? (pv_ull)chunk : 0, flags, true);
}

PV_EXPORT void GOMP_parallel_loop_dynamic(void (*fn)(void *), void *data, unsigned num_threads,
                                          long start, long end, long incr, long chunk,
                                          unsigned flags)
{
    parallel_loop(fn, data, num_threads, start, end, incr, PV_SCHED_DYNAMIC,
                  chunk > 0 ? (pv_ull)chunk : 1, flags, true);
}

PV_EXPORT void GOMP_parallel_loop_guided(void (*fn)(void *), void *data, unsigned num_threads,
                                         long start, long end, long incr, long chunk,
                                         unsigned flags)
{
    parallel_loop(fn, data, num_threads, start, end, incr, PV_SCHED_GUIDED,
                  chunk > 0 ? (pv_ull)chunk : 1, flags, true);
}

PV_EXPORT void GOMP_parallel_loop_runtime(void (*fn)(void *), void *data, unsigned num_threads,
                                          long start, long end, long incr, unsigned flags)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    parallel_loop(fn, data, num_threads, start, end, incr, sched, chunk, flags, true);
}

PV_ALIAS(GOMP_parallel_loop_nonmonotonic_dynamic, GOMP_parallel_loop_dynamic);
PV_ALIAS(GOMP_parallel_loop_nonmonotonic_guided, GOMP_parallel_loop_guided);
PV_ALIAS(GOMP_parallel_loop_nonmonotonic_runtime, GOMP_parallel_loop_runtime);
PV_ALIAS(GOMP_parallel_loop_maybe_nonmonotonic_runtime, GOMP_parallel_loop_runtime);

/* Legacy (GCC < 4.9) forms: fork only; the caller runs fn and calls
 * GOMP_parallel_end. */
PV_EXPORT void GOMP_parallel_loop_static_start(void (*fn)(void *), void *data,
                                               unsigned num_threads, long start, long end,
                                               long incr, long chunk)
{
    parallel_loop(fn, data, num_threads, start, end, incr, PV_SCHED_STATIC,
                  chunk > 0 ? (pv_ull)chunk : 0, 0, false);
}

PV_EXPORT void GOMP_parallel_loop_dynamic_start(void (*fn)(void *), void *data,
                                                unsigned num_threads, long start, long end,
                                                long incr, long chunk)
{
    parallel_loop(fn, data, num_threads, start, end, incr, PV_SCHED_DYNAMIC,
                  chunk > 0 ? (pv_ull)chunk : 1, 0, false);
}

PV_EXPORT void GOMP_parallel_loop_guided_start(void (*fn)(void *), void *data,
                                               unsigned num_threads, long start, long end,
                                               long incr, long chunk)
{
    parallel_loop(fn, data, num_threads, start, end, incr, PV_SCHED_GUIDED,
                  chunk > 0 ? (pv_ull)chunk : 1, 0, false);
}

PV_EXPORT void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data,
                                                unsigned num_threads, long start, long end,
                                                long incr)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    parallel_loop(fn, data, num_threads, start, end, incr, sched, chunk, 0, false);
}

/* ------------------------------------------------------------------- ends */
/* Shared by every loop form (and by ordered and doacross loops). */

PV_EXPORT void GOMP_loop_end(void)
{
    pv_loop_leave();
    pv_ws_end();
}

PV_EXPORT void GOMP_loop_end_nowait(void)
{
    pv_loop_leave();
    pv_ws_end_nowait();
}

PV_EXPORT bool GOMP_loop_end_cancel(void)
{
    pv_loop_leave();
    return pv_ws_end_cancel();
}
