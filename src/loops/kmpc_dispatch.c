/* Dynamically dispatched loops through libomp's ABI: __kmpc_dispatch_init_*
 * starts a GOMP loop of the matching schedule (ordered too), and each
 * __kmpc_dispatch_next_* hands out its next chunk as libomp does, as an
 * inclusive range [*p_lb, *p_ub] with stride *p_st and *p_last set on the
 * chunk holding the last iteration.  Returning 0 ends the loop for this
 * thread without a barrier (clang emits the barrier itself).
 *
 * The GOMP loop hands out chunks as [istart, iend) with iend clipped to the
 * loop's end, so the inclusive upper bound is iend -/+ 1 and the last chunk
 * is the one whose iend is the loop's end.  Signed loops run as GOMP `long`
 * loops, unsigned ones as `unsigned long long` loops.
 *
 * libomp's simd schedules keep every chunk but the last a multiple of the
 * simd width: static_balanced_chunked (45) gives each thread one block
 * rounded up to the chunk; guided_simd (46) runs the GOMP guided loop over
 * groups of `chunk` iterations (chunks shrink as libgomp's guided does, by
 * the number of threads, where libomp's shrink by twice that);
 * runtime_simd (47) reads run-sched-var as libomp does (see simd_resolve);
 * so does runtime (37), through libomp's view of it (runtime_kind).
 *
 * ENTRY: __kmpc_dispatch_init only enters the construct (GOMP_loop_start
 * without a first range), as libomp's takes no chunk: a thread may take
 * none at all, or take them only after the others took theirs (an ordered
 * loop's start still takes the first one, held for the first next call).
 *
 * KNOWN LIMIT: one dispatch state per thread, so a dispatch loop inside the
 * body of another on the same thread (through a nested parallel region that
 * the thread leads) is not supported yet. */
#include "abi/kmpc.h"
#include "runtime/icv.h"
#include "runtime/thread.h"

typedef unsigned long long ull;

enum gomp_kind { K_STATIC, K_DYNAMIC, K_GUIDED };
/* GOMP_loop_start's schedule numbers. */
static const long gomp_sched[] = {[K_STATIC] = 1, [K_DYNAMIC] = 2, [K_GUIDED] = 3};

/* schedule(runtime): run-sched-var as libomp's routines see it (its default
 * is static, libgomp's dynamic,1: abi/kmpc_sched.c), so that a clang program
 * runs what its omp_get_schedule reports.  The loop may be the program's
 * first clang entry, hence pv_kmpc_start. */
static enum gomp_kind runtime_kind(long *chunk)
{
    pv_kmpc_start();
    int kind, c;
    pv_icv_schedule(pv_icv_get(), &kind, &c);
    pv_kmpc_sched_view(&kind, &c);
    *chunk = c;
    switch ((unsigned)kind & ~PV_KMP_SCHED_MONOTONIC) {
    case 1: /* static */
        return K_STATIC;
    case 2: /* dynamic */
        return K_DYNAMIC;
    case 3: /* guided */
    case PV_KMP_SCHED_TRAPEZOIDAL:
        return K_GUIDED;
    default: /* auto: static, as libgomp chooses */
        *chunk = 0;
        return K_STATIC;
    }
}

/* libomp's schedule number -> the GOMP loop that implements it. */
static enum gomp_kind gomp_kind(kmp_int32 schedule, bool *ordered, long *chunk)
{
    int kind = schedule & ~(kmp_int32)PV_KMP_SCHED_MODIFIERS;
    *ordered = kind >= PV_KMP_ORD_LOWER && kind <= PV_KMP_ORD_UPPER;
    if (*ordered)
        kind -= PV_KMP_ORD_LOWER - PV_KMP_STATIC_CHUNKED;
    switch (kind) {
    case PV_KMP_STATIC_CHUNKED:
    case PV_KMP_STATIC_BALANCED_CHUNKED:
        return K_STATIC;
    case PV_KMP_STATIC:
    case PV_KMP_STATIC_GREEDY:
    case PV_KMP_STATIC_BALANCED:
    case PV_KMP_STATIC_STEAL:
    case PV_KMP_AUTO: /* auto: the implementation's choice, static as libgomp */
        *chunk = 0;
        return K_STATIC;
    case PV_KMP_DYNAMIC_CHUNKED:
        return K_DYNAMIC;
    case PV_KMP_GUIDED_CHUNKED:
    case PV_KMP_GUIDED_ITERATIVE:
    case PV_KMP_GUIDED_ANALYTICAL:
    case PV_KMP_GUIDED_SIMD:
    case PV_KMP_TRAPEZOIDAL:
        return K_GUIDED;
    default: /* runtime, and anything unknown */
        return runtime_kind(chunk);
    }
}

/* libomp's simd schedules, for a loop of tc iterations: 47 (the compiler
 * passes the simd width as the chunk) becomes run-sched-var's schedule, its
 * chunk times the width (static without a chunk, and auto: 45 with the
 * width); 45 becomes static chunked by each thread's block rounded up to the
 * chunk.  Returns the group size for 46 (guided over groups), else 0. */
static ull simd_resolve(kmp_int32 *schedule, long *chunk, ull tc)
{
    long width = *chunk > 0 ? *chunk : 1;
    if (*schedule == PV_KMP_RUNTIME_SIMD) {
        static const kmp_int32 simd_schedule[] = {[K_STATIC] = PV_KMP_STATIC_CHUNKED,
                                                  [K_DYNAMIC] = PV_KMP_DYNAMIC_CHUNKED,
                                                  [K_GUIDED] = PV_KMP_GUIDED_SIMD};
        long c;
        enum gomp_kind k = runtime_kind(&c);
        if (k == K_STATIC && c <= 0) { /* static unchunked, auto */
            *schedule = PV_KMP_STATIC_BALANCED_CHUNKED;
        } else {
            *chunk = width * (c > 0 ? c : 1);
            *schedule = simd_schedule[k];
        }
    }
    if (*schedule == PV_KMP_STATIC_BALANCED_CHUNKED) {
        ull nth = (ull)omp_get_num_threads(), w = (ull)width;
        ull block = nth > 1 ? ((tc + nth - 1) / nth + w - 1) / w * w : tc;
        *chunk = block > 0 ? (long)block : 1;
        *schedule = PV_KMP_STATIC_CHUNKED;
    }
    if (*schedule == PV_KMP_GUIDED_SIMD)
        return (ull)(*chunk > 0 ? *chunk : 1);
    return 0;
}

/* The loop this thread is handing out (see KNOWN LIMIT above). */
static __thread struct {
    bool (*next_l)(long *, long *);
    bool (*next_u)(ull *, ull *);
    bool have_first; /* the chunk the start call returned is not handed out yet */
    long first_l, first_le;
    ull first_u, first_ue;
    long end_l;
    ull end_u;
    long incr;
    ull last_iter; /* the loop's last iteration: the last chunk's upper bound */
    /* guided_simd: the GOMP loop counts groups of `group` iterations from
     * 0 to `groups`; the chunks start at `lb_l`/`lb_u` (0: not grouped). */
    ull group, groups;
    long lb_l;
    ull lb_u;
} disp;

/* Iterations of the loop lb..ub (inclusive) by st: modulo 2^64, so that
 * the difference cannot overflow. */
static ull trip_count(ull lb, ull ub, long st, bool up)
{
    ull span = up ? ub - lb : lb - ub, step = st > 0 ? (ull)st : -(ull)st;
    return span / step + 1;
}

static void init_signed(kmp_int32 schedule, long lb, long ub, long st, long chunk)
{
    bool ordered;
    long end = st > 0 ? ub + 1 : ub - 1;
    if (schedule >= PV_KMP_STATIC_BALANCED_CHUNKED && schedule <= PV_KMP_RUNTIME_SIMD &&
        (st > 0 ? lb <= ub : lb >= ub)) {
        ull tc = trip_count((ull)lb, (ull)ub, st, st > 0);
        disp.group = simd_resolve(&schedule, &chunk, tc);
        if (disp.group) { /* guided over groups: [0, groups) by 1 */
            disp.groups = (tc + disp.group - 1) / disp.group;
            disp.lb_l = lb;
            disp.end_l = end;
            disp.next_l = GOMP_loop_guided_next;
            disp.have_first = false;
            GOMP_loop_start(0, (long)disp.groups, 1, gomp_sched[K_GUIDED], 1, NULL, NULL, NULL,
                            NULL);
            return;
        }
    }
    disp.group = 0;
    enum gomp_kind k = gomp_kind(schedule, &ordered, &chunk);
    if (k != K_STATIC && chunk <= 0)
        chunk = 1;
    disp.end_l = end;
    if (!ordered) { /* enter only: libomp's init takes no chunk (see ENTRY) */
        static bool (*const next[])(long *, long *) = {
            [K_STATIC] = GOMP_loop_static_next, [K_DYNAMIC] = GOMP_loop_dynamic_next,
            [K_GUIDED] = GOMP_loop_guided_next};
        disp.have_first = false;
        disp.next_l = next[k];
        GOMP_loop_start(lb, end, st, gomp_sched[k], chunk, NULL, NULL, NULL, NULL);
        return;
    }
    long *s = &disp.first_l, *e = &disp.first_le;
    bool got;
    switch (k) {
    case K_STATIC:
        got = ordered ? GOMP_loop_ordered_static_start(lb, end, st, chunk, s, e)
                      : GOMP_loop_static_start(lb, end, st, chunk, s, e);
        disp.next_l = ordered ? GOMP_loop_ordered_static_next : GOMP_loop_static_next;
        break;
    case K_DYNAMIC:
        got = ordered ? GOMP_loop_ordered_dynamic_start(lb, end, st, chunk, s, e)
                      : GOMP_loop_dynamic_start(lb, end, st, chunk, s, e);
        disp.next_l = ordered ? GOMP_loop_ordered_dynamic_next : GOMP_loop_dynamic_next;
        break;
    default: /* K_GUIDED */
        got = ordered ? GOMP_loop_ordered_guided_start(lb, end, st, chunk, s, e)
                      : GOMP_loop_guided_start(lb, end, st, chunk, s, e);
        disp.next_l = ordered ? GOMP_loop_ordered_guided_next : GOMP_loop_guided_next;
        break;
    }
    disp.have_first = got;
    disp.end_l = end;
    if (!got)
        disp.next_l = NULL; /* nothing for this thread: the next call ends it */
}

static void init_unsigned(kmp_int32 schedule, ull lb, ull ub, long st, long chunk_in)
{
    bool ordered, up = st > 0;
    long chunk = chunk_in;
    if (schedule >= PV_KMP_STATIC_BALANCED_CHUNKED && schedule <= PV_KMP_RUNTIME_SIMD &&
        (up ? lb <= ub : lb >= ub)) {
        ull tc = trip_count(lb, ub, st, up);
        disp.group = simd_resolve(&schedule, &chunk, tc);
        if (disp.group) {
            disp.groups = (tc + disp.group - 1) / disp.group;
            disp.lb_u = lb;
            disp.end_u = up ? ub + 1 : ub - 1;
            disp.next_u = GOMP_loop_ull_guided_next;
            disp.have_first = false;
            GOMP_loop_ull_start(true, 0, disp.groups, 1, gomp_sched[K_GUIDED], 1, NULL, NULL,
                                NULL, NULL);
            return;
        }
    }
    disp.group = 0;
    enum gomp_kind k = gomp_kind(schedule, &ordered, &chunk);
    ull end = up ? ub + 1 : ub - 1, incr = (ull)st, c = chunk > 0 ? (ull)chunk : 0;
    if (k != K_STATIC && c == 0)
        c = 1;
    disp.end_u = end;
    if (!ordered) { /* enter only, as init_signed */
        static bool (*const next[])(ull *, ull *) = {
            [K_STATIC] = GOMP_loop_ull_static_next, [K_DYNAMIC] = GOMP_loop_ull_dynamic_next,
            [K_GUIDED] = GOMP_loop_ull_guided_next};
        disp.have_first = false;
        disp.next_u = next[k];
        GOMP_loop_ull_start(up, lb, end, incr, gomp_sched[k], c, NULL, NULL, NULL, NULL);
        return;
    }
    ull *s = &disp.first_u, *e = &disp.first_ue;
    bool got;
    switch (k) {
    case K_STATIC:
        got = ordered ? GOMP_loop_ull_ordered_static_start(up, lb, end, incr, c, s, e)
                      : GOMP_loop_ull_static_start(up, lb, end, incr, c, s, e);
        disp.next_u = ordered ? GOMP_loop_ull_ordered_static_next : GOMP_loop_ull_static_next;
        break;
    case K_DYNAMIC:
        got = ordered ? GOMP_loop_ull_ordered_dynamic_start(up, lb, end, incr, c, s, e)
                      : GOMP_loop_ull_dynamic_start(up, lb, end, incr, c, s, e);
        disp.next_u = ordered ? GOMP_loop_ull_ordered_dynamic_next : GOMP_loop_ull_dynamic_next;
        break;
    default: /* K_GUIDED */
        got = ordered ? GOMP_loop_ull_ordered_guided_start(up, lb, end, incr, c, s, e)
                      : GOMP_loop_ull_guided_start(up, lb, end, incr, c, s, e);
        disp.next_u = ordered ? GOMP_loop_ull_ordered_guided_next : GOMP_loop_ull_guided_next;
        break;
    }
    disp.have_first = got;
    disp.end_u = end;
    if (!got)
        disp.next_u = NULL;
}

/* The next chunk as [*s, *e) of the signed loop; false (and the loop ended
 * for this thread) when there is none. */
/* A chunk of groups [*s, *e) as iterations (guided_simd). */
static void ungroup_signed(long *s, long *e)
{
    long step = (long)disp.group * disp.incr;
    bool last = (ull)*e == disp.groups;
    *s = (long)((ull)disp.lb_l + (ull)*s * (ull)step);
    *e = last ? disp.end_l : (long)((ull)disp.lb_l + (ull)*e * (ull)step);
}

static bool next_signed(long *s, long *e)
{
    if (disp.have_first) {
        disp.have_first = false;
        *s = disp.first_l, *e = disp.first_le;
        if (disp.group)
            ungroup_signed(s, e);
        return true;
    }
    if (disp.next_l && disp.next_l(s, e)) {
        if (disp.group)
            ungroup_signed(s, e);
        return true;
    }
    disp.next_l = NULL;
    GOMP_loop_end_nowait();
    return false;
}

static void ungroup_unsigned(ull *s, ull *e)
{
    ull step = disp.group * (ull)disp.incr;
    bool last = *e == disp.groups;
    *s = disp.lb_u + *s * step;
    *e = last ? disp.end_u : disp.lb_u + *e * step;
}

static bool next_unsigned(ull *s, ull *e)
{
    if (disp.have_first) {
        disp.have_first = false;
        *s = disp.first_u, *e = disp.first_ue;
        if (disp.group)
            ungroup_unsigned(s, e);
        return true;
    }
    if (disp.next_u && disp.next_u(s, e)) {
        if (disp.group)
            ungroup_unsigned(s, e);
        return true;
    }
    disp.next_u = NULL;
    GOMP_loop_end_nowait();
    return false;
}

/* W the GOMP loop's type, END where its end is kept. */
#define PV_DISPATCH(suffix, T, S, init, next, W, END)                                        \
    PV_EXPORT void __kmpc_dispatch_init_##suffix(ident_t *loc, kmp_int32 gtid,          \
                                                 kmp_int32 schedule, T lb, T ub, S st,       \
                                                 S chunk)                                    \
    {                                                                                        \
        (void)loc, (void)gtid;                                                               \
        disp.incr = st;                                                                      \
        disp.last_iter = (ull)lb + (trip_count((ull)lb, (ull)ub, st, st > 0) - 1) * (ull)st; \
        init(schedule, lb, ub, st, chunk);                                                   \
    }                                                                                        \
    PV_EXPORT int __kmpc_dispatch_next_##suffix(ident_t *loc, kmp_int32 gtid,           \
                                                kmp_int32 *p_last, T *p_lb, T *p_ub,         \
                                                S *p_st)                                     \
    {                                                                                        \
        (void)loc, (void)gtid;                                                               \
        W s, e;                                                                              \
        if (!next(&s, &e))                                                                   \
            return 0;                                                                        \
        *p_lb = (T)s;                                                                        \
        /* each chunk's upper bound is its last iteration, as libomp's */                   \
        *p_ub = (T)(e == disp.END ? (W)disp.last_iter : e - (W)disp.incr);                   \
        if (p_st)                                                                            \
            *p_st = (S)disp.incr;                                                            \
        if (p_last)                                                                          \
            *p_last = e == disp.END;                                                         \
        return 1;                                                                            \
    }                                                                                        \
    PV_EXPORT void __kmpc_dispatch_fini_##suffix(ident_t *loc, kmp_int32 gtid)          \
    {                                                                                        \
        (void)loc, (void)gtid;                                                               \
    }

PV_DISPATCH(4, kmp_int32, kmp_int32, init_signed, next_signed, long, end_l)
PV_DISPATCH(4u, kmp_uint32, kmp_int32, init_unsigned, next_unsigned, ull, end_u)
PV_DISPATCH(8, kmp_int64, kmp_int64, init_signed, next_signed, long, end_l)
PV_DISPATCH(8u, kmp_uint64, kmp_int64, init_unsigned, next_unsigned, ull, end_u)
