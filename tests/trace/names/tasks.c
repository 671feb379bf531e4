/* Tasks from two constructs for the flight log's task table
 * (tests/trace/names_test.py `tasks`): SITE_A in main creates A_TASKS
 * tasks, SITE_B in spawn_b (called B_TASKS times) B_TASKS, each once per
 * run whatever the number of threads (single). */
#include <stdio.h>

#define A_TASKS 5
#define B_TASKS 3

static volatile int sink;

static double work(long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += (double)i * 0.5;
    return s;
}

/* One task a call: in a loop here, gcc -O1 gives the GOMP_task call the
 * function's first line instead of the pragma's. */
__attribute__((noinline)) static void spawn_b(int i)
{
#pragma omp task /* SITE_B */
    sink += (int)work(20000 * (i + 1));
}

int main(void)
{
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < A_TASKS; i++) {
#pragma omp task /* SITE_A */
            sink += (int)work(10000 * (i + 1));
        }
        for (int i = 0; i < B_TASKS; i++)
            spawn_b(i);
#pragma omp taskwait
    }
    printf("tasks: %d + %d\n", A_TASKS, B_TASKS);
    return 0;
}
