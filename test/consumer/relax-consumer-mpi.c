/* The installed collectives (libRelaxCollectives, RelaxCollectives.h) from a
 * downstream C program under mpirun: one relax_mpi_* entry called as
 * compiled code calls it (memref descriptors: input, options = (ranks),
 * output), every rank adding its rank + 1; rank 0 prints the sum and the
 * calls the library counted. Built where the package has MPI
 * (Integration/install-consumer.mlir). */
#include "RelaxDialect/Runtime/RelaxCollectives.h"

#include <mpi.h>
#include <stdio.h>

/* A rank-1 memref descriptor (MLIR's C interface layout). */
typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1;

void _mlir_ciface_relax_mpi_allreduce_sum_r1_f32(MemRef1 *x, MemRef1 *options,
                                                 MemRef1 *y);

int main(int argc, char **argv) {
  int rank = 0, size = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  float in[2] = {(float)(rank + 1), 10.0f * (float)(rank + 1)}, out[2] = {0};
  int64_t ranks[1] = {size};
  MemRef1 x = {in, in, 0, {2}, {1}}, y = {out, out, 0, {2}, {1}};
  MemRef1 o = {ranks, ranks, 0, {1}, {1}};
  _mlir_ciface_relax_mpi_allreduce_sum_r1_f32(&x, &o, &y);
  int64_t calls = 0;
  relax_mpi_stats(NULL, &calls, NULL);
  if (rank == 0)
    printf("ranks %d: sum %g %g, %lld collective call(s)\n", size, out[0],
           out[1], (long long)calls);
  MPI_Finalize();
  return 0;
}
