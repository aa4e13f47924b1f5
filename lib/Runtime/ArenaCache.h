//===- ArenaCache.h - idle arenas of planned functions, by key --*- C++ -*-===//
//
// The bookkeeping the host arena cache (RelaxMemory.cpp) and the device one
// (RelaxCUDA.cpp) share: one idle arena per function key between calls, and
// the capacity of every arena handed out, so that a released arena goes
// back to its key's slot. Concurrent calls of one function each get their
// own arena; the cache keeps the larger one on release. Allocation and
// freeing differ (aligned_alloc or cuMemAlloc) and stay with the callers.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_RUNTIME_ARENACACHE_H
#define LIB_RUNTIME_ARENACACHE_H

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace relax_rt {

class ArenaCache {
public:
  /// `capacity` usable bytes at `data`.
  struct Arena {
    void *data = nullptr;
    int64_t capacity = 0;
  };

  /// Removes and returns the idle arena of `key` (empty when none).
  Arena take(const void *key) {
    std::lock_guard<std::mutex> lock(mutex);
    Arena arena;
    auto it = idle.find(key);
    if (it != idle.end()) {
      arena = it->second;
      idle.erase(it);
    }
    return arena;
  }

  /// Records an arena handed out to a call.
  void lend(Arena arena) {
    std::lock_guard<std::mutex> lock(mutex);
    capacities[arena.data] = arena.capacity;
  }

  /// Takes `data` back as `key`'s idle arena; returns the arena the caller
  /// must free (the smaller one when another call released first), or null.
  void *giveBack(const void *key, void *data) {
    std::lock_guard<std::mutex> lock(mutex);
    Arena arena{data, 0};
    auto cap = capacities.find(data);
    if (cap != capacities.end()) {
      arena.capacity = cap->second;
      capacities.erase(cap);
    }
    auto [it, inserted] = idle.try_emplace(key, arena);
    if (inserted)
      return nullptr;
    if (it->second.capacity < arena.capacity)
      std::swap(it->second, arena);
    return arena.data;
  }

  /// Empties the cache; returns the idle arenas' data for the caller to free.
  std::vector<void *> drain() {
    std::unordered_map<const void *, Arena> taken;
    {
      std::lock_guard<std::mutex> lock(mutex);
      taken.swap(idle);
    }
    std::vector<void *> data;
    for (auto &entry : taken)
      data.push_back(entry.second.data);
    return data;
  }

  /// A new arena for `bytes`, allocated at `capacity` (a plan's bound) when
  /// `allocate(size, last)` succeeds there, else at `bytes` (`last` set);
  /// sizes are rounded up to `granule`, at least one granule so that an
  /// empty arena is still a valid, non-null pointer. A size within a
  /// granule of INT64_MAX has no rounded value and is skipped.
  template <typename Allocate>
  static Arena allocate(int64_t bytes, int64_t capacity, int64_t granule,
                        Allocate allocate) {
    int64_t first = bytes > capacity ? bytes : capacity;
    for (int64_t want : {first, bytes}) {
      if (want > INT64_MAX - (granule - 1))
        continue;
      int64_t rounded = (want + granule - 1) / granule * granule;
      if (rounded < granule)
        rounded = granule;
      if (void *data = allocate(rounded, want == bytes))
        return Arena{data, rounded};
    }
    return Arena();
  }

private:
  std::mutex mutex;
  std::unordered_map<const void *, Arena> idle;
  std::unordered_map<void *, int64_t> capacities;
};

} // namespace relax_rt

#endif // LIB_RUNTIME_ARENACACHE_H
