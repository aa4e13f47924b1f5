// RUN: relax-opt %s --split-input-file --relax-plan-memory=verify=true | FileCheck %s
// RUN: relax-opt %s --split-input-file --relax-plan-memory --relax-verify-memory-plan > /dev/null
// RUN: relax-opt %s --split-input-file --relax-plan-memory=in-place=false | FileCheck %s --check-prefix=NOIP

// The planner's decisions with symbolic sizes. Tensors come from call_tir
// (the planner only places buffers a function creates); the kernels @k<i>
// are empty programs whose dims are all free variables. Byte sizes: [n, 64] f32 = n * 256.

// Reuse by equality: %a dies when %c is created (its last reader is %b's
// call), so %c takes %a's slot; %b needs a second slot. The returned %d is
// allocated on its own (no offset).
// CHECK-LABEL: relax.func @equal
// CHECK-SAME: relax.memory_plan = {arena = #relax.expr<n * 512>, intermediates = 3 : i64, planned = 3 : i64, storages = 2 : i64, unplanned = #relax.expr<n * 768>}
// CHECK: %[[A:.*]] = relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: %[[B:.*]] = relax.call_tir @k{{[0-9]*}}(%[[A]]) {relax.arena_offsets = [#relax.expr<n * 256>]}
// CHECK: %[[C:.*]] = relax.call_tir @k{{[0-9]*}}(%[[B]]) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: relax.call_tir @k{{[0-9]*}}(%[[C]]) :
relax.func @equal(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %b = relax.call_tir @k0(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k0(%b) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %d = relax.call_tir @k0(%c) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %d : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}

// -----

// Reuse by a <= proof, across dtypes: [n, 32] i32 (n * 128 bytes) and
// then [n, 16] f16 (n * 32) fit the freed slots of [n, 64] f32 (n * 256).
// And a slot grows when it provably holds less than the new buffer: the
// [n, 64] f64 (n * 512) takes the second slot, which becomes n * 512 bytes
// (arena n * 256 + n * 512; two slots for six buffers).
// CHECK-LABEL: relax.func @le
// CHECK-SAME: arena = #relax.expr<n * 768>
// CHECK-SAME: storages = 2
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]} : {{.*}} -> !relax.tensor<[n, 64], f32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<n * 256>]} : {{.*}} -> !relax.tensor<[n, 64], f32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]} : {{.*}} -> !relax.tensor<[n, 32], i32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<n * 256>]} : {{.*}} -> !relax.tensor<[n, 16], f16>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]} : {{.*}} -> !relax.tensor<[n, 16], f16>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<n * 256>]} : {{.*}} -> !relax.tensor<[n, 64], f64>
relax.func @le(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %b = relax.call_tir @k0(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k1(%b) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 32], i32>
  %h = relax.call_tir @k2(%c) : (!relax.tensor<[n, 32], i32>) -> !relax.tensor<[n, 16], f16>
  %e = relax.call_tir @k3(%h) : (!relax.tensor<[n, 16], f16>) -> !relax.tensor<[n, 16], f16>
  %f = relax.call_tir @k4(%e) : (!relax.tensor<[n, 16], f16>) -> !relax.tensor<[n, 64], f64>
  %r = relax.call_tir @k5(%f) : (!relax.tensor<[n, 64], f64>) -> !relax.tensor<[n], f32>
  relax.return %r : !relax.tensor<[n], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k1(%b0: !tir.buffer<[d4, d5], f32>, %b1: !tir.buffer<[d6, d7], i32>) {
  tir.return
}
tir.prim_func @k2(%b0: !tir.buffer<[d8, d9], i32>, %b1: !tir.buffer<[d10, d11], f16>) {
  tir.return
}
tir.prim_func @k3(%b0: !tir.buffer<[d12, d13], f16>, %b1: !tir.buffer<[d14, d15], f16>) {
  tir.return
}
tir.prim_func @k4(%b0: !tir.buffer<[d16, d17], f16>, %b1: !tir.buffer<[d18, d19], f64>) {
  tir.return
}
tir.prim_func @k5(%b0: !tir.buffer<[d20, d21], f64>, %b1: !tir.buffer<[d22], f32>) {
  tir.return
}

// -----

// Refusal: n * 256 and m * 256 are not comparable (nothing relates n and
// m), so the [m, 64] buffer does not take the dead [n, 64] slot of %a:
// a third slot.
// CHECK-LABEL: relax.func @refuse
// CHECK-SAME: arena = #relax.expr<m * 256 + n * 512>
// CHECK-SAME: storages = 3
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<n * 256>]}
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<n * 512>]}
relax.func @refuse(%x: !relax.tensor<[n, 64], f32>, %y: !relax.tensor<[m, 64], f32>) -> !relax.tensor<[m, 64], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %b = relax.call_tir @k0(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k1(%b, %y) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[m, 64], f32>) -> !relax.tensor<[m, 64], f32>
  %d = relax.call_tir @k0(%c) : (!relax.tensor<[m, 64], f32>) -> !relax.tensor<[m, 64], f32>
  relax.return %d : !relax.tensor<[m, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k1(%b0: !tir.buffer<[d4, d5], f32>, %b1: !tir.buffer<[d6, d7], f32>, %b2: !tir.buffer<[d8, d9], f32>) {
  tir.return
}

// -----

// The same with facts: sym_bounds m <= 16 <= n prove m * 256 <= n * 256,
// so [m, 64] takes %a's dead slot; and the arena n * 512 has the upper
// bound 1024 * 512 from n <= 1024: it is allocated once, at the bound.
// CHECK-LABEL: relax.func @bounded
// CHECK-SAME: relax.memory_plan = {arena = #relax.expr<n * 512>, bound = 524288 : i64
// CHECK-SAME: storages = 2
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<n * 256>]}
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
relax.func @bounded(%x: !relax.tensor<[n, 64], f32>, %y: !relax.tensor<[m, 64], f32>) -> !relax.tensor<[m, 64], f32>
    attributes {sym_bounds = {n = array<i64: 16, 1024>, m = array<i64: 1, 16>}} {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %b = relax.call_tir @k0(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir @k1(%b, %y) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[m, 64], f32>) -> !relax.tensor<[m, 64], f32>
  %d = relax.call_tir @k0(%c) : (!relax.tensor<[m, 64], f32>) -> !relax.tensor<[m, 64], f32>
  relax.return %d : !relax.tensor<[m, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k1(%b0: !tir.buffer<[d4, d5], f32>, %b1: !tir.buffer<[d6, d7], f32>, %b2: !tir.buffer<[d8, d9], f32>) {
  tir.return
}

// -----

// A size that needs a variable bound after entry (k, from a match_cast)
// takes a slot of its constant upper bound (k <= 8: 8 * 4 * 4 = 128 bytes),
// after the n * 16 bytes of %a rounded up to 64; without a bound (j) the
// buffer keeps its own allocation.
// CHECK-LABEL: relax.func @late
// CHECK-SAME: arena = #relax.expr<(n * 16 + 63) floordiv 64 * 64 + 128>
// CHECK-SAME: intermediates = 3 : i64, planned = 2 : i64
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]} : {{.*}} -> !relax.tensor<[n, 4], f32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<(n * 16 + 63) floordiv 64 * 64>]} : {{.*}} -> !relax.tensor<[k, 4], f32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) : {{.*}} -> !relax.tensor<[j, 4], f32>
relax.func @late(%x: !relax.tensor<[n, 4], f32>, %u: !relax.tensor<[?, 4], f32>, %v: !relax.tensor<[?, 4], f32>) -> !relax.tensor<[n], f32>
    attributes {sym_bounds = {k = array<i64: 1, 8>}} {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %uk = relax.match_cast %u : !relax.tensor<[?, 4], f32> to !relax.tensor<[k, 4], f32>
  %vj = relax.match_cast %v : !relax.tensor<[?, 4], f32> to !relax.tensor<[j, 4], f32>
  %b = relax.call_tir @k0(%uk) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  %c = relax.call_tir @k0(%vj) : (!relax.tensor<[j, 4], f32>) -> !relax.tensor<[j, 4], f32>
  %r = relax.call_tir @k1(%a, %b, %c) : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 4], f32>, !relax.tensor<[j, 4], f32>) -> !relax.tensor<[n], f32>
  relax.return %r : !relax.tensor<[n], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k1(%b0: !tir.buffer<[d4, d5], f32>, %b1: !tir.buffer<[d6, d7], f32>, %b2: !tir.buffer<[d8, d9], f32>, %b3: !tir.buffer<[d10], f32>) {
  tir.return
}

// -----

// Not planned: a buffer returned through a tuple or a match_cast view, and
// one handed to a relax.call (whose callee may return it). Only %t3 is
// placed.
// CHECK-LABEL: relax.func @escapes
// CHECK-SAME: planned = 1 : i64
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) : {{.*}} -> !relax.tensor<[n], f32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) : {{.*}} -> !relax.tensor<[n], f32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) : {{.*}} -> !relax.tensor<[n], f32>
// CHECK: relax.call_tir @k{{[0-9]*}}(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
relax.func private @id(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  relax.return %x : !relax.tensor<[n], f32>
}
relax.func @escapes(%x: !relax.tensor<[n], f32>) -> tuple<!relax.tensor<[n], f32>, !relax.tensor<[?], f32>, !relax.tensor<[n], f32>> {
  %t0 = relax.call_tir @k0(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %t1 = relax.call_tir @k0(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %t2 = relax.call_tir @k0(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %t3 = relax.call_tir @k0(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %v = relax.match_cast %t1 : !relax.tensor<[n], f32> to !relax.tensor<[?], f32>
  %c = relax.call @id(%t2) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %s = relax.call_tir @k1(%c, %t3) : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %tup = relax.tuple %t0, %v, %s : !relax.tensor<[n], f32>, !relax.tensor<[?], f32>, !relax.tensor<[n], f32>
  relax.return %tup : tuple<!relax.tensor<[n], f32>, !relax.tensor<[?], f32>, !relax.tensor<[n], f32>>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0], f32>, %b1: !tir.buffer<[d1], f32>) {
  tir.return
}
tir.prim_func @k1(%b0: !tir.buffer<[d2], f32>, %b1: !tir.buffer<[d3], f32>, %b2: !tir.buffer<[d4], f32>) {
  tir.return
}

// -----

// An input updated in place lives on as the result: %a's slot stays taken
// until %c's last reader, so %d (created while %c is live) gets a second
// slot, and the in-place call itself places nothing. Its fresh output %f
// is planned like any call_tir output.
// CHECK-LABEL: relax.func @inplace
// CHECK-SAME: storages = 3
// CHECK: %[[A:.*]] = relax.call_tir @k0(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: %[[C:.*]]:2 = relax.call_tir_inplace @kin(%[[A]]) inplace_indices([0, -1]) {relax.arena_offsets = [unit, #relax.expr<n * 256>]}
// CHECK: %[[D:.*]] = relax.call_tir @k0(%[[C]]#1) {relax.arena_offsets = [#relax.expr<n * 512>]}
// CHECK: relax.call_tir @k2(%[[C]]#0, %[[D]]) :
relax.func @inplace(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c, %f = relax.call_tir_inplace @kin(%a) inplace_indices([0, -1]) : (!relax.tensor<[n, 64], f32>) -> (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>)
  %d = relax.call_tir @k0(%f) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %e = relax.call_tir @k2(%c, %d) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %e : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @kin(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k2(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>, %b2: !tir.buffer<[d4, d5], f32>) {
  tir.return
}

// -----

// Returned through the in-place result: %a escapes and is not planned; an
// argument updated in place is the caller's (nothing to plan).
// CHECK-LABEL: relax.func @inplace_escapes
// CHECK-NOT: relax.memory_plan
// CHECK: relax.call_tir @k0(%{{.*}}) :
// CHECK: relax.call_tir_inplace @kin(%{{.*}}) inplace_indices([0]) :
// CHECK: relax.call_tir_inplace @kin(%{{.*}}) inplace_indices([0]) :
relax.func @inplace_escapes(%x: !relax.tensor<[n, 64], f32>, %y: !relax.tensor<[n, 64], f32>)
    -> (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_tir_inplace @kin(%a) inplace_indices([0]) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %u = relax.call_tir_inplace @kin(%y) inplace_indices([0]) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c, %u : !relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @kin(%b0: !tir.buffer<[d0, d1], f32>) {
  tir.return
}

// -----

// Branches: a relax.if reads what its branches read from outside (%a lives
// up to the if), the buffers inside a branch are not planned (the branch
// may not run), and after the if %z reuses %a's slot.
// CHECK-LABEL: relax.func @branches
// CHECK-SAME: storages = 1
// CHECK: %[[A:.*]] = relax.call_tir @k0(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: relax.if
// CHECK: relax.call_tir @k0(%[[A]]) :
// CHECK: relax.yield
// CHECK: %[[Z:.*]] = relax.call_tir @k0(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
relax.func @branches(%x: !relax.tensor<[n, 64], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n, 64], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n, 64], f32> {
    %b = relax.call_tir @k0(%a) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    relax.yield %b : !relax.tensor<[n, 64], f32>
  } else {
    relax.yield %x : !relax.tensor<[n, 64], f32>
  }
  %z = relax.call_tir @k0(%r) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %e = relax.call_tir @k2(%z, %r) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %e : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k2(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>, %b2: !tir.buffer<[d4, d5], f32>) {
  tir.return
}

// -----

// A loop: relax.while reads what its body reads from outside (%a lives up
// to the loop, so %d, made before the loop, gets a slot of its own), the
// buffers inside the body are not planned, and after the loop %z reuses a
// dead slot.
// CHECK-LABEL: relax.func @loop
// CHECK-SAME: storages = 2
// CHECK: %[[A:.*]] = relax.call_tir @k0(%{{.*}}) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: relax.call_tir @k0(%{{.*}}) {relax.arena_offsets = [#relax.expr<n * 256>]}
// CHECK: relax.while
// CHECK: relax.call_tir @k2(%{{.*}}, %[[A]]) :
// CHECK: relax.loop_yield
// CHECK: relax.call_tir @k0(%{{.*}}) {relax.arena_offsets = [#relax.expr<{{0|n \* 256}}>]}
relax.func @loop(%x: !relax.tensor<[n, 64], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n, 64], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %d = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%d : !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32> {
  ^bb0(%v: !relax.tensor<[n, 64], f32>):
    %b = relax.call_tir @k2(%v, %a) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    relax.loop_yield %c, %b : !relax.tensor<[], i1>, !relax.tensor<[n, 64], f32>
  }
  %z = relax.call_tir @k0(%r) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %e = relax.call_tir @k2(%z, %r) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %e : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k2(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>, %b2: !tir.buffer<[d4, d5], f32>) {
  tir.return
}

// -----

// The output of a call_dps_packed whose relax.output_may_alias names an
// operand (the fused convolution's residual) is written over that operand
// when the planner proves it dead after the call: %c takes %a's slot (0),
// which is not freed when %a dies; %b's slot is. %e, the same call without
// the attribute, gets a slot of its own.
// CHECK-LABEL: relax.func @over
// CHECK-SAME: in_place = 1 : i64
// CHECK-SAME: storages = 3 : i64
// CHECK: %[[A:.*]] = relax.call_tir @k0(%arg0) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: %[[B:.*]] = relax.call_tir @k0(%arg0) {relax.arena_offsets = [#relax.expr<n * 256>]}
// CHECK: %[[C:.*]] = relax.call_dps_packed @f(%[[B]], %[[A]]) {relax.arena_offsets = [#relax.expr<0>], relax.output_may_alias = array<i64: 1>}
// CHECK: %[[D:.*]] = relax.call_tir @k0(%arg0) {relax.arena_offsets = [#relax.expr<n * 256>]}
// CHECK: relax.call_dps_packed @f(%[[D]], %[[C]]) {relax.arena_offsets = [#relax.expr<n * 512>]}
// With in-place=false (side-by-side measurements) %c gets a slot of its own.
// NOIP-LABEL: relax.func @over
// NOIP-SAME: relax.memory_plan = {arena = #relax.expr<n * 768>, intermediates = 5 : i64, planned = 5 : i64, storages = 3 : i64, unplanned = #relax.expr<n * 1280>}
// NOIP: relax.call_dps_packed @f(%{{.*}}, %{{.*}}) {relax.arena_offsets = [#relax.expr<n * 512>], relax.output_may_alias = array<i64: 1>}
relax.func @over(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %b = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_dps_packed @f(%b, %a) {relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %d = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %e = relax.call_dps_packed @f(%d, %c) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %r = relax.call_tir @k0(%e) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %r : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
extern.func private @f(!relax.tensor<[p, q], f32>, !relax.tensor<[s, t], f32>, !relax.tensor<[u, v], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}

// -----

// Refused: %a read again after the call (by %g), %a read as the other
// operand too (%g = f(%a, %a)), the function's argument %x, an operand of
// another type than the result (%w, [n, 128], dies at %m's call and would
// hold it), and an attribute naming no operand. Each result gets a slot of
// its own: no in_place in the plan, and no result at its operand's offset.
// CHECK-LABEL: relax.func @refused
// CHECK-SAME: relax.memory_plan = {arena = #relax.expr<n * 1280>, intermediates = 7 : i64, planned = 7 : i64, storages = 4 : i64, unplanned = #relax.expr<n * 2048>}
// CHECK: %[[A:.*]] = relax.call_tir @k0(%arg0) {relax.arena_offsets = [#relax.expr<0>]}
// CHECK: %[[C:.*]] = relax.call_dps_packed @f(%arg0, %[[A]]) {relax.arena_offsets = [#relax.expr<n * 256>], relax.output_may_alias = array<i64: 1>}
// CHECK: %[[G:.*]] = relax.call_dps_packed @f(%[[A]], %[[A]]) {relax.arena_offsets = [#relax.expr<n * 768>], relax.output_may_alias = array<i64: 1>}
// CHECK: relax.call_dps_packed @f(%[[C]], %arg0) {relax.arena_offsets = [#relax.expr<0>], relax.output_may_alias = array<i64: 1>}
// CHECK: %[[W:.*]] = relax.call_tir @k0(%arg0) {relax.arena_offsets = [#relax.expr<n * 256>]}
// CHECK: %[[M:.*]] = relax.call_dps_packed @f(%arg0, %[[W]]) {relax.arena_offsets = [#relax.expr<n * 1024>], relax.output_may_alias = array<i64: 1>}
// CHECK: relax.call_dps_packed @f(%[[M]], %[[G]]) {relax.arena_offsets = [#relax.expr<n * 256>], relax.output_may_alias = array<i64: 2>}
relax.func @refused(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32> {
  %a = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.call_dps_packed @f(%x, %a) {relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %g = relax.call_dps_packed @f(%a, %a) {relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %h = relax.call_dps_packed @f(%c, %x) {relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %w = relax.call_tir @k0(%x) : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 128], f32>
  %m = relax.call_dps_packed @f(%x, %w) {relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 128], f32>) -> !relax.tensor<[n, 64], f32>
  %v = relax.call_dps_packed @f(%m, %g) {relax.output_may_alias = array<i64: 2>} : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %r = relax.call_tir @k2(%v, %h) : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %r : !relax.tensor<[n, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
tir.prim_func @k2(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>, %b2: !tir.buffer<[d4, d5], f32>) {
  tir.return
}
extern.func private @f(!relax.tensor<[p, q], f32>, !relax.tensor<[s, t], f32>, !relax.tensor<[u, v], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}

// -----

// A relax.constant is never written over: it is no buffer of the function.
// CHECK-LABEL: relax.func @constant
// CHECK-SAME: relax.memory_plan = {arena = #relax.expr<1024>, bound = 1024 : i64, intermediates = 1 : i64, planned = 1 : i64, storages = 1 : i64, unplanned = #relax.expr<1024>}
// CHECK: %[[K:.*]] = relax.constant
// CHECK: relax.call_dps_packed @f(%arg0, %[[K]]) {relax.arena_offsets = [#relax.expr<0>], relax.output_may_alias = array<i64: 1>}
relax.func @constant(%x: !relax.tensor<[4, 64], f32>) -> !relax.tensor<[4, 64], f32> {
  %k = relax.constant dense<1.0> : tensor<4x64xf32>
  %c = relax.call_dps_packed @f(%x, %k) {relax.output_may_alias = array<i64: 1>} : (!relax.tensor<[4, 64], f32>, !relax.tensor<[4, 64], f32>) -> !relax.tensor<[4, 64], f32>
  %r = relax.call_tir @k0(%c) : (!relax.tensor<[4, 64], f32>) -> !relax.tensor<[4, 64], f32>
  relax.return %r : !relax.tensor<[4, 64], f32>
}
tir.prim_func @k0(%b0: !tir.buffer<[d0, d1], f32>, %b1: !tir.buffer<[d2, d3], f32>) {
  tir.return
}
extern.func private @f(!relax.tensor<[p, q], f32>, !relax.tensor<[s, t], f32>, !relax.tensor<[u, v], f32>)
    attributes {link_name = "f", num_outputs = 1 : i64}
