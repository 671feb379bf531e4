/* EPCC-style kernels for bench/contention, timed by the program itself:
 *
 *   epcc barrier STEPS   one parallel region; every step a little work per
 *                        thread then a barrier (barrier-dense time stepping)
 *   epcc loop STEPS N    every step a new `parallel for` over N elements
 *                        then a reduction (fork/join and implicit barriers)
 *
 * Threads from OMP_NUM_THREADS.  Prints "SECONDS <s> CHECK <value>". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double work(int n, double x)
{
    for (int i = 0; i < n; i++)
        x = x * 0.999999 + 1e-6;
    return x;
}

static double barrier_kernel(long steps)
{
    double sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
        double x = omp_get_thread_num();
        for (long s = 0; s < steps; s++) {
            x = work(200, x);
#pragma omp barrier
        }
        sum += x;
    }
    return sum;
}

static double loop_kernel(long steps, long n)
{
    double *a = calloc((size_t)n, sizeof *a), total = 0;
    for (long s = 0; s < steps; s++) {
        double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
        for (long i = 0; i < n; i++) {
            a[i] = a[i] * 0.5 + (double)(i % 7) * 1e-3;
            sum += a[i];
        }
        total += sum;
    }
    free(a);
    return total;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "barrier") && strcmp(argv[1], "loop")) ||
        (!strcmp(argv[1], "loop") && argc < 4)) {
        fprintf(stderr, "usage: epcc barrier STEPS | epcc loop STEPS N\n");
        return 2;
    }
    double t0 = omp_get_wtime(), check;
    if (!strcmp(argv[1], "barrier"))
        check = barrier_kernel(atol(argv[2]));
    else
        check = loop_kernel(atol(argv[2]), atol(argv[3]));
    printf("SECONDS %.6f CHECK %.6g\n", omp_get_wtime() - t0, check);
    return 0;
}
