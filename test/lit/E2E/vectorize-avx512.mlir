// The inner loops of legalized elementwise programs are vectorised by LLVM for
// an AVX-512 host (relax-run's JIT targets the host CPU the same way).
// RUN: relax-opt --lower-to-cpu %s | relax-translate --mlir-to-llvmir \
// RUN:   | %llvm_tools/opt -O3 -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f -S \
// RUN:   | %llvm_tools/llc -O3 -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f \
// RUN:   | FileCheck %s
// CHECK: vaddps {{.*}}%zmm
relax.func @main(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %z = relax.add %x, %y : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %z : !relax.tensor<[n, m], f32>
}
