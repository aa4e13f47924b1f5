// Dims that a binding makes negative, and outputs that would read an empty
// input, are run-time errors naming the op and the dims, never a crash
// (found by scripts/mutate-run.py: resize2d from an input with h = 0 read
// out of bounds; a size w - 1 with w = 0 aborted in the result reader).
//
// Any result dim: the allocation checks it.
// RUN: relax-run %s --entry zeros --random-inputs --dim n=1 > %t.zeros 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ZEROS < %t.zeros
// ZEROS: relax-run: error: zeros: output 0 of call_tir @T_zeros at {{.*}}:{{[0-9]+}}:{{[0-9]+}} !relax.tensor<[n - 3, 2], f32> dim 0 = n - 3 is -2 (negative)
// RUN: relax-run %s --entry zeros --random-inputs --dim n=3 | FileCheck %s --check-prefix=ZEMPTY
// ZEMPTY: output #0: f32 [0, 2] = []
// RUN: relax-run %s --entry zeros --random-inputs --dim n=4 --fuse | FileCheck %s --check-prefix=ZOK
// ZOK: output #0: f32 [1, 2] = [0, 0]
//
// resize2d: the result dims must not be negative, and a result with
// elements needs an input with elements; an empty batch is fine.
// RUN: relax-run %s --entry resize --random-inputs --dim n=1 --dim h=0 --dim w=3 > %t.h0 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=H0 < %t.h0
// H0: relax-run: error: resize: relax.resize2d at {{.*}}: input dim 2 (not empty when the result has elements): expected min({{.*}}, 1) <= h, got min({{.*}}, 1) = 1 and h = 0
// RUN: relax-run %s --entry resize --fuse --random-inputs --dim n=1 --dim h=0 --dim w=3 > %t.h0f 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=H0 < %t.h0f
// RUN: relax-run %s --entry shrink --random-inputs --dim n=1 --dim h=2 --dim w=0 > %t.w0 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=W0 < %t.w0
// W0: relax-run: error: shrink: relax.resize2d at {{.*}}: result dim 3 (not negative): expected 0 <= w - 1, got 0 and w - 1 = -1
// RUN: relax-run %s --entry resize --random-inputs --dim n=0 --dim h=0 --dim w=0 | FileCheck %s --check-prefix=EMPTY
// EMPTY: output #0: f32 [0, 1, 5, 4] = []
// RUN: relax-run %s --entry resize --random-inputs --dim n=1 --dim h=2 --dim w=3 | FileCheck %s --check-prefix=OK
// OK: output #0: f32 [1, 1, 5, 4] =

relax.func @zeros(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n - 3, 2], f32> {
  %z = relax.zeros {shape = #relax.shape<[n - 3, 2]>, dtype = f32} : !relax.tensor<[n - 3, 2], f32>
  relax.return %z : !relax.tensor<[n - 3, 2], f32>
}

relax.func @resize(%x: !relax.tensor<[n, 1, h, w], f32>) -> !relax.tensor<[n, 1, 5, 4], f32> {
  %r = relax.resize2d %x {size = #relax.shape<[5, 4]>} : (!relax.tensor<[n, 1, h, w], f32>) -> !relax.tensor<[n, 1, 5, 4], f32>
  relax.return %r : !relax.tensor<[n, 1, 5, 4], f32>
}

relax.func @shrink(%x: !relax.tensor<[n, 1, h, w], f32>) -> !relax.tensor<[n, 1, h, w - 1], f32> {
  %r = relax.resize2d %x {size = #relax.shape<[h, w - 1]>} : (!relax.tensor<[n, 1, h, w], f32>) -> !relax.tensor<[n, 1, h, w - 1], f32>
  relax.return %r : !relax.tensor<[n, 1, h, w - 1], f32>
}
