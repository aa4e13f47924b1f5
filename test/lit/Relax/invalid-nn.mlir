// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @layer_norm_gamma_dim(%x: !relax.tensor<[n, s, 768], f32>, %g: !relax.tensor<[512], f32>) {
  // expected-error@+2 {{'relax.layer_norm' op gamma shape [512] must be [768]: dim 0 is 512, expected 768}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.layer_norm %x, %g, %g {axes = array<i64: -1>} : (!relax.tensor<[n, s, 768], f32>, !relax.tensor<[512], f32>, !relax.tensor<[512], f32>) -> !relax.tensor<[n, s, 768], f32>
  relax.return
}

// -----

relax.func @layer_norm_gamma_rank(%x: !relax.tensor<[n, s, 768], f32>, %g: !relax.tensor<[s, 768], f32>, %b: !relax.tensor<[768], f32>) {
  // expected-error@+2 {{'relax.layer_norm' op gamma shape [s, 768] must be [768]}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.layer_norm %x, %g, %b {axes = array<i64: -1>} : (!relax.tensor<[n, s, 768], f32>, !relax.tensor<[s, 768], f32>, !relax.tensor<[768], f32>) -> !relax.tensor<[n, s, 768], f32>
  relax.return
}

// -----

relax.func @layer_norm_beta_symbolic(%x: !relax.tensor<[n, s, 768], f32>, %g: !relax.tensor<[s, 768], f32>, %b: !relax.tensor<[s + 1, 768], f32>) {
  // expected-error@+2 {{'relax.layer_norm' op beta shape [s + 1, 768] must be [s, 768]: dim 0 is s + 1, expected s}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.layer_norm %x, %g, %b {axes = array<i64: 1, 2>} : (!relax.tensor<[n, s, 768], f32>, !relax.tensor<[s, 768], f32>, !relax.tensor<[s + 1, 768], f32>) -> !relax.tensor<[n, s, 768], f32>
  relax.return
}

// -----

relax.func @layer_norm_dup_axes(%x: !relax.tensor<[n, s, 768], f32>, %g: !relax.tensor<[768], f32>) {
  // expected-error@+2 {{'relax.layer_norm' op axis -1 repeats axis 2 (both are dim 2 of rank 3)}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.layer_norm %x, %g, %g {axes = array<i64: 2, -1>} : (!relax.tensor<[n, s, 768], f32>, !relax.tensor<[768], f32>, !relax.tensor<[768], f32>) -> !relax.tensor<[n, s, 768], f32>
  relax.return
}

// -----

relax.func @layer_norm_int(%x: !relax.tensor<[n, 8], i32>, %g: !relax.tensor<[8], i32>) {
  // expected-error@+2 {{'relax.layer_norm' op input requires a floating-point dtype}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.layer_norm %x, %g, %g {axes = array<i64: -1>} : (!relax.tensor<[n, 8], i32>, !relax.tensor<[8], i32>, !relax.tensor<[8], i32>) -> !relax.tensor<[n, 8], i32>
  relax.return
}

// -----

relax.func @layer_norm_dtype(%x: !relax.tensor<[n, 8], f32>, %g: !relax.tensor<[8], f16>) {
  // expected-error@+2 {{'relax.layer_norm' op gamma dtype f16 differs from input dtype f32}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.layer_norm %x, %g, %g {axes = array<i64: -1>} : (!relax.tensor<[n, 8], f32>, !relax.tensor<[8], f16>, !relax.tensor<[8], f16>) -> !relax.tensor<[n, 8], f32>
  relax.return
}

// -----

relax.func @rms_norm_weight(%hh: !relax.tensor<[h], f32>, %x: !relax.tensor<[n, h * 64], f32>, %w: !relax.tensor<[h * 64 + 1], f32>) {
  // expected-error@+2 {{'relax.rms_norm' op weight shape [h * 64 + 1] must be [h * 64]: dim 0 is h * 64 + 1, expected h * 64}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.rms_norm %x, %w {axes = array<i64: 1>} : (!relax.tensor<[n, h * 64], f32>, !relax.tensor<[h * 64 + 1], f32>) -> !relax.tensor<[n, h * 64], f32>
  relax.return
}

// -----

relax.func @group_norm_divisible(%x: !relax.tensor<[n, 6, h, w], f32>, %g: !relax.tensor<[6], f32>) {
  // expected-error@+2 {{'relax.group_norm' op channels 6 are not divisible by num_groups 4 (remainder 2)}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.group_norm %x, %g, %g {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 4 : i64} : (!relax.tensor<[n, 6, h, w], f32>, !relax.tensor<[6], f32>, !relax.tensor<[6], f32>) -> !relax.tensor<[n, 6, h, w], f32>
  relax.return
}

// -----

relax.func @group_norm_divisible_symbolic(%cc: !relax.tensor<[c], f32>, %x: !relax.tensor<[n, c * 4 + 2, h], f32>, %g: !relax.tensor<[c * 4 + 2], f32>) {
  // expected-error@+2 {{'relax.group_norm' op channels c * 4 + 2 are not divisible by num_groups 4 (remainder 2)}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.group_norm %x, %g, %g {axes = array<i64: 2>, channel_axis = 1 : i64, num_groups = 4 : i64} : (!relax.tensor<[n, c * 4 + 2, h], f32>, !relax.tensor<[c * 4 + 2], f32>, !relax.tensor<[c * 4 + 2], f32>) -> !relax.tensor<[n, c * 4 + 2, h], f32>
  relax.return
}

// -----

relax.func @group_norm_zero_groups(%x: !relax.tensor<[n, 8, h, w], f32>, %g: !relax.tensor<[8], f32>) {
  // expected-error@+2 {{'relax.group_norm' op num_groups must be positive, got 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.group_norm %x, %g, %g {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 0 : i64} : (!relax.tensor<[n, 8, h, w], f32>, !relax.tensor<[8], f32>, !relax.tensor<[8], f32>) -> !relax.tensor<[n, 8, h, w], f32>
  relax.return
}

// -----

relax.func @group_norm_channel_in_axes(%x: !relax.tensor<[n, 8, h, w], f32>, %g: !relax.tensor<[8], f32>) {
  // expected-error@+2 {{'relax.group_norm' op axes must not contain the channel axis 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.group_norm %x, %g, %g {axes = array<i64: 1, 2>, channel_axis = -3 : i64, num_groups = 2 : i64} : (!relax.tensor<[n, 8, h, w], f32>, !relax.tensor<[8], f32>, !relax.tensor<[8], f32>) -> !relax.tensor<[n, 8, h, w], f32>
  relax.return
}

// -----

relax.func @group_norm_gamma(%x: !relax.tensor<[n, 8, h, w], f32>, %g: !relax.tensor<[16], f32>, %b: !relax.tensor<[8], f32>) {
  // expected-error@+2 {{'relax.group_norm' op gamma shape [16] must be [8]: dim 0 is 16, expected 8}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.group_norm %x, %g, %b {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 2 : i64} : (!relax.tensor<[n, 8, h, w], f32>, !relax.tensor<[16], f32>, !relax.tensor<[8], f32>) -> !relax.tensor<[n, 8, h, w], f32>
  relax.return
}

// -----

relax.func @batch_norm_param(%x: !relax.tensor<[n, c, h, w], f32>, %p: !relax.tensor<[c], f32>, %q: !relax.tensor<[c + 1], f32>) {
  // expected-error@+2 {{'relax.batch_norm' op moving_var shape [c + 1] must be [c]: dim 0 is c + 1, expected c}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.batch_norm %x, %p, %p, %p, %q : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c + 1], f32>) -> !relax.tensor<[n, c, h, w], f32>
  relax.return
}

// -----

relax.func @batch_norm_axis(%x: !relax.tensor<[n, c, h, w], f32>, %p: !relax.tensor<[c], f32>) {
  // expected-error@+2 {{'relax.batch_norm' op axis 4 is out of range for rank 4}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.batch_norm %x, %p, %p, %p, %p {axis = 4 : i64} : (!relax.tensor<[n, c, h, w], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, c, h, w], f32>
  relax.return
}

// -----

relax.func @conv2d_channels(%x: !relax.tensor<[n, 3, h, w], f32>, %k: !relax.tensor<[o, 4, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op input channels 3 must equal weight in-channels * groups = 4}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 4, 3, 3], f32>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_channels_groups(%x: !relax.tensor<[n, c * 2 + 1, h, w], f32>, %k: !relax.tensor<[o, c, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op input channels c * 2 + 1 must equal weight in-channels * groups = c * 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k {groups = 2 : i64} : (!relax.tensor<[n, c * 2 + 1, h, w], f32>, !relax.tensor<[o, c, 3, 3], f32>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_out_groups(%x: !relax.tensor<[n, 4, h, w], f32>, %k: !relax.tensor<[5, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op weight out-channels 5 are not divisible by groups 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k {groups = 2 : i64} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[5, 2, 3, 3], f32>) -> !relax.tensor<[n, 5, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_zero_groups(%x: !relax.tensor<[n, 4, h, w], f32>, %k: !relax.tensor<[5, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op groups must be positive, got 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k {groups = 0 : i64} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[5, 2, 3, 3], f32>) -> !relax.tensor<[n, 5, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_rank(%x: !relax.tensor<[n, 3, h], f32>, %k: !relax.tensor<[o, 4, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op input must have rank 4, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k : (!relax.tensor<[n, 3, h], f32>, !relax.tensor<[o, 4, 3, 3], f32>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_padding(%x: !relax.tensor<[n, 3, h, w], f32>, %k: !relax.tensor<[o, 3, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op padding must have 1, 2 or 4 values, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k {padding = array<i64: 1, 1, 1>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 3, 3, 3], f32>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_negative_padding(%x: !relax.tensor<[n, 3, h, w], f32>, %k: !relax.tensor<[o, 3, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op padding must be non-negative}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k {padding = array<i64: -1>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 3, 3, 3], f32>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_strides(%x: !relax.tensor<[n, 3, h, w], f32>, %k: !relax.tensor<[o, 3, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op strides must be positive}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k {strides = array<i64: 1, 0>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 3, 3, 3], f32>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_dilation(%x: !relax.tensor<[n, 3, h, w], f32>, %k: !relax.tensor<[o, 3, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op dilation must have 1 or 2 values, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k {dilation = array<i64: 1, 1, 1>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 3, 3, 3], f32>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_window(%x: !relax.tensor<[1, 3, 2, w], f32>, %k: !relax.tensor<[o, 3, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d' op output height 0 is not positive (input 2, kernel 3)}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k : (!relax.tensor<[1, 3, 2, w], f32>, !relax.tensor<[o, 3, 3, 3], f32>) -> !relax.tensor<[1, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_dtype(%x: !relax.tensor<[n, 3, h, w], f32>, %k: !relax.tensor<[o, 3, 3, 3], f16>) {
  // expected-error@+2 {{'relax.conv2d' op weight dtype f16 differs from input dtype f32}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.conv2d %x, %k : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[o, 3, 3, 3], f16>) -> !relax.tensor<[n, o, ?, ?], f32>
  relax.return
}

// -----

relax.func @pool_size(%x: !relax.tensor<[n, c, h, w], f32>) {
  // expected-error@+2 {{'relax.max_pool2d' op pool_size must have 1 or 2 values, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.max_pool2d %x {pool_size = array<i64: 2, 2, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, ?, ?], f32>
  relax.return
}

// -----

relax.func @pool_window(%x: !relax.tensor<[n, c, 4, 1], f32>) {
  // expected-error@+2 {{'relax.avg_pool2d' op output width 0 is not positive (input 1, kernel 2)}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.avg_pool2d %x {pool_size = array<i64: 2>} : (!relax.tensor<[n, c, 4, 1], f32>) -> !relax.tensor<[n, c, ?, ?], f32>
  relax.return
}

// -----

relax.func @pool_rank(%x: !relax.tensor<[n, c, h], f32>) {
  // expected-error@+2 {{'relax.max_pool2d' op input must have rank 4, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.max_pool2d %x {pool_size = array<i64: 2>} : (!relax.tensor<[n, c, h], f32>) -> !relax.tensor<[n, c, ?], f32>
  relax.return
}

// -----

relax.func @adaptive_size(%x: !relax.tensor<[n, c, h, w], f32>) {
  // expected-error@+2 {{'relax.adaptive_avg_pool2d' op output_size must be positive}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.adaptive_avg_pool2d %x {output_size = array<i64: 0, 1>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, ?, ?], f32>
  relax.return
}

// -----

relax.func @global_pool_rank(%x: !relax.tensor<[n, c], f32>) {
  // expected-error@+2 {{'relax.global_avg_pool2d' op input must have rank 4, got 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.global_avg_pool2d %x : (!relax.tensor<[n, c], f32>) -> !relax.tensor<[n, c, 1, 1], f32>
  relax.return
}

// -----

relax.func @attention_heads(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 3, 64], f16>) {
  // expected-error@+2 {{'relax.attention' op query heads 8 are not a multiple of key/value heads 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 3, 64], f16>, !relax.tensor<[b, t, 3, 64], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @attention_heads_symbolic(%hh: !relax.tensor<[h], f32>, %q: !relax.tensor<[b, s, h * 2 + 1, d], f32>, %k: !relax.tensor<[b, t, 2, d], f32>) {
  // expected-error@+2 {{'relax.attention' op query heads h * 2 + 1 are not a multiple of key/value heads 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, h * 2 + 1, d], f32>, !relax.tensor<[b, t, 2, d], f32>, !relax.tensor<[b, t, 2, d], f32>) -> !relax.tensor<[b, s, h * 2 + 1, d], f32>
  relax.return
}

// -----

relax.func @attention_head_dim(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 2, 128], f16>) {
  // expected-error@+2 {{'relax.attention' op query/key head dim mismatch: 64 vs 128}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 128], f16>, !relax.tensor<[b, t, 2, 128], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @attention_batch(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b + 1, t, 2, 64], f16>) {
  // expected-error@+2 {{'relax.attention' op query/key batch mismatch: b vs b + 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b + 1, t, 2, 64], f16>, !relax.tensor<[b + 1, t, 2, 64], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @attention_kv_len(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 2, 64], f16>, %v: !relax.tensor<[b, t + 1, 2, 64], f16>) {
  // expected-error@+2 {{'relax.attention' op key/value sequence length mismatch: t vs t + 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %v : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t + 1, 2, 64], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @attention_mask(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 2, 64], f16>, %m: !relax.tensor<[1, 4, s, t], f16>) {
  // expected-error@+2 {{'relax.attention' op mask dim 1 (4) cannot broadcast to 8 (shape [1, 4, s, t] to [b, 8, s, t])}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k, %m : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[1, 4, s, t], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @attention_mask_rank(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 2, 64], f16>, %m: !relax.tensor<[1, 1, 1, s, t], f16>) {
  // expected-error@+2 {{'relax.attention' op mask of rank 5 cannot broadcast to rank 4 shape [b, 8, s, t]}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k, %m : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[1, 1, 1, s, t], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @attention_int(%q: !relax.tensor<[b, s, 8, 64], i32>, %k: !relax.tensor<[b, t, 2, 64], i32>) {
  // expected-error@+2 {{'relax.attention' op query requires a floating-point dtype}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, 8, 64], i32>, !relax.tensor<[b, t, 2, 64], i32>, !relax.tensor<[b, t, 2, 64], i32>) -> !relax.tensor<[b, s, 8, 64], i32>
  relax.return
}

// -----

relax.func @attention_rank(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 64], f16>) {
  // expected-error@+2 {{'relax.attention' op key must have rank 4, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 64], f16>, !relax.tensor<[b, t, 64], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @attention_batch_unknown(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[c, t, 2, 64], f16>) {
  // expected-error@+2 {{'relax.attention' op inferred type(s) '!relax.tensor<[?, s, 8, 64], f16>' are incompatible with return type(s) of operation '!relax.tensor<[b, s, 8, 64], f16>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.attention %q, %k, %k : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[c, t, 2, 64], f16>, !relax.tensor<[c, t, 2, 64], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
  relax.return
}

// -----

relax.func @conv2d_transpose_channels(%x: !relax.tensor<[n, 3, h, w], f32>, %w: !relax.tensor<[4, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d_transpose' op input channels 3 must equal weight dim 0 = 4}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.conv2d_transpose %x, %w : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[4, 2, 3, 3], f32>) -> !relax.tensor<[n, ?, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_transpose_groups(%x: !relax.tensor<[n, 3, h, w], f32>, %w: !relax.tensor<[3, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d_transpose' op input channels 3 are not divisible by groups 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.conv2d_transpose %x, %w {groups = 2 : i64} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[3, 2, 3, 3], f32>) -> !relax.tensor<[n, ?, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_transpose_output_padding(%x: !relax.tensor<[n, 4, h, w], f32>, %w: !relax.tensor<[4, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d_transpose' op output_padding 1 must be smaller than the stride 1 or the dilation 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.conv2d_transpose %x, %w {output_padding = array<i64: 1>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 2, 3, 3], f32>) -> !relax.tensor<[n, ?, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_transpose_output_padding_negative(%x: !relax.tensor<[n, 4, h, w], f32>, %w: !relax.tensor<[4, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d_transpose' op output_padding must be non-negative}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.conv2d_transpose %x, %w {output_padding = array<i64: -1>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 2, 3, 3], f32>) -> !relax.tensor<[n, ?, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_transpose_empty(%x: !relax.tensor<[n, 4, 1, 1], f32>, %w: !relax.tensor<[4, 2, 1, 1], f32>) {
  // expected-error@+2 {{'relax.conv2d_transpose' op output height -1 is not positive (input 1, kernel 1)}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.conv2d_transpose %x, %w {padding = array<i64: 1>} : (!relax.tensor<[n, 4, 1, 1], f32>, !relax.tensor<[4, 2, 1, 1], f32>) -> !relax.tensor<[n, ?, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_transpose_rank(%x: !relax.tensor<[n, 4, h], f32>, %w: !relax.tensor<[4, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d_transpose' op input must have rank 4, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.conv2d_transpose %x, %w : (!relax.tensor<[n, 4, h], f32>, !relax.tensor<[4, 2, 3, 3], f32>) -> !relax.tensor<[n, ?, ?], f32>
  relax.return
}

// -----

relax.func @conv2d_transpose_dtype(%x: !relax.tensor<[n, 4, h, w], f16>, %w: !relax.tensor<[4, 2, 3, 3], f32>) {
  // expected-error@+2 {{'relax.conv2d_transpose' op weight dtype f32 differs from input dtype f16}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.conv2d_transpose %x, %w : (!relax.tensor<[n, 4, h, w], f16>, !relax.tensor<[4, 2, 3, 3], f32>) -> !relax.tensor<[n, ?, ?, ?], f16>
  relax.return
}

// -----

relax.func @resize2d_method(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op method 'cubic' is not one of nearest, linear}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {method = "cubic", size = #relax.shape<[h, w]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h, w], f32>
  relax.return
}

// -----

relax.func @resize2d_mode(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op coordinate_transformation_mode 'tf_crop_and_resize' is not one of half_pixel, pytorch_half_pixel, asymmetric, align_corners}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {coordinate_transformation_mode = "tf_crop_and_resize", size = #relax.shape<[h, w]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h, w], f32>
  relax.return
}

// -----

relax.func @resize2d_nearest_mode(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op nearest_mode 'round' is not one of round_prefer_floor, round_prefer_ceil, floor, ceil}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {nearest_mode = "round", size = #relax.shape<[h, w]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h, w], f32>
  relax.return
}

// -----

relax.func @resize2d_size_rank(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op size must have 2 dims, got [h, w, 2]}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {size = #relax.shape<[h, w, 2]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h, w], f32>
  relax.return
}

// -----

relax.func @resize2d_size_negative(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op size dim 1 = -2 is negative}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {size = #relax.shape<[h, -2]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h, ?], f32>
  relax.return
}

// -----

relax.func @resize2d_size_unknown(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op size dim 0 must not be '?'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {size = #relax.shape<[?, w]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, ?, w], f32>
  relax.return
}

// -----

relax.func @resize2d_linear_int(%x: !relax.tensor<[n, 3, h, w], i32>) {
  // expected-error@+2 {{'relax.resize2d' op linear resize requires a floating-point dtype}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {method = "linear", size = #relax.shape<[h, w]>} : (!relax.tensor<[n, 3, h, w], i32>) -> !relax.tensor<[n, 3, h, w], i32>
  relax.return
}

// -----

relax.func @resize2d_scales(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op scales must be positive}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {scales = array<f64: 2.0, 0.0>, size = #relax.shape<[h * 2, w]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 2, w], f32>
  relax.return
}

// -----

relax.func @resize2d_scales_count(%x: !relax.tensor<[n, 3, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op scales must have 2 values, got 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {scales = array<f64: 2.0>, size = #relax.shape<[h * 2, w]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 2, w], f32>
  relax.return
}

// -----

relax.func @resize2d_rank(%x: !relax.tensor<[n, h, w], f32>) {
  // expected-error@+2 {{'relax.resize2d' op input must have rank 4, got 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.resize2d %x {size = #relax.shape<[h, w]>} : (!relax.tensor<[n, h, w], f32>) -> !relax.tensor<[n, h, w], f32>
  relax.return
}

// -----

relax.func @rnn_direction(%x: !relax.tensor<[s, n, 1, 4], f32>, %r: !relax.tensor<[1, 4, 4], f32>, %b: !relax.tensor<[1, 4], f32>, %h: !relax.tensor<[1, n, 4], f32>, %l: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.rnn' op direction must be "forward", "reverse" or "bidirectional", got "backward"}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh = relax.rnn %x, %r, %b, %h, %l {direction = "backward"} : (!relax.tensor<[s, n, 1, 4], f32>, !relax.tensor<[1, 4, 4], f32>, !relax.tensor<[1, 4], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>)
  relax.return
}

// -----

relax.func @rnn_directions_dim(%x: !relax.tensor<[s, n, 1, 4], f32>, %r: !relax.tensor<[1, 4, 4], f32>, %b: !relax.tensor<[1, 4], f32>, %h: !relax.tensor<[1, n, 4], f32>, %l: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.rnn' op xw directions (dim 2) mismatch: 2 vs 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh = relax.rnn %x, %r, %b, %h, %l {direction = "bidirectional"} : (!relax.tensor<[s, n, 1, 4], f32>, !relax.tensor<[1, 4, 4], f32>, !relax.tensor<[1, 4], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>)
  relax.return
}

// -----

relax.func @lstm_gates(%x: !relax.tensor<[s, n, 1, 12], f32>, %r: !relax.tensor<[1, 12, 4], f32>, %b: !relax.tensor<[1, 12], f32>, %h: !relax.tensor<[1, n, 4], f32>, %p: !relax.tensor<[1, 12], f32>, %l: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.lstm' op xw gates (dim 3, gates * hidden_size) mismatch: 16 vs 12}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh, %yc = relax.lstm %x, %r, %b, %h, %h, %p, %l : (!relax.tensor<[s, n, 1, 12], f32>, !relax.tensor<[1, 12, 4], f32>, !relax.tensor<[1, 12], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[1, 12], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>)
  relax.return
}

// -----

relax.func @gru_hidden_symbolic(%x: !relax.tensor<[s, n, 1, 3 * h], f32>, %r: !relax.tensor<[1, 3 * h, h], f32>, %b: !relax.tensor<[1, 3 * h], f32>, %h0: !relax.tensor<[1, n, h + 1], f32>, %l: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.gru' op initial_h hidden_size (dim 2) mismatch: h vs h + 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh = relax.gru %x, %r, %b, %h0, %l : (!relax.tensor<[s, n, 1, 3 * h], f32>, !relax.tensor<[1, 3 * h, h], f32>, !relax.tensor<[1, 3 * h], f32>, !relax.tensor<[1, n, h + 1], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, h], f32>, !relax.tensor<[1, n, h], f32>)
  relax.return
}

// -----

relax.func @gru_activation(%x: !relax.tensor<[s, n, 1, 12], f32>, %r: !relax.tensor<[1, 12, 4], f32>, %b: !relax.tensor<[1, 12], f32>, %h: !relax.tensor<[1, n, 4], f32>, %l: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.gru' op unsupported activation 'Gelu'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh = relax.gru %x, %r, %b, %h, %l {activations = ["Sigmoid", "Gelu"]} : (!relax.tensor<[s, n, 1, 12], f32>, !relax.tensor<[1, 12, 4], f32>, !relax.tensor<[1, 12], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>)
  relax.return
}

// -----

relax.func @gru_activation_count(%x: !relax.tensor<[s, n, 1, 12], f32>, %r: !relax.tensor<[1, 12, 4], f32>, %b: !relax.tensor<[1, 12], f32>, %h: !relax.tensor<[1, n, 4], f32>, %l: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.gru' op expects 2 activations for direction "forward", got 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh = relax.gru %x, %r, %b, %h, %l {activations = ["Sigmoid"]} : (!relax.tensor<[s, n, 1, 12], f32>, !relax.tensor<[1, 12, 4], f32>, !relax.tensor<[1, 12], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>)
  relax.return
}

// -----

relax.func @rnn_lens_dtype(%x: !relax.tensor<[s, n, 1, 4], f32>, %r: !relax.tensor<[1, 4, 4], f32>, %b: !relax.tensor<[1, 4], f32>, %h: !relax.tensor<[1, n, 4], f32>, %l: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.rnn' op sequence_lens requires an integer dtype}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh = relax.rnn %x, %r, %b, %h, %l : (!relax.tensor<[s, n, 1, 4], f32>, !relax.tensor<[1, 4, 4], f32>, !relax.tensor<[1, 4], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[n], f32>) -> (!relax.tensor<[s, 1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>)
  relax.return
}

// -----

relax.func @rnn_batch(%x: !relax.tensor<[s, 2, 1, 4], f32>, %r: !relax.tensor<[1, 4, 4], f32>, %b: !relax.tensor<[1, 4], f32>, %h: !relax.tensor<[1, 2, 4], f32>, %l: !relax.tensor<[3], i32>) {
  // expected-error@+2 {{'relax.rnn' op sequence_lens batch (dim 0) mismatch: 2 vs 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh = relax.rnn %x, %r, %b, %h, %l : (!relax.tensor<[s, 2, 1, 4], f32>, !relax.tensor<[1, 4, 4], f32>, !relax.tensor<[1, 4], f32>, !relax.tensor<[1, 2, 4], f32>, !relax.tensor<[3], i32>) -> (!relax.tensor<[s, 1, 2, 4], f32>, !relax.tensor<[1, 2, 4], f32>)
  relax.return
}

// -----

relax.func @lstm_peephole_rank(%x: !relax.tensor<[s, n, 1, 16], f32>, %r: !relax.tensor<[1, 16, 4], f32>, %b: !relax.tensor<[1, 16], f32>, %h: !relax.tensor<[1, n, 4], f32>, %p: !relax.tensor<[12], f32>, %l: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.lstm' op peepholes must have rank 2, got [12]}}
  // expected-error@+1 {{failed to infer returned types}}
  %y, %yh, %yc = relax.lstm %x, %r, %b, %h, %h, %p, %l : (!relax.tensor<[s, n, 1, 16], f32>, !relax.tensor<[1, 16, 4], f32>, !relax.tensor<[1, 16], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[12], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>, !relax.tensor<[1, n, 4], f32>)
  relax.return
}
