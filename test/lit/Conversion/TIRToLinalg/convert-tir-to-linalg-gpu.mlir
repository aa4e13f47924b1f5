// RUN: relax-opt %s --convert-tir-to-linalg=need-parallel-loop=true | FileCheck %s
// RUN: relax-opt %s --relax-annotate-op-pattern --convert-tir-to-linalg=need-parallel-loop=true --tir-gpu-default-schedule | FileCheck %s --check-prefix=SCHED

// On the GPU route a nest without a parallel loop (a sum of everything)
// stays tir, for the GPU schedule's block reduction; nests with one become
// linalg ops, which the schedule leaves alone (no single-thread wrapping).
// CHECK-LABEL: tir.prim_func @sum_all
// CHECK-NOT: linalg.generic
// CHECK: tir.block "sum"
// CHECK-LABEL: tir.prim_func @scale
// CHECK: linalg.generic
// CHECK-NOT: tir.for
// SCHED-LABEL: tir.prim_func @sum_all
// SCHED: thread = "blockIdx.x"
// SCHED: tir.block "sum_cross_thread"
// SCHED-LABEL: tir.prim_func @scale
// SCHED-NOT: thread_binding
// SCHED: linalg.generic
// SCHED-NOT: thread_binding
// SCHED: tir.return
tir.prim_func @sum_all(%a: !tir.buffer<[n], f32>, %out: !tir.buffer<[], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %k = %c0 to %n step %c1 {
    tir.block "sum" (%vk = %k) kinds [reduce] {
      tir.init {
        %zero = arith.constant 0.0 : f32
        tir.store %zero, %out[] : !tir.buffer<[], f32>
      }
      %acc = tir.load %out[] : !tir.buffer<[], f32>
      %x = tir.load %a[%vk] : !tir.buffer<[n], f32>
      %s = arith.addf %acc, %x : f32
      tir.store %s, %out[] : !tir.buffer<[], f32>
    }
  }
  tir.return
}

tir.prim_func @scale(%a: !tir.buffer<[n], f32>, %out: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.block "scale" (%vi = %i) kinds [spatial] {
      %x = tir.load %a[%vi] : !tir.buffer<[n], f32>
      %s = arith.addf %x, %x : f32
      tir.store %s, %out[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}
