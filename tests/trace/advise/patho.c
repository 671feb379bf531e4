/* Pathology programs for `pvomp-trace advise` (tests/trace/advise_test.py,
 * bench/trace/advise.py): each case is a kernel with one inefficiency that
 * dominates its run by a wide margin, and a fixed variant of it.
 *
 *     patho CASE plain|fixed        prints "kernel_ns N" (the kernel's wall time)
 *
 * Each plain kernel's construct carries a marker comment PLAIN-CASE at the
 * line the advisor must name (the region's pragma: pvomp-trace names a
 * region by its outlined function's first line, which for these bodies is
 * the pragma's or the next line); the test reads the markers.  Work is
 * counted in loop iterations, not time, so the pathology's share does not
 * depend on the machine's load. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pvomp_check.h"

static volatile double sink;

/* About n ns of arithmetic (a dependent chain from a volatile: not folded,
 * not hoisted out of a loop). */
__attribute__((noinline)) static double burn(long n)
{
    double x = sink;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

#define STEPS 20
#define HEAVY 200000L

/* imbalance: a static loop whose first half carries all the work. */
static void imbalance(int fixed)
{
    for (int s = 0; s < STEPS; s++) {
        if (!fixed) {
#pragma omp parallel for schedule(static) /* PLAIN-imbalance */
            for (int i = 0; i < 64; i++)
                sink = burn(i < 32 ? HEAVY : 1000);
        } else {
#pragma omp parallel for schedule(dynamic, 1)
            for (int i = 0; i < 64; i++)
                sink = burn(i < 32 ? HEAVY : 1000);
        }
    }
}

/* serial: a time-step loop whose single copies an array while the team waits. */
#define SN 4096
static double a[SN], b[SN];
static void update(int i) { a[i] = burn(1500) + b[i]; }
static void halve(int i) { b[i] = a[i] * 0.5; }

static void serial(int fixed)
{
    if (!fixed) {
#pragma omp parallel /* PLAIN-serial */
        for (int s = 0; s < STEPS; s++) {
#pragma omp single
            for (int i = 0; i < SN; i++)
                update(i);
#pragma omp for
            for (int i = 0; i < SN; i++)
                halve(i);
        }
    } else { /* the single's loop shared out */
#pragma omp parallel
        for (int s = 0; s < STEPS; s++) {
#pragma omp for
            for (int i = 0; i < SN; i++)
                update(i);
#pragma omp for
            for (int i = 0; i < SN; i++)
                halve(i);
        }
    }
}

/* scheduling: schedule(dynamic, 1) over tiny iterations.  The loop runs
 * DREPS times, so that its dispatch cost outweighs a one-off late start of
 * the first region's worker on a loaded machine (33 ms once under CI's
 * load, against 5.5 ms of dispatch in one loop: the top finding was then
 * fork_join). */
#define DN 300000
#define DREPS 10
static float d[DN];
static void scheduling(int fixed)
{
    for (int r = 0; r < DREPS; r++) {
        if (!fixed) {
#pragma omp parallel for schedule(dynamic, 1) /* PLAIN-scheduling */
            for (int i = 0; i < DN; i++)
                d[i] = d[i] * 0.5f + 1.0f;
        } else {
#pragma omp parallel for schedule(static)
            for (int i = 0; i < DN; i++)
                d[i] = d[i] * 0.5f + 1.0f;
        }
    }
}

/* critical: a hot loop whose work is mostly inside a critical section. */
#define CN 100000
static void critical(int fixed)
{
    double sum = 0;
    if (!fixed) {
#pragma omp parallel for /* PLAIN-critical */
        for (int i = 0; i < CN; i++) {
            double v = burn(10);
#pragma omp critical /* PLAIN-critical_construct */
            sum += burn(200) + v;
        }
    } else {
#pragma omp parallel for reduction(+ : sum)
        for (int i = 0; i < CN; i++)
            sum += burn(200) + burn(10);
    }
    sink = sum;
}

/* task_overhead: recursive tasks without a cut-off. */
static long fib(int n, int cutoff)
{
    if (n < 2)
        return n;
    if (n < cutoff)
        return fib(n - 1, cutoff) + fib(n - 2, cutoff);
    long x, y;
#pragma omp task shared(x) /* PLAIN-task_overhead */
    x = fib(n - 1, cutoff);
    y = fib(n - 2, cutoff);
#pragma omp taskwait
    return x + y;
}

static void tasks(int fixed)
{
#pragma omp parallel
#pragma omp single
    sink = (double)fib(23, fixed ? 16 : 0);
}

/* task_starvation: one producer (a single) creates tasks slower than the
 * rest of the team runs them: they wait in the single's barrier for the
 * next task.  Fixed: every thread produces (a loop shared out). */
#define PN 200
static void starvation(int fixed)
{
    if (!fixed) {
#pragma omp parallel /* PLAIN-task_starvation */
#pragma omp single
        for (int i = 0; i < PN; i++) {
            double v = burn(80000); /* producing item i: the slow part */
#pragma omp task firstprivate(v)
            sink = burn(20000) + v;
        }
    } else {
#pragma omp parallel
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < PN; i++) {
            double v = burn(80000);
#pragma omp task firstprivate(v)
            sink = burn(20000) + v;
        }
    }
}

/* serial between regions: each time step, the primary thread updates the
 * array alone between two regions while the pool waits for the next fork.
 * Fixed: one region, the update shared out between the two loops.  The
 * regions' loops have about 1 ms of work: regions of a few microseconds
 * would be a second pathology (fork_join), which the fix removes too. */
static void relax(int i) { a[i] = 0.5 * (a[i] + burn(250)); }

static void between(int fixed)
{
    for (int s = 0; s < STEPS; s++) {
        if (!fixed) {
#pragma omp parallel for schedule(static) /* PLAIN-serial_between */
            for (int i = 0; i < SN; i++)
                relax(i);
            for (int i = 0; i < SN; i++) /* alone */
                b[i] = burn(300) + a[i];
#pragma omp parallel for schedule(static) /* PLAIN-serial_between_next */
            for (int i = 0; i < SN; i++)
                relax(i);
        } else {
#pragma omp parallel
            {
#pragma omp for schedule(static)
                for (int i = 0; i < SN; i++)
                    relax(i);
#pragma omp for schedule(static)
                for (int i = 0; i < SN; i++)
                    b[i] = burn(300) + a[i];
#pragma omp for schedule(static)
                for (int i = 0; i < SN; i++)
                    relax(i);
            }
        }
    }
}

/* A balanced static loop in a time-step loop, for the next two cases;
 * dynamic: the same loop with schedule(dynamic). */
static void balanced(int nthreads, long steps, long work, int dynamic)
{
    for (long s = 0; s < steps; s++) {
        if (!dynamic) {
#pragma omp parallel for schedule(static) num_threads(nthreads) /* PLAIN-balanced */
            for (int i = 0; i < 64; i++)
                sink = burn(work);
        } else {
#pragma omp parallel for schedule(dynamic) num_threads(nthreads)
            for (int i = 0; i < 64; i++)
                sink = burn(work);
        }
    }
}

/* The CPUs online (the initial thread may be bound to one place by now,
 * so its own mask does not say). */
static int cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* oversubscription: four times as many team threads as CPUs. */
static void oversubscription(int fixed)
{
    int n = cpus();
    balanced(fixed ? n : 4 * n, 400, 4000, 0);
}

/* phantom: a team on every CPU while another process burns one of them:
 * the member sharing that CPU runs at about half speed, and its static
 * share holds the team up.  Fixed: schedule(dynamic), so the members that
 * have their CPU take more of the work (one thread fewer, 2 CPUs, was
 * measured 220 ms slower on the quiet machine: a one-thread team bound
 * close still shares CPU 0 with the co-runner, and a team of 2 beside it
 * gets more than one CPU's worth). */
static void corunner(int fixed)
{
    int n = cpus();
    pid_t pid = fork();
    if (pid == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(0, &one);
        sched_setaffinity(0, sizeof one, &one);
        for (;;)
            sink = burn(1000000);
    }
    balanced(n, 100, 20000, fixed);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* fork_join: many regions each doing almost nothing. */
static double fj[64];
static void fork_join(int fixed)
{
    for (int s = 0; s < 20000; s++) {
        if (!fixed) {
#pragma omp parallel /* PLAIN-fork_join */
            fj[omp_get_thread_num() & 63] += 1.0;
        } else {
            fj[0] += 1.0;
            fj[1] += 1.0;
        }
    }
}

static const struct {
    const char *name;
    void (*fn)(int fixed);
} cases[] = {
    { "imbalance", imbalance }, { "serial", serial }, { "scheduling", scheduling },
    { "critical", critical }, { "task_overhead", tasks }, { "oversubscription", oversubscription },
    { "phantom", corunner }, { "fork_join", fork_join }, { "task_starvation", starvation },
    { "serial_between", between },
};

int main(int argc, char **argv)
{
    if (argc == 3)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if (!strcmp(argv[1], cases[i].name)) {
                int fixed = !strcmp(argv[2], "fixed");
                struct timespec t0, t1;
                clock_gettime(CLOCK_MONOTONIC, &t0);
                cases[i].fn(fixed);
                clock_gettime(CLOCK_MONOTONIC, &t1);
                printf("kernel_ns %lld\n",
                       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
                return 0;
            }
    fprintf(stderr, "usage: patho CASE plain|fixed; CASE:");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        fprintf(stderr, " %s", cases[i].name);
    fprintf(stderr, "\n");
    return 2;
}
