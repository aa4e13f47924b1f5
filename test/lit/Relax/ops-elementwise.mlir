// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// Elementwise ops: every declared result type below is checked against the
// inferred one (a declared dim must equal the inferred expression), so the
// exact dims are the inference results; `?` results are shown to be `?` in
// invalid-elementwise.mlir.

// CHECK-LABEL: relax.func @unary_float
// CHECK: relax.exp %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.log %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.sqrt %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.rsqrt %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.tanh %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.sigmoid %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.gelu %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.gelu_tanh %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.silu %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.erf %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.sin %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.cos %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.tan %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.sinh %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.cosh %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.asin %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.acos %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.atan %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.asinh %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.acosh %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
// CHECK: relax.atanh %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
relax.func @unary_float(%x: !relax.tensor<[n, 4], f32>, %h: !relax.tensor<[n], f16>) {
  %0 = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %1 = relax.log %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %2 = relax.sqrt %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %3 = relax.rsqrt %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %4 = relax.tanh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %5 = relax.sigmoid %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %6 = relax.gelu %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %7 = relax.gelu_tanh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %8 = relax.silu %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %9 = relax.erf %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %10 = relax.sin %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %11 = relax.cos %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %12 = relax.tan %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %13 = relax.sinh %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %14 = relax.cosh %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %15 = relax.asin %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %16 = relax.acos %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %17 = relax.atan %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %18 = relax.asinh %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %19 = relax.acosh %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  %20 = relax.atanh %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  relax.return
}

// CHECK-LABEL: relax.func @unary_numeric
// CHECK: relax.relu %{{.*}} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
// CHECK: relax.negative %{{.*}} : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
// CHECK: relax.abs %{{.*}} : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
// CHECK: relax.floor %{{.*}} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
// CHECK: relax.ceil %{{.*}} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
// CHECK: relax.round %{{.*}} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
// CHECK: relax.relu %{{.*}} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
// CHECK: relax.exp %{{.*}} : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[?, m + 1], f32>
relax.func @unary_numeric(%w: !relax.tensor<[m], f32>, %x: !relax.tensor<[n, m + 1], f32>, %i: !relax.tensor<[n], i32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.relu %x : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
  %1 = relax.negative %i : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  %2 = relax.abs %i : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  %3 = relax.floor %x : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
  %4 = relax.ceil %x : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
  %5 = relax.round %x : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[n, m + 1], f32>
  %6 = relax.relu %u : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  %7 = relax.exp %x : (!relax.tensor<[n, m + 1], f32>) -> !relax.tensor<[?, m + 1], f32>
  relax.return
}

// CHECK-LABEL: relax.func @logical_not
// CHECK: relax.logical_not %{{.*}} : (!relax.tensor<[n, 2], i1>) -> !relax.tensor<[n, 2], i1>
relax.func @logical_not(%b: !relax.tensor<[n, 2], i1>) {
  %0 = relax.logical_not %b : (!relax.tensor<[n, 2], i1>) -> !relax.tensor<[n, 2], i1>
  relax.return
}

// CHECK-LABEL: relax.func @clip
// CHECK: relax.clip %{{.*}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.clip %{{.*}} {max = 1.000000e+01 : f64, min = -3.000000e+00 : f64} : (!relax.tensor<[n], i64>) -> !relax.tensor<[n], i64>
relax.func @clip(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[n], i64>) {
  %0 = relax.clip %x {max = 6.0 : f64, min = 0.0 : f64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %1 = relax.clip %i {max = 10.0 : f64, min = -3.0 : f64} : (!relax.tensor<[n], i64>) -> !relax.tensor<[n], i64>
  relax.return
}

// CHECK-LABEL: relax.func @astype
// CHECK: relax.astype %{{.*}} {dtype = f16} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f16>
// CHECK: relax.astype %{{.*}} {dtype = i1} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
// CHECK: relax.astype %{{.*}} {dtype = f32} : (!relax.tensor<*, i32>) -> !relax.tensor<*, f32>
relax.func @astype(%x: !relax.tensor<[n, 4], f32>, %u: !relax.tensor<*, i32>) {
  %0 = relax.astype %x {dtype = f16} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f16>
  %1 = relax.astype %x {dtype = i1} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
  %2 = relax.astype %u {dtype = f32} : (!relax.tensor<*, i32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @broadcast
// CHECK: relax.add %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: relax.add %{{.*}}, %{{.*}} : (!relax.tensor<[n], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[?], f32>
// CHECK: relax.subtract %{{.*}}, %{{.*}} : (!relax.tensor<[n + 1], f32>, !relax.tensor<[n + 1], f32>) -> !relax.tensor<[n + 1], f32>
// CHECK: relax.multiply %{{.*}}, %{{.*}} : (!relax.tensor<[k, n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[k, n, 4], f32>
// CHECK: relax.divide %{{.*}}, %{{.*}} : (!relax.tensor<[4], f32>, !relax.tensor<[k, n, 4], f32>) -> !relax.tensor<[k, n, 4], f32>
// CHECK: relax.power %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n, n], f32>
// CHECK: relax.maximum %{{.*}}, %{{.*}} : (!relax.tensor<[n], f32>, !relax.tensor<*, f32>) -> !relax.tensor<*, f32>
// CHECK: relax.minimum %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], f32>
relax.func @broadcast(%a: !relax.tensor<[n, 1], f32>, %b: !relax.tensor<[1, m], f32>, %c: !relax.tensor<[n], f32>, %d: !relax.tensor<[m], f32>, %e: !relax.tensor<[n + 1], f32>, %f: !relax.tensor<[1 + n], f32>, %g: !relax.tensor<[k, n, 4], f32>, %h: !relax.tensor<[4], f32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.add %a, %b : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], f32>
  %1 = relax.add %c, %d : (!relax.tensor<[n], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[?], f32>
  %2 = relax.subtract %e, %f : (!relax.tensor<[n + 1], f32>, !relax.tensor<[n + 1], f32>) -> !relax.tensor<[n + 1], f32>
  %3 = relax.multiply %g, %h : (!relax.tensor<[k, n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[k, n, 4], f32>
  %4 = relax.divide %h, %g : (!relax.tensor<[4], f32>, !relax.tensor<[k, n, 4], f32>) -> !relax.tensor<[k, n, 4], f32>
  %5 = relax.power %a, %c : (!relax.tensor<[n, 1], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n, n], f32>
  %6 = relax.maximum %c, %u : (!relax.tensor<[n], f32>, !relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  %7 = relax.minimum %a, %b : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// CHECK-LABEL: relax.func @integer_arith
// CHECK: relax.add %{{.*}}, %{{.*}} : (!relax.tensor<[n], i32>, !relax.tensor<[1], i32>) -> !relax.tensor<[n], i32>
// CHECK: relax.divide %{{.*}}, %{{.*}} : (!relax.tensor<[n], i32>, !relax.tensor<[1], i32>) -> !relax.tensor<[n], i32>
relax.func @integer_arith(%a: !relax.tensor<[n], i32>, %b: !relax.tensor<[1], i32>) {
  %0 = relax.add %a, %b : (!relax.tensor<[n], i32>, !relax.tensor<[1], i32>) -> !relax.tensor<[n], i32>
  %1 = relax.divide %a, %b : (!relax.tensor<[n], i32>, !relax.tensor<[1], i32>) -> !relax.tensor<[n], i32>
  relax.return
}

// CHECK-LABEL: relax.func @compare
// CHECK: relax.equal %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], i1>
// CHECK: relax.not_equal %{{.*}}, %{{.*}} : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
// CHECK: relax.less %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], i1>
// CHECK: relax.less_equal %{{.*}}, %{{.*}} : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
// CHECK: relax.greater %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], i1>
// CHECK: relax.greater_equal %{{.*}}, %{{.*}} : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
relax.func @compare(%a: !relax.tensor<[n, 1], f32>, %b: !relax.tensor<[1, m], f32>, %i: !relax.tensor<[n], i64>, %j: !relax.tensor<[n], i64>) {
  %0 = relax.equal %a, %b : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], i1>
  %1 = relax.not_equal %i, %j : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
  %2 = relax.less %a, %b : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], i1>
  %3 = relax.less_equal %i, %j : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
  %4 = relax.greater %a, %b : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], i1>
  %5 = relax.greater_equal %i, %j : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
  relax.return
}

// CHECK-LABEL: relax.func @logical
// CHECK: relax.logical_and %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i1>, !relax.tensor<[m], i1>) -> !relax.tensor<[n, m], i1>
// CHECK: relax.logical_or %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i1>, !relax.tensor<[m], i1>) -> !relax.tensor<[n, m], i1>
// CHECK: relax.equal %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i1>, !relax.tensor<[n, 1], i1>) -> !relax.tensor<[n, 1], i1>
relax.func @logical(%p: !relax.tensor<[n, 1], i1>, %q: !relax.tensor<[m], i1>) {
  %0 = relax.logical_and %p, %q : (!relax.tensor<[n, 1], i1>, !relax.tensor<[m], i1>) -> !relax.tensor<[n, m], i1>
  %1 = relax.logical_or %p, %q : (!relax.tensor<[n, 1], i1>, !relax.tensor<[m], i1>) -> !relax.tensor<[n, m], i1>
  %2 = relax.equal %p, %p : (!relax.tensor<[n, 1], i1>, !relax.tensor<[n, 1], i1>) -> !relax.tensor<[n, 1], i1>
  relax.return
}

// CHECK-LABEL: relax.func @where
// CHECK: relax.where %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i1>, !relax.tensor<[1, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: relax.where %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i1>, !relax.tensor<[1, m], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[n, ?], f32>
// CHECK: relax.where %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i1>, !relax.tensor<*, f32>, !relax.tensor<[m], f32>) -> !relax.tensor<*, f32>
relax.func @where(%c: !relax.tensor<[n, 1], i1>, %x: !relax.tensor<[1, m], f32>, %y: !relax.tensor<[m], f32>, %z: !relax.tensor<[k], f32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.where %c, %x, %y : (!relax.tensor<[n, 1], i1>, !relax.tensor<[1, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
  %1 = relax.where %c, %x, %z : (!relax.tensor<[n, 1], i1>, !relax.tensor<[1, m], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[n, ?], f32>
  %2 = relax.where %c, %u, %y : (!relax.tensor<[n, 1], i1>, !relax.tensor<*, f32>, !relax.tensor<[m], f32>) -> !relax.tensor<*, f32>
  relax.return
}

// Float tests give i1; remainders and shifts keep the operands' dtype and
// broadcast like the other binary ops.
// CHECK-LABEL: relax.func @tests_mod_shift
// CHECK: relax.isnan %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
// CHECK: relax.isinf %{{.*}} : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], i1>
// CHECK: relax.floor_mod %{{.*}}, %{{.*}} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.fmod %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i32>, !relax.tensor<[1, m], i32>) -> !relax.tensor<[n, m], i32>
// CHECK: relax.left_shift %{{.*}}, %{{.*}} : (!relax.tensor<[n, 1], i32>, !relax.tensor<[1, m], i32>) -> !relax.tensor<[n, m], i32>
// CHECK: relax.right_shift %{{.*}}, %{{.*}} : (!relax.tensor<[k], ui8>, !relax.tensor<[k], ui8>) -> !relax.tensor<[k], ui8>
relax.func @tests_mod_shift(%x: !relax.tensor<[n, 4], f32>, %h: !relax.tensor<[n], f16>, %r: !relax.tensor<[4], f32>, %a: !relax.tensor<[n, 1], i32>, %b: !relax.tensor<[1, m], i32>, %u: !relax.tensor<[k], ui8>) {
  %0 = relax.isnan %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
  %1 = relax.isinf %h : (!relax.tensor<[n], f16>) -> !relax.tensor<[n], i1>
  %2 = relax.floor_mod %x, %r : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %3 = relax.fmod %a, %b : (!relax.tensor<[n, 1], i32>, !relax.tensor<[1, m], i32>) -> !relax.tensor<[n, m], i32>
  %4 = relax.left_shift %a, %b : (!relax.tensor<[n, 1], i32>, !relax.tensor<[1, m], i32>) -> !relax.tensor<[n, m], i32>
  %5 = relax.right_shift %u, %u : (!relax.tensor<[k], ui8>, !relax.tensor<[k], ui8>) -> !relax.tensor<[k], ui8>
  relax.return
}
