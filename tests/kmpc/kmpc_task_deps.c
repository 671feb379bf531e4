/* Tasks handed over as a program may call libomp itself (as LLVM's runtime
 * tests do, emulating clang's code): a dependence-only task with no routine
 * (what `taskwait depend(...) nowait` becomes: __kmpc_omp_task_alloc with a
 * NULL entry, then __kmpc_omp_task_with_deps), and omp_all_memory in
 * libomp's records (the 0x80 flag, or the address -1), for a task and for
 * __kmpc_omp_wait_deps. */
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
void __kmpc_omp_wait_deps(ident *, int gtid, int ndeps, dep *deps, int ndeps_noalias,
                          dep *noalias);

static ident loc = {0, 2, 0, 0, ";kmpc_task_deps.c;main;0;0;;"};
enum { TIED = 1 };

/* One dependence-only task: no routine to run, only its dependences. */
static void depend_only(int gtid, dep *deps, int ndeps)
{
    task_t *t = __kmpc_omp_task_alloc(&loc, gtid, TIED, sizeof(task_t), 0, NULL);
    __kmpc_omp_task_with_deps(&loc, gtid, t, ndeps, deps, 0, NULL);
}

/* The omp_all_memory case's variables: a and b written before the
 * all-memory task, c after it; the task checks that it ran after both. */
static int a, b, c, other, all_ran, all_early;

static int all_memory_task(int gtid, task_t *t)
{
    (void)gtid, (void)t;
    if (TEST_LOAD(&a) != 1 || TEST_LOAD(&b) != 1)
        TEST_INC(&all_early);
    TEST_STORE(&all_ran, 1);
    return 0;
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

    /* omp_all_memory: the task waits for the writers of a and b before it
     * and comes before a later reader of another variable; the wait of
     * depend(omp_all_memory) waits for that reader, not for a task without
     * dependences (it waits for the wait's end). */
    int all_bad = 0, reader_bad = 0, free_ran = 0;
#pragma omp parallel num_threads(3)
#pragma omp single
    for (int form = 0; form < 2; form++) {
        int gtid = __kmpc_global_thread_num(&loc);
        TEST_STORE(&a, 0), TEST_STORE(&b, 0), TEST_STORE(&c, 0), TEST_STORE(&all_ran, 0);
        int waited = 0;
#pragma omp task shared(waited, free_ran) /* no dependences: never waited for */
        {
            while (!TEST_LOAD(&waited))
                ;
            TEST_INC(&free_ran);
        }
#pragma omp task depend(out : a)
        {
            test_delay(300000);
            TEST_STORE(&a, 1);
        }
#pragma omp task depend(out : b)
        {
            test_delay(300000);
            TEST_STORE(&b, 1);
        }
        dep all[2] = {{(intptr_t)&c, sizeof c, 1}, {0, 0, 0x80}};
        if (form == 1)
            all[1] = (dep){-1, 0, 2};
        task_t *t = __kmpc_omp_task_alloc(&loc, gtid, TIED, sizeof(task_t), 0, all_memory_task);
        __kmpc_omp_task_with_deps(&loc, gtid, t, 2, all, 0, NULL);
#pragma omp task depend(in : other) shared(reader_bad)
        {
            if (!TEST_LOAD(&all_ran))
                TEST_INC(&reader_bad);
            test_delay(100000);
            TEST_STORE(&c, 1);
        }
        dep wait_all = {0, 0, 0x80};
        __kmpc_omp_wait_deps(&loc, gtid, 1, &wait_all, 0, NULL);
        if (TEST_LOAD(&c) != 1)
            TEST_INC(&all_bad);
        TEST_STORE(&waited, 1);
    }
    CHECK(all_early == 0 && all_bad == 0 && reader_bad == 0 && free_ran == 2);

    printf("kmpc_task_deps: ok\n");
    return 0;
}
