// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// CHECK-LABEL: relax.func @layer_norm
// CHECK: relax.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: -1>} : (!relax.tensor<[b, s, 768], f32>, !relax.tensor<[768], f32>, !relax.tensor<[768], f32>) -> !relax.tensor<[b, s, 768], f32>
// CHECK: relax.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: 1, 2>, epsilon = 1.000000e-03 : f64} : (!relax.tensor<[b, s, 768], f32>, !relax.tensor<[s, 768], f32>, !relax.tensor<[s, 768], f32>) -> !relax.tensor<[b, s, 768], f32>
relax.func @layer_norm(%x: !relax.tensor<[b, s, 768], f32>, %g: !relax.tensor<[768], f32>, %bt: !relax.tensor<[768], f32>,
                       %g2: !relax.tensor<[s, 768], f32>) {
  %0 = relax.layer_norm %x, %g, %bt {axes = array<i64: -1>} : (!relax.tensor<[b, s, 768], f32>, !relax.tensor<[768], f32>, !relax.tensor<[768], f32>) -> !relax.tensor<[b, s, 768], f32>
  %1 = relax.layer_norm %x, %g2, %g2 {axes = array<i64: 1, 2>, epsilon = 1.0e-03 : f64} : (!relax.tensor<[b, s, 768], f32>, !relax.tensor<[s, 768], f32>, !relax.tensor<[s, 768], f32>) -> !relax.tensor<[b, s, 768], f32>
  relax.return
}

// Undecidable parameter dims (d vs e) are accepted; unknown rank skips the
// checks.
// CHECK-LABEL: relax.func @layer_norm_undecidable
// CHECK: relax.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: -1>} : (!relax.tensor<[n, d], f32>, !relax.tensor<[e], f32>, !relax.tensor<[?], f32>) -> !relax.tensor<[n, d], f32>
// CHECK: relax.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: -1>} : (!relax.tensor<*, f32>, !relax.tensor<[e], f32>, !relax.tensor<[?], f32>) -> !relax.tensor<*, f32>
relax.func @layer_norm_undecidable(%x: !relax.tensor<[n, d], f32>, %g: !relax.tensor<[e], f32>, %bt: !relax.tensor<[?], f32>,
                                   %u: !relax.tensor<*, f32>) {
  %0 = relax.layer_norm %x, %g, %bt {axes = array<i64: -1>} : (!relax.tensor<[n, d], f32>, !relax.tensor<[e], f32>, !relax.tensor<[?], f32>) -> !relax.tensor<[n, d], f32>
  %1 = relax.layer_norm %u, %g, %bt {axes = array<i64: -1>} : (!relax.tensor<*, f32>, !relax.tensor<[e], f32>, !relax.tensor<[?], f32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @rms_norm
// CHECK: relax.rms_norm %{{.*}}, %{{.*}} {axes = array<i64: 2>} : (!relax.tensor<[b, s, h * 64], f16>, !relax.tensor<[h * 64], f16>) -> !relax.tensor<[b, s, h * 64], f16>
relax.func @rms_norm(%x: !relax.tensor<[b, s, h * 64], f16>, %w: !relax.tensor<[h * 64], f16>, %hh: !relax.tensor<[h], f16>) {
  %0 = relax.rms_norm %x, %w {axes = array<i64: 2>} : (!relax.tensor<[b, s, h * 64], f16>, !relax.tensor<[h * 64], f16>) -> !relax.tensor<[b, s, h * 64], f16>
  relax.return
}

// Channels 32 over 8 groups; channels c * 8 over 4 groups (provably
// divisible); channels c over 3 groups (undecidable: accepted).
// CHECK-LABEL: relax.func @group_norm
// CHECK: relax.group_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 8 : i64} : (!relax.tensor<[n, 32, h, w], f32>, !relax.tensor<[32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32, h, w], f32>
// CHECK: relax.group_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: -2, -1>, channel_axis = -3 : i64, num_groups = 4 : i64} : (!relax.tensor<[n, c * 8, h, w], f32>, !relax.tensor<[c * 8], f32>, !relax.tensor<[c * 8], f32>) -> !relax.tensor<[n, c * 8, h, w], f32>
// CHECK: relax.group_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: 1>, channel_axis = 2 : i64, num_groups = 3 : i64} : (!relax.tensor<[n, h, c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, h, c], f32>
relax.func @group_norm(%x: !relax.tensor<[n, 32, h, w], f32>, %g: !relax.tensor<[32], f32>,
                       %y: !relax.tensor<[n, c * 8, h, w], f32>, %g8: !relax.tensor<[c * 8], f32>,
                       %z: !relax.tensor<[n, h, c], f32>, %gc: !relax.tensor<[c], f32>) {
  %0 = relax.group_norm %x, %g, %g {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 8 : i64} : (!relax.tensor<[n, 32, h, w], f32>, !relax.tensor<[32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32, h, w], f32>
  %1 = relax.group_norm %y, %g8, %g8 {axes = array<i64: -2, -1>, channel_axis = -3 : i64, num_groups = 4 : i64} : (!relax.tensor<[n, c * 8, h, w], f32>, !relax.tensor<[c * 8], f32>, !relax.tensor<[c * 8], f32>) -> !relax.tensor<[n, c * 8, h, w], f32>
  %2 = relax.group_norm %z, %gc, %gc {axes = array<i64: 1>, channel_axis = 2 : i64, num_groups = 3 : i64} : (!relax.tensor<[n, h, c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, h, c], f32>
  relax.return
}

// CHECK-LABEL: relax.func @batch_norm
// CHECK: relax.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, c, h, w], f32>
// CHECK: relax.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64, epsilon = 1.000000e-03 : f64} : (!relax.tensor<[n, h, w, c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, h, w, c], f32>
relax.func @batch_norm(%x: !relax.tensor<[n, c, h, w], f32>, %p: !relax.tensor<[c], f32>, %y: !relax.tensor<[n, h, w, c], f32>) {
  %0 = relax.batch_norm %x, %p, %p, %p, %p : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, c, h, w], f32>
  %1 = relax.batch_norm %y, %p, %p, %p, %p {axis = -1 : i64, epsilon = 1.0e-03 : f64} : (!relax.tensor<[n, h, w, c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, h, w, c], f32>
  relax.return
}

// oh = (h + 1 + 1 - 1 * (3 - 1) - 1) floordiv 2 + 1, canonically
// (h + 1) floordiv 2.
// CHECK-LABEL: relax.func @conv2d
// CHECK: relax.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 3, 3, 3], f32>) -> !relax.tensor<[n, o, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
// CHECK: relax.conv2d %{{.*}}, %{{.*}} : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[o, c, kh, kw], f32>) -> !relax.tensor<[n, o, h - kh + 1, -kw + w + 1], f32>
// CHECK: relax.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 2, 1>, padding = array<i64: 1, 1>, strides = array<i64: 1, 3>} : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[o, c, 3, 3], f32>) -> !relax.tensor<[n, o, h - 2, (w + 2) floordiv 3], f32>
// CHECK: relax.conv2d %{{.*}}, %{{.*}} {groups = 4 : i64, padding = array<i64: 0, 1, 2, 1>} : (!relax.tensor<[n, c * 4, h, w], f32>, !relax.tensor<[8, c, 3, 3], f32>) -> !relax.tensor<[n, 8, h, w], f32>
// CHECK: relax.conv2d %{{.*}}, %{{.*}} : (!relax.tensor<*, f32>, !relax.tensor<[o, c, 3, 3], f32>) -> !relax.tensor<[?, o, ?, ?], f32>
relax.func @conv2d(%x: !relax.tensor<[n, 3, h, w], f32>, %k: !relax.tensor<[o, 3, 3, 3], f32>,
                   %y: !relax.tensor<[n, c, h, w], f32>, %ks: !relax.tensor<[o, c, kh, kw], f32>,
                   %k3: !relax.tensor<[o, c, 3, 3], f32>,
                   %z: !relax.tensor<[n, c * 4, h, w], f32>, %kg: !relax.tensor<[8, c, 3, 3], f32>,
                   %u: !relax.tensor<*, f32>) {
  %0 = relax.conv2d %x, %k {padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 3, 3, 3], f32>) -> !relax.tensor<[n, o, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %1 = relax.conv2d %y, %ks : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[o, c, kh, kw], f32>) -> !relax.tensor<[n, o, h - kh + 1, w - kw + 1], f32>
  %2 = relax.conv2d %y, %k3 {padding = array<i64: 1, 1>, dilation = array<i64: 2, 1>, strides = array<i64: 1, 3>} : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[o, c, 3, 3], f32>) -> !relax.tensor<[n, o, h - 2, (w + 2) floordiv 3], f32>
  %3 = relax.conv2d %z, %kg {groups = 4 : i64, padding = array<i64: 0, 1, 2, 1>} : (!relax.tensor<[n, c * 4, h, w], f32>, !relax.tensor<[8, c, 3, 3], f32>) -> !relax.tensor<[n, 8, h, w], f32>
  %4 = relax.conv2d %u, %k3 : (!relax.tensor<*, f32>, !relax.tensor<[o, c, 3, 3], f32>) -> !relax.tensor<[?, o, ?, ?], f32>
  relax.return
}

// CHECK-LABEL: relax.func @pool2d
// CHECK: relax.max_pool2d %{{.*}} {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h floordiv 2, w floordiv 2], f32>
// CHECK: relax.max_pool2d %{{.*}} {ceil_mode = true, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h floordiv 2, w floordiv 2], f32>
// CHECK: relax.max_pool2d %{{.*}} {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, (h + 1) floordiv 2 - 1, (w + 1) floordiv 2 - 1], f32>
// CHECK: relax.avg_pool2d %{{.*}} {dilation = array<i64: 2>, padding = array<i64: 1, 1, 2, 2>, pool_size = array<i64: 3>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h - 1, w - 1], f32>
// CHECK: relax.avg_pool2d %{{.*}} {ceil_mode = true, pool_size = array<i64: 2>, strides = array<i64: 2>} : (!relax.tensor<[1, 8, 7, 7], f32>) -> !relax.tensor<[1, 8, 4, 4], f32>
// CHECK: relax.avg_pool2d %{{.*}} {pool_size = array<i64: 2>, strides = array<i64: 2>} : (!relax.tensor<[1, 8, 7, 7], f32>) -> !relax.tensor<[1, 8, 3, 3], f32>
relax.func @pool2d(%x: !relax.tensor<[n, c, h, w], f32>, %s: !relax.tensor<[1, 8, 7, 7], f32>) {
  %0 = relax.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h floordiv 2, w floordiv 2], f32>
  %1 = relax.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h floordiv 2, w floordiv 2], f32>
  %2 = relax.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, (h - 1) floordiv 2, (w - 1) floordiv 2], f32>
  %3 = relax.avg_pool2d %x {pool_size = array<i64: 3>, padding = array<i64: 1, 1, 2, 2>, dilation = array<i64: 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h - 1, w - 1], f32>
  %4 = relax.avg_pool2d %s {pool_size = array<i64: 2>, strides = array<i64: 2>, ceil_mode = true} : (!relax.tensor<[1, 8, 7, 7], f32>) -> !relax.tensor<[1, 8, 4, 4], f32>
  %5 = relax.avg_pool2d %s {pool_size = array<i64: 2>, strides = array<i64: 2>} : (!relax.tensor<[1, 8, 7, 7], f32>) -> !relax.tensor<[1, 8, 3, 3], f32>
  relax.return
}

// CHECK-LABEL: relax.func @adaptive_pool
// CHECK: relax.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 7, 7>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 7, 7], f32>
// CHECK: relax.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 1>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 1, 1], f32>
// CHECK: relax.adaptive_avg_pool2d %{{.*}} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h, w], f32>
// CHECK: relax.global_avg_pool2d %{{.*}} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 1, 1], f32>
// CHECK: relax.global_avg_pool2d %{{.*}} : (!relax.tensor<*, f32>) -> !relax.tensor<[?, ?, 1, 1], f32>
relax.func @adaptive_pool(%x: !relax.tensor<[n, c, h, w], f32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.adaptive_avg_pool2d %x {output_size = array<i64: 7, 7>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 7, 7], f32>
  %1 = relax.adaptive_avg_pool2d %x {output_size = array<i64: 1>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 1, 1], f32>
  %2 = relax.adaptive_avg_pool2d %x : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h, w], f32>
  %3 = relax.global_avg_pool2d %x : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 1, 1], f32>
  %4 = relax.global_avg_pool2d %u : (!relax.tensor<*, f32>) -> !relax.tensor<[?, ?, 1, 1], f32>
  relax.return
}

// Grouped-query attention: 8 query heads over 2 key/value heads, symbolic
// sequence lengths s and t.
// CHECK-LABEL: relax.func @attention
// CHECK: relax.attention %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 128], f16>) -> !relax.tensor<[b, s, 8, 128], f16>
// CHECK: relax.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {causal = true, scale = 1.250000e-01 : f64} : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 128], f16>, !relax.tensor<[1, 1, s, t], f16>) -> !relax.tensor<[b, s, 8, 128], f16>
// CHECK: relax.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 128], f16>, !relax.tensor<[s, t], i1>) -> !relax.tensor<[b, s, 8, 128], f16>
relax.func @attention(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 2, 64], f16>,
                      %v: !relax.tensor<[b, t, 2, 128], f16>, %m: !relax.tensor<[1, 1, s, t], f16>,
                      %bm: !relax.tensor<[s, t], i1>) {
  %0 = relax.attention %q, %k, %v : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 128], f16>) -> !relax.tensor<[b, s, 8, 128], f16>
  %1 = relax.attention %q, %k, %v, %m {causal = true, scale = 0.125 : f64} : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 128], f16>, !relax.tensor<[1, 1, s, t], f16>) -> !relax.tensor<[b, s, 8, 128], f16>
  %2 = relax.attention %q, %k, %v, %bm : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 128], f16>, !relax.tensor<[s, t], i1>) -> !relax.tensor<[b, s, 8, 128], f16>
  relax.return
}

// Symbolic heads: h * 4 query heads over h key/value heads is accepted;
// an undecidable batch (b vs c) becomes `?`; unknown rank counts as `?`.
// CHECK-LABEL: relax.func @attention_symbolic
// CHECK: relax.attention %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[b, s, h * 4, d], f32>, !relax.tensor<[b, t, h, d], f32>, !relax.tensor<[b, t, h, d], f32>) -> !relax.tensor<[b, s, h * 4, d], f32>
// CHECK: relax.attention %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[b, s, h * 4, d], f32>, !relax.tensor<[c, t, h, d], f32>, !relax.tensor<[c, t, h, d], f32>) -> !relax.tensor<[?, s, h * 4, d], f32>
// CHECK: relax.attention %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[b, s, h * 4, d], f32>, !relax.tensor<[b, t, h, d], f32>, !relax.tensor<*, f32>) -> !relax.tensor<[?, s, h * 4, ?], f32>
relax.func @attention_symbolic(%h0: !relax.tensor<[h], f32>, %q: !relax.tensor<[b, s, h * 4, d], f32>,
                               %k: !relax.tensor<[b, t, h, d], f32>, %k2: !relax.tensor<[c, t, h, d], f32>,
                               %u: !relax.tensor<*, f32>) {
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, h * 4, d], f32>, !relax.tensor<[b, t, h, d], f32>, !relax.tensor<[b, t, h, d], f32>) -> !relax.tensor<[b, s, h * 4, d], f32>
  %1 = relax.attention %q, %k2, %k2 : (!relax.tensor<[b, s, h * 4, d], f32>, !relax.tensor<[c, t, h, d], f32>, !relax.tensor<[c, t, h, d], f32>) -> !relax.tensor<[?, s, h * 4, d], f32>
  %2 = relax.attention %q, %k, %u : (!relax.tensor<[b, s, h * 4, d], f32>, !relax.tensor<[b, t, h, d], f32>, !relax.tensor<*, f32>) -> !relax.tensor<[?, s, h * 4, ?], f32>
  relax.return
}

// CHECK-LABEL: relax.func @conv2d_transpose
// CHECK: relax.conv2d_transpose %{{.*}}, %{{.*}} {output_padding = array<i64: 1>, padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 8, 3, 3], f32>) -> !relax.tensor<[n, 8, h * 2, w * 2], f32>
// CHECK: relax.conv2d_transpose %{{.*}}, %{{.*}} {dilation = array<i64: 2, 1>, groups = 2 : i64, padding = array<i64: 0, 1, 2, 3>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, o, kh, kw], f32>) -> !relax.tensor<[n, o * 2, h + kh * 2 - 4, kw + w - 5], f32>
// CHECK: relax.conv2d_transpose %{{.*}}, %{{.*}} {strides = array<i64: 3>} : (!relax.tensor<*, f32>, !relax.tensor<[4, 8, 3, 3], f32>) -> !relax.tensor<[?, 8, ?, ?], f32>
relax.func @conv2d_transpose(%x: !relax.tensor<[n, 4, h, w], f32>, %k: !relax.tensor<[4, 8, 3, 3], f32>,
                             %kg: !relax.tensor<[4, o, kh, kw], f32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.conv2d_transpose %x, %k {output_padding = array<i64: 1>, padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 8, 3, 3], f32>) -> !relax.tensor<[n, 8, h * 2, w * 2], f32>
  %1 = relax.conv2d_transpose %x, %kg {dilation = array<i64: 2, 1>, groups = 2 : i64, padding = array<i64: 0, 1, 2, 3>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, o, kh, kw], f32>) -> !relax.tensor<[n, o * 2, h + kh * 2 - 4, w + kw - 5], f32>
  %2 = relax.conv2d_transpose %u, %k {strides = array<i64: 3>} : (!relax.tensor<*, f32>, !relax.tensor<[4, 8, 3, 3], f32>) -> !relax.tensor<[?, 8, ?, ?], f32>
  relax.return
}


// CHECK-LABEL: relax.func @resize2d
// CHECK: relax.resize2d %{{.*}} {size = #relax.shape<[h * 2, w * 2]>} : (!relax.tensor<[n, c, h, w], f16>) -> !relax.tensor<[n, c, h * 2, w * 2], f16>
// CHECK: relax.resize2d %{{.*}} {coordinate_transformation_mode = "align_corners", method = "linear", scales = array<f64: 5.000000e-01, 1.500000e+00>, size = #relax.shape<[h floordiv 2, w + w floordiv 2]>} : (!relax.tensor<[n, c, h, w], f16>) -> !relax.tensor<[n, c, h floordiv 2, w + w floordiv 2], f16>
// CHECK: relax.resize2d %{{.*}} {nearest_mode = "ceil", size = #relax.shape<[7, 9]>} : (!relax.tensor<*, i8>) -> !relax.tensor<[?, ?, 7, 9], i8>
relax.func @resize2d(%x: !relax.tensor<[n, c, h, w], f16>, %u: !relax.tensor<*, i8>) {
  %0 = relax.resize2d %x {size = #relax.shape<[h * 2, w * 2]>} : (!relax.tensor<[n, c, h, w], f16>) -> !relax.tensor<[n, c, h * 2, w * 2], f16>
  %1 = relax.resize2d %x {coordinate_transformation_mode = "align_corners", method = "linear", scales = array<f64: 0.5, 1.5>, size = #relax.shape<[h floordiv 2, (w * 3) floordiv 2]>} : (!relax.tensor<[n, c, h, w], f16>) -> !relax.tensor<[n, c, h floordiv 2, w + w floordiv 2], f16>
  %2 = relax.resize2d %u {nearest_mode = "ceil", size = #relax.shape<[7, 9]>} : (!relax.tensor<*, i8>) -> !relax.tensor<[?, ?, 7, 9], i8>
  relax.return
}

// The recurrences infer [seq, D, batch, H] and [D, batch, H] over symbolic
// seq, batch and hidden size (gates * h).
// CHECK-LABEL: relax.func @recurrences
// CHECK: relax.lstm {{.*}} {direction = "bidirectional", input_forget = true} : {{.*}} -> (!relax.tensor<[s, 2, n, 8], f32>, !relax.tensor<[2, n, 8], f32>, !relax.tensor<[2, n, 8], f32>)
// CHECK: relax.gru {{.*}} {activations = ["HardSigmoid", "Softsign"], direction = "reverse", linear_before_reset = true} : {{.*}} -> (!relax.tensor<[s, 1, n, h], f16>, !relax.tensor<[1, n, h], f16>)
// CHECK: relax.rnn {{.*}} {activation_alpha = array<f64: 5.000000e-01>, activations = ["LeakyRelu"], clip = 2.000000e+00 : f64} : {{.*}} -> (!relax.tensor<[s, 1, n, 3], f32>, !relax.tensor<[1, n, 3], f32>)
relax.func @recurrences(%xl: !relax.tensor<[s, n, 2, 32], f32>, %rl: !relax.tensor<[2, 32, 8], f32>, %bl: !relax.tensor<[2, 32], f32>,
                        %hl: !relax.tensor<[2, n, 8], f32>, %pl: !relax.tensor<[2, 24], f32>, %lens: !relax.tensor<[n], i32>,
                        %xg: !relax.tensor<[s, n, 1, 3 * h], f16>, %rg: !relax.tensor<[1, 3 * h, h], f16>, %bg: !relax.tensor<[1, 3 * h], f16>,
                        %hg: !relax.tensor<[1, n, h], f16>, %lens64: !relax.tensor<[n], i64>,
                        %xr: !relax.tensor<[s, n, 1, 3], f32>, %rr: !relax.tensor<[1, 3, 3], f32>, %br: !relax.tensor<[1, 3], f32>, %hr: !relax.tensor<[1, n, 3], f32>) {
  %y, %yh, %yc = relax.lstm %xl, %rl, %bl, %hl, %hl, %pl, %lens {direction = "bidirectional", input_forget = true} : (!relax.tensor<[s, n, 2, 32], f32>, !relax.tensor<[2, 32, 8], f32>, !relax.tensor<[2, 32], f32>, !relax.tensor<[2, n, 8], f32>, !relax.tensor<[2, n, 8], f32>, !relax.tensor<[2, 24], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 2, n, 8], f32>, !relax.tensor<[2, n, 8], f32>, !relax.tensor<[2, n, 8], f32>)
  %gy, %gh = relax.gru %xg, %rg, %bg, %hg, %lens64 {activations = ["HardSigmoid", "Softsign"], direction = "reverse", linear_before_reset = true} : (!relax.tensor<[s, n, 1, 3 * h], f16>, !relax.tensor<[1, 3 * h, h], f16>, !relax.tensor<[1, 3 * h], f16>, !relax.tensor<[1, n, h], f16>, !relax.tensor<[n], i64>) -> (!relax.tensor<[s, 1, n, h], f16>, !relax.tensor<[1, n, h], f16>)
  %ry, %rh = relax.rnn %xr, %rr, %br, %hr, %lens {activations = ["LeakyRelu"], activation_alpha = array<f64: 0.5>, clip = 2.0 : f64} : (!relax.tensor<[s, n, 1, 3], f32>, !relax.tensor<[1, 3, 3], f32>, !relax.tensor<[1, 3], f32>, !relax.tensor<[1, n, 3], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 3], f32>, !relax.tensor<[1, n, 3], f32>)
  relax.return
}
