/* Task reductions: taskgroup task_reduction with in_reduction tasks (nested
 * taskgroups, arrays, several operators), reduction(task, ...) on parallel,
 * for, sections and scope, and an orphaned taskgroup outside parallel. */
#include <omp.h>

#include "pvomp_check.h"
#include "task_test.h"

static void test_taskgroup(void)
{
    long s = 0, m = 1, arr[4] = {0};
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : s) task_reduction(* : m) task_reduction(+ : arr)
        {
            for (int i = 1; i <= 1000; i++) {
#pragma omp task in_reduction(+ : s) in_reduction(+ : arr) firstprivate(i)
                {
                    s += i;
                    arr[i % 4] += 1;
                }
            }
            for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(* : m)
                m *= 2;
            }
            /* A nested taskgroup adds its own item; the outer ones stay visible. */
            long t = 0;
#pragma omp taskgroup task_reduction(+ : t)
            {
                for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : t, s)
                    {
                        t += 1;
                        s += 1;
                    }
                }
            }
            CHECK(t == 100);
        }
    }
    CHECK(s == 500500 + 100);
    CHECK(m == 1024);
    for (int i = 0; i < 4; i++)
        CHECK(arr[i] == 250);
}

static void test_parallel_task_reduction(void)
{
    long s = 0;
    int nt = 0;
#pragma omp parallel reduction(task, + : s)
    {
#pragma omp single
        nt = omp_get_num_threads();
        s += 1; /* the implicit task's own contribution */
        for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : s)
            s += 2;
        }
    }
    CHECK(s == (long)nt * 101);
}

static void test_worksharing_task_reduction(void)
{
    long s = 0, q = 0, c = 0;
#pragma omp parallel
    {
#pragma omp for reduction(task, + : s)
        for (int i = 0; i < 1000; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
            s += i;
        }
#pragma omp sections reduction(task, + : q)
        {
#pragma omp section
            {
#pragma omp task in_reduction(+ : q)
                q += 1;
            }
#pragma omp section
            {
#pragma omp task in_reduction(+ : q)
                q += 10;
            }
        }
#pragma omp scope reduction(task, + : c)
        {
#pragma omp task in_reduction(+ : c)
            c += 1;
        }
    }
    CHECK(s == 499500);
    CHECK(q == 11);
    CHECK(c == omp_get_max_threads());
}

static void test_orphaned(void)
{
    long s = 0;
#pragma omp taskgroup task_reduction(+ : s)
    {
        for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : s)
            s += 3;
        }
    }
    CHECK(s == 30);
}

int main(void)
{
    test_taskgroup();
    test_parallel_task_reduction();
    test_worksharing_task_reduction();
    test_orphaned();
    printf("task_reduction: ok\n");
    return 0;
}
