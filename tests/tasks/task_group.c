/* taskgroup: waits for every descendant (children, grandchildren, deeper),
 * nests, works in every thread at once and outside parallel regions;
 * taskyield is accepted anywhere. */
#include <omp.h>

#include "pvomp_check.h"
#include "task_test.h"

static void spawn_tree(int depth, long *leaves)
{
    if (depth == 0) {
        t_delay(2000);
        T_INC(leaves);
        return;
    }
    for (int i = 0; i < 3; i++) {
#pragma omp task firstprivate(depth)
        spawn_tree(depth - 1, leaves);
    }
    /* no taskwait: the parent finishes before its children */
}

static void test_descendants(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 20; rep++) {
        long leaves = 0;
#pragma omp taskgroup
        {
#pragma omp task shared(leaves)
            spawn_tree(5, &leaves);
        }
        CHECK(T_LOAD(&leaves) == 243);
    }
}

static void test_nested(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 50; rep++) {
        long inner = 0, outer = 0;
#pragma omp taskgroup
        {
            for (int i = 0; i < 4; i++) {
#pragma omp task shared(outer)
                {
                    t_delay(5000);
                    T_INC(&outer);
                }
            }
#pragma omp taskgroup
            {
                for (int i = 0; i < 4; i++) {
#pragma omp task shared(inner)
                    {
#pragma omp task shared(inner)
                        {
                            t_delay(1000);
                            T_INC(&inner);
                        }
                    }
                }
            }
            CHECK(T_LOAD(&inner) == 4);
        }
        CHECK(T_LOAD(&outer) == 4);
    }
}

static void test_all_threads(void)
{
    int bad = 0;
#pragma omp parallel shared(bad)
    for (int rep = 0; rep < 50; rep++) {
        long n = 0;
#pragma omp taskgroup
        {
            for (int i = 0; i < 10; i++) {
#pragma omp task shared(n)
                {
#pragma omp task shared(n)
                    T_INC(&n);
                    T_INC(&n);
                }
            }
        }
        if (T_LOAD(&n) != 20)
            T_INC(&bad);
    }
    CHECK(bad == 0);
}

static void test_taskyield(void)
{
    long n = 0;
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < 100; i++) {
#pragma omp task shared(n)
            {
#pragma omp taskyield
                T_INC(&n);
            }
        }
#pragma omp taskyield
    }
    CHECK(n == 100);
#pragma omp taskyield
}

static void test_orphan_group(void)
{
    long n = 0;
#pragma omp taskgroup
    {
#pragma omp task shared(n)
        {
#pragma omp task shared(n)
            n++;
        }
    }
    CHECK(n == 1);
}

int main(void)
{
    test_descendants();
    test_nested();
    test_all_threads();
    test_taskyield();
    test_orphan_group();
    printf("task_group: ok\n");
    return 0;
}
