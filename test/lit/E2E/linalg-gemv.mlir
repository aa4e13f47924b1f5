// End-to-end: products with one row or one column, which the CPU BLAS
// binding runs as gemv (a decode step's x W^T, where sgemm would first pack
// the whole weight matrix): m = 1 against a weight stored [n, k] (linear)
// and [k, n] (matmul), n = 1 against a matrix stored [k, n] and, through
// permute_dims, [n, k], a column read through a transposed row, a batch of
// single rows, and f64; symbolic k, n and c at two sizes (the larger splits
// over two threads), against numpy.
// f32 accumulation: 16 terms, rtol 1e-4, atol 1e-5; 3000 terms (sums of
// magnitude ~18, numpy in f32 as well), atol 1e-3.
// RUN: rm -rf %t
// RUN: %python %S/ref.py %t/a "x @ w.T" "x @ v" "v @ y" "w.T @ y" "v @ z.T" "b @ v" "x.astype(np.float64) @ v.astype(np.float64)" -- x:f32:1,16 w:f32:5,16 v:f32:16,5 y:f32:5,1 z:f32:1,5 b:f32:3,1,16
// RUN: relax-run %s $(for i in 0 1 2 3 4 5; do echo --input %t/a/in$i.npy; done) $(for i in 0 1 2 3 4 5 6; do echo --expect %t/a/out$i.npy; done) --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 5 "x @ w.T" "x @ v" "v @ y" "w.T @ y" "v @ z.T" "b @ v" "x.astype(np.float64) @ v.astype(np.float64)" -- x:f32:1,700 w:f32:3000,700 v:f32:700,3000 y:f32:3000,1 z:f32:1,3000 b:f32:2,1,700
// RUN: env OMP_NUM_THREADS=2 relax-run %s $(for i in 0 1 2 3 4 5; do echo --input %t/b/in$i.npy; done) $(for i in 0 1 2 3 4 5 6; do echo --expect %t/b/out$i.npy; done) --rtol 1e-4 --atol 1e-3 | FileCheck %s
// CHECK: all 7 outputs match

relax.func @main(%x: !relax.tensor<[1, k], f32>, %w: !relax.tensor<[n, k], f32>,
                 %v: !relax.tensor<[k, n], f32>, %y: !relax.tensor<[n, 1], f32>,
                 %z: !relax.tensor<[1, n], f32>, %b: !relax.tensor<[c, 1, k], f32>)
    -> (!relax.tensor<[1, n], f32>, !relax.tensor<[1, n], f32>,
        !relax.tensor<[k, 1], f32>, !relax.tensor<[k, 1], f32>,
        !relax.tensor<[k, 1], f32>, !relax.tensor<[c, 1, n], f32>,
        !relax.tensor<[1, n], f64>) {
  %r0 = relax.linear %x, %w : (!relax.tensor<[1, k], f32>, !relax.tensor<[n, k], f32>) -> !relax.tensor<[1, n], f32>
  %r1 = relax.matmul %x, %v : (!relax.tensor<[1, k], f32>, !relax.tensor<[k, n], f32>) -> !relax.tensor<[1, n], f32>
  %r2 = relax.matmul %v, %y : (!relax.tensor<[k, n], f32>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[k, 1], f32>
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (!relax.tensor<[n, k], f32>) -> !relax.tensor<[k, n], f32>
  %r3 = relax.matmul %wt, %y : (!relax.tensor<[k, n], f32>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[k, 1], f32>
  %r4 = relax.linear %v, %z : (!relax.tensor<[k, n], f32>, !relax.tensor<[1, n], f32>) -> !relax.tensor<[k, 1], f32>
  %r5 = relax.matmul %b, %v : (!relax.tensor<[c, 1, k], f32>, !relax.tensor<[k, n], f32>) -> !relax.tensor<[c, 1, n], f32>
  %x64 = relax.astype %x {dtype = f64} : (!relax.tensor<[1, k], f32>) -> !relax.tensor<[1, k], f64>
  %v64 = relax.astype %v {dtype = f64} : (!relax.tensor<[k, n], f32>) -> !relax.tensor<[k, n], f64>
  %r6 = relax.matmul %x64, %v64 : (!relax.tensor<[1, k], f64>, !relax.tensor<[k, n], f64>) -> !relax.tensor<[1, n], f64>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : !relax.tensor<[1, n], f32>, !relax.tensor<[1, n], f32>, !relax.tensor<[k, 1], f32>, !relax.tensor<[k, 1], f32>, !relax.tensor<[k, 1], f32>, !relax.tensor<[c, 1, n], f32>, !relax.tensor<[1, n], f64>
}
