// RUN: relax-opt %s -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --canonicalize | FileCheck %s
// RUN: relax-opt %s -split-input-file --relax-legalize-ops | FileCheck %s --check-prefix=LEGAL

// The op binds a and b for the types after it; it is kept although its
// result is unused (it can fail), also inside a dataflow region.
// CHECK-LABEL: relax.func @binds
// CHECK: relax.tensor_to_shape %{{.*}} : !relax.tensor<[2], i64> to !relax.shape<[a, b]>
// CHECK: relax.reshape
// LEGAL-LABEL: relax.func @binds
// LEGAL: relax.tensor_to_shape
// LEGAL: relax.assert_dims #relax.expr<a * b> "eq" #relax.expr<n>, "relax.reshape", "element count"
// LEGAL: relax.call_tir
relax.func @binds(%x: !relax.tensor<[n], f32>, %s: !relax.tensor<[2], i64>) -> !relax.tensor<[a, b], f32> {
  %r = relax.dataflow -> !relax.tensor<[a, b], f32> {
    %shape = relax.tensor_to_shape %s : !relax.tensor<[2], i64> to !relax.shape<[a, b]>
    %y = relax.reshape %x {shape = #relax.shape<[a, b]>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[a, b], f32>
    relax.output %y : !relax.tensor<[a, b], f32>
  }
  relax.return %r : !relax.tensor<[a, b], f32>
}

// -----

// Dims that are not bare unbound variables are checked, not bound.
// CHECK-LABEL: relax.func @checks
// CHECK: relax.tensor_to_shape %{{.*}} : !relax.tensor<[3], ui8> to !relax.shape<[n, 4, ?]>
relax.func @checks(%x: !relax.tensor<[n], f32>, %s: !relax.tensor<[3], ui8>) {
  %shape = relax.tensor_to_shape %s : !relax.tensor<[3], ui8> to !relax.shape<[n, 4, ?]>
  relax.return
}
