//===- TensorMap.cpp - Tensor maps of TMA loads (sm_90) -------------------===//
//
// See TensorMap.h. The limits checked are those the CUDA driver API
// documents for cuTensorMapEncodeTiled with interleave none.
//
//===----------------------------------------------------------------------===//

#include "TensorMap.h"

#include <cstdint>
#include <string>

using namespace relax_rt;

int64_t relax_rt::tensorMapElementBytes(CUtensorMapDataType dataType) {
  switch (dataType) {
  case CU_TENSOR_MAP_DATA_TYPE_UINT8:
    return 1;
  case CU_TENSOR_MAP_DATA_TYPE_UINT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    return 2;
  case CU_TENSOR_MAP_DATA_TYPE_UINT32:
  case CU_TENSOR_MAP_DATA_TYPE_INT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    return 4;
  case CU_TENSOR_MAP_DATA_TYPE_UINT64:
  case CU_TENSOR_MAP_DATA_TYPE_INT64:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
    return 8;
  default:
    return 0;
  }
}

static std::string list(const int64_t *values, int64_t count) {
  std::string text = "[";
  for (int64_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

std::string relax_rt::tensorMapProblem(const TensorMapOperand &operand) {
  std::string prefix = std::string("tensor map of ") + operand.name + ": ";
  int64_t rank = operand.rank;
  if (rank < 1 || rank > 5)
    return prefix + "rank " + std::to_string(rank) + " is not in 1..5";
  if (!operand.dims || !operand.strides || !operand.box)
    return prefix + "no dims, strides or box given";
  int64_t elementBytes = tensorMapElementBytes(operand.dataType);
  if (elementBytes == 0)
    return prefix + "unsupported element type";
  if (reinterpret_cast<uintptr_t>(operand.base) % 16 != 0)
    return prefix + "base address is not 16-byte aligned";
  for (int64_t d = 0; d < rank; ++d) {
    if (operand.dims[d] < 1 || operand.dims[d] > (int64_t(1) << 32))
      return prefix + "dim " + std::to_string(d) + " is " +
             std::to_string(operand.dims[d]) + ", not in 1..2^32";
    if (operand.box[d] < 1 || operand.box[d] > 256)
      return prefix + "box dim " + std::to_string(d) + " is " +
             std::to_string(operand.box[d]) + ", not in 1..256";
  }
  if (operand.strides[rank - 1] != 1)
    return prefix + "innermost stride is " +
           std::to_string(operand.strides[rank - 1]) + " elements, not 1";
  for (int64_t d = 0; d + 1 < rank; ++d) {
    int64_t bytes = operand.strides[d] * elementBytes;
    if (operand.strides[d] < 1 || bytes % 16 != 0 ||
        bytes >= (int64_t(1) << 40))
      return prefix + "stride of dim " + std::to_string(d) + " is " +
             std::to_string(bytes) +
             " bytes, not a positive multiple of 16 below 2^40";
  }
  int64_t innerBoxBytes = operand.box[rank - 1] * elementBytes;
  if (innerBoxBytes % 16 != 0)
    return prefix + "innermost box dim is " + std::to_string(innerBoxBytes) +
           " bytes, not a multiple of 16";
  int64_t swizzle = operand.swizzleBytes;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return prefix + "swizzle of " + std::to_string(swizzle) +
           " bytes is not 0, 32, 64 or 128";
  if (swizzle != 0 && innerBoxBytes > swizzle)
    return prefix + "innermost box dim is " + std::to_string(innerBoxBytes) +
           " bytes, more than the " + std::to_string(swizzle) +
           "-byte swizzle span";
  return "";
}

static CUtensorMapSwizzle swizzleOf(int64_t bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

std::string relax_rt::encodeTensorMap(TensorMapEncodeFn encode,
                                      TensorMapErrorNameFn errorName,
                                      const TensorMapOperand &operand,
                                      CUtensorMap *map) {
  std::string problem = tensorMapProblem(operand);
  if (!problem.empty())
    return problem;
  if (!map || reinterpret_cast<uintptr_t>(map) % 64 != 0)
    return std::string("tensor map of ") + operand.name +
           ": the map itself is null or not 64-byte aligned";
  // The driver's order: innermost dim first, strides in bytes without the
  // innermost (the element).
  int64_t rank = operand.rank;
  int64_t elementBytes = tensorMapElementBytes(operand.dataType);
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elementStrides[5];
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d = rank - 1 - i;
    dims[i] = static_cast<cuuint64_t>(operand.dims[d]);
    box[i] = static_cast<cuuint32_t>(operand.box[d]);
    elementStrides[i] = 1;
    if (i > 0)
      strides[i - 1] =
          static_cast<cuuint64_t>(operand.strides[d] * elementBytes);
  }
  CUresult result = encode(
      map, operand.dataType, static_cast<cuuint32_t>(rank),
      const_cast<void *>(operand.base), dims, strides, box, elementStrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzleOf(operand.swizzleBytes),
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result == CUDA_SUCCESS)
    return "";
  return std::string("cuTensorMapEncodeTiled failed for ") + operand.name +
         " (dims " + list(operand.dims, rank) + ", strides " +
         list(operand.strides, rank) + " elements, box " +
         list(operand.box, rank) + "): " + errorName(result);
}
