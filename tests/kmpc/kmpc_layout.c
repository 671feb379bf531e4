/* omp_*_nest_lock, whose libomp layout differs from gcc's, reach libomp's
 * versions (@VERSION) in a program linked either way: against LLVM's
 * libomp.so.5 or directly against build/lib's libomp.so (-L build/lib).
 * gcc's omp_nest_lock_t is 16 bytes, libomp's one pointer: gcc's versions
 * would write past the lock into the guard words that follow it here.
 * (omp_fulfill_event, the other such routine: kmpc_detach.) */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define GUARD 0x5a5a5a5a5a5a5a5aul

static struct {
    omp_nest_lock_t lock;
    unsigned long guard[3];
} g;

static int guards_intact(void)
{
    return g.guard[0] == GUARD && g.guard[1] == GUARD && g.guard[2] == GUARD;
}

int main(void)
{
    CHECK(sizeof(omp_nest_lock_t) == sizeof(void *));
    for (int i = 0; i < 3; i++)
        g.guard[i] = GUARD;
    omp_init_nest_lock(&g.lock);
    CHECK(guards_intact());
    omp_set_nest_lock(&g.lock);
    CHECK(omp_test_nest_lock(&g.lock) == 2);
    CHECK(guards_intact());
    int other = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
    other = omp_test_nest_lock(&g.lock); /* held by the initial thread's task */
    CHECK(other == 0);
    omp_unset_nest_lock(&g.lock);
    omp_unset_nest_lock(&g.lock);
    CHECK(omp_test_nest_lock(&g.lock) == 1);
    omp_unset_nest_lock(&g.lock);
    CHECK(guards_intact());
    omp_destroy_nest_lock(&g.lock);
    CHECK(guards_intact());

    printf("kmpc_layout: ok\n");
    return 0;
}
