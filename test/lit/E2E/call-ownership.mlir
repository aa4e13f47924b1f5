// Buffers across relax.call: a callee's results that view its arguments or
// constants stay with their owners (the caller must not free them), and a
// failure inside a callee stops the caller before it uses or frees the
// poison results (the failure exits free what the caller allocated).
// These crashed (double free) before; ASan (scripts/sanitize.sh) also sees
// no leak on the error paths.
// RUN: relax-run %s --entry alias --input %S/Inputs/f32-4.npy --expect %S/Inputs/f32-4-squared.npy | FileCheck %s --check-prefix=OK
// RUN: relax-run %s --entry constant --input %S/Inputs/f32-4.npy | FileCheck %s --check-prefix=CONST
// RUN: relax-run %s --entry twice --input %S/Inputs/f32-4.npy --expect %S/Inputs/f32-4-squared.npy --expect %S/Inputs/f32-4-squared.npy | FileCheck %s --check-prefix=TWICE
// RUN: relax-run %s --entry nested_failure --random-inputs --dim n=5 > %t.fail 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FAIL < %t.fail
// RUN: relax-run %s --entry nested_failure --random-inputs --dim n=4 | FileCheck %s --check-prefix=PASS
// OK: all 1 outputs match
// CONST: output #0: f32 [4] = [2, 3, 4, 5]
// TWICE: all 2 outputs match
// FAIL: relax-run: error: inner: match_cast at {{.*}}:{{[0-9]+}}:{{[0-9]+}} dim 0: expected 4, got 5
// FAIL-NOT: output
// PASS: output #0: f32 [4]

relax.func private @id(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  relax.return %x : !relax.tensor<[n], f32>
}

// The callee returns the caller's own argument: the caller must not free it.
relax.func @alias(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %y = relax.call @id(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %z = relax.multiply %y, %y : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %z : !relax.tensor<[n], f32>
}

relax.func private @table() -> !relax.tensor<[4], f32> {
  %c = relax.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  relax.return %c : !relax.tensor<[4], f32>
}

// The callee returns a constant: not a heap buffer, never freed.
relax.func @constant(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %t = relax.call @table() : () -> !relax.tensor<[4], f32>
  %one = relax.constant dense<1.0> : tensor<f32>
  %y = relax.add %t, %one : (!relax.tensor<[4], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[4], f32>
  relax.return %y : !relax.tensor<[4], f32>
}

relax.func private @square_twice(%x: !relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) {
  %y = relax.multiply %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y, %y : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
}

// The callee returns one buffer twice: the caller owns (and frees) it once.
relax.func @twice(%x: !relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) {
  %a, %b = relax.call @square_twice(%x) : (!relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
  relax.return %a, %b : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
}

relax.func private @inner(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[4], f32> {
  %c = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[4], f32>
  %y = relax.add %c, %c : (!relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32>
  relax.return %y : !relax.tensor<[4], f32>
}

// The callee fails after the caller allocated a buffer of its own.
relax.func @nested_failure(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.multiply %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  %y = relax.call @inner(%a) : (!relax.tensor<[n], f32>) -> !relax.tensor<[4], f32>
  %z = relax.multiply %y, %y : (!relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32>
  relax.return %z : !relax.tensor<[4], f32>
}
