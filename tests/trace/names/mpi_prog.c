/* A hybrid MPI+OpenMP program for the merged-log test (names_test.py mpi):
 * each rank runs one parallel region between two barriers; gcc's line
 * table starts its outlined function at the body's statement (MPI_BODY). */
#include <mpi.h>
#include <stdio.h>

static volatile int sink;

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
#pragma omp parallel
    {
        sink += rank; /* MPI_BODY */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
