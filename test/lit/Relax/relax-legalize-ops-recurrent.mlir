// RUN: relax-opt --relax-legalize-ops %s | FileCheck %s
// RUN: relax-opt --relax-legalize-ops %s | FileCheck %s --check-prefix=CONTRACT

// relax.gru (reverse, linear_before_reset) over symbolic seq s, batch n and
// hidden size h becomes one opaque prim_func: a parallel loop over the
// (direction, batch) pairs with the state, the gates and a dot-product
// accumulator in local buffers, the steps a serial loop up to the clamped
// length walking t = len - 1 - step, then the zero tail of y and the final
// state.

// CHECK-LABEL: relax.func @main
// CHECK: relax.call_tir @gru(%{{.*}}) : {{.*}} -> (!relax.tensor<[s, 1, n, h], f32>, !relax.tensor<[1, n, h], f32>)

// CHECK-LABEL: tir.prim_func private @gru(
// CHECK-SAME: %[[XW:[^:]*]]: !tir.buffer<[s, n, 1, h * 3], f32>, %[[R:[^:]*]]: !tir.buffer<[1, h * 3, h], f32>, %[[RB:[^:]*]]: !tir.buffer<[1, h * 3], f32>, %[[H0:[^:]*]]: !tir.buffer<[1, n, h], f32>, %[[LENS:[^:]*]]: !tir.buffer<[n], i64>, %[[Y:[^:]*]]: !tir.buffer<[s, 1, n, h], f32>, %[[YH:[^:]*]]: !tir.buffer<[1, n, h], f32>)
// CHECK-SAME: op_pattern = #tir.op_pattern<opaque>
// CHECK-DAG: %[[S:.*]] = tir.sym_var "s"
// CHECK-DAG: %[[N:.*]] = tir.sym_var "n"
// CHECK: tir.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = parallel {
// CHECK: %[[D:.*]] = arith.divui %[[P]], %[[N]]
// CHECK: %[[B:.*]] = arith.remui %[[P]], %[[N]]
// CHECK: %[[HS:.*]] = tir.alloc : !tir.buffer<[h], f32, local>
// CHECK: %[[G:.*]] = tir.alloc : !tir.buffer<[h * 3], f32, local>
// CHECK: %[[DOT:.*]] = tir.alloc : !tir.buffer<[1], f32, local>
// CHECK: tir.load %[[H0]][%[[D]], %[[B]], %{{.*}}]
// The length, clamped to [0, s]:
// CHECK: %[[RAW:.*]] = tir.load %[[LENS]][%[[B]]]
// CHECK: %[[IDX:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[IDX]], %{{.*}}
// CHECK: %[[LEN:.*]] = arith.minsi %[[LO]], %[[S]]
// Serial steps, reverse: t = len - 1 - step.
// CHECK: tir.for %[[STEP:.*]] = %{{.*}} to %[[LEN]] step %{{.*}} {
// CHECK-NOT: kind = parallel
// CHECK: %[[LM1:.*]] = arith.subi %[[LEN]], %{{.*}}
// CHECK: %[[T:.*]] = arith.subi %[[LM1]], %[[STEP]]
// z and r: xw[t] + h * R^T + rb.
// CHECK: tir.load %[[R]][%[[D]], %{{.*}}, %{{.*}}]
// CHECK: tir.load %[[XW]][%[[T]], %[[B]], %[[D]], %{{.*}}]
// CHECK: tir.store %{{.*}}, %[[G]]
// The new state into y at t.
// CHECK: tir.store %{{.*}}, %[[Y]][%[[T]], %[[D]], %[[B]], %{{.*}}]
// The zero tail from the length on, then the final state.
// CHECK: tir.for %[[TAIL:.*]] = %[[LEN]] to %[[S]] step
// CHECK: tir.store %{{.*}}, %[[Y]][%[[TAIL]], %[[D]], %[[B]], %{{.*}}]
// CHECK: tir.store %{{.*}}, %[[YH]][%[[D]], %[[B]], %{{.*}}]
relax.func @main(%x: !relax.tensor<[s, n, 1, 3 * h], f32>, %r: !relax.tensor<[1, 3 * h, h], f32>, %b: !relax.tensor<[1, 3 * h], f32>, %h0: !relax.tensor<[1, n, h], f32>, %l: !relax.tensor<[n], i64>) -> (!relax.tensor<[s, 1, n, h], f32>, !relax.tensor<[1, n, h], f32>) {
  %y, %yh = relax.gru %x, %r, %b, %h0, %l {direction = "reverse", linear_before_reset = true} : (!relax.tensor<[s, n, 1, 3 * h], f32>, !relax.tensor<[1, 3 * h, h], f32>, !relax.tensor<[1, 3 * h], f32>, !relax.tensor<[1, n, h], f32>, !relax.tensor<[n], i64>) -> (!relax.tensor<[s, 1, n, h], f32>, !relax.tensor<[1, n, h], f32>)
  relax.return %y, %yh : !relax.tensor<[s, 1, n, h], f32>, !relax.tensor<[1, n, h], f32>
}

// xw's 9 gate values against r's 3 * h: inference cannot decide it, so the
// legalization asserts it (and every other dim the kernel indexes with) at
// run time before the call.
// CONTRACT-LABEL: relax.func @gates_undecided
// CONTRACT: relax.assert_dims #relax.expr<9> "eq" #relax.expr<h * 3>, "relax.gru", "xw dim 3 vs gates * r dim 2"
// CONTRACT-NEXT: relax.call_tir @gru_1(
relax.func @gates_undecided(%x: !relax.tensor<[s, n, 1, 9], f32>, %r: !relax.tensor<[1, 3 * h, h], f32>, %b: !relax.tensor<[1, 3 * h], f32>, %h0: !relax.tensor<[1, n, h], f32>, %l: !relax.tensor<[n], i32>) -> !relax.tensor<[1, n, h], f32> {
  %y, %yh = relax.gru %x, %r, %b, %h0, %l : (!relax.tensor<[s, n, 1, 9], f32>, !relax.tensor<[1, 3 * h, h], f32>, !relax.tensor<[1, 3 * h], f32>, !relax.tensor<[1, n, h], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, h], f32>, !relax.tensor<[1, n, h], f32>)
  relax.return %yh : !relax.tensor<[1, n, h], f32>
}
