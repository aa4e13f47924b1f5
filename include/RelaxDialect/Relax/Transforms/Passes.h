//===- Passes.h - relax dialect passes --------------------------*- C++ -*-===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_PASSES_H
#define RELAXDIALECT_RELAX_TRANSFORMS_PASSES_H

#include "RelaxDialect/Extern/IR/Builtins.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace relax {

#define GEN_PASS_DECL
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"

/// The rewrite of --relax-fuse-attention: softmax(q k^T * c [+ mask]) v in
/// BNSH layout -> relax.attention.
void populateFuseAttentionPatterns(RewritePatternSet &patterns);

/// registerRelaxPasses() registers every pass declared in Passes.td.
#define GEN_PASS_REGISTRATION
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"

/// A constant that externalizeParams moved out of a module: the public,
/// uninitialized memref.global `symbol` must be filled with `bytes()`
/// (C-ordered, little-endian) before the module's code runs.
struct ExternalizedParam {
  std::string symbol;
  /// The safetensors dtype name (F32, BF16, I64, ...).
  std::string dtype;
  SmallVector<int64_t> shape;
  ArrayRef<char> bytes() const {
    return owned.empty() ? view : ArrayRef<char>(owned);
  }
  /// The attribute's own storage (it lives as long as the MLIRContext) ...
  ArrayRef<char> view;
  /// ... or an expanded splat.
  std::vector<char> owned;
};

/// The rewrite of --relax-externalize-params without writing a file: for
/// the JIT, which copies the bytes into the globals itself, and for the
/// pass. Globals are renamed __relax_param_<k> in module order.
FailureOr<SmallVector<ExternalizedParam>> externalizeParams(ModuleOp module,
                                                            uint64_t minBytes);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_PASSES_H
