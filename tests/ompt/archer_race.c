/* A real data race (two threads update `counter` without synchronisation):
 * ThreadSanitizer with Archer on pvomp must still report it. */
#include <omp.h>
#include <stdio.h>

static int counter;

int main(void)
{
#pragma omp parallel num_threads(2)
    {
        for (int i = 0; i < 1000; i++)
            counter++;   /* the race */
#pragma omp barrier
    }
    printf("archer_race: counter=%d\n", counter);
    return 0;
}
