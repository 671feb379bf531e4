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
 * KNOWN LIMIT: one dispatch state per thread, so a dispatch loop inside the
 * body of another on the same thread (through a nested parallel region that
 * the thread leads) is not supported yet. */
#include "kmpc/kmpc.h"

typedef unsigned long long ull;

bool GOMP_loop_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_ordered_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_ordered_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_ordered_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_ordered_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_static_next(long *, long *);
bool GOMP_loop_dynamic_next(long *, long *);
bool GOMP_loop_guided_next(long *, long *);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_ordered_static_next(long *, long *);
bool GOMP_loop_ordered_dynamic_next(long *, long *);
bool GOMP_loop_ordered_guided_next(long *, long *);
bool GOMP_loop_ordered_runtime_next(long *, long *);
bool GOMP_loop_ull_static_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_dynamic_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_guided_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_ordered_static_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_ordered_dynamic_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_ordered_guided_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_ordered_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_static_next(ull *, ull *);
bool GOMP_loop_ull_dynamic_next(ull *, ull *);
bool GOMP_loop_ull_guided_next(ull *, ull *);
bool GOMP_loop_ull_runtime_next(ull *, ull *);
bool GOMP_loop_ull_ordered_static_next(ull *, ull *);
bool GOMP_loop_ull_ordered_dynamic_next(ull *, ull *);
bool GOMP_loop_ull_ordered_guided_next(ull *, ull *);
bool GOMP_loop_ull_ordered_runtime_next(ull *, ull *);
void GOMP_loop_end_nowait(void);

enum gomp_kind { K_STATIC, K_DYNAMIC, K_GUIDED, K_RUNTIME };

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
    default: /* runtime, runtime_simd, and anything unknown */
        return K_RUNTIME;
    }
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
} disp;

static void init_signed(kmp_int32 schedule, long lb, long ub, long st, long chunk)
{
    bool ordered;
    enum gomp_kind k = gomp_kind(schedule, &ordered, &chunk);
    long end = st > 0 ? ub + 1 : ub - 1;
    if (k != K_STATIC && chunk <= 0)
        chunk = 1;
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
    case K_GUIDED:
        got = ordered ? GOMP_loop_ordered_guided_start(lb, end, st, chunk, s, e)
                      : GOMP_loop_guided_start(lb, end, st, chunk, s, e);
        disp.next_l = ordered ? GOMP_loop_ordered_guided_next : GOMP_loop_guided_next;
        break;
    default:
        got = ordered ? GOMP_loop_ordered_runtime_start(lb, end, st, s, e)
                      : GOMP_loop_runtime_start(lb, end, st, s, e);
        disp.next_l = ordered ? GOMP_loop_ordered_runtime_next : GOMP_loop_runtime_next;
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
    enum gomp_kind k = gomp_kind(schedule, &ordered, &chunk);
    ull end = up ? ub + 1 : ub - 1, incr = (ull)st, c = chunk > 0 ? (ull)chunk : 0;
    if (k != K_STATIC && c == 0)
        c = 1;
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
    case K_GUIDED:
        got = ordered ? GOMP_loop_ull_ordered_guided_start(up, lb, end, incr, c, s, e)
                      : GOMP_loop_ull_guided_start(up, lb, end, incr, c, s, e);
        disp.next_u = ordered ? GOMP_loop_ull_ordered_guided_next : GOMP_loop_ull_guided_next;
        break;
    default:
        got = ordered ? GOMP_loop_ull_ordered_runtime_start(up, lb, end, incr, s, e)
                      : GOMP_loop_ull_runtime_start(up, lb, end, incr, s, e);
        disp.next_u = ordered ? GOMP_loop_ull_ordered_runtime_next : GOMP_loop_ull_runtime_next;
        break;
    }
    disp.have_first = got;
    disp.end_u = end;
    if (!got)
        disp.next_u = NULL;
}

/* The next chunk as [*s, *e) of the signed loop; false (and the loop ended
 * for this thread) when there is none. */
static bool next_signed(long *s, long *e)
{
    if (disp.have_first) {
        disp.have_first = false;
        *s = disp.first_l, *e = disp.first_le;
        return true;
    }
    if (disp.next_l && disp.next_l(s, e))
        return true;
    disp.next_l = NULL;
    GOMP_loop_end_nowait();
    return false;
}

static bool next_unsigned(ull *s, ull *e)
{
    if (disp.have_first) {
        disp.have_first = false;
        *s = disp.first_u, *e = disp.first_ue;
        return true;
    }
    if (disp.next_u && disp.next_u(s, e))
        return true;
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
        *p_ub = (T)(disp.incr > 0 ? e - 1 : e + 1);                                          \
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
