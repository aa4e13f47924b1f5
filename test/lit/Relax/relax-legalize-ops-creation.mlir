// Structure of the legalized creation ops: no inputs, the output buffer
// binds what it can and other variables come as tir_vars; one spatial
// block storing a constant (full) or start + i * step (arange); injective.
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s

// CHECK-LABEL: relax.func @create
// CHECK: relax.call_tir @T_full() tir_vars(#relax.shape<[m]>) : () -> !relax.tensor<[n, m * 2], f32>
// CHECK: relax.call_tir @T_arange() tir_vars(#relax.shape<[n]>) : () -> !relax.tensor<[(n + 1) floordiv 2], i64>

// CHECK-LABEL: tir.prim_func private @T_full(
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: !tir.buffer<[n, m * 2], f32>, %{{.*}}: index {tir.var = "m"})
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK: %[[N:.*]] = tir.sym_var "n"
// CHECK: %[[M:.*]] = tir.sym_var "m"
// CHECK: %[[M2:.*]] = arith.muli %{{.*}}, %[[M]] : index
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} kind = parallel {
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %[[M2]] step %{{.*}} {
// CHECK: tir.block "T_full" (%[[VI:.*]] = %[[I]], %[[VJ:.*]] = %[[J]]) kinds [spatial, spatial] {
// CHECK: %[[C:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: tir.store %[[C]], %[[OUT]][%[[VI]], %[[VJ]]]

// CHECK-LABEL: tir.prim_func private @T_arange(
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK: arith.floordivsi
// CHECK: tir.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = parallel {
// CHECK: tir.block "T_arange" (%[[VK:.*]] = %[[K]]) kinds [spatial] {
// CHECK: %[[V:.*]] = arith.muli %[[VK]], %{{.*}} : index
// CHECK: %[[W:.*]] = arith.index_cast %[[V]] : index to i64
// CHECK: tir.store %[[W]]

relax.func @create(%x: !relax.tensor<[n, m], f32>) -> (!relax.tensor<[n, m * 2], f32>, !relax.tensor<[(n + 1) floordiv 2], i64>) {
  %y0 = relax.full {dtype = f32, shape = #relax.shape<[n, m * 2]>, value = 1.5 : f64} : !relax.tensor<[n, m * 2], f32>
  %y1 = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<2>} : !relax.tensor<[(n + 1) floordiv 2], i64>
  relax.return %y0, %y1 : !relax.tensor<[n, m * 2], f32>, !relax.tensor<[(n + 1) floordiv 2], i64>
}
