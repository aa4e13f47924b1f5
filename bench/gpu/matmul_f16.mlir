// The f16 GEMM of bench/gpu/run.sh: x [m, k] times weights [n, k] (a
// linear, as in a transformer), f16 in and out, symbolic sizes.
// --lower-to-gpu schedules it on tensor cores (mma.sync m16n8k16, or on
// sm_90a wgmma m64n128k16, with f32
// accumulation, cp.async staging when k is a multiple of 8:
// TensorCoreMatmul.cpp); through --relax-dispatch-library="target=cuda
// library-gemms=all" the same module calls cuBLAS (relax_cublas_matmul_nt_f16,
// f32 accumulation).
relax.func @main(%a: !relax.tensor<[m, k], f16>, %b: !relax.tensor<[n, k], f16>)
    -> !relax.tensor<[m, n], f16> {
  %c = relax.linear %a, %b : (!relax.tensor<[m, k], f16>, !relax.tensor<[n, k], f16>) -> !relax.tensor<[m, n], f16>
  relax.return %c : !relax.tensor<[m, n], f16>
}
