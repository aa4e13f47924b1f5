//===- TOSAToRelax.h - TOSA functions to relax functions --------*- C++ -*-===//
//
// --convert-tosa-to-relax as DialectConversion patterns, one family per
// populate function (as upstream's TosaToLinalg), over one type converter
// that also names the symbolic dims of each converted function.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_TOSATORELAX_TOSATORELAX_H
#define RELAXDIALECT_CONVERSION_TOSATORELAX_TOSATORELAX_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_CONVERTTOSATORELAX
#include "RelaxDialect/Conversion/Passes.h.inc"

/// TOSA's tensor types to relax tensors, and the names of their symbolic
/// dims.
///
/// A type alone cannot name a dim: `tensor<?x4xf32>` converts to
/// `!relax.tensor<[?, 4], f32>`, and an unranked tensor to
/// `!relax.tensor<*, f32>`; element types relax has no dtype for (i4, i48,
/// complex) and other types (`!tosa.shape`) do not convert. The names come
/// with each converted function, which the converter keeps apart
/// (`scope`, the new relax.func): its arguments' `?` dims take the dim names
/// given here, in order, then `argI_dJ`; a result dim relax's inference
/// leaves unknown takes a fresh `vK` that the function does not use yet.
class TosaToRelaxTypeConverter : public TypeConverter {
public:
  explicit TosaToRelaxTypeConverter(ArrayRef<std::string> dimNames = {});

  /// The relax types of `func`'s arguments, each `?` dim named. Emits an
  /// error at `func` and fails for a function with control flow (more than
  /// one block), an argument that is not a ranked tensor of a relax dtype,
  /// or a dim name the symbolic parser cannot read back.
  FailureOr<SmallVector<Type>> convertArgumentTypes(func::FuncOp func) const;

  /// Records the variables of `types` (the arguments of the new function
  /// `scope`) as names in use there.
  void declareNames(Operation *scope, TypeRange types) const;

  /// A variable name that `scope` does not use yet (`v0`, `v1`, ...), now
  /// in use.
  std::string freshVar(Operation *scope) const;

private:
  SmallVector<std::string> dimNames;
  /// The names in use in each converted function. The patterns hold the
  /// converter as const (DialectConversion's rule); naming is the one piece
  /// of state they share, across op families.
  struct ScopeNames {
    llvm::StringSet<> used;
    unsigned next = 0;
  };
  mutable DenseMap<Operation *, ScopeNames> scopes;
};

/// func.func -> relax.func (arguments named by the converter), func.return
/// -> relax.return, tosa.const -> relax.constant; tosa.const_shape and
/// TOSA's shape arithmetic are erased (the ops that read a shape take it
/// from its tosa.const_shape).
void populateTosaToRelaxFunctionPatterns(TosaToRelaxTypeConverter &converter,
                                         RewritePatternSet &patterns);

/// Elementwise arithmetic, comparisons and logic (TOSA's broadcasting made
/// explicit where relax cannot decide it), clamp, cast, select, identity,
/// the reductions and argmax.
void populateTosaToRelaxElementwisePatterns(
    TosaToRelaxTypeConverter &converter, RewritePatternSet &patterns);

/// matmul, conv2d, depthwise_conv2d, transpose_conv2d, avg_pool2d and
/// max_pool2d (NHWC) as relax's NCHW ops between permute_dims.
void populateTosaToRelaxNNPatterns(TosaToRelaxTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// reshape, transpose, concat, slice, reverse, tile, pad and gather.
void populateTosaToRelaxShapePatterns(TosaToRelaxTypeConverter &converter,
                                      RewritePatternSet &patterns);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TOSATORELAX_TOSATORELAX_H
