/* The HTML report's test program (tests/trace/html_test.py): ROUNDS
 * parallel regions whose threads do unequal work, meet at a barrier and take
 * a critical section, so the timeline holds regions, parallel, barrier,
 * spin/blocked and critical intervals.  argv[1]: rounds (default 12);
 * argv[2]: "loop" for a tight barrier loop instead (the 1M-record log). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double work(long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += (double)i * 0.5;
    return s;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 12;
    double total = 0;
    if (argc > 2 && !strcmp(argv[2], "loop")) {
#pragma omp parallel
        for (long r = 0; r < rounds; r++) {
#pragma omp barrier
        }
        printf("loop: %ld barriers\n", rounds);
        return 0;
    }
    for (long r = 0; r < rounds; r++) {
#pragma omp parallel reduction(+ : total) /* region */
        {
            total += work(200000L * (omp_get_thread_num() + 1));
#pragma omp barrier
#pragma omp critical
            total += 1;
        }
    }
    printf("regions: %ld rounds, %g\n", rounds, total);
    return 0;
}
