/* Tasking stress: many parallel regions with changing team sizes, each
 * running a mix of task trees, dependence chains over shared cells,
 * taskgroups, taskwaits, detached tasks fulfilled by other tasks, taskloops
 * and task reductions, with every result checked.  Also the subset run under
 * ThreadSanitizer / helgrind (TASK_STRESS_REPS sets the repetitions). */
#include <omp.h>
#include <stdlib.h>

#include "pvomp_check.h"
#include "task_test.h"

#define CELLS 16

static long tree(int depth)
{
    if (depth == 0)
        return 1;
    long a = 0, b = 0;
#pragma omp task shared(a) if (depth > 2)
    a = tree(depth - 1);
#pragma omp task shared(b) final(depth < 3)
    b = tree(depth - 1);
#pragma omp taskwait
    return a + b;
}

static void one_region(int nt, unsigned seed)
{
    int cell[CELLS] = {0};
    long chain_bad = 0, trees = 0, group = 0, det = 0, loop = 0, red = 0;
#pragma omp parallel num_threads(nt) shared(cell, chain_bad, trees, group, det, loop, red)
    {
#pragma omp single nowait
        {
            unsigned s = seed;
            for (int i = 0; i < 400; i++) {
                s = s * 1103515245u + 12345u;
                int c = (s >> 16) % CELLS;
                int *p = &cell[c];
                if ((s >> 8) % 4 == 0) {
#pragma omp task depend(in : p[0]) firstprivate(p) shared(chain_bad)
                    {
                        if (*p < 0)
                            T_INC(&chain_bad);
                    }
                } else {
#pragma omp task depend(inout : p[0]) firstprivate(p)
                    (*p)++;
                }
            }
        }
#pragma omp single nowait
        {
#pragma omp task shared(trees)
            T_ADD(&trees, tree(8));
        }
#pragma omp taskgroup
        {
            for (int i = 0; i < 20; i++) {
#pragma omp task shared(group)
                {
#pragma omp task shared(group)
                    T_INC(&group);
                }
            }
        }
#pragma omp single
        {
            for (int i = 0; i < 10; i++) {
                omp_event_handle_t ev;
#pragma omp task detach(ev) shared(det)
                T_INC(&det);
#pragma omp task firstprivate(ev)
                omp_fulfill_event(ev);
            }
#pragma omp taskloop grainsize(8) shared(loop)
            for (int i = 0; i < 200; i++)
                T_INC(&loop);
#pragma omp taskgroup task_reduction(+ : red)
            {
                for (int i = 0; i < 30; i++) {
#pragma omp task in_reduction(+ : red)
                    red += 2;
                }
            }
        }
    }
    long total = 0;
    for (int c = 0; c < CELLS; c++)
        total += cell[c];
    unsigned s = seed;
    long writes = 0;
    for (int i = 0; i < 400; i++) {
        s = s * 1103515245u + 12345u;
        writes += (s >> 8) % 4 != 0;
    }
    CHECK(total == writes && chain_bad == 0);
    CHECK(trees == 256);
    CHECK(group == 20L * nt);
    CHECK(det == 10 && loop == 200 && red == 60);
}

int main(void)
{
    const char *e = getenv("TASK_STRESS_REPS");
    int reps = e ? atoi(e) : 300;
    for (int r = 0; r < reps; r++)
        one_region(1 + r % 4, 7u * (unsigned)r + 1);
    printf("task_stress: ok (%d regions)\n", reps);
    return 0;
}
