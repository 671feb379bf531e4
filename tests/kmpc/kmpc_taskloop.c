/* taskloop and task reductions as clang compiles them
 * (__kmpc_taskloop, __kmpc_taskred_init, __kmpc_taskred_modifier_init,
 * __kmpc_task_reduction_get_th_data, __kmpc_task_reduction_modifier_fini). */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define N 1000

int main(void)
{
    static int hits[N];
    int tasks_seen[64] = {0}, last = -1, fp = 7;
    long sum = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    {
        /* grainsize(10): 100 tasks of 10; every iteration once; lastprivate
         * from the task that holds N - 1; firstprivate copied into each. */
#pragma omp taskloop grainsize(10) lastprivate(last) firstprivate(fp)
        for (int i = 0; i < N; i++) {
            TEST_INC(&hits[i]);
            last = i + fp;
        }
        /* num_tasks(7) over a loop stepping down by 3 (334 iterations). */
#pragma omp taskloop num_tasks(7)
        for (int i = N - 1; i >= 0; i -= 3) {
            TEST_INC(&hits[i]);
            TEST_INC(&tasks_seen[omp_get_thread_num()]);
        }
        /* reduction on the taskloop (a taskgroup with task_reduction). */
#pragma omp taskloop reduction(+ : sum) grainsize(16)
        for (int i = 0; i < N; i++)
            sum += i;
        /* nogroup: only taskwait waits for them. */
#pragma omp taskloop nogroup num_tasks(5)
        for (int i = 0; i < 50; i++)
            TEST_INC(&hits[i]);
#pragma omp taskwait
    }
    for (int i = 0; i < N; i++)
        CHECK(hits[i] == 1 + (i % 3 == (N - 1) % 3) + (i < 50));
    CHECK(last == N - 1 + 7);
    CHECK(sum == (long)N * (N - 1) / 2);

    /* if(0): the tasks run before the construct ends, on this thread. */
    int mine = 0, me = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        me = omp_get_thread_num();
        volatile int no = 0;
#pragma omp taskloop if (no) grainsize(3)
        for (int i = 0; i < 30; i++)
            if (omp_get_thread_num() == me)
                TEST_INC(&mine);
    }
    CHECK(mine == 30);

    /* taskgroup task_reduction, nested, tasks on every thread. */
    long a = 0, b = 100;
#pragma omp parallel num_threads(4)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : a)
    {
        for (int i = 1; i <= 200; i++) {
#pragma omp task in_reduction(+ : a) firstprivate(i)
            a += i;
        }
#pragma omp taskgroup task_reduction(* : b)
        for (int i = 0; i < 3; i++) {
#pragma omp task in_reduction(* : b) in_reduction(+ : a)
            {
                b *= 2;
                a += 1000;
            }
        }
        CHECK(b == 800); /* the inner group's result, when it ends */
    }
    CHECK(a == 200 * 201 / 2 + 3000);

    /* reduction(task, ...) on parallel and on a worksharing loop. */
    long t = 0, w = 0;
#pragma omp parallel num_threads(3) reduction(task, + : t)
    {
        t += 1;
        for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : t)
            t += 10;
        }
    }
    CHECK(t == 3 + 3 * 100);
#pragma omp parallel num_threads(3)
#pragma omp for reduction(task, + : w)
    for (int i = 0; i < 90; i++) {
#pragma omp task in_reduction(+ : w) firstprivate(i)
        w += i;
    }
    CHECK(w == 90 * 89 / 2);

    printf("kmpc_taskloop: ok\n");
    return 0;
}
