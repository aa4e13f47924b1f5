// Every runtime shape check reports the function, argument, dim, expected
// expression and actual value, and relax-run exits with status 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/ref.py %t/a "x" -- x:f32:3,5
// RUN: %python %S/ref.py %t/b "x" -- x:f32:3 y:f32:4
// RUN: %python %S/ref.py %t/c "x" -- x:f32:3 y:f32:3
// RUN: %python %S/ref.py %t/d "x" -- x:f32:3

// RUN: relax-run %s --entry static_dim --input %t/a/in0.npy > %t/static.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=STATIC < %t/static.txt
// STATIC: relax-run: error: static_dim: argument 'x' dim 1: expected 4, got 5
relax.func @static_dim(%x: !relax.tensor<[n, 4], f32> {relax.name = "x"}) -> !relax.tensor<[n, 4], f32> {
  %y = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %y : !relax.tensor<[n, 4], f32>
}

// RUN: relax-run %s --entry same_var --input %t/b/in0.npy --input %t/b/in1.npy > %t/same.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SAME < %t/same.txt
// SAME: relax-run: error: same_var: n = 3 from 'x' dim 0, but 'y' dim 0 = n is 4
relax.func @same_var(%x: !relax.tensor<[n], f32> {relax.name = "x"},
                     %y: !relax.tensor<[n], f32> {relax.name = "y"}) -> !relax.tensor<[n], f32> {
  %z = relax.add %x, %y : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %z : !relax.tensor<[n], f32>
}

// RUN: relax-run %s --entry expr_dim --input %t/c/in0.npy --input %t/c/in1.npy > %t/expr.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=EXPR < %t/expr.txt
// EXPR: relax-run: error: expr_dim: argument 'y' dim 0: expected n + 1 = 4, got 3
relax.func @expr_dim(%x: !relax.tensor<[n], f32> {relax.name = "x"},
                     %y: !relax.tensor<[n + 1], f32> {relax.name = "y"}) -> !relax.tensor<[n + 1], f32> {
  %z = relax.exp %y : (!relax.tensor<[n + 1], f32>) -> !relax.tensor<[n + 1], f32>
  relax.return %z : !relax.tensor<[n + 1], f32>
}

// Unnamed arguments are numbered.
// RUN: relax-run %s --entry unnamed --input %t/a/in0.npy > %t/unnamed.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=UNNAMED < %t/unnamed.txt
// UNNAMED: relax-run: error: unnamed: argument #0 dim 1: expected 4, got 5
relax.func @unnamed(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %y : !relax.tensor<[n, 4], f32>
}

// match_cast checks the rank of an unknown-rank value, then its dims.
// RUN: relax-run %s --entry cast --input %t/d/in0.npy > %t/rank.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RANK < %t/rank.txt
// RANK: relax-run: error: cast: match_cast at shape-checks.mlir:[[#@LINE+9]]:{{[0-9]+}}: expected rank 2, got 1
// RUN: relax-run %s --entry cast --input %t/a/in0.npy > %t/cast.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CAST < %t/cast.txt
// CAST: relax-run: error: cast: match_cast at shape-checks.mlir:[[#@LINE+6]]:{{[0-9]+}} dim 1: expected 4, got 5
// A matching input passes every check.
// RUN: %python %S/ref.py %t/e "np.exp(x)" -- x:f32:3,4
// RUN: relax-run %s --entry cast --input %t/e/in0.npy --expect %t/e/out0.npy | FileCheck %s --check-prefix=OK
// OK: all 1 outputs match
relax.func @cast(%x: !relax.tensor<*, f32>) -> !relax.tensor<[n, 4], f32> {
  %c = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[n, 4], f32>
  %y = relax.exp %c : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %y : !relax.tensor<[n, 4], f32>
}
