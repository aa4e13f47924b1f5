//===- Einsum.h - Parsed einsum equations -----------------------*- C++ -*-===//
//
// relax.einsum's equation, parsed once for its inference, its run-time
// shape contracts and its legalization: every dim of every operand gets a
// label, with the `...` dims expanded (for the operands' ranks) into
// broadcast labels of their own, so that the three users only ever walk
// label lists.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_EINSUM_H
#define RELAXDIALECT_RELAX_IR_EINSUM_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
namespace relax {

/// An einsum equation expanded for given operand ranks. Labels
/// 0 .. numBatch - 1 are the ellipsis dims (right-aligned across operands,
/// broadcast by numpy's rules); label numBatch + i is `letters[i]`.
struct EinsumSpec {
  unsigned numBatch = 0;
  SmallVector<char> letters;
  /// Per operand, the label of each dim.
  SmallVector<SmallVector<unsigned, 4>> operands;
  /// The label of each output dim (no repeats).
  SmallVector<unsigned, 4> output;
  /// Labels absent from the output, summed over, in order of appearance.
  SmallVector<unsigned, 4> reduced;

  unsigned numLabels() const { return numBatch + letters.size(); }
  bool isBatch(unsigned label) const { return label < numBatch; }
  /// `label 'j'` or `ellipsis dim 0`, for messages.
  std::string describe(unsigned label) const;
};

/// Parses `equation` for operands of the given ranks. An operand of unknown
/// rank (nullopt) is taken to have no ellipsis dims. Fails with a message
/// (naming the position in `equation` where there is one) in `error`.
FailureOr<EinsumSpec> parseEinsum(StringRef equation,
                                  ArrayRef<std::optional<int64_t>> ranks,
                                  std::string &error);

/// Whether operand term `index` of `equation` contains `...` (false when the
/// equation has no such term).
bool einsumTermHasEllipsis(StringRef equation, unsigned index);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_IR_EINSUM_H
