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
