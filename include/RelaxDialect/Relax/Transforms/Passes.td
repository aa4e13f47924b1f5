//===- Passes.td - relax dialect passes --------------------*- tablegen -*-===//
#ifndef RELAX_TRANSFORMS_PASSES_TD
#define RELAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelaxVerifyWellFormed : Pass<"relax-verify-well-formed", "ModuleOp"> {
  let summary = "Check that every symbolic variable is bound before use";
  let description = [{
    Runs the relax well-formedness check on every `relax.func`: each
    symbolic variable is bound by a parameter type (a dim that is the bare
    variable) or by an earlier `relax.match_cast` before any other use. The
    verifier runs the same check; this pass makes it explicit in pipelines
    that disable verification, and is the check to put after a pass under
    development.
  }];
  let dependentDialects = ["::mlir::relax::RelaxDialect"];
}

#endif // RELAX_TRANSFORMS_PASSES_TD
