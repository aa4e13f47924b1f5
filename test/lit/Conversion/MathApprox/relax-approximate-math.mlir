// RUN: relax-opt %s --relax-approximate-math | FileCheck %s
// RUN: relax-opt %s --relax-approximate-math=ops=erf | FileCheck %s --check-prefix=ERF
// `ops` is a list of an enum: a name upstream has no approximation for is
// rejected when the pipeline is parsed, and a parsed list prints back.
// RUN: ! relax-opt %s --relax-approximate-math=ops=erf,exp2 2> %t.err
// RUN: FileCheck %s --check-prefix=BAD < %t.err
// BAD: for the --ops option: Cannot find option named 'exp2'!
// RUN: relax-opt %s --pass-pipeline='builtin.module(relax-approximate-math{ops=erf,tanh})' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
// PRINT: relax-approximate-math{ops={erf,tanh}}

// The default set (exp, expm1, erf, tanh) on f32, scalars and vectors,
// becomes arithmetic; f64, log and the other ops keep their math op (libm
// later). With ops=erf only erf is rewritten.

// CHECK-LABEL: func.func @f32
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK-NOT: math.tanh
// CHECK-NOT: math.expm1
// CHECK: math.log
// CHECK-NOT: math.exp
// CHECK: return
// ERF-LABEL: func.func @f32
// ERF: math.exp
// ERF-NOT: math.erf
// ERF: math.tanh
func.func @f32(%x: f32, %v: vector<16xf32>) -> (f32, f32, f32, f32, f32, vector<16xf32>) {
  %a = math.exp %x : f32
  %b = math.erf %x : f32
  %c = math.tanh %x : f32
  %d = math.expm1 %x : f32
  %e = math.log %x : f32
  %w = math.exp %v : vector<16xf32>
  return %a, %b, %c, %d, %e, %w : f32, f32, f32, f32, f32, vector<16xf32>
}

// CHECK-LABEL: func.func @f64
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.erf %{{.*}} : f64
func.func @f64(%x: f64) -> (f64, f64) {
  %a = math.exp %x : f64
  %b = math.erf %x : f64
  return %a, %b : f64, f64
}
