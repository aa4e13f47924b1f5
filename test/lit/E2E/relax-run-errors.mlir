// Wrong runtime arguments give a clear error and exit status 1, never a
// crash.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/ref.py %t/ok "x" -- x:f32:3,4
// RUN: %python %S/ref.py %t/i32 "x" -- x:i32:3,4
// RUN: %python %S/ref.py %t/rank "x" -- x:f32:12
// RUN: %python %S/ref.py %t/bad "np.exp(x) + 0.5" -- x:f32:3,4

// RUN: relax-run %s > %t/none.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NONE < %t/none.txt
// NONE: relax-run: error: 'main' takes 1 inputs: give --input files or --random-inputs

// RUN: relax-run %s --input %t/ok/in0.npy --input %t/ok/in0.npy > %t/count.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=COUNT < %t/count.txt
// COUNT: relax-run: error: 'main' takes 1 inputs, got 2 --input files

// RUN: relax-run %s --input %t/i32/in0.npy > %t/dtype.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DTYPE < %t/dtype.txt
// DTYPE: relax-run: error: input #0 has dtype i32 but 'main' expects f32

// RUN: relax-run %s --input %t/rank/in0.npy > %t/rank.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RANK < %t/rank.txt
// RANK: relax-run: error: input #0 has rank 1 but 'main' expects rank 2

// RUN: relax-run %s --input %t/missing.npy > %t/missing.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MISSING < %t/missing.txt
// MISSING: relax-run: error: {{.*}}missing.npy: No such file or directory

// A truncated file and a file that is not .npy at all.
// RUN: head -c 140 %t/ok/in0.npy > %t/trunc.npy
// RUN: relax-run %s --input %t/trunc.npy > %t/trunc.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TRUNC < %t/trunc.txt
// TRUNC: relax-run: error: {{.*}}trunc.npy: not a valid .npy file: expected 48 data bytes, found
// RUN: echo "hello" > %t/text.npy
// RUN: relax-run %s --input %t/text.npy > %t/text.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TEXT < %t/text.txt
// TEXT: relax-run: error: {{.*}}text.npy: not a valid .npy file: missing the \x93NUMPY magic

// A stream that never ends is refused after its first bytes, not read to the
// end (it used to hang); so is a header length past any real header.
// RUN: timeout 60 relax-run %s --input /dev/zero > %t/zero.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ZERO < %t/zero.txt
// ZERO: relax-run: error: /dev/zero: not a valid .npy file: missing the \x93NUMPY magic
// RUN: %python -c "import sys; sys.stdout.buffer.write(b'\x93NUMPY\x02\x00\xff\xff\xff\x7f')" > %t/longhdr.npy
// RUN: (cat %t/longhdr.npy /dev/zero || true) | timeout 60 relax-run %s --input /dev/stdin > %t/longhdr.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=LONGHDR < %t/longhdr.txt
// LONGHDR: relax-run: error: /dev/stdin: not a valid .npy file: header of 2147483647 bytes (more than 1048576)
// A valid header followed by an endless stream: exactly the declared data is read.
// RUN: head -c 128 %t/ok/in0.npy > %t/hdr.npy
// RUN: (cat %t/hdr.npy /dev/zero || true) | timeout 60 relax-run %s --input /dev/stdin --output-dir %t/zero-out > %t/stream.txt 2>&1
// RUN: %python -c "import numpy as np; a = np.load('%t/zero-out/output_0.npy'); assert a.shape == (3, 4) and (a == 1).all(), a"

// Tolerances are finite numbers >= 0: NaN would accept any output.
// RUN: relax-run %s --input %t/bad/in0.npy --expect %t/bad/out0.npy --atol nan > %t/atolnan.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ATOLNAN < %t/atolnan.txt
// ATOLNAN: relax-run: error: --atol must be a finite number >= 0, not nan
// RUN: relax-run %s --input %t/bad/in0.npy --expect %t/bad/out0.npy --rtol -1 > %t/rtolneg.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RTOLNEG < %t/rtolneg.txt
// RTOLNEG: relax-run: error: --rtol must be a finite number >= 0, not -1
// RUN: relax-run %s --input %t/bad/in0.npy --expect %t/bad/out0.npy --rtol inf > %t/rtolinf.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RTOLINF < %t/rtolinf.txt
// RTOLINF: relax-run: error: --rtol must be a finite number >= 0, not inf
// RUN: relax-run %s --random-inputs --dim n=2 --min-parallel-work=-5 > %t/minwork.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MINWORK < %t/minwork.txt
// MINWORK: relax-run: error: --min-parallel-work must be >= 0, not -5

// Random inputs need every symbolic dim bound.
// RUN: relax-run %s --random-inputs > %t/dim.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DIM < %t/dim.txt
// DIM: relax-run: error: parameter #0 dim 0 is n: bind n with --dim n=<value>

// Huge --dim values: the element count is checked (2^62 x 4 would wrap in
// 64 bits, 2^41 x 4 is past the 2^40-element limit), never allocated.
// RUN: relax-run %s --random-inputs --dim n=4611686018427387904 > %t/huge.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=HUGE < %t/huge.txt
// HUGE: relax-run: error: parameter #0: shape [4611686018427387904, 4] has too many elements (more than 2^40)
// RUN: relax-run %s --random-inputs --dim n=2199023255552 > %t/large.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=LARGE < %t/large.txt
// LARGE: relax-run: error: parameter #0: shape [2199023255552, 4] has too many elements (more than 2^40)

// A wrong expected output is reported with the worst element.
// RUN: relax-run %s --input %t/bad/in0.npy --expect %t/bad/out0.npy > %t/bad.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BAD < %t/bad.txt
// BAD: relax-run: output #0 does not match (rtol=1e-05, atol=1e-06): worst element {{[0-9]+}}: got

// Unknown entry and device.
// RUN: relax-run %s --entry nope --random-inputs > %t/entry.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ENTRY < %t/entry.txt
// ENTRY: relax-run: error: no function 'nope'
// RUN: relax-run %s --device tpu > %t/device.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DEVICE < %t/device.txt
// DEVICE: relax-run: for the --device option: Cannot find option named 'tpu'!

// Malformed IR: a located parse error, exit status 1.
// RUN: echo "relax.func @f(%%x: !relax.tensor<[n, +], f32>) {" > %t/bad.mlir
// RUN: relax-run %t/bad.mlir > %t/parse.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=PARSE < %t/parse.txt
// PARSE: bad.mlir:1:{{[0-9]+}}: error: expected a symbolic dimension expression

relax.func @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %y : !relax.tensor<[n, 4], f32>
}
