// Bool tensors read every byte as numpy does: non-zero is true. Bytes 2, 16,
// 128 and 255 (2, 16 and 128 have a clear low bit) through relax.where,
// logical ops and a cast, unfused and fused, against numpy with the mask
// taken as m != 0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; rng = np.random.default_rng(3); m = rng.choice(np.array([0, 1, 2, 16, 128, 255], np.uint8), size=(37, 4)); k = rng.choice(np.array([0, 1, 4, 64], np.uint8), size=(37, 4)); x = rng.standard_normal((37, 4)).astype(np.float32); b = rng.standard_normal(4).astype(np.float32); mb, kb = m != 0, k != 0; np.save('%t/m.npy', m.view(np.bool_)); np.save('%t/k.npy', k.view(np.bool_)); np.save('%t/x.npy', x); np.save('%t/b.npy', b); np.save('%t/o0.npy', np.where(mb, x, b)); np.save('%t/o1.npy', mb & kb); np.save('%t/o2.npy', ~mb | kb); np.save('%t/o3.npy', mb.astype(np.float32) + x)"
// RUN: relax-run %s --input %t/m.npy --input %t/k.npy --input %t/x.npy --input %t/b.npy --expect %t/o0.npy --expect %t/o1.npy --expect %t/o2.npy --expect %t/o3.npy | FileCheck %s
// RUN: relax-run %s --fuse --input %t/m.npy --input %t/k.npy --input %t/x.npy --input %t/b.npy --expect %t/o0.npy --expect %t/o1.npy --expect %t/o2.npy --expect %t/o3.npy | FileCheck %s
// CHECK: relax-run: all 4 outputs match

relax.func @main(%m: !relax.tensor<[n, 4], i1>, %k: !relax.tensor<[n, 4], i1>,
                 %x: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], f32>)
    -> (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i1>,
        !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>) {
  %w = relax.where %m, %x, %b : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %a = relax.logical_and %m, %k : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>) -> !relax.tensor<[n, 4], i1>
  %nm = relax.logical_not %m : (!relax.tensor<[n, 4], i1>) -> !relax.tensor<[n, 4], i1>
  %o = relax.logical_or %nm, %k : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>) -> !relax.tensor<[n, 4], i1>
  %c = relax.astype %m {dtype = f32} : (!relax.tensor<[n, 4], i1>) -> !relax.tensor<[n, 4], f32>
  %s = relax.add %c, %x : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %w, %a, %o, %s : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>
}
