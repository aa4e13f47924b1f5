//===- HugePages.h - Large read-mostly buffers in 2 MiB pages ---*- C++ -*-===//
//
// Decode at batch 1 reads every weight once per token: 767 MB a token for
// llama-16l in q8. In 4 KiB pages that is about 190,000 pages a token, each
// a TLB miss, and the hardware prefetchers stop at every 4 KiB boundary. The
// same products on weights in 2 MiB transparent huge pages ran 1.30-1.37x
// faster on a Zen 4 core (q8: 80-81% of the read-only bandwidth ceiling in
// 4 KiB pages, 101-108% in huge pages; docs/perf.md "Weights in huge
// pages"). This header lets the runtime and the host tools (llama-generate)
// put such buffers in huge pages. Header-only and free of LLVM, as Half.h
// and QuantTiles.h, because both sides need it.
//
// Linux's transparent huge pages (/sys/kernel/mm/transparent_hugepage/
// enabled) have three modes:
//   always   every large enough anonymous mapping may get huge pages;
//            MADV_HUGEPAGE only makes the page-fault path try harder (the
//            `defrag` setting) and MADV_COLLAPSE still collapses at once;
//   madvise  only ranges given MADV_HUGEPAGE get them: without this header
//            every weight sits in 4 KiB pages;
//   never    no huge pages at all: the calls here fail quietly and the
//            buffers are ordinary 4 KiB pages (2 MiB-aligned, rounded up).
// Huge pages are never a matter of correctness: every failure here only
// costs speed. RELAX_HUGE_PAGES=0 in the environment turns all of it off
// (the A/B switch, and the escape hatch where the rounding up to 2 MiB or
// the kernel's khugepaged work is unwelcome).
//
//===----------------------------------------------------------------------===//

#ifndef RELAXDIALECT_RUNTIME_HUGEPAGES_H
#define RELAXDIALECT_RUNTIME_HUGEPAGES_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>

// MADV_COLLAPSE (Linux 6.1) is missing from older C library headers; the
// number is the kernel's ABI. A kernel without it answers EINVAL.
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

namespace relax::runtime {

/// The size of an x86-64 / AArch64 (4 KiB granule) PMD huge page.
inline constexpr size_t kHugePageBytes = size_t(2) << 20;

/// Whether the buffers here should ask for huge pages: true unless the
/// environment says RELAX_HUGE_PAGES=0. Read at each call (a getenv), so
/// that a test may change it; allocation and release do not depend on it.
inline bool hugePagesEnabled() {
  const char *v = std::getenv("RELAX_HUGE_PAGES");
  return !(v && std::strcmp(v, "0") == 0);
}

/// The kernel's transparent huge page mode (see the file comment).
enum class HugePageMode { Always, Madvise, Never, Unknown };

/// The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled, or
/// Unknown where that file is missing (not Linux, or a kernel without THP).
inline HugePageMode transparentHugePageMode() {
  std::FILE *f =
      std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f)
    return HugePageMode::Unknown;
  char line[128] = {0};
  bool read = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  if (!read)
    return HugePageMode::Unknown;
  if (std::strstr(line, "[always]"))
    return HugePageMode::Always;
  if (std::strstr(line, "[madvise]"))
    return HugePageMode::Madvise;
  if (std::strstr(line, "[never]"))
    return HugePageMode::Never;
  return HugePageMode::Unknown;
}

/// Whether a buffer of `bytes` is big enough for huge pages: one that fills
/// no whole huge page gains nothing and would waste up to 2 MiB.
inline bool wantsHugePages(size_t bytes) { return bytes >= kHugePageBytes; }

/// `bytes` rounded up to whole huge pages.
inline size_t roundUpToHugePages(size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

/// An anonymous, zeroed, 2 MiB-aligned mapping of roundUpToHugePages(bytes)
/// for a buffer of at least kHugePageBytes, advised MADV_HUGEPAGE before
/// anything touches it (so that the first write of each 2 MiB faults in a
/// whole huge page, where the kernel has one); a plain 64-byte aligned
/// allocation for a smaller one. With RELAX_HUGE_PAGES=0 a large buffer is
/// still an anonymous mapping of roundUpToHugePages(bytes) (as glibc's
/// malloc makes for large blocks; the pages past `bytes` are never touched,
/// so they cost no memory), but not aligned and not advised. Null when the
/// memory is not there. Release with freeLargeBuffer(p, bytes).
inline void *allocateLargeBuffer(size_t bytes) {
  if (!wantsHugePages(bytes)) {
    if (bytes == 0)
      bytes = 1;
    return ::operator new(bytes, std::align_val_t(64), std::nothrow);
  }
  // Neither the rounding nor the extra huge page below may overflow.
  if (bytes > SIZE_MAX - 2 * kHugePageBytes)
    return nullptr;
  size_t size = roundUpToHugePages(bytes);
  if (!hugePagesEnabled()) {
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
  // Map one huge page more than needed, then unmap the ends so that what
  // is left starts on a 2 MiB boundary: only aligned 2 MiB ranges can be
  // huge pages.
  void *raw = mmap(nullptr, size + kHugePageBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    return nullptr;
  uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned =
      (begin + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > begin)
    munmap(raw, aligned - begin);
  uintptr_t end = begin + size + kHugePageBytes;
  if (end > aligned + size)
    munmap(reinterpret_cast<void *>(aligned + size), end - (aligned + size));
  void *p = reinterpret_cast<void *>(aligned);
  // Fails where THP is `never` or compiled out: the pages stay 4 KiB.
  madvise(p, size, MADV_HUGEPAGE);
  return p;
}

/// Releases a buffer of allocateLargeBuffer(bytes), `bytes` as given there.
/// Only the size decides how it was made, never the environment, so a
/// buffer outlives a change of RELAX_HUGE_PAGES.
inline void freeLargeBuffer(void *p, size_t bytes) {
  if (!p)
    return;
  if (!wantsHugePages(bytes)) {
    ::operator delete(p, std::align_val_t(64));
    return;
  }
  // Both kinds of large buffer map the rounded size.
  munmap(p, roundUpToHugePages(bytes));
}

/// Asks for huge pages under memory already written (a buffer this header
/// did not allocate: a library's .bss global, a std::vector): MADV_HUGEPAGE
/// then MADV_COLLAPSE (Linux 6.1) on the 2 MiB-aligned interior of
/// [data, data + bytes), which copies the range into huge pages at once
/// instead of waiting for khugepaged. Best effort: where the range is not
/// anonymous memory (MADV_COLLAPSE answers EINVAL for a file mapping), THP
/// is `never`, the kernel is older, or no huge page is free, nothing
/// changes but speed. Returns whether the collapse succeeded (false also
/// when the range holds no whole huge page or RELAX_HUGE_PAGES=0).
inline bool collapseIntoHugePages(const void *data, size_t bytes) {
  if (!hugePagesEnabled() || !data)
    return false;
  uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  uintptr_t first =
      (begin + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  uintptr_t last = (begin + bytes) / kHugePageBytes * kHugePageBytes;
  if (first >= last)
    return false;
  void *p = reinterpret_cast<void *>(first);
  // MADV_HUGEPAGE first: in `madvise` mode it also keeps khugepaged and
  // later faults of the range in huge pages.
  madvise(p, last - first, MADV_HUGEPAGE);
  return madvise(p, last - first, MADV_COLLAPSE) == 0;
}

/// A std allocator over allocateLargeBuffer, so that
/// `std::vector<uint8_t, HugePageAllocator<uint8_t>>` keeps a weight of
/// 2 MiB or more in huge pages. Stateless: any two compare equal.
template <typename T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() noexcept = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U> &) noexcept {}

  T *allocate(size_t n) {
    void *p = n > SIZE_MAX / sizeof(T) ? nullptr
                                        : allocateLargeBuffer(n * sizeof(T));
    if (!p) {
      // As operator new does: the containers cannot take a null.
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
      throw std::bad_alloc();
#else
      std::abort();
#endif
    }
    return static_cast<T *>(p);
  }
  void deallocate(T *p, size_t n) noexcept {
    freeLargeBuffer(p, n * sizeof(T));
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U> &) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const HugePageAllocator<U> &) const noexcept {
    return false;
  }
};

} // namespace relax::runtime

#endif // RELAXDIALECT_RUNTIME_HUGEPAGES_H
