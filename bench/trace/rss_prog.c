/* A trivial traced program for bench/trace/rss.sh: every thread records a
 * few events (parallel regions, barriers), so that every thread has a ring. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    for (int i = 0; i < 10; i++) {
#pragma omp parallel
        {
#pragma omp barrier
#pragma omp atomic
            n++;
        }
    }
    printf("%d threads, %d arrivals\n", omp_get_max_threads(), n);
    return 0;
}
