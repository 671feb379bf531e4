/* libgomp's entry points of doacross loops (ordered(n) with depend(sink)
 * and depend(source)): the loop starts, post and wait.  The lanes and their
 * waits are the family mechanism's (doacross.c). */
#include <stdarg.h>

#include "loops/loop.h"
#include "runtime/task_internal.h"

PV_EXPORT void GOMP_doacross_post(long *counts)
{
    pv_doacross_post(counts, false);
}

PV_EXPORT void GOMP_doacross_ull_post(pv_ull *counts)
{
    pv_doacross_post(counts, true);
}

PV_EXPORT void GOMP_doacross_wait(long first, ...)
{
    va_list ap;
    va_start(ap, first);
    pv_doacross_wait((pv_ull)first, ap, false);
    va_end(ap);
}

PV_EXPORT void GOMP_doacross_ull_wait(pv_ull first, ...)
{
    va_list ap;
    va_start(ap, first);
    pv_doacross_wait(first, ap, true);
    va_end(ap);
}

/* ----------------------------------------------------------- loop starts */

static bool doacross_start(unsigned ncounts, long *counts, int sched, pv_ull chunk,
                           void **mem, long *istart, long *iend)
{
    struct pv_ws *ws = pv_doacross_enter(ncounts, counts, false, sched, chunk, mem);
    if (!istart)
        return true;
    pv_ull s0, e0;
    return pv_out_long(ws, pv_iter_next(ws, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_doacross_static_start(unsigned ncounts, long *counts, long chunk,
                                               long *istart, long *iend)
{
    return doacross_start(ncounts, counts, PV_SCHED_STATIC, chunk > 0 ? (pv_ull)chunk : 0,
                          NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_doacross_dynamic_start(unsigned ncounts, long *counts, long chunk,
                                                long *istart, long *iend)
{
    return doacross_start(ncounts, counts, PV_SCHED_DYNAMIC, chunk > 0 ? (pv_ull)chunk : 1,
                          NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_doacross_guided_start(unsigned ncounts, long *counts, long chunk,
                                               long *istart, long *iend)
{
    return doacross_start(ncounts, counts, PV_SCHED_GUIDED, chunk > 0 ? (pv_ull)chunk : 1,
                          NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long *counts, long *istart,
                                                long *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return doacross_start(ncounts, counts, sched, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched, long chunk,
                                        long *istart, long *iend, uintptr_t *reductions,
                                        void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve(sched, chunk, &c);
    bool more = doacross_start(ncounts, counts, kind, c, mem, istart, iend);
    if (reductions)
        pv_task_ws_reductions(reductions);
    return more;
}

static bool doacross_ull_start(unsigned ncounts, pv_ull *counts, int sched, pv_ull chunk,
                               void **mem, pv_ull *istart, pv_ull *iend)
{
    struct pv_ws *ws = pv_doacross_enter(ncounts, counts, true, sched, chunk, mem);
    if (!istart)
        return true;
    pv_ull s0, e0;
    return pv_out_ull(ws, pv_iter_next(ws, &s0, &e0), &s0, &e0, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_doacross_static_start(unsigned ncounts, pv_ull *counts,
                                                   pv_ull chunk, pv_ull *istart, pv_ull *iend)
{
    return doacross_ull_start(ncounts, counts, PV_SCHED_STATIC, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_doacross_dynamic_start(unsigned ncounts, pv_ull *counts,
                                                    pv_ull chunk, pv_ull *istart, pv_ull *iend)
{
    return doacross_ull_start(ncounts, counts, PV_SCHED_DYNAMIC, chunk ? chunk : 1, NULL,
                              istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_doacross_guided_start(unsigned ncounts, pv_ull *counts,
                                                   pv_ull chunk, pv_ull *istart, pv_ull *iend)
{
    return doacross_ull_start(ncounts, counts, PV_SCHED_GUIDED, chunk ? chunk : 1, NULL,
                              istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts, pv_ull *counts,
                                                    pv_ull *istart, pv_ull *iend)
{
    pv_ull chunk;
    int sched = pv_sched_runtime(&chunk);
    return doacross_ull_start(ncounts, counts, sched, chunk, NULL, istart, iend);
}

PV_EXPORT bool GOMP_loop_ull_doacross_start(unsigned ncounts, pv_ull *counts, long sched,
                                            pv_ull chunk, pv_ull *istart, pv_ull *iend,
                                            uintptr_t *reductions, void **mem)
{
    pv_ull c;
    int kind = pv_sched_resolve_ull(sched, chunk, &c);
    bool more = doacross_ull_start(ncounts, counts, kind, c, mem, istart, iend);
    if (reductions)
        pv_task_ws_reductions(reductions);
    return more;
}
