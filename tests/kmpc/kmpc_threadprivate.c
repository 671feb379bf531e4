/* threadprivate without TLS (clang -fnoopenmp-use-tls): every access goes
 * through __kmpc_threadprivate_cached.  Each thread has its own copy, the
 * initial thread's copy is the variable itself, other copies start from the
 * variable's first value, copyin copies the primary's, and copies persist
 * across regions (same team size, dyn-var false).  A variable registered
 * with a constructor (__kmpc_threadprivate_register, as clang does for C++
 * objects) gets its copies from it. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef struct ident ident_t;
void __kmpc_threadprivate_register(ident_t *, void *, void *(*)(void *), void *, void (*)(void *));
void *__kmpc_threadprivate_cached(ident_t *, int, void *, size_t, void ***);
int __kmpc_global_thread_num(ident_t *);
struct ident {
    int reserved_1, flags, reserved_2, reserved_3;
    const char *psource;
};
static ident_t loc = {0, 2, 0, 0, ";unknown;unknown;0;0;;"};

int x = 3;
#pragma omp threadprivate(x)

static int obj = 1;
static void **obj_cache; /* libomp keeps its per-thread array here */
static void *obj_ctor(void *p)
{
    *(int *)p = 42;
    return p;
}

int main(void)
{
    int *const global_x = &x;
    int bad = 0, first_seen[4] = {0};
    x = 10; /* the initial thread's copy, the variable itself */
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        first_seen[me] = x;
        if ((me == 0) != (&x == global_x))
            TEST_INC(&bad);
        x = 100 + me;
#pragma omp barrier
        if (x != 100 + me)
            TEST_INC(&bad);
    }
    CHECK(bad == 0 && x == 100);
    CHECK(first_seen[0] == 10);
    for (int i = 1; i < 4; i++)
        CHECK(first_seen[i] == 3); /* the value the runtime first saw */
#pragma omp parallel num_threads(4)
    if (x != 100 + omp_get_thread_num())
        TEST_INC(&bad); /* the copies persist */
    CHECK(bad == 0);
    x = 7;
#pragma omp parallel num_threads(4) copyin(x)
    if (x != 7)
        TEST_INC(&bad);
    CHECK(bad == 0);

    __kmpc_threadprivate_register(&loc, &obj, obj_ctor, NULL, NULL);
    int got[4] = {0};
#pragma omp parallel num_threads(4)
    {
        int *p = __kmpc_threadprivate_cached(&loc, __kmpc_global_thread_num(&loc), &obj, sizeof obj, &obj_cache);
        got[omp_get_thread_num()] = *p;
    }
    CHECK(got[0] == 1);
    for (int i = 1; i < 4; i++)
        CHECK(got[i] == 42);
    printf("kmpc_threadprivate: ok\n");
    return 0;
}
