/* Host teams under the recording tool, as libomp reports them:
 * parallel_begin/end with ompt_parallel_league and the requested number of
 * teams, one initial task per team (actual parallelism = teams, index =
 * team number) on a thread of its own (the teams run at the same time), in
 * it a parallel region of one thread forked by the runtime whose implicit
 * task runs the teams region's body, and what the inquiry entry points
 * answer inside a team and in a parallel region that a team starts. */
#include <omp.h>

#include "ttq.h"

#define NT 3

int main(void)
{
    CHECK(tt_initialized());
    uint64_t initial = ttq_begin_initial_thread();
    static uint64_t team_task[NT], team_init[NT], team_par[NT], league_par[NT];
    static uint64_t enc_in_region[NT], outer_par_in_region[NT];
    static int team_size[NT], league_size[NT];
    tt_reset();
#pragma omp teams num_teams(NT)
    {
        int t = omp_get_team_num();
        team_task[t] = ttq_task_id(0);
        team_init[t] = ttq_task_id(1);
        team_par[t] = ttq_parallel_id(0);
        league_par[t] = ttq_parallel_id(1);
        ompt_get_parallel_info_t pi = (ompt_get_parallel_info_t)tt_lookup()("ompt_get_parallel_info");
        ompt_data_t *par;
        pi(0, &par, &team_size[t]);
        pi(1, &par, &league_size[t]);
#pragma omp parallel num_threads(2)
        if (omp_get_thread_num() == 0) {
            enc_in_region[t] = ttq_task_id(1);
            outer_par_in_region[t] = ttq_parallel_id(1);
        }
    }
    /* each team: its initial task, the runtime's region's implicit task, 2 in its parallel */
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, 4 * NT);
    const struct tt_event *lb = NULL, *le = NULL;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type == ompt_callback_parallel_begin && (e->flags & ompt_parallel_league))
            lb = e;
        if (e->type == ompt_callback_parallel_end && (e->flags & ompt_parallel_league))
            le = e;
    }
    TCHECK(lb && le && lb->parallel == le->parallel && lb->seq < le->seq);
    TCHECK(lb->a == NT && lb->task == initial && le->task == initial);
    TCHECK(ttq_in_program(lb->codeptr));
    const struct tt_event *init_begin[NT] = {0}, *init_end[NT] = {0};
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type != ompt_callback_implicit_task || !(e->flags & ompt_task_initial) ||
            e->parallel != lb->parallel)
            continue;
        TCHECK(e->b < NT);
        if (e->endpoint == ompt_scope_begin) {
            TCHECK(!init_begin[e->b] && e->a == NT);
            TCHECK(e->q_task == e->task && e->q_parallel == lb->parallel);
            TCHECK(e->q_team_size == NT);
            init_begin[e->b] = e;
        } else {
            TCHECK(init_begin[e->b] && !init_end[e->b] && e->task == init_begin[e->b]->task);
            TCHECK(e->thread == init_begin[e->b]->thread && e->seq < le->seq);
            init_end[e->b] = e;
        }
    }
    for (int t = 0; t < NT; t++) {
        TCHECK(init_begin[t] && init_end[t] && lb->seq < init_begin[t]->seq);
        for (int u = 0; u < t; u++)   /* NT teams, NT threads: one each */
            TCHECK(init_begin[t]->thread != init_begin[u]->thread);
        TCHECK(team_init[t] == init_begin[t]->task);
        /* the runtime's region in the team, begun by its initial task */
        const struct tt_event *pb = NULL, *pe = NULL;
        for (size_t i = 0; i < tt_count(); i++) {
            const struct tt_event *e = tt_get(i);
            if (e->type == ompt_callback_parallel_begin && e->task == team_init[t])
                pb = e;
            if (e->type == ompt_callback_parallel_end && e->task == team_init[t])
                pe = e;
        }
        TCHECK(pb && pe && pb->parallel == team_par[t] && pe->parallel == team_par[t]);
        TCHECK(pb->a == 1 && (pb->flags & ompt_parallel_invoker_runtime) && !pb->codeptr);
        TCHECK(init_begin[t]->seq < pb->seq && pe->seq < init_end[t]->seq);
        TCHECK(team_size[t] == 1 && league_par[t] == lb->parallel && league_size[t] == NT);
        TCHECK(team_task[t] != team_init[t]);
        TCHECK(enc_in_region[t] == team_task[t]);        /* the region's encountering task */
        TCHECK(outer_par_in_region[t] == team_par[t]);   /* the team's region encloses it */
    }
    printf("ompt_teams: ok\n");
    return 0;
}
