// RUN: relax-opt %s --split-input-file --relax-lift-tir-allocs | FileCheck %s

// Top-level scratch of global scope becomes an extra output, inserted after
// the buffers and before the tir_vars index parameter; each call gets a
// result of its shape in the caller's variables (the callee's m is the
// caller's 2 * n, its k the tir_vars value n + 1). `local` scratch and
// scratch inside a loop stay.
// CHECK-LABEL: tir.prim_func @f(
// CHECK-SAME: %[[X:.*]]: !tir.buffer<[m], f32>, %[[Y:.*]]: !tir.buffer<[m], f32>, %[[T:.*]]: !tir.buffer<[m * 4], f32>, %[[U:.*]]: !tir.buffer<[m, 2], i32>, %{{.*}}: index {tir.var = "k"})
// CHECK-NOT: tir.alloc : !tir.buffer<[m * 4], f32>
// CHECK: tir.alloc : !tir.buffer<[4], f32, local>
// CHECK: tir.for
// CHECK: tir.alloc : !tir.buffer<[m], f32>
// CHECK-LABEL: relax.func @caller
// CHECK: %[[R:.*]]:3 = relax.call_tir @f(%{{.*}}) tir_vars(#relax.shape<[n + 1]>) : (!relax.tensor<[n * 2], f32>) -> (!relax.tensor<[n * 2], f32>, !relax.tensor<[n * 8], f32>, !relax.tensor<[n * 2, 2], i32>)
// CHECK: relax.return %[[R]]#0
tir.prim_func @f(%x: !tir.buffer<[m], f32>, %y: !tir.buffer<[m], f32>, %kv: index {tir.var = "k"}) {
  %t = tir.alloc : !tir.buffer<[m * 4], f32>
  %u = tir.alloc : !tir.buffer<[m, 2], i32>
  %l = tir.alloc : !tir.buffer<[4], f32, local>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tir.for %i = %c0 to %c1 step %c1 kind = serial {
    %inner = tir.alloc : !tir.buffer<[m], f32>
  }
  tir.return
}
relax.func @caller(%b: !relax.tensor<[n], f32>, %a: !relax.tensor<[n * 2], f32>) -> !relax.tensor<[n * 2], f32> {
  %r = relax.call_tir @f(%a) tir_vars(#relax.shape<[n + 1]>) : (!relax.tensor<[n * 2], f32>) -> !relax.tensor<[n * 2], f32>
  relax.return %r : !relax.tensor<[n * 2], f32>
}

// -----

// A call that leaves a variable of the scratch unknown (the caller's dim
// is `?`) keeps the program as it is.
// CHECK-LABEL: tir.prim_func @g(
// CHECK-SAME: %{{.*}}: !tir.buffer<[m], f32>, %{{.*}}: !tir.buffer<[m], f32>)
// CHECK: tir.alloc : !tir.buffer<[m * 4], f32>
tir.prim_func @g(%x: !tir.buffer<[m], f32>, %y: !tir.buffer<[m], f32>) {
  %t = tir.alloc : !tir.buffer<[m * 4], f32>
  tir.return
}
relax.func @unknown(%a: !relax.tensor<[?], f32>) -> !relax.tensor<[?], f32> {
  %r = relax.call_tir @g(%a) : (!relax.tensor<[?], f32>) -> !relax.tensor<[?], f32>
  relax.return %r : !relax.tensor<[?], f32>
}

// -----

// A relax.call_tir_inplace (a rotary fused into a KV-cache append) gets the
// scratch as an extra fresh output (-1) after its own results; the buffer
// parameter goes after the fresh output's, before the tir_vars.
// CHECK-LABEL: tir.prim_func @append(
// CHECK-SAME: %{{.*}}: !tir.buffer<[1, m, d], f32>, %{{.*}}: !tir.buffer<[s, d], f32>, %{{.*}}: !tir.buffer<[s, d], f32>, %{{.*}}: !tir.buffer<[s, d], f32>, %{{.*}}: index {tir.var = "pos"})
// CHECK-NOT: tir.alloc
// CHECK-LABEL: relax.func @inplace_caller
// CHECK: %[[R:.*]]:3 = relax.call_tir_inplace @append(%arg0, %arg1) inplace_indices([0, -1, -1]) tir_vars(#relax.shape<[p]>) : (!relax.tensor<[1, n, 8], f32>, !relax.tensor<[t, 8], f32>) -> (!relax.tensor<[1, n, 8], f32>, !relax.tensor<[t, 8], f32>, !relax.tensor<[t, 8], f32>)
// CHECK: relax.return %[[R]]#0, %[[R]]#1
tir.prim_func @append(%cache: !tir.buffer<[1, m, d], f32>, %k: !tir.buffer<[s, d], f32>, %k2: !tir.buffer<[s, d], f32>, %pos: index {tir.var = "pos"}) {
  %rot = tir.alloc : !tir.buffer<[s, d], f32>
  tir.return
}
relax.func @inplace_caller(%cache: !relax.tensor<[1, n, 8], f32>, %k: !relax.tensor<[t, 8], f32>, %pt: !relax.tensor<[1], i64>) -> (!relax.tensor<[1, n, 8], f32>, !relax.tensor<[t, 8], f32>) {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[p]>
  %c, %k2 = relax.call_tir_inplace @append(%cache, %k) inplace_indices([0, -1]) tir_vars(#relax.shape<[p]>)
      : (!relax.tensor<[1, n, 8], f32>, !relax.tensor<[t, 8], f32>) -> (!relax.tensor<[1, n, 8], f32>, !relax.tensor<[t, 8], f32>)
  relax.return %c, %k2 : !relax.tensor<[1, n, 8], f32>, !relax.tensor<[t, 8], f32>
}
