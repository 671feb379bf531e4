/* Untied tasks as clang compiles them: the body is split at each scheduling
 * point (taskyield, taskwait, a child task's creation) and the routine
 * re-submits its own task to be resumed at the next part.  Every part must
 * run, in order, once, with the task's private data kept between parts, and
 * a taskwait in a later part must wait for the children of earlier ones. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

#define NTASKS 40

int main(void)
{
    int parts[NTASKS] = {0}, order_ok[NTASKS] = {0}, kids_done[NTASKS] = {0};
#pragma omp parallel num_threads(3)
#pragma omp single
    for (int i = 0; i < NTASKS; i++) {
#pragma omp task untied firstprivate(i) shared(parts, order_ok, kids_done)
        {
            int mine = 100 * i, kids = 0; /* private: must survive the parts */
            parts[i]++;
#pragma omp taskyield
            mine += 1;
            parts[i]++;
#pragma omp task shared(kids)
            {
#pragma omp atomic
                kids++;
            }
#pragma omp task shared(kids)
            {
#pragma omp atomic
                kids++;
            }
            mine += 1;
#pragma omp taskwait
            kids_done[i] = kids;
            parts[i]++;
#pragma omp taskyield
            order_ok[i] = (mine == 100 * i + 2);
        }
    }
    for (int i = 0; i < NTASKS; i++) {
        CHECK(parts[i] == 3);
        CHECK(order_ok[i]);
        CHECK(kids_done[i] == 2);
    }
    printf("kmpc_untied: ok\n");
    return 0;
}
