//===- MemoryTests.cpp - the arena cache and memory counters --------------===//
//
// relax_rt_workspace_acquire / _release as compiled code calls them (MLIR's
// C interface: a memref<?xi8> descriptor), and the counters behind
// relax-run --memory-report.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace {
using ByteBuffer = relax_rt_bytes;

ByteBuffer acquire(const void *key, int64_t bytes, int64_t capacity = 0) {
  ByteBuffer b;
  _mlir_ciface_relax_rt_workspace_acquire(&b, key, bytes, capacity);
  return b;
}

TEST(WorkspaceTest, SecondCallReusesTheArena) {
  static char key;
  ByteBuffer first = acquire(&key, 1000);
  ASSERT_NE(first.aligned, nullptr);
  EXPECT_EQ(first.size, 1000);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first.aligned) % 64, 0u);
  std::memset(first.aligned, 1, 1000); // writable
  void *address = first.aligned;
  _mlir_ciface_relax_rt_workspace_release(&key, &first);
  // Smaller or equal: the same memory.
  ByteBuffer second = acquire(&key, 600);
  EXPECT_EQ(second.aligned, address);
  EXPECT_EQ(second.size, 600);
  _mlir_ciface_relax_rt_workspace_release(&key, &second);
  // Larger than what is cached: a new arena, which is then kept.
  ByteBuffer third = acquire(&key, 5000);
  ASSERT_NE(third.aligned, nullptr);
  std::memset(third.aligned, 2, 5000);
  _mlir_ciface_relax_rt_workspace_release(&key, &third);
  ByteBuffer fourth = acquire(&key, 5000);
  EXPECT_EQ(fourth.aligned, third.aligned);
  _mlir_ciface_relax_rt_workspace_release(&key, &fourth);
}

TEST(WorkspaceTest, AllocatedAtTheBoundOnce) {
  static char key;
  // A bound of 1 MiB: the first call of 100 bytes allocates the bound, so
  // a later call of 1 MiB reuses it.
  ByteBuffer first = acquire(&key, 100, 1 << 20);
  ASSERT_NE(first.aligned, nullptr);
  void *address = first.aligned;
  _mlir_ciface_relax_rt_workspace_release(&key, &first);
  ByteBuffer second = acquire(&key, 1 << 20, 1 << 20);
  EXPECT_EQ(second.aligned, address);
  std::memset(second.aligned, 3, 1 << 20);
  _mlir_ciface_relax_rt_workspace_release(&key, &second);
}

TEST(WorkspaceTest, UnallocatableBoundFallsBackToTheSize) {
  static char key;
  // sym_bounds far above the sizes used (2^60 bytes): the call still gets
  // the bytes it needs.
  ByteBuffer b = acquire(&key, 4096, int64_t(1) << 60);
  ASSERT_NE(b.aligned, nullptr);
  std::memset(b.aligned, 4, 4096);
  _mlir_ciface_relax_rt_workspace_release(&key, &b);
  // An impossible size is a null arena (the compiled code reports it).
  ByteBuffer huge = acquire(&key, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(huge.aligned, nullptr);
  ByteBuffer negative = acquire(&key, -1);
  EXPECT_EQ(negative.aligned, nullptr);
}

TEST(WorkspaceTest, ConcurrentCallsGetTheirOwnArenas) {
  static char key;
  ByteBuffer a = acquire(&key, 256);
  ByteBuffer b = acquire(&key, 512); // a is not released: another arena
  ASSERT_NE(a.aligned, nullptr);
  ASSERT_NE(b.aligned, nullptr);
  EXPECT_NE(a.aligned, b.aligned);
  void *larger = b.aligned;
  _mlir_ciface_relax_rt_workspace_release(&key, &a);
  _mlir_ciface_relax_rt_workspace_release(&key, &b); // keeps the larger
  ByteBuffer c = acquire(&key, 512);
  EXPECT_EQ(c.aligned, larger);
  _mlir_ciface_relax_rt_workspace_release(&key, &c);
  relax_rt_workspace_trim();
}

TEST(MemoryCountersTest, PeakOfLiveBytes) {
  relax_rt_memory_reset();
  relax_rt_memory_alloc(100);
  relax_rt_memory_alloc(50);
  relax_rt_memory_free(100);
  relax_rt_memory_alloc(20);
  EXPECT_EQ(relax_rt_memory_peak(), 150);
  relax_rt_memory_plan("f", "n * 4", 40, "n * 12", 120, 2, 3, 3, -1);
  relax_rt_memory_plan("f", "n * 4", 20, "n * 12", 60, 2, 3, 3, -1);
  std::string report = relax_rt_memory_report();
  EXPECT_NE(report.find("peak intermediate bytes: 150"), std::string::npos);
  // The largest call of each function is kept.
  EXPECT_NE(report.find("@f: 3 of 3 intermediates in 2 storages, arena 40 "
                        "bytes, without a plan 120 bytes"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("bound"), std::string::npos);
  relax_rt_memory_reset();
  EXPECT_EQ(relax_rt_memory_peak(), 0);
}
} // namespace
