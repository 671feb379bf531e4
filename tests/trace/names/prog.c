/* A program for the flight log's naming tests (tests/trace/names_test.py):
 * a parallel region and a task at lines the test looks for (the markers
 * REGION, TASK: the task's pragma, where task_create's codeptr_ra points,
 * and TASK_BODY: gcc's line table starts a task's outlined function at the
 * first line of its body, not at the pragma), and, when given a
 * plugin's path, a parallel region in a library it dlopens after its own
 * region ran.  -DREBUILT: another build of the same program. */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

static volatile int sink;
#ifdef REBUILT
int rebuilt_marker = 1;
#endif

int main(int argc, char **argv)
{
#pragma omp parallel /* REGION */
    {
#pragma omp single
#pragma omp task /* TASK */
        sink++; /* TASK_BODY */
    }
    if (argc > 1) {
        /* Past one writer period: the object is found by a later pass. */
        usleep(250000);
        void *h = dlopen(argv[1], RTLD_NOW);
        if (!h) {
            fprintf(stderr, "prog: %s\n", dlerror());
            return 1;
        }
        void (*work)(void) = (void (*)(void))dlsym(h, "plugin_work");
        if (!work) {
            fprintf(stderr, "prog: %s\n", dlerror());
            return 1;
        }
        work();
    }
    return 0;
}
