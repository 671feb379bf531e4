/* The program of issue 21 (a benchmark, not a test): 10 M doubles, 20 steps
 * of `target teams distribute parallel for map(tofrom:)`, as a gcc program
 * built without an offload compiler.  Prints the seconds the 20 steps took,
 * a checksum, and which libgomp.so.1 the program loaded (maps.sh checks it). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    double *a = malloc(n * sizeof *a);
    if (!a)
        return 1;
    for (long i = 0; i < n; i++)
        a[i] = (double)i;
    double t0 = omp_get_wtime();
    for (int s = 0; s < steps; s++) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
        for (long i = 0; i < n; i++)
            a[i] = a[i] * 0.5 + 1.0;
    }
    double t = omp_get_wtime() - t0;
    double sum = 0;
    for (long i = 0; i < n; i += 1000)
        sum += a[i];
    Dl_info info;
    const char *lib = dladdr((void *)omp_get_wtime, &info) ? info.dli_fname : "?";
    printf("%.6f %.6e %s\n", t, sum, lib);
    free(a);
    return 0;
}
