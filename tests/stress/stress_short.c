/* A short run of every host construct, for memory checkers (valgrind
 * memcheck runs it in CTest): parallel regions of changing sizes, nested
 * teams, loops of each schedule, ordered, doacross, sections, single with
 * copyprivate, critical, atomic, locks, reductions, teams, allocators,
 * omp_pause_resource_all (which must release and recreate the pool).
 * Results are checked as in tests/omp. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define N 300

static void round_of_everything(int n)
{
    static int iter[N];
    memset(iter, 0, sizeof iter);
    long sum = 0;
    int single_cnt = 0, seq[N], nseq = 0, bad = 0;
    omp_lock_t l;
    omp_nest_lock_t nl;
    omp_init_lock(&l);
    omp_init_nest_lock(&nl);
    /* One counter per mutex: two different mutexes do not exclude each other. */
    long in_critical = 0, in_lock = 0, in_nest_lock = 0;
    long double ld = 0;
#pragma omp parallel num_threads(n) reduction(+ : sum)
    {
#pragma omp for schedule(dynamic, 3) nowait
        for (int i = 0; i < N; i++)
            TEST_INC(&iter[i]);
#pragma omp for schedule(guided)
        for (int i = 0; i < N; i++)
            TEST_INC(&iter[i]);
#pragma omp for schedule(runtime)
        for (int i = 0; i < N; i++)
            TEST_INC(&iter[i]);
#pragma omp for schedule(static, 2) ordered
        for (int i = 0; i < N; i++) {
#pragma omp ordered
            seq[nseq++] = i;
        }
#pragma omp for ordered(1) schedule(dynamic)
        for (int i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
            sum += i;
#pragma omp ordered depend(source)
        }
#pragma omp sections
        {
#pragma omp section
            TEST_INC(&single_cnt);
#pragma omp section
            TEST_INC(&single_cnt);
        }
        int v = 0;
#pragma omp single copyprivate(v)
        v = 42;
        if (v != 42)
            TEST_INC(&bad);
#pragma omp critical
        in_critical++;
        omp_set_lock(&l);
        in_lock++;
        omp_unset_lock(&l);
        omp_set_nest_lock(&nl);
        omp_set_nest_lock(&nl);
        in_nest_lock++;
        omp_unset_nest_lock(&nl);
        omp_unset_nest_lock(&nl);
#pragma omp atomic
        ld += 1.0L;
#pragma omp barrier
    }
    omp_destroy_lock(&l);
    omp_destroy_nest_lock(&nl);
    CHECK(bad == 0);
    CHECK(single_cnt == 2);
    CHECK(in_critical == n && in_lock == n && in_nest_lock == n);
    CHECK(ld == n);
    CHECK(sum == (long)N * (N - 1) / 2);
    CHECK(nseq == N);
    for (int i = 0; i < N; i++)
        CHECK(iter[i] == 3 && seq[i] == i);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    omp_set_max_active_levels(2);
    for (int r = 0; r < rounds; r++) {
        round_of_everything(1 + r % 4);
        int cnt = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(1 + r % 3)
        TEST_INC(&cnt);
        CHECK(cnt == 2 * (1 + r % 3));
        int teams = 0;
#pragma omp teams num_teams(2)
        TEST_INC(&teams);
        CHECK(teams == 2);
        void *p = omp_aligned_alloc(64, 1000, omp_default_mem_alloc);
        CHECK(p != NULL);
        omp_free(p, omp_default_mem_alloc);
        if (r % 10 == 5)
            CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
    }
    printf("stress_short: %d rounds ok\n", rounds);
    return 0;
}
