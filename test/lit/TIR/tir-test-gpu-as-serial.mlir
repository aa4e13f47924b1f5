// RUN: relax-opt %s --tir-test-gpu-as-serial -split-input-file -verify-diagnostics | FileCheck %s

// A clustered warp reduction splits its thread loop: the first loop stores
// each thread's value, the second combines the 4 values of the thread's
// cluster (threads t - t % 4 .. + 3) and runs the rest, where the index
// arithmetic of the first part (t / 4, used after the split) is computed
// again. Symbolic rows.
// CHECK-LABEL: tir.prim_func @cluster
// CHECK: %[[LANES:.*]] = tir.alloc : !tir.buffer<[128], f32>
// CHECK: tir.for %[[T0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[X:.*]] = tir.load
// CHECK: tir.store %[[X]], %[[LANES]][%[[T0]]]
// CHECK: }
// CHECK: tir.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[ROW:.*]] = arith.divui %[[T]], %{{.*}} : index
// CHECK: %[[OFF:.*]] = arith.remui %[[T]], %[[C4:.*]] : index
// CHECK: %[[BASE:.*]] = arith.subi %[[T]], %[[OFF]] : index
// CHECK: %[[V0:.*]] = tir.load %[[LANES]][%[[BASE]]]
// CHECK-COUNT-3: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: tir.store %{{.*}}, %{{.*}}[%{{.*}}, %[[ROW]]]
tir.prim_func @cluster(%o: !tir.buffer<[m, 128], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %m = tir.sym_var "m" : index
  tir.for %b = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %row = arith.divui %t, %c4 : index
      %x = tir.load %o[%b, %t] : !tir.buffer<[m, 128], f32>
      %r = gpu.subgroup_reduce maximumf %x uniform cluster(size = 4) : (f32) -> f32
      tir.store %r, %o[%b, %row] : !tir.buffer<[m, 128], f32>
    }
  }
  tir.return
}

// -----

// A tir.mma_sync whose A is the lanes' registers splits its thread loop
// before it (every lane writes its fragment first), and the block-level
// register buffers get the thread dim in both loops.
// CHECK-LABEL: tir.prim_func @fragment
// CHECK: %[[P:.*]] = tir.alloc : !tir.buffer<[32, 8], f16, local>
// CHECK: tir.for %[[T0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: tir.store %{{.*}}, %[[P]][%[[T0]], %{{.*}}]
// CHECK: }
// CHECK: tir.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: tir.mma_sync %[[T]], %{{.*}}[%[[T]], %{{.*}}], %[[P]][%[[T]], %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] b_k_by_n
tir.prim_func @fragment(%o: !tir.buffer<[m, 4], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f16
  %m = tir.sym_var "m" : index
  tir.for %b = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    %acc = tir.alloc : !tir.buffer<[4], f32, local>
    %p = tir.alloc : !tir.buffer<[8], f16, local>
    %v = tir.alloc : !tir.buffer<[16, 8], f16, shared>
    tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
      tir.store %one, %p[%c0] : !tir.buffer<[8], f16, local>
      tir.mma_sync %t, %acc[%c0], %p[%c0], %v[%c0, %c0] b_k_by_n : !tir.buffer<[4], f32, local>, !tir.buffer<[8], f16, local>, !tir.buffer<[16, 8], f16, shared>
    }
  }
  tir.return
}

// -----

// A loaded value used after the split cannot be carried (it would be one
// thread's, not each thread's).
tir.prim_func @crossing(%o: !tir.buffer<[m, 128], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %m = tir.sym_var "m" : index
  tir.for %b = %c0 to %m step %c1 kind = thread_binding thread = "blockIdx.x" {
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      // expected-error@+1 {{'tir.load' op is used after a warp collective op of its thread loop, which the emulation cannot carry (only pure values are recomputed)}}
      %x = tir.load %o[%b, %t] : !tir.buffer<[m, 128], f32>
      %r = gpu.subgroup_reduce add %x uniform cluster(size = 4) : (f32) -> f32
      %y = arith.addf %r, %x : f32
      tir.store %y, %o[%b, %t] : !tir.buffer<[m, 128], f32>
    }
  }
  tir.return
}

// -----

tir.prim_func @strided(%o: !tir.buffer<[128], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %x = tir.load %o[%t] : !tir.buffer<[128], f32>
    // expected-error@+1 {{'gpu.subgroup_reduce' op strided warp reduction clusters are not emulated}}
    %r = gpu.subgroup_reduce add %x uniform cluster(size = 4, stride = 2) : (f32) -> f32
    tir.store %r, %o[%t] : !tir.buffer<[128], f32>
  }
  tir.return
}

// -----

tir.prim_func @odd_loop(%o: !tir.buffer<[48], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  tir.for %t = %c0 to %c48 step %c1 kind = thread_binding thread = "threadIdx.x" {
    %x = tir.load %o[%t] : !tir.buffer<[48], f32>
    // expected-error@+1 {{'gpu.subgroup_reduce' op warp collective op in a thread loop that is not 0 to a multiple of 32 step 1}}
    %r = gpu.subgroup_reduce add %x uniform cluster(size = 4) : (f32) -> f32
    tir.store %r, %o[%t] : !tir.buffer<[48], f32>
  }
  tir.return
}
