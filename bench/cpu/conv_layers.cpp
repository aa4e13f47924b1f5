// The runtime's fused convolution (relax_blas_conv2d_fused_packed_f32, as a
// compiled model calls it) on conv-private operands, the layout between
// two convolutions of a network (nChw8c at the AVX2 level): a 3x3, stride
// 1, padding 1 convolution with bias and ReLU for each line of stdin
// (batch, input channels, output channels, height, width). Prints the
// minimum and median of `iters` calls (argv[1], default 10) after two
// warm-ups, and the direct convolution's flops over the minimum (above the
// FMA peak where the Winograd path computes fewer). Which path runs is
// the runtime's choice (RELAX_CONV_WINOGRAD, RELAX_MAX_CPU_ISA,
// RELAX_NUM_THREADS); bench/cpu/conv_layers.sh alternates them.
#include "bench_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T, int N> struct MemRef {
  T *allocated, *aligned;
  int64_t offset, sizes[N], strides[N];
};
extern "C" void _mlir_ciface_relax_blas_conv2d_fused_packed_f32(
    MemRef<float, 4> *x, MemRef<float, 4> *w, MemRef<float, 1> *bias,
    MemRef<int64_t, 1> *options, MemRef<float, 4> *y);

// A dense row-major tensor of `sizes` in `storage`, seeded.
template <int N>
MemRef<float, N> tensor(std::vector<float> &storage,
                        const std::vector<int64_t> &sizes) {
  MemRef<float, N> m;
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  storage.resize(count);
  for (int64_t i = 0; i < count; ++i)
    storage[i] = 0.01f * float((i * 7) % 13) - 0.05f;
  m.allocated = m.aligned = storage.data();
  m.offset = 0;
  for (int d = N - 1, stride = 1; d >= 0; stride *= sizes[d], --d) {
    m.sizes[d] = sizes[d];
    m.strides[d] = stride;
  }
  return m;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? std::atoi(argv[1]) : 10;
  long n, c, o, h, w;
  while (std::scanf("%ld %ld %ld %ld %ld", &n, &c, &o, &h, &w) == 5) {
    std::vector<float> xs, ws, bs, ys;
    // Conv-private tensors are typed NHWC: [n, h, w, c].
    auto x = tensor<4>(xs, {n, h, w, c});
    auto wt = tensor<4>(ws, {o, c, 3, 3});
    auto b = tensor<1>(bs, {o});
    auto y = tensor<4>(ys, {n, h, w, o});
    // Strides, padding, dilation, groups; X, Y conv-private; no residual;
    // ReLU.
    int64_t options[13] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 0, 1};
    MemRef<int64_t, 1> opt{options, options, 0, {13}, {1}};
    std::vector<double> ms = timeCalls(iters, [&] {
      _mlir_ciface_relax_blas_conv2d_fused_packed_f32(&x, &wt, &b, &opt, &y);
    });
    std::printf("n%ld c%ld o%ld %ldx%ld | min %.3f ms | median %.3f ms | "
                "%.1f GFLOP/s direct-equivalent\n",
                n, c, o, h, w, ms[0], ms[ms.size() / 2],
                2.0 * n * c * o * h * w * 9 / ms[0] / 1e6);
    std::fflush(stdout);
  }
}
