//===- ShapeFunctions.h - Entry dims as generated code ----------*- C++ -*-===//
//
// A caller of a compiled entry (relax-run, the C API, the JIT) needs the
// sizes of its parameters and results as numbers, given the values of the
// symbolic variables. Instead of printing the dims as text for the caller to
// parse and evaluate, --relax-emit-shape-functions generates, per entry,
//
//   int32_t <entry>__shapes(const int64_t *symbols, int64_t *dims);
//
// and the metadata describes its layout with plain data. Both the pass and
// the execution library (which writes that metadata) read the layout from
// getShapeFunctionLayout, so the two never disagree.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_SHAPEFUNCTIONS_H
#define RELAXDIALECT_RELAX_TRANSFORMS_SHAPEFUNCTIONS_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Support/SymShape.h"

#include <optional>
#include <string>

namespace mlir {
namespace relax {

/// The layout of an entry's shape function.
///
/// `symbols[k]` is read from `symbols[k]`: the variables of the parameter
/// dims in order of first occurrence. `dims` receives one value per dim of
/// every ranked parameter leaf, then of every ranked result leaf (tuples
/// flattened depth first, as the lowered function takes and returns them).
/// A dim whose expression uses only symbols is computed; a dim of unknown
/// size (`?`) or one that uses a variable no parameter has (a size bound
/// inside the function: match_cast, tensor_to_shape, a data-dependent
/// output) is written -1 and described as unknown. A computed dim that has
/// no value (an int64 overflow, a division by zero) is written INT64_MIN;
/// the function returns the number of those (0: every dim has its value).
struct ShapeFunctionLayout {
  /// The entry and the symbol of its shape function.
  std::string entry, function;
  SmallVector<std::string> symbols;
  /// Per symbol, the parameter leaf and dim whose size it is (the bare
  /// variable as a dim, the first such), or (-1, -1) when none is.
  SmallVector<std::pair<int64_t, int64_t>> bindings;
  /// Per parameter and result leaf: its relax shape (unranked for a leaf
  /// that is not a tensor).
  SmallVector<SymShape> params, results;

  /// The indices into `symbols` of the variables of `dim`; none when the
  /// dim is not computed (unknown, or it uses a variable that is not a
  /// symbol).
  std::optional<SmallVector<int64_t>> dimSymbols(const sym::Expr &dim) const;
};

/// The symbol of `entry`'s shape function.
std::string shapeFunctionName(StringRef entry);

/// The layout of `func`'s shape function.
ShapeFunctionLayout getShapeFunctionLayout(FuncOp func);

/// The attribute on a generated shape function naming its entry.
constexpr llvm::StringLiteral kShapeFunctionOfAttr = "relax.shape_function_of";

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_SHAPEFUNCTIONS_H
