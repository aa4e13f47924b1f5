//===- HugePageBacking.h - Which memory huge pages back ---------*- C++ -*-===//
//
// For the tests of HugePages.h: how much of a mapping the kernel backs with
// transparent huge pages, read from /proc/self/smaps (the AnonHugePages
// line of the mapping, VMA, that holds an address), and whether this
// machine's THP mode lets a test expect any.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_UNITTESTS_RUNTIME_HUGEPAGEBACKING_H
#define RELAX_UNITTESTS_RUNTIME_HUGEPAGEBACKING_H

#include "RelaxDialect/Runtime/HugePages.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace relax::test {

/// The mapping of this process that holds `address`: its range, the bytes
/// of it in anonymous huge pages, and whether it was advised MADV_HUGEPAGE
/// (`hg` in its VmFlags: known whether or not the kernel found free huge
/// pages). `found` is false when no mapping holds it (or /proc/self/smaps
/// cannot be read).
struct Backing {
  bool found = false;
  uintptr_t begin = 0, end = 0;
  size_t hugeBytes = 0;
  bool advised = false;
};

inline Backing backingOf(const void *address) {
  Backing b;
  std::FILE *f = std::fopen("/proc/self/smaps", "r");
  if (!f)
    return b;
  uintptr_t at = reinterpret_cast<uintptr_t>(address);
  char line[512];
  bool inside = false;
  while (std::fgets(line, sizeof line, f)) {
    uintmax_t lo, hi;
    // A mapping's first line: "begin-end perms offset dev inode path".
    if (std::sscanf(line, "%jx-%jx ", &lo, &hi) == 2 &&
        std::strchr(line, '-') < std::strchr(line, ' ')) {
      if (inside)
        break;
      inside = lo <= at && at < hi;
      if (inside) {
        b.found = true;
        b.begin = lo;
        b.end = hi;
      }
      continue;
    }
    unsigned long kb;
    if (inside && std::sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
      b.hugeBytes = size_t(kb) * 1024;
    if (inside && std::strncmp(line, "VmFlags:", 8) == 0)
      b.advised = std::strstr(line, " hg") != nullptr;
  }
  std::fclose(f);
  return b;
}

/// Why a test of huge page backing cannot expect any here, or null.
inline const char *hugePagesUnavailable() {
  switch (relax::runtime::transparentHugePageMode()) {
  case relax::runtime::HugePageMode::Never:
    return "transparent huge pages are off here "
           "(/sys/kernel/mm/transparent_hugepage/enabled is [never])";
  case relax::runtime::HugePageMode::Unknown:
    return "no transparent huge pages here "
           "(/sys/kernel/mm/transparent_hugepage/enabled is missing)";
  default:
    return nullptr;
  }
}

/// Sets RELAX_HUGE_PAGES for the lifetime of the object, then restores it.
class ScopedHugePagesEnv {
public:
  explicit ScopedHugePagesEnv(const char *value) {
    if (const char *old = std::getenv("RELAX_HUGE_PAGES")) {
      hadOld = true;
      std::snprintf(oldValue, sizeof oldValue, "%s", old);
    }
    setenv("RELAX_HUGE_PAGES", value, 1);
  }
  ~ScopedHugePagesEnv() {
    if (hadOld)
      setenv("RELAX_HUGE_PAGES", oldValue, 1);
    else
      unsetenv("RELAX_HUGE_PAGES");
  }

private:
  bool hadOld = false;
  char oldValue[64] = {0};
};

} // namespace relax::test

#endif // RELAX_UNITTESTS_RUNTIME_HUGEPAGEBACKING_H
