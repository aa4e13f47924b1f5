//===- TensorMapTests.cpp - Tensor map encoding with a fake driver --------===//
//
// relax_rt::encodeTensorMap (lib/Runtime/TensorMap.h) against a fake
// cuTensorMapEncodeTiled that records its arguments: for an operand whose
// dims are symbolic (the same code run at two sizes, as compiled code calls
// it per call), the driver receives the dims innermost first, the strides
// in bytes without the innermost, the box reversed, element strides 1, zero
// fill and the swizzle asked for; operands the driver would reject are
// refused with a sentence naming the operand and the dim, before any driver
// call; a driver error comes back named, with the arguments. The C entries
// (RelaxCUDA.h) are checked where no driver is present: they say why and
// do not crash.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/TensorMap.h"

#include "RelaxDialect/Runtime/RelaxCUDA.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using relax_rt::encodeTensorMap;
using relax_rt::TensorMapOperand;
using relax_rt::tensorMapProblem;

namespace {

/// What the fake driver was called with.
struct EncodeCall {
  int calls = 0;
  CUtensorMapDataType dataType{};
  unsigned rank = 0;
  void *address = nullptr;
  std::vector<uint64_t> dims, strides;
  std::vector<uint32_t> box, elementStrides;
  CUtensorMapInterleave interleave{};
  CUtensorMapSwizzle swizzle{};
  CUtensorMapFloatOOBfill fill{};
  CUresult result = CUDA_SUCCESS;
};
EncodeCall lastCall;

CUresult fakeEncode(CUtensorMap *map, CUtensorMapDataType dataType,
                    cuuint32_t rank, void *address, const cuuint64_t *dims,
                    const cuuint64_t *strides, const cuuint32_t *box,
                    const cuuint32_t *elementStrides,
                    CUtensorMapInterleave interleave,
                    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion,
                    CUtensorMapFloatOOBfill fill) {
  ++lastCall.calls;
  lastCall.dataType = dataType;
  lastCall.rank = rank;
  lastCall.address = address;
  lastCall.dims.assign(dims, dims + rank);
  lastCall.strides.assign(strides, strides + rank - 1);
  lastCall.box.assign(box, box + rank);
  lastCall.elementStrides.assign(elementStrides, elementStrides + rank);
  lastCall.interleave = interleave;
  lastCall.swizzle = swizzle;
  lastCall.fill = fill;
  map->opaque[0] = 42; // Something was written.
  return lastCall.result;
}

std::string fakeErrorName(CUresult result) {
  return result == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
                                            : "other";
}

alignas(16) uint16_t storage[64];

/// An operand over `storage` whose dims, strides and box live in `Rank`-long
/// arrays of the holder; `encode` runs it through the fake driver.
template <int Rank> struct Operand {
  alignas(64) CUtensorMap map;
  int64_t dims[Rank], strides[Rank], box[Rank];
  TensorMapOperand operand;
  Operand(const char *name, const int64_t (&d)[Rank], const int64_t (&s)[Rank],
          const int64_t (&b)[Rank], int64_t swizzle = 0)
      : operand(name, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, storage, Rank, dims,
                strides, box, swizzle) {
    for (int i = 0; i < Rank; ++i) {
      dims[i] = d[i];
      strides[i] = s[i];
      box[i] = b[i];
    }
  }
  std::string encode() {
    return encodeTensorMap(fakeEncode, fakeErrorName, operand, &map);
  }
};

/// A row-major [rows, cols] f16 operand "A" (row stride `ld` elements)
/// staged in boxes of [boxRows, boxCols].
struct Operand2D : Operand<2> {
  Operand2D(const void *base, int64_t rows, int64_t cols, int64_t ld,
            int64_t boxRows, int64_t boxCols, int64_t swizzle = 0)
      : Operand<2>("A", {rows, cols}, {ld, 1}, {boxRows, boxCols}, swizzle) {
    operand.base = base;
  }
};

TEST(TensorMapTest, SymbolicShapeReachesTheDriverInnermostFirst) {
  // The same operand [m, k] at two run-time sizes.
  for (auto [m, k] : {std::pair<int64_t, int64_t>{300, 4096}, {17, 72}}) {
    lastCall = EncodeCall();
    Operand2D a(storage, m, k, k, 64, 32);
    EXPECT_EQ(a.encode(), "");
    ASSERT_EQ(lastCall.calls, 1);
    EXPECT_EQ(lastCall.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
    EXPECT_EQ(lastCall.rank, 2u);
    EXPECT_EQ(lastCall.address, storage);
    EXPECT_EQ(lastCall.dims, (std::vector<uint64_t>{uint64_t(k), uint64_t(m)}));
    EXPECT_EQ(lastCall.strides, (std::vector<uint64_t>{uint64_t(2 * k)}));
    EXPECT_EQ(lastCall.box, (std::vector<uint32_t>{32, 64}));
    EXPECT_EQ(lastCall.elementStrides, (std::vector<uint32_t>{1, 1}));
    EXPECT_EQ(lastCall.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
    EXPECT_EQ(lastCall.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
    EXPECT_EQ(lastCall.fill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE); // Zeros.
    EXPECT_EQ(a.map.opaque[0], 42u);
  }
}

TEST(TensorMapTest, BatchedOperandAndSwizzle) {
  // A batched B [b, n, k] read through a padded row stride, 128-byte
  // swizzle over 64 bf16 of k.
  lastCall = EncodeCall();
  Operand<3> b("B", {3, 200, 40}, {200 * 48, 48, 1}, {1, 128, 64}, 128);
  b.operand.dataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  EXPECT_EQ(b.encode(), "");
  EXPECT_EQ(lastCall.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(lastCall.dims, (std::vector<uint64_t>{40, 200, 3}));
  EXPECT_EQ(lastCall.strides, (std::vector<uint64_t>{96, 200 * 96}));
  EXPECT_EQ(lastCall.box, (std::vector<uint32_t>{64, 128, 1}));
  EXPECT_EQ(lastCall.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
}

TEST(TensorMapTest, CoreMatrixViewOfAnOperand) {
  // The wgmma tiles' core-matrix layout [K / 8, R, 8] straight from TMA
  // (docs/gpu.md): A [m, k] seen as [k / 8, m, 8] with strides [8, k, 1]
  // elements (not decreasing: allowed) and the box [4, 128, 8].
  lastCall = EncodeCall();
  int64_t m = 300, k = 4096;
  Operand<3> a("A", {k / 8, m, 8}, {8, k, 1}, {4, 128, 8});
  EXPECT_EQ(a.encode(), "");
  EXPECT_EQ(lastCall.dims, (std::vector<uint64_t>{8, 300, 512}));
  EXPECT_EQ(lastCall.strides, (std::vector<uint64_t>{8192, 16}));
  EXPECT_EQ(lastCall.box, (std::vector<uint32_t>{8, 128, 4}));
}

TEST(TensorMapTest, RefusesWhatTheDriverWouldRejectBeforeCallingIt) {
  lastCall = EncodeCall();
  // A row of 4099 f16 is 8198 bytes: not a multiple of 16.
  Operand2D oddStride(storage, 300, 4099, 4099, 64, 32);
  EXPECT_EQ(oddStride.encode(), "tensor map of A: stride of dim 0 is 8198 "
                                "bytes, not a positive multiple of 16 below "
                                "2^40");
  // A base 2 bytes into an aligned buffer.
  Operand2D misaligned(storage + 1, 300, 4096, 4096, 64, 32);
  EXPECT_EQ(misaligned.encode(),
            "tensor map of A: base address is not 16-byte aligned");
  // A transposed view: the innermost stride is not the element.
  Operand2D transposed(storage, 300, 4096, 4096, 64, 32);
  transposed.strides[1] = 300;
  EXPECT_EQ(transposed.encode(),
            "tensor map of A: innermost stride is 300 elements, not 1");
  Operand2D narrowBox(storage, 300, 4096, 4096, 64, 4); // 8 bytes.
  EXPECT_EQ(narrowBox.encode(), "tensor map of A: innermost box dim is 8 "
                                "bytes, not a multiple of 16");
  Operand2D bigBox(storage, 300, 4096, 4096, 512, 32);
  EXPECT_EQ(bigBox.encode(),
            "tensor map of A: box dim 0 is 512, not in 1..256");
  Operand2D empty(storage, 0, 4096, 4096, 64, 32);
  EXPECT_EQ(empty.encode(), "tensor map of A: dim 0 is 0, not in 1..2^32");
  // 128 bytes of k (64 f16) do not fit a 64-byte swizzle.
  Operand2D wideSwizzle(storage, 300, 4096, 4096, 64, 64, 64);
  EXPECT_EQ(wideSwizzle.encode(), "tensor map of A: innermost box dim is 128 "
                                  "bytes, more than the 64-byte swizzle span");
  Operand2D badSwizzle(storage, 300, 4096, 4096, 64, 32, 96);
  EXPECT_EQ(badSwizzle.encode(),
            "tensor map of A: swizzle of 96 bytes is not 0, 32, 64 or 128");
  EXPECT_EQ(lastCall.calls, 0);
  // The 64-byte alignment of the map itself.
  Operand2D fine(storage, 300, 4096, 4096, 64, 32);
  alignas(64) unsigned char bytes[256];
  EXPECT_EQ(encodeTensorMap(fakeEncode, fakeErrorName, fine.operand,
                            reinterpret_cast<CUtensorMap *>(bytes + 16)),
            "tensor map of A: the map itself is null or not 64-byte aligned");
  EXPECT_EQ(encodeTensorMap(fakeEncode, fakeErrorName, fine.operand, nullptr),
            "tensor map of A: the map itself is null or not 64-byte aligned");
  fine.operand.strides = nullptr;
  EXPECT_EQ(fine.encode(), "tensor map of A: no dims, strides or box given");
  EXPECT_EQ(lastCall.calls, 0);
}

TEST(TensorMapTest, DriverErrorIsNamedWithItsArguments) {
  lastCall = EncodeCall();
  lastCall.result = CUDA_ERROR_INVALID_VALUE;
  Operand2D a(storage, 300, 4096, 4096, 64, 32);
  EXPECT_EQ(a.encode(), "cuTensorMapEncodeTiled failed for A (dims [300, "
                        "4096], strides [4096, 1] elements, box [64, 32]): "
                        "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(lastCall.calls, 1);
}

TEST(TensorMapTest, CEntriesWithoutADriverSayWhy) {
  int64_t dims[2] = {300, 4096}, strides[2] = {4096, 1}, box[2] = {64, 32};
  EXPECT_EQ(relax_rt_cuda_tensor_map_supported(RELAX_RT_TMA_F16, storage, 2,
                                               dims, strides, box, 0),
            1);
  int64_t oddStrides[2] = {4099, 1};
  EXPECT_EQ(relax_rt_cuda_tensor_map_supported(RELAX_RT_TMA_F16, storage, 2,
                                               dims, oddStrides, box, 0),
            0);
  EXPECT_EQ(
      relax_rt_cuda_tensor_map_supported(7, storage, 2, dims, strides, box, 0),
      0);
  relax_rt_clear_error();
  alignas(64) unsigned char map[128];
  EXPECT_EQ(relax_rt_cuda_tensor_map_encode(map, "A", 7, storage, 2, dims,
                                            strides, box, 0),
            0);
  EXPECT_STREQ(relax_rt_last_error(),
               "CUDA: tensor map of A: unknown element type code 7");
  relax_rt_clear_error();
  if (relax_rt_cuda_init(0) == 1)
    GTEST_SKIP() << "a driver is present: the error path needs none";
  relax_rt_clear_error();
  EXPECT_EQ(relax_rt_cuda_tensor_map_encode(map, "A", RELAX_RT_TMA_F16, storage,
                                            2, dims, strides, box, 0),
            0);
  std::string why = relax_rt_last_error();
  EXPECT_NE(why.find("CUDA"), std::string::npos) << why;
  relax_rt_clear_error();
}

/// Through the C entry and a driver: run by
/// test/lit/GPU/tensor-map-mock-driver.test against the mock driver
/// (test/mock-cuda), which logs the arguments; skipped without a driver.
// relax_rt_cuda_tensor_map_device, what compiled code calls before a TMA
// kernel: an operand that cannot be mapped gives 0 and no error (the
// caller's fallback runs), with or without a driver; a mappable one without
// a driver gives 0 with the reason in the error slot, never a crash.
TEST(TensorMapTest, DeviceEntryFallsBackOrSaysWhy) {
  static const char slot = 0;
  // The core-matrix view of an f16 [300, 4093]: a row of 8186 bytes.
  int64_t dims[3] = {511, 300, 8}, oddStrides[3] = {8, 4093, 1};
  int64_t box[3] = {4, 128, 8};
  relax_rt_clear_error();
  EXPECT_EQ(relax_rt_cuda_tensor_map_device(&slot, "A", RELAX_RT_TMA_F16,
                                            storage, 3, dims, oddStrides, box,
                                            0),
            0);
  EXPECT_EQ(relax_rt_has_error(), 0);
  if (relax_rt_cuda_init(0) == 1)
    GTEST_SKIP() << "a driver is present: the error path needs none";
  relax_rt_clear_error();
  int64_t strides[3] = {8, 4096, 1};
  dims[0] = 512;
  EXPECT_EQ(relax_rt_cuda_tensor_map_device(&slot, "A", RELAX_RT_TMA_F16,
                                            storage, 3, dims, strides, box, 0),
            0);
  std::string why = relax_rt_last_error();
  EXPECT_NE(why.find("CUDA"), std::string::npos) << why;
  relax_rt_clear_error();
}

TEST(TensorMapDriverTest, EncodesThroughTheDriver) {
  if (relax_rt_cuda_init(0) != 1 || std::getenv("MOCK_CUDA_FAIL"))
    GTEST_SKIP() << "needs a driver that accepts the map";
  alignas(64) unsigned char map[128] = {0};
  for (int64_t m : {300, 17}) {
    int64_t dims[2] = {m, 4096}, strides[2] = {4096, 1}, box[2] = {64, 32};
    EXPECT_EQ(relax_rt_cuda_tensor_map_encode(map, "A", RELAX_RT_TMA_BF16,
                                              storage, 2, dims, strides, box,
                                              128 / 2),
              1)
        << relax_rt_last_error();
  }
  relax_rt_clear_error();
}

/// The driver's refusal, named with the arguments, in the error slot.
TEST(TensorMapDriverTest, DriverRefusalIsReported) {
  const char *fail = std::getenv("MOCK_CUDA_FAIL");
  if (relax_rt_cuda_init(0) != 1 || !fail ||
      std::string(fail) != "cuTensorMapEncodeTiled")
    GTEST_SKIP() << "needs the mock driver told to refuse";
  relax_rt_clear_error();
  alignas(64) unsigned char map[128];
  int64_t dims[2] = {300, 4096}, strides[2] = {4096, 1}, box[2] = {64, 32};
  EXPECT_EQ(relax_rt_cuda_tensor_map_encode(map, "B", RELAX_RT_TMA_F16, storage,
                                            2, dims, strides, box, 0),
            0);
  std::printf("error: %s\n", relax_rt_last_error());
  relax_rt_clear_error();
}

} // namespace
