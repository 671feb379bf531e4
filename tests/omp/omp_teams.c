/* Host teams (GOMP_teams_reg): omp_get_num_teams/omp_get_team_num, the
 * thread_limit clause, distribute, parallel regions inside teams, and the
 * nteams-var / teams-thread-limit-var routines; the teams run at the same
 * time, each on a thread of its own (3 teams); with `places` (run with
 * OMP_PLACES set), the teams' place partitions as KMP_TEAMS_PROC_BIND
 * (spread by default, or close) splits them. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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
    long tid[3] = {0};
#pragma omp teams num_teams(3)
    {
        int t = omp_get_team_num();
        if (t >= 0 && t < 8)
            TEST_INC(&seen[t]);
        else
            TEST_INC(&bad);
        if (t >= 0 && t < 3)
            tid[t] = syscall(SYS_gettid);
        if (omp_get_num_teams() != 3)
            TEST_INC(&bad);
    }
    CHECK(bad == 0);
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 0);
    CHECK(tid[0] == syscall(SYS_gettid) && tid[1] != tid[0] && tid[2] != tid[0] &&
          tid[2] != tid[1]);
    test_outside();
}

/* The calling thread's place and the first place and size of its
 * partition (a function: OpenMP 5.1 allows no such calls strictly nested
 * in teams, as gcc checks; from a function they are the libomp tests' way). */
__attribute__((noinline)) static void where(int *place, int *first, int *len)
{
    *place = omp_get_place_num();
    *len = omp_get_partition_num_places();
    int nums[*len > 0 ? *len : 1];
    nums[0] = -1;
    omp_get_partition_place_nums(nums);
    *first = nums[0];
}

/* Each of T teams' place and partition, T = P (one place each, spread) and
 * 2P (each place twice, consecutive teams sharing it). */
static void test_places(void)
{
    int P = omp_get_num_places();
    CHECK(P > 0);
    const char *bind = getenv("KMP_TEAMS_PROC_BIND");
    int close = bind && strcmp(bind, "close") == 0;
    int here = omp_get_place_num();
    for (int k = 1; k <= 2; k++) {
        int T = k * P;
        int place[T], first[T], len[T];
#pragma omp teams num_teams(T)
        {
            int t = omp_get_team_num();
            where(&place[t], &first[t], &len[t]);
        }
        CHECK(place[0] == here);
        for (int t = 0; t < T; t++) {
            if (close) {   /* every team keeps the whole list, places dealt in turn */
                CHECK(len[t] == P && first[t] == 0);
                CHECK(place[t] == (here + t / k) % P);
            } else {       /* spread: one place each, consecutive teams on it */
                CHECK(len[t] == 1 && first[t] == place[t]);
                CHECK(place[t] == (here + t / k) % P);
            }
        }
    }
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

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "places") == 0) {
        test_places();
        printf("omp_teams places: ok\n");
        return 0;
    }
    test_outside();
    test_num_teams();
    test_thread_limit_and_parallel();
    test_distribute();
    test_icvs();
    printf("omp_teams: ok\n");
    return 0;
}
