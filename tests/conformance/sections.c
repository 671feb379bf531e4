/* Sections: each section runs exactly once, whatever the team size, in
 * orphaned, combined (parallel sections), nowait-chained and legacy forms,
 * and through the ABI directly for 0, 1 and many sections. */
#define _GNU_SOURCE
#include "pvomp_check.h"

#include <omp.h>
#include <stdbool.h>
#include <stdint.h>

static int ran[8];
static int owner[8];

static void mark(int s)
{
    __atomic_fetch_add(&ran[s], 1, __ATOMIC_RELAXED);
    owner[s] = omp_get_thread_num();
}

static void expect_each_once(const char *what, int count)
{
    for (int s = 0; s < count; s++) {
        if (ran[s] != 1) {
            fprintf(stderr, "FAIL %s: section %d ran %d times\n", what, s, ran[s]);
            exit(1);
        }
        ran[s] = 0;
    }
}

static void five_sections(void)
{
#pragma omp sections
    {
#pragma omp section
        mark(0);
#pragma omp section
        mark(1);
#pragma omp section
        mark(2);
#pragma omp section
        mark(3);
#pragma omp section
        mark(4);
    }
}

unsigned GOMP_sections_start(unsigned);
unsigned GOMP_sections_next(void);
unsigned GOMP_sections2_start(unsigned, uintptr_t *, void **);
void GOMP_sections_end(void);
void GOMP_sections_end_nowait(void);
void GOMP_parallel_sections_start(void (*)(void *), void *, unsigned, unsigned);
void GOMP_parallel_end(void);

static int many[1000];
static int x;   /* lastprivate(conditional:) target */

static void abi_body(void *arg)
{
    unsigned count = (unsigned)(uintptr_t)arg;
    for (unsigned s = GOMP_sections_next(); s; s = GOMP_sections_next()) {
        CHECK(s >= 1 && s <= count);
        __atomic_fetch_add(&many[s - 1], 1, __ATOMIC_RELAXED);
    }
    GOMP_sections_end_nowait();
}

static void abi_sections(int nthr)
{
    static const unsigned counts[] = {0, 1, 2, 999};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        unsigned count = counts[c];
#pragma omp parallel num_threads(nthr)
        {
            for (int rep = 0; rep < 20; rep++) {   /* more than the slot ring holds */
                unsigned s = rep & 1 ? GOMP_sections_start(count)
                                     : GOMP_sections2_start(count, NULL, NULL);
                for (; s; s = GOMP_sections_next()) {
                    CHECK(s >= 1 && s <= count);
                    __atomic_fetch_add(&many[s - 1], 1, __ATOMIC_RELAXED);
                }
                if (rep % 3 == 0)
                    GOMP_sections_end();
                else
                    GOMP_sections_end_nowait();
            }
        }
        for (unsigned s = 0; s < count; s++) {
            CHECK(many[s] == 20);
            many[s] = 0;
        }
        /* Legacy combined form: the team starts inside the construct. */
        GOMP_parallel_sections_start(abi_body, (void *)(uintptr_t)count, nthr, count);
        abi_body((void *)(uintptr_t)count);
        GOMP_parallel_end();
        for (unsigned s = 0; s < count; s++) {
            CHECK(many[s] == 1);
            many[s] = 0;
        }
    }
}

int main(void)
{
    for (int nthr = 1; nthr <= 4; nthr++) {
#pragma omp parallel num_threads(nthr)
        five_sections();
        expect_each_once("sections", 5);

        five_sections();   /* orphaned */
        expect_each_once("orphaned sections", 5);

#pragma omp parallel sections num_threads(nthr)
        {
#pragma omp section
            mark(0);
#pragma omp section
            mark(1);
#pragma omp section
            mark(2);
        }
        expect_each_once("parallel sections", 3);

        x = -1;
#pragma omp parallel num_threads(nthr)
        {
            for (int rep = 0; rep < 10; rep++) {
#pragma omp sections nowait
                {
#pragma omp section
                    mark(rep % 2 ? 1 : 0);
#pragma omp section
                    mark(rep % 2 ? 0 : 1);
                }
            }
#pragma omp barrier
            /* lastprivate(conditional:) in sections uses GOMP_sections2_start's mem. */
#pragma omp sections lastprivate(conditional : x)
            {
#pragma omp section
                x = 10;
#pragma omp section
                ;
#pragma omp section
                x = 30;
#pragma omp section
                if (ran[7] < 0)
                    x = 40;
            }
        }
        CHECK(ran[0] == 10 && ran[1] == 10);
        ran[0] = ran[1] = 0;
        CHECK(x == 30);
        abi_sections(nthr);
    }
    printf("sections: every section ran once\n");
    return 0;
}
