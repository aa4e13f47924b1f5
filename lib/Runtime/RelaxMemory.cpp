//===- RelaxMemory.cpp - arenas of planned functions, memory counters -----===//
//
// A function planned by --relax-plan-memory takes its arena from here at
// entry and gives it back at return. Arenas are cached per function (keyed
// by the address of a private global of the compiled module, never
// dereferenced), so that the second call of a function reuses the first
// call's memory; a function whose arena has a bound asks for it at the
// bound, and so allocates once. Concurrent calls of one function each get
// their own arena: the cache holds one, the others are freed on release.
//
// The counters serve memory reports (relax-run --memory-report): compiled
// code built with record-memory counts each intermediate allocation and
// free, and each planned function says what its plan came to.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "ArenaCache.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {
constexpr int64_t kAlignment = 64;

relax_rt::ArenaCache &cache() {
  static auto *instance = new relax_rt::ArenaCache();
  return *instance;
}

struct PlanRecord {
  std::string arenaFormula, unplannedFormula;
  int64_t arenaBytes = 0, unplannedBytes = 0;
  int64_t storages = 0, planned = 0, intermediates = 0, bound = -1;
};

struct Counters {
  std::atomic<int64_t> current{0}, peak{0};
  std::mutex mutex;
  std::map<std::string, PlanRecord> plans;
  std::string report;
};

Counters &counters() {
  static Counters *instance = new Counters();
  return *instance;
}
} // namespace

extern "C" void _mlir_ciface_relax_rt_workspace_acquire(relax_rt_bytes *result,
                                                        const void *key,
                                                        int64_t bytes,
                                                        int64_t capacity) {
  *result = relax_rt_bytes{nullptr, nullptr, 0, bytes, 1};
  if (bytes < 0)
    return;
  relax_rt::ArenaCache &c = cache();
  relax_rt::ArenaCache::Arena arena = c.take(key);
  if (!arena.data || arena.capacity < bytes) {
    std::free(arena.data);
    // At the bound first (allocated once for every later call); a bound
    // too large to allocate (sym_bounds far above the sizes used) falls
    // back to what this call needs.
    arena = relax_rt::ArenaCache::allocate(
        bytes, capacity, kAlignment, [](int64_t size, bool) {
          return std::aligned_alloc(kAlignment, size);
        });
    if (!arena.data)
      return;
  }
  c.lend(arena);
  result->allocated = result->aligned = arena.data;
}

extern "C" void _mlir_ciface_relax_rt_workspace_release(const void *key,
                                                        relax_rt_bytes *buffer) {
  if (!buffer || !buffer->allocated)
    return;
  std::free(cache().giveBack(key, buffer->allocated));
}

extern "C" void relax_rt_workspace_trim(void) {
  for (void *data : cache().drain())
    std::free(data);
}

extern "C" void relax_rt_memory_alloc(int64_t bytes) {
  Counters &c = counters();
  int64_t now = c.current.fetch_add(bytes) + bytes;
  int64_t peak = c.peak.load();
  while (now > peak && !c.peak.compare_exchange_weak(peak, now)) {
  }
}

extern "C" void relax_rt_memory_free(int64_t bytes) {
  counters().current.fetch_sub(bytes);
}

extern "C" void relax_rt_memory_plan(const char *function,
                                     const char *arenaFormula,
                                     int64_t arenaBytes,
                                     const char *unplannedFormula,
                                     int64_t unplannedBytes, int64_t storages,
                                     int64_t planned, int64_t intermediates,
                                     int64_t bound) {
  Counters &c = counters();
  std::lock_guard<std::mutex> lock(c.mutex);
  PlanRecord &record = c.plans[function];
  record.arenaFormula = arenaFormula;
  record.unplannedFormula = unplannedFormula;
  record.arenaBytes = std::max(record.arenaBytes, arenaBytes);
  record.unplannedBytes = std::max(record.unplannedBytes, unplannedBytes);
  record.storages = storages;
  record.planned = planned;
  record.intermediates = intermediates;
  record.bound = bound;
}

extern "C" void relax_rt_memory_reset(void) {
  Counters &c = counters();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.current = 0;
  c.peak = 0;
  c.plans.clear();
}

extern "C" int64_t relax_rt_memory_peak(void) { return counters().peak; }

extern "C" const char *relax_rt_memory_report(void) {
  Counters &c = counters();
  std::lock_guard<std::mutex> lock(c.mutex);
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line), "peak intermediate bytes: %lld\n",
                static_cast<long long>(c.peak.load()));
  out += line;
  for (auto &[name, r] : c.plans) {
    out += "@" + name + ": ";
    std::snprintf(line, sizeof(line),
                  "%lld of %lld intermediates in %lld storages, arena %lld "
                  "bytes, without a plan %lld bytes",
                  static_cast<long long>(r.planned),
                  static_cast<long long>(r.intermediates),
                  static_cast<long long>(r.storages),
                  static_cast<long long>(r.arenaBytes),
                  static_cast<long long>(r.unplannedBytes));
    out += line;
    if (r.unplannedBytes > 0) {
      std::snprintf(line, sizeof(line), " (arena %.1f%% of it)",
                    100.0 * static_cast<double>(r.arenaBytes) /
                        static_cast<double>(r.unplannedBytes));
      out += line;
    }
    out += "\n  arena = " + r.arenaFormula + "\n";
    out += "  without a plan = " + r.unplannedFormula + "\n";
    if (r.bound >= 0) {
      std::snprintf(line, sizeof(line),
                    "  arena bound %lld bytes (sym_bounds): allocated once\n",
                    static_cast<long long>(r.bound));
      out += line;
    }
  }
  c.report = std::move(out);
  return c.report.c_str();
}
