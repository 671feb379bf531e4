/* Two parallel regions of three threads, each with an explicit barrier: a
 * program that does not know about tools, for tools loaded through
 * OMP_TOOL_LIBRARIES (and for OMP_TOOL=disabled). */
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"

int main(void)
{
    int n = 0;
    for (int r = 0; r < 2; r++) {
#pragma omp parallel num_threads(3) reduction(+ : n)
        {
            n += 1;
#pragma omp barrier
        }
    }
    CHECK(n == 6);
    printf("constructs_probe done\n");
    return 0;
}
