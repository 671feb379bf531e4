/* fork() outside a parallel region, after regions made worker threads: the
 * child has only the forking thread, and its regions (a team, a nested
 * team, tasks, host teams; with clang a target task on a hidden helper)
 * run with threads of its own.  The parent's pool, and the
 * parent's later regions, are unchanged.  (libgomp hangs in the child's
 * first region; libomp supports this.)  Also run traced: the child is not
 * traced, the parent's log stays whole. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvomp_check.h"
#include "omp_test.h"

enum { N = 3 };

/* The regions either process runs; returns how many checks failed. */
static int run_regions(void)
{
    int bad = 0, seen[N] = { 0 };
    long tids[N] = { 0 };
#pragma omp parallel num_threads(N)
    {
        TEST_INC(&seen[omp_get_thread_num()]);
        tids[omp_get_thread_num()] = test_gettid();
        if (omp_get_num_threads() != N)
            TEST_INC(&bad);
#pragma omp parallel num_threads(2)
        if (omp_get_num_threads() != 2 || omp_get_level() != 2)
            TEST_INC(&bad);
    }
    for (int i = 0; i < N; i++)
        bad += seen[i] != 1 || tids[i] == 0;
    bad += tids[0] != test_gettid();
    long sum = 0;
#pragma omp parallel num_threads(N)
#pragma omp single
    for (int i = 1; i <= 100; i++) {
#pragma omp task shared(sum)
        TEST_ADD(&sum, i);
    }
    bad += sum != 5050;
    /* Host teams run on device threads of their own (src/target/league.c). */
    int teams_seen[4] = { 0 };
#pragma omp teams num_teams(4)
    TEST_INC(&teams_seen[omp_get_team_num() & 3]);
    for (int i = 0; i < 4; i++)
        bad += teams_seen[i] != 1;
#ifdef __clang__
    /* clang: a target nowait task runs on a hidden helper thread. */
    int done = 0;
#pragma omp target nowait map(tofrom : done)
    done = 1;
#pragma omp taskwait
    bad += done != 1;
#endif
    return bad;
}

int main(void)
{
    omp_set_max_active_levels(2);
    CHECK(run_regions() == 0); /* the parent's workers exist now */
    for (int round = 0; round < 3; round++) {
        fflush(stdout);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            int bad = run_regions() + run_regions();
            _exit(bad ? 10 + (bad > 100 ? 100 : bad) : 0);
        }
        int status;
        CHECK(waitpid(pid, &status, 0) == pid);
        printf("round %d: child exit status %d\n", round,
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        CHECK(run_regions() == 0);
    }
    printf("PASS\n");
    return 0;
}
