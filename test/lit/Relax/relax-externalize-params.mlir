// RUN: relax-opt %s --relax-legalize-ops --convert-tir-to-scf --relax-lower-shapes --relax-externalize-params="min-bytes=1024 file=%t.params" | FileCheck %s
// RUN: FileCheck %s --check-prefix=FILE < %t.params
// RUN: relax-opt %s --relax-legalize-ops --convert-tir-to-scf --relax-lower-shapes --relax-externalize-params > %t.err1 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NOFILE < %t.err1
// RUN: relax-opt %s --relax-legalize-ops --convert-tir-to-scf --relax-lower-shapes --relax-externalize-params="file=%t.missing/dir/p.params" > %t.err2 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NODIR < %t.err2

// Constants of at least 1 KiB become public, uninitialized globals named
// __relax_param_<k>, read where they were; smaller ones stay.
// CHECK-DAG: memref.global @[[W:__relax_param_[01]]] : memref<256x2xf32> = uninitialized {alignment = 64 : i64}
// CHECK-DAG: memref.global @[[K:__relax_param_[01]]] : memref<512xi32> = uninitialized
// CHECK-DAG: memref.global "private" constant @__relax_const_{{[0-9]+}} : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-LABEL: func.func @main(
// CHECK: memref.get_global @[[W]] : memref<256x2xf32>
// CHECK: memref.get_global @[[K]] : memref<512xi32>

// The splats are written out in full, in module order.
// FILE: "__relax_param_0":{"data_offsets":[0,2048],"dtype":"I32","shape":[512]}
// FILE-SAME: "__relax_param_1":{"data_offsets":[2048,4096],"dtype":"F32","shape":[256,2]}

// NOFILE: error: --relax-externalize-params needs file=<path> to write the parameters to
// NODIR: error: cannot write {{.*}}missing/dir/p.params
relax.func @main(%x: !relax.tensor<[n, 256, 2], f32>, %i: !relax.tensor<[n, 512], i32>, %z: !relax.tensor<[n, 2], f32>)
    -> (!relax.tensor<[n, 256, 2], f32>, !relax.tensor<[n, 512], i32>, !relax.tensor<[n, 2], f32>) {
  %w = relax.constant dense<2.0> : tensor<256x2xf32>
  %k = relax.constant dense<3> : tensor<512xi32>
  %s = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = relax.add %x, %w : (!relax.tensor<[n, 256, 2], f32>, !relax.tensor<[256, 2], f32>) -> !relax.tensor<[n, 256, 2], f32>
  %j = relax.add %i, %k : (!relax.tensor<[n, 512], i32>, !relax.tensor<[512], i32>) -> !relax.tensor<[n, 512], i32>
  %t = relax.add %z, %s : (!relax.tensor<[n, 2], f32>, !relax.tensor<[2], f32>) -> !relax.tensor<[n, 2], f32>
  relax.return %y, %j, %t : !relax.tensor<[n, 256, 2], f32>, !relax.tensor<[n, 512], i32>, !relax.tensor<[n, 2], f32>
}
