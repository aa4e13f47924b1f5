// RUN: relax-opt --load-bools-as-bytes %s | FileCheck %s

// A scalar i1 load reads the byte and tests it against zero; the load's
// attributes (alignment, volatility) stay.
// CHECK-LABEL: llvm.func @scalar
// CHECK: %[[B:.*]] = llvm.load volatile %arg0 {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: %[[Z:.*]] = llvm.mlir.zero : i8
// CHECK: %[[T:.*]] = llvm.icmp "ne" %[[B]], %[[Z]] : i8
// CHECK: llvm.return %[[T]] : i1
llvm.func @scalar(%p: !llvm.ptr) -> i1 {
  %b = llvm.load volatile %p {alignment = 1 : i64} : !llvm.ptr -> i1
  llvm.return %b : i1
}

// A vector of i1: a vector of bytes, compared lane by lane.
// CHECK-LABEL: llvm.func @vector
// CHECK: %[[B:.*]] = llvm.load %arg0 {alignment = 1 : i64} : !llvm.ptr -> vector<8xi8>
// CHECK: %[[Z:.*]] = llvm.mlir.zero : vector<8xi8>
// CHECK: llvm.icmp "ne" %[[B]], %[[Z]] : vector<8xi8>
llvm.func @vector(%p: !llvm.ptr) -> vector<8xi1> {
  %b = llvm.load %p {alignment = 1 : i64} : !llvm.ptr -> vector<8xi1>
  llvm.return %b : vector<8xi1>
}

// Other loads, and stores of i1 (written as 0 or 1), are left alone.
// CHECK-LABEL: llvm.func @others
// CHECK: llvm.load %arg0 : !llvm.ptr -> i8
// CHECK-NEXT: llvm.load %arg0 : !llvm.ptr -> f32
// CHECK-NEXT: llvm.store %arg1, %arg0 : i1, !llvm.ptr
llvm.func @others(%p: !llvm.ptr, %c: i1) -> i8 {
  %a = llvm.load %p : !llvm.ptr -> i8
  %f = llvm.load %p : !llvm.ptr -> f32
  llvm.store %c, %p : i1, !llvm.ptr
  llvm.return %a : i8
}

// Kernels of a gpu.module are rewritten like host code.
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.load %arg0 : !llvm.ptr -> i8
// CHECK: llvm.icmp "ne"
gpu.module @kernels {
  llvm.func @kernel(%p: !llvm.ptr) -> i1 {
    %b = llvm.load %p : !llvm.ptr -> i1
    llvm.return %b : i1
  }
}
