// RUN: relax-opt %s --canonicalize | FileCheck %s

// reshape of reshape becomes one reshape of the original input.
// CHECK-LABEL: relax.func @merge_reshapes
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, 4, m], f32>)
// CHECK-NEXT: %[[R:.*]] = relax.reshape %[[X]] {shape = #relax.shape<[n * 2, -1]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n * 2, m * 2], f32>
// CHECK-NEXT: relax.return %[[R]]
relax.func @merge_reshapes(%x: !relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n * 2, m * 2], f32> {
  %a = relax.reshape %x {shape = #relax.shape<[-1]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[m * n * 4], f32>
  %b = relax.reshape %a {shape = #relax.shape<[n * 2, -1]>} : (!relax.tensor<[m * n * 4], f32>) -> !relax.tensor<[n * 2, m * 2], f32>
  relax.return %b : !relax.tensor<[n * 2, m * 2], f32>
}

// A chain of three merges down to one; the result keeps its declared type.
// CHECK-LABEL: relax.func @merge_chain
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, 6], f32>)
// CHECK-NEXT: %[[R:.*]] = relax.reshape %[[X]] {shape = #relax.shape<[3, n * 2]>}
// CHECK-NEXT: relax.return %[[R]]
relax.func @merge_chain(%x: !relax.tensor<[n, 6], f32>) -> !relax.tensor<[3, n * 2], f32> {
  %a = relax.reshape %x {shape = #relax.shape<[n * 6]>} : (!relax.tensor<[n, 6], f32>) -> !relax.tensor<[n * 6], f32>
  %b = relax.reshape %a {shape = #relax.shape<[n, 2, 3]>} : (!relax.tensor<[n * 6], f32>) -> !relax.tensor<[n, 2, 3], f32>
  %c = relax.reshape %b {shape = #relax.shape<[3, n * 2]>} : (!relax.tensor<[n, 2, 3], f32>) -> !relax.tensor<[3, n * 2], f32>
  relax.return %c : !relax.tensor<[3, n * 2], f32>
}

// A reshape to the shape the input already has folds away, and so does a
// reshape back to the original shape after merging.
// CHECK-LABEL: relax.func @reshape_identity
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, 4], f32>)
// CHECK-NOT: relax.reshape
// CHECK: relax.return %[[X]], %[[X]]
relax.func @reshape_identity(%x: !relax.tensor<[n, 4], f32>) -> (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) {
  %a = relax.reshape %x {shape = #relax.shape<[n, 4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %b = relax.reshape %x {shape = #relax.shape<[-1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
  %c = relax.reshape %b {shape = #relax.shape<[n, -1]>} : (!relax.tensor<[n * 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %a, %c : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>
}

// The reshape does change the type here (`?` becomes n): it stays.
// CHECK-LABEL: relax.func @reshape_refines
// CHECK: relax.reshape
relax.func @reshape_refines(%x: !relax.tensor<[?, 4], f32>, %s: !relax.shape<[n]>) -> !relax.tensor<[n, 4], f32> {
  %a = relax.reshape %x {shape = #relax.shape<[n, 4]>} : (!relax.tensor<[?, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %a : !relax.tensor<[n, 4], f32>
}

// Identity permutations fold, explicit or implied by a rank-1 reverse; a
// real permutation stays.
// CHECK-LABEL: relax.func @permute_identity
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, m], f32>, %[[V:.*]]: !relax.tensor<[k], f32>)
// CHECK: %[[P:.*]] = relax.permute_dims %[[X]] {axes = array<i64: 1, 0>}
// CHECK-NOT: relax.permute_dims
// CHECK: relax.return %[[X]], %[[X]], %[[V]], %[[P]]
relax.func @permute_identity(%x: !relax.tensor<[n, m], f32>, %v: !relax.tensor<[k], f32>) -> (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>, !relax.tensor<[k], f32>, !relax.tensor<[m, n], f32>) {
  %a = relax.permute_dims %x {axes = array<i64: 0, 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %b = relax.permute_dims %x {axes = array<i64: -2, -1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %c = relax.permute_dims %v : (!relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
  %d = relax.permute_dims %x {axes = array<i64: 1, 0>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[m, n], f32>
  relax.return %a, %b, %c, %d : !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>, !relax.tensor<[k], f32>, !relax.tensor<[m, n], f32>
}

// squeeze(expand_dims(x, axes), axes) is x (axes compared after
// normalisation); squeezing another axis keeps both ops.
// CHECK-LABEL: relax.func @expand_squeeze
// CHECK-SAME: (%[[X:.*]]: !relax.tensor<[n, 1], f32>)
// CHECK: %[[E:.*]] = relax.expand_dims %[[X]] {axes = array<i64: 0>}
// CHECK: %[[S:.*]] = relax.squeeze %[[E]] {axes = array<i64: 2>}
// CHECK: relax.return %[[X]], %[[S]]
relax.func @expand_squeeze(%x: !relax.tensor<[n, 1], f32>) -> (!relax.tensor<[n, 1], f32>, !relax.tensor<[1, n], f32>) {
  %e = relax.expand_dims %x {axes = array<i64: 0>} : (!relax.tensor<[n, 1], f32>) -> !relax.tensor<[1, n, 1], f32>
  %a = relax.squeeze %e {axes = array<i64: -3>} : (!relax.tensor<[1, n, 1], f32>) -> !relax.tensor<[n, 1], f32>
  %b = relax.squeeze %e {axes = array<i64: 2>} : (!relax.tensor<[1, n, 1], f32>) -> !relax.tensor<[1, n], f32>
  relax.return %a, %b : !relax.tensor<[n, 1], f32>, !relax.tensor<[1, n], f32>
}

// Trivial flatten, broadcast_to, concat and tile fold to their input.
// CHECK-LABEL: relax.func @trivial
// CHECK-SAME: (%[[V:.*]]: !relax.tensor<[k], f32>, %[[X:.*]]: !relax.tensor<[n, 4], f32>)
// CHECK-NOT: relax.flatten
// CHECK-NOT: relax.broadcast_to
// CHECK-NOT: relax.concat
// CHECK-NOT: relax.tile
// CHECK: relax.return %[[V]], %[[X]], %[[X]], %[[X]]
relax.func @trivial(%v: !relax.tensor<[k], f32>, %x: !relax.tensor<[n, 4], f32>) -> (!relax.tensor<[k], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) {
  %a = relax.flatten %v : (!relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
  %b = relax.broadcast_to %x {shape = #relax.shape<[n, 4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %c = relax.concat %x {axis = 1 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %d = relax.tile %x {repeats = array<i64: 1, 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %a, %b, %c, %d : !relax.tensor<[k], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>
}
