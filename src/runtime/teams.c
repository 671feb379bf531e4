/* The host teams construct.  As in libgomp, the teams of a host teams region
 * run one after the other on the encountering thread; each sees its own
 * team number (teams cannot synchronise with each other, so this is a
 * conforming schedule). */
#include "runtime/internal.h"
#include "target/target.h"

PV_EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                              unsigned thread_limit, unsigned flags)
{
    (void)flags;
    if (thread_limit == 0)
        thread_limit = pv_gicv.teams_thread_limit_var;
    struct pv_icv *icv = NULL;
    unsigned saved_limit = 0;
    if (thread_limit) {
        icv = pv_icv_for_write();
        saved_limit = icv->thread_limit_var;
        icv->thread_limit_var = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
    }
    if (num_teams == 0)
        num_teams = pv_gicv.num_teams_var ? pv_gicv.num_teams_var : 3;
    struct pv_league saved = pv_league;
    pv_league.num_teams = num_teams;
    if (pv_ompt_tool())
        pv_ompt_league_begin(num_teams, pv_ompt_entry_ra());
    for (unsigned t = 0; t < num_teams; t++) {
        pv_league.team_num = t;
        if (pv_ompt_tool())
            pv_ompt_league_team(true, t);
        fn(data);
        if (pv_ompt_tool())
            pv_ompt_league_team(false, t);
    }
    if (pv_ompt_tool())
        pv_ompt_league_end();
    pv_league = saved;
    if (icv)
        icv->thread_limit_var = saved_limit;
}

/* Called by code inside a target region (host fallback): `first` opens the
 * league, later calls step to the next team until all ran. */
PV_EXPORT bool GOMP_teams4(unsigned num_teams_low, unsigned num_teams_high,
                           unsigned thread_limit, bool first)
{
    bool ret;
    if (pv_target_teams4(num_teams_low, num_teams_high, thread_limit, first, &ret))
        return ret;   /* a kernel's teams on device threads (src/target/league.c) */
    if (first) {
        if (thread_limit) {
            struct pv_icv *icv = pv_icv_for_write();
            icv->thread_limit_var = thread_limit > INT_MAX ? UINT_MAX : thread_limit;
        }
        pv_league.num_teams = num_teams_low ? num_teams_low : 1;
        pv_league.team_num = 0;
        return true;
    }
    if (pv_league.team_num + 1 >= pv_league.num_teams) {
        pv_league.num_teams = 1;
        pv_league.team_num = 0;
        return false;
    }
    pv_league.team_num++;
    return true;
}

PV_EXPORT int omp_get_num_teams(void)
{
    return (int)pv_league.num_teams;
}

PV_EXPORT int omp_get_team_num(void)
{
    return (int)pv_league.team_num;
}
