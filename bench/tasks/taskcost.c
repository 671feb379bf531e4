/* Instructions per task on each path of a task's life, for callgrind
 * (bench/tasks/instructions.sh): creation, then scheduling and completion.
 *
 * A two-thread team; thread 1 stays in the program (spinning on a flag)
 * so that thread 0 alone creates n tasks (one function per path, named
 * <path>_create) and then runs them (<path>_run: the taskwait or the
 * taskgroup end that takes, runs and completes them).  The script counts
 * each function with n and with 2n tasks: the difference over n is one
 * task.  n stays under the throttle (64 tasks per thread) so that every
 * task of the deferred paths is queued (after a warm-up: task blocks are
 * allocated once, as in a program's steady state).  Bodies are empty but
 * for a count.
 *
 * Paths: deferred (plain `task`), undeferred (`if(0)`: create and run in
 * one), depend (a chain of `depend(inout)` tasks: one queued, the others
 * released by their predecessor), taskgroup (plain tasks ended by the
 * taskgroup's end instead of taskwait).
 * Usage: taskcost N (prints "ran <count>"; exit 1 on a wrong count). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long ran;
static int dep_cell;
static volatile int stop;

__attribute__((noinline)) void deferred_create(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp task
        __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
    }
}

__attribute__((noinline)) void deferred_run(void)
{
#pragma omp taskwait
}

__attribute__((noinline)) void undeferred_create(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp task if (stop - stop)
        __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
    }
}

__attribute__((noinline)) void depend_create(long n)
{
    int *p = &dep_cell;
    for (long i = 0; i < n; i++) {
#pragma omp task depend(inout : p[0]) firstprivate(p)
        __atomic_fetch_add(&ran, 1 + (p == NULL), __ATOMIC_RELAXED);
    }
}

__attribute__((noinline)) void depend_run(void)
{
#pragma omp taskwait
}

__attribute__((noinline)) void taskgroup_create(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp task
        __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
    }
}

/* The taskgroup construct split in its two entry points (libgomp's ABI,
 * which all three runtimes export), so that its end is counted alone. */
void GOMP_taskgroup_start(void);
void GOMP_taskgroup_end(void);

__attribute__((noinline)) void taskgroup_begin(void)
{
    GOMP_taskgroup_start();
}

__attribute__((noinline)) void taskgroup_run(void)
{
    GOMP_taskgroup_end();
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 40;
    if (n <= 0 || n > 60) {
        fprintf(stderr, "taskcost: N must be 1..60 (under the throttle of a 2-thread team)\n");
        return 2;
    }
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) {
            while (!stop)
                ;
        } else {
            /* Warm-up: task blocks allocated once, as in a program's steady state. */
            for (int w = 0; w < 2; w++) {
                for (long i = 0; i < 2 * n; i++) {
#pragma omp task
                    __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
                }
#pragma omp taskwait
            }
            deferred_create(n);
            deferred_run();
            undeferred_create(n);
            depend_create(n);
            depend_run();
            taskgroup_begin();
            taskgroup_create(n);
            taskgroup_run();
            stop = 1;
        }
    }
    printf("ran %ld\n", ran);
    return ran == 8 * n ? 0 : 1;
}
