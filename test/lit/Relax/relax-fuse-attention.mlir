// RUN: relax-opt --relax-fuse-attention --split-input-file %s | FileCheck %s

// The torchscript BERT form: q and k^T each scaled by 0.5 (scale 0.25), an
// additive [b, 1, 1, t] mask, BNSH tensors from permute_dims of BSNH ones;
// symbolic s and t. The head transposes fold away.
// CHECK-LABEL: relax.func @bert_like
// CHECK-SAME: (%[[Q:.*]]: !relax.tensor<[b, s, 2, 16], f32>, %[[K:.*]]: !relax.tensor<[b, t, 2, 16], f32>, %[[V:.*]]: !relax.tensor<[b, t, 2, 8], f32>, %[[M:.*]]: !relax.tensor<[b, 1, 1, t], f32>)
// CHECK-NOT: relax.softmax
// CHECK-NOT: relax.matmul
// CHECK: %[[A:.*]] = relax.attention %[[Q]], %[[K]], %[[V]], %[[M]] {scale = 2.500000e-01 : f64}
// CHECK-NOT: relax.permute_dims
// CHECK: relax.return %[[A]]
relax.func @bert_like(%q: !relax.tensor<[b, s, 2, 16], f32>, %k: !relax.tensor<[b, t, 2, 16], f32>,
                      %v: !relax.tensor<[b, t, 2, 8], f32>, %m: !relax.tensor<[b, 1, 1, t], f32>)
    -> !relax.tensor<[b, s, 2, 8], f32> {
  %qp = relax.permute_dims %q {axes = array<i64: 0, 2, 1, 3>} : (!relax.tensor<[b, s, 2, 16], f32>) -> !relax.tensor<[b, 2, s, 16], f32>
  %kt = relax.permute_dims %k {axes = array<i64: 0, 2, 3, 1>} : (!relax.tensor<[b, t, 2, 16], f32>) -> !relax.tensor<[b, 2, 16, t], f32>
  %vp = relax.permute_dims %v {axes = array<i64: 0, 2, 1, 3>} : (!relax.tensor<[b, t, 2, 8], f32>) -> !relax.tensor<[b, 2, t, 8], f32>
  %c = relax.constant dense<5.000000e-01> : tensor<f32>
  %qs = relax.multiply %qp, %c : (!relax.tensor<[b, 2, s, 16], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[b, 2, s, 16], f32>
  %ks = relax.multiply %kt, %c : (!relax.tensor<[b, 2, 16, t], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[b, 2, 16, t], f32>
  %s0 = relax.matmul %qs, %ks : (!relax.tensor<[b, 2, s, 16], f32>, !relax.tensor<[b, 2, 16, t], f32>) -> !relax.tensor<[b, 2, s, t], f32>
  %s1 = relax.add %s0, %m : (!relax.tensor<[b, 2, s, t], f32>, !relax.tensor<[b, 1, 1, t], f32>) -> !relax.tensor<[b, 2, s, t], f32>
  %p = relax.softmax %s1 {axis = -1 : i64} : (!relax.tensor<[b, 2, s, t], f32>) -> !relax.tensor<[b, 2, s, t], f32>
  %o = relax.matmul %p, %vp : (!relax.tensor<[b, 2, s, t], f32>, !relax.tensor<[b, 2, t, 8], f32>) -> !relax.tensor<[b, 2, s, 8], f32>
  %r = relax.permute_dims %o {axes = array<i64: 0, 2, 1, 3>} : (!relax.tensor<[b, 2, s, 8], f32>) -> !relax.tensor<[b, s, 2, 8], f32>
  relax.return %r : !relax.tensor<[b, s, 2, 8], f32>
}

// -----

// Scores divided by a [1] constant, mask first in the add, a NaN guard on
// the probabilities (dynamo exports), and keys / values repeated over 2
// query heads per kv head (grouped-query attention) read unrepeated.
// CHECK-LABEL: relax.func @gqa_guarded
// CHECK-SAME: (%[[Q:.*]]: !relax.tensor<[1, 4, s, 8], f32>, %[[K:.*]]: !relax.tensor<[1, 2, t, 8], f32>, %[[V:.*]]: !relax.tensor<[1, 2, t, 8], f32>, %[[M:.*]]: !relax.tensor<[1, 1, s, t], f32>)
// CHECK-DAG: %[[QS:.*]] = relax.permute_dims %[[Q]] {axes = array<i64: 0, 2, 1, 3>}
// CHECK-DAG: %[[KS:.*]] = relax.permute_dims %[[K]] {axes = array<i64: 0, 2, 1, 3>}
// CHECK-DAG: %[[VS:.*]] = relax.permute_dims %[[V]] {axes = array<i64: 0, 2, 1, 3>}
// CHECK: %[[A:.*]] = relax.attention %[[QS]], %[[KS]], %[[VS]], %[[M]] {scale = 5.000000e-01 : f64} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, 1, s, t], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
// CHECK: %[[O:.*]] = relax.permute_dims %[[A]] {axes = array<i64: 0, 2, 1, 3>}
// CHECK: %[[NAN:.*]] = relax.isnan %[[O]]
// CHECK: %[[G:.*]] = relax.where %[[NAN]], %{{.*}}, %[[O]]
// CHECK-NOT: relax.softmax
// CHECK: relax.return %[[G]]
relax.func @gqa_guarded(%q: !relax.tensor<[1, 4, s, 8], f32>, %k: !relax.tensor<[1, 2, t, 8], f32>,
                        %v: !relax.tensor<[1, 2, t, 8], f32>, %m: !relax.tensor<[1, 1, s, t], f32>)
    -> !relax.tensor<[1, 4, s, 8], f32> {
  %ke = relax.expand_dims %k {axes = array<i64: 2>} : (!relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, 1, t, 8], f32>
  %kb = relax.broadcast_to %ke {shape = #relax.shape<[1, 2, 2, t, 8]>} : (!relax.tensor<[1, 2, 1, t, 8], f32>) -> !relax.tensor<[1, 2, 2, t, 8], f32>
  %kr = relax.reshape %kb {shape = #relax.shape<[1, 4, t, 8]>} : (!relax.tensor<[1, 2, 2, t, 8], f32>) -> !relax.tensor<[1, 4, t, 8], f32>
  %ve = relax.expand_dims %v {axes = array<i64: 2>} : (!relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, 1, t, 8], f32>
  %vb = relax.broadcast_to %ve {shape = #relax.shape<[1, 2, 2, t, 8]>} : (!relax.tensor<[1, 2, 1, t, 8], f32>) -> !relax.tensor<[1, 2, 2, t, 8], f32>
  %vr = relax.reshape %vb {shape = #relax.shape<[1, 4, t, 8]>} : (!relax.tensor<[1, 2, 2, t, 8], f32>) -> !relax.tensor<[1, 4, t, 8], f32>
  %kt = relax.permute_dims %kr {axes = array<i64: 0, 1, 3, 2>} : (!relax.tensor<[1, 4, t, 8], f32>) -> !relax.tensor<[1, 4, 8, t], f32>
  %s0 = relax.matmul %q, %kt : (!relax.tensor<[1, 4, s, 8], f32>, !relax.tensor<[1, 4, 8, t], f32>) -> !relax.tensor<[1, 4, s, t], f32>
  %c = relax.constant dense<2.000000e+00> : tensor<1xf32>
  %s1 = relax.divide %s0, %c : (!relax.tensor<[1, 4, s, t], f32>, !relax.tensor<[1], f32>) -> !relax.tensor<[1, 4, s, t], f32>
  %s2 = relax.add %m, %s1 : (!relax.tensor<[1, 1, s, t], f32>, !relax.tensor<[1, 4, s, t], f32>) -> !relax.tensor<[1, 4, s, t], f32>
  %p = relax.softmax %s2 : (!relax.tensor<[1, 4, s, t], f32>) -> !relax.tensor<[1, 4, s, t], f32>
  %n = relax.isnan %p : (!relax.tensor<[1, 4, s, t], f32>) -> !relax.tensor<[1, 4, s, t], i1>
  %z = relax.constant dense<0.000000e+00> : tensor<f32>
  %pg = relax.where %n, %z, %p : (!relax.tensor<[1, 4, s, t], i1>, !relax.tensor<[], f32>, !relax.tensor<[1, 4, s, t], f32>) -> !relax.tensor<[1, 4, s, t], f32>
  %o = relax.matmul %pg, %vr : (!relax.tensor<[1, 4, s, t], f32>, !relax.tensor<[1, 4, t, 8], f32>) -> !relax.tensor<[1, 4, s, 8], f32>
  relax.return %o : !relax.tensor<[1, 4, s, 8], f32>
}

// -----

// Negative: softmax over the query axis, not the keys.
// CHECK-LABEL: relax.func @softmax_other_axis
// CHECK-NOT: relax.attention
// CHECK: relax.softmax
relax.func @softmax_other_axis(%q: !relax.tensor<[1, 2, s, 8], f32>, %kt: !relax.tensor<[1, 2, 8, t], f32>,
                               %v: !relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, s, 8], f32> {
  %s0 = relax.matmul %q, %kt : (!relax.tensor<[1, 2, s, 8], f32>, !relax.tensor<[1, 2, 8, t], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %p = relax.softmax %s0 {axis = 2 : i64} : (!relax.tensor<[1, 2, s, t], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %o = relax.matmul %p, %v : (!relax.tensor<[1, 2, s, t], f32>, !relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, s, 8], f32>
  relax.return %o : !relax.tensor<[1, 2, s, 8], f32>
}

// -----

// Negative: the scale is a per-key tensor, not a scalar constant.
// CHECK-LABEL: relax.func @non_scalar_scale
// CHECK-NOT: relax.attention
// CHECK: relax.softmax
relax.func @non_scalar_scale(%q: !relax.tensor<[1, 2, s, 8], f32>, %kt: !relax.tensor<[1, 2, 8, t], f32>,
                             %v: !relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, s, 8], f32> {
  %s0 = relax.matmul %q, %kt : (!relax.tensor<[1, 2, s, 8], f32>, !relax.tensor<[1, 2, 8, t], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %c = relax.constant dense<[[[5.000000e-01]], [[2.500000e-01]]]> : tensor<2x1x1xf32>
  %s1 = relax.multiply %s0, %c : (!relax.tensor<[1, 2, s, t], f32>, !relax.tensor<[2, 1, 1], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %p = relax.softmax %s1 : (!relax.tensor<[1, 2, s, t], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %o = relax.matmul %p, %v : (!relax.tensor<[1, 2, s, t], f32>, !relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, s, 8], f32>
  relax.return %o : !relax.tensor<[1, 2, s, 8], f32>
}

// -----

// Negative: a mask over a key count u that is not provably t (it would
// broadcast only if u is 1 at run time).
// CHECK-LABEL: relax.func @mask_wrong_shape
// CHECK-NOT: relax.attention
// CHECK: relax.softmax
relax.func @mask_wrong_shape(%q: !relax.tensor<[1, 2, s, 8], f32>, %kt: !relax.tensor<[1, 2, 8, t], f32>,
                             %v: !relax.tensor<[1, 2, t, 8], f32>, %m: !relax.tensor<[1, 1, s, u], f32>)
    -> !relax.tensor<[1, 2, s, 8], f32> {
  %s0 = relax.matmul %q, %kt : (!relax.tensor<[1, 2, s, 8], f32>, !relax.tensor<[1, 2, 8, t], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %s1 = relax.add %s0, %m : (!relax.tensor<[1, 2, s, t], f32>, !relax.tensor<[1, 1, s, u], f32>) -> !relax.tensor<[1, 2, s, ?], f32>
  %p = relax.softmax %s1 : (!relax.tensor<[1, 2, s, ?], f32>) -> !relax.tensor<[1, 2, s, ?], f32>
  %o = relax.matmul %p, %v : (!relax.tensor<[1, 2, s, ?], f32>, !relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, s, 8], f32>
  relax.return %o : !relax.tensor<[1, 2, s, 8], f32>
}

// -----

// Negative: the probabilities have a second user, so the scores stay.
// CHECK-LABEL: relax.func @probabilities_used_twice
// CHECK-NOT: relax.attention
// CHECK: relax.softmax
relax.func @probabilities_used_twice(%q: !relax.tensor<[1, 2, s, 8], f32>, %kt: !relax.tensor<[1, 2, 8, t], f32>,
                                     %v: !relax.tensor<[1, 2, t, 8], f32>)
    -> (!relax.tensor<[1, 2, s, 8], f32>, !relax.tensor<[1, 2, s, t], f32>) {
  %s0 = relax.matmul %q, %kt : (!relax.tensor<[1, 2, s, 8], f32>, !relax.tensor<[1, 2, 8, t], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %p = relax.softmax %s0 : (!relax.tensor<[1, 2, s, t], f32>) -> !relax.tensor<[1, 2, s, t], f32>
  %o = relax.matmul %p, %v : (!relax.tensor<[1, 2, s, t], f32>, !relax.tensor<[1, 2, t, 8], f32>) -> !relax.tensor<[1, 2, s, 8], f32>
  relax.return %o, %p : !relax.tensor<[1, 2, s, 8], f32>, !relax.tensor<[1, 2, s, t], f32>
}
