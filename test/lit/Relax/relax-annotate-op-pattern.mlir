// RUN: relax-opt --relax-annotate-op-pattern %s | FileCheck %s

// The pass alone on hand-written programs that carry no `op_pattern` (or a
// wrong one): every kind below is derived from the blocks' iteration kinds,
// load/store indices and the arithmetic in the block, with symbolic extents
// throughout. The pass has no diagnostics: every tir.prim_func gets a kind
// (`opaque` when nothing better is known), and an unknown `op_pattern`
// string is rejected by the prim_func verifier before the pass runs
// (test/lit/TIR for the verifier).

// Reads and writes at the iteration variables only.
// CHECK-LABEL: tir.prim_func @ewise(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<elementwise>}
tir.prim_func @ewise(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>, %z: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "ewise" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %b = tir.load %y[%vi, %vj] : !tir.buffer<[n, m], f32>
        %s = arith.mulf %a, %b : f32
        tir.store %s, %z[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// A wrong recorded kind is replaced, not trusted.
// CHECK-LABEL: tir.prim_func @ewise_mislabelled(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<elementwise>}
tir.prim_func @ewise_mislabelled(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<opaque>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.block "ew" (%vi = %i) kinds [spatial] {
      %a = tir.load %x[%vi] : !tir.buffer<[n], f32>
      %e = math.exp %a : f32
      tir.store %e, %y[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// A read through an in-order subsequence of the iteration variables (the
// bias [m] of an [n, m] add) stretches the missing dim.
// CHECK-LABEL: tir.prim_func @bcast_subsequence(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<broadcast>}
tir.prim_func @bcast_subsequence(%x: !tir.buffer<[n, m], f32>, %b: !tir.buffer<[m], f32>, %z: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %c = tir.load %b[%vj] : !tir.buffer<[m], f32>
        %s = arith.addf %a, %c : f32
        tir.store %s, %z[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// A read of a size-1 dim at the constant 0 is a broadcast too.
// CHECK-LABEL: tir.prim_func @bcast_constant(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<broadcast>}
tir.prim_func @bcast_constant(%x: !tir.buffer<[n, m], f32>, %b: !tir.buffer<[1, m], f32>, %z: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "add" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %c = tir.load %b[%c0, %vj] : !tir.buffer<[1, m], f32>
        %s = arith.subf %a, %c : f32
        tir.store %s, %z[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// Iteration variables out of order in a read: a transpose.
// CHECK-LABEL: tir.prim_func @transpose_read(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<injective>}
tir.prim_func @transpose_read(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[m, n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %m step %c1 {
    tir.for %j = %c0 to %n step %c1 {
      tir.block "transpose" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %x[%vj, %vi] : !tir.buffer<[n, m], f32>
        tir.store %a, %y[%vi, %vj] : !tir.buffer<[m, n], f32>
      }
    }
  }
  tir.return
}

// Every read at its own iteration variables, but the write is shifted
// (the second half of a concat): injective, not elementwise.
// CHECK-LABEL: tir.prim_func @concat_shifted_store(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<injective>}
tir.prim_func @concat_shifted_store(%x: !tir.buffer<[k, m], f32>, %y: !tir.buffer<[n, m], f32>, %z: !tir.buffer<[k + n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %k step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "concat_a" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %x[%vi, %vj] : !tir.buffer<[k, m], f32>
        tir.store %a, %z[%vi, %vj] : !tir.buffer<[k + n, m], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "concat_b" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %y[%vi, %vj] : !tir.buffer<[n, m], f32>
        %row = arith.addi %vi, %k : index
        tir.store %a, %z[%row, %vj] : !tir.buffer<[k + n, m], f32>
      }
    }
  }
  tir.return
}

// A row sum: a reduce iteration variable.
// CHECK-LABEL: tir.prim_func @row_sum(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<reduction>}
tir.prim_func @row_sum(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %k = %c0 to %m step %c1 {
      tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %a = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %s = arith.addf %acc, %a : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// A sum of squares multiplies, but one operand by itself: a reduction, not a
// contraction.
// CHECK-LABEL: tir.prim_func @sum_of_squares(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<reduction>}
tir.prim_func @sum_of_squares(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %k = %c0 to %m step %c1 {
      tir.block "sqsum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %y[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %y[%vi] : !tir.buffer<[n], f32>
        %a = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %sq = arith.mulf %a, %a : f32
        %s = arith.addf %acc, %sq : f32
        tir.store %s, %y[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// Softmax: two reductions in sequence (max, exp-sum) and an elementwise
// normalisation is still one reduction program.
// CHECK-LABEL: tir.prim_func @softmax(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<reduction>}
tir.prim_func @softmax(%x: !tir.buffer<[n, m], f32>, %y: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %mx = tir.alloc : !tir.buffer<[n], f32>
  %sm = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 {
    tir.for %k = %c0 to %m step %c1 {
      tir.block "maxelem" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          %lo = arith.constant 0xFF800000 : f32
          tir.store %lo, %mx[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %mx[%vi] : !tir.buffer<[n], f32>
        %a = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %r = arith.maximumf %acc, %a : f32
        tir.store %r, %mx[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 {
    tir.for %k = %c0 to %m step %c1 {
      tir.block "expsum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %sm[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %sm[%vi] : !tir.buffer<[n], f32>
        %a = tir.load %x[%vi, %vk] : !tir.buffer<[n, m], f32>
        %b = tir.load %mx[%vi] : !tir.buffer<[n], f32>
        %d = arith.subf %a, %b : f32
        %e = math.exp %d : f32
        %r = arith.addf %acc, %e : f32
        tir.store %r, %sm[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "norm" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %b = tir.load %mx[%vi] : !tir.buffer<[n], f32>
        %s = tir.load %sm[%vi] : !tir.buffer<[n], f32>
        %d = arith.subf %a, %b : f32
        %e = math.exp %d : f32
        %q = arith.divf %e, %s : f32
        tir.store %q, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// Two operands read through the reduce variable and multiplied: a
// contraction, whose output takes elementwise epilogues.
// CHECK-LABEL: tir.prim_func @matmul(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<out_ewise_fusable>}
tir.prim_func @matmul(%a: !tir.buffer<[n, k], f32>, %b: !tir.buffer<[k, m], f32>, %c: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %k = tir.sym_var "k" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.for %r = %c0 to %k step %c1 {
        tir.block "matmul" (%vi = %i, %vj = %j, %vk = %r) kinds [spatial, spatial, reduce] {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %c[%vi, %vj] : !tir.buffer<[n, m], f32>
          }
          %acc = tir.load %c[%vi, %vj] : !tir.buffer<[n, m], f32>
          %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, k], f32>
          %y = tir.load %b[%vk, %vj] : !tir.buffer<[k, m], f32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          tir.store %s, %c[%vi, %vj] : !tir.buffer<[n, m], f32>
        }
      }
    }
  }
  tir.return
}

// The integer form (arith.muli) is a contraction as well.
// CHECK-LABEL: tir.prim_func @matmul_i32(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<out_ewise_fusable>}
tir.prim_func @matmul_i32(%a: !tir.buffer<[n, k], i32>, %b: !tir.buffer<[k], i32>, %c: !tir.buffer<[n], i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %r = %c0 to %k step %c1 {
      tir.block "matvec" (%vi = %i, %vk = %r) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0 : i32
          tir.store %zero, %c[%vi] : !tir.buffer<[n], i32>
        }
        %acc = tir.load %c[%vi] : !tir.buffer<[n], i32>
        %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, k], i32>
        %y = tir.load %b[%vk] : !tir.buffer<[k], i32>
        %p = arith.muli %x, %y : i32
        %s = arith.addi %acc, %p : i32
        tir.store %s, %c[%vi] : !tir.buffer<[n], i32>
      }
    }
  }
  tir.return
}

// Two operands read through the reduce variable but added, not multiplied:
// a reduction.
// CHECK-LABEL: tir.prim_func @sum_of_two(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<reduction>}
tir.prim_func @sum_of_two(%a: !tir.buffer<[n, k], f32>, %b: !tir.buffer<[n, k], f32>, %c: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %k = tir.sym_var "k" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %r = %c0 to %k step %c1 {
      tir.block "sum2" (%vi = %i, %vk = %r) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %c[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %c[%vi] : !tir.buffer<[n], f32>
        %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, k], f32>
        %y = tir.load %b[%vi, %vk] : !tir.buffer<[n, k], f32>
        %p = arith.addf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        tir.store %s, %c[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.return
}

// A contraction next to another reduction (attention's scores then
// softmax row max) has no single anchor: opaque.
// CHECK-LABEL: tir.prim_func @contraction_and_reduction(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<opaque>}
tir.prim_func @contraction_and_reduction(%q: !tir.buffer<[s, d], f32>, %kt: !tir.buffer<[d, s], f32>, %mx: !tir.buffer<[s], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tir.sym_var "s" : index
  %d = tir.sym_var "d" : index
  %sc = tir.alloc : !tir.buffer<[s, s], f32>
  tir.for %i = %c0 to %s step %c1 {
    tir.for %j = %c0 to %s step %c1 {
      tir.for %r = %c0 to %d step %c1 {
        tir.block "scores" (%vi = %i, %vj = %j, %vk = %r) kinds [spatial, spatial, reduce] {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %sc[%vi, %vj] : !tir.buffer<[s, s], f32>
          }
          %acc = tir.load %sc[%vi, %vj] : !tir.buffer<[s, s], f32>
          %x = tir.load %q[%vi, %vk] : !tir.buffer<[s, d], f32>
          %y = tir.load %kt[%vk, %vj] : !tir.buffer<[d, s], f32>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %acc, %p : f32
          tir.store %t, %sc[%vi, %vj] : !tir.buffer<[s, s], f32>
        }
      }
    }
  }
  tir.for %i = %c0 to %s step %c1 {
    tir.for %r = %c0 to %s step %c1 {
      tir.block "rowmax" (%vi = %i, %vk = %r) kinds [spatial, reduce] {
        tir.init {
          %lo = arith.constant 0xFF800000 : f32
          tir.store %lo, %mx[%vi] : !tir.buffer<[s], f32>
        }
        %acc = tir.load %mx[%vi] : !tir.buffer<[s], f32>
        %a = tir.load %sc[%vi, %vk] : !tir.buffer<[s, s], f32>
        %t = arith.maximumf %acc, %a : f32
        tir.store %t, %mx[%vi] : !tir.buffer<[s], f32>
      }
    }
  }
  tir.return
}

// Two contractions in one program (Q K^T, then times V): opaque.
// CHECK-LABEL: tir.prim_func @two_contractions(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<opaque>}
tir.prim_func @two_contractions(%a: !tir.buffer<[n, n], f32>, %b: !tir.buffer<[n, n], f32>, %c: !tir.buffer<[n, n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %t = tir.alloc : !tir.buffer<[n, n], f32>
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %n step %c1 {
      tir.for %r = %c0 to %n step %c1 {
        tir.block "mm0" (%vi = %i, %vj = %j, %vk = %r) kinds [spatial, spatial, reduce] {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %t[%vi, %vj] : !tir.buffer<[n, n], f32>
          }
          %acc = tir.load %t[%vi, %vj] : !tir.buffer<[n, n], f32>
          %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, n], f32>
          %y = tir.load %b[%vk, %vj] : !tir.buffer<[n, n], f32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          tir.store %s, %t[%vi, %vj] : !tir.buffer<[n, n], f32>
        }
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %n step %c1 {
      tir.for %r = %c0 to %n step %c1 {
        tir.block "mm1" (%vi = %i, %vj = %j, %vk = %r) kinds [spatial, spatial, reduce] {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %c[%vi, %vj] : !tir.buffer<[n, n], f32>
          }
          %acc = tir.load %c[%vi, %vj] : !tir.buffer<[n, n], f32>
          %x = tir.load %t[%vi, %vk] : !tir.buffer<[n, n], f32>
          %y = tir.load %b[%vk, %vj] : !tir.buffer<[n, n], f32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          tir.store %s, %c[%vi, %vj] : !tir.buffer<[n, n], f32>
        }
      }
    }
  }
  tir.return
}

// A contraction followed by an elementwise epilogue in the same program
// stays out_ewise_fusable (the most general block decides).
// CHECK-LABEL: tir.prim_func @matmul_relu(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<out_ewise_fusable>}
tir.prim_func @matmul_relu(%a: !tir.buffer<[n, k], f32>, %b: !tir.buffer<[k], f32>, %c: !tir.buffer<[n], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %k = tir.sym_var "k" : index
  %t = tir.alloc : !tir.buffer<[n], f32>
  tir.for %i = %c0 to %n step %c1 {
    tir.for %r = %c0 to %k step %c1 {
      tir.block "mv" (%vi = %i, %vk = %r) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %t[%vi] : !tir.buffer<[n], f32>
        }
        %acc = tir.load %t[%vi] : !tir.buffer<[n], f32>
        %x = tir.load %a[%vi, %vk] : !tir.buffer<[n, k], f32>
        %y = tir.load %b[%vk] : !tir.buffer<[k], f32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        tir.store %s, %t[%vi] : !tir.buffer<[n], f32>
      }
    }
  }
  tir.for %i = %c0 to %n step %c1 {
    tir.block "relu" (%vi = %i) kinds [spatial] {
      %v = tir.load %t[%vi] : !tir.buffer<[n], f32>
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %v, %zero : f32
      tir.store %r, %c[%vi] : !tir.buffer<[n], f32>
    }
  }
  tir.return
}

// An elementwise block then a broadcast block: the program is a broadcast.
// CHECK-LABEL: tir.prim_func @ewise_then_bcast(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<broadcast>}
tir.prim_func @ewise_then_bcast(%x: !tir.buffer<[m], f32>, %y: !tir.buffer<[n, m], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  %t = tir.alloc : !tir.buffer<[m], f32>
  tir.for %j = %c0 to %m step %c1 {
    tir.block "neg" (%vj = %j) kinds [spatial] {
      %a = tir.load %x[%vj] : !tir.buffer<[m], f32>
      %b = arith.negf %a : f32
      tir.store %b, %t[%vj] : !tir.buffer<[m], f32>
    }
  }
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "tile" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %a = tir.load %t[%vj] : !tir.buffer<[m], f32>
        tir.store %a, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}

// A program without blocks (a scan written as plain loops, a declaration)
// is opaque.
// CHECK-LABEL: tir.prim_func @no_blocks(
// CHECK-SAME: attributes {op_pattern = #tir.op_pattern<opaque>}
tir.prim_func @no_blocks(%x: !tir.buffer<[n], f32>) {
  tir.return
}
