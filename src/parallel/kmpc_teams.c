/* The host teams construct and cancellation through libomp's ABI. */
#include "abi/kmpc.h"
#include "ompt/ompt.h"            /* PV_OMPT_GIVE */
#include "parallel/kmpc_args.h"
#include "runtime/barrier_site.h" /* pv_barrier_at */

/* What push_num_teams asked of the next fork_teams on this thread. */
static __thread unsigned pushed_teams, pushed_limit;

PV_EXPORT void __kmpc_push_num_teams(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams,
                                     kmp_int32 num_threads)
{
    (void)loc, (void)gtid;
    pushed_teams = num_teams > 0 ? (unsigned)num_teams : 0;
    pushed_limit = num_threads > 0 ? (unsigned)num_threads : 0;
}

/* num_teams(lb : ub): pvomp makes ub teams on the host (lb <= ub teams is
 * what the construct allows). */
PV_EXPORT void __kmpc_push_num_teams_51(ident_t *loc, kmp_int32 gtid, kmp_int32 num_teams_lb,
                                        kmp_int32 num_teams_ub, kmp_int32 num_threads)
{
    (void)num_teams_lb;
    __kmpc_push_num_teams(loc, gtid, num_teams_ub, num_threads);
}

PV_EXPORT void __kmpc_fork_teams(ident_t *loc, kmp_int32 argc, kmpc_micro microtask, ...)
{
    (void)loc;
    struct pv_kmpc_args a;
    PV_KMPC_PACK_ARGS(a, argc, microtask);
    unsigned teams = pushed_teams, limit = pushed_limit;
    pushed_teams = pushed_limit = 0;
    PV_OMPT_GIVE_RA(); /* the league's codeptr_ra: the program's call */
    GOMP_teams_reg(pv_kmpc_body, &a, teams, limit, 0);
}

/* libomp's cancel kinds (1 parallel, 2 loop, 3 sections, 4 taskgroup) as
 * GOMP's `which` bits. */
static int gomp_which(kmp_int32 kind)
{
    switch (kind) {
    case 1: return 1;
    case 2: return 2;
    case 3: return 4;
    case 4: return 8;
    default: return 0;
    }
}

PV_EXPORT kmp_int32 __kmpc_cancel(ident_t *loc, kmp_int32 gtid, kmp_int32 kind)
{
    (void)loc, (void)gtid;
    int which = gomp_which(kind);
    if (!which)
        return 0;
    PV_OMPT_GIVE_RA();
    kmp_int32 cancelled = GOMP_cancel(which, true);
    PV_OMPT_GIVEN_DROP(); /* not taken when cancellation is off */
    return cancelled;
}

PV_EXPORT kmp_int32 __kmpc_cancellationpoint(ident_t *loc, kmp_int32 gtid, kmp_int32 kind)
{
    (void)loc, (void)gtid;
    int which = gomp_which(kind);
    if (!which)
        return 0;
    PV_OMPT_GIVE_RA();
    kmp_int32 cancelled = GOMP_cancellation_point(which);
    PV_OMPT_GIVEN_DROP(); /* taken only when cancelled */
    return cancelled;
}

PV_EXPORT kmp_int32 __kmpc_cancel_barrier(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    return pv_barrier_at(PV_BARRIER_CANCEL, 0, true);
}
