// Dims that must be equal (or broadcast) but that the symbolic engine
// cannot prove so: inference keeps one dim and the contract is checked at
// run time, so the op runs where the sizes fit and stops with an error
// naming both dims where they do not. A 2x2 pooled and 2x upsampled map
// ([h floordiv 2 * 2]) is concatenated with and added to its skip map ([h]):
// even h runs, odd h fails. [n] * [m] is [max(m, n)]: n == m and either
// being 1 run, others fail (also 0 against 1, where max would be wrong).
// Batched matmul dims broadcast the same way. Expected values inline.
// RUN: %python -c "import numpy as np; x = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4); np.save('%t.even.npy', x); np.save('%t.odd.npy', np.ones((1, 1, 3, 4), np.float32)); [np.save('%t.v' + str(n) + '.npy', np.arange(1, n + 1, dtype=np.float32)) for n in (0, 1, 3, 4)]; np.save('%t.a2.npy', np.ones((2, 1, 2), np.float32)); np.save('%t.a1.npy', np.ones((1, 1, 2), np.float32)); np.save('%t.b3.npy', np.arange(6, dtype=np.float32).reshape(3, 2, 1))"
// RUN: relax-run %s --entry skip --input %t.even.npy | FileCheck %s --check-prefix=SKIP
// RUN: relax-run %s --entry skip --fuse --input %t.even.npy | FileCheck %s --check-prefix=SKIP
// RUN: relax-run %s --entry skip --input %t.odd.npy > %t.err1 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ODD < %t.err1
// RUN: relax-run %s --entry skip --fuse --input %t.odd.npy > %t.err2 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ODD < %t.err2
// RUN: relax-run %s --entry mul --input %t.v3.npy --input %t.v3.npy | FileCheck %s --check-prefix=MUL33
// RUN: relax-run %s --entry mul --input %t.v1.npy --input %t.v3.npy | FileCheck %s --check-prefix=MUL13
// RUN: relax-run %s --entry mul --input %t.v3.npy --input %t.v1.npy | FileCheck %s --check-prefix=MUL13
// RUN: relax-run %s --entry mul --input %t.v0.npy --input %t.v0.npy | FileCheck %s --check-prefix=MUL00
// RUN: relax-run %s --entry mul --input %t.v3.npy --input %t.v4.npy > %t.err3 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MUL34 < %t.err3
// RUN: relax-run %s --entry mul --input %t.v0.npy --input %t.v1.npy > %t.err4 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MUL01 < %t.err4
// RUN: relax-run %s --entry bmm --input %t.a1.npy --input %t.b3.npy | FileCheck %s --check-prefix=BMM13
// RUN: relax-run %s --entry bmm --input %t.a2.npy --input %t.b3.npy > %t.err5 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BMM23 < %t.err5
// SKIP: output #0: f32 [1, 2, 2, 4] = [5, 5, 7, 7, 5, 5, 7, 7, ...]
// SKIP: output #1: f32 [1, 1, 2, 4] = [5, 6, 9, 10, 9, 10, 13, 14]
// ODD: error: skip: relax.concat at {{.*}}: input #0 dim 2: expected h floordiv 2 * 2 == h, got h floordiv 2 * 2 = 2 and h = 3
// MUL33: output #0: f32 [3] = [1, 4, 9]
// MUL13: output #0: f32 [3] = [1, 2, 3]
// MUL00: output #0: f32 [0] = []
// MUL34: error: mul: relax.multiply at {{.*}}: operand #0 dim 0: expected n == max(m, n) or n == 1, got n = 3 and max(m, n) = 4
// MUL01: error: mul: relax.multiply at {{.*}}: operand #0 dim 0: expected n == max(m, n) or n == 1, got n = 0 and max(m, n) = 1
// BMM13: output #0: f32 [3, 1, 1] = [1, 5, 9]
// BMM23: error: bmm: relax.matmul at {{.*}}: lhs batch dim 0: expected b == max(b, c) or b == 1, got b = 2 and max(b, c) = 3

relax.func @skip(%x: !relax.tensor<[1, 1, h, w], f32>)
    -> (!relax.tensor<[1, 2, h, w], f32>, !relax.tensor<[1, 1, h floordiv 2 * 2, w floordiv 2 * 2], f32>) {
  %p = relax.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (!relax.tensor<[1, 1, h, w], f32>) -> !relax.tensor<[1, 1, h floordiv 2, w floordiv 2], f32>
  %u = relax.resize2d %p {size = #relax.shape<[h floordiv 2 * 2, w floordiv 2 * 2]>, method = "nearest"} : (!relax.tensor<[1, 1, h floordiv 2, w floordiv 2], f32>) -> !relax.tensor<[1, 1, h floordiv 2 * 2, w floordiv 2 * 2], f32>
  %c = relax.concat %u, %x {axis = 1 : i64} : (!relax.tensor<[1, 1, h floordiv 2 * 2, w floordiv 2 * 2], f32>, !relax.tensor<[1, 1, h, w], f32>) -> !relax.tensor<[1, 2, h, w], f32>
  %s = relax.add %u, %x : (!relax.tensor<[1, 1, h floordiv 2 * 2, w floordiv 2 * 2], f32>, !relax.tensor<[1, 1, h, w], f32>) -> !relax.tensor<[1, 1, h floordiv 2 * 2, w floordiv 2 * 2], f32>
  relax.return %c, %s : !relax.tensor<[1, 2, h, w], f32>, !relax.tensor<[1, 1, h floordiv 2 * 2, w floordiv 2 * 2], f32>
}

relax.func @mul(%u: !relax.tensor<[n], f32>, %v: !relax.tensor<[m], f32>) -> !relax.tensor<[max(m, n)], f32> {
  %r = relax.multiply %u, %v : (!relax.tensor<[n], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[max(m, n)], f32>
  relax.return %r : !relax.tensor<[max(m, n)], f32>
}

relax.func @bmm(%a: !relax.tensor<[b, 1, 2], f32>, %c: !relax.tensor<[c, 2, 1], f32>) -> !relax.tensor<[max(b, c), 1, 1], f32> {
  %r = relax.matmul %a, %c : (!relax.tensor<[b, 1, 2], f32>, !relax.tensor<[c, 2, 1], f32>) -> !relax.tensor<[max(b, c), 1, 1], f32>
  relax.return %r : !relax.tensor<[max(b, c), 1, 1], f32>
}
