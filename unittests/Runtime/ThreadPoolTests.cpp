//===- ThreadPoolTests.cpp - relax_rt_parallel_for ------------------------===//
//
// The runtime's thread pool (lib/Runtime/RelaxThreads.cpp): every index of
// a loop runs exactly once whatever the chunking, in chunks of the
// requested count, a loop started inside a chunk runs on its thread, and
// loops started from several application threads at once all complete.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "gtest/gtest.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct Coverage {
  std::vector<std::atomic<int>> hits;
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  explicit Coverage(int64_t n) : hits(n) {}
};

void countRange(void *context, int64_t begin, int64_t end) {
  auto *coverage = static_cast<Coverage *>(context);
  for (int64_t i = begin; i < end; ++i)
    coverage->hits[i].fetch_add(1);
  std::lock_guard<std::mutex> lock(coverage->mutex);
  coverage->ranges.emplace_back(begin, end);
}

TEST(ThreadPoolTest, EveryIndexOnceInTheRequestedChunks) {
  for (int64_t n : {1, 2, 3, 7, 64, 1000, 12345})
    for (int64_t chunks : {int64_t(1), int64_t(2), int64_t(5), n, n + 3}) {
      Coverage coverage(n);
      relax_rt_parallel_for(countRange, &coverage, n, chunks, -1);
      for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(coverage.hits[i].load(), 1)
            << "index " << i << " of " << n << ", " << chunks << " chunks";
      // min(chunks, n) non-empty ranges (or the whole loop on a pool of
      // one thread).
      size_t expected = relax_rt_num_threads() == 1
                            ? 1
                            : static_cast<size_t>(std::min(chunks, n));
      EXPECT_EQ(coverage.ranges.size(), expected)
          << n << " iterations, " << chunks << " chunks";
      for (auto [begin, end] : coverage.ranges)
        EXPECT_LT(begin, end);
    }
}

TEST(ThreadPoolTest, TheRuntimeChoosesFromTheWork) {
  // Little work: one chunk, on the calling thread.
  Coverage small(100);
  relax_rt_parallel_for(countRange, &small, 100, 0, 1000);
  ASSERT_EQ(small.ranges.size(), 1u);
  EXPECT_EQ(small.ranges[0], std::make_pair(int64_t(0), int64_t(100)));
  // Unknown or large work: about four chunks per thread.
  Coverage large(1000);
  relax_rt_parallel_for(countRange, &large, 1000, 0, -1);
  EXPECT_EQ(large.ranges.size(),
            relax_rt_num_threads() == 1
                ? 1u
                : static_cast<size_t>(4 * relax_rt_num_threads()));
  // An empty loop calls nothing.
  Coverage none(0);
  relax_rt_parallel_for(countRange, &none, 0, 0, -1);
  EXPECT_TRUE(none.ranges.empty());
}

struct Nested {
  std::atomic<int> inner{0};
  std::atomic<int> innerOnOtherThread{0};
};

void innerBody(void *context, int64_t begin, int64_t end) {
  auto *state = static_cast<std::pair<Nested *, std::thread::id> *>(context);
  state->first->inner.fetch_add(static_cast<int>(end - begin));
  if (std::this_thread::get_id() != state->second)
    state->first->innerOnOtherThread.fetch_add(1);
}

void outerBody(void *context, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    std::pair<Nested *, std::thread::id> state(static_cast<Nested *>(context),
                                               std::this_thread::get_id());
    relax_rt_parallel_for(innerBody, &state, 10, 10, -1);
  }
}

TEST(ThreadPoolTest, ALoopInsideAChunkRunsOnItsThread) {
  Nested nested;
  relax_rt_parallel_for(outerBody, &nested, 8, 8, -1);
  EXPECT_EQ(nested.inner.load(), 80);
  EXPECT_EQ(nested.innerOnOtherThread.load(), 0);
}

TEST(ThreadPoolTest, CallersOnSeveralThreads) {
  constexpr int kCallers = 4, kLoops = 200, kSize = 97;
  std::vector<std::thread> callers;
  std::vector<int> failures(kCallers, 0);
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&, c] {
      for (int loop = 0; loop < kLoops; ++loop) {
        Coverage coverage(kSize);
        relax_rt_parallel_for(countRange, &coverage, kSize, 7, -1);
        for (int i = 0; i < kSize; ++i)
          failures[c] += coverage.hits[i].load() != 1;
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  for (int c = 0; c < kCallers; ++c)
    EXPECT_EQ(failures[c], 0) << "caller " << c;
}

} // namespace
