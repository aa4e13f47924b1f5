// relax.if end to end: branches of different symbolic shapes ([n] against
// [n * 2]) joined into a fresh variable k bound from the branch that ran,
// nested ifs, an if inside a function called by relax.call, a condition
// computed from data, branches that yield an argument or an outer
// intermediate (copied: the if's results are its own buffers) and an
// intermediate of the branch (handed over), with the memory plan on and
// off and with the memory counters (--memory-report). Expected values are
// written inline (x = [1, -2, 3]).
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([1, -2, 3], dtype=np.float32)); np.save('%t.t.npy', np.array(True)); np.save('%t.f.npy', np.array(False)); np.save('%t.pos.npy', np.array(0.5, dtype=np.float32)); np.save('%t.neg.npy', np.array(-0.5, dtype=np.float32))"
// RUN: relax-run %s --entry grow --input %t.x.npy --input %t.t.npy | FileCheck %s --check-prefix=GROW-T
// RUN: relax-run %s --entry grow --input %t.x.npy --input %t.f.npy | FileCheck %s --check-prefix=GROW-F
// A condition byte other than 0 and 1 is true, as numpy reads it (2 and 16
// have a clear low bit: truncated to i1 they read as false).
// RUN: %python -c "import numpy as np; np.save('%t.two.npy', np.array(True)); np.save('%t.sixteen.npy', np.array(True)); b = bytearray(open('%t.two.npy', 'rb').read()); b[-1] = 2; open('%t.two.npy', 'wb').write(b); b[-1] = 16; open('%t.sixteen.npy', 'wb').write(b)"
// RUN: relax-run %s --entry grow --input %t.x.npy --input %t.two.npy | FileCheck %s --check-prefix=GROW-T
// RUN: relax-run %s --entry grow --input %t.x.npy --input %t.sixteen.npy | FileCheck %s --check-prefix=GROW-T
// RUN: relax-run %s --entry nested --input %t.x.npy --input %t.two.npy --input %t.sixteen.npy | FileCheck %s --check-prefix=NEST-TT
// RUN: relax-run %s --entry grow --plan-memory=false --input %t.x.npy --input %t.f.npy | FileCheck %s --check-prefix=GROW-F
// RUN: relax-run %s --entry nested --input %t.x.npy --input %t.t.npy --input %t.t.npy | FileCheck %s --check-prefix=NEST-TT
// RUN: relax-run %s --entry nested --input %t.x.npy --input %t.t.npy --input %t.f.npy | FileCheck %s --check-prefix=NEST-TF
// RUN: relax-run %s --entry nested --input %t.x.npy --input %t.f.npy --input %t.t.npy | FileCheck %s --check-prefix=NEST-F
// RUN: relax-run %s --entry caller --input %t.x.npy --input %t.pos.npy | FileCheck %s --check-prefix=CALL-POS
// RUN: relax-run %s --entry caller --input %t.x.npy --input %t.neg.npy | FileCheck %s --check-prefix=CALL-NEG
// RUN: relax-run %s --entry caller --fuse --input %t.x.npy --input %t.neg.npy | FileCheck %s --check-prefix=CALL-NEG
// RUN: relax-run %s --entry pair --input %t.x.npy --input %t.t.npy | FileCheck %s --check-prefix=PAIR-T
// RUN: relax-run %s --entry pair --input %t.x.npy --input %t.f.npy | FileCheck %s --check-prefix=PAIR-F
// RUN: relax-run %s --entry pair --memory-report --input %t.x.npy --input %t.f.npy | FileCheck %s --check-prefix=PAIR-F
// RUN: relax-run %s --entry checked --input %t.x.npy --input %t.f.npy > %t.fail1 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CHECKED < %t.fail1
// RUN: relax-run %s --entry checked --input %t.x.npy --input %t.t.npy | FileCheck %s --check-prefix=CHECKED-OK
// GROW-T: output #0: f32 [3] = [3, -3, 7]
// GROW-F: output #0: f32 [6] = [2, -1, 4, 2, -1, 4]
// NEST-TT: output #0: f32 [3] = [1, -2, 3]
// NEST-TF: output #0: f32 [6] = [1, -2, 3, 1, -2, 3]
// NEST-F: output #0: f32 [3] = [-1, 2, -3]
// CALL-POS: output #0: f32 [3] = [3, -3, 7]
// CALL-NEG: output #0: f32 [6] = [2, -1, 4, 2, -1, 4]
// PAIR-T: output #0: f32 [3] = [2, -4, 6]
// PAIR-T: output #1: f32 [3] = [1, -2, 3]
// PAIR-F: output #0: f32 [3] = [1, -2, 3]
// PAIR-F: output #1: f32 [6] = [1, -2, 3, 1, -2, 3]
// CHECKED: error: checked: n = 3 from 'x' dim 0, but relax.if at {{.*}}:{{[0-9]+}}:{{[0-9]+}} result leaf 0 dim 0 = n is 6
// CHECKED-OK: output #0: f32 [3] = [1, -2, 3]

// then: x * 2 + 1 : [n]; else: concat(x, x) + 1 : [n * 2]; joined as [k].
relax.func @grow(%x: !relax.tensor<[n], f32> {relax.name = "x"},
                 %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[k], f32> {
    %y = relax.add %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.yield %y : !relax.tensor<[n], f32>
  } else {
    %y = relax.concat %x, %x {axis = 0 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n * 2], f32>
    relax.yield %y : !relax.tensor<[n * 2], f32>
  }
  %one = relax.constant dense<1.0> : tensor<f32>
  %z = relax.add %r, %one : (!relax.tensor<[k], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[k], f32>
  relax.return %z : !relax.tensor<[k], f32>
}

// a and b: x (an argument, copied); a, not b: concat(x, x); not a: -x.
relax.func @nested(%x: !relax.tensor<[n], f32>, %a: !relax.tensor<[], i1>,
                   %b: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.if %a : !relax.tensor<[], i1> -> !relax.tensor<[k], f32> {
    %inner = relax.if %b : !relax.tensor<[], i1> -> !relax.tensor<[j], f32> {
      relax.yield %x : !relax.tensor<[n], f32>
    } else {
      %y = relax.concat %x, %x {axis = 0 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n * 2], f32>
      relax.yield %y : !relax.tensor<[n * 2], f32>
    }
    relax.yield %inner : !relax.tensor<[j], f32>
  } else {
    %y = relax.negative %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.yield %y : !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}

// The condition from data: t > 0 grows like @grow's then branch.
relax.func private @pick(%x: !relax.tensor<[n], f32>, %t: !relax.tensor<[], f32>)
    -> !relax.tensor<[k], f32> {
  %zero = relax.constant dense<0.0> : tensor<f32>
  %c = relax.greater %t, %zero : (!relax.tensor<[], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[], i1>
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[k], f32> {
    %y = relax.add %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.yield %y : !relax.tensor<[n], f32>
  } else {
    %y = relax.concat %x, %x {axis = 0 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n * 2], f32>
    relax.yield %y : !relax.tensor<[n * 2], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}

relax.func @caller(%x: !relax.tensor<[n], f32>, %t: !relax.tensor<[], f32>)
    -> !relax.tensor<[m], f32> {
  %c = relax.call @pick(%x, %t) : (!relax.tensor<[n], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[?], f32>
  %r = relax.match_cast %c : !relax.tensor<[?], f32> to !relax.tensor<[m], f32>
  %one = relax.constant dense<1.0> : tensor<f32>
  %z = relax.add %r, %one : (!relax.tensor<[m], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[m], f32>
  relax.return %z : !relax.tensor<[m], f32>
}

// Two results; the then branch yields an outer intermediate (copied) and
// the else branch the argument twice (two copies).
relax.func @pair(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[k], f32>) {
  %d = relax.add %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %a, %b = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n], f32>, !relax.tensor<[k], f32> {
    relax.yield %d, %x : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
  } else {
    %y = relax.concat %x, %x {axis = 0 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n * 2], f32>
    relax.yield %x, %y : !relax.tensor<[n], f32>, !relax.tensor<[n * 2], f32>
  }
  relax.return %a, %b : !relax.tensor<[n], f32>, !relax.tensor<[k], f32>
}

// A result dim that is an expression of bound variables is checked at run
// time against the branch that ran.
relax.func @checked(%x: !relax.tensor<[n], f32> {relax.name = "x"},
                    %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    %y = relax.concat %x, %x {axis = 0 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n * 2], f32>
    relax.yield %y : !relax.tensor<[n * 2], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}
