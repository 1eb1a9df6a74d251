/* Test-only MPI_Allgatherv for one rank's LD_PRELOAD: its first call fails, as a device fault in the middle of the position exchange would leave that rank out of step with the others. */
/* SPDX-License-Identifier: MIT */
#include <mpi.h>

/* galaxy's position exchange is one blocking MPI_Allgatherv (src/force/force.c), the first
 * one a leapfrog run makes; the rank preloading this library fails it, the others wait in it.
 * The error goes through the communicator's handler as a real one would: galaxy's returns. */
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    static int failed;
    if (!failed) {
        failed = 1;
        MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER);
        return MPI_ERR_OTHER;
    }
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm);
}
