//===- Passes.td - tir transformations ---------------------*- tablegen -*-===//
#ifndef TIR_TRANSFORMS_PASSES_TD
#define TIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TIRTestSchedule : Pass<"tir-test-schedule", "ModuleOp"> {
  let summary = "Apply the schedule steps written on each prim_func (testing)";
  let description = [{
    Reads the string-array attribute `tir.schedule` of every
    `tir.prim_func`, applies its steps in order through the C++ schedule
    API (`RelaxDialect/TIR/Transforms/Schedule.h`) and removes the
    attribute. Steps:

    - `split <loop> <factor>` (new loops `<loop>.outer`, `<loop>.inner`)
    - `fuse <outer> <inner>` (new loop `<outer>.<inner>.fused`)
    - `reorder <outer> <inner>`
    - `parallel <loop>`, `vectorize <loop>`, `unroll <loop>`
    - `bind <loop> <blockIdx.x | threadIdx.x | ...>`
    - `decompose_reduction <block> <loop>`
    - `compute_inline <block>`

    A step whose preconditions fail reports the primitive's error and
    fails the pass.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TIRCPUDefaultSchedule : Pass<"tir-cpu-default-schedule", "ModuleOp"> {
  let summary = "Default CPU schedule: run consumers inside their producer's "
                "loop and keep their intermediates per iteration";
  let description = [{
    For every `tir.prim_func` (a fused program holds several loop nests in
    sequence):
    - moves the pure top-level ops (constants, `tir.sym_var`, index math) to
      the start, so every nest's bounds are available everywhere;
    - for each top-level `tir.alloc` written by one nest and read by one
      block outside it (a matmul and its epilogue), moves that block's nest
      to the end of the producing nest's outermost loop
      (`reverse_compute_at`), so the consumer runs on each row right after
      the row is computed, in the same parallel loop;
    - then shrinks every top-level buffer that one loop alone accesses,
      indexing one dim by the loop's iv, to a per-iteration `local` buffer
      with that dim of extent 1 (`compact`);
    - a reduction whose reduce loop sits right inside a serial loop over the
      output's last dim (a matmul's `i, j, k`) gets its init moved out
      (`decompose_reduction`) and the two loops swapped (`i, k, j`), so the
      innermost loop walks contiguous memory and vectorises.
    Each step is tried and skipped when its preconditions do not hold; the
    program's results never change.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TIR_TRANSFORMS_PASSES_TD
