/* Host teams (GOMP_teams_reg): omp_get_num_teams/omp_get_team_num, the
 * thread_limit clause, distribute, parallel regions inside teams, and the
 * nteams-var / teams-thread-limit-var routines. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define N 1000

static void test_outside(void)
{
    CHECK(omp_get_num_teams() == 1);
    CHECK(omp_get_team_num() == 0);
}

static void test_num_teams(void)
{
    int seen[8] = {0}, bad = 0;
#pragma omp teams num_teams(3)
    {
        int t = omp_get_team_num();
        if (t >= 0 && t < 8)
            TEST_INC(&seen[t]);
        else
            TEST_INC(&bad);
        if (omp_get_num_teams() != 3)
            TEST_INC(&bad);
    }
    CHECK(bad == 0);
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 0);
    test_outside();
}

static void test_thread_limit_and_parallel(void)
{
    int bad = 0, members[3][4] = {{0}};
#pragma omp teams num_teams(3) thread_limit(2)
    {
        int t = omp_get_team_num();
#pragma omp parallel num_threads(2)
        {
            int n = omp_get_num_threads();
            /* The team number is still visible inside the nested region; the
             * region is the first parallel level of its contention group. */
            if (omp_get_team_num() != t || omp_get_num_teams() != 3 || n < 1 || n > 2 ||
                omp_get_level() != 1 || omp_get_thread_limit() != 2)
                TEST_INC(&bad);
            TEST_INC(&members[t][omp_get_thread_num()]);
        }
    }
    CHECK(bad == 0);
    for (int t = 0; t < 3; t++) {
        CHECK(members[t][0] == 1);
        CHECK(members[t][1] <= 1 && members[t][2] == 0);
    }
    test_outside();
}

static void test_distribute(void)
{
    static int iter[N], owner[N];
#pragma omp teams distribute num_teams(3)
    for (int i = 0; i < N; i++) {
        TEST_INC(&iter[i]);
        owner[i] = omp_get_team_num();
    }
    for (int i = 0; i < N; i++) {
        CHECK(iter[i] == 1);
        CHECK(owner[i] >= 0 && owner[i] < 3);
        iter[i] = 0;
    }

#pragma omp teams distribute parallel for num_teams(2) thread_limit(2)
    for (int i = 0; i < N; i++)
        TEST_INC(&iter[i]);
    for (int i = 0; i < N; i++)
        CHECK(iter[i] == 1);

    long sum = 0;
#pragma omp teams distribute num_teams(3) reduction(+ : sum)
    for (int i = 0; i < N; i++)
        sum += i;
    CHECK(sum == (long)N * (N - 1) / 2);
}

static void test_icvs(void)
{
    omp_set_num_teams(2);
    CHECK(omp_get_max_teams() == 2);
    int count = 0, bad = 0;
#pragma omp teams
    {
        TEST_INC(&count);
        if (omp_get_num_teams() < 1 || omp_get_num_teams() > 2)
            TEST_INC(&bad);
    }
    CHECK(bad == 0);
    CHECK(count >= 1 && count <= 2);

    omp_set_teams_thread_limit(3);
    CHECK(omp_get_teams_thread_limit() == 3);
    int lim = 0;
#pragma omp teams num_teams(1)
#pragma omp parallel num_threads(1)
    lim = omp_get_thread_limit();
    CHECK(lim >= 1 && lim <= 3);
}

int main(void)
{
    test_outside();
    test_num_teams();
    test_thread_limit_and_parallel();
    test_distribute();
    test_icvs();
    printf("omp_teams: ok\n");
    return 0;
}
