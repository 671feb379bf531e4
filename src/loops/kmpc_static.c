/* Statically scheduled loops through libomp's ABI: __kmpc_for_static_init_*
 * hands the calling thread its share of an inclusive range [*plower,
 * *pupper] stepping by incr, and the stride clang adds to move to its next
 * chunk.  Unchunked: the iterations are split into nth nearly equal blocks,
 * the first trip % nth threads taking one more (libomp's balanced split).
 * Chunked: chunks of `chunk` iterations dealt round robin.  The distribute
 * kinds deal to the league's teams instead of the team's threads. */
#include "abi/kmpc.h"
#include "ompt/ompt.h" /* pv_ompt_tool, the OMPT event sites */

/* The construct clang marks in the ident's flags (libomp's KMP_IDENT_WORK_*). */
#define PV_IDENT_WORK_LOOP 0x200
#define PV_IDENT_WORK_SECTIONS 0x400
#define PV_IDENT_WORK_DISTRIBUTE 0x800

static int work_type(const ident_t *loc, int kind)
{
    int flags = loc ? loc->flags : 0;
    if (flags & PV_IDENT_WORK_SECTIONS)
        return ompt_work_sections;
    if ((flags & PV_IDENT_WORK_DISTRIBUTE) ||
        (!(flags & PV_IDENT_WORK_LOOP) && (kind == PV_KMP_DISTRIBUTE || kind == PV_KMP_DISTRIBUTE_CHUNKED)))
        return ompt_work_distribute;
    /* __kmpc_for_static_init: a static schedule (OpenMP 5.2's work type). */
    return ompt_work_loop_static;
}

/* OMPT (a tool attached): the construct begins with its trip count; the
 * thread's share as logical iterations [first, first + n) of the loop, from
 * the bounds the share set: with a chunk, its first chunk (clang steps to
 * the others itself, without the runtime). */
static void __attribute__((noinline))
static_told(const ident_t *loc, int kind, uint64_t trip, uint64_t first, uint64_t span,
            const void *codeptr)
{
    uint64_t n = first < trip ? span : 0;
    if (n > trip - first)
        n = trip - first;
    pv_ompt_static_begin(work_type(loc, kind), trip, first, n, codeptr);
}

/* In the tool branch of an entry point: the share [lo, hi] that began at
 * lb (its trip count `trip`) as logical iterations. */
#define PV_STATIC_TELL(U, loc, kind, trip, lb, lo, hi, incr)                                \
    do {                                                                                    \
        U step_ = incr > 0 ? (U)incr : (U)0 - (U)incr;                                      \
        U from_ = incr > 0 ? (U)(lo) - (U)(lb) : (U)(lb) - (U)(lo);                         \
        U span_ = incr > 0 ? (U)(hi) - (U)(lo) : (U)(lo) - (U)(hi);                         \
        static_told(loc, kind, trip, trip ? from_ / step_ : 0, trip ? span_ / step_ + 1 : 0, \
                    pv_ompt_entry_ra());                                                    \
    } while (0)

/* One body for the four integer kinds: T the loop type, U its unsigned twin,
 * S the stride type (always signed).  share_* returns the trip count. */
#define PV_STATIC_INIT(suffix, T, U, S)                                                     \
    static U share_##suffix(int kind, kmp_int32 *plastiter, T *plower, T *pupper,            \
                            S *pstride, S incr, S chunk);                                   \
    PV_EXPORT void __kmpc_for_static_init_##suffix(                                    \
        ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter, T *plower, \
        T *pupper, S *pstride, S incr, S chunk)                                             \
    {                                                                                       \
        (void)gtid;                                                                         \
        int kind = schedtype & ~(kmp_int32)PV_KMP_SCHED_MODIFIERS;                          \
        T lb = *plower;                                                                     \
        U trip = share_##suffix(kind, plastiter, plower, pupper, pstride, incr, chunk);     \
        if (pv_ompt_tool())                                                                 \
            PV_STATIC_TELL(U, loc, kind, trip, lb, *plower, *pupper, incr);                 \
    }                                                                                       \
    static U share_##suffix(int kind, kmp_int32 *plastiter, T *plower, T *pupper,            \
                            S *pstride, S incr, S chunk)                                    \
    {                                                                                       \
        bool teams = kind == PV_KMP_DISTRIBUTE || kind == PV_KMP_DISTRIBUTE_CHUNKED;         \
        U tid = (U)(teams ? omp_get_team_num() : omp_get_thread_num());                     \
        U nth = (U)(teams ? omp_get_num_teams() : omp_get_num_threads());                   \
        T lb = *plower, ub = *pupper;                                                       \
        if (incr == 0 || (incr > 0 ? ub < lb : lb < ub)) { /* no iteration at all */        \
            if (plastiter)                                                                  \
                *plastiter = 0;                                                             \
            *pstride = incr;                                                                \
            return 0;                                                                       \
        }                                                                                   \
        U step = incr > 0 ? (U)incr : (U)0 - (U)incr;                                       \
        U trip = (incr > 0 ? (U)ub - (U)lb : (U)lb - (U)ub) / step + 1;                     \
        if ((kind == PV_KMP_STATIC_CHUNKED || kind == PV_KMP_DISTRIBUTE_CHUNKED) && chunk > 0) { \
            U c = (U)chunk;                                                                 \
            *plower = (T)((U)lb + tid * c * (U)incr);                                       \
            *pupper = (T)((U)*plower + (c - 1) * (U)incr);                                  \
            *pstride = (S)(c * nth * (U)incr);                                              \
            if (plastiter)                                                                  \
                *plastiter = tid == ((trip - 1) / c) % nth;                                 \
            return trip;                                                                    \
        }                                                                                   \
        U small = trip / nth, extra = trip % nth;                                           \
        U count = small + (tid < extra);                                                    \
        U first = tid * small + (tid < extra ? tid : extra);                                \
        if (count == 0) { /* an empty share: lower past upper */                            \
            *plower = (T)((U)ub + (U)incr);                                                 \
            *pupper = ub;                                                                   \
        } else {                                                                            \
            *plower = (T)((U)lb + first * (U)incr);                                         \
            *pupper = (T)((U)*plower + (count - 1) * (U)incr);                              \
        }                                                                                   \
        *pstride = (S)(trip * (U)incr);                                                     \
        if (plastiter)                                                                      \
            *plastiter = count != 0 && first + count == trip;                               \
        return trip;                                                                        \
    }

PV_STATIC_INIT(4, kmp_int32, kmp_uint32, kmp_int32)
PV_STATIC_INIT(4u, kmp_uint32, kmp_uint32, kmp_int32)
PV_STATIC_INIT(8, kmp_int64, kmp_uint64, kmp_int64)
PV_STATIC_INIT(8u, kmp_uint64, kmp_uint64, kmp_int64)

PV_EXPORT void __kmpc_for_static_fini(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    if (pv_ompt_tool())
        pv_ompt_static_end(pv_ompt_entry_ra());
}

/* distribute parallel for in one call: the league's share of the loop for
 * this team first (libomp's balanced split, the distribute kind), its upper
 * bound in *pupperD, then this thread's share of the team's part by
 * `schedtype` (static or static chunked).  The last iteration is this
 * thread's only if its team holds it too.  OMPT: one distribute construct
 * (the team's share as its chunk), which __kmpc_for_static_fini ends. */
#define PV_DIST_STATIC_INIT(suffix, T, U, S)                                               \
    PV_EXPORT void __kmpc_dist_for_static_init_##suffix(                              \
        ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter, T *plower, \
        T *pupper, T *pupperD, S *pstride, S incr, S chunk)                                \
    {                                                                                      \
        (void)gtid;                                                                        \
        kmp_int32 team_last = 0;                                                           \
        S team_stride;                                                                     \
        T lb = *plower;                                                                    \
        U trip = share_##suffix(PV_KMP_DISTRIBUTE, &team_last, plower, pupper,             \
                                &team_stride, incr, 0);                                    \
        *pupperD = *pupper;                                                                \
        if (pv_ompt_tool())                                                                \
            PV_STATIC_TELL(U, NULL, PV_KMP_DISTRIBUTE, trip, lb, *plower, *pupper, incr);  \
        (void)loc;                                                                         \
        kmp_int32 last = 0;                                                                \
        share_##suffix(schedtype & ~(kmp_int32)PV_KMP_SCHED_MODIFIERS, &last, plower,       \
                       pupper, pstride, incr, chunk);                                      \
        if (plastiter)                                                                     \
            *plastiter = team_last && last;                                                \
    }

PV_DIST_STATIC_INIT(4, kmp_int32, kmp_uint32, kmp_int32)
PV_DIST_STATIC_INIT(4u, kmp_uint32, kmp_uint32, kmp_int32)
PV_DIST_STATIC_INIT(8, kmp_int64, kmp_uint64, kmp_int64)
PV_DIST_STATIC_INIT(8u, kmp_uint64, kmp_uint64, kmp_int64)
