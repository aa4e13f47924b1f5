// The cuBLAS size rule (docs/gpu.md "Generated kernel or cuBLAS"):
// target=cuda's default, library-gemms=by-size, gives cuBLAS the products
// with M >= 256 rows (batch dims included), N >= 1024 and K >= 1024, each
// proven under the function's sym_bounds, that fuse with nothing; the rest
// stay relax.matmul / relax.linear for the generated kernels.
// library-gemms=all and =none force either way; the CPU's default is all.
// RUN: relax-opt %s --relax-dispatch-library=target=cuda | FileCheck %s
// RUN: relax-opt %s --relax-dispatch-library="target=cuda library-gemms=by-size" | FileCheck %s
// RUN: relax-opt %s --relax-dispatch-library="target=cuda library-gemms=all" | FileCheck %s --check-prefix=ALL
// RUN: relax-opt %s --relax-dispatch-library="target=cuda library-gemms=none" | FileCheck %s --check-prefix=NONE
// RUN: relax-opt %s --relax-dispatch-library | FileCheck %s --check-prefix=CPU
// RUN: relax-opt %s --relax-dispatch-library="target=cpu library-gemms=by-size" | FileCheck %s --check-prefix=CPU-RULE
// RUN: ! relax-opt %s --relax-dispatch-library="library-gemms=some" 2> %t.err
// RUN: FileCheck %s --check-prefix=BAD < %t.err
// BAD: for the --library-gemms option: Cannot find option named 'some'!

// ALL-COUNT-13: relax.call_dps_packed @relax_cublas_
// ALL-NOT: relax.call_dps_packed
// NONE-NOT: relax.call_dps_packed
// CPU-COUNT-8: relax.call_dps_packed @relax_blas_

// At the thresholds: 256 x 1024 x 1024 goes to cuBLAS.
// CHECK-LABEL: relax.func @at_threshold
// CHECK: relax.call_dps_packed @relax_cublas_matmul_f32(
// CPU-RULE-LABEL: relax.func @at_threshold
// CPU-RULE: relax.call_dps_packed @relax_blas_matmul_f32(
relax.func @at_threshold(%a: !relax.tensor<[256, 1024], f32>, %b: !relax.tensor<[1024, 1024], f32>) -> !relax.tensor<[256, 1024], f32> {
  %c = relax.matmul %a, %b : (!relax.tensor<[256, 1024], f32>, !relax.tensor<[1024, 1024], f32>) -> !relax.tensor<[256, 1024], f32>
  relax.return %c : !relax.tensor<[256, 1024], f32>
}

// One below each threshold: M = 255, N = 1023, K = 1023 stay generated.
// CHECK-LABEL: relax.func @below_threshold
// CHECK-NOT: relax.call_dps_packed
// CHECK-COUNT-3: relax.matmul
// CPU-RULE-LABEL: relax.func @below_threshold
// CPU-RULE-NOT: relax.call_dps_packed
relax.func @below_threshold(%a: !relax.tensor<[255, 1024], f32>, %b: !relax.tensor<[1024, 1024], f32>, %c: !relax.tensor<[256, 1024], f32>, %d: !relax.tensor<[1024, 1023], f32>, %e: !relax.tensor<[256, 1023], f32>, %f: !relax.tensor<[1023, 1024], f32>) -> (!relax.tensor<[255, 1024], f32>, !relax.tensor<[256, 1023], f32>, !relax.tensor<[256, 1024], f32>) {
  %m = relax.matmul %a, %b : (!relax.tensor<[255, 1024], f32>, !relax.tensor<[1024, 1024], f32>) -> !relax.tensor<[255, 1024], f32>
  %n = relax.matmul %c, %d : (!relax.tensor<[256, 1024], f32>, !relax.tensor<[1024, 1023], f32>) -> !relax.tensor<[256, 1023], f32>
  %k = relax.matmul %e, %f : (!relax.tensor<[256, 1023], f32>, !relax.tensor<[1023, 1024], f32>) -> !relax.tensor<[256, 1024], f32>
  relax.return %m, %n, %k : !relax.tensor<[255, 1024], f32>, !relax.tensor<[256, 1023], f32>, !relax.tensor<[256, 1024], f32>
}

// Batch dims count as rows: 2 x 128 rows of a batched f16 linear (no bias).
// CHECK-LABEL: relax.func @batched_rows
// CPU-RULE-LABEL: relax.func @batched_rows
// CHECK: relax.call_dps_packed @relax_cublas_batch_matmul_bcast_nt_f16(
relax.func @batched_rows(%x: !relax.tensor<[2, 128, 4096], f16>, %w: !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[2, 128, 4096], f16> {
  %y = relax.linear %x, %w : (!relax.tensor<[2, 128, 4096], f16>, !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[2, 128, 4096], f16>
  relax.return %y : !relax.tensor<[2, 128, 4096], f16>
}

// A symbolic M (the sequence length: 1 in decode) is not provably >= 256
// and stays generated; with sym_bounds s in [256, 8192] it is, and the
// product goes to cuBLAS. An upper bound below 256 keeps it generated.
// CHECK-LABEL: relax.func @symbolic_rows
// CHECK-NOT: relax.call_dps_packed
// CHECK: relax.linear
// CHECK-LABEL: relax.func @bounded_rows
// CHECK: relax.call_dps_packed @relax_cublas_matmul_nt_f16(
// CHECK-LABEL: relax.func @small_rows
// CHECK-NOT: relax.call_dps_packed
// CHECK: relax.linear
relax.func @symbolic_rows(%x: !relax.tensor<[s, 4096], f16>, %w: !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[s, 4096], f16> {
  %y = relax.linear %x, %w : (!relax.tensor<[s, 4096], f16>, !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[s, 4096], f16>
  relax.return %y : !relax.tensor<[s, 4096], f16>
}
relax.func @bounded_rows(%x: !relax.tensor<[s, 4096], f16>, %w: !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[s, 4096], f16> attributes {sym_bounds = {s = array<i64: 256, 8192>}} {
  %y = relax.linear %x, %w : (!relax.tensor<[s, 4096], f16>, !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[s, 4096], f16>
  relax.return %y : !relax.tensor<[s, 4096], f16>
}
relax.func @small_rows(%x: !relax.tensor<[s, 4096], f16>, %w: !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[s, 4096], f16> attributes {sym_bounds = {s = array<i64: 1, 255>}} {
  %y = relax.linear %x, %w : (!relax.tensor<[s, 4096], f16>, !relax.tensor<[4096, 4096], f16>) -> !relax.tensor<[s, 4096], f16>
  relax.return %y : !relax.tensor<[s, 4096], f16>
}

// Products that fuse stay generated whatever their size: a linear with a
// bias, a matmul whose only reader is an elementwise op (a unary op of its
// shape or a broadcasting binary op). Read by two ops, a product is its own
// kernel anyway: cuBLAS.
// CHECK-LABEL: relax.func @fusable
// CHECK-NOT: relax.call_dps_packed
// CHECK: relax.linear
// CHECK: relax.matmul
// CHECK: relax.gelu
// CHECK: relax.matmul
// CHECK: relax.add
// CHECK-LABEL: relax.func @two_readers
// CHECK: relax.call_dps_packed @relax_cublas_matmul_f32(
relax.func @fusable(%x: !relax.tensor<[512, 2048], f32>, %w: !relax.tensor<[2048, 2048], f32>, %bias: !relax.tensor<[2048], f32>) -> (!relax.tensor<[512, 2048], f32>, !relax.tensor<[512, 2048], f32>, !relax.tensor<[512, 2048], f32>) {
  %y = relax.linear %x, %w, %bias : (!relax.tensor<[512, 2048], f32>, !relax.tensor<[2048, 2048], f32>, !relax.tensor<[2048], f32>) -> !relax.tensor<[512, 2048], f32>
  %m = relax.matmul %x, %w : (!relax.tensor<[512, 2048], f32>, !relax.tensor<[2048, 2048], f32>) -> !relax.tensor<[512, 2048], f32>
  %g = relax.gelu %m : (!relax.tensor<[512, 2048], f32>) -> !relax.tensor<[512, 2048], f32>
  %p = relax.matmul %x, %w : (!relax.tensor<[512, 2048], f32>, !relax.tensor<[2048, 2048], f32>) -> !relax.tensor<[512, 2048], f32>
  %r = relax.add %p, %bias : (!relax.tensor<[512, 2048], f32>, !relax.tensor<[2048], f32>) -> !relax.tensor<[512, 2048], f32>
  relax.return %y, %g, %r : !relax.tensor<[512, 2048], f32>, !relax.tensor<[512, 2048], f32>, !relax.tensor<[512, 2048], f32>
}
relax.func @two_readers(%x: !relax.tensor<[512, 2048], f32>, %w: !relax.tensor<[2048, 2048], f32>) -> (!relax.tensor<[512, 2048], f32>, !relax.tensor<[512, 2048], f32>) {
  %m = relax.matmul %x, %w : (!relax.tensor<[512, 2048], f32>, !relax.tensor<[2048, 2048], f32>) -> !relax.tensor<[512, 2048], f32>
  %a = relax.exp %m : (!relax.tensor<[512, 2048], f32>) -> !relax.tensor<[512, 2048], f32>
  %b = relax.tanh %m : (!relax.tensor<[512, 2048], f32>) -> !relax.tensor<[512, 2048], f32>
  relax.return %a, %b : !relax.tensor<[512, 2048], f32>, !relax.tensor<[512, 2048], f32>
}

// A dequantized weight fuses into the generated kernel.
// CHECK-LABEL: relax.func @dequantized
// CHECK-NOT: relax.call_dps_packed
// CHECK: relax.dequantize
// CHECK: relax.linear
relax.func @dequantized(%x: !relax.tensor<[512, 2048], f32>, %q: !relax.tensor<[2048, 2048], i8>, %scale: !relax.tensor<[2048, 64], f32>) -> !relax.tensor<[512, 2048], f32> {
  %w = relax.dequantize %q, %scale {bits = 8, group_size = 32} : (!relax.tensor<[2048, 2048], i8>, !relax.tensor<[2048, 64], f32>) -> !relax.tensor<[2048, 2048], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[512, 2048], f32>, !relax.tensor<[2048, 2048], f32>) -> !relax.tensor<[512, 2048], f32>
  relax.return %y : !relax.tensor<[512, 2048], f32>
}
