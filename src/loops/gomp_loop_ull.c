/* Worksharing loops over `unsigned long long` iteration variables.  `up`
 * tells the direction; a decreasing loop passes its step as a two's
 * complement value.  Same construction as gomp_loop.c; GOMP_loop_end* are
 * shared with it. */
#include "abi/gomp.h"
#include "loops/loop.h"
#include "runtime/task_internal.h"

static inline enum pv_form form_of(bool up)
{
    return up ? PV_FORM_ULL_UP : PV_FORM_ULL_DOWN;
}

static bool loop_ull_start(bool up, pv_ull start, pv_ull end, pv_ull incr, int sched,
                           pv_ull chunk, pv_ull *istart, pv_ull *iend)
{
    struct pv_ws *ws = pv_loop_enter(form_of(up), start, end, incr, sched, chunk, false, NULL);
    pv_ull s0, e0;
    return pv_out_ull(ws, pv_iter_next(ws, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_static_start(bool up, pv_ull start, pv_ull end, pv_ull incr,
                                          pv_ull chunk, pv_ull *istart, pv_ull *iend)
{
    return loop_ull_start(up, start, end, incr, PV_SCHED_STATIC, chunk, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_dynamic_start(bool up, pv_ull start, pv_ull end, pv_ull incr,
                                           pv_ull chunk, pv_ull *istart, pv_ull *iend)
{
    return loop_ull_start(up, start, end, incr, PV_SCHED_DYNAMIC, chunk ? chunk : 1, istart,
                          iend);
}

PV_EXPORT bool GOMP_loop_ull_guided_start(bool up, pv_ull start, pv_ull end, pv_ull incr,
                                          pv_ull chunk, pv_ull *istart, pv_ull *iend)
{
    return loop_ull_start(up, start, end, incr, PV_SCHED_GUIDED, chunk ? chunk : 1, istart,
                          iend);
}

PV_EXPORT bool GOMP_loop_ull_runtime_start(bool up, pv_ull start, pv_ull end, pv_ull incr,
                                           pv_ull *istart, pv_ull *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return loop_ull_start(up, start, end, incr, sched, chunk, istart, iend);
}

PV_ALIAS(GOMP_loop_ull_nonmonotonic_dynamic_start, GOMP_loop_ull_dynamic_start);
PV_ALIAS(GOMP_loop_ull_nonmonotonic_guided_start, GOMP_loop_ull_guided_start);
PV_ALIAS(GOMP_loop_ull_nonmonotonic_runtime_start, GOMP_loop_ull_runtime_start);
PV_ALIAS(GOMP_loop_ull_maybe_nonmonotonic_runtime_start, GOMP_loop_ull_runtime_start);

PV_EXPORT bool GOMP_loop_ull_start(bool up, pv_ull start, pv_ull end, pv_ull incr, long sched,
                                   pv_ull chunk, pv_ull *istart, pv_ull *iend,
                                   uintptr_t *reductions, void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve_ull(sched, chunk, &c);
    struct pv_ws *ws = pv_loop_enter(form_of(up), start, end, incr, kind, c, false, mem);
    if (reductions)
        pv_task_ws_reductions(reductions);
    if (!istart)
        return true;
    pv_ull s0, e0;
    return pv_out_ull(ws, pv_iter_next(ws, &s0, &e0), &s0, &e0, istart, iend);
}

/* ------------------------------------------------------------------- next */

/* GOMP_loop_ull_{static,dynamic,guided,runtime}_next and the nonmonotonic
 * aliases (loop.h). */
PV_LOOP_NEXT_FAMILY(GOMP_loop_ull, pv_ull, pv_out_ull);
