// Plain against tiled weights (QuantTiles.h, issue 31): the runtime's
// quantized products of the working tree (CpuQuantGemv.h, compiled into
// this program by quant_tiles_ab.sh in a namespace of its own) on the same
// weights in the plain layout and in tiles, called alternately, call by
// call, on weights cycled beyond the last-level cache, with the read-only
// ceiling (ab_ceiling.h: read_bw.c's loop on as many bytes as a product)
// measured before each pair of calls in the same process at the same
// thread count. Prints per product the medians of each layout's calls as
// GB/s of the quantized bytes and scales streamed (wall time), as a
// fraction of the median ceiling, the calling thread's CPU-time figure,
// and the largest difference between the two layouts' outputs (0 for the
// int8 activations, whose tile kernels are bit-identical to the plain
// ones). A layout the runtime refuses (whyUnsupported, or no kernel) is
// reported and skipped.
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"
#include "ab_ceiling.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace rt = relax::runtime;
namespace qt = relax::runtime::quant_tiles;

namespace {
using Buffer = ab::PageBuffer<uint8_t>;

struct Format {
  const char *name;
  int bits;
  bool a8;
};

/// One W [n, k] in both layouts.
struct Weight {
  Buffer q, scales, tiles;
  rt::QuantizedWeight plain, tiled;
};

Weight makeWeight(int bits, int64_t n, int64_t k, uint64_t &seed) {
  const int64_t qBytes = n * k * bits / 8, groups = k / 32;
  Weight w{Buffer(size_t(qBytes)), Buffer(size_t(2 * n * groups)),
           Buffer(size_t(qt::weightBytes(bits, n, k))), {}, {}};
  for (int64_t e = 0; e < qBytes; ++e)
    w.q.data[e] = uint8_t(ab::next(seed) >> 24);
  auto *s = reinterpret_cast<uint16_t *>(w.scales.data);
  // f16 scales from 2^-9 to about 2^-6, either sign.
  for (int64_t e = 0; e < n * groups; ++e)
    s[e] = uint16_t(0x1800 + (ab::next(seed) >> 54)) |
           uint16_t((ab::next(seed) & 1) << 15);
  qt::pack(bits, n, k, w.q.data, s, w.tiles.data);
  w.plain.bits = bits;
  w.plain.n = n;
  w.plain.k = k;
  w.plain.group = 32;
  w.plain.q = w.q.data;
  w.plain.scales = s;
  w.plain.scalesF16 = true;
  w.tiled = w.plain;
  w.tiled.layout = rt::QuantLayout::Tiles;
  w.tiled.q = w.tiles.data;
  w.tiled.scales = nullptr;
  return w;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 7) {
    std::fprintf(stderr,
                 "usage: %s ISA FORMATS ROWS THREADS REPEATS 'N K;N K...' "
                 "[swap]\n  ISA 0 generic, 1 avx2, 2 avx512; FORMATS "
                 "q8,q4,q8a8,q4a8; ROWS e.g. 1; THREADS e.g. 12\n",
                 argv[0]);
    return 2;
  }
  const auto isa = rt::CpuIsa(std::atoi(argv[1]));
  std::string formats = argv[2], rows = argv[3], threadList = argv[4];
  const int repeats = std::max(1, std::atoi(argv[5]));
  std::string shapes = argv[6];
  // Side 0 runs first in each pair: plain, or tiles with "swap".
  const bool swap = argc > 7 && argv[7][0] == 's';
  const char *names[2] = {"plain", "tiles"};
  const int64_t ceilingFloats = int64_t(1) << 26;
  Buffer ceiling(size_t(ceilingFloats) * 4);
  for (int64_t i = 0; i < ceilingFloats; ++i)
    reinterpret_cast<float *>(ceiling.data)[i] = float(i % 7);
  const Format all[] = {
      {"q8", 8, false}, {"q4", 4, false}, {"q8a8", 8, true}, {"q4a8", 4, true}};
  for (size_t at = 0; at < shapes.size();) {
    size_t end = std::min(shapes.find(';', at), shapes.size());
    long n = 0, k = 0;
    if (std::sscanf(shapes.substr(at, end - at).c_str(), "%ld %ld", &n, &k) !=
            2 ||
        qt::whyNotTileable(8, n, k)) {
      std::fprintf(stderr, "bad shape '%s' (tiles need n %% 8 == 0, k %% 128 == 0)\n",
                   shapes.substr(at, end - at).c_str());
      return 2;
    }
    at = end + 1;
    for (const Format &format : all) {
      if (("," + formats + ",").find("," + std::string(format.name) + ",") ==
          std::string::npos)
        continue;
      const double bytes = double(qt::weightBytes(format.bits, n, k));
      // Enough weights for 256 MB of each layout, an odd count so that
      // each layout meets each.
      const int count =
          int(std::max<int64_t>(3, (int64_t(256) << 20) / int64_t(bytes) + 1)) |
          1;
      std::vector<Weight> weights;
      uint64_t seed = 88172645463325252ull;
      for (int c = 0; c < count; ++c)
        weights.push_back(makeWeight(format.bits, n, k, seed));
      std::vector<float> x(size_t(4 * k));
      for (float &v : x)
        v = float(int64_t(ab::next(seed) >> 40) % 2001 - 1000) * 1e-3f;
      std::vector<float> y[2] = {std::vector<float>(size_t(4 * n)),
                                 std::vector<float>(size_t(4 * n))};
      const auto activations = format.a8 ? rt::QuantActivations::Int8
                                         : rt::QuantActivations::F32;
      // Layout s (0 plain, 1 tiles) of weight c into y[s].
      auto call = [&](int s, int c, int m, int threads) {
        const Weight &w = weights[size_t(c)];
        return rt::quantLinearWith(isa, m, x.data(), k,
                                   s ? w.tiled : w.plain, y[s].data(), n,
                                   threads, activations);
      };
      for (char threadChar : threadList) {
        const int threads = threadChar - '0';
        if (threads < 1 || threads > 9)
          continue;
        for (char rowChar : rows) {
          const int m = rowChar - '0';
          if (m < 1 || m > 4)
            continue;
          if (!call(0, 0, m, threads) || !call(1, 0, m, threads)) {
            std::printf("%-5s %5ld x %-5ld m=%d t=%d: refused (%s)\n",
                        format.name, n, k, m, threads,
                        call(0, 0, m, threads) ? "tiles" : "plain");
            continue;
          }
          std::vector<double> cpu[2], wall[2], readOnly;
          int64_t callIndex = 0, readAt = 0;
          // The ceiling's reads are as long as a product's.
          const int64_t readFloats =
              std::max<int64_t>(int64_t(bytes / 4) / 512 * 512, 512);
          for (int r = 0; r < repeats; ++r)
            for (int i = 0; i < 2 * count; ++i, ++callIndex) {
              if (i % 2 == 0) {
                if (readAt + readFloats > ceilingFloats)
                  readAt = 0;
                readOnly.push_back(ab::readOnce(
                    reinterpret_cast<float *>(ceiling.data) + readAt,
                    readFloats, threads));
                readAt += readFloats;
              }
              const int s = (i % 2) ^ int(swap);
              double c0 = ab::threadSeconds(), w0 = ab::wallSeconds();
              call(s, int(callIndex % count), m, threads);
              wall[s].push_back(ab::wallSeconds() - w0);
              cpu[s].push_back(ab::threadSeconds() - c0);
            }
          call(0, 0, m, threads);
          call(1, 0, m, threads);
          double diff = 0;
          for (int64_t e = 0; e < m * n; ++e)
            diff = std::max(diff, double(std::fabs(y[0][e] - y[1][e])) /
                                      (1.0 + std::fabs(y[0][e])));
          const double ceilingGBs = ab::median(readOnly);
          std::printf("%-5s %5ld x %-5ld m=%d t=%d ceiling %5.1f GB/s:",
                      format.name, n, k, m, threads, ceilingGBs);
          double gbs[2];
          for (int s = 0; s < 2; ++s) {
            gbs[s] = bytes / ab::median(wall[s]) * 1e-9;
            std::printf("  %s %5.1f GB/s (%3.0f%%) cpu %5.1f", names[s],
                        gbs[s], 100 * gbs[s] / ceilingGBs,
                        bytes / ab::median(cpu[s]) * 1e-9);
          }
          std::printf("  tiles/plain %.2f  diff %.1e\n", gbs[1] / gbs[0],
                      diff);
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
