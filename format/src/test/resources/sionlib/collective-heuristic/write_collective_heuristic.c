/*
 * Writes one SION file set with SIONlib's collective mode and no collsize, so that SIONlib chooses the
 * number of collectors itself; see README.md beside this file for how it is built and run.
 *
 * usage: mpirun -np TASKS write_collective_heuristic NAME NFILES FSBLKSIZE BASE STEP
 *
 * Task t requests a chunk of BASE + STEP * (t mod 4) bytes and calls sion_coll_fwrite twice (every task
 * calls it the same number of times, as the collective mode needs): a record of half its request, then
 * one of the rest minus (t mod 3) bytes. Byte k of task t's stream is (k + 31 t) mod 251.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sion.h>

static void write_record(int task, long *position, long length, int sid) {
    char *record = malloc(length > 0 ? length : 1);
    for (long i = 0; i < length; i++) {
        record[i] = (char) ((*position + i + 31L * task) % 251);
    }
    if (sion_coll_fwrite_mpi(record, 1, length, sid) != (size_t) length) {
        fprintf(stderr, "task %d: sion_coll_fwrite wrote less than %ld bytes\n", task, length);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    *position += length;
    free(record);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    if (argc != 6) {
        fprintf(stderr, "usage: %s NAME NFILES FSBLKSIZE BASE STEP\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int files = atoi(argv[2]);
    sion_int32 fsblksize = atoi(argv[3]);
    sion_int64 chunksize = atol(argv[4]) + atol(argv[5]) * (rank % 4);
    int globalrank = rank;
    MPI_Comm local = MPI_COMM_NULL;
    int sid = sion_paropen_mpi(argv[1], "wb,posix,collective", &files, MPI_COMM_WORLD, &local, &chunksize,
                               &fsblksize, &globalrank, NULL, NULL);
    if (sid < 0) {
        fprintf(stderr, "task %d: sion_paropen_mpi failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long requested = atol(argv[4]) + atol(argv[5]) * (rank % 4);
    long position = 0;
    write_record(rank, &position, requested / 2, sid);
    write_record(rank, &position, requested - requested / 2 - rank % 3, sid);
    sion_parclose_mpi(sid);
    MPI_Finalize();
    return 0;
}
