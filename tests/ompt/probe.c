/* A program that uses the OpenMP API but no construct: enough to see tool
 * discovery, initialization, the initial thread and task, omp_control_tool
 * and finalization.  omp_control_tool is declared weak and referenced
 * unversioned (gcc 12's libgomp has no such symbol): at run time it binds
 * to pvomp's default version. */
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"

extern int omp_control_tool(int command, int modifier, void *arg) __attribute__((weak));

int main(void)
{
    CHECK(omp_control_tool != NULL);
    CHECK(omp_get_num_procs() >= 1);
    int x = 0;
    /* omp_control_tool_flush = 3 */
    printf("control_tool -> %d\n", omp_control_tool(3, 7, &x));
    printf("probe done\n");
    return 0;
}
