/* omp_control_tool from a program linked against pvomp's libgomp.so (the
 * reference is versioned omp_control_tool@PVOMP_1.0); argv[1] is the answer
 * expected for command 3 (flush), modifier 7. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pvomp_check.h"

int omp_control_tool(int command, int modifier, void *arg);

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    CHECK(omp_get_max_threads() >= 1);
    int r = omp_control_tool(3, 7, NULL);
    printf("omp_control_tool -> %d\n", r);
    CHECK(r == atoi(argv[1]));
    return 0;
}
