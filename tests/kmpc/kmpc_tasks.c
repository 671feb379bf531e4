/* Tasks as clang compiles them: __kmpc_omp_task_alloc/__kmpc_omp_task with
 * shared and firstprivate data, final tasks, if(0) tasks
 * (task_begin_if0/complete_if0), taskwait, taskyield, taskgroup, depend. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1);
#pragma omp task shared(b) firstprivate(n) final(n < 8)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long r = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    r = fib(20);
    CHECK(r == 6765);

    /* firstprivate values are captured at creation; if(0) runs at once. */
    int seen[64] = {0}, ran_inline = 0;
    volatile int no = 0;
#pragma omp parallel num_threads(3)
#pragma omp single
    {
        for (int i = 0; i < 64; i++) {
#pragma omp task firstprivate(i) shared(seen)
            {
                omp_get_thread_num(); /* any thread */
                TEST_INC(&seen[i]);
#pragma omp taskyield
            }
        }
        int before = ran_inline;
#pragma omp task if (no) shared(ran_inline)
        ran_inline++;
        CHECK(ran_inline == before + 1); /* undeferred: done before going on */
#pragma omp taskgroup
        {
#pragma omp task shared(seen)
            {
#pragma omp task shared(seen) /* a grandchild: the taskgroup waits for it */
                TEST_INC(&seen[0]);
            }
        }
        CHECK(TEST_LOAD(&seen[0]) >= 1);
    }
    for (int i = 1; i < 64; i++)
        CHECK(seen[i] == 1);
    CHECK(seen[0] == 2);

    /* depend(out) then depend(in): the readers see the writer's value. */
    int x = 0, bad = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    for (int round = 1; round <= 50; round++) {
#pragma omp task depend(out : x) shared(x)
        {
            test_delay(200);
            x = round;
        }
        for (int k = 0; k < 3; k++) {
#pragma omp task depend(in : x) shared(x, bad) firstprivate(round)
            if (x != round)
                TEST_INC(&bad);
        }
    }
    CHECK(bad == 0 && x == 50);

    printf("kmpc_tasks: ok\n");
    return 0;
}
