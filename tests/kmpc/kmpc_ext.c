/* libomp's kmp_* extensions (declared by clang's omp.h) and ompc_* helpers
 * on pvomp: settings that take effect (thread counts, stack size of new
 * threads), values kept for their getters, memory and affinity masks. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

void ompc_set_num_threads(int);
int ompc_get_team_size(int);

int main(void)
{
    int n = 0;
    kmp_set_defaults("OMP_NUM_THREADS=3");
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    CHECK(n == 3);
    ompc_set_num_threads(2);
    int team = 0;
#pragma omp parallel
#pragma omp single
    team = ompc_get_team_size(1);
    CHECK(team == 2);

    kmp_set_stacksize_s(4u << 20);
    CHECK(kmp_get_stacksize_s() == 4u << 20);
    CHECK(kmp_get_stacksize() == 4 << 20);
    kmp_set_blocktime(17);
    CHECK(kmp_get_blocktime() == 17);
    kmp_set_library_turnaround();
    CHECK(kmp_get_library() == 2);
    kmp_set_library_throughput();
    CHECK(kmp_get_library() == 3);

    char *p = kmp_aligned_malloc(100, 256);
    CHECK(p && ((uintptr_t)p & 255) == 0);
    p = kmp_realloc(p, 200);
    CHECK(p);
    kmp_free(p);
    int *z = kmp_calloc(4, sizeof(int));
    CHECK(z && z[0] == 0 && z[3] == 0);
    kmp_free(z);

    kmp_affinity_mask_t mask;
    kmp_create_affinity_mask(&mask);
    CHECK(kmp_get_affinity_max_proc() >= 1);
    CHECK(kmp_get_affinity(&mask) == 0);
    int cpu = -1;
    for (int i = 0; i < kmp_get_affinity_max_proc() && cpu < 0; i++)
        if (kmp_get_affinity_mask_proc(i, &mask) == 1)
            cpu = i;
    CHECK(cpu >= 0); /* this thread may run somewhere */
    CHECK(kmp_unset_affinity_mask_proc(cpu, &mask) == 0);
    CHECK(kmp_get_affinity_mask_proc(cpu, &mask) == 0);
    CHECK(kmp_set_affinity_mask_proc(cpu, &mask) == 0);
    CHECK(kmp_set_affinity(&mask) == 0);
    CHECK(kmp_set_affinity_mask_proc(-1, &mask) == -1);
    kmp_destroy_affinity_mask(&mask);
    printf("kmpc_ext: ok\n");
    return 0;
}
