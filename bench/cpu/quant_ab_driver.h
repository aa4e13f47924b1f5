// The main loop shared by the A/B programs of the runtime's quantized
// products (quant_ab.cpp: two versions of the kernels; quant_tiles_ab.cpp:
// the plain layout against tiles): for each shape and format, f16-scaled
// group-32 weights (xorshift bytes, the same for both sides) cycled over
// 256 MB, the two sides called alternately, call by call, so that a burst
// of load from other processes hits both alike, and before each pair of
// calls the read-only ceiling (read_bw.c's loop: 8 runs of 16
// accumulators) on as many bytes as a product streams, cycled over 256 MB,
// at the same thread count over the runtime's pool.
// Prints, per product, the medians of each side's calls as GB/s of the
// quantized bytes and scales streamed: wall time, the calling thread's CPU
// time (CLOCK_THREAD_CPUTIME_ID: time on a CPU, memory stalls included,
// descheduled time left out; the figure to compare at one thread on a
// loaded machine), and the wall figure as a fraction of the median
// ceiling; the ratio of side 1 to side 0; and the largest difference
// between the two sides' outputs.
#ifndef RELAX_BENCH_CPU_QUANT_AB_DRIVER_H
#define RELAX_BENCH_CPU_QUANT_AB_DRIVER_H

#include "RelaxDialect/Runtime/RelaxRuntime.h"
#include "ab_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace ab {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// xorshift64: the weights' bytes and scales, the same for both sides.
inline uint64_t next(uint64_t &s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

/// read_bw.c's loop over `floats` floats, cut over `threads` threads of the
/// runtime's pool; returns GB/s read.
inline double readOnce(const float *a, int64_t floats, int threads) {
  constexpr int kLanes = 16, kStreams = 8;
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

/// A product's format: W's bits, and whether X is quantized to int8
/// (QuantActivations::Int8).
struct Format {
  const char *name;
  int bits;
  bool a8;
};

/// One weight W [n, k] of the cycle: q (int8 [n, k] or nibbles [n, k / 2])
/// and f16 scales [n, k / 32].
struct QuantWeight {
  PageBuffer<uint8_t> q, scales;
};

/// The A/B main. `Program` supplies
///   const char *names[2], *ratio  the sides' names, "side1/side0"
///   const char *whyNot(int64_t n, int64_t k)  a shape it cannot run, or
///                                 null
///   void prepared(const Format &, int64_t n, int64_t k,
///                 const std::vector<QuantWeight> &)   the cycle's weights
///                                 (made once per shape and format)
///   bool call(int side, size_t weight, const Format &, int64_t n,
///             int64_t k, int m, const float *x, float *y, int threads)
///                                 one product, false when refused
/// argv: ISA FORMATS ROWS THREADS REPEATS 'N K;N K...' [swap]; `swap` runs
/// side 1 first in each pair. Returns the process's exit status.
template <typename Program>
int quantAbMain(int argc, char **argv, Program &program) {
  if (argc < 7) {
    std::fprintf(stderr,
                 "usage: %s ISA FORMATS ROWS THREADS REPEATS 'N K;N K...' "
                 "[swap]\n  ISA 0 generic, 1 avx2, 2 avx512; FORMATS "
                 "q8,q4,q8a8,q4a8; ROWS digits 1-4 (e.g. 14); THREADS "
                 "digits (e.g. 12)\n",
                 argv[0]);
    return 2;
  }
  const std::string formats = argv[2], rows = argv[3], threadList = argv[4];
  const int repeats = std::max(1, std::atoi(argv[5]));
  const std::string shapes = argv[6];
  const bool swap = argc > 7 && argv[7][0] == 's';
  // slot 0 runs first in each pair.
  const int sideOf[2] = {int(swap), int(!swap)};
  const int64_t ceilingFloats = int64_t(1) << 26;
  PageBuffer<float> ceiling{size_t(ceilingFloats)};
  for (int64_t i = 0; i < ceilingFloats; ++i)
    ceiling.data[i] = float(i % 7);
  const Format all[] = {
      {"q8", 8, false}, {"q4", 4, false}, {"q8a8", 8, true}, {"q4a8", 4, true}};
  for (size_t at = 0; at < shapes.size();) {
    const size_t end = std::min(shapes.find(';', at), shapes.size());
    const std::string shape = shapes.substr(at, end - at);
    at = end + 1;
    long n = 0, k = 0;
    const char *why = std::sscanf(shape.c_str(), "%ld %ld", &n, &k) != 2
                          ? "not two numbers"
                          : n < 1 || k < 32 || k % 32
                                ? "groups of 32 need k a multiple of 32"
                                : program.whyNot(n, k);
    if (why) {
      std::fprintf(stderr, "bad shape '%s': %s\n", shape.c_str(), why);
      return 2;
    }
    for (const Format &format : all) {
      if (("," + formats + ",").find("," + std::string(format.name) + ",") ==
          std::string::npos)
        continue;
      const int64_t qBytes = n * k * format.bits / 8, groups = k / 32;
      const double bytes = double(qBytes) + 2.0 * double(n * groups);
      // Enough weights for 256 MB, an odd count so that each side meets
      // each.
      const int count =
          int(std::max<int64_t>(3, (int64_t(256) << 20) / int64_t(bytes) + 1)) |
          1;
      std::vector<QuantWeight> weights;
      uint64_t seed = 88172645463325252ull;
      for (int c = 0; c < count; ++c) {
        weights.push_back({PageBuffer<uint8_t>(size_t(qBytes)),
                           PageBuffer<uint8_t>(size_t(2 * n * groups))});
        for (int64_t e = 0; e < qBytes; ++e)
          weights.back().q.data[e] = uint8_t(next(seed) >> 24);
        auto *s = reinterpret_cast<uint16_t *>(weights.back().scales.data);
        // f16 scales from 2^-9 to about 2^-6, either sign.
        for (int64_t e = 0; e < n * groups; ++e)
          s[e] = uint16_t(0x1800 + (next(seed) >> 54)) |
                 uint16_t((next(seed) & 1) << 15);
      }
      program.prepared(format, n, k, weights);
      std::vector<float> x(size_t(4 * k));
      for (float &v : x)
        v = float(int64_t(next(seed) >> 40) % 2001 - 1000) * 1e-3f;
      std::vector<float> y[2] = {std::vector<float>(size_t(4 * n)),
                                 std::vector<float>(size_t(4 * n))};
      for (char threadChar : threadList) {
        const int threads = threadChar - '0';
        if (threads < 1 || threads > 9)
          continue;
        for (char rowChar : rows) {
          const int m = rowChar - '0';
          if (m < 1 || m > 4)
            continue;
          auto call = [&](int side, size_t weight) {
            return program.call(side, weight, format, n, k, m, x.data(),
                                y[side].data(), threads);
          };
          if (!call(0, 0) || !call(1, 0)) {
            std::printf("%-5s %5ld x %-5ld m=%d t=%d: %s refused the "
                        "product\n",
                        format.name, n, k, m, threads,
                        program.names[call(0, 0) ? 1 : 0]);
            continue;
          }
          std::vector<double> cpu[2], wall[2], readOnly;
          int64_t calls = 0, readAt = 0;
          // The ceiling's reads are as long as a product's (a median of
          // long reads on a loaded machine would count every time slice
          // lost to another process, which the products' medians skip).
          const int64_t readFloats =
              std::max<int64_t>(int64_t(bytes / 4) / 512 * 512, 512);
          for (int r = 0; r < repeats; ++r) {
            for (int i = 0; i < 2 * count; ++i, ++calls) {
              if (i % 2 == 0) {
                if (readAt + readFloats > ceilingFloats)
                  readAt = 0;
                readOnly.push_back(
                    readOnce(ceiling.data + readAt, readFloats, threads));
                readAt += readFloats;
              }
              const int side = sideOf[i % 2];
              double c0 = threadSeconds(), w0 = wallSeconds();
              bool ok = call(side, size_t(calls % count));
              wall[side].push_back(wallSeconds() - w0);
              cpu[side].push_back(threadSeconds() - c0);
              if (!ok) {
                std::fprintf(stderr, "%s refused the product\n",
                             program.names[side]);
                return 1;
              }
            }
          }
          // Both sides on the same weight: compare one product exactly.
          call(0, 0);
          call(1, 0);
          double diff = 0;
          for (int64_t e = 0; e < m * n; ++e)
            diff = std::max(diff, double(std::fabs(y[0][e] - y[1][e])) /
                                      (1.0 + std::fabs(y[0][e])));
          const double ceilingGBs = median(readOnly);
          std::printf("%-5s %5ld x %-5ld m=%d t=%d ceiling %5.1f GB/s:",
                      format.name, n, k, m, threads, ceilingGBs);
          double gbs[2];
          for (int slot = 0; slot < 2; ++slot) {
            const int side = sideOf[slot];
            gbs[side] = bytes / median(wall[side]) * 1e-9;
            std::printf("  %s %5.1f GB/s (%3.0f%%) cpu %5.1f",
                        program.names[side], gbs[side],
                        100 * gbs[side] / ceilingGBs,
                        bytes / median(cpu[side]) * 1e-9);
          }
          std::printf("  %s %.2f  diff %.1e\n", program.ratio,
                      gbs[1] / gbs[0], diff);
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}

} // namespace ab

#endif // RELAX_BENCH_CPU_QUANT_AB_DRIVER_H
