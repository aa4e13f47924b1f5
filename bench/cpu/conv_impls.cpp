// Every implementation oneDNN offers for each convolution of stdin, timed
// alone on one thread: the primitive descriptor's implementations in its
// order of preference (dnnl::primitive_desc::next_impl; "jit:avx2",
// "jit_1x1:avx2", "x64:gemm:jit" (im2col + sgemm), "jit:sse41", ... below
// AVX-512 when ONEDNN_MAX_CPU_ISA=AVX2 caps it), for source and destination
// in oneDNN's choice of layout (`any`, the blocked one), NHWC and NCHW,
// with a bias and the fused convolution's sum + ReLU post-ops. The
// reference implementations are skipped.
//
// Each line of stdin: batch, input channels, output channels, height,
// width, window (square), stride, padding. Prints the minimum and median
// of `iters` calls (argv[1], default 10) after two warm-ups and the rate
// at the minimum. bench/cpu/conv_layers.sh builds and runs it.
#include "bench_timing.hpp"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace dnnl;
using tag = memory::format_tag;

int main(int argc, char **argv) {
  int iters = argc > 1 ? std::atoi(argv[1]) : 10;
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  long mb, ic, oc, ih, iw, k, st, p;
  while (std::scanf("%ld %ld %ld %ld %ld %ld %ld %ld", &mb, &ic, &oc, &ih, &iw,
                    &k, &st, &p) == 8) {
    long oh = (ih + 2 * p - k) / st + 1, ow = (iw + 2 * p - k) / st + 1;
    double flops = 2.0 * mb * oc * oh * ow * ic * k * k;
    for (tag t : {tag::any, tag::nhwc, tag::nchw}) {
      auto f32 = memory::data_type::f32;
      convolution_forward::desc d(prop_kind::forward_inference,
                                  algorithm::convolution_direct,
                                  memory::desc({mb, ic, ih, iw}, f32, t),
                                  memory::desc({oc, ic, k, k}, f32, tag::any),
                                  memory::desc({oc}, f32, tag::a),
                                  memory::desc({mb, oc, oh, ow}, f32, t),
                                  {st, st}, {0, 0}, {p, p}, {p, p});
      post_ops ops;
      ops.append_sum(1.0f);
      ops.append_eltwise(1.0f, algorithm::eltwise_relu, 0.0f, 0.0f);
      primitive_attr attr;
      attr.set_post_ops(ops);
      convolution_forward::primitive_desc pd(d, attr, eng, false);
      do {
        std::string impl = pd.impl_info_str();
        if (impl.find("ref") != std::string::npos)
          continue;
        memory src(pd.src_desc(), eng), wei(pd.weights_desc(), eng),
            dst(pd.dst_desc(), eng), bia(pd.bias_desc(), eng);
        for (memory *m : {&src, &wei, &dst, &bia}) {
          float *f = static_cast<float *>(m->get_data_handle());
          for (size_t i = 0; i < m->get_desc().get_size() / 4; ++i)
            f[i] = 0.01f * float(i % 7);
        }
        convolution_forward conv(pd);
        std::vector<double> ms = timeCalls(iters, [&] {
          conv.execute(s, {{DNNL_ARG_SRC, src},
                           {DNNL_ARG_WEIGHTS, wei},
                           {DNNL_ARG_BIAS, bia},
                           {DNNL_ARG_DST, dst}});
          s.wait();
        });
        std::printf("mb%ld ic%ld oc%ld %ldx%ld k%ld s%ld | %-4s | %-14s | "
                    "min %.3f ms | median %.3f ms | %.1f GFLOP/s\n",
                    mb, ic, oc, ih, iw, k, st,
                    t == tag::any    ? "any"
                    : t == tag::nhwc ? "nhwc"
                                     : "nchw",
                    impl.c_str(), ms[0], ms[ms.size() / 2],
                    flops / ms[0] / 1e6);
        std::fflush(stdout);
      } while (pd.next_impl());
    }
  }
}
