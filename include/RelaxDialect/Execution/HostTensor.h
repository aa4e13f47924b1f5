//===- HostTensor.h - Tensors held in host memory ---------------*- C++ -*-===//
//
// The tensor value the execution library exchanges with its callers: inputs
// of a compiled entry, its outputs, the contents of .npy files. Dense,
// C-ordered and owned by the host; the dtypes are those a relax tensor can
// have.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_HOSTTENSOR_H
#define RELAXDIALECT_EXECUTION_HOSTTENSOR_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlir::relax::exec {

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
/// The dtype spelled `name` by dtypeName, or nullopt.
std::optional<DType> dtypeFromName(std::string_view name);
/// The integer dtype of `width` bits (8, 16, 32 or 64), signed or unsigned.
std::optional<DType> integerDType(unsigned width, bool isUnsigned);
/// True for i8..i64 and ui8..ui64 (not for the booleans).
bool isIntegerDType(DType dtype);
/// True for the dtypes whose values compare exactly (integers, booleans).
bool isExactDType(DType dtype);

/// The most elements a host tensor may have (2^40): shapes from files or
/// command lines beyond it are refused before anything is allocated.
constexpr int64_t kMaxHostElements = int64_t(1) << 40;

/// The element count of `shape`, or nullopt when a dim is negative, the
/// product overflows or it exceeds kMaxHostElements.
std::optional<int64_t> checkedElementCount(const std::vector<int64_t> &shape);

/// A dense, C-ordered tensor owned by the host.
struct HostTensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  /// A zero-filled tensor; nullopt when the shape is too large (see
  /// checkedElementCount).
  static std::optional<HostTensor> zeros(DType dtype,
                                         const std::vector<int64_t> &shape);

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
  /// "[2, 3]".
  std::string shapeStr() const;
};

/// numpy has no bfloat16, so bf16 tensors travel as uint16 bit patterns and
/// read back as ui16: takes such a tensor as bf16 where `wanted` is bf16.
void adoptDType(HostTensor &tensor, DType wanted);

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_HOSTTENSOR_H
