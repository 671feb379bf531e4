/* Overhead of OpenMP tasking constructs with EPCC's taskbench method (see
 * benchlib.h): every benchmark does n delays' worth of work per thread in
 * tasks, and n delays run sequentially are subtracted.  Plus dependence
 * chains and the elapsed time of a task-parallel fib(30). */
#include "benchlib.h"

#include <omp.h>

/* PARALLEL TASK: every thread creates n tasks. */
static void t_parallel_task(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task
        delay();
    }
}

/* MASTER TASK: the master thread creates all n * threads tasks. */
static void t_master_task(long n)
{
#pragma omp parallel
#pragma omp master
    for (long j = 0; j < n * bench_threads; j++) {
#pragma omp task
        delay();
    }
}

/* CONDITIONAL TASK: if(false) makes every task undeferred. */
static void t_conditional_task(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task if (bench_false)
        delay();
    }
}

static void t_taskwait(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task
        delay();
#pragma omp taskwait
    }
}

static void t_task_barrier(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task
        delay();
#pragma omp barrier
    }
}

/* One outer task creating `threads` inner tasks and waiting for them. */
static void nested(void)
{
    for (int i = 0; i < bench_threads; i++) {
#pragma omp task
        delay();
    }
#pragma omp taskwait
}

/* NESTED TASK: every thread creates n / threads outer tasks. */
static void t_nested_task(long n)
{
#pragma omp parallel
    for (long j = 0; j < n / bench_threads; j++) {
#pragma omp task
        nested();
    }
}

/* NESTED MASTER TASK: the master creates n outer tasks. */
static void t_nested_master_task(long n)
{
#pragma omp parallel
#pragma omp master
    for (long j = 0; j < n; j++) {
#pragma omp task
        nested();
    }
}

/* Task trees, EPCC taskbench's BRANCH and LEAF TASK TREE: below level L
 * a tree is one task whose body grows two trees of level L - 1 (so every
 * task creates one task at a time, from inside a task).  In a branch tree
 * every task also does a delay, and each thread's implicit task creates
 * its roots as tasks that do one more; in a leaf tree only level 0 does a
 * delay and the implicit task grows the trees itself.  Either way a tree
 * of level TREE_DEPTH holds 2^TREE_DEPTH delays: each thread grows
 * n / 2^TREE_DEPTH of them and does the remaining delays as single tasks.
 * Nobody waits for children: the region's barrier runs what is left. */
#define TREE_DEPTH 5

static void branch_tree(int level)
{
    if (level > 0) {
#pragma omp task
        {
            branch_tree(level - 1);
            branch_tree(level - 1);
            delay();
        }
    }
}

static void leaf_tree(int level)
{
    if (level == 0) {
        delay();
        return;
    }
#pragma omp task
    {
        leaf_tree(level - 1);
        leaf_tree(level - 1);
    }
}

static void rest_as_tasks(long n)
{
    for (long j = 0; j < (n & ((1L << TREE_DEPTH) - 1)); j++) {
#pragma omp task
        delay();
    }
}

static void t_branch_task_tree(long n)
{
#pragma omp parallel
    {
        for (long j = 0; j < n >> TREE_DEPTH; j++) {
#pragma omp task
            {
                branch_tree(TREE_DEPTH);
                delay();
            }
        }
        rest_as_tasks(n);
    }
}

static void t_leaf_task_tree(long n)
{
#pragma omp parallel
    {
        for (long j = 0; j < n >> TREE_DEPTH; j++)
            leaf_tree(TREE_DEPTH);
        rest_as_tasks(n);
    }
}

/* DEPEND CHAIN: the master creates one chain of n inout tasks (no
 * parallelism: the cost of resolving a dependence and handing it over). */
static void t_dep_chain(long n)
{
    int x = 0;
#pragma omp parallel
#pragma omp master
    for (long j = 0; j < n; j++) {
#pragma omp task depend(inout : x)
        delay();
    }
    (void)x;
}

/* DEPEND CHAINS: every thread creates its own chain of n inout tasks. */
static char chain_slot[64][64];

static void t_dep_chains(long n)
{
#pragma omp parallel
    {
        char *mine = chain_slot[omp_get_thread_num() % 64];
        for (long j = 0; j < n; j++) {
#pragma omp task depend(inout : mine[0])
            delay();
        }
        (void)mine; /* only named in the depend clause */
    }
}

/* fib(30) with a task per call and no cut-off: ~2.7 million tasks. */
static long fib(int k)
{
    long a, b;
    if (k < 2)
        return k;
#pragma omp task shared(a)
    a = fib(k - 1);
#pragma omp task shared(b)
    b = fib(k - 2);
#pragma omp taskwait
    return a + b;
}

static void run_fib30(void)
{
    long r = 0, want = 0, next = 1;
    for (int k = 0; k < bench_opt.fib; k++) { /* want = fib(--fib N), 832040 for 30 */
        long t = want + next;
        want = next;
        next = t;
    }
#pragma omp parallel
#pragma omp single
    r = fib(bench_opt.fib);
    if (r != want)
        bench_false = 1;
}

int main(int argc, char **argv)
{
    if (bench_init(argc, argv, "taskbench"))
        return 0;
    bench_overhead("PARALLEL_TASK", t_parallel_task, bench_ref_delays);
    bench_overhead("MASTER_TASK", t_master_task, bench_ref_delays);
    bench_overhead("CONDITIONAL_TASK", t_conditional_task, bench_ref_delays);
    bench_overhead("TASKWAIT", t_taskwait, bench_ref_delays);
    bench_overhead("TASK_BARRIER", t_task_barrier, bench_ref_delays);
    bench_overhead("NESTED_TASK", t_nested_task, bench_ref_delays);
    bench_overhead("NESTED_MASTER_TASK", t_nested_master_task, bench_ref_delays);
    bench_overhead("BRANCH_TASK_TREE", t_branch_task_tree, bench_ref_delays);
    bench_overhead("LEAF_TASK_TREE", t_leaf_task_tree, bench_ref_delays);
    bench_overhead("DEP_CHAIN", t_dep_chain, bench_ref_delays);
    bench_overhead("DEP_CHAINS", t_dep_chains, bench_ref_delays);
    bench_elapsed("FIB30", run_fib30, 1);
    return bench_false;
}
