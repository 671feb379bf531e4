/* Driver for the construct-overhead benchmarks: options, delay, timing,
 * innerreps selection and sample output.  See benchlib.h. */
#define _GNU_SOURCE
#include "benchlib.h"

#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bench_opts bench_opt = {.delay_iters = -1, .target_us = 1000.0, .outer = 10, .only = NULL, .fib = 30,
                              .calls = 1};
int bench_threads;
volatile int bench_false;

__attribute__((noinline)) void bench_delay(long iters)
{
    /* An empty asm with a memory clobber: the loop cannot be removed or
     * vectorised, and costs the same whatever runtime is loaded. */
    for (long i = 0; i < iters; i++)
        __asm__ volatile("" ::: "memory");
}

double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* Nanoseconds per bench_delay() iteration: the best of many short runs
 * (each well under a scheduler time slice, so that on a busy machine some
 * of them run without being preempted). */
static double ns_per_iter(void)
{
    const long n = 1000 * 1000;
    double best = 1e30;
    for (int k = 0; k < 50; k++) {
        double t0 = bench_now_us();
        bench_delay(n);
        double t = (bench_now_us() - t0) * 1e3 / n;
        if (t < best)
            best = t;
    }
    return best;
}

void bench_ref_delays(long innerreps)
{
    for (long j = 0; j < innerreps; j++)
        delay();
}

long bench_round(long innerreps)
{
    return (innerreps + bench_threads - 1) / bench_threads * bench_threads;
}

static int selected(const char *name)
{
    if (bench_opt.list) {
        printf("L %s\n", name);
        return 0;
    }
    if (!bench_opt.only)
        return 1;
    size_t len = strlen(name);
    for (const char *p = bench_opt.only; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0)
            return 1;
        p += n + (e != NULL);
    }
    return 0;
}

static double time_run(bench_fn fn, long innerreps)
{
    double t0 = bench_now_us();
    fn(innerreps);
    return bench_now_us() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

__attribute__((noinline)) void bench_measured(bench_fn fn, long reps)
{
    fn(reps);
    __asm__ volatile("" ::: "memory"); /* not a tail call: callgrind sees the exit */
}

void bench_overhead(const char *name, bench_fn test, bench_fn ref)
{
    if (!selected(name))
        return;
    if (bench_opt.reps > 0) {
        for (long c = 0; c < bench_opt.calls; c++)
            bench_measured(test, bench_opt.reps);
        printf("X %s reps=%ld calls=%ld\n", name, bench_opt.reps, bench_opt.calls);
        fflush(stdout);
        return;
    }
    /* Grow innerreps until a test run reaches the target time; judge each
     * size by the fastest of three runs, so that one preemption of this
     * process (easily a few ms) does not stop the growth early. */
    long innerreps = bench_round(1);
    test(innerreps); /* warm-up */
    while (innerreps < (1L << 30)) {
        double best = time_run(test, innerreps);
        for (int k = 0; k < 2; k++) {
            double t = time_run(test, innerreps);
            if (t < best)
                best = t;
        }
        if (best >= bench_opt.target_us)
            break;
        innerreps = bench_round(innerreps * 2);
    }

    int outer = bench_opt.outer;
    double *t = malloc(sizeof(double) * outer), *r = malloc(sizeof(double) * outer);
    if (!t || !r)
        abort();
    for (int k = 0; k < outer; k++) { /* reference and test interleaved */
        r[k] = time_run(ref, innerreps);
        t[k] = time_run(test, innerreps);
    }
    qsort(r, outer, sizeof(double), cmp_double);
    double ref_us = r[outer / 2]; /* median reference */
    for (int k = 0; k < outer; k++)
        printf("S %s %.5f\n", name, (t[k] - ref_us) / innerreps);
    printf("X %s innerreps=%ld ref_us=%.1f\n", name, innerreps, ref_us);
    fflush(stdout);
    free(t);
    free(r);
}

static void (*elapsed_fn)(void);
static void run_elapsed_fn(long reps)
{
    (void)reps;
    elapsed_fn();
}

void bench_elapsed(const char *name, void (*fn)(void), int reps)
{
    if (!selected(name))
        return;
    if (bench_opt.reps > 0) {
        elapsed_fn = fn;
        bench_measured(run_elapsed_fn, 1);
        printf("X %s fib=%d\n", name, bench_opt.fib);
        fflush(stdout);
        return;
    }
    for (int k = 0; k < reps; k++) {
        double t0 = bench_now_us();
        fn();
        printf("T %s %.1f\n", name, bench_now_us() - t0);
        fflush(stdout);
    }
}

static void usage(const char *suite)
{
    fprintf(stderr,
            "usage: %s [--delay-iters N | --delay-us US] [--target-us US] [--outer K]\n"
            "       [--only NAME,NAME...] [--calibrate | --list] [--reps N [--calls K] [--fib N]]\n",
            suite);
    exit(2);
}

int bench_init(int argc, char **argv, const char *suite)
{
    double delay_us = 0.1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--calibrate") == 0) {
            printf("ns_per_iter %.4f\n", ns_per_iter());
            return 1;
        }
        if (strcmp(a, "--list") == 0) {
            bench_opt.list = 1;
            bench_opt.delay_iters = 0;
            continue;
        }
        if (!v)
            usage(suite);
        if (strcmp(a, "--delay-iters") == 0)
            bench_opt.delay_iters = atol(v);
        else if (strcmp(a, "--delay-us") == 0)
            delay_us = atof(v);
        else if (strcmp(a, "--target-us") == 0)
            bench_opt.target_us = atof(v);
        else if (strcmp(a, "--outer") == 0)
            bench_opt.outer = atoi(v);
        else if (strcmp(a, "--reps") == 0)
            bench_opt.reps = atol(v);
        else if (strcmp(a, "--calls") == 0)
            bench_opt.calls = atol(v);
        else if (strcmp(a, "--fib") == 0)
            bench_opt.fib = atoi(v);
        else if (strcmp(a, "--only") == 0)
            bench_opt.only = v;
        else
            usage(suite);
        i++;
    }
    if (bench_opt.outer < 1 || bench_opt.calls < 1)
        usage(suite);
    if (bench_opt.delay_iters < 0)
        bench_opt.delay_iters = (long)(delay_us * 1e3 / ns_per_iter() + 0.5);

    if (bench_opt.list)
        return 0;
    /* Start the team once (thread creation is not what we measure) and
     * record which runtime really provides the OpenMP entry points. */
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n += 1;
    bench_threads = n;
    Dl_info info;
    const char *rt = dladdr((void *)omp_get_thread_num, &info) && info.dli_fname ? info.dli_fname : "?";
    double t0 = bench_now_us();
    bench_delay(bench_opt.delay_iters * 1000);
    printf("I suite %s\nI runtime %s\nI threads %d\nI delay_iters %ld\nI delay_us %.4f\n", suite, rt, n,
           bench_opt.delay_iters, (bench_now_us() - t0) / 1000);
    if (n != omp_get_max_threads())
        fprintf(stderr, "%s: team of %d threads, expected %d\n", suite, n, omp_get_max_threads());
    fflush(stdout);
    return 0;
}
