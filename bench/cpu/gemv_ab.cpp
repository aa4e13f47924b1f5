// A/B of the runtime's few-row product kernels (CpuGemvKernels.inc): two
// versions of the file, BASE_INC and TREE_INC, compiled side by side for
// one instruction set (AB_AVX512, else AVX2 + FMA; the runtime's Vec types
// of CpuGemvVec.h) and called alternately,
// call by call, on weights cycled beyond the last-level cache, so that a
// burst of load from other processes hits both alike. Each call's thread
// CPU time (CLOCK_THREAD_CPUTIME_ID: time on a CPU, memory stalls
// included, time descheduled left out; this VM has no PMU for
// `perf stat -e cycles:u`; with THREADS > 1 the sum over the threads) and
// wall time; prints the medians as GB/s of the weight streamed and GFLOP/s
// (per second of CPU time: per core), and the largest difference between
// the two outputs. With THREADS > 1 the columns are cut as the runtime's
// pool cuts them (CpuGemvIsa.h: about four pieces per thread, claimed in
// turn by the threads). Built and run by gemv_ab.sh.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "CpuGemvVec.h"
#include "ab_util.h"

#ifdef AB_AVX512
using Vec = Vec512;
#else
using Vec = Vec256;
#endif

// A version from before the packed X has no dotsPackX: this declaration
// gives the name a meaning there (calling it resolves to the deleted
// template, which AB_VERSION's pack takes as "no packing").
namespace base {
template <typename... A> void dotsPackX(A...) = delete;
#include BASE_INC
} // namespace base
namespace tree {
template <typename... A> void dotsPackX(A...) = delete;
#include TREE_INC
} // namespace tree

namespace {
using ab::threadSeconds;
using ab::wallSeconds;
using Buffer = ab::PageBuffer<float>;

/// The functions of one version of the file, found by overload resolution
/// so that a version without one (a file from before the several-row
/// kernel's packed X: no dotsPackX, no packed-X argument of gemvRange)
/// still compiles.
#define AB_VERSION(Name, ns)                                                   \
  struct Name {                                                                \
    template <typename... A>                                                   \
    static auto range(A... a) -> decltype(ns::gemvRange(a...)) {               \
      ns::gemvRange(a...);                                                     \
    }                                                                          \
    template <typename... A>                                                   \
    static auto pack(A... a) -> decltype(ns::dotsPackX(a...)) {                \
      ns::dotsPackX(a...);                                                     \
    }                                                                          \
  };
AB_VERSION(Base, base)
AB_VERSION(Tree, tree)

/// gemvRange with X packed at xp where the version takes it.
template <typename V, typename I>
auto rangeOf(I m, bool t, const float *x, const float *b, int64_t ldb,
             int64_t k, float *y, int64_t n, int64_t begin, int64_t end,
             const float *xp, int)
    -> decltype(V::range(m, t, x, k, b, ldb, k, y, n, begin, end, xp)) {
  V::range(m, t, x, k, b, ldb, k, y, n, begin, end, xp);
}
template <typename V, typename I>
void rangeOf(I m, bool t, const float *x, const float *b, int64_t ldb,
             int64_t k, float *y, int64_t n, int64_t begin, int64_t end,
             const float *, long) {
  V::range(m, t, x, k, b, ldb, k, y, n, begin, end);
}

/// X's m rows packed into xp (m * k floats) where the version packs them;
/// false where it does not.
template <typename V, typename I>
auto packOf(I m, const float *x, int64_t k, float *xp, int)
    -> decltype(V::pack(m, x, k, k, xp), bool()) {
  V::pack(m, x, k, k, xp);
  return true;
}
template <typename V, typename I>
bool packOf(I, const float *, int64_t, float *, long) {
  return false;
}

using RangeFn = void(int64_t m, bool transposed, const float *x, const float *b,
                     int64_t k, int64_t n, float *y, int64_t begin, int64_t end,
                     const float *xp);
using PackFn = bool(int64_t m, const float *x, int64_t k, float *xp);

template <typename V>
void rangeFn(int64_t m, bool transposed, const float *x, const float *b,
             int64_t k, int64_t n, float *y, int64_t begin, int64_t end,
             const float *xp) {
  rangeOf<V>(m, transposed, x, b, transposed ? k : n, k, y, n, begin, end, xp,
             0);
}
template <typename V>
bool packFn(int64_t m, const float *x, int64_t k, float *xp) {
  return packOf<V>(m, x, k, xp, 0);
}

/// fn over the n columns of Y on `threads` threads, in the pieces of the
/// runtime's splitOverPool (kPieceGrain = 16 columns, about four pieces per
/// thread, none under 64 KiB of the weight); returns the CPU time summed
/// over the threads.
double runSplit(RangeFn *fn, PackFn *pack, float *packed, int threads, int m,
                bool transposed, const float *x, int64_t k, const float *b,
                int64_t n, float *y) {
  // As gemvSmallRowsWith: more than four rows a multiple of 4 KiB apart
  // (X's rows are k floats apart here), X packed once per call by this
  // thread (timed with it).
  double packSeconds = 0;
  const float *xp = nullptr;
  if (m > 4 && (k * int64_t(sizeof(float))) % 4096 == 0) {
    double c0 = threadSeconds();
    if (pack(m, x, k, packed))
      xp = packed;
    packSeconds = threadSeconds() - c0;
  }
  auto call = [&](int64_t begin, int64_t end) {
    fn(m, transposed, x, b, k, n, y, begin, end, xp);
  };
  int64_t pieces = std::min<int64_t>({threads > 1 ? 4 * int64_t(threads) : 1,
                                      4 * n * k / (64 << 10), (n + 15) / 16});
  if (pieces <= 1) {
    double c0 = threadSeconds();
    call(0, n);
    return threadSeconds() - c0 + packSeconds;
  }
  std::atomic<int64_t> next{0};
  std::vector<double> cpu(size_t(threads), 0.0);
  auto worker = [&](int t) {
    double c0 = threadSeconds();
    for (int64_t p; (p = next.fetch_add(1)) < pieces;) {
      int64_t begin = p * n / pieces / 16 * 16;
      int64_t end = p + 1 == pieces ? n : (p + 1) * n / pieces / 16 * 16;
      if (begin < end)
        call(begin, end);
    }
    cpu[size_t(t)] = threadSeconds() - c0;
  };
  std::vector<std::thread> others;
  for (int t = 1; t < threads; ++t)
    others.emplace_back(worker, t);
  worker(0);
  for (std::thread &t : others)
    t.join();
  double sum = packSeconds;
  for (double c : cpu)
    sum += c;
  return sum;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s K N [REPEATS] [kn,nk] [ROWS: 1,2,3,4] [swap|-] "
                 "[THREADS]\n",
                 argv[0]);
    return 2;
  }
  int64_t k = std::atol(argv[1]), n = std::atol(argv[2]);
  int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  std::string layouts = argc > 4 ? argv[4] : "kn,nk";
  std::vector<int> rows;
  std::istringstream rowList(argc > 5 ? argv[5] : "1,2,3,4");
  for (std::string r; std::getline(rowList, r, ',');)
    rows.push_back(std::atoi(r.c_str()));
  bool swap = argc > 6 && argv[6][0] == 's';
  int threads = argc > 7 ? std::atoi(argv[7]) : 1;
  if (k < 1 || n < 1 || repeats < 1 || threads < 1 || threads > 64) {
    std::fprintf(stderr, "K, N, REPEATS and THREADS must be positive\n");
    return 2;
  }
  int maxRows = 1;
  for (int m : rows) {
    // Rows beyond four: B^T [n, k] only (gemvSmallRowsWith), up to 32.
    if (m < 1 || m > 32) {
      std::fprintf(stderr, "ROWS must be 1 to 32, not %d\n", m);
      return 2;
    }
    maxRows = std::max(maxRows, m);
  }
  // Enough weights for 200 MB, an odd count so that each side meets each.
  int weights = int(std::max<int64_t>(3, (200 << 20) / (4 * n * k) + 1)) | 1;
  std::vector<Buffer> ws;
  for (int i = 0; i < weights; ++i) {
    ws.emplace_back(size_t(n * k));
    for (size_t e = 0; e < ws.back().size; ++e)
      ws.back().data[e] = float(int(e % 13) - 6) * 0.1f;
  }
  Buffer x(size_t(maxRows * k)), y0(size_t(maxRows * n)),
      y1(size_t(maxRows * n)), packed(size_t(maxRows * k));
  for (size_t e = 0; e < x.size; ++e)
    x.data[e] = float(int(e % 7) - 3) * 0.25f;
  struct Side {
    const char *name;
    RangeFn *fn;
    PackFn *pack;
    float *y;
  } sides[2] = {{"base", rangeFn<Base>, packFn<Base>, y0.data},
                {"tree", rangeFn<Tree>, packFn<Tree>, y1.data}};
  if (swap)
    std::swap(sides[0], sides[1]);
  std::printf("k=%ld n=%ld, %d weights of %.0f MB, %d thread(s)\n", long(k),
              long(n), weights, 4e-6 * double(n * k), threads);
  int64_t call = 0;
  for (bool transposed : {false, true}) {
    if (layouts.find(transposed ? "nk" : "kn") == std::string::npos)
      continue;
    for (int m : rows) {
      if (m > 4 && !transposed)
        continue;
      std::vector<double> cpu[2], wall[2];
      for (int i = 0; i < repeats * weights * 2; ++i) {
        const Side &side = sides[i % 2];
        const float *b = ws[size_t(call++ % weights)].data;
        double w0 = wallSeconds();
        double c = runSplit(side.fn, side.pack, packed.data, threads, m,
                            transposed, x.data, k, b, n, side.y);
        wall[i % 2].push_back(wallSeconds() - w0);
        cpu[i % 2].push_back(c);
      }
      double diff = 0;
      for (int64_t e = 0; e < m * n; ++e)
        diff = std::max(diff, double(std::fabs(y0.data[e] - y1.data[e])) /
                                  (1.0 + std::fabs(y0.data[e])));
      double bytes = 4.0 * double(n) * double(k);
      double flops = 2.0 * m * double(n) * double(k);
      std::printf("%s m=%d:", transposed ? "[n,k]" : "[k,n]", m);
      for (int s = 0; s < 2; ++s) {
        std::sort(cpu[s].begin(), cpu[s].end());
        std::sort(wall[s].begin(), wall[s].end());
        double c = cpu[s][cpu[s].size() / 2], w = wall[s][wall[s].size() / 2];
        std::printf("  %s cpu %.2f ms %.1f GB/s %.1f GFLOP/s, wall %.2f ms",
                    sides[s].name, c * 1e3, bytes / c * 1e-9, flops / c * 1e-9,
                    w * 1e3);
      }
      std::printf("  max rel. diff %.1e\n", diff);
    }
  }
  return 0;
}
