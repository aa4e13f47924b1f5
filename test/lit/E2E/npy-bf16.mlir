// bf16 tensors travel through .npy files as their uint16 bit pattern (numpy
// has no bfloat16): relax-run reads '<u2' arrays as bf16 inputs and writes
// bf16 outputs as '<u2'. The values are exact in bf16; symbolic n.
// RUN: rm -rf %t && mkdir -p %t/out
// RUN: %python -c "import numpy as np; f = np.array([[1.5, -2.0, 0.25], [3.0, 100.0, -0.125]], np.float32); np.save('%t/x.npy', (f.view(np.uint32) >> 16).astype(np.uint16)); np.save('%t/y.npy', f * 2)"
// RUN: relax-run %s --input %t/x.npy --expect %t/y.npy --expect %t/x.npy --output-dir %t/out --rtol 0 --atol 0 | FileCheck %s
// RUN: %python -c "import numpy as np; a = np.load('%t/out/output_1.npy'); assert a.dtype == np.uint16, a.dtype; assert (a == np.load('%t/x.npy')).all(); print('bf16 bits round-trip')" | FileCheck %s --check-prefix=BITS
// CHECK: output #0: f32 [2, 3]
// CHECK: output #1: bf16 [2, 3]
// BITS: bf16 bits round-trip
relax.func @main(%x: !relax.tensor<[n, 3], bf16>) -> (!relax.tensor<[n, 3], f32>, !relax.tensor<[n, 3], bf16>) {
  %f = relax.astype %x {dtype = f32} : (!relax.tensor<[n, 3], bf16>) -> !relax.tensor<[n, 3], f32>
  %y = relax.add %f, %f : (!relax.tensor<[n, 3], f32>, !relax.tensor<[n, 3], f32>) -> !relax.tensor<[n, 3], f32>
  relax.return %y, %x : !relax.tensor<[n, 3], f32>, !relax.tensor<[n, 3], bf16>
}
