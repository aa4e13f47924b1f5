// Run-time shape contracts that inference leaves undecided with symbolic
// dims (docs/relax.md, "Run-time checks"): each violation ends the call with
// exit status 1 and a message naming the function, the op and its location,
// the dims and their values; the happy path still computes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/ref.py %t/r "x.reshape(5, 2)" -- x:f32:2,5 y:f32:5
// RUN: %python %S/ref.py %t/rbad "x" -- x:f32:3,4 y:f32:5
// RUN: %python %S/ref.py %t/b "np.broadcast_to(x, (2, 5))" -- x:f32:1 y:f32:5
// RUN: %python %S/ref.py %t/bbad "x" -- x:f32:3 y:f32:5
// RUN: %python %S/ref.py %t/m "a @ b" -- a:f32:2,3 b:f32:3,4
// RUN: %python %S/ref.py %t/mbad "a" -- a:f32:2,3 b:f32:4,4
// RUN: %python %S/ref.py %t/s "x[:2]" "x[2:]" -- x:f32:5 k:f32:2
// RUN: %python %S/ref.py %t/sbad "x" -- x:f32:3 k:f32:5
// RUN: %python %S/ref.py %t/t "np.take(x, i, axis=0)" -- x:f32:4,3 i:i64:2 --int-range -4,4
// RUN: %python %S/ref.py %t/thigh "x" -- x:f32:4,3 i:i64:2 --int-range 7,8
// RUN: %python %S/ref.py %t/tlow "x" -- x:f32:4,3 i:i64:2 --int-range -9,-8
// RUN: %python %S/ref.py %t/tempty "x" -- x:f32:0,3 i:i64:1 --int-range 0,1

// RUN: relax-run %s --entry reshape_count --input %t/r/in0.npy --input %t/r/in1.npy --expect %t/r/out0.npy
// RUN: relax-run %s --entry reshape_count --input %t/rbad/in0.npy --input %t/rbad/in1.npy > %t/reshape.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RESHAPE < %t/reshape.txt
// RESHAPE: relax-run: error: reshape_count: relax.reshape at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: element count: expected k * 2 == m * n, got k * 2 = 10 and m * n = 12
relax.func @reshape_count(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[k], f32>) -> !relax.tensor<[k, 2], f32> {
  %r = relax.reshape %x {shape = #relax.shape<[k, 2]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[k, 2], f32>
  relax.return %r : !relax.tensor<[k, 2], f32>
}

// RUN: relax-run %s --entry broadcast --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy
// RUN: relax-run %s --entry broadcast --input %t/bbad/in0.npy --input %t/bbad/in1.npy > %t/broadcast.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BROADCAST < %t/broadcast.txt
// BROADCAST: relax-run: error: broadcast: relax.broadcast_to at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: input dim 0: expected n == m or n == 1, got n = 3 and m = 5
relax.func @broadcast(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m], f32>) -> !relax.tensor<[2, m], f32> {
  %b = relax.broadcast_to %x {shape = #relax.shape<[2, m]>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[2, m], f32>
  relax.return %b : !relax.tensor<[2, m], f32>
}

// RUN: relax-run %s --entry matmul --input %t/m/in0.npy --input %t/m/in1.npy --expect %t/m/out0.npy
// RUN: relax-run %s --entry matmul --input %t/mbad/in0.npy --input %t/mbad/in1.npy > %t/matmul.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MATMUL < %t/matmul.txt
// MATMUL: relax-run: error: matmul: relax.matmul at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: contraction dim: expected k == j, got k = 3 and j = 4
relax.func @matmul(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32> {
  %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %c : !relax.tensor<[n, m], f32>
}

// RUN: relax-run %s --entry split --input %t/s/in0.npy --input %t/s/in1.npy --expect %t/s/out0.npy --expect %t/s/out1.npy
// RUN: relax-run %s --entry split --input %t/sbad/in0.npy --input %t/sbad/in1.npy > %t/split.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SPLIT < %t/split.txt
// SPLIT: relax-run: error: split: relax.split at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: last split index vs dim 0: expected k <= n, got k = 5 and n = 3
relax.func @split(%x: !relax.tensor<[n], f32>, %k: !relax.tensor<[k], f32>) -> (!relax.tensor<[k], f32>, !relax.tensor<[n - k], f32>) {
  %s:2 = relax.split %x {axis = 0 : i64, indices = #relax.shape<[k]>} : (!relax.tensor<[n], f32>) -> (!relax.tensor<[k], f32>, !relax.tensor<[n - k], f32>)
  relax.return %s#0, %s#1 : !relax.tensor<[k], f32>, !relax.tensor<[n - k], f32>
}

// Negative indices count from the end (numpy): [-n, n) is the valid range.
// RUN: relax-run %s --entry take --input %t/t/in0.npy --input %t/t/in1.npy --expect %t/t/out0.npy
// RUN: relax-run %s --entry take --input %t/thigh/in0.npy --input %t/thigh/in1.npy > %t/take-high.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TAKE-HIGH < %t/take-high.txt
// TAKE-HIGH: relax-run: error: take: relax.take at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: index 7 is out of range for an axis of n = 4
// RUN: relax-run %s --entry take --input %t/tlow/in0.npy --input %t/tlow/in1.npy > %t/take-low.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TAKE-LOW < %t/take-low.txt
// TAKE-LOW: relax-run: error: take: relax.take at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: index -9 is out of range for an axis of n = 4
// RUN: relax-run %s --entry take --input %t/tempty/in0.npy --input %t/tempty/in1.npy > %t/take-empty.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TAKE-EMPTY < %t/take-empty.txt
// TAKE-EMPTY: relax-run: error: take: relax.take at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: index 0 is out of range for an axis of n = 0
relax.func @take(%x: !relax.tensor<[n, 3], f32>, %i: !relax.tensor<[p], i64>) -> !relax.tensor<[p, 3], f32> {
  %y = relax.take %x, %i {axis = 0 : i64} : (!relax.tensor<[n, 3], f32>, !relax.tensor<[p], i64>) -> !relax.tensor<[p, 3], f32>
  relax.return %y : !relax.tensor<[p, 3], f32>
}

// sym_bounds are checked where their variable is bound.
// RUN: %python %S/ref.py %t/bounds "x" -- x:f32:5
// RUN: relax-run %s --entry bounded --input %t/bounds/in0.npy > %t/bounds.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BOUNDS < %t/bounds.txt
// BOUNDS: relax-run: error: bounded: n = 5 from 'x' dim 0 is above its sym_bounds upper bound 4
// RUN: %python %S/ref.py %t/bounds0 "x" -- x:f32:0
// RUN: relax-run %s --entry bounded --input %t/bounds0/in0.npy > %t/bounds0.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BOUNDS0 < %t/bounds0.txt
// BOUNDS0: relax-run: error: bounded: n = 0 from 'x' dim 0 is below its sym_bounds lower bound 1
relax.func @bounded(%x: !relax.tensor<[n], f32> {relax.name = "x"}) -> !relax.tensor<[n], f32> attributes {sym_bounds = {n = array<i64: 1, 4>}} {
  %y = relax.exp %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// gather_elements: the values against the axis, the other dims of the
// indices against the data's.
// RUN: %python %S/ref.py %t/ge "np.take_along_axis(x, i, axis=1)" -- x:f32:4,3 i:i64:4,5 --int-range -3,3
// RUN: %python %S/ref.py %t/gebad "x" -- x:f32:4,3 i:i64:4,2 --int-range 5,6
// RUN: %python %S/ref.py %t/gedim "x" -- x:f32:2,3 i:i64:4,2 --int-range 0,1
// RUN: relax-run %s --entry gather_elements --input %t/ge/in0.npy --input %t/ge/in1.npy --expect %t/ge/out0.npy
// RUN: relax-run %s --entry gather_elements --input %t/gebad/in0.npy --input %t/gebad/in1.npy > %t/ge-bad.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=GE-BAD < %t/ge-bad.txt
// GE-BAD: relax-run: error: gather_elements: relax.gather_elements at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: index 5 is out of range for an axis of m = 3
// RUN: relax-run %s --entry gather_elements --input %t/gedim/in0.npy --input %t/gedim/in1.npy > %t/ge-dim.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=GE-DIM < %t/ge-dim.txt
// GE-DIM: relax-run: error: gather_elements: relax.gather_elements at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: indices dim 0 vs data dim: expected k <= n, got k = 4 and n = 2
relax.func @gather_elements(%x: !relax.tensor<[n, m], f32>, %i: !relax.tensor<[k, j], i64>) -> !relax.tensor<[k, j], f32> {
  %y = relax.gather_elements %x, %i {axis = 1 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, j], i64>) -> !relax.tensor<[k, j], f32>
  relax.return %y : !relax.tensor<[k, j], f32>
}

// gather_nd / scatter_nd: each position of an index tuple against its own
// data dim.
// RUN: %python %S/ref.py %t/gn "__import__('ref').gather_nd_ref(x, i)" "__import__('ref').scatter_nd_ref(x, i, u)" -- x:f32:4,3 i:i64:2,2 u:f32:2 --int-range -3,3
// RUN: %python %S/ref.py %t/gnbad "x" -- x:f32:4,3 i:i64:2,2 u:f32:2 --int-range 3,4
// RUN: relax-run %s --entry index_tuples --input %t/gn/in0.npy --input %t/gn/in1.npy --input %t/gn/in2.npy --expect %t/gn/out0.npy --expect %t/gn/out1.npy
// RUN: relax-run %s --entry index_tuples --input %t/gnbad/in0.npy --input %t/gnbad/in1.npy --input %t/gnbad/in2.npy > %t/gn-bad.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=GN-BAD < %t/gn-bad.txt
// GN-BAD: relax-run: error: index_tuples: relax.gather_nd at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: index 3 (tuple position 1) is out of range for an axis of m = 3
relax.func @index_tuples(%x: !relax.tensor<[n, m], f32>, %i: !relax.tensor<[k, 2], i64>, %u: !relax.tensor<[k], f32>) -> (!relax.tensor<[k], f32>, !relax.tensor<[n, m], f32>) {
  %y = relax.gather_nd %x, %i : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, 2], i64>) -> !relax.tensor<[k], f32>
  %z = relax.scatter_nd %x, %i, %u : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, 2], i64>, !relax.tensor<[k], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %y, %z : !relax.tensor<[k], f32>, !relax.tensor<[n, m], f32>
}

// RUN: %python %S/ref.py %t/e "np.einsum('ij,jk->ik', a, b)" -- a:f32:2,3 b:f32:3,4
// RUN: %python %S/ref.py %t/ebad "a" -- a:f32:2,3 b:f32:4,4
// RUN: relax-run %s --entry einsum --input %t/e/in0.npy --input %t/e/in1.npy --expect %t/e/out0.npy
// RUN: relax-run %s --entry einsum --input %t/ebad/in0.npy --input %t/ebad/in1.npy > %t/einsum.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=EINSUM < %t/einsum.txt
// EINSUM: relax-run: error: einsum: relax.einsum at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: operand #1 dim 0 (label 'j'): expected j == k, got j = 4 and k = 3
relax.func @einsum(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32> {
  %e = relax.einsum %a, %b {equation = "ij,jk->ik"} : (!relax.tensor<[n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %e : !relax.tensor<[n, m], f32>
}

// RUN: %python -B %S/ref.py %t/c "__import__('ref').conv2d_transpose_ref(x, w, strides=[2])" -- x:f32:1,2,3,3 w:f32:2,3,2,2
// RUN: %python %S/ref.py %t/cbad "x" -- x:f32:1,2,3,3 w:f32:3,3,2,2
// RUN: relax-run %s --entry conv2d_transpose --input %t/c/in0.npy --input %t/c/in1.npy --expect %t/c/out0.npy --rtol 1e-5 --atol 1e-6
// RUN: relax-run %s --entry conv2d_transpose --input %t/cbad/in0.npy --input %t/cbad/in1.npy > %t/conv2d_transpose.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CONVT < %t/conv2d_transpose.txt
// CONVT: relax-run: error: conv2d_transpose: relax.conv2d_transpose at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: input channels vs weight dim 0: expected c == d, got c = 2 and d = 3
relax.func @conv2d_transpose(%x: !relax.tensor<[n, c, h, w], f32>, %w: !relax.tensor<[d, 3, 2, 2], f32>) -> !relax.tensor<[n, 3, h * 2, w * 2], f32> {
  %y = relax.conv2d_transpose %x, %w {strides = array<i64: 2>} : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[d, 3, 2, 2], f32>) -> !relax.tensor<[n, 3, h * 2, w * 2], f32>
  relax.return %y : !relax.tensor<[n, 3, h * 2, w * 2], f32>
}

// The recurrences index xw with r's hidden size: xw's 9 gate values against
// r's 3 * h is checked before the kernel.
// RUN: %python %S/ref.py %t/g "x" -- x:f32:2,1,1,9 r:f32:1,9,3 b:f32:1,9 h:f32:1,1,3 l:i32:1 --int-range 1,3
// RUN: %python %S/ref.py %t/gbad "x" -- x:f32:2,1,1,9 r:f32:1,12,4 b:f32:1,12 h:f32:1,1,4 l:i32:1 --int-range 1,3
// RUN: relax-run %s --entry gru_gates --input %t/g/in0.npy --input %t/g/in1.npy --input %t/g/in2.npy --input %t/g/in3.npy --input %t/g/in4.npy | FileCheck %s --check-prefix=GRU-OK
// RUN: relax-run %s --entry gru_gates --input %t/gbad/in0.npy --input %t/gbad/in1.npy --input %t/gbad/in2.npy --input %t/gbad/in3.npy --input %t/gbad/in4.npy > %t/gru.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=GRU < %t/gru.txt
// GRU-OK: output #0: f32 [1, 1, 3]
// GRU: relax-run: error: gru_gates: relax.gru at shape-contracts.mlir:{{[0-9]+:[0-9]+}}: xw dim 3 vs gates * r dim 2: expected 9 == h * 3, got 9 and h * 3 = 12
relax.func @gru_gates(%x: !relax.tensor<[s, n, 1, 9], f32>, %r: !relax.tensor<[1, 3 * h, h], f32>, %b: !relax.tensor<[1, 3 * h], f32>, %h0: !relax.tensor<[1, n, h], f32>, %l: !relax.tensor<[n], i32>) -> !relax.tensor<[1, n, h], f32> {
  %y, %yh = relax.gru %x, %r, %b, %h0, %l : (!relax.tensor<[s, n, 1, 9], f32>, !relax.tensor<[1, 3 * h, h], f32>, !relax.tensor<[1, 3 * h], f32>, !relax.tensor<[1, n, h], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, h], f32>, !relax.tensor<[1, n, h], f32>)
  relax.return %yh : !relax.tensor<[1, n, h], f32>
}
