// RUN: relax-opt %s --split-input-file --relax-verify-memory-plan --verify-diagnostics

// The checker re-proves hand-written plans: an output that shares bytes
// with an input of the same call (both live there) is caught.
relax.func @overlap(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 512>}} {
  // expected-note@+1 {{that buffer is created here}}
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<0>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  // expected-error@+1 {{arena slot [n * 128, n * 384) may overlap a live buffer's slot [0, n * 256)}}
  %b = relax.call_tir @k(%a) {relax.arena_offsets = [#relax.expr<n * 128>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k(%b) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}

// -----

// A slot that is not provably inside the arena: n * 256 bytes at offset
// m * 256 in an arena of n * 512 needs m <= n, which nothing says.
relax.func @outside(%x: !relax.tensor<[n, 64], f32>, %y: !relax.tensor<[m, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 512>}} {
  // expected-error@+1 {{arena slot [m * 256, m * 256 + n * 256) is not provably within the arena of n * 512 bytes}}
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<m * 256>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}

// -----

// Offsets must keep the 64-byte alignment the kernels are compiled for.
relax.func @misaligned(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 256 + 64>}} {
  // expected-error@+1 {{arena offset 4 is not provably 64-byte aligned}}
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<4>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}

// -----

// A returned buffer cannot live in the arena (the caller frees it).
relax.func @returned(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 256>}} {
  // expected-error@+1 {{places a buffer that outlives the call or is aliased in the arena}}
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<0>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %a : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}

// -----

// An input updated in place is not a buffer the call creates: it cannot
// be given a slot of its own.
relax.func @inplace_slot(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 512>}} {
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<0>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  // expected-error@+1 {{places a result that is not a buffer it creates (an input updated in place) in the arena}}
  %b = relax.call_tir_inplace @kin(%a) inplace_indices([0]) {relax.arena_offsets = [#relax.expr<n * 256>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k(%b) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}
tir.prim_func @kin(%a: !tir.buffer<[p, q], f32>) {
  tir.return
}

// -----

// The updated buffer lives as long as the in-place result: a buffer
// created while the result is still to be read cannot share its slot.
relax.func @inplace_overlap(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 512>}} {
  // expected-note@+1 {{that buffer is created here}}
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<0>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %b = relax.call_tir_inplace @kin(%a) inplace_indices([0]) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  // expected-error@+1 {{arena slot [0, n * 256) may overlap a live buffer's slot [0, n * 256)}}
  %d = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<0>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k2(%b, %d) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}
tir.prim_func @kin(%a: !tir.buffer<[p, q], f32>) {
  tir.return
}
tir.prim_func @k2(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>, %c: !tir.buffer<[u, v], f32>) {
  tir.return
}

// -----

// expected-error@+1 {{'relax.func' op memory plan has no arena size}}
relax.func @no_arena(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {}} {
  relax.return %x : !relax.tensor<[n, 64], f32>
}

// -----

relax.func @offset_count(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 512>}} {
  // expected-error@+1 {{'relax.call_tir' op has 2 arena offsets for 1 results}}
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<0>, #relax.expr<0>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}

// -----

// A result written over an operand that its relax.output_may_alias names
// and that dies at the call (%c over %a, offset 0) is the one overlap the
// checker accepts; %e over %d is not, as %d is read again after %e's call.
relax.func @written_over(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {relax.memory_plan = {arena = #relax.expr<n * 768>}} {
  %a = relax.call_tir @k(%x) {relax.arena_offsets = [#relax.expr<0>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_dps_packed @f(%x, %a) {relax.arena_offsets = [#relax.expr<0>], relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  // expected-note@+1 {{that buffer is created here}}
  %d = relax.call_tir @k(%c) {relax.arena_offsets = [#relax.expr<n * 256>]} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  // expected-error@+1 {{arena slot [n * 256, n * 512) may overlap a live buffer's slot [n * 256, n * 512)}}
  %e = relax.call_dps_packed @f(%c, %d) {relax.arena_offsets = [#relax.expr<n * 256>], relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %r = relax.call_tir @k2(%e, %d) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %r : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>) {
  tir.return
}
tir.prim_func @k2(%a: !tir.buffer<[p, q], f32>, %b: !tir.buffer<[r, t], f32>, %c: !tir.buffer<[u, v], f32>) {
  tir.return
}
extern.func private @f(!relax.tensor<[p, q], f32>, !relax.tensor<[s, t], f32>, !relax.tensor<[u, v], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
