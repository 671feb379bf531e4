/* priority (run with OMP_MAX_TASK_PRIORITY=10): omp_get_max_task_priority
 * reports the bound; in a one-thread team, tasks queued before the thread
 * gets to run them run highest priority first (priorities above the bound
 * count as the bound); priorities are accepted everywhere. */
#include <omp.h>

#include "pvomp_check.h"
#include "task_test.h"

#define N 60

int main(void)
{
    int max = omp_get_max_task_priority();
    CHECK(max == 10);
    int order[N], next = 0, early = 0;
#pragma omp parallel num_threads(1)
#pragma omp single
    {
        for (int i = 0; i < N; i++) {
#pragma omp task priority(i) shared(order, next)
            order[next++] = i;
        }
        early = next;
    }
    CHECK(next == N);
    /* Tasks run while the single was still creating them (early: the
     * runtime may run some at once) are not ordered; those left queued
     * must run highest priority first -- and enough must be left queued
     * for that to be checked at all. */
    CHECK(N - early >= N / 2);
    int prev = 1 << 30;
    for (int k = early; k < N; k++) {
        int p = order[k] > max ? max : order[k];
        CHECK(p <= prev);
        prev = p;
    }
    long n = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 10000; i++) {
#pragma omp task priority(i % 20) shared(n)
        T_INC(&n);
    }
    CHECK(n == 10000);
    printf("task_priority: ok (early %d)\n", early);
    return 0;
}
