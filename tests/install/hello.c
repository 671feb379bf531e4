/* A user's OpenMP program, built against an installed pvomp (pkg-config or
 * find_package).  It prints which library its omp_get_thread_num came from,
 * so that the test can prove the installed pvomp was the runtime loaded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    Dl_info info;
    if (!dladdr((void *)omp_get_thread_num, &info) || !info.dli_fname) {
        fprintf(stderr, "hello: dladdr failed\n");
        return 1;
    }
    char real[4096];
    printf("runtime %s\n", realpath(info.dli_fname, real) ? real : info.dli_fname);
    printf("sum %d\n", sum);
    return sum == 3 ? 0 : 1;
}
