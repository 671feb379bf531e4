/* Cancellation (run with OMP_CANCELLATION=true): a cancelled taskgroup
 * discards the tasks that had not started, and creates no new ones; a
 * cancelled parallel region discards its queued tasks; cancellation points
 * in tasks see the request; cancel for / sections stop the cancelling
 * thread's share. */
#include <omp.h>
#include <string.h>

#include "pvomp_check.h"
#include "task_test.h"

static void test_taskgroup(void)
{
    CHECK(omp_get_cancellation());
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 50; rep++) {
        int x = 0, ran = 0, seen = 0, outside = 0;
        (void)x;
#pragma omp taskgroup
        {
#pragma omp task depend(out : x)
            {
#pragma omp cancel taskgroup
            }
            /* queued only after the canceller finished: all discarded */
            for (int i = 0; i < 50; i++) {
#pragma omp task depend(in : x) shared(ran)
                T_INC(&ran);
            }
        }
        CHECK(ran == 0);
        /* The next taskgroup is not cancelled. */
#pragma omp taskgroup
        {
#pragma omp task shared(outside)
            {
#pragma omp cancellation point taskgroup
                T_INC(&outside);
            }
        }
        CHECK(outside == 1);
        /* A running task sees the request at its cancellation point. */
#pragma omp taskgroup
        {
#pragma omp task shared(seen)
            {
#pragma omp cancel taskgroup
#pragma omp cancellation point taskgroup
                seen = 1; /* not reached: cancel itself returns to the end */
            }
        }
        CHECK(seen == 0);
    }
}

static void test_parallel(void)
{
    /* One thread: everything is still queued when the region is cancelled,
     * so the final barrier discards all of it. */
    for (int rep = 0; rep < 50; rep++) {
        int x = 0, ran = 0, first = 0;
        (void)x;
#pragma omp parallel num_threads(1) shared(x, ran, first)
        {
#pragma omp task depend(out : x) shared(first)
            first = 1;
            for (int i = 0; i < 40; i++) {
#pragma omp task depend(in : x) shared(ran)
                T_INC(&ran);
            }
#pragma omp cancel parallel
            T_INC(&ran); /* not reached */
        }
        CHECK(ran == 0 && first == 0);
    }
    /* Several threads: some tasks may have run; the region still ends. */
    for (int rep = 0; rep < 50; rep++) {
        int x = 0, ran = 0;
        (void)x;
#pragma omp parallel shared(x, ran)
        {
            if (omp_get_thread_num() == 0) {
#pragma omp task depend(out : x)
                t_delay(20000);
                for (int i = 0; i < 40; i++) {
#pragma omp task depend(in : x) shared(ran)
                    T_INC(&ran);
                }
#pragma omp cancel parallel
            }
#pragma omp barrier
        }
        CHECK(ran <= 40);
    }
}

static void test_for_sections(void)
{
    enum { N = 4000 };
    static int hits[N];
    memset(hits, 0, sizeof hits);
    int nt = 1;
#pragma omp parallel shared(nt)
    {
#pragma omp single
        nt = omp_get_num_threads();
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) {
            T_INC(&hits[i]);
            if (i == 0) {
#pragma omp cancel for
            }
        }
    }
    /* Thread 0 owned [0, N/nt) and left after its first iteration. */
    CHECK(hits[0] == 1);
    for (int i = 1; i < N / nt; i++)
        CHECK(hits[i] == 0);

    int after = 0;
#pragma omp parallel num_threads(1) shared(after)
#pragma omp sections
    {
#pragma omp section
        {
#pragma omp cancel sections
            after = 1;
        }
#pragma omp section
        after = 2;
    }
    CHECK(after == 0);
}

int main(void)
{
    test_taskgroup();
    test_parallel();
    test_for_sections();
    printf("task_cancel: ok\n");
    return 0;
}
