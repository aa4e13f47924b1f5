//===- GemmEpilogueTests.cpp - Products with a full epilogue -------------===//
//
// multiplyPacked (lib/Runtime/DnnlGemm.cpp) with every epilogue the runtime
// can hand oneDNN, against a double-precision reference: bias, activation
// and residual together included. The compiler's dispatch forms products
// with "bias then GELU/ReLU" or "[bias then] residual" only, so the C
// entries never reach a product whose residual is the second post-op (after
// the activation's eltwise one); the runtime's C++ API does, and the
// argument keyed to the wrong post-op index reads garbage or nothing.
// Each epilogue runs on B as stored, then past the packing threshold on the
// packed copy: oneDNN's matmul with post-ops at AVX-512, its 1x1
// convolution below (test/lit/Extern/gemm-epilogue-unit.test runs this
// binary under RELAX_MAX_CPU_ISA=avx2 and checks that the convolution ran).
//
//===----------------------------------------------------------------------===//

#ifdef RELAX_RUNTIME_HAS_DNNL

#include "../../lib/Runtime/BlasSupport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <vector>

namespace {

using relax::runtime::blas::GemmActivation;
using relax::runtime::blas::GemmEpilogue;
using relax::runtime::blas::Matrix;
using relax::runtime::blas::multiplyPacked;

struct Case {
  bool bias;
  GemmActivation activation;
  bool residual;
};

double activate(double v, GemmActivation activation) {
  if (activation == GemmActivation::Gelu)
    return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
  if (activation == GemmActivation::Relu)
    return v > 0 ? v : 0;
  return v;
}

std::vector<float> randomValues(std::mt19937 &rng, size_t n) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

TEST(GemmEpilogueTest, BiasActivationResidualOnPlainAndPackedB) {
  // K and N not multiples of a vector; N past two 16-column grains so that
  // two threads may split columns as well as rows.
  constexpr int64_t k = 40, n = 272;
  std::mt19937 rng(7);
  const Case cases[] = {
      {true, GemmActivation::Gelu, true},   {false, GemmActivation::Relu, true},
      {true, GemmActivation::Relu, true},   {false, GemmActivation::Gelu, true},
      {true, GemmActivation::Gelu, false},  {true, GemmActivation::None, true},
      {false, GemmActivation::None, true},
  };
  for (const Case &cs : cases) {
    for (int threads : {1, 2}) {
      relax_rt_blas_release_constants();
      std::vector<float> b = randomValues(rng, k * n),
                         bias = randomValues(rng, n);
      Matrix<float> bm{b.data(), k, n, n, 1};
      GemmEpilogue<float> epilogue;
      epilogue.bias = cs.bias ? bias.data() : nullptr;
      epilogue.activation = cs.activation;
      epilogue.residual = cs.residual;
      // 1100 rows carry B past the packing threshold (1024 rows): the last
      // call runs on the packed copy.
      for (int64_t m : {7, 64, 1100, 33}) {
        std::vector<float> a = randomValues(rng, m * k),
                           r = randomValues(rng, m * n), c(m * n, NAN);
        Matrix<float> am{a.data(), m, k, k, 1}, cm{c.data(), m, n, n, 1},
            rm{r.data(), m, n, n, 1};
        ASSERT_TRUE(multiplyPacked(am, bm, cm, threads, epilogue, rm))
            << "oneDNN refused the product";
        ASSERT_EQ(relax_rt_has_error(), 0) << relax_rt_last_error();
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double v = cs.bias ? bias[j] : 0.0;
            for (int64_t l = 0; l < k; ++l)
              v += double(a[i * k + l]) * double(b[l * n + j]);
            v = activate(v, cs.activation);
            if (cs.residual)
              v += r[i * n + j];
            ASSERT_NEAR(c[i * n + j], v, 1e-4 * (1.0 + std::fabs(v)))
                << "rows " << m << ", threads " << threads << ", bias "
                << cs.bias << ", activation " << int(cs.activation)
                << ", residual " << cs.residual << ", at (" << i << ", " << j
                << ")";
          }
      }
    }
  }
  relax_rt_blas_release_constants();
}

} // namespace

#endif // RELAX_RUNTIME_HAS_DNNL
