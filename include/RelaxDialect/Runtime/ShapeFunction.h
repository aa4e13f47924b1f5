//===- ShapeFunction.h - An entry's dims from its symbols -------*- C++ -*-===//
//
// Every entry of a compiled relax module (JIT or library) has a generated
// shape function, `int32_t <entry>__shapes(const int64_t *symbols, int64_t
// *dims)` (--relax-emit-shape-functions), which the metadata describes with
// plain data (FunctionSpec::symbols, TensorSpec::dimSymbols). These helpers
// call it for relax-run, the C API and the execution library alike, so no
// caller parses or evaluates the printed dims. Part of libRelaxModule (no
// LLVM).
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_SHAPEFUNCTION_H
#define RELAXDIALECT_RUNTIME_SHAPEFUNCTION_H

#include "RelaxDialect/Runtime/ModuleLoader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::relax::rt {

/// The generated function: reads FunctionSpec::symbols' values, writes one
/// value per dim of every ranked parameter, then of every ranked result
/// (-1: not computed; INT64_MIN: no value, an overflow or a division by
/// zero); returns the number of dims without a value.
using ShapeFn = int32_t (*)(const int64_t *symbols, int64_t *dims);

/// One dim as the shape function gives it.
struct DimValue {
  enum Kind {
    /// `value` is the size.
    Known,
    /// Not known before the call (`?`, a data-dependent size).
    Unknown,
    /// Its expression uses a symbol without a value (`unbound`, the
    /// indices into FunctionSpec::symbols).
    Unbound,
    /// Its arithmetic overflows int64 or divides by zero.
    NoValue,
  } kind = Unknown;
  int64_t value = -1;
  std::vector<int64_t> unbound;
};

struct EntryDims {
  /// Per parameter / result, per dim (unranked parameters have none).
  std::vector<std::vector<DimValue>> params, results;
};

/// The dims of every parameter and result of `f` under `symbols` (one per
/// FunctionSpec::symbols; nullopt where the caller has no value). Static
/// sizes are known without `fn`; `fn` may be null for an entry without a
/// shape function (FunctionSpec::shapeFunction empty).
EntryDims evaluateDims(const FunctionSpec &f, ShapeFn fn,
                       const std::vector<std::optional<int64_t>> &symbols);

/// The symbols of `f` read from its inputs' shapes (`shapes[i]` of
/// parameter i), where a parameter dim is the bare symbol; nullopt for the
/// others.
std::vector<std::optional<int64_t>>
bindSymbols(const FunctionSpec &f,
            const std::vector<std::vector<int64_t>> &shapes);

/// Checks the shapes of the results of a call against what `fn` computes
/// from its inputs' shapes: a mismatch is a compiler bug, reported as
/// "output #i dim d is X but the shape function gives Y". Dims the shape
/// function does not know are not checked.
std::optional<std::string>
checkResultShapes(const FunctionSpec &f, ShapeFn fn,
                  const std::vector<std::vector<int64_t>> &inputShapes,
                  const std::vector<std::vector<int64_t>> &resultShapes);

} // namespace mlir::relax::rt

#endif // RELAXDIALECT_RUNTIME_SHAPEFUNCTION_H
