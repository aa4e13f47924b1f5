// A kernel staged by TMA (tir.tma_load, TmaLowering.cpp), written by hand
// in the shape the wgmma matmul's staging takes: block bx copies rows
// 8 bx .. 8 bx + 7 of a symbolic [m, k] f16 tensor through shared memory,
// 64 columns (128 bytes) per step, two stages, each with its mbarrier and
// its phase parity ((step / 2) % 2); thread 0 initialises the mbarriers and
// issues each box (tir.mbarrier_arrive_expect_tx with the box's 1024 bytes,
// then tir.tma_load), every thread waits on the stage's mbarrier and copies
// 4 elements of the tile out, and the stage is refilled with step + 2 after
// the barrier that ends the step. The tile is 128-byte swizzled: element
// (r, c) of the box is at (r, c ^ 8 (r % 8)) (its 16-byte chunk XOR the row),
// which the readers undo. The output is the input padded with zeros to
// whole boxes (what the tensor map's zero fill gives past m and k), so a
// wrong box corner, a wrong swizzle or a missing zero fill changes it.
// The tensor map operand is a placeholder here: the emulation does not
// read it (compiled matmuls get theirs from tir.tensor_map in host code).
tir.prim_func private @tma_copy(%x: !tir.buffer<[m, k], f16>,
    %out: !tir.buffer<[(m + 7) floordiv 8 * 8, (k + 63) floordiv 64 * 64], f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %map = arith.constant 0 : i64
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  %m7 = arith.addi %m, %c7 : index
  %blocks = arith.divui %m7, %c8 : index
  %k63 = arith.addi %k, %c63 : index
  %steps = arith.divui %k63, %c64 : index
  tir.for %bx = %c0 to %blocks step %c1 kind = thread_binding thread = "blockIdx.x" {
    %bars = tir.alloc : !tir.buffer<[2], i64, shared>
    %tile = tir.alloc : !tir.buffer<[2, 8, 64], f16, shared>
    %row0 = arith.muli %bx, %c8 : index
    // Steps 0 and 1 in flight before the loop.
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        tir.mbarrier_init %bars[%c0] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
        tir.mbarrier_init %bars[%c1] {count = 1 : i64} : !tir.buffer<[2], i64, shared>
        tir.mbarrier_arrive_expect_tx %bars[%c0] {bytes = 1024 : i64} : !tir.buffer<[2], i64, shared>
        tir.tma_load %tile[%c0], %x[%row0, %c0], %bars[%c0], %map {swizzle = 128 : i64} : !tir.buffer<[2, 8, 64], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
        %two = arith.cmpi ult, %c1, %steps : index
        scf.if %two {
          tir.mbarrier_arrive_expect_tx %bars[%c1] {bytes = 1024 : i64} : !tir.buffer<[2], i64, shared>
          tir.tma_load %tile[%c1], %x[%row0, %c64], %bars[%c1], %map {swizzle = 128 : i64} : !tir.buffer<[2, 8, 64], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
        }
      }
    }
    tir.for %s = %c0 to %steps step %c1 {
      %stage = arith.remui %s, %c2 : index
      %round = arith.divui %s, %c2 : index
      %parity = arith.remui %round, %c2 : index
      %col0 = arith.muli %s, %c64 : index
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        tir.mbarrier_wait %bars[%stage], %parity : !tir.buffer<[2], i64, shared>
        tir.for %e = %c0 to %c4 step %c1 {
          %t4 = arith.muli %t, %c4 : index
          %i = arith.addi %t4, %e : index
          %r = arith.divui %i, %c64 : index
          %c = arith.remui %i, %c64 : index
          %r8 = arith.remui %r, %c8 : index
          %chunk = arith.muli %r8, %c8 : index
          %cs = arith.xori %c, %chunk : index
          %v = tir.load %tile[%stage, %r, %cs] : !tir.buffer<[2, 8, 64], f16, shared>
          %orow = arith.addi %row0, %r : index
          %ocol = arith.addi %col0, %c : index
          tir.store %v, %out[%orow, %ocol] : !tir.buffer<[(m + 7) floordiv 8 * 8, (k + 63) floordiv 64 * 64], f16>
        }
      }
      // After the barrier: every thread has read this stage; refill it.
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        %first = arith.cmpi eq, %t, %c0 : index
        %next = arith.addi %s, %c2 : index
        %more = arith.cmpi ult, %next, %steps : index
        %issue = arith.andi %first, %more : i1
        scf.if %issue {
          %ncol = arith.muli %next, %c64 : index
          tir.mbarrier_arrive_expect_tx %bars[%stage] {bytes = 1024 : i64} : !tir.buffer<[2], i64, shared>
          tir.tma_load %tile[%stage], %x[%row0, %ncol], %bars[%stage], %map {swizzle = 128 : i64} : !tir.buffer<[2, 8, 64], f16, shared>, !tir.buffer<[m, k], f16>, !tir.buffer<[2], i64, shared>
        }
      }
    }
  }
  tir.return
}

// bf16 with the 64-byte swizzle, one stage: thread 0 arms the single
// mbarrier for an 8 x 32 box (512 bytes) and issues it; every thread waits
// on parity step % 2 and copies 2 elements out; after the barrier that
// ends the reads, thread 0 issues the next step's box into the same tile.
// Rows are 64 bytes, so the swizzle XORs 16-byte chunk c / 8 with
// (r / 2) % 4: the readers read (r, c ^ 8 ((r / 2) % 4)).
tir.prim_func private @tma_copy_bf16(%x: !tir.buffer<[m, k], bf16>,
    %out: !tir.buffer<[(m + 7) floordiv 8 * 8, (k + 31) floordiv 32 * 32], bf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %map = arith.constant 0 : i64
  %m = tir.sym_var "m" : index
  %k = tir.sym_var "k" : index
  %m7 = arith.addi %m, %c7 : index
  %blocks = arith.divui %m7, %c8 : index
  %k31 = arith.addi %k, %c31 : index
  %steps = arith.divui %k31, %c32 : index
  tir.for %bx = %c0 to %blocks step %c1 kind = thread_binding thread = "blockIdx.x" {
    %bar = tir.alloc : !tir.buffer<[1], i64, shared>
    %tile = tir.alloc : !tir.buffer<[8, 32], bf16, shared>
    %row0 = arith.muli %bx, %c8 : index
    tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        tir.mbarrier_init %bar[%c0] {count = 1 : i64} : !tir.buffer<[1], i64, shared>
        tir.mbarrier_arrive_expect_tx %bar[%c0] {bytes = 512 : i64} : !tir.buffer<[1], i64, shared>
        tir.tma_load %tile[], %x[%row0, %c0], %bar[%c0], %map {swizzle = 64 : i64} : !tir.buffer<[8, 32], bf16, shared>, !tir.buffer<[m, k], bf16>, !tir.buffer<[1], i64, shared>
      }
    }
    tir.for %s = %c0 to %steps step %c1 {
      %parity = arith.remui %s, %c2 : index
      %col0 = arith.muli %s, %c32 : index
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        tir.mbarrier_wait %bar[%c0], %parity : !tir.buffer<[1], i64, shared>
        tir.for %e = %c0 to %c2 step %c1 {
          %t2 = arith.muli %t, %c2 : index
          %i = arith.addi %t2, %e : index
          %r = arith.divui %i, %c32 : index
          %c = arith.remui %i, %c32 : index
          %r2 = arith.divui %r, %c2 : index
          %r24 = arith.remui %r2, %c4 : index
          %chunk = arith.muli %r24, %c8 : index
          %cs = arith.xori %c, %chunk : index
          %v = tir.load %tile[%r, %cs] : !tir.buffer<[8, 32], bf16, shared>
          %orow = arith.addi %row0, %r : index
          %ocol = arith.addi %col0, %c : index
          tir.store %v, %out[%orow, %ocol] : !tir.buffer<[(m + 7) floordiv 8 * 8, (k + 31) floordiv 32 * 32], bf16>
        }
      }
      tir.for %t = %c0 to %c128 step %c1 kind = thread_binding thread = "threadIdx.x" {
        %first = arith.cmpi eq, %t, %c0 : index
        %next = arith.addi %s, %c1 : index
        %more = arith.cmpi ult, %next, %steps : index
        %issue = arith.andi %first, %more : i1
        scf.if %issue {
          %ncol = arith.muli %next, %c32 : index
          tir.mbarrier_arrive_expect_tx %bar[%c0] {bytes = 512 : i64} : !tir.buffer<[1], i64, shared>
          tir.tma_load %tile[], %x[%row0, %ncol], %bar[%c0], %map {swizzle = 64 : i64} : !tir.buffer<[8, 32], bf16, shared>, !tir.buffer<[m, k], bf16>, !tir.buffer<[1], i64, shared>
        }
      }
    }
  }
  tir.return
}

relax.func @main_bf16(%x: !relax.tensor<[m, k], bf16>)
    -> !relax.tensor<[(m + 7) floordiv 8 * 8, (k + 31) floordiv 32 * 32], bf16> {
  %y = relax.call_tir @tma_copy_bf16(%x) : (!relax.tensor<[m, k], bf16>) -> !relax.tensor<[(m + 7) floordiv 8 * 8, (k + 31) floordiv 32 * 32], bf16>
  relax.return %y : !relax.tensor<[(m + 7) floordiv 8 * 8, (k + 31) floordiv 32 * 32], bf16>
}

relax.func @main(%x: !relax.tensor<[m, k], f16>)
    -> !relax.tensor<[(m + 7) floordiv 8 * 8, (k + 63) floordiv 64 * 64], f16> {
  %y = relax.call_tir @tma_copy(%x) : (!relax.tensor<[m, k], f16>) -> !relax.tensor<[(m + 7) floordiv 8 * 8, (k + 63) floordiv 64 * 64], f16>
  relax.return %y : !relax.tensor<[(m + 7) floordiv 8 * 8, (k + 63) floordiv 64 * 64], f16>
}
