/* Sections: section i (1-based) of `count`.  The first min(count, team
 * size, 64) go one to each thread, section t + 1 to thread t on its first
 * take (every thread of the team encounters the construct), as a static
 * schedule would; the others go to whichever thread asks first, as a
 * dynamic loop over the rest with chunks of one.  GOMP_sections_start/next
 * return the section number, 0 when none is left.  The count fits in 32
 * bits, so the cursor's fetch_add cannot wrap. */
#include "loops/loop.h"
#include "runtime/task_internal.h"

static inline unsigned sections_own(const struct pv_ws *ws)
{
    pv_ull own = ws->n < ws->nthreads ? ws->n : ws->nthreads;
    return own < 64 ? (unsigned)own : 64;
}

static void sections_setup(struct pv_ws *ws, unsigned count, unsigned nthreads)
{
    pv_loop_setup(ws, 1, (pv_ull)count + 1, 1, count, PV_SCHED_DYNAMIC, 1, nthreads);
    atomic_store_explicit(&ws->next, sections_own(ws), memory_order_relaxed);
    atomic_store_explicit(&ws->own_taken, 0, memory_order_relaxed);
}

static inline unsigned sections_take(struct pv_ws *ws)
{
    /* Relaxed: only divides work (see iter.c); bit t is only set by thread t. */
    unsigned me = pv_thr.ts.team_id;
    pv_ull s0;
    if (me < sections_own(ws) &&
        !(atomic_load_explicit(&ws->own_taken, memory_order_relaxed) & (1ull << me))) {
        atomic_fetch_or_explicit(&ws->own_taken, 1ull << me, memory_order_relaxed);
        s0 = me;
    } else {
        s0 = atomic_fetch_add_explicit(&ws->next, 1, memory_order_relaxed);
        if (s0 >= ws->n)
            return 0;
    }
    if (pv_ompt_tool())
        pv_ompt_dispatch_section();
    trace_section((unsigned)s0 + 1);
    return (unsigned)s0 + 1;
}

static struct pv_ws *sections_enter(unsigned count, void **mem)
{
    bool init = pv_ws_start();
    struct pv_ws *ws = pv_thr.ts.ws;
    if (init)
        sections_setup(ws, count, pv_team_size());
    pv_ws_enter_done(ws, init, mem);
    if (pv_ompt_tool())
        pv_ompt_sections_begin(ws);
    return ws;
}

PV_EXPORT unsigned GOMP_sections_start(unsigned count)
{
    return sections_take(sections_enter(count, NULL));
}

PV_EXPORT unsigned GOMP_sections2_start(unsigned count, uintptr_t *reductions, void **mem)
{
    struct pv_ws *ws = sections_enter(count, mem);
    if (reductions)
        pv_task_ws_reductions(reductions);
    return sections_take(ws);
}

PV_EXPORT unsigned GOMP_sections_next(void)
{
    return sections_take(pv_thr.ts.ws);
}

PV_EXPORT void GOMP_sections_end(void)
{
    pv_ws_end();
}

PV_EXPORT void GOMP_sections_end_nowait(void)
{
    pv_ws_end_nowait();
}

PV_EXPORT bool GOMP_sections_end_cancel(void)
{
    return pv_ws_end_cancel();
}

/* ------------------------------------------------------- parallel sections */

struct sections_args {
    unsigned count, nthreads;
};

static void sections_preinit(struct pv_ws *ws, void *arg)
{
    const struct sections_args *a = arg;
    sections_setup(ws, a->count, a->nthreads);
}

PV_EXPORT void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                                      unsigned count, unsigned flags)
{
    struct sections_args a = {count, pv_resolve_num_threads(num_threads, count)};
    if (pv_ompt_tool())
        pv_ompt_thr.combined = 1; /* slot 0 holds sections */
    pv_team_start_ws(fn, data, a.nthreads, flags, sections_preinit, &a);
}

/* Legacy form: fork only; the caller runs fn and calls GOMP_parallel_end. */
PV_EXPORT void GOMP_parallel_sections_start(void (*fn)(void *), void *data,
                                            unsigned num_threads, unsigned count)
{
    struct sections_args a = {count, pv_resolve_num_threads(num_threads, count)};
    if (pv_ompt_tool())
        pv_ompt_thr.combined = 1; /* slot 0 holds sections */
    pv_team_fork_ws(fn, data, a.nthreads, 0, sections_preinit, &a);
}
