// --relax-dispatch-library (target=cuda, library-gemms=all: every product,
// whatever its size) then --lower-to-gpu: the matmuls become host calls of
// the runtime's cuBLAS built-ins on device buffers (convert-host-memory-to-gpu
// lets relax_cublas_* take them), the rest becomes kernels. run-cublas-dispatch.test runs it on a GPU.
// RUN: relax-opt %s --relax-dispatch-library="target=cuda library-gemms=all" --lower-to-gpu | FileCheck %s
// CHECK-DAG: llvm.call @_mlir_ciface_relax_cublas_matmul_f32
// CHECK-DAG: llvm.call @_mlir_ciface_relax_cublas_batch_matmul_bcast_nt_f16
// CHECK-DAG: gpu.launch_func {{.*}}@T_add_kernel
// CHECK-DAG: gpu.binary @T_add_kernel
// Without the dispatch the same module is all kernels.
// RUN: relax-opt %s --lower-to-gpu | FileCheck %s --check-prefix=NODISPATCH
// A kernel format other than isa, bin and fatbin is rejected when the
// pipeline is parsed.
// RUN: ! relax-opt %s --lower-to-gpu=format=cubin 2> %t.format
// RUN: FileCheck %s --check-prefix=FORMAT < %t.format
// FORMAT: for the --format option: Cannot find option named 'cubin'!
// NODISPATCH-NOT: relax_cublas
// NODISPATCH: gpu.binary

relax.func @main(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[k, m], f32>,
                 %x: !relax.tensor<[s, n, k], f16>, %w: !relax.tensor<[m, k], f16>)
    -> (!relax.tensor<[n, m], f32>, !relax.tensor<[s, n, m], f16>) {
  %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
  %d = relax.add %c, %c : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[s, n, k], f16>, !relax.tensor<[m, k], f16>) -> !relax.tensor<[s, n, m], f16>
  relax.return %d, %y : !relax.tensor<[n, m], f32>, !relax.tensor<[s, n, m], f16>
}
