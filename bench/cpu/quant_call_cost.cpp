// The fixed cost of a quantized decode product (issue 31): quantLinear
// with int8 activations, one row of X, on a W of 8 rows in tiles (a few
// KiB, in L1), so that the time of a call is X's preparation (quantized
// by blocks, the blocks' sums, the nibble order) and the call's own work,
// not the weight's stream. Prints the median of 5 runs of 200000 calls
// per depth, in microseconds a call.
// Built and run from the repository root (one line):
//   c++ -O2 -std=gnu++17 -Ilib/Runtime -Iinclude bench/cpu/quant_call_cost.cpp
//     build/lib/libRelaxRuntime.so -Wl,-rpath,$PWD/build/lib -o /tmp/qcc
//   /tmp/qcc [bits 4|8] [threads]
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace relax::runtime;

int main(int argc, char **argv) {
  const int bits = argc > 1 ? std::atoi(argv[1]) : 4;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  if ((bits != 4 && bits != 8) || threads < 1) {
    std::fprintf(stderr, "usage: quant_call_cost [bits 4|8] [threads]\n");
    return 2;
  }
  const int64_t n = 8, calls = 200000;
  for (int64_t k : {2048, 5632}) {
    std::vector<uint8_t> q(size_t(n * k * bits / 8));
    uint32_t seed = 1;
    for (uint8_t &b : q)
      b = uint8_t((seed = seed * 1664525u + 1013904223u) >> 24);
    std::vector<uint16_t> scales(size_t(n * k / 32), 0x2000);
    std::vector<uint8_t> tiles(size_t(quant_tiles::weightBytes(bits, n, k)));
    quant_tiles::pack(bits, n, k, q.data(), scales.data(), tiles.data());
    QuantizedWeight w;
    w.bits = bits;
    w.n = n;
    w.k = k;
    w.q = tiles.data();
    w.scalesF16 = true;
    w.layout = QuantLayout::Tiles;
    std::vector<float> x(static_cast<size_t>(k)), y(static_cast<size_t>(n));
    for (int64_t l = 0; l < k; ++l)
      x[size_t(l)] = float(l % 13) * 0.1f - 0.6f;
    std::vector<double> us;
    for (int r = 0; r < 5; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      for (int64_t c = 0; c < calls; ++c)
        if (!quantLinear(1, x.data(), k, w, y.data(), n, threads,
                         QuantActivations::Int8)) {
          std::fprintf(stderr, "quantLinear refused the product\n");
          return 1;
        }
      us.push_back(std::chrono::duration<double, std::micro>(
                       std::chrono::steady_clock::now() - t0)
                       .count() /
                   double(calls));
    }
    std::sort(us.begin(), us.end());
    std::printf("q%d, k = %lld, %d thread(s): %.3f us a call\n", bits,
                static_cast<long long>(k), threads, us[2]);
  }
  return 0;
}
