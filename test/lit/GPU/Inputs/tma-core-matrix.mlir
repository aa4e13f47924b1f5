// TMA copies through the core-matrix view (tir.tma_load `view`, `box`),
// written by hand in the shape the wgmma matmul's staging takes: block bx
// copies rows 16 bx .. 16 bx + 15 of a symbolic [m, k] f16 tensor (k a
// multiple of 8) 32 columns per step, as the box [4, 16, 8] of the view
// [k / 8, m, 8] with strides [8, k, 1]: in shared memory that is [4, 2, 8,
// 8], the 8 x 8 core matrices of 128 contiguous bytes that wgmma's
// non-swizzled descriptors read (element (r, c) of the step at [c / 8,
// r / 8, r % 8, c % 8]). Two stages with their mbarriers and parities
// ((step / 2) % 2); thread 0 initialises the mbarriers and issues each box
// (tir.mbarrier_arrive_expect_tx with the box's 1024 bytes, then
// tir.tma_load); every thread waits on the stage's mbarrier and copies 4
// elements out of the core matrices, and the stage is refilled with step + 2
// after the barrier that ends the step. The output is the input padded with
// zeros to whole 16 x 32 tiles (what the zero fill gives past m and past
// k / 8 core-matrix columns), so a wrong view stride, dim or box order
// changes it. The tensor map operand is a placeholder here: the emulation
// does not read it.
tir.prim_func private @core_copy(%x: !tir.buffer<[m, k], f16>,
    %out: !tir.buffer<[(m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %map = arith.constant 0 : i64
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  %k8 = arith.divui %k, %c8 : index
  %m15 = arith.addi %m, %c15 : index
  %blocks = arith.divui %m15, %c16 : index
  %k31 = arith.addi %k, %c31 : index
  %steps = arith.divui %k31, %c32 : index
  tir.for %bx = %c0 to %blocks step %c1 kind = thread_binding thread = "blockIdx.x" {
    %bars = tir.alloc : !tir.buffer<[2], i64, shared>
    %tile = tir.alloc : !tir.buffer<[2, 4, 2, 8, 8], f16, shared>
    %row0 = arith.muli %bx, %c16 : index
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        tir.mbarrier_init %bars[%c0] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
        tir.mbarrier_init %bars[%c1] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
        tir.mbarrier_arrive_expect_tx %bars[%c0] {bytes = 1024 : i64} : !tir.buffer<[2], i64, shared>
        tir.tma_load %tile[%c0], %x[%c0, %row0, %c0] view [%k8, %m, %c8] strides [%c8, %k, %c1], %bars[%c0], %map {box = array<i64: 4, 16, 8>} : !tir.buffer<[2, 4, 2, 8, 8], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
        %two = arith.cmpi ult, %c1, %steps : index
        scf.if %two {
          tir.mbarrier_arrive_expect_tx %bars[%c1] {bytes = 1024 : i64} : !tir.buffer<[2], i64, shared>
          tir.tma_load %tile[%c1], %x[%c4, %row0, %c0] view [%k8, %m, %c8] strides [%c8, %k, %c1], %bars[%c1], %map {box = array<i64: 4, 16, 8>} : !tir.buffer<[2, 4, 2, 8, 8], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
        }
      }
    }
    tir.for %s = %c0 to %steps step %c1 {
      %stage = arith.remui %s, %c2 : index
      %round = arith.divui %s, %c2 : index
      %parity = arith.remui %round, %c2 : index
      %col0 = arith.muli %s, %c32 : index
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        tir.mbarrier_wait %bars[%stage], %parity : !tir.buffer<[2], i64, shared>
        tir.for %e = %c0 to %c4 step %c1 {
          %t4 = arith.muli %t, %c4 : index
          %i = arith.addi %t4, %e : index
          %r = arith.divui %i, %c32 : index
          %c = arith.remui %i, %c32 : index
          %kc = arith.divui %c, %c8 : index
          %rc = arith.divui %r, %c8 : index
          %rr = arith.remui %r, %c8 : index
          %kk = arith.remui %c, %c8 : index
          %v = tir.load %tile[%stage, %kc, %rc, %rr, %kk] : !tir.buffer<[2, 4, 2, 8, 8], f16, shared>
          %orow = arith.addi %row0, %r : index
          %ocol = arith.addi %col0, %c : index
          tir.store %v, %out[%orow, %ocol] : !tir.buffer<[(m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], f16>
        }
      }
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        %first = arith.cmpi eq, %t, %c0 : index
        %next = arith.addi %s, %c2 : index
        %more = arith.cmpi ult, %next, %steps : index
        %issue = arith.andi %first, %more : i1
        scf.if %issue {
          %nkc = arith.muli %next, %c4 : index
          tir.mbarrier_arrive_expect_tx %bars[%stage] {bytes = 1024 : i64} : !tir.buffer<[2], i64, shared>
          tir.tma_load %tile[%stage], %x[%nkc, %row0, %c0] view [%k8, %m, %c8] strides [%c8, %k, %c1], %bars[%stage], %map {box = array<i64: 4, 16, 8>} : !tir.buffer<[2, 4, 2, 8, 8], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
        }
      }
    }
  }
  tir.return
}

// A batched bf16 operand [b, m, k] through the rank-4 view [b, k / 8, m,
// 8] (strides [m k, 8, k, 1]) and the box [1, 4, 16, 8], one stage whose
// mbarrier parity flips every step: block (bx, bz) copies rows 16 bx.. of
// batch bz, the batch being the view's outermost coordinate (so a stride of
// k instead of m k, or the batch corner dropped, reads the wrong matrix).
tir.prim_func private @core_copy_batched(%x: !tir.buffer<[b, m, k], bf16>,
    %out: !tir.buffer<[b, (m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], bf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %map = arith.constant 0 : i64
  %b = tir.sym_var "b" : index
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  %k8 = arith.divui %k, %c8 : index
  %mk = arith.muli %m, %k : index
  %m15 = arith.addi %m, %c15 : index
  %blocks = arith.divui %m15, %c16 : index
  %k31 = arith.addi %k, %c31 : index
  %steps = arith.divui %k31, %c32 : index
  tir.for %bz = %c0 to %b step %c1 kind = thread_binding thread = "blockIdx.z" {
  tir.for %bx = %c0 to %blocks step %c1 kind = thread_binding thread = "blockIdx.x" {
    %bar = tir.alloc : !tir.buffer<[1], i64, shared>
    %tile = tir.alloc : !tir.buffer<[4, 2, 8, 8], bf16, shared>
    %row0 = arith.muli %bx, %c16 : index
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        tir.mbarrier_init %bar[%c0] {count = 1 : i64} : !tir.buffer<[1], i64, shared>
        tir.mbarrier_arrive_expect_tx %bar[%c0] {bytes = 1024 : i64} : !tir.buffer<[1], i64, shared>
        tir.tma_load %tile[], %x[%bz, %c0, %row0, %c0] view [%b, %k8, %m, %c8] strides [%mk, %c8, %k, %c1], %bar[%c0], %map {box = array<i64: 1, 4, 16, 8>} : !tir.buffer<[4, 2, 8, 8], bf16, shared>, !tir.buffer<[b, m, k], bf16>, !tir.buffer<[1], i64, shared>
      }
    }
    tir.for %s = %c0 to %steps step %c1 {
      %parity = arith.remui %s, %c2 : index
      %col0 = arith.muli %s, %c32 : index
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        tir.mbarrier_wait %bar[%c0], %parity : !tir.buffer<[1], i64, shared>
        tir.for %e = %c0 to %c4 step %c1 {
          %t4 = arith.muli %t, %c4 : index
          %i = arith.addi %t4, %e : index
          %r = arith.divui %i, %c32 : index
          %c = arith.remui %i, %c32 : index
          %kc = arith.divui %c, %c8 : index
          %rc = arith.divui %r, %c8 : index
          %rr = arith.remui %r, %c8 : index
          %kk = arith.remui %c, %c8 : index
          %v = tir.load %tile[%kc, %rc, %rr, %kk] : !tir.buffer<[4, 2, 8, 8], bf16, shared>
          %orow = arith.addi %row0, %r : index
          %ocol = arith.addi %col0, %c : index
          tir.store %v, %out[%bz, %orow, %ocol] : !tir.buffer<[b, (m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], bf16>
        }
      }
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        %first = arith.cmpi eq, %t, %c0 : index
        %next = arith.addi %s, %c1 : index
        %more = arith.cmpi ult, %next, %steps : index
        %issue = arith.andi %first, %more : i1
        scf.if %issue {
          %nkc = arith.muli %next, %c4 : index
          tir.mbarrier_arrive_expect_tx %bar[%c0] {bytes = 1024 : i64} : !tir.buffer<[1], i64, shared>
          tir.tma_load %tile[], %x[%bz, %nkc, %row0, %c0] view [%b, %k8, %m, %c8] strides [%mk, %c8, %k, %c1], %bar[%c0], %map {box = array<i64: 1, 4, 16, 8>} : !tir.buffer<[4, 2, 8, 8], bf16, shared>, !tir.buffer<[b, m, k], bf16>, !tir.buffer<[1], i64, shared>
        }
      }
    }
  }
  }
  tir.return
}

relax.func @main_batched(%x: !relax.tensor<[b, m, k], bf16>)
    -> !relax.tensor<[b, (m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], bf16> {
  %y = relax.call_tir @core_copy_batched(%x) : (!relax.tensor<[b, m, k], bf16>) -> !relax.tensor<[b, (m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], bf16>
  relax.return %y : !relax.tensor<[b, (m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], bf16>
}

relax.func @main(%x: !relax.tensor<[m, k], f16>)
    -> !relax.tensor<[(m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], f16> {
  %y = relax.call_tir @core_copy(%x) : (!relax.tensor<[m, k], f16>) -> !relax.tensor<[(m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], f16>
  relax.return %y : !relax.tensor<[(m + 15) floordiv 16 * 16, (k + 31) floordiv 32 * 32], f16>
}
