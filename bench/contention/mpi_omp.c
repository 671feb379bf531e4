/* An MPI + OpenMP time-step kernel for bench/contention's MPI scenario:
 * every step each rank updates its share of an array with a `parallel for`,
 * then the ranks agree on a sum (MPI_Allreduce: Open MPI polls while it
 * waits).  Usage: mpi_omp STEPS N.  Rank 0 prints "SECONDS <s> CHECK <v>". */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long steps = argc > 1 ? atol(argv[1]) : 2000, n = argc > 2 ? atol(argv[2]) : 50000;
    double *a = calloc((size_t)n, sizeof *a), total = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long s = 0; s < steps; s++) {
        double sum = 0, all;
#pragma omp parallel for schedule(static) reduction(+ : sum)
        for (long i = 0; i < n; i++) {
            a[i] = a[i] * 0.5 + (double)((i + rank) % 7) * 1e-3;
            sum += a[i];
        }
        MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        total += all;
    }
    double t = MPI_Wtime() - t0;
    if (rank == 0)
        printf("SECONDS %.6f CHECK %.6g\n", t, total);
    free(a);
    MPI_Finalize();
    return 0;
}
