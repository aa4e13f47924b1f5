// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// Round trip and symbolic shape inference of the manipulation ops: every
// declared result type below equals the inferred one (or is `?` where
// inference must not decide).

// CHECK-LABEL: relax.func @reshape
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[n, m * 4]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n, m * 4], f32>
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[-1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[n * 2, -1]>} : (!relax.tensor<[n, 6], f32>) -> !relax.tensor<[n * 2, 3], f32>
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[4, -1]>} : (!relax.tensor<[n, 6], f32>) -> !relax.tensor<[4, ?], f32>
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[k, 2]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[k, 2], f32>
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[n, -1]>} : (!relax.tensor<*, f32>) -> !relax.tensor<[n, ?], f32>
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[-1, m]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n * 4, m], f32>
relax.func @reshape(%x: !relax.tensor<[n, 4, m], f32>, %y: !relax.tensor<[n, 4], f32>, %z: !relax.tensor<[n, 6], f32>, %u: !relax.tensor<*, f32>, %v: !relax.tensor<[n, m], f32>, %s: !relax.shape<[k]>) {
  %a = relax.reshape %x {shape = #relax.shape<[n, 4 * m]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n, m * 4], f32>
  %b = relax.reshape %y {shape = #relax.shape<[-1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
  %c = relax.reshape %z {shape = #relax.shape<[n * 2, -1]>} : (!relax.tensor<[n, 6], f32>) -> !relax.tensor<[n * 2, 3], f32>
  %d = relax.reshape %z {shape = #relax.shape<[4, -1]>} : (!relax.tensor<[n, 6], f32>) -> !relax.tensor<[4, ?], f32>
  %e = relax.reshape %v {shape = #relax.shape<[k, 2]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[k, 2], f32>
  %f = relax.reshape %u {shape = #relax.shape<[n, -1]>} : (!relax.tensor<*, f32>) -> !relax.tensor<[n, ?], f32>
  %g = relax.reshape %x {shape = #relax.shape<[-1, m]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n * 4, m], f32>
  relax.return
}

// CHECK-LABEL: relax.func @permute_dims
// CHECK: relax.permute_dims %{{.*}} {axes = array<i64: 2, 0, 1>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, n, m], f32>
// CHECK: relax.permute_dims %{{.*}} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, m, n], f32>
// CHECK: relax.permute_dims %{{.*}} {axes = array<i64: -1, 1, 0>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, m, n], f32>
// CHECK: relax.permute_dims %{{.*}} {axes = array<i64: 1, 0>} : (!relax.tensor<*, f32>) -> !relax.tensor<[?, ?], f32>
// CHECK: relax.permute_dims %{{.*}} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
relax.func @permute_dims(%x: !relax.tensor<[n, m, 4], f32>, %u: !relax.tensor<*, f32>) {
  %a = relax.permute_dims %x {axes = array<i64: 2, 0, 1>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, n, m], f32>
  %b = relax.permute_dims %x : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, m, n], f32>
  %c = relax.permute_dims %x {axes = array<i64: -1, 1, 0>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, m, n], f32>
  %d = relax.permute_dims %u {axes = array<i64: 1, 0>} : (!relax.tensor<*, f32>) -> !relax.tensor<[?, ?], f32>
  %e = relax.permute_dims %u : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @expand_squeeze
// CHECK: relax.expand_dims %{{.*}} {axes = array<i64: 0, -1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, n, m, 1], f32>
// CHECK: relax.expand_dims %{{.*}} {axes = array<i64: 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, 1, m], f32>
// CHECK: relax.squeeze %{{.*}} {axes = array<i64: 1>} : (!relax.tensor<[n, 1, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK: relax.squeeze %{{.*}} {axes = array<i64: 1, -1>} : (!relax.tensor<[n, 1, m], f32>) -> !relax.tensor<[n], f32>
// CHECK: relax.squeeze %{{.*}} : (!relax.tensor<[2, 1, 4], f32>) -> !relax.tensor<[2, 4], f32>
// CHECK: relax.squeeze %{{.*}} : (!relax.tensor<[n, 1, m], f32>) -> !relax.tensor<*, f32>
// CHECK: relax.squeeze %{{.*}} {axes = array<i64: 0>} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
relax.func @expand_squeeze(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[n, 1, m], f32>, %s: !relax.tensor<[2, 1, 4], f32>, %u: !relax.tensor<*, f32>) {
  %a = relax.expand_dims %x {axes = array<i64: 0, -1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, n, m, 1], f32>
  %b = relax.expand_dims %x {axes = array<i64: 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, 1, m], f32>
  %c = relax.squeeze %y {axes = array<i64: 1>} : (!relax.tensor<[n, 1, m], f32>) -> !relax.tensor<[n, m], f32>
  %d = relax.squeeze %y {axes = array<i64: 1, -1>} : (!relax.tensor<[n, 1, m], f32>) -> !relax.tensor<[n], f32>
  %e = relax.squeeze %s : (!relax.tensor<[2, 1, 4], f32>) -> !relax.tensor<[2, 4], f32>
  %f = relax.squeeze %y : (!relax.tensor<[n, 1, m], f32>) -> !relax.tensor<*, f32>
  %g = relax.squeeze %u {axes = array<i64: 0>} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @flatten_broadcast
// CHECK: relax.flatten %{{.*}} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[m * n * 4], f32>
// CHECK: relax.flatten %{{.*}} : (!relax.tensor<[?, 2], f32>) -> !relax.tensor<[?], f32>
// CHECK: relax.broadcast_to %{{.*}} {shape = #relax.shape<[b, n, 4]>} : (!relax.tensor<[n, 1], f32>) -> !relax.tensor<[b, n, 4], f32>
// CHECK: relax.broadcast_to %{{.*}} {shape = #relax.shape<[k, m]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[k, m], f32>
relax.func @flatten_broadcast(%x: !relax.tensor<[n, 4, m], f32>, %y: !relax.tensor<[n, 1], f32>, %w: !relax.tensor<[n, m], f32>, %q: !relax.tensor<[?, 2], f32>, %s: !relax.shape<[b, k]>) {
  %a = relax.flatten %x : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[m * n * 4], f32>
  %b = relax.flatten %q : (!relax.tensor<[?, 2], f32>) -> !relax.tensor<[?], f32>
  %c = relax.broadcast_to %y {shape = #relax.shape<[b, n, 4]>} : (!relax.tensor<[n, 1], f32>) -> !relax.tensor<[b, n, 4], f32>
  %d = relax.broadcast_to %w {shape = #relax.shape<[k, m]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[k, m], f32>
  relax.return
}

// CHECK-LABEL: relax.func @concat
// CHECK: relax.concat %{{.*}}, %{{.*}} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m + n, 4], f32>
// CHECK: relax.concat %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[2, 4], f32>) -> !relax.tensor<[m + n + 2, 4], f32>
// CHECK: relax.concat %{{.*}}, %{{.*}} {axis = -1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[?, 8], f32>
// CHECK: relax.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<*, f32>) -> !relax.tensor<[?, ?], f32>
// CHECK: relax.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 8], f32>
relax.func @concat(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[m, 4], f32>, %z: !relax.tensor<[2, 4], f32>, %u: !relax.tensor<*, f32>) {
  %a = relax.concat %x, %y {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m + n, 4], f32>
  %b = relax.concat %x, %y, %z : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[2, 4], f32>) -> !relax.tensor<[m + n + 2, 4], f32>
  %c = relax.concat %x, %y {axis = -1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[?, 8], f32>
  %d = relax.concat %x, %u {axis = 1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<*, f32>) -> !relax.tensor<[?, ?], f32>
  %e = relax.concat %x, %x {axis = 1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 8], f32>
  relax.return
}

// CHECK-LABEL: relax.func @split
// CHECK: relax.split %{{.*}} {axis = 1 : i64, sections = 3 : i64} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>)
// CHECK: relax.split %{{.*}} {sections = 2 : i64} : (!relax.tensor<[n * 6, 4], f32>) -> (!relax.tensor<[n * 3, 4], f32>, !relax.tensor<[n * 3, 4], f32>)
// CHECK: relax.split %{{.*}} {sections = 2 : i64} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[?, 6], f32>, !relax.tensor<[?, 6], f32>)
// CHECK: relax.split %{{.*}} {indices = #relax.shape<[k, k + 2]>} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[k, 6], f32>, !relax.tensor<[2, 6], f32>, !relax.tensor<[-k + n - 2, 6], f32>)
// CHECK: relax.split %{{.*}} {axis = -1 : i64, indices = #relax.shape<[1]>} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[n, 1], f32>, !relax.tensor<[n, 5], f32>)
// CHECK: relax.split %{{.*}} {sections = 2 : i64} : (!relax.tensor<*, f32>) -> (!relax.tensor<*, f32>, !relax.tensor<*, f32>)
relax.func @split(%x: !relax.tensor<[n, 6], f32>, %y: !relax.tensor<[n * 6, 4], f32>, %u: !relax.tensor<*, f32>, %s: !relax.shape<[k]>) {
  %a:3 = relax.split %x {axis = 1 : i64, sections = 3 : i64} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>)
  %b:2 = relax.split %y {sections = 2 : i64} : (!relax.tensor<[n * 6, 4], f32>) -> (!relax.tensor<[n * 3, 4], f32>, !relax.tensor<[n * 3, 4], f32>)
  %c:2 = relax.split %x {sections = 2 : i64} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[?, 6], f32>, !relax.tensor<[?, 6], f32>)
  %d:3 = relax.split %x {indices = #relax.shape<[k, k + 2]>} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[k, 6], f32>, !relax.tensor<[2, 6], f32>, !relax.tensor<[-k + n - 2, 6], f32>)
  %e:2 = relax.split %x {axis = -1 : i64, indices = #relax.shape<[1]>} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[n, 1], f32>, !relax.tensor<[n, 5], f32>)
  %f:2 = relax.split %u {sections = 2 : i64} : (!relax.tensor<*, f32>) -> (!relax.tensor<*, f32>, !relax.tensor<*, f32>)
  relax.return
}

// CHECK-LABEL: relax.func @strided_slice
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[k]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[min(k, n), 4], f32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 0>, begin = #relax.shape<[1]>, end = #relax.shape<[k]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[max(min(k, n) - min(n, 1), 0), 4], f32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[n]>, strides = array<i64: 2>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[(n + 1) floordiv 2, 4], f32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 0>, begin = #relax.shape<[2]>, end = #relax.shape<[n + 4]>} : (!relax.tensor<[n + 8, 4], f32>) -> !relax.tensor<[n + 2, 4], f32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 1>, begin = #relax.shape<[1]>, end = #relax.shape<[3]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 2], f32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: -1>, begin = #relax.shape<[-1]>, end = #relax.shape<[-5]>, strides = array<i64: -1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 0>, begin = #relax.shape<[2]>, end = #relax.shape<[n]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n - min(n, 2), 4], f32>
// CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[k]>} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
relax.func @strided_slice(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n + 8, 4], f32>, %u: !relax.tensor<*, f32>, %s: !relax.shape<[k]>) {
  %a = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[k]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[min(k, n), 4], f32>
  %b = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[1]>, end = #relax.shape<[k]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[max(min(k, n) - min(n, 1), 0), 4], f32>
  %c = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[n]>, strides = array<i64: 2>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[(n + 1) floordiv 2, 4], f32>
  %d = relax.strided_slice %y {axes = array<i64: 0>, begin = #relax.shape<[2]>, end = #relax.shape<[n + 4]>} : (!relax.tensor<[n + 8, 4], f32>) -> !relax.tensor<[n + 2, 4], f32>
  %e = relax.strided_slice %x {axes = array<i64: 1>, begin = #relax.shape<[1]>, end = #relax.shape<[3]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 2], f32>
  %f = relax.strided_slice %x {axes = array<i64: -1>, begin = #relax.shape<[-1]>, end = #relax.shape<[-5]>, strides = array<i64: -1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %g = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[2]>, end = #relax.shape<[n]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n - min(n, 2), 4], f32>
  %h = relax.strided_slice %u {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[k]>} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @take
// CHECK: relax.take %{{.*}}, %{{.*}} {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k], i64>) -> !relax.tensor<[k, 4], f32>
// CHECK: relax.take %{{.*}}, %{{.*}} {axis = -1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 2], i32>) -> !relax.tensor<[n, k, 2], f32>
// CHECK: relax.take %{{.*}}, %{{.*}} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k], i64>) -> !relax.tensor<[k], f32>
relax.func @take(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[k], i64>, %j: !relax.tensor<[k, 2], i32>) {
  %a = relax.take %x, %i {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k], i64>) -> !relax.tensor<[k, 4], f32>
  %b = relax.take %x, %j {axis = -1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 2], i32>) -> !relax.tensor<[n, k, 2], f32>
  %c = relax.take %x, %i : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k], i64>) -> !relax.tensor<[k], f32>
  relax.return
}

// CHECK-LABEL: relax.func @tile_repeat
// CHECK: relax.tile %{{.*}} {repeats = array<i64: 2, 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 2, 4], f32>
// CHECK: relax.tile %{{.*}} {repeats = array<i64: 3, 2, 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[3, n * 2, 4], f32>
// CHECK: relax.tile %{{.*}} {repeats = array<i64: 2>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 8], f32>
// CHECK: relax.repeat %{{.*}} {axis = 1 : i64, repeats = 3 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m * 3], f32>
// CHECK: relax.repeat %{{.*}} {repeats = 3 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[m * n * 3], f32>
relax.func @tile_repeat(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n, m], f32>) {
  %a = relax.tile %x {repeats = array<i64: 2, 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 2, 4], f32>
  %b = relax.tile %x {repeats = array<i64: 3, 2, 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[3, n * 2, 4], f32>
  %c = relax.tile %x {repeats = array<i64: 2>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 8], f32>
  %d = relax.repeat %y {axis = 1 : i64, repeats = 3 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m * 3], f32>
  %e = relax.repeat %y {repeats = 3 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[m * n * 3], f32>
  relax.return
}


// trilu keeps the type; pad adds its amounts (negative ones crop).
// CHECK-LABEL: relax.func @trilu_pad
// CHECK: relax.trilu %{{.*}} {upper = true} : (!relax.tensor<[b, n, m], f32>) -> !relax.tensor<[b, n, m], f32>
// CHECK: relax.trilu %{{.*}} {k = #relax.expr<k - 1>, upper = false} : (!relax.tensor<[b, n, m], f32>) -> !relax.tensor<[b, n, m], f32>
// CHECK: relax.pad %{{.*}} {pad_after = #relax.shape<[2, 0]>, pad_before = #relax.shape<[1, 0]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n + 3, 4], f32>
// CHECK: relax.pad %{{.*}} {mode = "reflect", pad_after = #relax.shape<[0, k]>, pad_before = #relax.shape<[0, 1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, k + 5], f32>
// CHECK: relax.pad %{{.*}} {mode = "edge", pad_after = #relax.shape<[-1, 2]>, pad_before = #relax.shape<[-1, 0]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n - 2, 6], f32>
// CHECK: relax.pad %{{.*}} {mode = "wrap", pad_after = #relax.shape<[1]>, pad_before = #relax.shape<[1]>} : (!relax.tensor<*, i32>) -> !relax.tensor<[?], i32>
// CHECK: relax.pad %{{.*}} {pad_after = #relax.shape<[1]>, pad_before = #relax.shape<[0]>, value = -3.000000e+00 : f64} : (!relax.tensor<[k], i32>) -> !relax.tensor<[k + 1], i32>
relax.func @trilu_pad(%x: !relax.tensor<[b, n, m], f32>, %y: !relax.tensor<[n, 4], f32>, %u: !relax.tensor<*, i32>, %i: !relax.tensor<[k], i32>) {
  %0 = relax.trilu %x {upper = true} : (!relax.tensor<[b, n, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %1 = relax.trilu %x {upper = false, k = #relax.expr<k - 1>} : (!relax.tensor<[b, n, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %2 = relax.pad %y {pad_before = #relax.shape<[1, 0]>, pad_after = #relax.shape<[2, 0]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n + 3, 4], f32>
  %3 = relax.pad %y {mode = "reflect", pad_before = #relax.shape<[0, 1]>, pad_after = #relax.shape<[0, k]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, k + 5], f32>
  %4 = relax.pad %y {mode = "edge", pad_before = #relax.shape<[-1, 0]>, pad_after = #relax.shape<[-1, 2]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n - 2, 6], f32>
  %5 = relax.pad %u {mode = "wrap", pad_before = #relax.shape<[1]>, pad_after = #relax.shape<[1]>} : (!relax.tensor<*, i32>) -> !relax.tensor<[?], i32>
  %6 = relax.pad %i {pad_before = #relax.shape<[0]>, pad_after = #relax.shape<[1]>, value = -3.0 : f64} : (!relax.tensor<[k], i32>) -> !relax.tensor<[k + 1], i32>
  relax.return
}

// gather_elements has the indices' shape; gather_nd drops the tuple dim and
// the indexed data dims; scatter_nd has the data's type.
// CHECK-LABEL: relax.func @gather_scatter
// CHECK: relax.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, k], i64>) -> !relax.tensor<[n, k], f32>
// CHECK: relax.gather_elements %{{.*}}, %{{.*}} : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, m], i32>) -> !relax.tensor<[k, m], f32>
// CHECK: relax.gather_nd %{{.*}}, %{{.*}} : (!relax.tensor<[n, m, 4], f32>, !relax.tensor<[k, 2], i64>) -> !relax.tensor<[k, 4], f32>
// CHECK: relax.gather_nd %{{.*}}, %{{.*}} {batch_dims = 1 : i64} : (!relax.tensor<[n, m, 4], f32>, !relax.tensor<[n, k, 1], i64>) -> !relax.tensor<[n, k, 4], f32>
// CHECK: relax.gather_nd %{{.*}}, %{{.*}} : (!relax.tensor<[n, m, 4], f32>, !relax.tensor<[k, 3], ui8>) -> !relax.tensor<[k], f32>
// CHECK: relax.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 1], i64>, !relax.tensor<[k, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} {reduction = "max"} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 2], i64>, !relax.tensor<[k], f32>) -> !relax.tensor<[n, 4], f32>
relax.func @gather_scatter(%x: !relax.tensor<[n, m], f32>, %i: !relax.tensor<[n, k], i64>, %j: !relax.tensor<[k, m], i32>, %d: !relax.tensor<[n, m, 4], f32>, %t: !relax.tensor<[k, 2], i64>, %bt: !relax.tensor<[n, k, 1], i64>, %t3: !relax.tensor<[k, 3], ui8>, %s: !relax.tensor<[n, 4], f32>, %si: !relax.tensor<[k, 1], i64>, %su: !relax.tensor<[k, 4], f32>, %sv: !relax.tensor<[k], f32>) {
  %0 = relax.gather_elements %x, %i {axis = 1 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, k], i64>) -> !relax.tensor<[n, k], f32>
  %1 = relax.gather_elements %x, %j : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, m], i32>) -> !relax.tensor<[k, m], f32>
  %2 = relax.gather_nd %d, %t : (!relax.tensor<[n, m, 4], f32>, !relax.tensor<[k, 2], i64>) -> !relax.tensor<[k, 4], f32>
  %3 = relax.gather_nd %d, %bt {batch_dims = 1 : i64} : (!relax.tensor<[n, m, 4], f32>, !relax.tensor<[n, k, 1], i64>) -> !relax.tensor<[n, k, 4], f32>
  %4 = relax.gather_nd %d, %t3 : (!relax.tensor<[n, m, 4], f32>, !relax.tensor<[k, 3], ui8>) -> !relax.tensor<[k], f32>
  %5 = relax.scatter_nd %s, %si, %su : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 1], i64>, !relax.tensor<[k, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %6 = relax.scatter_nd %s, %t, %sv {reduction = "max"} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 2], i64>, !relax.tensor<[k], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}
