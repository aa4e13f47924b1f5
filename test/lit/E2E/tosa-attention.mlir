// A transformer attention block in TOSA with a dynamic sequence length:
// q/k/v projections, two heads split by reshape + transpose, scaled scores,
// softmax as TOSA frontends decompose it (reduce_max, sub, exp, reduce_sum,
// reciprocal, mul), output projection, residual and a layer norm built from
// reduce_sum and rsqrt. Converted to relax and run by relax-run, against
// upstream's TOSA -> linalg -> LLVM path on the same inputs
// (test/lit/E2E/tosa_ref.py) for seq 1, 7 and 33: rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/tosa_ref.py reference %s %t/s1 --func attention --shape 1x1x16 --seed 1 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry attention $(cat %t/s1/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/tosa_ref.py reference %s %t/s7 --func attention --shape 1x7x16 --seed 2 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry attention $(cat %t/s7/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --entry attention $(cat %t/s7/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/tosa_ref.py reference %s %t/s33 --func attention --shape 1x33x16 --seed 3 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry attention $(cat %t/s33/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --entry attention $(cat %t/s33/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 1 outputs match


func.func @attention(%x: tensor<1x?x16xf32>) -> tensor<1x?x16xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wq = "tosa.const"() {values = dense<[[[-0.39, 0.13, 0.30, -0.19, 0.36, 0.30, -0.37, 0.27, 0.38, -0.30, 0.07, 0.14, 0.11, -0.40, 0.16, 0.13], [0.32, 0.30, -0.17, 0.22, 0.37, 0.39, -0.34, -0.47, 0.15, -0.29, 0.06, 0.44, -0.12, -0.25, -0.04, 0.16], [-0.40, -0.12, -0.37, 0.16, 0.33, -0.12, -0.13, 0.04, -0.28, -0.25, -0.17, -0.04, -0.42, 0.25, 0.08, -0.20], [-0.42, 0.26, -0.37, -0.37, -0.37, -0.42, 0.41, -0.23, -0.19, 0.33, 0.12, -0.31, -0.07, 0.38, -0.12, 0.21], [-0.40, 0.23, 0.28, 0.33, 0.17, -0.13, -0.44, 0.02, 0.26, -0.31, -0.23, 0.04, 0.25, 0.40, -0.37, -0.32], [0.30, 0.14, 0.22, 0.50, 0.44, 0.34, 0.28, -0.10, 0.14, -0.32, 0.26, 0.26, 0.22, -0.06, -0.12, -0.08], [-0.47, 0.34, 0.04, -0.11, 0.05, 0.22, -0.12, 0.33, 0.42, -0.11, -0.36, 0.26, 0.49, -0.35, 0.21, 0.33], [0.42, -0.38, -0.41, 0.49, -0.38, -0.32, 0.07, -0.05, 0.25, -0.31, 0.41, -0.28, 0.27, -0.43, -0.03, -0.47], [-0.19, -0.19, 0.22, -0.04, -0.44, 0.50, 0.39, 0.42, -0.25, -0.11, -0.27, -0.38, -0.47, 0.00, -0.38, -0.32], [0.36, -0.02, -0.32, 0.17, -0.23, 0.03, -0.22, 0.02, 0.13, 0.04, -0.10, 0.29, 0.37, -0.32, -0.36, -0.39], [0.48, 0.44, -0.27, 0.47, -0.29, 0.01, -0.00, 0.41, -0.46, -0.18, 0.10, -0.43, -0.26, -0.03, 0.38, 0.26], [0.33, 0.26, 0.21, 0.35, 0.18, 0.24, -0.20, -0.33, 0.26, -0.33, 0.42, 0.10, -0.17, 0.44, -0.34, 0.01], [-0.41, 0.47, 0.08, 0.30, -0.22, 0.30, 0.20, 0.14, 0.45, -0.07, -0.08, 0.19, 0.34, -0.16, 0.17, -0.29], [0.05, 0.27, -0.43, 0.23, -0.48, 0.46, -0.03, -0.09, 0.22, 0.02, 0.23, -0.42, 0.06, 0.06, 0.43, -0.46], [-0.05, 0.13, 0.05, -0.43, 0.09, -0.28, -0.30, 0.38, -0.30, -0.05, 0.25, 0.21, 0.05, 0.31, -0.03, 0.12], [0.32, 0.18, 0.14, -0.09, 0.06, -0.10, 0.24, -0.12, -0.03, 0.26, 0.00, -0.16, 0.33, -0.12, 0.34, 0.29]]]> : tensor<1x16x16xf32>} : () -> tensor<1x16x16xf32>
  %bq = "tosa.const"() {values = dense<[[[-0.05, 0.21, -0.47, -0.11, 0.36, 0.08, 0.06, 0.16, 0.18, 0.08, -0.08, -0.32, -0.21, -0.21, -0.07, 0.50]]]> : tensor<1x1x16xf32>} : () -> tensor<1x1x16xf32>
  %wk = "tosa.const"() {values = dense<[[[-0.15, -0.05, -0.13, 0.08, 0.45, 0.39, -0.12, -0.23, 0.38, -0.01, 0.19, -0.43, 0.37, -0.19, -0.01, -0.30], [-0.08, 0.33, 0.33, -0.03, 0.27, -0.04, -0.13, 0.05, -0.30, -0.18, 0.21, 0.27, -0.44, 0.23, 0.32, -0.05], [-0.44, 0.18, -0.25, 0.14, -0.12, 0.14, -0.24, -0.02, 0.02, 0.13, -0.30, 0.46, -0.21, -0.19, -0.24, -0.43], [-0.08, 0.27, 0.21, -0.30, -0.36, -0.18, 0.27, -0.01, 0.42, 0.16, 0.12, 0.27, 0.25, -0.16, -0.24, -0.06], [-0.01, -0.36, -0.06, 0.14, -0.36, -0.36, -0.33, -0.22, 0.46, -0.47, -0.32, -0.33, -0.03, -0.48, -0.04, -0.34], [-0.23, 0.29, -0.32, 0.12, -0.09, -0.08, 0.32, -0.34, 0.42, 0.39, 0.17, -0.45, 0.16, 0.10, 0.27, -0.29], [0.45, 0.39, -0.39, -0.18, -0.47, 0.33, 0.42, 0.49, 0.11, 0.17, 0.18, 0.07, 0.45, 0.11, -0.16, 0.01], [-0.48, 0.22, 0.19, -0.08, 0.35, 0.26, -0.16, -0.42, -0.37, -0.32, -0.20, -0.05, 0.43, -0.22, 0.40, 0.18], [0.35, -0.10, -0.50, 0.29, -0.25, -0.36, 0.30, 0.19, -0.29, -0.23, 0.44, -0.23, 0.20, -0.37, 0.32, -0.38], [0.02, -0.46, 0.05, 0.35, -0.42, -0.23, 0.26, 0.11, -0.19, 0.13, -0.05, 0.36, -0.21, 0.26, 0.14, 0.24], [-0.12, 0.22, 0.20, -0.11, -0.47, 0.46, 0.21, -0.30, 0.23, -0.22, -0.03, 0.36, -0.05, -0.21, -0.19, -0.42], [-0.28, -0.23, -0.33, -0.44, -0.03, -0.29, 0.24, 0.42, -0.23, 0.07, 0.01, -0.42, -0.38, 0.38, -0.03, 0.30], [-0.43, 0.09, 0.37, 0.37, -0.49, 0.02, -0.13, 0.26, -0.43, -0.24, 0.31, -0.03, -0.05, 0.47, -0.18, -0.46], [-0.11, -0.35, -0.42, 0.07, 0.45, 0.08, 0.15, -0.18, 0.07, 0.25, 0.09, 0.30, 0.05, -0.30, 0.08, -0.01], [-0.33, 0.12, 0.32, -0.36, 0.04, 0.23, -0.10, -0.23, -0.13, 0.04, 0.19, 0.06, -0.39, 0.32, 0.42, -0.40], [-0.25, -0.33, 0.35, 0.41, -0.46, -0.17, -0.31, -0.03, 0.42, -0.43, -0.33, -0.01, 0.02, 0.25, -0.06, -0.36]]]> : tensor<1x16x16xf32>} : () -> tensor<1x16x16xf32>
  %bk = "tosa.const"() {values = dense<[[[-0.15, 0.48, 0.25, -0.38, 0.31, -0.19, 0.28, -0.49, 0.37, -0.34, -0.04, 0.16, 0.01, -0.33, -0.36, -0.22]]]> : tensor<1x1x16xf32>} : () -> tensor<1x1x16xf32>
  %wv = "tosa.const"() {values = dense<[[[-0.45, -0.28, -0.37, -0.04, -0.14, 0.09, -0.22, -0.47, -0.17, 0.26, -0.24, -0.10, 0.25, -0.09, 0.39, 0.42], [-0.19, 0.24, -0.25, -0.36, -0.06, 0.10, 0.44, -0.35, 0.21, -0.02, -0.37, 0.47, 0.20, -0.37, 0.41, -0.40], [-0.41, -0.17, 0.44, -0.47, 0.42, 0.11, -0.43, 0.07, -0.04, 0.06, 0.24, 0.18, 0.50, -0.34, 0.31, -0.09], [0.28, 0.39, 0.49, -0.23, -0.05, 0.44, 0.45, -0.13, 0.44, -0.09, -0.13, 0.26, -0.03, -0.05, -0.11, -0.07], [-0.36, -0.44, 0.25, 0.06, 0.17, 0.30, -0.27, -0.27, -0.22, -0.20, 0.26, -0.13, -0.18, 0.14, -0.31, -0.39], [0.20, 0.26, -0.20, 0.14, -0.47, -0.10, 0.08, -0.25, -0.15, 0.11, 0.09, -0.35, 0.21, -0.42, 0.47, -0.30], [-0.25, -0.30, 0.49, -0.21, 0.11, 0.49, 0.45, -0.46, 0.02, 0.10, 0.20, -0.16, -0.17, -0.50, -0.46, 0.05], [-0.42, -0.30, -0.17, -0.43, -0.47, 0.43, -0.06, -0.30, 0.21, -0.49, -0.25, 0.46, 0.40, 0.14, -0.41, -0.18], [-0.47, -0.28, -0.47, -0.37, 0.13, -0.40, -0.34, 0.40, -0.16, -0.17, -0.41, 0.30, 0.18, 0.05, 0.12, -0.40], [-0.24, 0.08, 0.45, 0.32, 0.14, 0.02, -0.48, 0.39, -0.43, -0.37, 0.19, 0.31, 0.29, -0.05, -0.32, -0.46], [0.35, 0.48, -0.26, 0.37, -0.10, -0.19, 0.01, -0.49, -0.06, -0.30, 0.21, 0.00, 0.37, 0.40, -0.18, -0.22], [0.44, 0.00, -0.40, -0.45, 0.49, 0.08, -0.45, 0.01, 0.00, -0.06, 0.45, 0.45, -0.38, -0.35, -0.09, 0.33], [0.12, 0.23, 0.08, -0.29, 0.32, -0.49, 0.20, -0.31, -0.03, 0.48, 0.04, -0.44, -0.07, 0.16, -0.44, -0.25], [-0.48, 0.04, -0.12, 0.00, -0.20, 0.16, -0.33, 0.41, 0.46, -0.01, -0.03, 0.36, -0.21, 0.30, -0.21, 0.22], [-0.17, 0.10, 0.43, -0.45, 0.31, 0.04, -0.12, -0.15, -0.43, -0.24, 0.12, -0.40, 0.17, 0.46, 0.48, 0.39], [0.31, -0.32, 0.47, -0.30, 0.37, 0.38, 0.12, 0.02, -0.30, 0.02, -0.21, -0.37, -0.37, 0.30, 0.42, -0.36]]]> : tensor<1x16x16xf32>} : () -> tensor<1x16x16xf32>
  %bv = "tosa.const"() {values = dense<[[[-0.49, -0.24, -0.37, -0.31, 0.08, -0.08, -0.07, -0.29, 0.16, -0.21, -0.10, -0.04, 0.40, -0.25, 0.22, -0.19]]]> : tensor<1x1x16xf32>} : () -> tensor<1x1x16xf32>
  %wo = "tosa.const"() {values = dense<[[[0.39, -0.11, 0.01, 0.38, 0.17, -0.41, -0.36, 0.49, -0.47, -0.20, 0.46, -0.48, -0.34, -0.29, -0.41, -0.03], [0.09, -0.18, -0.39, 0.31, 0.30, 0.06, -0.36, 0.04, 0.13, -0.07, 0.36, -0.11, 0.01, -0.39, 0.06, 0.27], [0.23, -0.24, 0.49, 0.22, -0.08, -0.09, 0.28, -0.32, 0.14, 0.22, 0.02, 0.37, -0.03, -0.04, -0.22, 0.42], [-0.18, 0.20, -0.09, 0.44, 0.45, -0.47, 0.49, 0.10, -0.43, -0.00, -0.45, 0.05, -0.31, -0.13, -0.20, 0.10], [0.32, 0.44, -0.17, 0.07, -0.49, -0.13, 0.46, -0.38, 0.37, 0.15, -0.21, 0.28, -0.21, 0.39, -0.42, -0.38], [0.25, -0.05, -0.35, 0.01, -0.20, 0.05, 0.24, 0.36, -0.44, 0.09, 0.48, -0.04, 0.27, -0.40, 0.37, 0.08], [0.39, 0.29, 0.37, -0.44, 0.22, -0.30, -0.23, -0.18, 0.09, 0.13, 0.43, -0.49, -0.31, -0.14, 0.32, 0.05], [0.01, 0.26, 0.16, -0.21, -0.41, -0.04, 0.38, 0.10, -0.45, -0.06, -0.12, 0.08, 0.09, 0.45, -0.16, -0.09], [0.11, 0.39, 0.21, -0.03, 0.31, -0.01, 0.46, -0.22, -0.37, 0.33, -0.20, 0.35, 0.11, 0.01, -0.41, 0.29], [-0.43, 0.47, 0.38, -0.20, -0.37, 0.39, -0.02, -0.38, -0.00, -0.25, -0.09, 0.14, 0.42, 0.30, -0.34, -0.02], [-0.01, 0.49, -0.41, 0.01, 0.41, -0.10, -0.24, 0.06, -0.18, 0.43, -0.42, -0.29, -0.42, 0.21, -0.21, 0.40], [0.39, 0.44, -0.24, -0.50, -0.11, 0.46, 0.26, -0.44, 0.20, 0.42, 0.47, 0.22, 0.36, 0.34, -0.14, -0.40], [0.23, -0.36, -0.12, 0.50, 0.06, 0.02, 0.45, -0.22, 0.50, 0.41, -0.14, -0.17, -0.37, 0.42, -0.31, -0.49], [0.39, 0.10, 0.17, 0.23, -0.46, -0.41, -0.00, -0.45, 0.00, 0.24, 0.16, 0.12, -0.45, -0.26, 0.40, -0.38], [0.03, -0.45, 0.44, -0.33, -0.09, 0.05, 0.22, 0.44, 0.24, -0.15, -0.42, 0.21, 0.47, -0.48, 0.27, -0.32], [-0.04, 0.02, 0.11, 0.49, 0.19, -0.11, 0.22, -0.03, -0.09, -0.13, -0.01, -0.22, -0.26, -0.35, -0.06, -0.21]]]> : tensor<1x16x16xf32>} : () -> tensor<1x16x16xf32>
  %bo = "tosa.const"() {values = dense<[[[0.34, 0.35, -0.16, 0.12, 0.40, -0.14, 0.05, -0.06, 0.15, 0.46, -0.36, 0.47, 0.17, 0.30, 0.14, 0.37]]]> : tensor<1x1x16xf32>} : () -> tensor<1x1x16xf32>
  %gamma = "tosa.const"() {values = dense<[[[-0.17, 0.21, -0.24, 0.01, 0.18, -0.30, -0.44, 0.29, 0.31, 0.17, -0.18, 0.16, -0.42, 0.16, 0.08, 0.12]]]> : tensor<1x1x16xf32>} : () -> tensor<1x1x16xf32>
  %beta = "tosa.const"() {values = dense<[[[-0.05, -0.27, 0.23, -0.04, 0.25, -0.14, -0.41, 0.04, 0.12, 0.42, 0.39, -0.44, 0.27, -0.24, 0.20, -0.12]]]> : tensor<1x1x16xf32>} : () -> tensor<1x1x16xf32>
  // Projections.
  %q0 = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x?x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x16xf32>
  %q = tosa.add %q0, %bq : (tensor<1x?x16xf32>, tensor<1x1x16xf32>) -> tensor<1x?x16xf32>
  %k0 = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x?x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x16xf32>
  %k = tosa.add %k0, %bk : (tensor<1x?x16xf32>, tensor<1x1x16xf32>) -> tensor<1x?x16xf32>
  %v0 = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x?x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x16xf32>
  %v = tosa.add %v0, %bv : (tensor<1x?x16xf32>, tensor<1x1x16xf32>) -> tensor<1x?x16xf32>
  // Two heads of 8: [1, s, 16] -> [1, s, 2, 8] -> [1, 2, s, 8] -> [2, s, 8].
  %s4 = tosa.const_shape {values = dense<[1, -1, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[2, -1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q4 = tosa.reshape %q, %s4 : (tensor<1x?x16xf32>, !tosa.shape<4>) -> tensor<1x?x2x8xf32>
  %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x?x2x8xf32>) -> tensor<1x2x?x8xf32>
  %qh = tosa.reshape %qt, %s3 : (tensor<1x2x?x8xf32>, !tosa.shape<3>) -> tensor<2x?x8xf32>
  %k4 = tosa.reshape %k, %s4 : (tensor<1x?x16xf32>, !tosa.shape<4>) -> tensor<1x?x2x8xf32>
  %kt = tosa.transpose %k4 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x?x2x8xf32>) -> tensor<1x2x8x?xf32>
  %sk = tosa.const_shape {values = dense<[2, 8, -1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kh = tosa.reshape %kt, %sk : (tensor<1x2x8x?xf32>, !tosa.shape<3>) -> tensor<2x8x?xf32>
  %v4 = tosa.reshape %v, %s4 : (tensor<1x?x16xf32>, !tosa.shape<4>) -> tensor<1x?x2x8xf32>
  %vt = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x?x2x8xf32>) -> tensor<1x2x?x8xf32>
  %vh = tosa.reshape %vt, %s3 : (tensor<1x2x?x8xf32>, !tosa.shape<3>) -> tensor<2x?x8xf32>
  // Scaled scores and softmax over the last axis.
  %sc = tosa.matmul %qh, %kh, %zp, %zp : (tensor<2x?x8xf32>, tensor<2x8x?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x?x?xf32>
  %scale = "tosa.const"() {values = dense<0.353553385> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %scs = tosa.mul %sc, %scale, %shift : (tensor<2x?x?xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x?x?xf32>
  %mx = tosa.reduce_max %scs {axis = 2 : i32} : (tensor<2x?x?xf32>) -> tensor<2x?x1xf32>
  %sub = tosa.sub %scs, %mx : (tensor<2x?x?xf32>, tensor<2x?x1xf32>) -> tensor<2x?x?xf32>
  %e = tosa.exp %sub : (tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x?x?xf32>) -> tensor<2x?x1xf32>
  %rc = tosa.reciprocal %sum : (tensor<2x?x1xf32>) -> tensor<2x?x1xf32>
  %p = tosa.mul %e, %rc, %shift : (tensor<2x?x?xf32>, tensor<2x?x1xf32>, tensor<1xi8>) -> tensor<2x?x?xf32>
  // Weighted values, heads merged back: [2, s, 8] -> [1, 2, s, 8] -> [1, s, 2, 8] -> [1, s, 16].
  %o = tosa.matmul %p, %vh, %zp, %zp : (tensor<2x?x?xf32>, tensor<2x?x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x?x8xf32>
  %so = tosa.const_shape {values = dense<[1, 2, -1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %o, %so : (tensor<2x?x8xf32>, !tosa.shape<4>) -> tensor<1x2x?x8xf32>
  %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x2x?x8xf32>) -> tensor<1x?x2x8xf32>
  %sm = tosa.const_shape {values = dense<[1, -1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %om = tosa.reshape %ot, %sm : (tensor<1x?x2x8xf32>, !tosa.shape<3>) -> tensor<1x?x16xf32>
  %pr0 = tosa.matmul %om, %wo, %zp, %zp : (tensor<1x?x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x16xf32>
  %pr = tosa.add %pr0, %bo : (tensor<1x?x16xf32>, tensor<1x1x16xf32>) -> tensor<1x?x16xf32>
  %res = tosa.add %x, %pr : (tensor<1x?x16xf32>, tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
  // Layer norm over the last axis.
  %inv = "tosa.const"() {values = dense<0.0625> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() {values = dense<1.0e-05> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %s1 = tosa.reduce_sum %res {axis = 2 : i32} : (tensor<1x?x16xf32>) -> tensor<1x?x1xf32>
  %mean = tosa.mul %s1, %inv, %shift : (tensor<1x?x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x?x1xf32>
  %c = tosa.sub %res, %mean : (tensor<1x?x16xf32>, tensor<1x?x1xf32>) -> tensor<1x?x16xf32>
  %sq = tosa.mul %c, %c, %shift : (tensor<1x?x16xf32>, tensor<1x?x16xf32>, tensor<1xi8>) -> tensor<1x?x16xf32>
  %vs = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x?x16xf32>) -> tensor<1x?x1xf32>
  %var = tosa.mul %vs, %inv, %shift : (tensor<1x?x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x?x1xf32>
  %ve = tosa.add %var, %eps : (tensor<1x?x1xf32>, tensor<1x1x1xf32>) -> tensor<1x?x1xf32>
  %rs = tosa.rsqrt %ve : (tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
  %n = tosa.mul %c, %rs, %shift : (tensor<1x?x16xf32>, tensor<1x?x1xf32>, tensor<1xi8>) -> tensor<1x?x16xf32>
  %g = tosa.mul %n, %gamma, %shift : (tensor<1x?x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<1x?x16xf32>
  %y = tosa.add %g, %beta : (tensor<1x?x16xf32>, tensor<1x1x16xf32>) -> tensor<1x?x16xf32>
  return %y : tensor<1x?x16xf32>
}
