/* Host teams under the recording tool: parallel_begin/end with
 * ompt_parallel_league and the requested number of teams, one initial task
 * per team (actual parallelism = teams, index = team number), and what the
 * inquiry entry points answer inside a team and in a parallel region that a
 * team starts. */
#include <omp.h>

#include "ttq.h"

#define NT 3

int main(void)
{
    CHECK(tt_initialized());
    uint64_t initial = ttq_begin_initial_thread();
    static uint64_t team_task[NT], team_par[NT], enc_in_region[NT], outer_par_in_region[NT];
    static int team_size[NT];
    tt_reset();
#pragma omp teams num_teams(NT)
    {
        int t = omp_get_team_num();
        team_task[t] = ttq_task_id(0);
        team_par[t] = ttq_parallel_id(0);
        ompt_get_parallel_info_t pi = (ompt_get_parallel_info_t)tt_lookup()("ompt_get_parallel_info");
        ompt_data_t *par;
        pi(0, &par, &team_size[t]);
#pragma omp parallel num_threads(2)
        if (omp_get_thread_num() == 0) {
            enc_in_region[t] = ttq_task_id(1);
            outer_par_in_region[t] = ttq_parallel_id(1);
        }
    }
    ttq_wait(ompt_callback_implicit_task, ompt_scope_end, ANY, NT + 2 * NT);
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
    size_t k = 0;
    for (size_t i = 0; i < tt_count(); i++) {
        const struct tt_event *e = tt_get(i);
        if (e->type != ompt_callback_implicit_task || !(e->flags & ompt_task_initial))
            continue;
        TCHECK(e->parallel == lb->parallel);
        if (e->endpoint == ompt_scope_begin) {
            TCHECK(e->a == NT && e->b == k && e->task == team_task[k]);
            TCHECK(e->q_task == e->task && e->q_parallel == lb->parallel);
        } else {
            TCHECK(e->task == team_task[k] && e->b == k);
            k++;
        }
    }
    TCHECK(k == NT);
    for (int t = 0; t < NT; t++) {
        TCHECK(team_par[t] == lb->parallel && team_size[t] == NT);
        TCHECK(enc_in_region[t] == team_task[t]);          /* the region's encountering task */
        TCHECK(outer_par_in_region[t] == lb->parallel);    /* the league encloses it */
    }
    printf("ompt_teams: ok\n");
    return 0;
}
