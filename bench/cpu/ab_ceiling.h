// The read-only ceiling and the statistics shared by the A/B programs of
// the runtime's quantized products (quant_ab.cpp, quant_tiles_ab.cpp):
// read_bw.c's loop over the runtime's pool, medians, and the xorshift
// generator of their weights.
#ifndef RELAX_BENCH_CPU_AB_CEILING_H
#define RELAX_BENCH_CPU_AB_CEILING_H

#include "RelaxDialect/Runtime/RelaxRuntime.h"
#include "ab_util.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
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

} // namespace ab

#endif // RELAX_BENCH_CPU_AB_CEILING_H
