// RUN: relax-opt --relax-emit-shape-functions %s | FileCheck %s
// RUN: relax-opt --relax-emit-shape-functions=entries=inner %s | FileCheck %s --check-prefix=LISTED

// One shape function per public relax function: the symbols (variables of
// the parameter dims, first occurrence first) are read from the first
// pointer; every dim of every ranked parameter leaf, then of every result
// leaf (tuples flattened) is written to the second: computed with the
// checked arithmetic (INT64_MIN where it fails, counted in the result), -1
// where unknown before the call.

// CHECK-LABEL: relax.func @main
// CHECK-LABEL: func.func @main__shapes(
// CHECK-SAME: %[[SYMS:.*]]: !llvm.ptr, %[[DIMS:.*]]: !llvm.ptr) -> i32 attributes {relax.shape_function_of = "main"}
// n, then k.
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[SYMS]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[N64:.*]] = llvm.load %[[P0]] : !llvm.ptr -> i64
// CHECK: %[[N:.*]] = arith.index_cast %[[N64]] : i64 to index
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[SYMS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[K64:.*]] = llvm.load %[[P1]] : !llvm.ptr -> i64
// CHECK: %[[K:.*]] = arith.index_cast %[[K64]] : i64 to index
// CHECK: %[[NOVALUE:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: %[[UNKNOWN:.*]] = arith.constant -1 : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// dims[0] = n * 4, overflow-checked.
// CHECK: %[[LO:.*]], %[[HI:.*]] = arith.mulsi_extended
// CHECK: %[[OVER:.*]] = arith.cmpi ne, %[[HI]]
// CHECK: %[[MUL:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK: %[[MUL64:.*]] = arith.index_cast %[[MUL]] : index to i64
// CHECK: %[[D0:.*]] = arith.select %[[OVER]], %[[NOVALUE]], %[[MUL64]] : i64
// CHECK: %[[FAIL0:.*]] = arith.extui %[[OVER]] : i1 to i32
// CHECK: %[[COUNT0:.*]] = arith.addi %[[ZERO]], %[[FAIL0]] : i32
// CHECK: %[[Q0:.*]] = llvm.getelementptr %[[DIMS]][0]
// CHECK: llvm.store %[[D0]], %[[Q0]] : i64, !llvm.ptr
// dims[1] = (k + 31) floordiv 32, with a safe divisor.
// CHECK: arith.addi %[[K]], %{{.*}} : index
// CHECK: %[[DIV:.*]] = arith.floordivsi
// CHECK: %[[DIV64:.*]] = arith.index_cast %[[DIV]] : index to i64
// CHECK: %[[D1:.*]] = arith.select %{{.*}}, %[[NOVALUE]], %[[DIV64]] : i64
// CHECK: %[[Q1:.*]] = llvm.getelementptr %[[DIMS]][1]
// CHECK: llvm.store %[[D1]], %[[Q1]]
// dims[2], dims[3] = n, k: nothing to check.
// CHECK: %[[D2:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NOT: arith.select
// CHECK: %[[Q2:.*]] = llvm.getelementptr %[[DIMS]][2]
// CHECK: llvm.store %[[D2]], %[[Q2]]
// CHECK: %[[D3:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK: %[[Q3:.*]] = llvm.getelementptr %[[DIMS]][3]
// CHECK: llvm.store %[[D3]], %[[Q3]]
// The tuple parameter's leaves: [n + 1, ?] (dims 4 and 5), then the
// unranked leaf, which has none.
// CHECK: arith.addi %[[N]], %{{.*}} : index
// CHECK: %[[Q4:.*]] = llvm.getelementptr %[[DIMS]][4]
// CHECK: %[[Q5:.*]] = llvm.getelementptr %[[DIMS]][5]
// CHECK: llvm.store %[[UNKNOWN]], %[[Q5]]
// The results: [n * 4, (k + 31) floordiv 32] (6, 7), [m, k] with m bound
// inside (8, 9).
// CHECK: llvm.getelementptr %[[DIMS]][6]
// CHECK: llvm.getelementptr %[[DIMS]][7]
// CHECK: %[[Q8:.*]] = llvm.getelementptr %[[DIMS]][8]
// CHECK: llvm.store %[[UNKNOWN]], %[[Q8]]
// CHECK: %[[D9:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK: %[[Q9:.*]] = llvm.getelementptr %[[DIMS]][9]
// CHECK: llvm.store %[[D9]], %[[Q9]]
// CHECK-NOT: llvm.getelementptr %[[DIMS]]
// CHECK: return %{{.*}} : i32
relax.func @main(%y: !relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, %x: !relax.tensor<[n, k], f32>, %c: tuple<!relax.tensor<[n + 1, ?], i32>, !relax.tensor<*, f32>>) -> tuple<!relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, !relax.tensor<[m, k], f32>> attributes {sym_bounds = {m = array<i64: 0, 64>}} {
  %z = relax.match_cast %x : !relax.tensor<[n, k], f32> to !relax.tensor<[m, k], f32>
  %t = relax.tuple %y, %z : !relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, !relax.tensor<[m, k], f32>
  relax.return %t : tuple<!relax.tensor<[n * 4, (k + 31) floordiv 32], f32>, !relax.tensor<[m, k], f32>>
}

// Static dims only: no symbols are read, the constants are written.
// CHECK-LABEL: func.func @fixed__shapes(
// CHECK-NOT: llvm.load
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[C4_64:.*]] = arith.index_cast %[[C4]] : index to i64
// CHECK: llvm.store %[[C4_64]]
// CHECK: return %{{.*}} : i32
relax.func @fixed(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %x : !relax.tensor<[4], f32>
}

// A private function is not an entry; `entries` picks the ones named.
// CHECK-NOT: func.func @inner__shapes
// LISTED-NOT: func.func @main__shapes
// LISTED-NOT: func.func @fixed__shapes
// LISTED: func.func @inner__shapes
relax.func private @inner(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  relax.return %x : !relax.tensor<[n], f32>
}
