//===- QuantGemvBench.cpp - The runtime's few-row products, timed --------===//
//
// Google Benchmark timings of relax::runtime::quantLinear (CpuQuantGemv.h)
// next to the f32 few-row product on the same shape (gemvSmallRows,
// CpuGemv.h): a weight W [n, k] (torch's layout), group-quantized to 8 or
// 4 bits (group 32, f16 scales: llama.cpp's Q8_0 / Q4_0 sizes), times m
// rows of X, on one thread; both also with X quantized to int8
// (`int8:1`, QuantActivations::Int8). Each iteration multiplies the next of `layers`
// distinct weights, so W streams from memory as in a decode step
// (layers * W bytes well beyond the last-level cache). Reported: time per
// product, `bytes_per_second` (W's stored bytes), `flops` (2 m n k per
// second). Run by hand (bench/run.sh lists it); the timings are wall-clock
// and go to docs/perf.md with the CPU model and the date.
//
//   relax-quant-gemv-bench --benchmark_filter='m:1/' --benchmark_repetitions=5
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CpuQuantGemv.h"

#include "benchmark/benchmark.h"

#include <cstdint>
#include <vector>

using relax::runtime::QuantizedWeight;

namespace {

constexpr int64_t kN = 5632, kK = 2048, kGroup = 32;
/// Distinct weights cycled through: 24 * 11.5 MB of q8 (or 92 MB of f32
/// per 8) is beyond any x86 last-level cache of a 2-core machine.
constexpr int kLayers = 24;

void quantized(benchmark::State &state) {
  int bits = int(state.range(0));
  int64_t m = state.range(1);
  auto activations = state.range(2) ? relax::runtime::QuantActivations::Int8
                                    : relax::runtime::QuantActivations::F32;
  int64_t groups = kK / kGroup;
  std::vector<std::vector<uint8_t>> q(kLayers);
  std::vector<std::vector<uint16_t>> scales(kLayers);
  for (int l = 0; l < kLayers; ++l) {
    q[l].assign(kN * kK * bits / 8, uint8_t(0x35 + l));
    scales[l].assign(kN * groups, 0x2c00); // 1/16 in binary16
  }
  std::vector<float> x(m * kK, 0.5f), y(m * kN);
  int layer = 0;
  for (auto _ : state) {
    QuantizedWeight w;
    w.bits = bits;
    w.n = kN;
    w.k = kK;
    w.group = kGroup;
    w.q = q[layer].data();
    w.scales = scales[layer].data();
    w.scalesF16 = true;
    if (!relax::runtime::quantLinear(m, x.data(), kK, w, y.data(), kN, 1,
                                     activations)) {
      state.SkipWithError("quantLinear refused the layout");
      break;
    }
    benchmark::DoNotOptimize(y.data());
    layer = (layer + 1) % kLayers;
  }
  double bytes = double(kN) * kK * bits / 8 + double(kN) * groups * 2;
  state.SetBytesProcessed(int64_t(bytes * state.iterations()));
  state.counters["flops"] = benchmark::Counter(
      2.0 * m * kN * kK * state.iterations(), benchmark::Counter::kIsRate);
}

void f32(benchmark::State &state) {
  int64_t m = state.range(1);
  constexpr int kF32Layers = 8;
  std::vector<std::vector<float>> w(kF32Layers,
                                    std::vector<float>(kN * kK, 0.25f));
  std::vector<float> x(m * kK, 0.5f), y(m * kN);
  int layer = 0;
  for (auto _ : state) {
    if (!relax::runtime::gemvSmallRows(m, kN, kK, x.data(), kK,
                                       w[layer].data(), 1, kK, y.data(), kN,
                                       1)) {
      state.SkipWithError("gemvSmallRows refused the shape");
      break;
    }
    benchmark::DoNotOptimize(y.data());
    layer = (layer + 1) % kF32Layers;
  }
  state.SetBytesProcessed(
      int64_t(double(kN) * kK * 4 * state.iterations()));
  state.counters["flops"] = benchmark::Counter(
      2.0 * m * kN * kK * state.iterations(), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK(quantized)
    ->ArgNames({"bits", "m", "int8"})
    ->ArgsProduct({{8, 4}, {1, 4, 32}, {0}})
    ->ArgsProduct({{8, 4}, {1, 4}, {1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(f32)
    ->ArgNames({"bits", "m"})
    ->ArgsProduct({{32}, {1, 4, 32}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
