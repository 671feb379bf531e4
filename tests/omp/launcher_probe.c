/* A program for the pvomp-run tests: proves (through pvomp_check.h) that it
 * runs on pvomp, prints the environment the launcher set and the team it
 * gets, echoes its arguments, and exits with a chosen status:
 *   launcher_probe [exit N] [args...] */
#define _GNU_SOURCE /* dladdr in pvomp_check.h */
#include <omp.h>

#include "pvomp_check.h"

static void show(const char *name)
{
    const char *v = getenv(name);
    printf("%s=%s\n", name, v ? v : "(unset)");
}

int main(int argc, char **argv)
{
    show("LD_LIBRARY_PATH");
    show("GOMP_WAIT_POLICY");
    show("PVOMP_DEVICE_MEMORY");
    show("OMP_NUM_THREADS");
    show("PVOMP_TRACE");
    show("PVOMP_TRACE_EVENTS");
    int team = 0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0)
            team = omp_get_num_threads();
    }
    printf("max_threads=%d team=%d\n", omp_get_max_threads(), team);
    CHECK(team == omp_get_max_threads());
    int status = 0, first = 1;
    if (argc >= 3 && strcmp(argv[1], "exit") == 0) {
        status = atoi(argv[2]);
        first = 3;
    }
    for (int i = first; i < argc; i++)
        printf("arg[%d]=<%s>\n", i - first, argv[i]);
    return status;
}
