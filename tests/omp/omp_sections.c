/* Sections: each section runs exactly once per construct, with 1 to 4
 * threads, more sections than threads, nowait chains, parallel sections,
 * lastprivate (plain and conditional: GOMP_sections2_start), and the ABI's
 * sections entry points called directly (including the legacy
 * GOMP_parallel_sections_start). */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>
#include <stdint.h>

#include "pvomp_check.h"
#include "omp_test.h"

unsigned GOMP_sections_start(unsigned);
unsigned GOMP_sections_next(void);
void GOMP_sections_end(void);
void GOMP_sections_end_nowait(void);
void GOMP_parallel_sections_start(void (*)(void *), void *, unsigned, unsigned);
void GOMP_parallel_sections(void (*)(void *), void *, unsigned, unsigned, unsigned);
void GOMP_parallel_end(void);

#define CHAIN 12

static void test_sections(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        for (int rep = 0; rep < 200; rep++) {
            int cnt[5] = {0}, after_bad = 0;
#pragma omp parallel num_threads(nt)
            {
#pragma omp sections
                {
#pragma omp section
                    TEST_INC(&cnt[0]);
#pragma omp section
                    {
                        test_delay(500);
                        TEST_INC(&cnt[1]);
                    }
#pragma omp section
                    TEST_INC(&cnt[2]);
#pragma omp section
                    TEST_INC(&cnt[3]);
#pragma omp section
                    TEST_INC(&cnt[4]);
                }
                /* The construct ends with a barrier: all sections are done. */
                for (int k = 0; k < 5; k++)
                    if (TEST_LOAD(&cnt[k]) != 1)
                        TEST_INC(&after_bad);
            }
            CHECK(after_bad == 0);
            for (int k = 0; k < 5; k++)
                CHECK(cnt[k] == 1);
        }
    }
}

static void test_nowait_chain(void)
{
    for (int nt = 1; nt <= 4; nt++) {
        int cnt[CHAIN][3] = {{0}};
#pragma omp parallel num_threads(nt)
        {
            for (int k = 0; k < CHAIN; k++) {
#pragma omp sections nowait
                {
#pragma omp section
                    TEST_INC(&cnt[k][0]);
#pragma omp section
                    {
                        if (k % 3 == 0)
                            test_delay(5000);
                        TEST_INC(&cnt[k][1]);
                    }
#pragma omp section
                    TEST_INC(&cnt[k][2]);
                }
            }
        }
        for (int k = 0; k < CHAIN; k++)
            for (int s = 0; s < 3; s++)
                CHECK(cnt[k][s] == 1);
    }
}

static void test_parallel_sections(void)
{
    int cnt[7] = {0}, nthr = 0;
#pragma omp parallel sections num_threads(3)
    {
#pragma omp section
        {
            TEST_INC(&cnt[0]);
            nthr = omp_get_num_threads();
        }
#pragma omp section
        TEST_INC(&cnt[1]);
#pragma omp section
        TEST_INC(&cnt[2]);
#pragma omp section
        TEST_INC(&cnt[3]);
#pragma omp section
        TEST_INC(&cnt[4]);
#pragma omp section
        TEST_INC(&cnt[5]);
#pragma omp section
        TEST_INC(&cnt[6]);
    }
    CHECK(nthr == 3);
    for (int k = 0; k < 7; k++)
        CHECK(cnt[k] == 1);
}

static void test_lastprivate(void)
{
    int x = -1;
#pragma omp parallel num_threads(3)
#pragma omp sections lastprivate(x)
    {
#pragma omp section
        x = 10;
#pragma omp section
        x = 20;
#pragma omp section
        {
            test_delay(3000);
            x = 30;
        }
    }
    CHECK(x == 30);

    /* lastprivate(conditional:) makes gcc call GOMP_sections2_start; the
     * value is the one assigned last in sequential order (section 2 here,
     * since section 3 does not assign). */
    int flags[3] = {1, 1, 0}, y = -1;
#pragma omp parallel num_threads(3)
#pragma omp sections firstprivate(y) lastprivate(conditional : y)
    {
#pragma omp section
        if (flags[0])
            y = 100;
#pragma omp section
        {
            test_delay(3000);
            if (flags[1])
                y = 200;
        }
#pragma omp section
        if (flags[2])
            y = 300;
    }
    CHECK(y == 200);
}

/* Direct calls. */
struct direct {
    unsigned count;
    int cnt[40];
    int bad;
};

static void direct_body(void *p)
{
    struct direct *d = p;
    for (unsigned s = GOMP_sections_next(); s != 0; s = GOMP_sections_next()) {
        if (s > d->count)
            TEST_INC(&d->bad);
        else
            TEST_INC(&d->cnt[s - 1]);
    }
    GOMP_sections_end_nowait();
}

static void check_direct(const struct direct *d)
{
    CHECK(d->bad == 0);
    for (unsigned s = 0; s < 40; s++)
        CHECK(d->cnt[s] == (s < d->count));
}

static void test_direct(void)
{
    static struct direct d;
    for (unsigned count = 0; count <= 33; count += 11) {
        memset(&d, 0, sizeof d);
        d.count = count;
#pragma omp parallel num_threads(3)
        {
            for (unsigned s = GOMP_sections_start(count); s != 0; s = GOMP_sections_next()) {
                if (s > count)
                    TEST_INC(&d.bad);
                else
                    TEST_INC(&d.cnt[s - 1]);
            }
            GOMP_sections_end();
        }
        check_direct(&d);

        memset(&d, 0, sizeof d);
        d.count = count;
        GOMP_parallel_sections(direct_body, &d, 4, count, 0);
        check_direct(&d);

        memset(&d, 0, sizeof d);
        d.count = count;
        GOMP_parallel_sections_start(direct_body, &d, 2, count);
        direct_body(&d);
        GOMP_parallel_end();
        check_direct(&d);
    }
}

int main(void)
{
    test_sections();
    test_nowait_chain();
    test_parallel_sections();
    test_lastprivate();
    test_direct();
    printf("omp_sections: ok\n");
    return 0;
}
