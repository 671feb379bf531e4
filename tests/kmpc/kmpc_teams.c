/* Host teams through __kmpc_fork_teams run at the same time, as in libomp:
 * team 0 on the encountering thread, each other team on a thread of its
 * own while there are no more teams than the runtime's width (4 at least),
 * each team once; every team's initial thread starts from the encountering
 * task's ICVs, forks its own parallel regions and sees its own team
 * number; a teams reduction combines them all.  With more teams than the
 * width, every team still runs exactly once. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define NT 4
#define MANY 37

int main(void)
{
    long main_tid = syscall(SYS_gettid);
    int distinct = 0;
    static long tid[NT];
    static int seen[NT], inner[NT], sched_ok[NT], levels_ok[NT], num_ok[NT];
    omp_set_schedule(omp_sched_dynamic, 7);
    int sum = 0;
#pragma omp teams num_teams(NT) thread_limit(2) reduction(+ : sum)
    {
        int t = omp_get_team_num();
        TEST_INC(&seen[t]);
        tid[t] = syscall(SYS_gettid);
        omp_sched_t kind;
        int chunk;
        omp_get_schedule(&kind, &chunk);
        sched_ok[t] = kind == omp_sched_dynamic && chunk == 7;
        levels_ok[t] = omp_get_level() == 0 && omp_get_thread_num() == 0;
        num_ok[t] = omp_get_num_teams() == NT;
#pragma omp parallel num_threads(2)
        {
            TEST_INC(&inner[t]);
            if (omp_get_team_num() != t)
                TEST_INC(&inner[t]); /* a wrong count fails below */
        }
        sum += t + 1;
    }
    CHECK(sum == NT * (NT + 1) / 2);
    CHECK(tid[0] == main_tid);
    for (int t = 0; t < NT; t++) {
        CHECK(seen[t] == 1 && inner[t] == 2 && sched_ok[t] && levels_ok[t] && num_ok[t]);
        /* Each team's initial thread a thread of its own (libomp's
         * behaviour; pvomp once gave two teams one device thread when
         * the first finished before the launcher had handed out all). */
        int fresh = 1;
        for (int u = 0; u < t; u++)
            fresh &= tid[t] != tid[u];
        distinct += fresh;
    }
    if (distinct != NT)
        fprintf(stderr, "kmpc_teams: %d teams ran on %d distinct threads, expected %d\n",
                NT, distinct, NT);
    CHECK(distinct == NT);
    static int many[MANY];
#pragma omp teams num_teams(MANY)
    TEST_INC(&many[omp_get_team_num()]);
    for (int t = 0; t < MANY; t++)
        CHECK(many[t] == 1);
    printf("kmpc_teams: ok\n");
    return 0;
}
