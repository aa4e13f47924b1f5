// A mismatch report names the worst *mismatching* element: a NaN matched by
// a NaN (infinite error, but equal) is not reported in its place.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/e.npy', np.array([np.nan, 2.0, 3.0], np.float32))"
// RUN: relax-run %s --expect %t/e.npy > %t/out.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s < %t/out.txt
// CHECK: relax-run: output #0 does not match (rtol=1e-05, atol=1e-06): worst element 1: got 1, expected 2
relax.func @main() -> !relax.tensor<[3], f32> {
  %c = relax.constant dense<[0x7FC00000, 1.0, 3.0]> : tensor<3xf32>
  relax.return %c : !relax.tensor<[3], f32>
}
