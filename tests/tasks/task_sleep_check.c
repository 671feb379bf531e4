/* The scheduler's no-idle-sleep invariant under many repeated task trees
 * and one-producer task loops (issue 30): run with PVOMP_TASK_CHECKS=1, the
 * runtime checks, every time a thread is about to wait in a team barrier
 * or a task wait, that no task it may run was queued before its last look
 * for work and is still queued (src/runtime/task_check.c); a violation
 * aborts the program.  No timing: the patterns are those of EPCC
 * taskbench's BRANCH/LEAF TASK TREE, MASTER TASK and NESTED MASTER TASK,
 * plus a taskwait recursion (waits with the tied-task constraint), each
 * repeated in many regions; every result is checked too.  And one case
 * made on purpose: a thread waits in a taskwait while its child is queued
 * behind a task it may not run (a higher-priority task of another thread,
 * in the shared heap): the child must run on the waiting thread, which
 * before the fix went to sleep beside it (needs OMP_MAX_TASK_PRIORITY).
 * Usage: task_sleep_check [ROUNDS] (default 200). */
#include <omp.h>
#include <stdlib.h>

#include "pvomp_check.h"
#include "task_test.h"

#define DEPTH 6

static long done_work;

static void work(void)
{
    t_delay(50);
    T_INC(&done_work);
}

/* EPCC's branch tree: every task works and creates one subtree task, twice
 * per level; nobody waits, the barrier runs what is left. */
static void branch(int level)
{
    if (level > 0) {
#pragma omp task
        {
            branch(level - 1);
            branch(level - 1);
            work();
        }
    }
}

/* Leaf tree: only the last level works. */
static void leaf(int level)
{
    if (level == 0) {
        work();
        return;
    }
#pragma omp task
    {
        leaf(level - 1);
        leaf(level - 1);
    }
}

/* Tasks of a binary recursion, each waiting for its two children. */
static long tree_wait(int depth)
{
    if (depth == 0) {
        work();
        return 1;
    }
    long a = 0, b = 0;
#pragma omp task shared(a)
    a = tree_wait(depth - 1);
#pragma omp task shared(b)
    b = tree_wait(depth - 1);
#pragma omp taskwait
    return a + b;
}

/* work() calls of branch(d): 2^d - 1 (those of leaf(d): 2^d). */
static long branch_work(int d) { return (1L << d) - 1; }

/* Thread 0 runs task T, whose child c (priority 1) waits in the shared
 * heap; thread 1 then queues x (priority 5: first in the heap), which T may
 * not run (not its descendant), and stays away from the runtime until T's
 * taskwait is over, or for 5 seconds: only thread 0 can run c in time. */
static void waiter_beside_foreign_task(void)
{
    int t_started = 0, x_queued = 0, t_done = 0, c_thread = -1, x_ran = 0;
#pragma omp parallel num_threads(2) shared(t_started, x_queued, t_done, c_thread, x_ran)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp task shared(t_started, x_queued, t_done, c_thread)
            {
#pragma omp task priority(1) shared(c_thread)
                c_thread = omp_get_thread_num();
                T_STORE(&t_started, 1);
                while (!T_LOAD(&x_queued))
                    ;
#pragma omp taskwait
                T_STORE(&t_done, 1);
            }
#pragma omp taskwait
        } else {
            while (!T_LOAD(&t_started))
                ;
#pragma omp task priority(5) shared(x_ran)
            x_ran = 1;
            T_STORE(&x_queued, 1);
            double give_up = omp_get_wtime() + 5.0;
            while (!T_LOAD(&t_done) && omp_get_wtime() < give_up)
                ;
        }
    }
    CHECK(t_done && x_ran && c_thread == 0);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    if (rounds <= 0)
        rounds = 200;
    int nt = omp_get_max_threads();
    if (omp_get_max_task_priority() >= 5)
        for (int r = 0; r < 5; r++)
            waiter_beside_foreign_task();
    long want = 0;
    for (int r = 0; r < rounds; r++) {
        /* BRANCH TASK TREE: every thread grows trees. */
#pragma omp parallel
        for (int j = 0; j < 4; j++)
            branch(DEPTH);
        want += (long)nt * 4 * branch_work(DEPTH);
        /* LEAF TASK TREE. */
#pragma omp parallel
        for (int j = 0; j < 4; j++)
            leaf(DEPTH);
        want += (long)nt * 4 * (1L << DEPTH);
        /* MASTER TASK: one thread creates them all (past the throttle). */
#pragma omp parallel
#pragma omp master
        for (int j = 0; j < 200 * nt; j++) {
#pragma omp task
            work();
        }
        want += 200L * nt;
        /* NESTED MASTER TASK: outer tasks wait for their inner ones. */
#pragma omp parallel
#pragma omp master
        for (int j = 0; j < 50; j++) {
#pragma omp task
            {
                for (int i = 0; i < nt; i++) {
#pragma omp task
                    work();
                }
#pragma omp taskwait
            }
        }
        want += 50L * nt;
        /* A taskwait recursion started by every thread. */
        long leaves = 0;
#pragma omp parallel shared(leaves)
        T_ADD(&leaves, tree_wait(5));
        CHECK(leaves == (long)nt * 32);
        want += (long)nt * 32;
        CHECK(T_LOAD(&done_work) == want);
    }
    printf("ok: %d rounds at %d threads, %ld task bodies\n", rounds, nt, want);
    return 0;
}
