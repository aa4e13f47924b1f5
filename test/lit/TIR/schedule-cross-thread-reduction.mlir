// RUN: relax-opt %s --tir-test-schedule -split-input-file -verify-diagnostics | FileCheck %s

// A max over a symbolic axis with 64 threads: the init value (-inf) seeds
// every slot and the tree combines with maximumf (32, 16, ..., 1).
// CHECK-LABEL: tir.prim_func @row_max
// CHECK: tir.alloc : !tir.buffer<[64], f32, shared>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: tir.block "max_cross_thread"
// CHECK: arith.maximumf
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[C32]] step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK: arith.maximumf
// CHECK-COUNT-6: kind = thread_binding thread = "threadIdx.x"
tir.prim_func @row_max(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["bind i blockIdx.x", "cross_thread_reduction max r 64"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "max" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0xFF800000 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.maximumf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// The warp variant, 128 threads over a symbolic axis: the accumulating
// thread loop ends with one warp reduction (maximumf) of each thread's slot,
// lane 0 of each warp writing warps[t / 32]; one 32-thread loop reduces
// the 4 warp totals (slots 4..31 read as -inf) and lane 0 stores the row.
// No halving loops.
// CHECK-LABEL: tir.prim_func @row_max_warp
// CHECK: %[[PARTIAL:.*]] = tir.alloc : !tir.buffer<[128], f32, shared>
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tir.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK: tir.block "max_cross_thread"
// CHECK: tir.store %{{.*}}, %[[PARTIAL]][%[[T]]]
// CHECK: %[[OWN:.*]] = tir.load %[[PARTIAL]][%[[T]]]
// CHECK-NEXT: %[[WARP:.*]] = gpu.subgroup_reduce maximumf %[[OWN]] uniform : (f32) -> f32
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %[[C32:.*]] : index
// CHECK-NEXT: %[[W:.*]] = arith.divui %[[T]], %[[C32]] : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]]
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: tir.store %[[WARP]], %[[TOTALS:.*]][%[[W]]] : !tir.buffer<[32], f32, shared>
// CHECK: tir.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK-NEXT: %[[LOADED:.*]] = tir.load %[[TOTALS]][%[[L]]]
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[USED:.*]] = arith.cmpi ult, %[[L]], %[[C4]]
// CHECK-NEXT: %[[V:.*]] = arith.select %[[USED]], %[[LOADED]], %[[NEG_INF]]
// CHECK-NEXT: %[[TOTAL:.*]] = gpu.subgroup_reduce maximumf %[[V]] uniform
// CHECK: tir.store %[[TOTAL]], %{{.*}}[%{{.*}}] : !tir.buffer<[m], f32>
// CHECK-NOT: kind = thread_binding thread = "threadIdx.x"
// CHECK: tir.return
tir.prim_func @row_max_warp(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["bind i blockIdx.x", "cross_thread_reduction max r 128 warp"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "max" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0xFF800000 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.maximumf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// 32 threads: the first warp reduction is the result (lane 0 stores it, no
// second loop, no shared totals). An i64 sum cannot be shuffled 32 bits at
// a time: it keeps the shared-memory tree.
// CHECK-LABEL: tir.prim_func @sum_one_warp
// CHECK: tir.alloc : !tir.buffer<[32], i32, shared>
// CHECK-NOT: tir.alloc
// CHECK: gpu.subgroup_reduce add %{{.*}} uniform : (i32) -> i32
// CHECK: scf.if
// CHECK-NEXT: tir.store %{{.*}}, %{{.*}}[] : !tir.buffer<[], i32>
// CHECK-NOT: kind = thread_binding
// CHECK-LABEL: tir.prim_func @sum_i64_tree
// CHECK-NOT: gpu.subgroup_reduce
// CHECK-COUNT-7: kind = thread_binding thread = "threadIdx.x"
// CHECK-NOT: gpu.subgroup_reduce
tir.prim_func @sum_one_warp(%x: !tir.buffer<[k], i32>, %y: !tir.buffer<[], i32>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 32 warp"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0 : i32
        tir.store %z, %y[] : !tir.buffer<[], i32>
      }
      %a = tir.load %y[] : !tir.buffer<[], i32>
      %b = tir.load %x[%vr] : !tir.buffer<[k], i32>
      %s = arith.addi %a, %b : i32
      tir.store %s, %y[] : !tir.buffer<[], i32>
    }
  }
  tir.return
}
tir.prim_func @sum_i64_tree(%x: !tir.buffer<[k], i64>, %y: !tir.buffer<[], i64>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 64 warp"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0 : i64
        tir.store %z, %y[] : !tir.buffer<[], i64>
      }
      %a = tir.load %y[] : !tir.buffer<[], i64>
      %b = tir.load %x[%vr] : !tir.buffer<[k], i64>
      %s = arith.addi %a, %b : i64
      tir.store %s, %y[] : !tir.buffer<[], i64>
    }
  }
  tir.return
}

// -----

tir.prim_func @bad_threads(%x: !tir.buffer<[k], f32>, %y: !tir.buffer<[], f32>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 48"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  // expected-error@+1 {{cross_thread_reduction: threads must be a power of two in [32, 1024], got 48}}
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %y[] : !tir.buffer<[], f32>
      }
      %a = tir.load %y[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[k], f32>
      %s = arith.addf %a, %b : f32
      tir.store %s, %y[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @not_identity(%x: !tir.buffer<[k], f32>, %y: !tir.buffer<[], f32>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 32"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 1.0 : f32
        // expected-error@+1 {{cross_thread_reduction: the init value is not the identity of the update}}
        tir.store %z, %y[] : !tir.buffer<[], f32>
      }
      %a = tir.load %y[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[k], f32>
      %s = arith.addf %a, %b : f32
      tir.store %s, %y[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @unknown_combiner(%x: !tir.buffer<[k], f32>, %y: !tir.buffer<[], f32>)
    attributes {tir.schedule = ["cross_thread_reduction sum r 32"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  tir.for %r = %c0 to %k step %c1 name = "r" {
    tir.block "sum" (%vr = %r) kinds [reduce] {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %y[] : !tir.buffer<[], f32>
      }
      %a = tir.load %y[] : !tir.buffer<[], f32>
      %b = tir.load %x[%vr] : !tir.buffer<[k], f32>
      %s = arith.subf %a, %b : f32
      // expected-error@+1 {{cross_thread_reduction: the update is not combine(output, value) with a known combiner}}
      tir.store %s, %y[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}

// -----

// A warp per output (the decode GEMV's split-K), 2 warps per block over a
// symbolic output count m: ceildiv(m, 2) blocks of 64 threads; warp w takes
// output b * 2 + w (clamped to m - 1), lane l the iterations l, l + 32, ...
// of k; one warp reduction, lane 0 stores when the output exists. No
// second thread loop, no barrier.
// CHECK-LABEL: tir.prim_func @row_sum_warp_per_output
// CHECK: %[[M:.*]] = tir.sym_var "m"
// CHECK: %[[NB:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: tir.for %[[B:.*]] = %{{.*}} to %[[NB]] step %{{.*}} kind = thread_binding thread = "blockIdx.x" {
// CHECK-NEXT: %[[P:.*]] = tir.alloc : !tir.buffer<[64], f32, shared>
// CHECK: tir.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = thread_binding thread = "threadIdx.x" {
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK: %[[RAW:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[RAW]], %[[M]] : index
// CHECK: %[[ROW:.*]] = arith.select %[[VALID]], %[[RAW]], %{{.*}} : index
// CHECK: tir.store %{{.*}}, %[[P]][%[[T]]]
// CHECK: arith.addi %{{.*}}, %[[LANE]] : index
// CHECK: tir.block "sum_cross_thread" (%{{.*}} = %[[ROW]], %{{.*}}) kinds [spatial, reduce]
// CHECK: %[[TOTAL:.*]] = gpu.subgroup_reduce add %{{.*}} uniform : (f32) -> f32
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: tir.store %[[TOTAL]], %{{.*}}[%{{.*}}] : !tir.buffer<[m], f32>
// CHECK-NOT: thread_binding
// CHECK: tir.return
tir.prim_func @row_sum_warp_per_output(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["warp_per_output_reduction sum r i 2"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

tir.prim_func @bad_warps(%x: !tir.buffer<[m, k], f32>, %y: !tir.buffer<[m], f32>)
    attributes {tir.schedule = ["warp_per_output_reduction sum r i 3"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  // expected-error@+1 {{warp_per_output_reduction: warps must be a power of two in [1, 32], got 3}}
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %y[%vi] : !tir.buffer<[m], f32>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], f32>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], f32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %y[%vi] : !tir.buffer<[m], f32>
      }
    }
  }
  tir.return
}

// -----

// The output of a warp-per-output reduction must fit a 32-bit shuffle.
tir.prim_func @wide_output(%x: !tir.buffer<[m, k], i64>, %y: !tir.buffer<[m], i64>)
    attributes {tir.schedule = ["warp_per_output_reduction sum r i 4"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %m step %c1 name = "i" {
    tir.for %r = %c0 to %k step %c1 name = "r" {
      // expected-error@+1 {{warp_per_output_reduction: the output type does not fit a warp shuffle}}
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          %z = arith.constant 0 : i64
          tir.store %z, %y[%vi] : !tir.buffer<[m], i64>
        }
        %a = tir.load %y[%vi] : !tir.buffer<[m], i64>
        %b = tir.load %x[%vi, %vr] : !tir.buffer<[m, k], i64>
        %s = arith.addi %a, %b : i64
        tir.store %s, %y[%vi] : !tir.buffer<[m], i64>
      }
    }
  }
  tir.return
}
