/* __kmpc_omp_target_task_alloc: libomp's hidden helper tasks.  A target
 * task's routine runs on a hidden helper thread (libomp thread number
 * 1..N, N = LIBOMP_NUM_HIDDEN_HELPER_THREADS or 8; never a thread of the
 * team), ordered by its dependences with the team's tasks, and waited for
 * by taskwait and taskgroup; the team's threads have numbers 0 or above N.
 * With LIBOMP_USE_HIDDEN_HELPER_TASK=false a target task is a plain task.
 * `target nowait` (clang emits the same call) runs on a helper too. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef struct ident ident_t;
typedef int32_t (*routine_t)(int32_t, void *);
typedef struct {
    void *shareds;
    routine_t routine;
    int32_t part_id;
    void *data1, *data2;
} kmp_task_t;
typedef struct {
    intptr_t base_addr;
    size_t len;
    uint8_t flags;
} kmp_depend_info_t;

int32_t __kmpc_global_thread_num(ident_t *);
kmp_task_t *__kmpc_omp_task_alloc(ident_t *, int32_t, int32_t, size_t, size_t, routine_t);
kmp_task_t *__kmpc_omp_target_task_alloc(ident_t *, int32_t, int32_t, size_t, size_t, routine_t,
                                         int64_t);
int32_t __kmpc_omp_task_with_deps(ident_t *, int32_t, kmp_task_t *, int32_t, kmp_depend_info_t *,
                                  int32_t, kmp_depend_info_t *);
int32_t __kmpc_omp_task(ident_t *, int32_t, kmp_task_t *);
int32_t __kmpc_omp_taskwait(ident_t *, int32_t);
void __kmpc_taskgroup(ident_t *, int32_t);
void __kmpc_end_taskgroup(ident_t *, int32_t);

/* What a task records: its libomp thread number and kernel thread, and
 * the step it found (it appends its own: data = data * 10 + step). */
struct rec {
    int32_t gtid;
    long tid;
    int step;
    int *data;
};

static int32_t record(int32_t gtid, void *task)
{
    struct rec *r = *(struct rec **)((kmp_task_t *)task)->shareds;
    r->gtid = __kmpc_global_thread_num(NULL);
    r->tid = syscall(SYS_gettid);
    if (r->gtid != gtid)
        r->gtid = -100; /* the routine's argument is the thread's number */
    *r->data = *r->data * 10 + r->step;
    return 0;
}

static void spawn(bool hidden, struct rec *r, void *dep)
{
    int32_t gtid = __kmpc_global_thread_num(NULL);
    kmp_task_t *t = hidden ? __kmpc_omp_target_task_alloc(NULL, gtid, 1, sizeof(kmp_task_t),
                                                          sizeof(void *), record, -1)
                           : __kmpc_omp_task_alloc(NULL, gtid, 1, sizeof(kmp_task_t),
                                                   sizeof(void *), record);
    *(struct rec **)t->shareds = r;
    if (dep) {
        kmp_depend_info_t d = {(intptr_t)dep, sizeof(int), 3}; /* inout */
        __kmpc_omp_task_with_deps(NULL, gtid, t, 1, &d, 0, NULL);
    } else {
        __kmpc_omp_task(NULL, gtid, t);
    }
}

#define ROUNDS 200
#define MAXT 8

int main(void)
{
    const char *use = getenv("LIBOMP_USE_HIDDEN_HELPER_TASK");
    const char *num = getenv("LIBOMP_NUM_HIDDEN_HELPER_THREADS");
    int helpers = num ? atoi(num) : 8;
    if (use && strcmp(use, "false") == 0)
        helpers = 0;
    static long team_tid[MAXT];
    static int bad_gtid, bad_tid, bad_order, bad_group;
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        team_tid[me] = syscall(SYS_gettid);
        int32_t g = __kmpc_global_thread_num(NULL);
        if (helpers && g != 0 && g <= helpers)
            TEST_INC(&bad_gtid);
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < ROUNDS; i++) {
            /* regular -> hidden -> hidden -> regular, one inout chain */
            int data = 0, dep;
            struct rec r[4];
            for (int k = 0; k < 4; k++) {
                r[k] = (struct rec){-1, 0, k + 1, &data};
                spawn(k == 1 || k == 2, &r[k], &dep);
            }
            __kmpc_omp_taskwait(NULL, __kmpc_global_thread_num(NULL));
            if (data != 1234)
                TEST_INC(&bad_order);
            for (int k = 0; k < 4; k++) {
                bool hidden = k == 1 || k == 2;
                int32_t v = r[k].gtid;
                if (v == -100 || (helpers && hidden != (v > 0 && v <= helpers)))
                    TEST_INC(&bad_gtid);
                for (int j = 0; j < omp_get_num_threads(); j++)
                    if (helpers && hidden && r[k].tid == team_tid[j])
                        TEST_INC(&bad_tid);
            }
            /* a taskgroup waits for its hidden helper tasks */
            int a = 0, b = 0;
            struct rec ra = {-1, 0, 5, &a}, rb = {-1, 0, 6, &b};
            __kmpc_taskgroup(NULL, __kmpc_global_thread_num(NULL));
            spawn(true, &ra, NULL);
            spawn(true, &rb, NULL);
            __kmpc_end_taskgroup(NULL, __kmpc_global_thread_num(NULL));
            if (a != 5 || b != 6)
                TEST_INC(&bad_group);
        }
    }
    CHECK(bad_gtid == 0);
    CHECK(bad_tid == 0);
    CHECK(bad_order == 0);
    CHECK(bad_group == 0);
    /* target nowait: the same entry point, from clang's own code */
    long main_tid = syscall(SYS_gettid), target_tid = 0;
#pragma omp target nowait map(tofrom : target_tid)
    target_tid = syscall(SYS_gettid);
#pragma omp taskwait
    CHECK(target_tid != 0 && (helpers == 0 || target_tid != main_tid));
    printf("kmpc_hidden: ok (%d helpers)\n", helpers);
    return 0;
}
