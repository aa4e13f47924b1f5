//===- CUDARuntimeTests.cpp - the CUDA side of the relax runtime ----------===//
//
// What can be checked on any machine: driver start-up either succeeds or
// records why not, calls without a device fail softly (null, error slot)
// instead of crashing, empty allocations and grids do nothing, and the
// cuBLAS built-ins validate their descriptors before touching a device.
// Execution on a GPU is covered by test/lit/GPU/run-*.test.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxCUDA.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

using relax_rt::MemRef;

extern "C" void _mlir_ciface_relax_cublas_matmul_f32(MemRef<float, 2> *a,
                                                     MemRef<float, 2> *b,
                                                     MemRef<float, 2> *c);
extern "C" void _mlir_ciface_relax_cublas_batch_matmul_bcast_nt_f32(
    MemRef<float, 3> *a, MemRef<float, 2> *b, MemRef<float, 3> *c);

namespace {

class CUDARuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    relax_rt_clear_error();
    hasGPU = relax_rt_cuda_init(0) == 1;
    if (!hasGPU)
      failure = relax_rt_last_error();
    relax_rt_clear_error();
  }
  void TearDown() override { relax_rt_clear_error(); }
  bool hasGPU = false;
  std::string failure;
};

MemRef<float, 2> matrix(float *data, int64_t rows, int64_t cols) {
  return {data, data, 0, {rows, cols}, {cols, 1}};
}

TEST_F(CUDARuntimeTest, InitSucceedsOrSaysWhy) {
  if (hasGPU) {
    EXPECT_EQ(std::strncmp(relax_rt_cuda_chip(), "sm_", 3), 0);
    EXPECT_STRNE(relax_rt_cuda_device_name(), "");
    return;
  }
  EXPECT_FALSE(failure.empty());
  EXPECT_TRUE(failure.find("libcuda.so.1") != std::string::npos ||
              failure.find("cuInit") != std::string::npos ||
              failure.find("CUDA") != std::string::npos)
      << failure;
  EXPECT_STREQ(relax_rt_cuda_chip(), "");
  // Asking again gives the same answer, recorded again.
  EXPECT_EQ(relax_rt_cuda_init(0), 0);
  EXPECT_EQ(std::string(relax_rt_last_error()), failure);
}

TEST_F(CUDARuntimeTest, WithoutDeviceCallsFailSoftly) {
  if (hasGPU)
    GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(mgpuMemAlloc(64, nullptr, false), nullptr);
  EXPECT_EQ(relax_rt_has_error(), 1);
  relax_rt_clear_error();
  EXPECT_EQ(mgpuStreamCreate(), nullptr);
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>(".version 8.0"), 2), nullptr);
  EXPECT_EQ(relax_rt_has_error(), 1);
  // Null handles are ignored, never dereferenced.
  mgpuMemFree(nullptr, nullptr);
  mgpuModuleUnload(nullptr);
  mgpuStreamDestroy(nullptr);
  mgpuLaunchKernel(nullptr, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr, 0);
}

TEST_F(CUDARuntimeTest, DeviceArenaWithoutDeviceFailsSoftly) {
  if (hasGPU)
    GTEST_SKIP() << "a GPU is present";
  static const char key = 0;
  relax_rt_bytes arena;
  _mlir_ciface_relax_rt_cuda_workspace_acquire(&arena, &key, 1024, 4096);
  EXPECT_EQ(arena.allocated, nullptr);
  EXPECT_EQ(arena.size, 1024);
  EXPECT_EQ(relax_rt_has_error(), 1);
  // Releasing nothing and trimming an empty cache are no-ops.
  _mlir_ciface_relax_rt_cuda_workspace_release(&key, &arena);
  relax_rt_cuda_release_workspaces();
}

TEST_F(CUDARuntimeTest, DeviceArenaIsReused) {
  if (!hasGPU)
    GTEST_SKIP() << "needs a GPU: " << failure;
  static const char key = 0;
  relax_rt_bytes first, second;
  // Allocated at the bound (4096, a multiple of 256), kept between calls.
  _mlir_ciface_relax_rt_cuda_workspace_acquire(&first, &key, 1000, 4096);
  ASSERT_NE(first.allocated, nullptr);
  _mlir_ciface_relax_rt_cuda_workspace_release(&key, &first);
  _mlir_ciface_relax_rt_cuda_workspace_acquire(&second, &key, 3000, 4096);
  EXPECT_EQ(second.allocated, first.allocated);
  _mlir_ciface_relax_rt_cuda_workspace_release(&key, &second);
  relax_rt_cuda_release_workspaces();
  EXPECT_EQ(relax_rt_has_error(), 0);
}

TEST_F(CUDARuntimeTest, EmptyWorkDoesNothing) {
  // A zero-size tensor gets no allocation and its copies and kernels are
  // skipped, with or without a GPU.
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr);
  mgpuMemcpy(nullptr, nullptr, 0, nullptr);
  EXPECT_EQ(relax_rt_has_error(), 0);
}

TEST_F(CUDARuntimeTest, CuBLASValidatesShapesFirst) {
  // Host pointers: never dereferenced, validation fails before any call.
  float a[6], b[6], c[4];
  MemRef<float, 2> ma = matrix(a, 2, 3), mb = matrix(b, 2, 3),
                   mc = matrix(c, 2, 2);
  _mlir_ciface_relax_cublas_matmul_f32(&ma, &mb, &mc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_NE(std::string(relax_rt_last_error())
                .find("relax_cublas_matmul_f32: shape mismatch: A is 2x3, B "
                      "is 2x3, C is 2x2"),
            std::string::npos)
      << relax_rt_last_error();
}

TEST_F(CUDARuntimeTest, CuBLASRejectsStridedInnerDim) {
  float a[12], b[6], c[4];
  MemRef<float, 2> ma = {a, a, 0, {2, 3}, {6, 2}}; // Every other column.
  MemRef<float, 2> mb = matrix(b, 3, 2), mc = matrix(c, 2, 2);
  _mlir_ciface_relax_cublas_matmul_f32(&ma, &mb, &mc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_NE(std::string(relax_rt_last_error()).find("contiguous inner"),
            std::string::npos)
      << relax_rt_last_error();
}

TEST_F(CUDARuntimeTest, CuBLASBatchMismatchAndEmpty) {
  float a[24], b[12], c[16];
  MemRef<float, 3> ma = {a, a, 0, {2, 3, 4}, {12, 4, 1}};
  MemRef<float, 2> mb = matrix(b, 3, 4);                 // [n, k] for _nt.
  MemRef<float, 3> mc = {c, c, 0, {3, 3, 3}, {9, 3, 1}}; // Batch 3 != 2.
  _mlir_ciface_relax_cublas_batch_matmul_bcast_nt_f32(&ma, &mb, &mc);
  ASSERT_EQ(relax_rt_has_error(), 1);
  EXPECT_NE(std::string(relax_rt_last_error()).find("batch mismatch"),
            std::string::npos)
      << relax_rt_last_error();
  relax_rt_clear_error();
  // An empty output needs no device at all.
  MemRef<float, 3> ea = {a, a, 0, {2, 0, 4}, {0, 4, 1}};
  MemRef<float, 3> ec = {c, c, 0, {2, 0, 3}, {0, 3, 1}};
  _mlir_ciface_relax_cublas_batch_matmul_bcast_nt_f32(&ea, &mb, &ec);
  EXPECT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
}

} // namespace
