// RUN: relax-opt %s --convert-tir-to-scf | FileCheck %s

// Buffers become memrefs (constant dims static), symbolic variables the
// memref.dim of the parameter that binds them, computed once at entry.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.*]]: memref<?x4xf32>, %[[B:.*]]: memref<?x4xf32>, %[[C:.*]]: memref<?x4xf32>)
// CHECK-NOT: op_pattern
// CHECK: %[[N:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x4xf32>
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step (%{{.*}}) {
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:     %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<?x4xf32>
// CHECK:     %[[Y:.*]] = memref.load %[[B]][%[[I]], %[[J]]] : memref<?x4xf32>
// CHECK:     %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:     memref.store %[[S]], %[[C]][%[[I]], %[[J]]] : memref<?x4xf32>
// CHECK:   }
// CHECK:   scf.reduce
// CHECK: } {tir.loop_kind = "parallel", tir.loop_name = "i"}
// CHECK: return
// CHECK-NOT: tir.
tir.prim_func @add(%a: !tir.buffer<[n, 4], f32>, %b: !tir.buffer<[n, 4], f32>,
                   %c: !tir.buffer<[n, 4], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel name = "i" {
    tir.for %j = %c0 to %c4 step %c1 {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %x = tir.load %a[%vi, %vj] : !tir.buffer<[n, 4], f32>
        %y = tir.load %b[%vi, %vj] : !tir.buffer<[n, 4], f32>
        %s = arith.addf %x, %y : f32
        tir.store %s, %c[%vi, %vj] : !tir.buffer<[n, 4], f32>
      }
    }
  }
  tir.return
}

// The init runs under scf.if when every reduce variable is 0; the index
// parameter with tir.var provides k directly.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32>, %[[Y:.*]]: memref<?xf32>, %[[K:.*]]: index {tir.var = "k"})
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK-DAG: %[[M:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK:   scf.for %[[R:.*]] = %{{.*}} to %[[M]]
// CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[R]], %{{.*}} : index
// CHECK:     scf.if %[[FIRST]] {
// CHECK:       memref.store %{{.*}}, %[[Y]][%[[I]]] : memref<?xf32>
// CHECK:     }
// CHECK:     memref.load %[[Y]][%[[I]]]
// CHECK:     memref.load %[[X]][%[[I]], %[[R]]]
// CHECK:   } {tir.loop_kind = "unrolled"}
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]]
// CHECK: } {tir.loop_kind = "vectorized"}
tir.prim_func @row_sum(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>,
                       %k: index {tir.var = "k"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %kv = tir.sym_var "k" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %r = %c0 to %m step %c1 kind = unrolled {
      tir.block "sum" (%vi = %i, %vr = %r) kinds [spatial, reduce] {
        tir.init {
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %v = tir.load %x[%vi, %vr] : !tir.buffer<[n, m], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.for %v = %c0 to %kv step %c1 kind = vectorized {
    tir.store %zero, %y[%v] : !tir.buffer<[n], f32>
  }
  tir.return
}

// Local scratch is a stack allocation; global scratch is freed at the end
// of its region; shared scratch lives in GPU workgroup memory. Thread-bound
// loops carry the upstream mapping for --convert-parallel-loops-to-gpu.
// CHECK-LABEL: func.func @scratch
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>)
// CHECK: %[[N:.*]] = memref.dim %[[A]]
// CHECK: scf.parallel (%[[B:.*]]) =
// CHECK:   scf.parallel (%[[T:.*]]) =
// CHECK:     %[[L:.*]] = memref.alloca() : memref<1xf32>
// CHECK:     %[[S:.*]] = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK:     %[[SIZE:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:     %[[G:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK:     memref.load %[[L]]
// CHECK:     memref.store %{{.*}}, %[[S]][%[[T]]]
// CHECK:     memref.store %{{.*}}, %[[G]][%[[T]]]
// CHECK:     memref.dealloc %[[S]]
// CHECK:     memref.dealloc %[[G]]
// CHECK:     scf.reduce
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], tir.loop_kind = "thread_binding"}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], tir.loop_kind = "thread_binding"}
tir.prim_func @scratch(%a: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tir.for %b = %c0 to %c1 step %c1 kind = thread_binding thread = "blockIdx.x" {
    tir.for %t = %c0 to %c32 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %l = tir.alloc : !tir.buffer<[1], f32, local>
      %s = tir.alloc : !tir.buffer<[32], f32, shared>
      %g = tir.alloc : !tir.buffer<[n * 4], f32>
      %v = tir.load %l[%c0] : !tir.buffer<[1], f32, local>
      tir.store %v, %s[%t] : !tir.buffer<[32], f32, shared>
      tir.store %v, %g[%t] : !tir.buffer<[n * 4], f32>
    }
  }
  tir.return
}

// A local buffer in a serial loop gets one stack slot at entry instead of
// an alloca per iteration.
// CHECK-LABEL: func.func @hoist_local
// CHECK: %[[L:.*]] = memref.alloca() : memref<4xf32>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK:   memref.store %{{.*}}, %[[L]]
tir.prim_func @hoist_local(%a: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 {
    %l = tir.alloc : !tir.buffer<[4], f32, local>
    %v = tir.load %a[%i] : !tir.buffer<[n], f32>
    tir.store %v, %l[%c0] : !tir.buffer<[4], f32, local>
  }
  tir.return
}
