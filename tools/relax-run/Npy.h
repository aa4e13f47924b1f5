//===- Npy.h - Host tensors and the .npy file format ------------*- C++ -*-===//
//
// relax-run exchanges tensors with numpy through .npy files (format 1.0-3.0,
// C order, little endian). Malformed or truncated files are reported with a
// message naming the file and the problem, never by crashing.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_TOOLS_RELAXRUN_NPY_H
#define RELAX_TOOLS_RELAXRUN_NPY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relax_run {

enum class DType {
  F16,
  BF16,
  F32,
  F64,
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64
};

/// Size in bytes of one element.
size_t dtypeSize(DType dtype);
/// The relax spelling (f32, i64, ui16, ...).
const char *dtypeName(DType dtype);
/// The integer dtype of `width` bits (8, 16, 32 or 64), signed or unsigned.
std::optional<DType> integerDType(unsigned width, bool isUnsigned);
/// True for i8..i64 and ui8..ui64 (not for the booleans).
bool isIntegerDType(DType dtype);

/// A dense, C-ordered tensor owned by the host.
struct HostTensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  int64_t numElements() const;
  /// Element `i` converted to double (for printing and comparison).
  double get(int64_t i) const;
  /// Element `i` of an integer or boolean tensor, exactly (every i64 and
  /// ui64 value fits).
  __int128 getExact(int64_t i) const;
  /// Element `i` as text: integers exactly, floats with `precision`
  /// significant digits.
  std::string str(int64_t i, int precision) const;
  /// Stores `v` converted to the dtype at element `i`.
  void set(int64_t i, double v);
  std::string shapeStr() const;
};

llvm::Expected<HostTensor> readNpy(llvm::StringRef path);
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

} // namespace relax_run

#endif // RELAX_TOOLS_RELAXRUN_NPY_H
