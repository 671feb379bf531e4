/* What the loop family (src/loops: the entry points gomp_*.c and kmpc_*.c,
 * and the mechanism iter.c, iter_ull.c, ordered.c, doacross.c)
 * shares.
 *
 * Every loop is reduced to a count n of zero-based iterations; iteration k
 * is start + k * incr computed modulo 2^64 (see struct pv_ws).  Schedulers
 * hand out half-open ranges [s0, e0) of iteration numbers; the entry points
 * turn them back into the caller's values.  Counting from zero keeps the
 * schedulers free of signed overflow and of the four direction/signedness
 * cases, which only the count functions have to know about. */
#ifndef PV_LOOPS_LOOP_H
#define PV_LOOPS_LOOP_H

#include <stdarg.h>

#include "loops/iter.h"
#include "ompt/ompt.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"
#include "trace/trace.h"

/* A second exported name for an entry point of the same file. */
#define PV_ALIAS(name, target) \
    extern __typeof(target) name PV_EXPORT __attribute__((alias(#target)))

/* ---------------------------------------------------------------- counts */
/* Iterations of for (i = start; i < end (or > end); i += incr). */
pv_ull pv_count_long(long start, long end, long incr);
pv_ull pv_count_ull(bool up, pv_ull start, pv_ull end, pv_ull incr);

/* ------------------------------------------------------------- set-up */
/* Resolve a schedule as the GOMP ABI encodes it (runtime and auto included,
 * monotonic flag ignored) into static, dynamic or guided and a chunk size in
 * iterations (static: 0 = one block per thread; dynamic/guided: >= 1). */
int pv_sched_resolve(long sched, long chunk, pv_ull *chunk_out);
int pv_sched_resolve_ull(long sched, pv_ull chunk, pv_ull *chunk_out);
/* The run-sched-var ICV, resolved the same way. */
int pv_sched_runtime(pv_ull *chunk_out);

/* Describe a loop of n iterations in ws (by the initialiser, or by preinit
 * for combined constructs, hence the explicit team size). */
void pv_loop_setup(struct pv_ws *ws, pv_ull start, pv_ull end, pv_ull incr, pv_ull n,
                   int sched, pv_ull chunk, unsigned nthreads);

/* `mem` protocol of GOMP_loop_start and friends: the initialiser allocates
 * *mem zeroed bytes shared by the team; every thread gets the address. */
void pv_ws_mem_init(struct pv_ws *ws, void **mem);
static inline void pv_ws_mem_get(struct pv_ws *ws, void **mem)
{
    if (mem)
        *mem = ws->mem;
}

/* The end of entering a construct that may have a `mem` block (loops,
 * doacross loops, sections): the initialiser (`init`, from pv_ws_start), once
 * it has described ws, allocates the block and publishes the slot; everyone
 * else got the slot READY and reads the block's address. */
static inline void pv_ws_enter_done(struct pv_ws *ws, bool init, void **mem)
{
    if (init) {
        pv_ws_mem_init(ws, mem);
        pv_ws_init_done();
    } else {
        pv_ws_mem_get(ws, mem);
    }
}

/* The three forms of loop bounds the ABI passes. */
enum pv_form { PV_FORM_LONG, PV_FORM_ULL_UP, PV_FORM_ULL_DOWN };

static inline pv_ull pv_count(enum pv_form form, pv_ull start, pv_ull end, pv_ull incr)
{
    if (form == PV_FORM_LONG)
        return pv_count_long((long)start, (long)end, (long)incr);
    return pv_count_ull(form == PV_FORM_ULL_UP, start, end, incr);
}

void pv_ordered_setup(struct pv_ws *ws, unsigned nthreads);

/* Enter a loop construct: the initialiser describes it, everyone gets it. */
static inline struct pv_ws *pv_loop_enter(enum pv_form form, pv_ull start, pv_ull end,
                                          pv_ull incr, int sched, pv_ull chunk,
                                          bool ordered, void **mem)
{
    bool init = pv_ws_start();
    struct pv_ws *ws = pv_thr.ts.ws;
    if (init) {
        unsigned nthr = pv_team_size();
        pv_loop_setup(ws, start, end, incr, pv_count(form, start, end, incr), sched, chunk,
                      nthr);
        if (ordered)
            pv_ordered_setup(ws, nthr);
    }
    pv_ws_enter_done(ws, init, mem);
    if (pv_ompt_tool())
        pv_ompt_loop_begin(ws);
    return ws;
}

/* ----------------------------------------------------------- schedulers */
/* In iter.h, inline: pv_iter_static/dynamic/guided/next, pv_guided_end,
 * pv_iter_bounds. */

/* Observers of every chunk handed out (trace point, OMPT dispatch).  Called
 * last, after the results are stored.  One test for both, loop_chunk's
 * flag, in which an attached tool sets a bit of its own (ompt/observe.c),
 * and one call, so that the hot path keeps nothing alive across calls and
 * needs no register saves. */
void pv_chunk_observe_slow(const struct pv_ws *ws, pv_ull s0, pv_ull e0);
static inline void pv_chunk_observe(const struct pv_ws *ws, pv_ull s0, pv_ull e0)
{
    if (pv_trace_site_on(PV_TRACE_EV_loop_chunk))
        pv_chunk_observe_slow(ws, s0, e0);
}

/* Hand a range back through the ABI's pointers; false when there is none.
 * s0 and e0 are read only when `got` (evaluated first, as an argument). */
static inline bool pv_out_long(const struct pv_ws *ws, bool got, const pv_ull *s0,
                               const pv_ull *e0, long *istart, long *iend)
{
    if (!got)
        return false;
    pv_ull a, b;
    pv_iter_bounds(ws, *s0, *e0, &a, &b);
    *istart = (long)a;
    *iend = (long)b;
    pv_chunk_observe(ws, *s0, *e0);
    return true;
}

static inline bool pv_out_ull(const struct pv_ws *ws, bool got, const pv_ull *s0,
                              const pv_ull *e0, pv_ull *istart, pv_ull *iend)
{
    if (!got)
        return false;
    pv_iter_bounds(ws, *s0, *e0, istart, iend);
    pv_chunk_observe(ws, *s0, *e0);
    return true;
}

/* The current thread's construct. */
static inline struct pv_ws *pv_cur_ws(void)
{
    return pv_thr.ts.ws;
}

/* The exported *_next entry point `name`: the calling thread's next range,
 * from `take` (a scheduler of iter.h or one of the same signature), handed
 * back through `out` (pv_out_long or pv_out_ull, as the caller's `type`).
 * A macro because every ABI family needs its own exported function; each
 * one is the same inline code. */
#define PV_LOOP_NEXT(name, take, type, out)                         \
    PV_EXPORT bool name(type *istart, type *iend)                   \
    {                                                               \
        struct pv_ws *ws = pv_cur_ws();                             \
        pv_ull s0, e0;                                              \
        return out(ws, take(ws, &s0, &e0), &s0, &e0, istart, iend); \
    }

/* A family's four *_next entry points, prefix##_{static,dynamic,guided,
 * runtime}_next, and their nonmonotonic aliases (GOMP_loop in gomp_loop.c,
 * GOMP_loop_ull in gomp_loop_ull.c). */
#define PV_LOOP_NEXT_FAMILY(prefix, type, out)                                   \
    PV_LOOP_NEXT(prefix##_static_next, pv_iter_static, type, out)                \
    PV_LOOP_NEXT(prefix##_dynamic_next, pv_iter_dynamic, type, out)              \
    PV_LOOP_NEXT(prefix##_guided_next, pv_iter_guided, type, out)                \
    PV_LOOP_NEXT(prefix##_runtime_next, pv_iter_next, type, out)                 \
    PV_ALIAS(prefix##_nonmonotonic_dynamic_next, prefix##_dynamic_next);         \
    PV_ALIAS(prefix##_nonmonotonic_guided_next, prefix##_guided_next);           \
    PV_ALIAS(prefix##_nonmonotonic_runtime_next, prefix##_runtime_next);         \
    PV_ALIAS(prefix##_maybe_nonmonotonic_runtime_next, prefix##_runtime_next)

/* ------------------------------------------------------------- ordered */
/* pv_ordered_setup (above): prepare ws for ordered regions (initialiser). */
/* Next chunk of an ordered loop: passes the turn on for the chunk the thread
 * held, then takes a new one.  `first` for the *_start entry points. */
bool pv_ordered_next(struct pv_ws *ws, bool first, pv_ull *s0, pv_ull *e0);
/* Leaving an ordered loop: give up a chunk still held. */
void pv_ordered_leave(struct pv_ws *ws);

/* Wait until the chunk starting at s0 has the turn.  Turns only grow, and
 * never past a chunk that is still held, so `>=` is `==` in a correct
 * program; it keeps a program with stray ordered regions from hanging. */
void pv_ordered_turn_wait_slow(struct pv_ws *ws, pv_ull s0);
static inline void pv_ordered_turn_wait(struct pv_ws *ws, pv_ull s0)
{
    /* Acquire: the previous chunk's ordered regions happen before ours. */
    if (pv_unlikely(atomic_load_explicit(&ws->ord.turn, memory_order_acquire) < s0))
        pv_ordered_turn_wait_slow(ws, s0);
}

/* An ordered region's start (GOMP_ordered_start): wait for the turn of the
 * chunk this thread holds, if the loop hands turns on (more than one thread). */
static inline void pv_ordered_region_wait(struct pv_ws *ws)
{
    if (ws->ordered_loop) {
        unsigned long held = pv_thr.ts.static_trip;
        if (held)
            pv_ordered_turn_wait(ws, held - 1);
    }
}

static inline void pv_loop_leave(void)
{
    struct pv_ws *ws = pv_cur_ws();
    if (pv_unlikely(ws->ordered_loop))
        pv_ordered_leave(ws);
}

/* ------------------------------------------------------------ doacross */
/* Initialiser of a doacross loop: counts[0..ncounts-1] are the iteration
 * counts of the ordered(n) nest, as long (is_ull false) or unsigned long long. */
void pv_doacross_setup(struct pv_ws *ws, unsigned ncounts, const void *counts, bool is_ull);
/* Enter a doacross loop (GOMP_loop_*doacross_start): iterations
 * 0..counts[0]-1 of the outermost loop, with a tool's loop begin. */
struct pv_ws *pv_doacross_enter(unsigned ncounts, const void *counts, bool is_ull, int sched,
                                pv_ull chunk, void **mem);
/* The current loop's post of the vector `counts` (GOMP_doacross_post), and
 * wait for the vector `first, ap...` (GOMP_doacross_wait); a tool hears of
 * each first. */
void pv_doacross_post(const void *counts, bool is_ull);
void pv_doacross_wait(pv_ull first, va_list ap, bool is_ull);

#endif
