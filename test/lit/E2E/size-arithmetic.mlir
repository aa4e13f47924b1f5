// Host size arithmetic never wraps and never traps (docs/relax.md, "Size
// arithmetic at run time"): products of symbolic dims, an output's element
// count and byte size are overflow-checked, floordiv/mod divisors are checked
// for zero, and a failed allocation is an error. Each program below crashed
// or wrapped before (SIGFPE, a too-small buffer written out of bounds, a
// segfault on the null buffer); now relax-run exits 1 with a message naming
// the function, the output or argument and the expression.

// [n, n, n, n] with n = 2^16: the element count 2^64 wraps to 0.
// RUN: relax-run %s --entry four_n --random-inputs --dim n=65536 > %t.four.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FOUR < %t.four.txt
// FOUR: relax-run: error: four_n: element count of output 0 of call_tir @{{.*}} at size-arithmetic.mlir:{{[0-9]+}}:{{[0-9]+}} !relax.tensor<[n, n, n, n], f32>: 281474976710656 * 65536 overflows int64
relax.func @four_n(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n, n, n, n], f32> {
  %y = relax.zeros {dtype = f32, shape = #relax.shape<[n, n, n, n]>} : !relax.tensor<[n, n, n, n], f32>
  relax.return %y : !relax.tensor<[n, n, n, n], f32>
}

// A dim that overflows by itself: n * 2^62 with n = 2.
// RUN: relax-run %s --entry big_coeff --random-inputs --dim n=2 > %t.coeff.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=COEFF < %t.coeff.txt
// COEFF: relax-run: error: big_coeff: output 0 of call_tir @{{.*}} dim 0: n * 4611686018427387904: 4611686018427387904 * 2 overflows int64
// With n = 1 the dim fits but its byte size (2^62 * 4) does not.
// RUN: relax-run %s --entry big_coeff --random-inputs --dim n=1 > %t.bytes.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BYTES < %t.bytes.txt
// BYTES: relax-run: error: big_coeff: byte size of output 0 of call_tir @{{.*}} !relax.tensor<[n * 4611686018427387904], f32>: 4611686018427387904 * 4 overflows int64
relax.func @big_coeff(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n * 4611686018427387904], f32> {
  %y = relax.zeros {dtype = f32, shape = #relax.shape<[n * 4611686018427387904]>} : !relax.tensor<[n * 4611686018427387904], f32>
  relax.return %y : !relax.tensor<[n * 4611686018427387904], f32>
}

// 2^50 bytes: no overflow, but no allocator gives that much; the null
// pointer is caught before the kernel stores through it.
// RUN: relax-run %s --entry huge --random-inputs --dim n=65536 > %t.huge.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=HUGE < %t.huge.txt
// HUGE: relax-run: error: huge: cannot allocate 1125899906842624 bytes for output 0 of call_tir @{{.*}} !relax.tensor<[n, n, n], f32>: out of memory
relax.func @huge(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n, n, n], f32> {
  %y = relax.zeros {dtype = f32, shape = #relax.shape<[n, n, n]>} : !relax.tensor<[n, n, n], f32>
  relax.return %y : !relax.tensor<[n, n, n], f32>
}

// floordiv / mod by a dim that is 0 at run time: in an output shape ...
// RUN: relax-run %s --entry div_output --random-inputs --dim n=6 --dim m=0 > %t.divout.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DIVOUT < %t.divout.txt
// DIVOUT: relax-run: error: div_output: output 0 of call_tir @{{.*}} dim 0: n floordiv m: 6 floordiv 0 divides by zero
relax.func @div_output(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m], f32>) -> !relax.tensor<[n floordiv m], f32> {
  %z = relax.zeros {dtype = f32, shape = #relax.shape<[n floordiv m]>} : !relax.tensor<[n floordiv m], f32>
  relax.return %z : !relax.tensor<[n floordiv m], f32>
}
// RUN: relax-run %s --entry mod_output --random-inputs --dim n=6 --dim m=0 > %t.modout.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MODOUT < %t.modout.txt
// MODOUT: relax-run: error: mod_output: output 0 of call_tir @{{.*}} dim 0: n mod m: 6 mod 0 divides by zero
relax.func @mod_output(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m], f32>) -> !relax.tensor<[n mod m], f32> {
  %z = relax.zeros {dtype = f32, shape = #relax.shape<[n mod m]>} : !relax.tensor<[n mod m], f32>
  relax.return %z : !relax.tensor<[n mod m], f32>
}
// ... and in an argument check, which runs before anything else.
// RUN: rm -rf %t && %python %S/ref.py %t "x" -- x:f32:6 y:f32:0 z:f32:3
// RUN: relax-run %s --entry div_argument --input %t/in0.npy --input %t/in1.npy --input %t/in2.npy > %t.divarg.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DIVARG < %t.divarg.txt
// DIVARG: relax-run: error: div_argument: argument 'z' dim 0: n floordiv m: 6 floordiv 0 divides by zero
relax.func @div_argument(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m], f32>,
                         %z: !relax.tensor<[n floordiv m], f32> {relax.name = "z"}) -> !relax.tensor<[n floordiv m], f32> {
  %r = relax.exp %z : (!relax.tensor<[n floordiv m], f32>) -> !relax.tensor<[n floordiv m], f32>
  relax.return %r : !relax.tensor<[n floordiv m], f32>
}

// The happy path is unchanged: the same programs with sizes that fit.
// RUN: relax-run %s --entry div_output --random-inputs --dim n=7 --dim m=2 | FileCheck %s --check-prefix=OK
// RUN: relax-run %s --entry mod_output --random-inputs --dim n=7 --dim m=4 | FileCheck %s --check-prefix=OK
// RUN: relax-run %s --entry four_n --random-inputs --dim n=3 | FileCheck %s --check-prefix=OK
// OK-NOT: error
