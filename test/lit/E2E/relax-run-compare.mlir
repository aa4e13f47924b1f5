// relax-run --expect: infinities match only the same infinity, integers and
// booleans compare exactly (tolerances never apply to them), NaN matches NaN,
// and an integer result against a float reference is refused. Each mismatch
// exits 1 and names the worst element; each match exits 0.
// RUN: rm -rf %t && mkdir -p %t

// Floats: -inf expected, a finite value computed.
// RUN: %python -c "import numpy as np; np.save('%t/ninf.npy', np.array([-np.inf, 2, 3], np.float32))"
// RUN: relax-run %s --entry floats --expect %t/ninf.npy > %t/ninf.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NINF < %t/ninf.txt
// NINF: relax-run: output #0 does not match (rtol=1e-05, atol=1e-06): worst element 0: got 0, expected -inf
// The wrong infinity.
// RUN: %python -c "import numpy as np; np.save('%t/winf.npy', np.array([0, 2, -np.inf, np.nan], np.float32))"
// RUN: relax-run %s --entry infs --expect %t/winf.npy > %t/winf.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=WINF < %t/winf.txt
// WINF: worst element 2: got inf, expected -inf
// The same infinities and NaN match, even with a huge tolerance elsewhere.
// RUN: %python -c "import numpy as np; np.save('%t/inf.npy', np.array([0, 2, np.inf, np.nan], np.float32))"
// RUN: relax-run %s --entry infs --expect %t/inf.npy --rtol 10
// An infinity computed where a finite value is expected.
// RUN: %python -c "import numpy as np; np.save('%t/fin.npy', np.array([0, 2, 1e38, np.nan], np.float32))"
// RUN: relax-run %s --entry infs --expect %t/fin.npy --rtol 1 > %t/fin.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FIN < %t/fin.txt
// FIN: worst element 2: got inf, expected 9.99999968e+37

// Integers: off by one at 2^31 - 1, and off by 20000 (inside rtol * |x|).
// RUN: %python -c "import numpy as np; np.save('%t/i1.npy', np.array([2147483646, -5], np.int32))"
// RUN: relax-run %s --entry ints --expect %t/i1.npy > %t/i1.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=I1 < %t/i1.txt
// I1: worst element 0: got 2147483647, expected 2147483646
// RUN: %python -c "import numpy as np; np.save('%t/i2.npy', np.array([2147463647, -5], np.int32))"
// RUN: relax-run %s --entry ints --expect %t/i2.npy --rtol 1e-3 --atol 100 > %t/i2.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=I2 < %t/i2.txt
// I2: worst element 0: got 2147483647, expected 2147463647
// RUN: %python -c "import numpy as np; np.save('%t/i3.npy', np.array([2147483647, -5], np.int32))"
// RUN: relax-run %s --entry ints --expect %t/i3.npy
// Large i64 values that doubles cannot tell apart.
// RUN: %python -c "import numpy as np; np.save('%t/i64.npy', np.array([9007199254740993], np.int64))"
// RUN: relax-run %s --entry big --expect %t/i64.npy > %t/i64.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=I64 < %t/i64.txt
// I64: worst element 0: got 9007199254740992, expected 9007199254740993

// Booleans compare exactly.
// RUN: %python -c "import numpy as np; np.save('%t/b.npy', np.array([True, True]))"
// RUN: relax-run %s --entry bools --expect %t/b.npy --atol 1 > %t/b.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BOOL < %t/b.txt
// BOOL: worst element 1: got 0, expected 1
// RUN: %python -c "import numpy as np; np.save('%t/b2.npy', np.array([True, False]))"
// RUN: relax-run %s --entry bools --expect %t/b2.npy

// An integer result against a float reference.
// RUN: %python -c "import numpy as np; np.save('%t/f.npy', np.array([2147483647, -5], np.float64))"
// RUN: relax-run %s --entry ints --expect %t/f.npy > %t/f.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=KIND < %t/f.txt
// KIND: relax-run: output #0 has dtype i32 but the expected file has f64

relax.func @floats() -> !relax.tensor<[3], f32> {
  %c = relax.constant dense<[0.0, 2.0, 3.0]> : tensor<3xf32>
  relax.return %c : !relax.tensor<[3], f32>
}

relax.func @infs() -> !relax.tensor<[4], f32> {
  %c = relax.constant dense<[0.0, 2.0, 0x7F800000, 0x7FC00000]> : tensor<4xf32>
  relax.return %c : !relax.tensor<[4], f32>
}

relax.func @ints() -> !relax.tensor<[2], i32> {
  %c = relax.constant dense<[2147483647, -5]> : tensor<2xi32>
  relax.return %c : !relax.tensor<[2], i32>
}

relax.func @big() -> !relax.tensor<[1], i64> {
  %c = relax.constant dense<[9007199254740992]> : tensor<1xi64>
  relax.return %c : !relax.tensor<[1], i64>
}

relax.func @bools() -> !relax.tensor<[2], i1> {
  %c = relax.constant dense<[true, false]> : tensor<2xi1>
  relax.return %c : !relax.tensor<[2], i1>
}
