// RUN: relax-opt %s --canonicalize | FileCheck %s

// astype to the input's own dtype folds away; a real conversion stays.
// CHECK-LABEL: relax.func @astype_same
// CHECK-NOT: relax.astype {{.*}}f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: %[[H:.*]] = relax.astype %{{.*}} {dtype = f16}
// CHECK: relax.return %[[H]]
relax.func @astype_same(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f16> {
  %0 = relax.astype %x {dtype = f32} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %1 = relax.astype %0 {dtype = f16} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f16>
  relax.return %1 : !relax.tensor<[n, 4], f16>
}

// x + zeros and ones * x with the same symbolic shape fold to x.
// CHECK-LABEL: relax.func @add_zeros_symbolic
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, m], f32>)
// CHECK-NOT: relax.add
// CHECK-NOT: relax.multiply
// CHECK: relax.return %[[X]]
relax.func @add_zeros_symbolic(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %z = relax.zeros {dtype = f32, shape = #relax.shape<[n, m]>} : !relax.tensor<[n, m], f32>
  %o = relax.ones_like %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %0 = relax.add %x, %z : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %1 = relax.multiply %o, %0 : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %1 : !relax.tensor<[n, m], f32>
}

// A splat constant that broadcasts without changing x's shape folds too.
// CHECK-LABEL: relax.func @add_splat_constant
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, 2], i32>)
// CHECK-NOT: relax.add
// CHECK-NOT: relax.multiply
// CHECK: relax.return %[[X]]
relax.func @add_splat_constant(%x: !relax.tensor<[n, 2], i32>) -> !relax.tensor<[n, 2], i32> {
  %c0 = relax.constant dense<0> : tensor<2xi32>
  %c1 = relax.constant dense<1> : tensor<1x1xi32>
  %0 = relax.add %c0, %x : (!relax.tensor<[2], i32>, !relax.tensor<[n, 2], i32>) -> !relax.tensor<[n, 2], i32>
  %1 = relax.multiply %0, %c1 : (!relax.tensor<[n, 2], i32>, !relax.tensor<[1, 1], i32>) -> !relax.tensor<[n, 2], i32>
  relax.return %1 : !relax.tensor<[n, 2], i32>
}

// Not folded: the zero operand broadcasts x to a larger shape, or is not
// zero everywhere, or the op is a multiply by zero.
// CHECK-LABEL: relax.func @no_fold
// CHECK: relax.add %{{.*}}, %{{.*}} : (!relax.tensor<[n], f32>, !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32>
// CHECK: relax.add %{{.*}}, %{{.*}} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
// CHECK: relax.multiply %{{.*}}, %{{.*}} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
relax.func @no_fold(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m, n], f32>)
    -> (!relax.tensor<[m, n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>) {
  %z = relax.zeros {dtype = f32, shape = #relax.shape<[m, n]>} : !relax.tensor<[m, n], f32>
  %0 = relax.add %x, %z : (!relax.tensor<[n], f32>, !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32>
  %t = relax.full_like %x {value = 2.0 : f64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %1 = relax.add %x, %t : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %zx = relax.zeros_like %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %2 = relax.multiply %x, %zx : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %0, %1, %2 : !relax.tensor<[m, n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
}

// floor/ceil/round are the identity on integers, not on floats.
// CHECK-LABEL: relax.func @rounding
// CHECK-NOT: relax.floor %{{.*}} : (!relax.tensor<[n], i32>)
// CHECK-NOT: relax.round
// CHECK: relax.ceil %{{.*}} : (!relax.tensor<[n], f32>)
relax.func @rounding(%i: !relax.tensor<[n], i32>, %f: !relax.tensor<[n], f32>)
    -> (!relax.tensor<[n], i32>, !relax.tensor<[n], f32>) {
  %0 = relax.floor %i : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  %1 = relax.round %0 : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  %2 = relax.ceil %f : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %1, %2 : !relax.tensor<[n], i32>, !relax.tensor<[n], f32>
}
