// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// Creation ops. Declared result dims must equal the inferred expressions, so
// the types below are the inference results (printed canonically).

// CHECK-LABEL: relax.func @full
// CHECK: relax.full {dtype = f32, shape = #relax.shape<[n, m * 2]>, value = 1.500000e+00 : f64} : !relax.tensor<[n, m * 2], f32>
// CHECK: relax.full {dtype = i32, shape = #relax.shape<[n + 1, 3]>, value = -7.000000e+00 : f64} : !relax.tensor<[n + 1, 3], i32>
// CHECK: relax.full {dtype = i1, shape = #relax.shape<[]>, value = 1.000000e+00 : f64} : !relax.tensor<[], i1>
relax.func @full(%x: !relax.tensor<[n, m], f32>) {
  %0 = relax.full {dtype = f32, shape = #relax.shape<[n, 2 * m]>, value = 1.5 : f64} : !relax.tensor<[n, m * 2], f32>
  %1 = relax.full {dtype = i32, shape = #relax.shape<[n + 1, 3]>, value = -7.0 : f64} : !relax.tensor<[1 + n, 3], i32>
  %2 = relax.full {dtype = i1, shape = #relax.shape<[]>, value = 1.0 : f64} : !relax.tensor<[], i1>
  relax.return
}

// CHECK-LABEL: relax.func @zeros_ones
// CHECK: relax.zeros {dtype = f32, shape = #relax.shape<[n, 4]>} : !relax.tensor<[n, 4], f32>
// CHECK: relax.ones {dtype = i64, shape = #relax.shape<[m * n]>} : !relax.tensor<[m * n], i64>
// CHECK: relax.zeros {dtype = f16, shape = #relax.shape<[(n + 31) floordiv 32, 0]>} : !relax.tensor<[(n + 31) floordiv 32, 0], f16>
relax.func @zeros_ones(%x: !relax.tensor<[n, m], f32>) {
  %0 = relax.zeros {dtype = f32, shape = #relax.shape<[n, 4]>} : !relax.tensor<[n, 4], f32>
  %1 = relax.ones {dtype = i64, shape = #relax.shape<[n * m]>} : !relax.tensor<[n * m], i64>
  %2 = relax.zeros {dtype = f16, shape = #relax.shape<[(n + 31) floordiv 32, 0]>} : !relax.tensor<[(n + 31) floordiv 32, 0], f16>
  relax.return
}

// CHECK-LABEL: relax.func @like
// CHECK: relax.zeros_like %{{.*}} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
// CHECK: relax.ones_like %{{.*}} {dtype = i32} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], i32>
// CHECK: relax.full_like %{{.*}} {value = 2.500000e+00 : f64} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
// CHECK: relax.full_like %{{.*}} {dtype = i1, value = 0.000000e+00 : f64} : (!relax.tensor<[m], i32>) -> !relax.tensor<[m], i1>
// CHECK: relax.zeros_like %{{.*}} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
relax.func @like(%x: !relax.tensor<[n, m + 1], f32>, %m: !relax.tensor<[m], i32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.zeros_like %x : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
  %1 = relax.ones_like %x {dtype = i32} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], i32>
  %2 = relax.full_like %x {value = 2.5 : f64} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
  %3 = relax.full_like %m {dtype = i1, value = 0.0 : f64} : (!relax.tensor<[m], i32>) -> !relax.tensor<[m], i1>
  %4 = relax.zeros_like %u : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @arange
// CHECK: relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<1>} : !relax.tensor<[n], i64>
// CHECK: relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<2>} : !relax.tensor<[(n + 1) floordiv 2], i64>
// CHECK: relax.arange {dtype = f32, end = #relax.expr<n + 5>, start = #relax.expr<n + 1>, step = #relax.expr<1>} : !relax.tensor<[4], f32>
// CHECK: relax.arange {dtype = i32, end = #relax.expr<0>, start = #relax.expr<n>, step = #relax.expr<-1>} : !relax.tensor<[n], i32>
// CHECK: relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<m>, step = #relax.expr<3>} : !relax.tensor<[max((-m + n + 2) floordiv 3, 0)], i64>
// CHECK: relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<m + 1>} : !relax.tensor<[-(-n floordiv (m + 1))], i64>
// CHECK: relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<n + 3>, step = #relax.expr<1>} : !relax.tensor<[0], i64>
// arange length: ceildiv(end - start, step), clamped at 0 only when the
// sign of the span is unknown.
relax.func @arange(%x: !relax.tensor<[n, m], f32>) {
  %0 = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<1>} : !relax.tensor<[n], i64>
  %1 = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<2>} : !relax.tensor<[(n + 1) floordiv 2], i64>
  %2 = relax.arange {dtype = f32, end = #relax.expr<n + 5>, start = #relax.expr<n + 1>, step = #relax.expr<1>} : !relax.tensor<[4], f32>
  %3 = relax.arange {dtype = i32, end = #relax.expr<0>, start = #relax.expr<n>, step = #relax.expr<-1>} : !relax.tensor<[n], i32>
  %4 = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<m>, step = #relax.expr<3>} : !relax.tensor<[max((n - m + 2) floordiv 3, 0)], i64>
  %5 = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<m + 1>} : !relax.tensor<[-(-n floordiv (m + 1))], i64>
  %6 = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<n + 3>, step = #relax.expr<1>} : !relax.tensor<[0], i64>
  relax.return
}
