//===- HugePagesTests.cpp - Large buffers in transparent huge pages -------===//
//
// HugePages.h: the allocation's alignment, rounding and contents, small
// sizes allocated plainly, the std allocator adaptor, RELAX_HUGE_PAGES=0,
// and, where THP is not `never`, that a 4 MiB buffer is backed by huge
// pages (AnonHugePages in /proc/self/smaps) and that already written
// memory collapses into them.
//
//===----------------------------------------------------------------------===//

#include "HugePageBacking.h"
#include "RelaxDialect/Runtime/HugePages.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

#include <sys/mman.h>

using namespace relax::runtime;
using relax::test::backingOf;
using relax::test::hugePagesUnavailable;
using relax::test::ScopedHugePagesEnv;

namespace {

constexpr size_t kMiB = size_t(1) << 20;

TEST(HugePagesTest, LargeBuffersAreAlignedWholeHugePages) {
  ScopedHugePagesEnv on("1");
  for (size_t bytes : {2 * kMiB, 2 * kMiB + 1, 5 * kMiB + 12345}) {
    auto *p = static_cast<uint8_t *>(allocateLargeBuffer(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kHugePageBytes, 0u) << bytes;
    // Zeroed (fresh anonymous memory), and writable to the last byte.
    EXPECT_EQ(p[0], 0);
    EXPECT_EQ(p[bytes - 1], 0);
    for (size_t i = 0; i < bytes; i += 4096)
      p[i] = uint8_t(i >> 12);
    p[bytes - 1] = 0xab;
    for (size_t i = 0; i < bytes - 1; i += 4096)
      ASSERT_EQ(p[i], uint8_t(i >> 12));
    EXPECT_EQ(p[bytes - 1], 0xab);
    relax::test::Backing b = backingOf(p);
    ASSERT_TRUE(b.found);
    // The mapping is exactly the rounded buffer: the ends were unmapped.
    EXPECT_EQ(b.begin, reinterpret_cast<uintptr_t>(p));
    EXPECT_EQ(b.end - b.begin, roundUpToHugePages(bytes));
    EXPECT_TRUE(b.advised);
    freeLargeBuffer(p, bytes);
    EXPECT_FALSE(backingOf(p).found) << "not unmapped";
  }
}

TEST(HugePagesTest, SmallBuffersArePlainAllocations) {
  ScopedHugePagesEnv on("1");
  for (size_t bytes : {size_t(0), size_t(1), size_t(4096), 2 * kMiB - 1}) {
    auto *p = static_cast<uint8_t *>(allocateLargeBuffer(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    std::memset(p, 0x5a, bytes);
    for (size_t i = 0; i < bytes; i += 1 + bytes / 7)
      EXPECT_EQ(p[i], 0x5a);
    // Not a mapping of its own that starts at the buffer.
    EXPECT_NE(backingOf(p).begin, reinterpret_cast<uintptr_t>(p)) << bytes;
    freeLargeBuffer(p, bytes);
  }
}

TEST(HugePagesTest, HugePagesBackALargeBuffer) {
  if (const char *why = hugePagesUnavailable())
    GTEST_SKIP() << why;
  ScopedHugePagesEnv on("1");
  size_t bytes = 4 * kMiB;
  auto *p = static_cast<uint8_t *>(allocateLargeBuffer(bytes));
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, bytes);
  relax::test::Backing b = backingOf(p);
  ASSERT_TRUE(b.found);
  // Advised before the first touch.
  EXPECT_TRUE(b.advised);
  // A fault may find no free huge page on a fragmented machine: then the
  // collapse must make them (it compacts memory synchronously).
  if (b.hugeBytes < bytes)
    collapseIntoHugePages(p, bytes);
  EXPECT_EQ(backingOf(p).hugeBytes, bytes);
  freeLargeBuffer(p, bytes);
}

TEST(HugePagesTest, OffMeansPlainPages) {
  ScopedHugePagesEnv off("0");
  EXPECT_FALSE(hugePagesEnabled());
  size_t bytes = 4 * kMiB + 100;
  auto *p = static_cast<uint8_t *>(allocateLargeBuffer(bytes));
  ASSERT_NE(p, nullptr);
  std::memset(p, 7, bytes);
  EXPECT_EQ(p[bytes - 1], 7);
  relax::test::Backing b = backingOf(p);
  ASSERT_TRUE(b.found);
  // Not advised: only `always` may give it huge pages, and the collapse is
  // not even tried. (The mapping may have merged with a neighbour: its
  // range says nothing.)
  EXPECT_FALSE(b.advised);
  if (transparentHugePageMode() != HugePageMode::Always) {
    EXPECT_EQ(b.hugeBytes, 0u);
  }
  EXPECT_FALSE(collapseIntoHugePages(p, bytes));
  // Released by its size alone, whatever the environment says now, and
  // nothing past it: the page right behind the buffer's rounded size (ours
  // if it was free, else whatever the process had there) stays mapped.
  uint8_t *after = p + roundUpToHugePages(bytes);
  void *next = mmap(after, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  ASSERT_TRUE(backingOf(after).found);
  {
    ScopedHugePagesEnv on("1");
    freeLargeBuffer(p, bytes);
  }
  EXPECT_FALSE(backingOf(p).found);
  EXPECT_FALSE(backingOf(p + roundUpToHugePages(bytes) - 1).found);
  EXPECT_TRUE(backingOf(after).found);
  if (next == after)
    munmap(after, 4096);
}

TEST(HugePagesTest, WrittenMemoryCollapses) {
  if (const char *why = hugePagesUnavailable())
    GTEST_SKIP() << why;
  ScopedHugePagesEnv on("1");
  // An ordinary anonymous mapping, written before any advice (as a
  // library's .bss global is by the module loader), 1 MiB off alignment.
  size_t bytes = 7 * kMiB;
  void *raw = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(raw, MAP_FAILED);
  uintptr_t aligned = (reinterpret_cast<uintptr_t>(raw) + kHugePageBytes - 1) /
                      kHugePageBytes * kHugePageBytes;
  auto *data = reinterpret_cast<uint8_t *>(aligned + kMiB);
  size_t size = 4 * kMiB;
  ASSERT_LE(reinterpret_cast<uintptr_t>(data) + size,
            reinterpret_cast<uintptr_t>(raw) + bytes);
  for (size_t i = 0; i < size; ++i)
    data[i] = uint8_t(i * 31 + 7);
  // [data, data + 4 MiB) holds one whole aligned huge page, at
  // aligned + 2 MiB.
  ASSERT_TRUE(collapseIntoHugePages(data, size));
  relax::test::Backing b = backingOf(reinterpret_cast<void *>(aligned + 2 * kMiB));
  ASSERT_TRUE(b.found);
  EXPECT_EQ(b.hugeBytes, kHugePageBytes);
  // Only the interior was advised: the advice split the mapping there.
  EXPECT_EQ(b.begin, aligned + 2 * kMiB);
  EXPECT_EQ(b.end, aligned + 4 * kMiB);
  for (size_t i = 0; i < size; ++i)
    ASSERT_EQ(data[i], uint8_t(i * 31 + 7)) << i;
  // A range without a whole aligned huge page is left alone.
  EXPECT_FALSE(collapseIntoHugePages(data, kMiB + 4096));
  munmap(raw, bytes);
}

TEST(HugePagesTest, AllocatorAdaptor) {
  ScopedHugePagesEnv on("1");
  std::vector<uint8_t, HugePageAllocator<uint8_t>> v(3 * kMiB);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % kHugePageBytes, 0u);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = uint8_t(i);
  // Growing moves the contents into a new buffer.
  v.resize(9 * kMiB, 0xee);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % kHugePageBytes, 0u);
  for (size_t i = 0; i < 3 * kMiB; ++i)
    ASSERT_EQ(v[i], uint8_t(i)) << i;
  EXPECT_EQ(v[9 * kMiB - 1], 0xee);
  std::vector<float, HugePageAllocator<float>> small(10, 1.5f);
  EXPECT_EQ(small[9], 1.5f);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small.data()) % 64, 0u);
  EXPECT_TRUE(HugePageAllocator<uint8_t>() == HugePageAllocator<float>());
}

} // namespace
