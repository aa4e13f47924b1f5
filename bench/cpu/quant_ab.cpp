// A/B of the runtime's quantized products (CpuQuantGemv.h, issue 31): two
// versions of lib/Runtime's quantized kernels, a git revision's ("base")
// and the working tree's ("tree"), each compiled from quant_ab_side.cpp
// into a namespace of its own by quant_ab.sh, called alternately, call by
// call, on weights cycled beyond the last-level cache, so that a burst of
// load from other processes hits both alike. Before each pair of calls it
// measures the read-only ceiling
// (read_bw.c's loop, 16 accumulators a run: the better of one run per
// thread and eight) on as many bytes as a product streams, cycled over
// 256 MB, at the same thread count over the runtime's pool. Weights and
// that array are in 2 MiB pages (QUANT_AB_PAGES=4k: in 4 KiB pages).
// Prints, per product, the medians of each side's calls as GB/s of the
// quantized bytes and scales streamed: wall time, the calling thread's CPU
// time (CLOCK_THREAD_CPUTIME_ID: time on a CPU, memory stalls included,
// descheduled time left out; the figure to compare at one thread on a
// loaded machine), and the wall figure as a fraction of the median
// ceiling; and the largest difference between the two sides' outputs.
// QUANT_AB_TILES=tree|base|both gives that side (those sides) the same
// weights in QuantTiles.h's tiles (the plain layout's bytes reordered: the
// outputs are the same, the bytes streamed too).
#include "RelaxDialect/Runtime/HugePages.h"
#include "RelaxDialect/Runtime/QuantTiles.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#include "ab_util.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

using EntryFn = bool(int isa, int64_t m, const float *x, int64_t ldx, int bits,
                     int64_t n, int64_t k, int64_t group, const void *q,
                     const void *scales, bool scalesF16, const uint8_t *zeros,
                     float *y, int64_t ldy, int threads, bool int8Activations,
                     bool tiled);
extern "C" EntryFn ab_base_linear, ab_tree_linear;

namespace {
namespace qt = relax::runtime::quant_tiles;
using ab::threadSeconds;
using ab::wallSeconds;
/// Whether QUANT_AB_PAGES=4k asks for 4 KiB pages (read once).
bool smallPages() {
  static const bool small = [] {
    const char *pages = std::getenv("QUANT_AB_PAGES");
    return pages && std::string(pages) == "4k";
  }();
  return small;
}

/// Weights and the ceiling's array as the runtime keeps its weights: in
/// 2 MiB pages where they span one (HugePages.h), unless QUANT_AB_PAGES=4k.
struct Buffer {
  explicit Buffer(size_t n)
      : data(static_cast<uint8_t *>(
            smallPages() ? std::aligned_alloc(4096, (n + 4095) / 4096 * 4096)
                         : relax::runtime::allocateLargeBuffer(n))),
        size(n) {}
  Buffer(Buffer &&o) noexcept
      : data(std::exchange(o.data, nullptr)), size(o.size) {}
  ~Buffer() {
    if (data && smallPages())
      std::free(data);
    else if (data)
      relax::runtime::freeLargeBuffer(data, size);
  }
  uint8_t *data;
  size_t size;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// xorshift64: the weights' bytes and scales, the same for both sides.
uint64_t next(uint64_t &s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

/// read_bw.c's loop over `floats` floats in kStreams runs at once, cut over
/// `threads` threads of the runtime's pool; returns GB/s read.
template <int kStreams>
double readWith(const float *a, int64_t floats, int threads) {
  constexpr int kLanes = 16;
  struct Context {
    const float *a;
    int64_t perStream, perTask;
    float sums[64];
  } context{a, floats / kStreams, 0, {}};
  context.perTask = (context.perStream / threads) / kLanes * kLanes;
  double t0 = wallSeconds();
  relax_rt_parallel_for(
      [](void *opaque, int64_t begin, int64_t end) {
        auto *c = static_cast<Context *>(opaque);
        for (int64_t t = begin; t < end; ++t) {
          float acc[kStreams][kLanes] = {};
          for (int64_t i = t * c->perTask; i < (t + 1) * c->perTask;
               i += kLanes)
            for (int s = 0; s < kStreams; ++s)
              for (int l = 0; l < kLanes; ++l)
                acc[s][l] += c->a[s * c->perStream + i + l];
          float sum = 0;
          for (auto &stream : acc)
            for (float v : stream)
              sum += v;
          c->sums[t] = sum;
        }
      },
      &context, threads, threads, -1);
  double seconds = wallSeconds() - t0;
  if (context.sums[0] == 12345.678f)
    std::puts("");
  return 4.0 * double(context.perTask * threads * kStreams) / seconds * 1e-9;
}

/// The read-only ceiling as read_bw.c finds it: the better of one run per
/// thread (on the first `floats` floats at a) and eight (on the next ones):
/// one run is the faster in huge pages, eight in 4 KiB pages, where a
/// run's hardware prefetch stops at each page.
double readOnce(const float *a, int64_t floats, int threads) {
  return std::max(readWith<1>(a, floats, threads),
                  readWith<8>(a + floats, floats, threads));
}

struct Format {
  const char *name;
  int bits;
  bool a8;
};
} // namespace

int main(int argc, char **argv) {
  if (argc < 7) {
    std::fprintf(stderr,
                 "usage: %s ISA FORMATS ROWS THREADS REPEATS 'N K;N K...' "
                 "[swap]\n  ISA 0 generic, 1 avx2, 2 avx512; FORMATS "
                 "q8,q4,q8a8,q4a8; ROWS e.g. 14; THREADS e.g. 12\n",
                 argv[0]);
    return 2;
  }
  int isa = std::atoi(argv[1]);
  std::string formats = argv[2], rows = argv[3], threadList = argv[4];
  int repeats = std::max(1, std::atoi(argv[5]));
  std::string shapes = argv[6];
  bool swap = argc > 7 && argv[7][0] == 's';
  const int64_t group = 32;
  const char *tilesEnv = std::getenv("QUANT_AB_TILES");
  const std::string tiles = tilesEnv ? tilesEnv : "";
  const char *spanEnv = std::getenv("QUANT_AB_SPAN_MB");
  const int64_t spanMB = spanEnv ? std::max(0L, std::atol(spanEnv)) : 256;
  struct Side {
    const char *name;
    EntryFn *fn;
    bool tiled;
  } sides[2] = {{"base", ab_base_linear, tiles == "base" || tiles == "both"},
                {"tree", ab_tree_linear, tiles == "tree" || tiles == "both"}};
  const bool anyTiles = sides[0].tiled || sides[1].tiled;
  if (swap)
    std::swap(sides[0], sides[1]);
  const int64_t ceilingFloats = int64_t(1) << 26;
  Buffer ceiling(size_t(ceilingFloats) * 4);
  for (int64_t i = 0; i < ceilingFloats; ++i)
    reinterpret_cast<float *>(ceiling.data)[i] = float(i % 7);
  const Format all[] = {
      {"q8", 8, false}, {"q4", 4, false}, {"q8a8", 8, true}, {"q4a8", 4, true}};
  size_t at = 0;
  while (at < shapes.size()) {
    size_t end = shapes.find(';', at);
    if (end == std::string::npos)
      end = shapes.size();
    long n = 0, k = 0;
    if (std::sscanf(shapes.substr(at, end - at).c_str(), "%ld %ld", &n, &k) !=
            2 ||
        n < 1 || k < group || k % group) {
      std::fprintf(stderr, "bad shape '%s'\n",
                   shapes.substr(at, end - at).c_str());
      return 2;
    }
    at = end + 1;
    for (const Format &format : all) {
      if (("," + formats + ",").find("," + std::string(format.name) + ",") ==
          std::string::npos)
        continue;
      const int64_t qBytes = n * k * format.bits / 8, groups = k / group;
      const double bytes = double(qBytes) + 2.0 * double(n * groups);
      // Enough weights for 256 MB (QUANT_AB_SPAN_MB; a span within L2
      // times the kernels' arithmetic alone), an odd count so that each
      // side meets each.
      int weights =
          int(std::max<int64_t>(3, (spanMB << 20) / int64_t(bytes) + 1)) | 1;
      if (anyTiles && qt::whyNotTileable(format.bits, n, k)) {
        std::fprintf(stderr, "%ld x %ld: %s\n", n, k,
                     qt::whyNotTileable(format.bits, n, k));
        return 2;
      }
      std::vector<float> x(size_t(4 * k));
      std::vector<Buffer> qs, scales, tiled;
      uint64_t seed = 88172645463325252ull;
      for (int c = 0; c < weights; ++c) {
        qs.emplace_back(size_t(qBytes));
        for (int64_t e = 0; e < qBytes; ++e)
          qs.back().data[e] = uint8_t(next(seed) >> 24);
        scales.emplace_back(size_t(2 * n * groups));
        auto *s = reinterpret_cast<uint16_t *>(scales.back().data);
        // f16 scales from 2^-9 to about 2^-6, either sign.
        for (int64_t e = 0; e < n * groups; ++e)
          s[e] = uint16_t(0x1800 + (next(seed) >> 54)) |
                 uint16_t((next(seed) & 1) << 15);
        if (anyTiles) {
          tiled.emplace_back(size_t(qt::weightBytes(format.bits, n, k)));
          qt::pack(format.bits, n, k, qs.back().data, s, tiled.back().data);
        }
      }
      for (float &v : x)
        v = float(int64_t(next(seed) >> 40) % 2001 - 1000) * 1e-3f;
      // A side's call on weight c.
      auto call = [&](const Side &side, int c, int m, float *out,
                      int threads) {
        const void *q = side.tiled ? tiled[size_t(c)].data : qs[size_t(c)].data;
        const void *sc = side.tiled ? nullptr : scales[size_t(c)].data;
        return side.fn(isa, m, x.data(), k, format.bits, n, k, group, q, sc,
                       true, nullptr, out, n, threads, format.a8, side.tiled);
      };
      std::vector<float> y[2] = {std::vector<float>(size_t(4 * n)),
                                 std::vector<float>(size_t(4 * n))};
      for (char threadChar : threadList) {
        int threads = threadChar - '0';
        if (threads < 1 || threads > 9)
          continue;
        for (char rowChar : rows) {
          int m = rowChar - '0';
          if (m < 1 || m > 4)
            continue;
          std::vector<double> cpu[2], wall[2], readOnly;
          int64_t calls = 0, readAt = 0;
          // The ceiling's reads are as long as a product's (a median of
          // long reads on a loaded machine would count every time slice
          // lost to another process, which the products' medians skip).
          const int64_t readFloats =
              std::max<int64_t>(int64_t(bytes / 4) / 512 * 512, 512);
          for (int r = 0; r < repeats; ++r) {
            for (int i = 0; i < 2 * weights; ++i, ++calls) {
              if (i % 2 == 0) {
                if (readAt + 2 * readFloats > ceilingFloats)
                  readAt = 0;
                readOnly.push_back(readOnce(
                    reinterpret_cast<float *>(ceiling.data) + readAt,
                    readFloats, threads));
                readAt += 2 * readFloats;
              }
              const Side &side = sides[i % 2];
              const int c = int(calls % weights);
              double c0 = threadSeconds(), w0 = wallSeconds();
              bool ok = call(side, c, m, y[i % 2].data(), threads);
              wall[i % 2].push_back(wallSeconds() - w0);
              cpu[i % 2].push_back(threadSeconds() - c0);
              if (!ok) {
                std::fprintf(stderr, "%s refused the product\n", side.name);
                return 1;
              }
            }
          }
          // The last calls of both sides read the same two weights in turn:
          // compare one product exactly.
          for (int s = 0; s < 2; ++s)
            call(sides[s], 0, m, y[s].data(), threads);
          double diff = 0;
          for (int64_t e = 0; e < m * n; ++e)
            diff = std::max(diff, double(std::fabs(y[0][e] - y[1][e])) /
                                      (1.0 + std::fabs(y[0][e])));
          double ceilingGBs = median(readOnly);
          std::printf("%-5s %5ld x %-5ld m=%d t=%d ceiling %5.1f GB/s:", format.name,
                      n, k, m, threads, ceilingGBs);
          double gbs[2];
          for (int s = 0; s < 2; ++s) {
            gbs[s] = bytes / median(wall[s]) * 1e-9;
            std::printf("  %s%s %5.1f GB/s (%3.0f%%) cpu %5.1f",
                        sides[s].name, sides[s].tiled ? " tiles" : "",
                        gbs[s], 100 * gbs[s] / ceilingGBs,
                        bytes / median(cpu[s]) * 1e-9);
          }
          int tree = swap ? 0 : 1;
          std::printf("  tree/base %.2f  diff %.1e\n",
                      gbs[tree] / gbs[1 - tree], diff);
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
