// RUN: relax-opt %s --convert-tir-to-linalg | FileCheck %s
// RUN: relax-opt %s --convert-tir-to-linalg=explain=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: relax-opt %s --convert-tir-to-linalg --convert-tir-to-scf | FileCheck %s --check-prefix=SCF

// The indexing maps, printed first.
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ZERO:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[RED:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[FIRST:.*]] = affine_map<(d0) -> (d0, 0)>
// CHECK-DAG: #[[ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MMOUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[SHIFT:.*]] = affine_map<(d0) -> (d0 + 2)>
// CHECK-DAG: #[[STRIDE:.*]] = affine_map<(d0) -> (d0 * 2)>

// Elementwise over symbolic dims: identity maps, parallel iterators; the
// buffers are cast to the memrefs convert-tir-to-scf gives them.
// CHECK-LABEL: tir.prim_func @add
// CHECK-DAG: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 : !tir.buffer<[n, m], f32> to memref<?x?xf32>
// CHECK-DAG: %[[B:.*]] = builtin.unrealized_conversion_cast %arg1 : !tir.buffer<[n, m], f32> to memref<?x?xf32>
// CHECK-DAG: %[[C:.*]] = builtin.unrealized_conversion_cast %arg2 : !tir.buffer<[n, m], f32> to memref<?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : memref<?x?xf32>, memref<?x?xf32>) outs(%[[C]] : memref<?x?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   linalg.yield %[[S]] : f32
// CHECK-NOT: tir.for
// CHECK: tir.return
// SCF-LABEL: func.func @add
// SCF-SAME: (%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>)
// SCF-NOT: unrealized_conversion_cast
// SCF: linalg.generic {{.*}} ins(%[[A]], %[[B]] : memref<?x?xf32>, memref<?x?xf32>) outs(%[[C]] : memref<?x?xf32>)
// SCF-NOT: unrealized_conversion_cast
// SCF: return
tir.prim_func @add(%a: !tir.buffer<[n, m], f32>, %b: !tir.buffer<[n, m], f32>,
                   %c: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %x = tir.load %a[%vi, %vj] : !tir.buffer<[n, m], f32>
        %y = tir.load %b[%vi, %vj] : !tir.buffer<[n, m], f32>
        %s = arith.addf %x, %y : f32
        tir.store %s, %c[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// Broadcasts: a dropped dim and a constant index into a size-1 dim.
// CHECK-LABEL: tir.prim_func @broadcast
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]], #[[ZERO]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<?x?xf32>, memref<?xf32>, memref<1x?xf32>)
tir.prim_func @broadcast(%a: !tir.buffer<[n, m], f32>, %b: !tir.buffer<[m], f32>,
                         %d: !tir.buffer<[1, m], f32>, %c: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "bcast" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %x = tir.load %a[%vi, %vj] : !tir.buffer<[n, m], f32>
        %y = tir.load %b[%vj] : !tir.buffer<[m], f32>
        %z = tir.load %d[%c0, %vj] : !tir.buffer<[1, m], f32>
        %s = arith.addf %x, %y : f32
        %t = arith.mulf %s, %z : f32
        tir.store %t, %c[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// A reduction with init: the init becomes a fill before the reduction; the
// output read at its store's indices is the accumulator.
// CHECK-LABEL: tir.prim_func @sum
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[OUT:.*]] = builtin.unrealized_conversion_cast %arg1 : !tir.buffer<[n], f32> to memref<?xf32>
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[OUT]] : memref<?xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[RED]]], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : memref<?x?xf32>) outs(%[[OUT]] : memref<?xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[ADD:.*]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT:   linalg.yield %[[ADD]] : f32
tir.prim_func @sum(%a: !tir.buffer<[n, m], f32>, %out: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %k = %c0 to %m step %c1 {
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %out[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %out[%vi] : !tir.buffer<[n], f32>
        %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, m], f32>
        %s = arith.addf %acc, %x : f32
        tir.store %s, %out[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// An init that is not a constant (the first element of the row) stays a
// generic over the parallel loops only; a max reduction.
// CHECK-LABEL: tir.prim_func @row_max
// CHECK: linalg.generic {indexing_maps = [#[[FIRST]], #[[ID1]]], iterator_types = ["parallel"]}
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[RED]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
tir.prim_func @row_max(%a: !tir.buffer<[n, m], f32>, %out: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %k = %c0 to %m step %c1 {
      tir.block "max" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          %first = tir.load %a[%vi, %c0] : !tir.buffer<[n, m], f32>
          tir.store %first, %out[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %out[%vi] : !tir.buffer<[n], f32>
        %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, m], f32>
        %s = arith.maximumf %acc, %x : f32
        tir.store %s, %out[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// C[i, j] += A[i, k] * B[k, j] with symbolic n, k, m: linalg.matmul after
// the fill of its init.
// CHECK-LABEL: tir.prim_func @matmul
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[MC:.*]] : memref<?x?xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<?x?xf32>, memref<?x?xf32>) outs(%[[MC]] : memref<?x?xf32>)
// CHECK-NOT: linalg.generic
// CHECK: tir.return
tir.prim_func @matmul(%a: !tir.buffer<[n, k], f32>, %b: !tir.buffer<[k, m], f32>,
                      %c: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %n step %c1 kind = parallel {
    tir.for %j = %c0 to %m step %c1 {
      tir.for %r = %c0 to %k step %c1 {
        tir.block "matmul" (%vi = %i, %vj = %j, %vk = %r) kinds [spatial, spatial, reduce] {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %c[%vi, %vj] : !tir.buffer<[n, m], f32>
          }
          %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, k], f32>
          %y = tir.load %b[%vk, %vj] : !tir.buffer<[k, m], f32>
          %acc = tir.load %c[%vi, %vj] : !tir.buffer<[n, m], f32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          tir.store %s, %c[%vi, %vj] : !tir.buffer<[n, m], f32>
        }
      }
    }
  }
  tir.return
}

// A batch dim on all three operands, i32, loops in i, k, j order:
// linalg.batch_matmul (the order of the loops does not matter to it).
// CHECK-LABEL: tir.prim_func @batch_matmul
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : memref<?x?x8xi32>, memref<?x8x?xi32>) outs(%{{.*}} : memref<?x?x?xi32>)
tir.prim_func @batch_matmul(%a: !tir.buffer<[b, n, 8], i32>, %w: !tir.buffer<[b, 8, m], i32>,
                            %c: !tir.buffer<[b, n, m], i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %bs = tir.sym_var "b" : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %q = %c0 to %bs step %c1 {
    tir.for %i = %c0 to %n step %c1 {
      tir.for %r = %c0 to %c8 step %c1 {
        tir.for %j = %c0 to %m step %c1 {
          tir.block "bmm" (%vb = %q, %vi = %i, %vj = %j, %vk = %r) kinds [spatial, spatial, spatial, reduce] {
            %x = tir.load %a[%vb, %vi, %vk] : !tir.buffer<[b, n, 8], i32>
            %y = tir.load %w[%vb, %vk, %vj] : !tir.buffer<[b, 8, m], i32>
            %acc = tir.load %c[%vb, %vi, %vj] : !tir.buffer<[b, n, m], i32>
            %p = arith.muli %y, %x : i32
            %s = arith.addi %p, %acc : i32
            tir.store %s, %c[%vb, %vi, %vj] : !tir.buffer<[b, n, m], i32>
          }
        }
      }
    }
  }
  tir.return
}

// A product accumulated in a wider type is not linalg.matmul (which would
// extend differently): a generic with the casts in its body.
// CHECK-LABEL: tir.prim_func @matmul_f16_acc_f32
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[MMOUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.extf
tir.prim_func @matmul_f16_acc_f32(%a: !tir.buffer<[n, k], f16>, %b: !tir.buffer<[k, m], f16>,
                                  %c: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.for %r = %c0 to %k step %c1 {
        tir.block "mm" (%vi = %i, %vj = %j, %vk = %r) kinds [spatial, spatial, reduce] {
          %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, k], f16>
          %y = tir.load %b[%vk, %vj] : !tir.buffer<[k, m], f16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %acc = tir.load %c[%vi, %vj] : !tir.buffer<[n, m], f32>
          %p = arith.mulf %xf, %yf : f32
          %s = arith.addf %acc, %p : f32
          tir.store %s, %c[%vi, %vj] : !tir.buffer<[n, m], f32>
        }
      }
    }
  }
  tir.return
}

// Affine but not bare indices: a slice starting at 2 and a stride of 2
// (loop extents from the output, whose dims the loops index directly); an
// iteration variable used as a value becomes linalg.index.
// CHECK-LABEL: tir.prim_func @slice_iota
// CHECK: linalg.generic {indexing_maps = [#[[SHIFT]], #[[STRIDE]], #[[ID1]]], iterator_types = ["parallel"]}
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: arith.index_cast %[[I]] : index to i32
tir.prim_func @slice_iota(%x: !tir.buffer<[n + 2], i32>, %z: !tir.buffer<[2 * n], i32>,
                          %y: !tir.buffer<[n], i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.block "slice" (%vi = %i) kinds [spatial] {
      %j = arith.addi %vi, %c2 : index
      %v = tir.load %x[%j] : !tir.buffer<[n + 2], i32>
      %k = arith.muli %vi, %c2 : index
      %w = tir.load %z[%k] : !tir.buffer<[2 * n], i32>
      %iv = arith.index_cast %vi : index to i32
      %s = arith.addi %v, %iv : i32
      %t = arith.addi %s, %w : i32
      tir.store %t, %y[%vi] : !tir.buffer<[n], i32>
    }
  }
  tir.return
}

// Non-affine accesses stay tir, for convert-tir-to-scf: a gather whose index
// is loaded data, and a loop covering only part of the buffer it indexes
// directly (linalg would take the whole dim).
// CHECK-LABEL: tir.prim_func @gather
// CHECK-NOT: linalg.
// CHECK: tir.block "take"
// CHECK-LABEL: tir.prim_func @partial
// CHECK-NOT: linalg.
// CHECK: tir.block "partial"
// EXPLAIN: remark: stays tir: a load index is not affine in the loops
// EXPLAIN: remark: stays tir: a loop's extent is not the size of a buffer dim it indexes
// EXPLAIN-NOT: remark
// SCF-LABEL: func.func @gather
// SCF: scf.for
// SCF: memref.load
tir.prim_func @gather(%x: !tir.buffer<[n, m], f32>, %idx: !tir.buffer<[t], i64>,
                      %y: !tir.buffer<[t, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tir.sym_var "t" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %t step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "take" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %r = tir.load %idx[%vi] : !tir.buffer<[t], i64>
        %ri = arith.index_cast %r : i64 to index
        %v = tir.load %x[%ri, %vj] : !tir.buffer<[n, m], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[t, m], f32>
      }
    }
  }
  tir.return
}

tir.prim_func @partial(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %e = arith.subi %n, %c1 : index
  tir.for %i = %c0 to %e step %c1 {
    tir.block "partial" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[n], f32>
      tir.store %v, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}
