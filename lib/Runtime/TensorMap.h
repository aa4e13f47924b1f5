//===- TensorMap.h - Tensor maps of TMA loads (sm_90) -----------*- C++ -*-===//
//
// A TMA load (cp.async.bulk.tensor) copies a box of a global tensor into
// shared memory as one instruction of one thread; what it reads is described
// by a tensor map (CUtensorMap, 128 bytes, 64-byte aligned) that the host
// encodes with the driver's cuTensorMapEncodeTiled from the tensor's
// run-time base address, dims and strides. With symbolic shapes those are
// only known per call, so the map is encoded per call.
//
// tir and the compiled code list dims outermost first and strides in
// elements; the driver wants them innermost first, strides in bytes and
// without the innermost one (which must be the element itself). This file
// does that translation and checks what the driver would reject (alignment,
// strides, box sizes, the swizzle span) first, so that the compiled code can
// ask whether a buffer allows TMA and keep its cp.async kernel otherwise,
// and so that a rejection reads as a sentence naming the operand instead of
// a bare CUDA_ERROR_INVALID_VALUE. The driver call itself goes through a
// function pointer of cuTensorMapEncodeTiled's type: the unit tests pass a
// fake one (unittests/Runtime/TensorMapTests.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RUNTIME_TENSORMAP_H
#define LIB_RUNTIME_TENSORMAP_H

#include <cuda.h>

#include <cstdint>
#include <string>

namespace relax_rt {

/// One operand as the compiled code describes it: tir's order (outermost
/// dim first), strides in elements.
struct TensorMapOperand {
  const char *name = "operand"; // For messages ("A", "B").
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  const void *base = nullptr;
  int64_t rank = 0;
  const int64_t *dims = nullptr;
  const int64_t *strides = nullptr;
  const int64_t *box = nullptr;
  /// 0 (none), 32, 64 or 128: the span of the shared-memory swizzle.
  int64_t swizzleBytes = 0;

  TensorMapOperand() = default;
  TensorMapOperand(const char *name, CUtensorMapDataType dataType,
                   const void *base, int64_t rank, const int64_t *dims,
                   const int64_t *strides, const int64_t *box,
                   int64_t swizzleBytes)
      : name(name), dataType(dataType), base(base), rank(rank), dims(dims),
        strides(strides), box(box), swizzleBytes(swizzleBytes) {}
};

/// The bytes of one element of `dataType`, 0 for types tir never maps.
int64_t tensorMapElementBytes(CUtensorMapDataType dataType);

/// Why `operand` cannot be described by a tiled tensor map with zero fill,
/// or the empty string when it can. No driver call.
std::string tensorMapProblem(const TensorMapOperand &operand);

using TensorMapEncodeFn = decltype(&::cuTensorMapEncodeTiled);
using TensorMapErrorNameFn = std::string (*)(CUresult);

/// Checks `operand` and encodes it into `map` (no interleave, zero fill for
/// out-of-bounds elements, L2 promotion by 128 bytes, element strides 1).
/// Returns the empty string on success, else why: the check's reason, or
/// the driver's error named by `errorName` with the arguments it was given.
std::string encodeTensorMap(TensorMapEncodeFn encode,
                            TensorMapErrorNameFn errorName,
                            const TensorMapOperand &operand, CUtensorMap *map);

} // namespace relax_rt

#endif // LIB_RUNTIME_TENSORMAP_H
