/* libgomp's entry points of the ordered construct and of ordered loops:
 * GOMP_ordered_start/end and the GOMP_loop_*ordered_* family.  The
 * hand-over of the turn between chunks is the family mechanism
 * (ordered.c: pv_ordered_next, pv_ordered_turn_wait in
 * loop.h). */
#include "abi/gomp.h"
#include "loops/loop.h"
#include "runtime/task_internal.h"
#include "ompt/patch.h"

/* With a tool: the mutex events around the wait for the turn (out of line:
 * without a tool GOMP_ordered_start needs no frame).  ws: NULL outside an
 * ordered loop. */
static __attribute__((noinline, cold)) void ordered_start_under_tool(struct pv_ws *ws,
                                                                     const void *ra)
{
    pv_ompt_mutex_acquire(ompt_mutex_ordered, ws, ra);
    if (ws)
        pv_ordered_region_wait(ws);
    pv_ompt_mutex_acquired(ompt_mutex_ordered, ws, ra);
}

/* The tool's test shares the loop's: an ordered loop that began with a tool
 * attached has ordered_start_work set (pv_ordered_setup). */
PV_EXPORT void GOMP_ordered_start(void)
{
    struct pv_ws *ws = pv_thr.ts.ws;
    if (ws && ws->ordered_start_work) {
        if (pv_ompt_tool())
            ordered_start_under_tool(ws, pv_ompt_entry_ra());
        else
            pv_ordered_region_wait(ws);
    } else if (!ws && pv_ompt_tool()) {
        ordered_start_under_tool(NULL, pv_ompt_entry_ra());
    }
}

/* GOMP_ordered_end: the turn moves on when the chunk is done
 * (ordered.c),
 * so without a tool there is nothing to do: the entry is a lone `ret`, which
 * a tool's start patches into a jump to the released event
 * (PV_OMPT_PATCHED, ompt/patch.h). */
static __attribute__((used)) void ordered_end_told(void)
{
    pv_ompt_mutex_released(ompt_mutex_ordered, pv_thr.ts.ws, pv_ompt_entry_ra());
}

PV_OMPT_PATCHED(GOMP_ordered_end, ordered_end_told);

/* Every ordered *_next does the same: the schedule is in the slot. */
static inline bool ordered_next(struct pv_ws *ws, pv_ull *s0, pv_ull *e0)
{
    return pv_ordered_next(ws, false, s0, e0);
}

/* A family's prefix##_ordered_runtime_next (loop.h), also exported as its
 * static, dynamic and guided *_next. */
#define ORDERED_NEXT_FAMILY(prefix, type, out)                                     \
    PV_LOOP_NEXT(prefix##_ordered_runtime_next, ordered_next, type, out)           \
    PV_ALIAS(prefix##_ordered_static_next, prefix##_ordered_runtime_next);         \
    PV_ALIAS(prefix##_ordered_dynamic_next, prefix##_ordered_runtime_next);        \
    PV_ALIAS(prefix##_ordered_guided_next, prefix##_ordered_runtime_next)

/* ------------------------------------------------------ long entry points */

static bool ordered_start(long start, long end, long incr, int sched, pv_ull chunk,
                          void **mem, long *istart, long *iend)
{
    struct pv_ws *ws = pv_loop_enter(PV_FORM_LONG, (pv_ull)start, (pv_ull)end, (pv_ull)incr,
                                     sched, chunk, true, mem);
    pv_ull s0, e0;
    return pv_out_long(ws, pv_ordered_next(ws, true, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_static_start(long start, long end, long incr, long chunk,
                                              long *istart, long *iend)
{
    return ordered_start(start, end, incr, PV_SCHED_STATIC, chunk > 0 ? (pv_ull)chunk : 0,
                         NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_dynamic_start(long start, long end, long incr, long chunk,
                                               long *istart, long *iend)
{
    return ordered_start(start, end, incr, PV_SCHED_DYNAMIC, chunk > 0 ? (pv_ull)chunk : 1,
                         NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_guided_start(long start, long end, long incr, long chunk,
                                              long *istart, long *iend)
{
    return ordered_start(start, end, incr, PV_SCHED_GUIDED, chunk > 0 ? (pv_ull)chunk : 1,
                         NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_runtime_start(long start, long end, long incr, long *istart,
                                               long *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return ordered_start(start, end, incr, sched, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ordered_start(long start, long end, long incr, long sched, long chunk,
                                       long *istart, long *iend, uintptr_t *reductions,
                                       void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve(sched, chunk, &c);
    bool more = ordered_start(start, end, incr, kind, c, mem, istart, iend);
    if (reductions)
        pv_task_ws_reductions(reductions);
    return more;
}

/* GOMP_loop_ordered_{static,dynamic,guided,runtime}_next */
ORDERED_NEXT_FAMILY(GOMP_loop, long, pv_out_long);

/* ---------------------------------------- unsigned long long entry points */

static bool ordered_ull_start(bool up, pv_ull start, pv_ull end, pv_ull incr, int sched,
                              pv_ull chunk, void **mem, pv_ull *istart, pv_ull *iend)
{
    struct pv_ws *ws = pv_loop_enter(up ? PV_FORM_ULL_UP : PV_FORM_ULL_DOWN, start, end, incr,
                                     sched, chunk, true, mem);
    pv_ull s0, e0;
    return pv_out_ull(ws, pv_ordered_next(ws, true, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_static_start(bool up, pv_ull start, pv_ull end,
                                                  pv_ull incr, pv_ull chunk, pv_ull *istart,
                                                  pv_ull *iend)
{
    return ordered_ull_start(up, start, end, incr, PV_SCHED_STATIC, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_dynamic_start(bool up, pv_ull start, pv_ull end,
                                                   pv_ull incr, pv_ull chunk, pv_ull *istart,
                                                   pv_ull *iend)
{
    return ordered_ull_start(up, start, end, incr, PV_SCHED_DYNAMIC, chunk ? chunk : 1, NULL,
                             istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_guided_start(bool up, pv_ull start, pv_ull end,
                                                  pv_ull incr, pv_ull chunk, pv_ull *istart,
                                                  pv_ull *iend)
{
    return ordered_ull_start(up, start, end, incr, PV_SCHED_GUIDED, chunk ? chunk : 1, NULL,
                             istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_runtime_start(bool up, pv_ull start, pv_ull end,
                                                   pv_ull incr, pv_ull *istart, pv_ull *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return ordered_ull_start(up, start, end, incr, sched, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_ordered_start(bool up, pv_ull start, pv_ull end, pv_ull incr,
                                           long sched, pv_ull chunk, pv_ull *istart,
                                           pv_ull *iend, uintptr_t *reductions, void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve_ull(sched, chunk, &c);
    bool more = ordered_ull_start(up, start, end, incr, kind, c, mem, istart, iend);
    if (reductions)
        pv_task_ws_reductions(reductions);
    return more;
}

/* GOMP_loop_ull_ordered_{static,dynamic,guided,runtime}_next */
ORDERED_NEXT_FAMILY(GOMP_loop_ull, pv_ull, pv_out_ull);
