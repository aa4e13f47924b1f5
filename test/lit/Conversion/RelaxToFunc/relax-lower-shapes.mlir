// RUN: relax-opt --relax-lower-shapes %s | FileCheck %s

// Golden test of the host lowering: relax functions become func.func over
// memrefs (parameters fully dynamic), symbolic variables become the
// memref.dim of their binding occurrence, every other dim is checked at run
// time (the message goes to relax_rt_shape_error, the function returns
// poison), outputs are allocated from the symbolic shapes, tir_vars become
// index arguments, and buffers not returned are freed. The callees are
// already-lowered func.func programs, as after convert-tir-to-scf.
// Run-time behaviour of the same checks: test/lit/E2E/shape-checks.mlir.

// The check messages, one global each (the names carry a counter).
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG_X:__relax_msg_[0-9]+]]("main: argument 'x' dim 1: expected %2$lld, got %1$lld\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG_Y:__relax_msg_[0-9]+]]("main: argument #1 dim 0: expected n + 1 = %2$lld, got %1$lld\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG_OVF:__relax_msg_[0-9]+]]("main: argument #1 dim 0: n + 1: %lld + %lld overflows int64\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG_OOM:__relax_msg_[0-9]+]]("main: cannot allocate %lld bytes for output 0 of call_tir @add at relax-lower-shapes.mlir:{{[0-9]+}}:{{[0-9]+}} !relax.tensor<[n, 4], f32>: out of memory\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG_RANK:__relax_msg_[0-9]+]]("main: match_cast at relax-lower-shapes.mlir:{{[0-9]+}}:{{[0-9]+}}: expected rank %2$lld, got %1$lld\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG_N:__relax_msg_[0-9]+]]("main: n = %2$lld from 'x' dim 0, but match_cast at relax-lower-shapes.mlir:{{[0-9]+}}:{{[0-9]+}} dim 1 = n is %1$lld\00")
// CHECK-DAG: memref.global "private" constant @[[CONST:__relax_const_[0-9]+]] : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// Library calls go through the C interface under their link names.
// CHECK-DAG: func.func private @relax_copy(memref<?xf32>, memref<?xf32>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @relax_rt_shape_error(!llvm.ptr, i64, i64)
// CHECK-NOT: extern.func
// CHECK-NOT: relax.func

func.func private @add(memref<?x4xf32>, memref<?x4xf32>, memref<?x4xf32>)
func.func private @pad(memref<?xf32>, memref<?xf32>, index)
func.func private @scale(memref<?x?xf32>, memref<?x?xf32>)
extern.func private @ext_copy(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "relax_copy", num_outputs = 1 : i64}

// A tuple result is flattened into the function's results.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32>, %[[Y:.*]]: memref<?xf32>, %[[U:.*]]: memref<*xf32>) -> (memref<?x4xf32>, memref<?xf32>, memref<?x?xf32>)
// n is bound by x's dim 0; x's static dim 1 and y's n + 1 are checked, the
// failures joined into one branch to the failure exit.
// CHECK: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[X1:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[BAD_X:.*]] = arith.cmpi ne, %[[X1]], %[[C4]] : index
// CHECK: scf.if %[[BAD_X]] {
// CHECK: llvm.mlir.addressof @[[MSG_X]]
// CHECK: func.call @relax_rt_shape_error(
// CHECK: }
// n + 1 is computed overflow-checked in i64 (a sum overflows when it differs
// in sign from both operands); that failure joins the others.
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[SUM:.*]] = arith.addi %[[N64]], %{{.*}} : i64
// CHECK: %[[OVF:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: scf.if %[[OVF]] {
// CHECK: llvm.mlir.addressof @[[MSG_OVF]]
// CHECK: %[[BAD_XO:.*]] = arith.ori %[[BAD_X]], %[[OVF]] : i1
// CHECK: %[[N1:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK: %[[Y0:.*]] = memref.dim %[[Y]], %{{.*}} : memref<?xf32>
// CHECK: %[[BAD_Y:.*]] = arith.cmpi ne, %[[Y0]], %[[N1]] : index
// CHECK: scf.if %[[BAD_Y]] {
// CHECK: llvm.mlir.addressof @[[MSG_Y]]
// CHECK: %[[BAD:.*]] = arith.ori %[[BAD_XO]], %[[BAD_Y]] : i1
// CHECK: cf.cond_br %[[BAD]], ^[[FAIL:.*]], ^[[OK:.*]]
// CHECK: ^[[OK]]:
// The shape_of without uses is dropped; the dataflow region is inlined;
// the output of `add` is allocated with n rows, after its byte size n * 4 * 4
// is checked (mulsi_extended: the high half must be the low half's sign); a
// null pointer from the allocator takes the failure exit (checks after it
// take exits that free the buffer first).
// CHECK-NOT: shape_of
// CHECK: %[[XS:.*]] = memref.cast %[[X]] : memref<?x?xf32> to memref<?x4xf32>
// CHECK: arith.mulsi_extended %{{.*}}, %{{.*}} : i64
// CHECK: cf.cond_br %{{.*}}, ^[[FAIL]], ^{{.*}}
// CHECK: %[[A:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[A]] : memref<?x4xf32> -> index
// CHECK: %[[NULL:.*]] = arith.cmpi eq, %[[PTR]], %{{.*}} : index
// CHECK: scf.if %[[NULL]] {
// CHECK: llvm.mlir.addressof @[[MSG_OOM]]
// CHECK: cf.cond_br %[[NULL]], ^[[FAIL]], ^{{.*}}
// CHECK: call @add(%[[XS]], %[[XS]], %[[A]]) : (memref<?x4xf32>, memref<?x4xf32>, memref<?x4xf32>) -> ()
// tir_vars: n + 2 is computed and passed after the output.
// CHECK: %[[N2:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK: %[[P:.*]] = memref.alloc(%[[N2]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK: %[[TV:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK: call @pad(%[[Y]], %[[P]], %[[TV]]) : (memref<?xf32>, memref<?xf32>, index) -> ()
// CHECK: %[[Q:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: call @relax_copy(%[[P]], %[[Q]]) : (memref<?xf32>, memref<?xf32>) -> ()
// The library's error slot is tested first; then `pad`'s output, read by
// nothing later, is freed at once (free-after-last-use), not at return.
// CHECK: call @relax_rt_has_error()
// CHECK: cf.cond_br
// CHECK-NEXT: ^{{.*}}:
// CHECK-NEXT: memref.dealloc %[[P]] : memref<?xf32>
// match_cast of the unknown-rank u: the rank is checked first, on its own
// branch, then k binds from dim 0 and dim 1 is checked against n.
// CHECK: %[[RANK:.*]] = memref.rank %[[U]] : memref<*xf32>
// CHECK: %[[BAD_R:.*]] = arith.cmpi ne, %[[RANK]], %{{.*}} : index
// CHECK: llvm.mlir.addressof @[[MSG_RANK]]
// CHECK: cf.cond_br %[[BAD_R]], ^[[FREE3:.*]], ^[[OK2:.*]]
// CHECK: ^[[OK2]]:
// CHECK: %[[US:.*]] = memref.cast %[[U]] : memref<*xf32> to memref<?x?xf32>
// CHECK: %[[K:.*]] = memref.dim %[[US]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[U1:.*]] = memref.dim %[[US]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[BAD_N:.*]] = arith.cmpi ne, %[[U1]], %[[N]] : index
// CHECK: llvm.mlir.addressof @[[MSG_N]]
// CHECK: cf.cond_br %[[BAD_N]], ^[[FREE3]], ^[[OK3:.*]]
// CHECK: ^[[OK3]]:
// CHECK: %[[D:.*]] = memref.alloc(%[[K]], %[[N]]) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK: call @scale(%[[US]], %[[D]])
// The three results escape: nothing is left to free before returning.
// CHECK-NOT: memref.dealloc
// CHECK: return %[[A]], %[[Q]], %[[D]] : memref<?x4xf32>, memref<?xf32>, memref<?x?xf32>
// The failure exit returns poison; the exits of later checks free the
// buffers allocated before them, then branch there.
// CHECK: ^[[FAIL]]:
// CHECK: %[[P0:.*]] = ub.poison : memref<?x4xf32>
// CHECK: %[[P1:.*]] = ub.poison : memref<?xf32>
// CHECK: %[[P2:.*]] = ub.poison : memref<?x?xf32>
// CHECK: return %[[P0]], %[[P1]], %[[P2]]
// (`pad`'s output was freed after its last reader: not again here.)
// CHECK: ^[[FREE3]]:
// CHECK-NEXT: memref.dealloc %[[A]] : memref<?x4xf32>
// CHECK-NEXT: memref.dealloc %[[Q]] : memref<?xf32>
// CHECK-NEXT: cf.br ^[[FAIL]]
relax.func @main(%x: !relax.tensor<[n, 4], f32> {relax.name = "x"},
                 %y: !relax.tensor<[n + 1], f32>,
                 %u: !relax.tensor<*, f32> {relax.name = "u"})
    -> tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n + 2], f32>, !relax.tensor<[k, n], f32>> {
  %s = relax.shape_of %x : !relax.tensor<[n, 4], f32>
  %0 = relax.dataflow -> !relax.tensor<[n, 4], f32> {
    %a = relax.call_tir @add(%x, %x) : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    relax.output %a : !relax.tensor<[n, 4], f32>
  }
  %p = relax.call_tir @pad(%y) tir_vars(#relax.shape<[n + 2]>) : (!relax.tensor<[n + 1], f32>) -> !relax.tensor<[n + 2], f32>
  %q = relax.call_dps_packed @ext_copy(%p) : (!relax.tensor<[n + 2], f32>) -> !relax.tensor<[n + 2], f32>
  %c = relax.match_cast %u : !relax.tensor<*, f32> to !relax.tensor<[k, n], f32>
  %d = relax.call_tir @scale(%c) : (!relax.tensor<[k, n], f32>) -> !relax.tensor<[k, n], f32>
  %t = relax.tuple %0, %q, %d : !relax.tensor<[n, 4], f32>, !relax.tensor<[n + 2], f32>, !relax.tensor<[k, n], f32>
  relax.return %t : tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n + 2], f32>, !relax.tensor<[k, n], f32>>
}

// Calls between relax functions pass the fully dynamic form the callee's
// parameters have; the callee's result is owned and freed by the caller when
// it does not escape. Constants become memref globals; tuple_get_item on a
// relax.tuple forwards the field.
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32>) -> memref<2xf32>
// CHECK: cf.cond_br %{{.*}}, ^[[FAIL:.*]], ^[[OK:.*]]
// CHECK: ^[[OK]]:
// CHECK: %[[XS:.*]] = memref.cast %[[X]] : memref<?x?xf32> to memref<?x4xf32>
// CHECK: %[[K:.*]] = memref.get_global @[[CONST]] : memref<2xf32>
// CHECK: %[[XD:.*]] = memref.cast %[[XS]] : memref<?x4xf32> to memref<?x?xf32>
// CHECK: %[[R:.*]] = call @helper(%[[XD]]) : (memref<?x?xf32>) -> memref<?x4xf32>
// CHECK: memref.dealloc %[[R]] : memref<?x4xf32>
// CHECK: return %[[K]] : memref<2xf32>
// CHECK: ^[[FAIL]]:
// CHECK: ub.poison : memref<2xf32>
relax.func @caller(%x: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[2], f32> {
  %k = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = relax.call @helper(%x) : (!relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32>
  %t = relax.tuple %r, %k : !relax.tensor<[m, 4], f32>, !relax.tensor<[2], f32>
  %g = relax.tuple_get_item %t[1] : tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[2], f32>>
  relax.return %g : !relax.tensor<[2], f32>
}

// Visibility is kept.
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %{{.*}}: memref<?x?xf32>) -> memref<?x4xf32>
relax.func private @helper(%x: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32> {
  %a = relax.call_tir @add(%x, %x) : (!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32>
  relax.return %a : !relax.tensor<[m, 4], f32>
}

// Static dims only: still checked against the caller's descriptor.
// CHECK-LABEL: func.func @static_only(
// CHECK-SAME: %[[X:.*]]: memref<?x?xi32>) -> memref<2x3xi32>
// CHECK-COUNT-2: arith.cmpi ne
// CHECK: %[[XS:.*]] = memref.cast %[[X]] : memref<?x?xi32> to memref<2x3xi32>
// CHECK: return %[[XS]] : memref<2x3xi32>
relax.func @static_only(%x: !relax.tensor<[2, 3], i32>) -> !relax.tensor<[2, 3], i32> {
  relax.return %x : !relax.tensor<[2, 3], i32>
}
