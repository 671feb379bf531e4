/* Statically scheduled loops through libomp's ABI: __kmpc_for_static_init_*
 * hands the calling thread its share of an inclusive range [*plower,
 * *pupper] stepping by incr, and the stride clang adds to move to its next
 * chunk.  Unchunked: the iterations are split into nth nearly equal blocks,
 * the first trip % nth threads taking one more (libomp's balanced split).
 * Chunked: chunks of `chunk` iterations dealt round robin.  The distribute
 * kinds deal to the league's teams instead of the team's threads. */
#include "kmpc/kmpc.h"

/* One body for the four integer kinds: T the loop type, U its unsigned twin,
 * S the stride type (always signed). */
#define PV_STATIC_INIT(suffix, T, U, S)                                                     \
    PV_KMPC_EXPORT void __kmpc_for_static_init_##suffix(                                    \
        ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter, T *plower, \
        T *pupper, S *pstride, S incr, S chunk)                                             \
    {                                                                                       \
        (void)loc, (void)gtid;                                                              \
        int kind = schedtype & ~(kmp_int32)PV_KMP_SCHED_MODIFIERS;                          \
        bool teams = kind == PV_KMP_DISTRIBUTE || kind == PV_KMP_DISTRIBUTE_CHUNKED;         \
        U tid = (U)(teams ? omp_get_team_num() : omp_get_thread_num());                     \
        U nth = (U)(teams ? omp_get_num_teams() : omp_get_num_threads());                   \
        T lb = *plower, ub = *pupper;                                                       \
        if (incr == 0 || (incr > 0 ? ub < lb : lb < ub)) { /* no iteration at all */        \
            if (plastiter)                                                                  \
                *plastiter = 0;                                                             \
            *pstride = incr;                                                                \
            return;                                                                         \
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
            return;                                                                         \
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
    }

PV_STATIC_INIT(4, kmp_int32, kmp_uint32, kmp_int32)
PV_STATIC_INIT(4u, kmp_uint32, kmp_uint32, kmp_int32)
PV_STATIC_INIT(8, kmp_int64, kmp_uint64, kmp_int64)
PV_STATIC_INIT(8u, kmp_uint64, kmp_uint64, kmp_int64)

PV_KMPC_EXPORT void __kmpc_for_static_fini(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
}

/* distribute parallel for in one call: the league's share of the loop for
 * this team first (libomp's balanced split, the distribute kind), its upper
 * bound in *pupperD, then this thread's share of the team's part by
 * `schedtype` (static or static chunked).  The last iteration is this
 * thread's only if its team holds it too. */
#define PV_DIST_STATIC_INIT(suffix, T, S)                                                  \
    PV_KMPC_EXPORT void __kmpc_dist_for_static_init_##suffix(                              \
        ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter, T *plower, \
        T *pupper, T *pupperD, S *pstride, S incr, S chunk)                                \
    {                                                                                      \
        kmp_int32 team_last = 0;                                                           \
        S team_stride;                                                                     \
        __kmpc_for_static_init_##suffix(loc, gtid, PV_KMP_DISTRIBUTE, &team_last, plower,  \
                                        pupper, &team_stride, incr, 0);                    \
        *pupperD = *pupper;                                                                \
        kmp_int32 last = 0;                                                                \
        __kmpc_for_static_init_##suffix(loc, gtid, schedtype, &last, plower, pupper,       \
                                        pstride, incr, chunk);                             \
        if (plastiter)                                                                     \
            *plastiter = team_last && last;                                                \
    }

PV_DIST_STATIC_INIT(4, kmp_int32, kmp_int32)
PV_DIST_STATIC_INIT(4u, kmp_uint32, kmp_int32)
PV_DIST_STATIC_INIT(8, kmp_int64, kmp_int64)
PV_DIST_STATIC_INIT(8u, kmp_uint64, kmp_int64)
