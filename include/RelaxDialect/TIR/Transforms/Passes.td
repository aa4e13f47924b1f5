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

#endif // TIR_TRANSFORMS_PASSES_TD
