//===- RelaxCollectiveOps.td - collectives across ranks ----*- tablegen -*-===//
//
// The communication of a tensor-parallel (SPMD) program: every rank runs the
// same module on its slice of the weights and meets the others in these ops.
// They stay graph-level ops until --relax-lower-collectives turns them into
// library calls (MPI on the CPU, NCCL names on the GPU); docs/llm.md
// ("Tensor parallel") says why upstream's shard and mpi dialects are not
// used at this level.
//
// A TableGen run of its own (RelaxCollectiveOps.h.inc, filtered to the
// `ccl.` ops): only the files that use the collectives include their
// classes (RelaxCollectiveOps.h), so adding them did not rebuild every user
// of RelaxOps.h.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_COLLECTIVE_OPS_TD
#define RELAX_COLLECTIVE_OPS_TD

include "RelaxDialect/Relax/IR/RelaxOps.td"

// Pure at graph level, as in Relax: all ranks run the same program through
// the same passes, so an op that CSE merges or DCE drops is merged or
// dropped on every rank and the ranks still meet in the same order.
def Relax_AllReduceOp : Relax_TensorOp<"ccl.allreduce"> {
  let summary = "Elementwise reduction of a tensor over all ranks";
  let description = [{
    Every one of the `num_ranks` ranks passes a tensor of the same shape;
    each receives the elementwise `op` (`sum`, `prod`, `max` or `min`) of
    all of them. The result has the input's type. `num_ranks` (at least 1)
    is the number of ranks the program was sharded for; the runtime checks
    it against the ranks it runs on. The dtype must be floating point.

    ```mlir
    %y = relax.ccl.allreduce %x {num_ranks = 2 : i64, op = "sum"} : (!relax.tensor<[1, s, 512], f32>) -> !relax.tensor<[1, s, 512], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       DefaultValuedAttr<StrAttr, "\"sum\"">:$op,
                       I64Attr:$num_ranks);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_AllGatherOp : Relax_TensorOp<"ccl.allgather"> {
  let summary = "Concatenation of every rank's tensor along an axis";
  let description = [{
    Every one of the `num_ranks` ranks passes a tensor of the same shape;
    each receives them all concatenated along `axis` (negative counts from
    the end) in rank order: that dim becomes `num_ranks * d`. The input
    must have a known rank and a floating-point dtype.

    ```mlir
    %y = relax.ccl.allgather %x {axis = -1 : i64, num_ranks = 2 : i64} : (!relax.tensor<[1, 1, v], f32>) -> !relax.tensor<[1, 1, 2 * v], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, I64Attr:$axis,
                       I64Attr:$num_ranks);
  let results = (outs Relax_AnyTensor:$result);
}

#endif // RELAX_COLLECTIVE_OPS_TD
