/* More OMPT events than the recording tool's first chunks hold (over 2^20:
 * the old fixed log's size, past which it stopped checking): with TT_CHECK=1
 * the tool must check them all, as its TT_EVIDENCE line shows.  Only pvomp
 * gives a tool events (the system libgomp has no OMPT). */
#include <stdio.h>

int main(void)
{
    long n = 0;
#pragma omp parallel num_threads(2) reduction(+:n)
    for (int i = 0; i < 200000; i++) {
#pragma omp critical
        n++;
    }
    printf("many_events done: %ld\n", n);
    return n != 400000;
}
