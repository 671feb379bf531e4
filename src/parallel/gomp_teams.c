/* The host teams construct.  As in libomp, the teams of a host teams
 * region run at the same time: the encountering thread runs team 0 and
 * device threads (src/target/league.c) the others, each the initial thread
 * of its team (OpenMP 5.1, 2.7: each team of the league is an initial
 * team) with the encountering task's ICVs; more teams than threads go
 * round-robin, thread i running teams i, i + W, ...  With places, the
 * teams split the encountering thread's partition as a parallel region of
 * as many threads would under KMP_TEAMS_PROC_BIND (libomp's setting,
 * spread by default): each team's initial thread gets its team's place and
 * subpartition (OpenMP 5.1, 2.7: the split is implementation defined).
 * The entry layer: the runtime's teams and ICVs below, the device threads
 * of src/target beside it. */
#include <limits.h>
#include <stdlib.h>

#include "abi/gomp.h"
#include "base/alloc.h"
#include "base/compiler.h"
#include "ompt/ompt.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/places.h"
#include "runtime/thread.h"
#include "target/target.h"

struct host_league {
    void (*fn)(void *);
    void *data;
    unsigned num_teams;
    unsigned device;                 /* the encountering thread's pv_league.device */
    struct pv_icv icv;               /* for the other threads' teams */
    struct pv_ompt_league *ompt;     /* NULL without a tool */
    unsigned *place, *part_off, *part_len; /* per team; NULL without places */
};

/* The calling thread takes team t's place and partition. */
static void enter_places(const struct host_league *l, unsigned t)
{
    struct pv_ts *ts = &pv_thr.ts;
    ts->place = l->place[t];
    ts->part_off = l->part_off[t];
    ts->part_len = l->part_len[t];
    pv_affinity_bind_self(ts->place); /* no-op when unbound (UINT_MAX) */
}

static void run_teams(void *ctx, unsigned index, unsigned width)
{
    struct host_league *l = ctx;
    struct pv_league saved = pv_league;
    struct pv_ts *ts = &pv_thr.ts;
    unsigned place = ts->place, part_off = ts->part_off, part_len = ts->part_len;
    if (index) {
        *pv_icv_for_write() = l->icv;
        if (l->ompt)
            pv_ompt_league_join(l->ompt);
    }
    for (unsigned t = index; t < l->num_teams; t += width) {
        pv_league = (struct pv_league){l->num_teams, t, l->device};
        if (l->place)
            enter_places(l, t);
        if (l->ompt)
            pv_ompt_league_team(true, t);
        l->fn(l->data);
        if (l->ompt)
            pv_ompt_league_team(false, t);
    }
    if (index && l->ompt)
        pv_ompt_league_leave();
    pv_league = saved;
    if (l->place) {
        ts->place = place;
        ts->part_off = part_off;
        ts->part_len = part_len;
        pv_affinity_bind_self(place);
    }
}

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
    struct host_league l = {.fn = fn, .data = data, .num_teams = num_teams,
                            .device = pv_league.device, .icv = *pv_icv_get()};
    if (pv_num_places) {
        l.place = pv_malloc(3 * num_teams * sizeof *l.place);
        l.part_off = l.place + num_teams;
        l.part_len = l.part_off + num_teams;
        const struct pv_ts *ts = &pv_thr.ts;
        pv_affinity_assign(num_teams, pv_gicv.teams_bind, ts->place, ts->part_off, ts->part_len,
                           l.place, l.part_off, l.part_len);
    }
    struct pv_ompt_league ompt;
    if (pv_ompt_tool()) {
        l.ompt = &ompt;
        pv_ompt_league_begin(&ompt, num_teams, pv_ompt_entry_ra());
    }
    pv_league_host(run_teams, &l, num_teams);
    if (l.ompt)
        pv_ompt_league_end();
    free(l.place);
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
