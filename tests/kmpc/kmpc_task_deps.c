/* Tasks handed over as a program may call libomp itself (as LLVM's runtime
 * tests do, emulating clang's code): a dependence-only task with no routine
 * (what `taskwait depend(...) nowait` becomes: __kmpc_omp_task_alloc with a
 * NULL entry, then __kmpc_omp_task_with_deps). */
#define _GNU_SOURCE
#include <omp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef struct {
    int reserved_1, flags, reserved_2, reserved_3;
    const char *psource;
} ident;
typedef struct {
    void *shareds;
    void *routine;
    int part_id;
    void *destructors;
    int priority;
} task_t;
typedef struct {
    intptr_t addr;
    size_t len;
    unsigned char flags; /* 1 in, 2 out, 4 mutexinoutset, 8 inoutset, 0x80 all */
} dep;

int __kmpc_global_thread_num(ident *);
task_t *__kmpc_omp_task_alloc(ident *, int gtid, int flags, size_t sizeof_task,
                              size_t sizeof_shareds, int (*entry)(int, task_t *));
int __kmpc_omp_task_with_deps(ident *, int gtid, task_t *, int ndeps, dep *deps,
                              int ndeps_noalias, dep *noalias);

static ident loc = {0, 2, 0, 0, ";kmpc_task_deps.c;main;0;0;;"};
enum { TIED = 1 };

/* One dependence-only task: no routine to run, only its dependences. */
static void depend_only(int gtid, dep *deps, int ndeps)
{
    task_t *t = __kmpc_omp_task_alloc(&loc, gtid, TIED, sizeof(task_t), 0, NULL);
    __kmpc_omp_task_with_deps(&loc, gtid, t, ndeps, deps, 0, NULL);
}

int main(void)
{
    /* The routine-less task orders like any other: a writer of x before it,
     * a task writing x after it (out after in) sees the first write. */
    int x = 0, y = 0, late = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int round = 1; round <= 20; round++) {
        int gtid = __kmpc_global_thread_num(&loc);
#pragma omp task depend(out : x) shared(x) firstprivate(round)
        {
            test_delay(100);
            x = 2 * round - 1;
        }
        dep d[2] = {{(intptr_t)&x, sizeof x, 1}, {(intptr_t)&y, sizeof y, 1}};
        depend_only(gtid, d, 2);
#pragma omp task depend(out : x) shared(x, late) firstprivate(round)
        {
            if (x != 2 * round - 1)
                TEST_INC(&late);
            x = 2 * round;
        }
    }
    CHECK(late == 0 && x == 40);

    printf("kmpc_task_deps: ok\n");
    return 0;
}
