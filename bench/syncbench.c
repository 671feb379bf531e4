/* Overhead of OpenMP synchronisation and worksharing constructs, measured
 * with EPCC's method (see benchlib.h): each construct wraps a short delay,
 * and the same number of delays run sequentially is subtracted.  Run the
 * same binary on different runtimes through LD_LIBRARY_PATH (bench/run.sh). */
#include "benchlib.h"

#include <omp.h>

static omp_lock_t lock;
static int counter;
static long double ld_counter;

/* PARALLEL: fork and join a team around one delay per thread. */
static void t_parallel(long n)
{
    for (long j = 0; j < n; j++) {
#pragma omp parallel
        delay();
    }
}

/* FOR: one iteration (one delay) per thread, n loops in one region. */
static void t_for_static(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp for schedule(static)
        for (int i = 0; i < bench_threads; i++)
            delay();
    }
}

static void t_for_dynamic(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp for schedule(dynamic)
        for (int i = 0; i < bench_threads; i++)
            delay();
    }
}

static void t_for_guided(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp for schedule(guided)
        for (int i = 0; i < bench_threads; i++)
            delay();
    }
}

static void t_parallel_for(long n)
{
    for (long j = 0; j < n; j++) {
#pragma omp parallel for
        for (int i = 0; i < bench_threads; i++)
            delay();
    }
}

static void t_barrier(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
        delay();
#pragma omp barrier
    }
}

static void t_single(long n)
{
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp single
        delay();
    }
}

/* CRITICAL, LOCK, ATOMIC: n instances in total, shared by the team. */
static void t_critical(long n)
{
#pragma omp parallel
    for (long j = 0; j < n / bench_threads; j++) {
#pragma omp critical
        delay();
    }
}

static void t_lock(long n)
{
#pragma omp parallel
    for (long j = 0; j < n / bench_threads; j++) {
        omp_set_lock(&lock);
        delay();
        omp_unset_lock(&lock);
    }
}

/* ATOMIC on an int is a lock-prefixed instruction (no runtime call): a
 * control row.  On a long double gcc calls GOMP_atomic_start/end; clang
 * calls no runtime (a cmpxchg16b with -mcx16, see bench/CMakeLists.txt, or
 * libatomic in bench/clang). */
static void t_atomic(long n)
{
#pragma omp parallel
    for (long j = 0; j < n / bench_threads; j++) {
#pragma omp atomic
        counter += 1;
    }
}

static void r_atomic(long n)
{
    for (long j = 0; j < n; j++)
        *(volatile int *)&counter += 1;
}

static void t_atomic_ld(long n)
{
#pragma omp parallel
    for (long j = 0; j < n / bench_threads; j++) {
#pragma omp atomic
        ld_counter += 1;
    }
}

static void r_atomic_ld(long n)
{
    for (long j = 0; j < n; j++)
        *(volatile long double *)&ld_counter += 1;
}

static void t_ordered(long n)
{
#pragma omp parallel for ordered schedule(static, 1)
    for (long j = 0; j < n; j++) {
#pragma omp ordered
        delay();
    }
}

static void t_reduction(long n)
{
    int sum = 0;
    for (long j = 0; j < n; j++) {
#pragma omp parallel reduction(+ : sum)
        {
            delay();
            sum += 1;
        }
    }
    if (sum != n * bench_threads)
        bench_false = 1;
}

int main(int argc, char **argv)
{
    if (bench_init(argc, argv, "syncbench"))
        return 0;
    omp_init_lock(&lock);
    bench_overhead("PARALLEL", t_parallel, bench_ref_delays);
    bench_overhead("FOR_static", t_for_static, bench_ref_delays);
    bench_overhead("FOR_dynamic", t_for_dynamic, bench_ref_delays);
    bench_overhead("FOR_guided", t_for_guided, bench_ref_delays);
    bench_overhead("PARALLEL_FOR", t_parallel_for, bench_ref_delays);
    bench_overhead("BARRIER", t_barrier, bench_ref_delays);
    bench_overhead("SINGLE", t_single, bench_ref_delays);
    bench_overhead("CRITICAL", t_critical, bench_ref_delays);
    bench_overhead("LOCK", t_lock, bench_ref_delays);
    bench_overhead("ATOMIC_int", t_atomic, r_atomic);
    bench_overhead("ATOMIC_ld", t_atomic_ld, r_atomic_ld);
    bench_overhead("ORDERED", t_ordered, bench_ref_delays);
    bench_overhead("REDUCTION", t_reduction, bench_ref_delays);
    omp_destroy_lock(&lock);
    return bench_false;
}
