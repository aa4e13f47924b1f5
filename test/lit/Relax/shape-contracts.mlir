// Compile-time side of the shape contracts: legalization asserts what
// inference left undecided, and nothing that is proven (also from
// sym_bounds); match_cast is kept by canonicalization unless it provably
// holds. RUN lines per section.
// RUN: relax-opt %s -split-input-file --relax-legalize-ops | FileCheck %s --check-prefix=LEGAL
// RUN: relax-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=CANON

// LEGAL-LABEL: relax.func @reshape_undecided
// LEGAL: relax.assert_dims #relax.expr<k * 2> "eq" #relax.expr<m * n>, "relax.reshape", "element count"
// LEGAL: relax.call_tir
// CANON-LABEL: relax.func @reshape_undecided
relax.func @reshape_undecided(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[k], f32>) -> !relax.tensor<[k, 2], f32> {
  %r = relax.reshape %x {shape = #relax.shape<[k, 2]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[k, 2], f32>
  relax.return %r : !relax.tensor<[k, 2], f32>
}

// -----

// Proven contracts emit nothing.
// LEGAL-LABEL: relax.func @proven
// LEGAL-NOT: relax.assert_dims
// LEGAL: relax.return
// CANON-LABEL: relax.func @proven
relax.func @proven(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, m], f32>) -> !relax.tensor<[n, m], f32> {
  %r = relax.reshape %x {shape = #relax.shape<[n * 4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
  %s = relax.reshape %r {shape = #relax.shape<[n, 4]>} : (!relax.tensor<[n * 4], f32>) -> !relax.tensor<[n, 4], f32>
  %c = relax.matmul %s, %w : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %c : !relax.tensor<[n, m], f32>
}

// -----

// sym_bounds feed the proofs: n is 1, so [n] broadcasts to [m] unchecked.
// LEGAL-LABEL: relax.func @bounded_broadcast
// LEGAL-NOT: relax.assert_dims
// LEGAL: relax.return
// CANON-LABEL: relax.func @bounded_broadcast
relax.func @bounded_broadcast(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m], f32>) -> !relax.tensor<[m], f32> attributes {sym_bounds = {n = array<i64: 1, 1>}} {
  %b = relax.broadcast_to %x {shape = #relax.shape<[m]>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[m], f32>
  relax.return %b : !relax.tensor<[m], f32>
}

// -----

// LEGAL-LABEL: relax.func @checks_in_dataflow
// LEGAL: relax.dataflow
// LEGAL: relax.assert_dims #relax.expr<k> "eq" #relax.expr<j>, "relax.matmul", "contraction dim"
// LEGAL: relax.assert_dims #relax.expr<m> "le" #relax.expr<n>, "relax.split", "last split index vs dim 0"
// LEGAL: relax.assert_indices %{{.*}}, #relax.expr<n>, "relax.take" : !relax.tensor<[p], i64>
// CANON-LABEL: relax.func @checks_in_dataflow
relax.func @checks_in_dataflow(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[j, m], f32>, %i: !relax.tensor<[p], i64>) -> !relax.tensor<[p, m], f32> {
  %r = relax.dataflow -> !relax.tensor<[p, m], f32> {
    %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32>
    %s:2 = relax.split %c {axis = 0 : i64, indices = #relax.shape<[m]>} : (!relax.tensor<[n, m], f32>) -> (!relax.tensor<[m, m], f32>, !relax.tensor<[n - m, m], f32>)
    %t = relax.take %c, %i {axis = 0 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[p], i64>) -> !relax.tensor<[p, m], f32>
    relax.output %t : !relax.tensor<[p, m], f32>
  }
  relax.return %r : !relax.tensor<[p, m], f32>
}

// -----

// An unused match_cast asserts a shape (and binds m): canonicalization keeps
// it. One whose check provably holds goes.
// LEGAL-LABEL: relax.func @unused_match_cast
// CANON-LABEL: relax.func @unused_match_cast
// CANON: relax.match_cast %{{.*}} : !relax.tensor<[n], f32> to !relax.tensor<[4], f32>
// CANON: relax.match_cast %{{.*}} : !relax.tensor<*, f32> to !relax.tensor<[m], f32>
// CANON-NOT: relax.match_cast
// CANON: relax.return
relax.func @unused_match_cast(%x: !relax.tensor<[n], f32>, %u: !relax.tensor<*, f32>) -> !relax.tensor<[n], f32> {
  %a = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[4], f32>
  %b = relax.match_cast %u : !relax.tensor<*, f32> to !relax.tensor<[m], f32>
  %c = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[?], f32>
  %d = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[n], f32>
  relax.return %x : !relax.tensor<[n], f32>
}

// -----

// The index-reading ops check every index value; gather_nd and scatter_nd
// check each tuple position against its own data dim, and the shared dims
// they leave undecided.
// LEGAL-LABEL: relax.func @index_ops
// LEGAL: relax.assert_dims #relax.expr<k> "le" #relax.expr<n>, "relax.gather_elements", "indices dim 0 vs data dim"
// LEGAL: relax.assert_indices %{{.*}}, #relax.expr<m>, "relax.gather_elements" : !relax.tensor<[k, j], i64>
// LEGAL: relax.call_tir @T_gather_elements
// LEGAL: relax.assert_dims #relax.expr<p> "eq" #relax.expr<n>, "relax.gather_nd", "batch dim 0"
// LEGAL: relax.assert_indices %{{.*}}, #relax.shape<[m]>, "relax.gather_nd" : !relax.tensor<[p, 1], i32>
// LEGAL: relax.call_tir @T_gather_nd
// LEGAL: relax.assert_dims #relax.expr<j> "eq" #relax.expr<m>, "relax.scatter_nd", "updates dim 1"
// LEGAL: relax.assert_indices %{{.*}}, #relax.shape<[n]>, "relax.scatter_nd" : !relax.tensor<[k, 1], i64>
// LEGAL: relax.call_tir @T_scatter_nd
// LEGAL: relax.assert_dims #relax.expr<0> "le" #relax.expr<n - q * 2>, "relax.pad", "result dim 0 (not negative)"
// LEGAL: relax.assert_dims #relax.expr<1> "le" #relax.expr<m>, "relax.pad", "padded dim 1 (not empty)"
// LEGAL: relax.call_tir @T_pad
// CANON-LABEL: relax.func @index_ops
relax.func @index_ops(%x: !relax.tensor<[n, m], f32>, %i: !relax.tensor<[k, j], i64>, %t: !relax.tensor<[p, 1], i32>, %s: !relax.tensor<[k, 1], i64>, %u: !relax.tensor<[k, j], f32>, %q: !relax.shape<[q]>) {
  %0 = relax.gather_elements %x, %i {axis = 1 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, j], i64>) -> !relax.tensor<[k, j], f32>
  %1 = relax.gather_nd %x, %t {batch_dims = 1 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[p, 1], i32>) -> !relax.tensor<[p], f32>
  %2 = relax.scatter_nd %x, %s, %u : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, 1], i64>, !relax.tensor<[k, j], f32>) -> !relax.tensor<[n, m], f32>
  %3 = relax.pad %x {mode = "reflect", pad_before = #relax.shape<[-q, 1]>, pad_after = #relax.shape<[-q, 1]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n - q * 2, m + 2], f32>
  relax.return
}

// -----

// einsum checks every later occurrence of a label against its first (the
// loop extent); the broadcast ellipsis dim 1, the repeated n of the
// diagonal and the provably equal 4s emit nothing. conv2d_transpose
// checks its input channels against the weight's dim 0.
// LEGAL-LABEL: relax.func @einsum_and_conv2d_transpose
// LEGAL: relax.assert_dims #relax.expr<j> "eq" #relax.expr<k>, "relax.einsum", "operand #1 dim 1 (label 'k')"
// LEGAL-NOT: relax.assert_dims {{.*}} "relax.einsum"
// LEGAL: relax.assert_dims #relax.expr<c> "eq" #relax.expr<d>, "relax.conv2d_transpose", "input channels vs weight dim 0"
// LEGAL-NOT: relax.assert_dims
// LEGAL: relax.return
// CANON-LABEL: relax.func @einsum_and_conv2d_transpose
relax.func @einsum_and_conv2d_transpose(%a: !relax.tensor<[b, n, k, 4], f32>, %e: !relax.tensor<[1, j, 4], f32>, %s: !relax.tensor<[n, n], f32>,
                                        %x: !relax.tensor<[n, c, h, w], f32>, %w: !relax.tensor<[d, 2, 3, 3], f32>)
    -> (!relax.tensor<[b, n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n, 2, h + 2, w + 2], f32>) {
  %0 = relax.einsum %a, %e {equation = "...ikl,...kl->...i"} : (!relax.tensor<[b, n, k, 4], f32>, !relax.tensor<[1, j, 4], f32>) -> !relax.tensor<[b, n], f32>
  %1 = relax.einsum %s {equation = "ii->i"} : (!relax.tensor<[n, n], f32>) -> !relax.tensor<[n], f32>
  %2 = relax.conv2d_transpose %x, %w : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[d, 2, 3, 3], f32>) -> !relax.tensor<[n, 2, h + 2, w + 2], f32>
  relax.return %0, %1, %2 : !relax.tensor<[b, n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n, 2, h + 2, w + 2], f32>
}

// -----

// Dims that must be equal but cannot be proven so (a map upsampled after
// pooling against its skip map): inference keeps one of them, never `?`,
// and legalization checks the others against it. Concat keeps the simpler
// dim (h); a broadcasting op the side that cannot be 1 ((h floordiv 2) * 2
// is even) and checks that the other broadcasts to it; where both may be 1
// the result is their max and both are checked; matmul batch dims and a
// linear bias broadcast the same way, and linear's contraction dim is
// checked like matmul's.
// LEGAL-LABEL: relax.func @undecided_equalities
// LEGAL: relax.assert_dims #relax.expr<h floordiv 2 * 2> "eq" #relax.expr<h>, "relax.concat", "input #0 dim 1"
// LEGAL-NOT: relax.assert_dims {{.*}}"relax.concat"
// LEGAL: relax.call_tir
// LEGAL: relax.assert_dims #relax.expr<h> "broadcast" #relax.expr<h floordiv 2 * 2>, "relax.add", "operand #1 dim 1"
// LEGAL-NOT: relax.assert_dims {{.*}}"relax.add", "operand #0
// LEGAL: relax.call_tir
// LEGAL: relax.assert_dims #relax.expr<n> "broadcast" #relax.expr<max(m, n)>, "relax.multiply", "operand #0 dim 0"
// LEGAL: relax.assert_dims #relax.expr<m> "broadcast" #relax.expr<max(m, n)>, "relax.multiply", "operand #1 dim 0"
// LEGAL: relax.call_tir
// LEGAL: relax.assert_dims #relax.expr<b> "broadcast" #relax.expr<max(b, c)>, "relax.matmul", "lhs batch dim 0"
// LEGAL: relax.assert_dims #relax.expr<c> "broadcast" #relax.expr<max(b, c)>, "relax.matmul", "rhs batch dim 0"
// LEGAL: relax.call_tir
// LEGAL: relax.assert_dims #relax.expr<k> "eq" #relax.expr<j>, "relax.linear", "contraction dim"
// LEGAL: relax.assert_dims #relax.expr<p> "broadcast" #relax.expr<4>, "relax.linear", "bias dim 0"
// CANON-LABEL: relax.func @undecided_equalities
relax.func @undecided_equalities(%skip: !relax.tensor<[2, h], f32>, %up: !relax.tensor<[2, h floordiv 2 * 2], f32>,
                                 %u: !relax.tensor<[n], f32>, %v: !relax.tensor<[m], f32>,
                                 %a: !relax.tensor<[b, 2, 3], f32>, %c: !relax.tensor<[c, 3, 2], f32>,
                                 %x: !relax.tensor<[2, k], f32>, %w: !relax.tensor<[4, j], f32>, %bias: !relax.tensor<[p], f32>) {
  %cat = relax.concat %up, %skip {axis = 0 : i64} : (!relax.tensor<[2, h floordiv 2 * 2], f32>, !relax.tensor<[2, h], f32>) -> !relax.tensor<[4, h], f32>
  %sum = relax.add %up, %skip : (!relax.tensor<[2, h floordiv 2 * 2], f32>, !relax.tensor<[2, h], f32>) -> !relax.tensor<[2, h floordiv 2 * 2], f32>
  %prod = relax.multiply %u, %v : (!relax.tensor<[n], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[max(m, n)], f32>
  %mm = relax.matmul %a, %c : (!relax.tensor<[b, 2, 3], f32>, !relax.tensor<[c, 3, 2], f32>) -> !relax.tensor<[max(b, c), 2, 2], f32>
  %lin = relax.linear %x, %w, %bias : (!relax.tensor<[2, k], f32>, !relax.tensor<[4, j], f32>, !relax.tensor<[p], f32>) -> !relax.tensor<[2, 4], f32>
  relax.return
}
