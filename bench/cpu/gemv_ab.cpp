// A/B of the runtime's few-row product kernels (CpuGemvKernels.inc): two
// versions of the file, BASE_INC and TREE_INC, compiled side by side for
// one instruction set (AB_AVX512, else AVX2 + FMA; the runtime's Vec types
// of CpuGemvVec.h) and called alternately,
// call by call, on weights cycled beyond the last-level cache, so that a
// burst of load from other processes hits both alike. Each call's thread
// CPU time (CLOCK_THREAD_CPUTIME_ID: time on a CPU, memory stalls
// included, time descheduled left out; this VM has no PMU for
// `perf stat -e cycles:u`) and wall time; prints the medians as GB/s of
// the weight streamed, and the largest difference between the two outputs.
// Built and run by gemv_ab.sh.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
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

namespace base {
#include BASE_INC
} // namespace base
namespace tree {
#include TREE_INC
} // namespace tree

namespace {
using ab::threadSeconds;
using ab::wallSeconds;
using Buffer = ab::PageBuffer<float>;
using RangeFn = void(int64_t, bool, const float *, int64_t, const float *,
                     int64_t, int64_t, float *, int64_t, int64_t, int64_t);
} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s K N [REPEATS] [kn,nk] [ROWS] [swap]\n",
                 argv[0]);
    return 2;
  }
  int64_t k = std::atol(argv[1]), n = std::atol(argv[2]);
  int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  std::string layouts = argc > 4 ? argv[4] : "kn,nk";
  std::string rows = argc > 5 ? argv[5] : "1234";
  bool swap = argc > 6 && argv[6][0] == 's';
  if (k < 1 || n < 1 || repeats < 1) {
    std::fprintf(stderr, "K, N and REPEATS must be positive\n");
    return 2;
  }
  // Enough weights for 200 MB, an odd count so that each side meets each.
  int weights = int(std::max<int64_t>(3, (200 << 20) / (4 * n * k) + 1)) | 1;
  std::vector<Buffer> ws;
  for (int i = 0; i < weights; ++i) {
    ws.emplace_back(size_t(n * k));
    for (size_t e = 0; e < ws.back().size; ++e)
      ws.back().data[e] = float(int(e % 13) - 6) * 0.1f;
  }
  Buffer x(4 * k), y0(4 * n), y1(4 * n);
  for (size_t e = 0; e < x.size; ++e)
    x.data[e] = float(int(e % 7) - 3) * 0.25f;
  struct Side {
    const char *name;
    RangeFn *fn;
    float *y;
  } sides[2] = {{"base", base::gemvRange, y0.data},
                {"tree", tree::gemvRange, y1.data}};
  if (swap)
    std::swap(sides[0], sides[1]);
  std::printf("k=%ld n=%ld, %d weights of %.0f MB\n", long(k), long(n), weights,
              4e-6 * double(n * k));
  int64_t call = 0;
  for (bool transposed : {false, true}) {
    if (layouts.find(transposed ? "nk" : "kn") == std::string::npos)
      continue;
    for (char r : rows) {
      int m = r - '0';
      if (m < 1 || m > 4)
        continue;
      std::vector<double> cpu[2], wall[2];
      for (int i = 0; i < repeats * weights * 2; ++i) {
        const Side &side = sides[i % 2];
        const float *b = ws[size_t(call++ % weights)].data;
        double c0 = threadSeconds(), w0 = wallSeconds();
        side.fn(m, transposed, x.data, k, b, transposed ? k : n, k, side.y, n,
                0, n);
        wall[i % 2].push_back(wallSeconds() - w0);
        cpu[i % 2].push_back(threadSeconds() - c0);
      }
      double diff = 0;
      for (int64_t e = 0; e < m * n; ++e)
        diff = std::max(diff, double(std::fabs(y0.data[e] - y1.data[e])) /
                                  (1.0 + std::fabs(y0.data[e])));
      double bytes = 4.0 * double(n) * double(k);
      std::printf("%s m=%d:", transposed ? "[n,k]" : "[k,n]", m);
      for (int s = 0; s < 2; ++s) {
        std::sort(cpu[s].begin(), cpu[s].end());
        std::sort(wall[s].begin(), wall[s].end());
        double c = cpu[s][cpu[s].size() / 2], w = wall[s][wall[s].size() / 2];
        std::printf("  %s cpu %.2f ms %.1f GB/s, wall %.2f ms %.1f GB/s",
                    sides[s].name, c * 1e3, bytes / c * 1e-9, w * 1e3,
                    bytes / w * 1e-9);
      }
      std::printf("  max rel. diff %.1e\n", diff);
    }
  }
  return 0;
}
