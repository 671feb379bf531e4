/* Fixed-count construct loops for counting the instructions an OMPT event
 * site costs without a tool (bench/ompt/instructions.sh runs this under
 * callgrind on pvomp with and without the sites, one thread: a count that
 * the machine's load cannot disturb).
 * usage: ompt_sites <construct> <count>  */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const char *w = argv[1];
    long n = atol(argv[2]);
    omp_lock_t lock;
    omp_init_lock(&lock);
    if (strcmp(w, "parallel") == 0) {
        for (long i = 0; i < n; i++) {
#pragma omp parallel
            sink++;
        }
    } else if (strcmp(w, "barrier") == 0) {
#pragma omp parallel
        for (long i = 0; i < n; i++) {
#pragma omp barrier
        }
    } else if (strcmp(w, "critical") == 0) {
#pragma omp parallel
        for (long i = 0; i < n; i++) {
#pragma omp critical
            sink++;
        }
    } else if (strcmp(w, "lock") == 0) {
        for (long i = 0; i < n; i++) {
            omp_set_lock(&lock);
            sink++;
            omp_unset_lock(&lock);
        }
    } else if (strcmp(w, "single") == 0) {
#pragma omp parallel
        for (long i = 0; i < n; i++) {
#pragma omp single
            sink++;
        }
    } else if (strcmp(w, "for_dynamic") == 0) {
#pragma omp parallel
        for (long i = 0; i < n; i++) {
#pragma omp for schedule(dynamic)
            for (int k = 0; k < 4; k++)
                sink++;
        }
    } else if (strcmp(w, "task") == 0) {
#pragma omp parallel
#pragma omp single
        for (long i = 0; i < n; i++) {
#pragma omp task
            sink++;
#pragma omp taskwait
        }
    } else {
        fprintf(stderr, "unknown construct %s\n", w);
        return 2;
    }
    omp_destroy_lock(&lock);
    return 0;
}
