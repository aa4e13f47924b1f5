//===- HostTensor.cpp - Tensors held in host memory -----------------------===//
//
// Element access converts between the stored dtype and double (f16 and bf16
// by bit manipulation, so no half-precision support is needed from the
// compiler) and reads integers exactly. No LLVM (relax-run's driver links
// this without it).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/HostTensor.h"
#include "RelaxDialect/Runtime/Half.h"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace mlir::relax::exec;

size_t mlir::relax::exec::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 0;
}

const char *mlir::relax::exec::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::Bool:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "ui8";
  case DType::U16:
    return "ui16";
  case DType::U32:
    return "ui32";
  case DType::U64:
    return "ui64";
  }
  return "?";
}

std::optional<DType> mlir::relax::exec::dtypeFromName(std::string_view name) {
  for (DType d : {DType::F16, DType::BF16, DType::F32, DType::F64, DType::Bool,
                  DType::I8, DType::I16, DType::I32, DType::I64, DType::U8,
                  DType::U16, DType::U32, DType::U64})
    if (name == dtypeName(d))
      return d;
  return std::nullopt;
}

std::optional<DType> mlir::relax::exec::integerDType(unsigned width,
                                                     bool isUnsigned) {
  switch (width) {
  case 8:
    return isUnsigned ? DType::U8 : DType::I8;
  case 16:
    return isUnsigned ? DType::U16 : DType::I16;
  case 32:
    return isUnsigned ? DType::U32 : DType::I32;
  case 64:
    return isUnsigned ? DType::U64 : DType::I64;
  default:
    return std::nullopt;
  }
}

bool mlir::relax::exec::isIntegerDType(DType dtype) {
  switch (dtype) {
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return true;
  default:
    return false;
  }
}

bool mlir::relax::exec::isExactDType(DType dtype) {
  return dtype == DType::Bool || isIntegerDType(dtype);
}

std::optional<int64_t>
mlir::relax::exec::checkedElementCount(const std::vector<int64_t> &shape) {
  // An empty tensor has no elements however large its other dims are.
  bool empty = false;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    empty |= dim == 0;
  }
  if (empty)
    return 0;
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (count > kMaxHostElements / dim)
      return std::nullopt;
    count *= dim;
  }
  return count;
}

std::optional<HostTensor> HostTensor::zeros(DType dtype,
                                            const std::vector<int64_t> &shape) {
  std::optional<int64_t> count = checkedElementCount(shape);
  if (!count)
    return std::nullopt;
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape.assign(shape.begin(), shape.end());
  tensor.data.assign(*count * dtypeSize(dtype), 0);
  return tensor;
}

void mlir::relax::exec::adoptDType(HostTensor &tensor, DType wanted) {
  if (tensor.dtype == DType::U16 && wanted == DType::BF16)
    tensor.dtype = DType::BF16;
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string HostTensor::shapeStr() const {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

using relax::runtime::floatToHalf;
using relax::runtime::halfToFloat;

double HostTensor::get(int64_t i) const {
  const uint8_t *p = data.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  case DType::BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    uint32_t x = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
  case DType::F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DType::F64: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  case DType::Bool:
    return *p ? 1 : 0;
  default:
    return static_cast<double>(getExact(i));
  }
  return 0;
}

/// Reads a `T` from unaligned bytes.
template <typename T> static T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Writes `v` converted to `T` to unaligned bytes.
template <typename T> static void store(uint8_t *p, double v) {
  T x = static_cast<T>(v);
  std::memcpy(p, &x, sizeof(T));
}

__int128 HostTensor::getExact(int64_t i) const {
  const uint8_t *p = data.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::Bool:
    return *p ? 1 : 0;
  case DType::I8:
    return load<int8_t>(p);
  case DType::I16:
    return load<int16_t>(p);
  case DType::I32:
    return load<int32_t>(p);
  case DType::I64:
    return load<int64_t>(p);
  case DType::U8:
    return load<uint8_t>(p);
  case DType::U16:
    return load<uint16_t>(p);
  case DType::U32:
    return load<uint32_t>(p);
  case DType::U64:
    return load<uint64_t>(p);
  default:
    return 0; // Not an integer dtype.
  }
}

std::string HostTensor::str(int64_t i, int precision) const {
  if (isIntegerDType(dtype)) {
    __int128 v = getExact(i);
    // Every element fits an int64_t except ui64 values above its range.
    if (v > INT64_MAX)
      return std::to_string(static_cast<uint64_t>(v));
    return std::to_string(static_cast<int64_t>(v));
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%.*g", precision, get(i));
  return text;
}

void HostTensor::set(int64_t i, double v) {
  uint8_t *p = data.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t h = floatToHalf(static_cast<float>(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::BF16: {
    float f = static_cast<float>(v);
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint16_t h = static_cast<uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::F32: {
    float f = static_cast<float>(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::F64:
    std::memcpy(p, &v, 8);
    return;
  case DType::Bool:
    *p = v != 0;
    return;
  case DType::I8:
    return store<int8_t>(p, v);
  case DType::I16:
    return store<int16_t>(p, v);
  case DType::I32:
    return store<int32_t>(p, v);
  case DType::I64:
    return store<int64_t>(p, v);
  case DType::U8:
    return store<uint8_t>(p, v);
  case DType::U16:
    return store<uint16_t>(p, v);
  case DType::U32:
    return store<uint32_t>(p, v);
  case DType::U64:
    return store<uint64_t>(p, v);
  }
}
