// RUN: relax-opt --relax-legalize-ops --split-input-file --verify-diagnostics %s

// NN ops that cannot be legalized fail with a located error.

relax.func @unknown_dim(%x: !relax.tensor<[?, 3, h, w], f32>, %w: !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[?, 4, h - 2, w - 2], f32> {
  // expected-error @+1 {{'relax.conv2d' op cannot be legalized: input has type}}
  %y = relax.conv2d %x, %w : (!relax.tensor<[?, 3, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[?, 4, h - 2, w - 2], f32>
  relax.return %y : !relax.tensor<[?, 4, h - 2, w - 2], f32>
}

// -----

relax.func @int_conv(%x: !relax.tensor<[1, 3, h, w], i32>, %w: !relax.tensor<[4, 3, 3, 3], i32>) -> !relax.tensor<[1, 4, h - 2, w - 2], i32> {
  // expected-error @+1 {{'relax.conv2d' op cannot be legalized: only float conv2d is supported, got 'i32'}}
  %y = relax.conv2d %x, %w : (!relax.tensor<[1, 3, h, w], i32>, !relax.tensor<[4, 3, 3, 3], i32>) -> !relax.tensor<[1, 4, h - 2, w - 2], i32>
  relax.return %y : !relax.tensor<[1, 4, h - 2, w - 2], i32>
}

// -----

relax.func @mask_undecidable(%q: !relax.tensor<[1, s, 4, 8], f32>, %k: !relax.tensor<[1, t, 2, 8], f32>, %v: !relax.tensor<[1, t, 2, 8], f32>, %m: !relax.tensor<[1, 1, s, u], f32>) -> !relax.tensor<[1, s, 4, 8], f32> {
  // expected-error @+1 {{'relax.attention' op cannot be legalized: mask shape [1, 1, s, u] does not provably broadcast to [1, 4, s, t]}}
  %y = relax.attention %q, %k, %v, %m : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, t, 2, 8], f32>, !relax.tensor<[1, 1, s, u], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  relax.return %y : !relax.tensor<[1, s, 4, 8], f32>
}

// -----

relax.func @heads_unknown(%q: !relax.tensor<[1, s, hq, 8], f32>, %k: !relax.tensor<[1, s, hk, 8], f32>, %v: !relax.tensor<[1, s, hk, 8], f32>) -> !relax.tensor<[1, s, hq, 8], f32> {
  // expected-error @+1 {{'relax.attention' op cannot be legalized: the number of query heads must be a known multiple of the number of key/value heads}}
  %y = relax.attention %q, %k, %v : (!relax.tensor<[1, s, hq, 8], f32>, !relax.tensor<[1, s, hk, 8], f32>, !relax.tensor<[1, s, hk, 8], f32>) -> !relax.tensor<[1, s, hq, 8], f32>
  relax.return %y : !relax.tensor<[1, s, hq, 8], f32>
}

// -----

relax.func @lstm_unknown_batch(%x: !relax.tensor<[s, ?, 1, 8], f32>, %r: !relax.tensor<[1, 8, 2], f32>, %b: !relax.tensor<[1, 8], f32>, %h0: !relax.tensor<[1, n, 2], f32>, %p: !relax.tensor<[1, 6], f32>, %l: !relax.tensor<[n], i32>) -> !relax.tensor<[1, n, 2], f32> {
  // expected-error @+1 {{'relax.lstm' op cannot be legalized: type '!relax.tensor<[s, ?, 1, 8], f32>' has an unknown rank or dim (refine it with relax.match_cast)}}
  %y, %yh, %yc = relax.lstm %x, %r, %b, %h0, %h0, %p, %l : (!relax.tensor<[s, ?, 1, 8], f32>, !relax.tensor<[1, 8, 2], f32>, !relax.tensor<[1, 8], f32>, !relax.tensor<[1, n, 2], f32>, !relax.tensor<[1, n, 2], f32>, !relax.tensor<[1, 6], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 2], f32>, !relax.tensor<[1, n, 2], f32>, !relax.tensor<[1, n, 2], f32>)
  relax.return %yh : !relax.tensor<[1, n, 2], f32>
}

// -----

relax.func @int_mask(%q: !relax.tensor<[1, s, 4, 8], f32>, %k: !relax.tensor<[1, s, 4, 8], f32>, %v: !relax.tensor<[1, s, 4, 8], f32>, %m: !relax.tensor<[1, 1, s, s], i32>) -> !relax.tensor<[1, s, 4, 8], f32> {
  // expected-error @+1 {{'relax.attention' op cannot be legalized: mask must be boolean (i1) or float, got 'i32'}}
  %y = relax.attention %q, %k, %v, %m : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, 1, s, s], i32>) -> !relax.tensor<[1, s, 4, 8], f32>
  relax.return %y : !relax.tensor<[1, s, 4, 8], f32>
}

// -----

relax.func @mask_unknown(%q: !relax.tensor<[1, s, 4, 8], f32>, %k: !relax.tensor<[1, s, 4, 8], f32>, %v: !relax.tensor<[1, s, 4, 8], f32>, %m: !relax.tensor<[1, 1, s, ?], f32>) -> !relax.tensor<[1, s, 4, 8], f32> {
  // expected-error @+1 {{'relax.attention' op cannot be legalized: mask has type '!relax.tensor<[1, 1, s, ?], f32>'; every dim must be known (refine it with relax.match_cast)}}
  %y = relax.attention %q, %k, %v, %m : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, 1, s, ?], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  relax.return %y : !relax.tensor<[1, s, 4, 8], f32>
}
