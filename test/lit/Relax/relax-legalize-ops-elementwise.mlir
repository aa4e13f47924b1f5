// RUN: relax-opt --relax-legalize-ops -split-input-file %s | FileCheck %s

// Structure of the legalized elementwise ops: one spatial block per op over
// the output's (symbolic) extents, the outermost loop parallel; operands
// read at the iteration variables, broadcast operands through an in-order
// subsequence of them with the constant 0 for their size-1 dims; the
// relax.call_tir passes the operands in order and returns the op's type.

// Unary: loads and stores at the iteration variables; two calls with the
// same signature share one program.
// CHECK-LABEL: relax.func @unary
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, m], f32>, %[[I:.*]]: !relax.tensor<[n], i64>)
// CHECK: %[[E:.*]] = relax.call_tir @T_exp(%[[X]]) : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: relax.call_tir @T_exp(%[[E]]) : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: relax.call_tir @T_negative(%[[I]]) : (!relax.tensor<[n], i64>) -> !relax.tensor<[n], i64>
// CHECK-NOT: relax.exp
// CHECK-NOT: relax.negative
// CHECK-LABEL: tir.prim_func private @T_exp(
// CHECK-SAME: %[[IN:.*]]: !tir.buffer<[n, m], f32>, %[[OUT:.*]]: !tir.buffer<[n, m], f32>)
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK: %[[M:.*]] = tir.sym_var "m" : index
// CHECK: tir.for %[[LI:.*]] = %{{.*}} to %[[N]] step %{{.*}} kind = parallel {
// CHECK: tir.for %[[LJ:.*]] = %{{.*}} to %[[M]] step %{{.*}} {
// CHECK-NEXT: tir.block "T_exp" (%[[VI:.*]] = %[[LI]], %[[VJ:.*]] = %[[LJ]]) kinds [spatial, spatial] {
// CHECK-NEXT: %[[V:.*]] = tir.load %[[IN]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f32>
// CHECK-NEXT: %[[R:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT: tir.store %[[R]], %[[OUT]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f32>
// CHECK-NOT: tir.prim_func private @T_exp
// Integer negation is 0 - x.
// CHECK-LABEL: tir.prim_func private @T_negative(
// CHECK: tir.block "T_negative" (%[[VI:.*]] = %{{.*}}) kinds [spatial] {
// CHECK-NEXT: %[[V:.*]] = tir.load %{{.*}}[%[[VI]]] : !tir.buffer<[n], i64>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT: arith.subi %[[Z]], %[[V]] : i64
relax.func @unary(%x: !relax.tensor<[n, m], f32>, %i: !relax.tensor<[n], i64>)
    -> (!relax.tensor<[n, m], f32>, !relax.tensor<[n], i64>) {
  %e = relax.exp %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %e2 = relax.exp %e : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %g = relax.negative %i : (!relax.tensor<[n], i64>) -> !relax.tensor<[n], i64>
  relax.return %e2, %g : !relax.tensor<[n, m], f32>, !relax.tensor<[n], i64>
}

// -----

// Binary with broadcasting across symbolic dims.
// CHECK-LABEL: relax.func @binary
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[b, n, m], f32>, %[[Y:.*]]: !relax.tensor<[m], f32>, %[[K:.*]]: !relax.tensor<[n, 1], f32>, %[[C:.*]]: !relax.tensor<[1, m], f32>)
// CHECK: relax.call_tir @T_subtract(%[[Y]], %[[X]]) : (!relax.tensor<[m], f32>, !relax.tensor<[b, n, m], f32>) -> !relax.tensor<[b, n, m], f32>
// CHECK: relax.call_tir @T_multiply(%[[K]], %[[C]]) : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], f32>

// Rank lifting: the [m] operand (first) is read through the last iteration
// variable only, the [b, n, m] one through all three.
// CHECK-LABEL: tir.prim_func private @T_subtract(
// CHECK-SAME: %[[A:.*]]: !tir.buffer<[m], f32>, %[[B:.*]]: !tir.buffer<[b, n, m], f32>, %[[O:.*]]: !tir.buffer<[b, n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>}
// CHECK: %[[SB:.*]] = tir.sym_var "b" : index
// CHECK: %[[SN:.*]] = tir.sym_var "n" : index
// CHECK: %[[SM:.*]] = tir.sym_var "m" : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[SB]] step %{{.*}} kind = parallel {
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[SN]] step
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[SM]] step
// CHECK-NEXT: tir.block "T_subtract" (%[[V0:.*]] = %{{.*}}, %[[V1:.*]] = %{{.*}}, %[[V2:.*]] = %{{.*}}) kinds [spatial, spatial, spatial] {
// CHECK-NEXT: %[[L:.*]] = tir.load %[[A]][%[[V2]]] : !tir.buffer<[m], f32>
// CHECK-NEXT: %[[R:.*]] = tir.load %[[B]][%[[V0]], %[[V1]], %[[V2]]] : !tir.buffer<[b, n, m], f32>
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[L]], %[[R]] : f32
// CHECK-NEXT: tir.store %[[D]], %[[O]][%[[V0]], %[[V1]], %[[V2]]]

// Both operands stretched: [n, 1] x [1, m] -> [n, m], the size-1 dims read
// at the constant 0.
// CHECK-LABEL: tir.prim_func private @T_multiply(
// CHECK-SAME: %[[A:.*]]: !tir.buffer<[n, 1], f32>, %[[B:.*]]: !tir.buffer<[1, m], f32>, %[[O:.*]]: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>}
// CHECK: tir.block "T_multiply" (%[[VI:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}) kinds [spatial, spatial] {
// CHECK-NEXT: %[[Z0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[L:.*]] = tir.load %[[A]][%[[VI]], %[[Z0]]] : !tir.buffer<[n, 1], f32>
// CHECK-NEXT: %[[Z1:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[R:.*]] = tir.load %[[B]][%[[Z1]], %[[VJ]]] : !tir.buffer<[1, m], f32>
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[L]], %[[R]] : f32
// CHECK-NEXT: tir.store %[[P]], %[[O]][%[[VI]], %[[VJ]]]
relax.func @binary(%x: !relax.tensor<[b, n, m], f32>, %y: !relax.tensor<[m], f32>,
                   %k: !relax.tensor<[n, 1], f32>, %c: !relax.tensor<[1, m], f32>)
    -> (!relax.tensor<[b, n, m], f32>, !relax.tensor<[n, m], f32>) {
  %a = relax.subtract %y, %x : (!relax.tensor<[m], f32>, !relax.tensor<[b, n, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %s = relax.multiply %k, %c : (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %a, %s : !relax.tensor<[b, n, m], f32>, !relax.tensor<[n, m], f32>
}

// -----

// Comparisons produce i1 (cmpf for floats, cmpi for integers); where
// selects with a broadcast condition and a broadcast else-branch.
// CHECK-LABEL: relax.func @compare_where
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, m], f32>, %[[B:.*]]: !relax.tensor<[m], f32>, %[[K:.*]]: !relax.tensor<[n, 1], f32>, %[[P:.*]]: !relax.tensor<[n], i64>, %[[Q:.*]]: !relax.tensor<[n], i64>)
// CHECK: %[[L:.*]] = relax.call_tir @T_less(%[[X]], %[[B]]) : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], i1>
// CHECK: relax.call_tir @T_where(%[[L]], %[[X]], %[[K]]) : (!relax.tensor<[n, m], i1>, !relax.tensor<[n, m], f32>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: relax.call_tir @T_equal(%[[P]], %[[Q]]) : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
// CHECK-LABEL: tir.prim_func private @T_less(
// CHECK-SAME: %[[A:.*]]: !tir.buffer<[n, m], f32>, %[[C:.*]]: !tir.buffer<[m], f32>, %[[O:.*]]: !tir.buffer<[n, m], i1>) attributes {op_pattern = #tir.op_pattern<broadcast>}
// CHECK: tir.block "T_less" (%[[VI:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}) kinds [spatial, spatial] {
// CHECK-NEXT: %[[L:.*]] = tir.load %[[A]][%[[VI]], %[[VJ]]]
// CHECK-NEXT: %[[R:.*]] = tir.load %[[C]][%[[VJ]]]
// CHECK-NEXT: %[[T:.*]] = arith.cmpf olt, %[[L]], %[[R]] : f32
// CHECK-NEXT: tir.store %[[T]], %[[O]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], i1>
// CHECK-LABEL: tir.prim_func private @T_where(
// CHECK-SAME: %[[CND:.*]]: !tir.buffer<[n, m], i1>, %[[TH:.*]]: !tir.buffer<[n, m], f32>, %[[EL:.*]]: !tir.buffer<[n, 1], f32>, %[[O:.*]]: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>}
// CHECK: tir.block "T_where" (%[[VI:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}) kinds [spatial, spatial] {
// CHECK-NEXT: %[[S:.*]] = tir.load %[[CND]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], i1>
// CHECK-NEXT: %[[T:.*]] = tir.load %[[TH]][%[[VI]], %[[VJ]]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[E:.*]] = tir.load %[[EL]][%[[VI]], %[[Z]]]
// CHECK-NEXT: %[[R:.*]] = arith.select %[[S]], %[[T]], %[[E]] : f32
// CHECK-NEXT: tir.store %[[R]], %[[O]][%[[VI]], %[[VJ]]]
// CHECK-LABEL: tir.prim_func private @T_equal(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<elementwise>}
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i64
// CHECK: tir.store %{{.*}} : !tir.buffer<[n], i1>
relax.func @compare_where(%x: !relax.tensor<[n, m], f32>, %b: !relax.tensor<[m], f32>,
                          %k: !relax.tensor<[n, 1], f32>, %p: !relax.tensor<[n], i64>,
                          %q: !relax.tensor<[n], i64>)
    -> (!relax.tensor<[n, m], f32>, !relax.tensor<[n], i1>) {
  %l = relax.less %x, %b : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], i1>
  %w = relax.where %l, %x, %k : (!relax.tensor<[n, m], i1>, !relax.tensor<[n, m], f32>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, m], f32>
  %e = relax.equal %p, %q : (!relax.tensor<[n], i64>, !relax.tensor<[n], i64>) -> !relax.tensor<[n], i1>
  relax.return %w, %e : !relax.tensor<[n, m], f32>, !relax.tensor<[n], i1>
}

// -----

// astype converts in the block: signed int to float, float to bool as
// "not equal to 0".
// CHECK-LABEL: relax.func @astype_to_half
// CHECK: relax.call_tir @T_astype(%{{.*}}) : (!relax.tensor<[n, m], i32>) -> !relax.tensor<[n, m], f16>
// CHECK-LABEL: tir.prim_func private @T_astype(
// CHECK-SAME: %[[A:.*]]: !tir.buffer<[n, m], i32>, %[[O:.*]]: !tir.buffer<[n, m], f16>) attributes {op_pattern = #tir.op_pattern<elementwise>}
// CHECK: tir.block "T_astype" (%[[VI:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}) kinds [spatial, spatial] {
// CHECK-NEXT: %[[V:.*]] = tir.load %[[A]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], i32>
// CHECK-NEXT: %[[H:.*]] = arith.sitofp %[[V]] : i32 to f16
// CHECK-NEXT: tir.store %[[H]], %[[O]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f16>
relax.func @astype_to_half(%i: !relax.tensor<[n, m], i32>) -> !relax.tensor<[n, m], f16> {
  %h = relax.astype %i {dtype = f16} : (!relax.tensor<[n, m], i32>) -> !relax.tensor<[n, m], f16>
  relax.return %h : !relax.tensor<[n, m], f16>
}

// -----

// CHECK-LABEL: relax.func @astype_to_bool
// CHECK: relax.call_tir @T_astype(%{{.*}}) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], i1>
// CHECK-LABEL: tir.prim_func private @T_astype(
// CHECK: %[[V:.*]] = tir.load %{{.*}} : !tir.buffer<[n], f32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[B:.*]] = arith.cmpf une, %[[V]], %[[Z]] : f32
// CHECK-NEXT: tir.store %[[B]], %{{.*}} : !tir.buffer<[n], i1>
relax.func @astype_to_bool(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], i1> {
  %c = relax.astype %x {dtype = i1} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], i1>
  relax.return %c : !relax.tensor<[n], i1>
}

// -----

// isnan is x unordered with itself; floor_mod divides by 1 where the
// divisor is 0 or -1 (remsi traps on INT_MIN / -1) and moves a remainder
// whose sign differs from the divisor's by the divisor; right_shift on a
// signed dtype clamps the amount to width - 1 (the arithmetic shift's
// limit), left_shift selects 0 for amounts >= the width.
// CHECK-LABEL: tir.prim_func private @T_isnan(
// CHECK: %[[V:.*]] = tir.load
// CHECK-NEXT: %[[R:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK-NEXT: tir.store %[[R]], %{{.*}} : !tir.buffer<[n], i1>
// CHECK-LABEL: tir.prim_func private @T_floor_mod(
// CHECK-SAME: op_pattern = #tir.op_pattern<elementwise>
// CHECK: %[[X:.*]] = tir.load %{{.*}} : !tir.buffer<[n], i32>
// CHECK: %[[Y:.*]] = tir.load %{{.*}} : !tir.buffer<[n], i32>
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : i32
// CHECK: %[[M1:.*]] = arith.cmpi eq, %[[Y]], %c-1_i32 : i32
// CHECK: %[[BAD:.*]] = arith.ori %[[Z]], %[[M1]] : i1
// CHECK: %[[D:.*]] = arith.select %[[BAD]], %c1_i32, %[[Y]] : i32
// CHECK: %[[R:.*]] = arith.remsi %[[X]], %[[D]] : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[R]], %[[Y]] : i32
// CHECK: arith.select %{{.*}}, %[[SUM]], %[[R]] : i32
// CHECK-LABEL: tir.prim_func private @T_fmod(
// CHECK: arith.remui
// CHECK-NOT: arith.addi
// CHECK: tir.store
// CHECK-LABEL: tir.prim_func private @T_right_shift(
// CHECK: %[[X:.*]] = tir.load %{{.*}} : !tir.buffer<[n], i32>
// CHECK: %[[S:.*]] = tir.load %{{.*}} : !tir.buffer<[n], i32>
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %[[S]], %c32_i32 : i32
// CHECK: %[[A:.*]] = arith.select %[[FAR]], %c31_i32, %[[S]] : i32
// CHECK: arith.shrsi %[[X]], %[[A]] : i32
// CHECK-LABEL: tir.prim_func private @T_left_shift(
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %{{.*}}, %c8_i8 : i8
// CHECK: %[[SH:.*]] = arith.shli
// CHECK: arith.select %[[FAR]], %c0_i8, %[[SH]] : i8
relax.func @mod_shift(%x: !relax.tensor<[n], f32>, %a: !relax.tensor<[n], i32>, %u: !relax.tensor<[n], ui8>) -> (!relax.tensor<[n], i1>, !relax.tensor<[n], i32>, !relax.tensor<[n], ui8>, !relax.tensor<[n], i32>, !relax.tensor<[n], ui8>) {
  %0 = relax.isnan %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], i1>
  %1 = relax.floor_mod %a, %a : (!relax.tensor<[n], i32>, !relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  %2 = relax.fmod %u, %u : (!relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  %3 = relax.right_shift %a, %a : (!relax.tensor<[n], i32>, !relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  %4 = relax.left_shift %u, %u : (!relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  relax.return %0, %1, %2, %3, %4 : !relax.tensor<[n], i1>, !relax.tensor<[n], i32>, !relax.tensor<[n], ui8>, !relax.tensor<[n], i32>, !relax.tensor<[n], ui8>
}
