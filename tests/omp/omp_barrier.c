/* Barriers: no thread leaves a barrier before every thread of its team has
 * arrived.  Each thread counts its arrival in the counter of the current
 * step before the barrier and, after it, checks that the counter holds the
 * whole team.  Three counters rotate so that one barrier per step suffices:
 * the counter reset at step k was last read at step k-1, before barrier k. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

struct counters {
    int c[3];
    int bad;
};

static void barrier_steps(struct counters *s, int steps)
{
    int n = omp_get_num_threads(), me = omp_get_thread_num();
    for (int k = 0; k < steps; k++) {
        if ((k + me) % 13 == 0)
            test_delay(1000 * (unsigned)(me + 1));
        TEST_INC(&s->c[k % 3]);
#pragma omp barrier
        if (TEST_LOAD(&s->c[k % 3]) != n)
            TEST_INC(&s->bad);
        if (me == 0)
            TEST_STORE(&s->c[(k + 2) % 3], 0);
    }
}

static void test_explicit(void)
{
    for (int nt = 1; nt <= 5; nt++) {
        struct counters s = {{0, 0, 0}, 0};
#pragma omp parallel num_threads(nt)
        barrier_steps(&s, 20000);
        CHECK(s.bad == 0);
    }
}

/* Two nested teams at once, each with its own barrier. */
static void test_nested(void)
{
    omp_set_max_active_levels(2);
    struct counters s[2] = {{{0, 0, 0}, 0}, {{0, 0, 0}, 0}};
#pragma omp parallel num_threads(2)
    {
        struct counters *mine = &s[omp_get_thread_num()];
#pragma omp parallel num_threads(2)
        barrier_steps(mine, 5000);
    }
    CHECK(s[0].bad == 0 && s[1].bad == 0);
}

/* The implicit barriers at the end of worksharing constructs. */
static void test_implicit(void)
{
    for (int nt = 2; nt <= 4; nt++) {
        static int data[1000];
        int bad = 0;
        memset(data, 0, sizeof data);
#pragma omp parallel num_threads(nt)
        {
            for (int r = 1; r <= 50; r++) {
#pragma omp for schedule(dynamic, 7)
                for (int i = 0; i < 1000; i++) {
                    if (i % 100 == 0)
                        test_delay(500);
                    TEST_STORE(&data[i], r);
                }
                /* after the loop's barrier every element holds round r */
                for (int i = 0; i < 1000; i += 37)
                    if (TEST_LOAD(&data[i]) != r)
                        TEST_INC(&bad);
#pragma omp barrier
            }
        }
        CHECK(bad == 0);
    }
}

/* Thread 0 arrives late; nobody may leave early. */
static void test_late_arrival(void)
{
    for (int nt = 2; nt <= 4; nt++) {
        int flag = 0, early = 0;
        for (int rep = 0; rep < 20; rep++) {
            TEST_STORE(&flag, 0);
#pragma omp parallel num_threads(nt)
            {
                if (omp_get_thread_num() == 0) {
                    test_delay(200000);
                    TEST_STORE(&flag, 1);
                }
#pragma omp barrier
                if (!TEST_LOAD(&flag))
                    TEST_INC(&early);
            }
        }
        CHECK(early == 0);
    }
}

int main(void)
{
    test_explicit();
    test_nested();
    test_implicit();
    test_late_arrival();
    printf("omp_barrier: ok\n");
    return 0;
}
