/* Single: exactly one thread executes each single construct (with and
 * without nowait, in long nowait chains), the implicit barrier makes its
 * writes visible, and copyprivate broadcasts scalars, arrays and structs to
 * every thread of the team. */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define REPS 500
#define CHAIN 40

static void test_single_once(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        static int cnt[REPS], who[REPS];
        int stale = 0;
        memset(cnt, 0, sizeof cnt);
#pragma omp parallel num_threads(nt)
        {
            for (int r = 0; r < REPS; r++) {
#pragma omp single
                {
                    TEST_INC(&cnt[r]);
                    who[r] = omp_get_thread_num();
                }
                /* Implicit barrier: the write is visible to everyone. */
                if (TEST_LOAD(&cnt[r]) != 1)
                    TEST_INC(&stale);
            }
        }
        CHECK(stale == 0);
        for (int r = 0; r < REPS; r++)
            CHECK(cnt[r] == 1 && who[r] >= 0 && who[r] < nt);
    }
}

static void test_single_nowait(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        static int cnt[CHAIN];
        memset(cnt, 0, sizeof cnt);
        for (int rep = 0; rep < 50; rep++) {
#pragma omp parallel num_threads(nt)
            {
                int me = omp_get_thread_num();
                for (int k = 0; k < CHAIN; k++) {
                    if ((k + me) % 7 == 0)
                        test_delay(3000);
#pragma omp single nowait
                    TEST_INC(&cnt[k]);
                }
            }
        }
        for (int k = 0; k < CHAIN; k++)
            CHECK(cnt[k] == 50);
    }
}

struct blob {
    int a;
    double d;
    char s[40];
};

static void test_copyprivate(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        int bad = 0;
#pragma omp parallel num_threads(nt)
        {
            for (int r = 0; r < 300; r++) {
                int v = -1;
                long arr[5] = {0};
                struct blob b = {0, 0.0, ""};
#pragma omp single copyprivate(v, arr, b)
                {
                    v = 1000 + r;
                    for (int k = 0; k < 5; k++)
                        arr[k] = r * 10 + k;
                    b.a = r;
                    b.d = r * 0.5;
                    snprintf(b.s, sizeof b.s, "round %d", r);
                }
                char want[40];
                snprintf(want, sizeof want, "round %d", r);
                if (v != 1000 + r || b.a != r || b.d != r * 0.5 || strcmp(b.s, want) != 0)
                    TEST_INC(&bad);
                for (int k = 0; k < 5; k++)
                    if (arr[k] != r * 10 + k)
                        TEST_INC(&bad);
            }
        }
        CHECK(bad == 0);
    }
}

int main(void)
{
    test_single_once();
    test_single_nowait();
    test_copyprivate();
    printf("omp_single: ok\n");
    return 0;
}
