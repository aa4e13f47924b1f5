// A/B of the runtime's quantized products (CpuQuantGemv.h, issue 31): two
// versions of lib/Runtime's quantized kernels, a git revision's ("base")
// and the working tree's ("tree"), each compiled from quant_ab_side.cpp
// into a namespace of its own by quant_ab.sh, called alternately, call by
// call, on weights cycled beyond the last-level cache by the loop of
// quant_ab_driver.h, which prints each side's GB/s, their fraction of the
// read-only ceiling measured beside them, tree/base, and the largest
// difference between the two sides' outputs.
#include "quant_ab_driver.h"

#include <cstdint>
#include <vector>

using EntryFn = bool(int isa, int64_t m, const float *x, int64_t ldx, int bits,
                     int64_t n, int64_t k, int64_t group, const void *q,
                     const void *scales, bool scalesF16, const uint8_t *zeros,
                     float *y, int64_t ldy, int threads, bool int8Activations);
extern "C" EntryFn ab_base_linear, ab_tree_linear;

namespace {
/// Both versions on the plain layout of the same weights.
struct Versions {
  const char *names[2] = {"base", "tree"};
  const char *ratio = "tree/base";
  int isa = 2;
  const std::vector<ab::QuantWeight> *weights = nullptr;

  const char *whyNot(int64_t, int64_t) { return nullptr; }
  void prepared(const ab::Format &, int64_t, int64_t,
                const std::vector<ab::QuantWeight> &all) {
    weights = &all;
  }
  bool call(int side, size_t weight, const ab::Format &format, int64_t n,
            int64_t k, int m, const float *x, float *y, int threads) {
    const ab::QuantWeight &w = (*weights)[weight];
    return (side ? ab_tree_linear : ab_base_linear)(
        isa, m, x, k, format.bits, n, k, 32, w.q.data, w.scales.data, true,
        nullptr, y, n, threads, format.a8);
  }
};
} // namespace

int main(int argc, char **argv) {
  Versions versions;
  if (argc > 1)
    versions.isa = std::atoi(argv[1]);
  return ab::quantAbMain(argc, argv, versions);
}
