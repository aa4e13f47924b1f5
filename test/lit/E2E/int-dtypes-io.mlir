// relax-run's .npy I/O for i16, ui16, ui32, ui64: --random-inputs fills them,
// --output-dir writes '<i2', '<u2', '<u4', '<u8' with the values intact, and
// unsigned creation ops store their constants as bits (a ui64 fill above
// INT64_MAX, ui16 65535, an arange). --expect compares integers exactly: a
// ui64 output off by one near 2^64 (the same double) is a mismatch.
// Symbolic n, two sizes.
// RUN: rm -rf %t && mkdir -p %t/o3 %t/o6
// RUN: relax-run %s --random-inputs --dim n=3 --output-dir %t/o3 | FileCheck %s --check-prefix=RUN3
// RUN: relax-run %s --random-inputs --dim n=6 --seed 4 --output-dir %t/o6 | FileCheck %s --check-prefix=RUN6
// RUN: %python %S/Inputs/check_int_dtypes_io.py %t/o3 3 | FileCheck %s --check-prefix=FILES
// RUN: %python %S/Inputs/check_int_dtypes_io.py %t/o6 6 | FileCheck %s --check-prefix=FILES
// RUN: %python -c "import numpy as np; x = np.array([2**64 - 2, 2**63 + 1, 7], np.uint64); np.save('%t/x.npy', x); np.save('%t/ok.npy', x + np.uint64(1)); y = x + np.uint64(1); y[0] -= np.uint64(1); np.save('%t/bad.npy', y)"
// RUN: relax-run %s --entry inc --input %t/x.npy --expect %t/ok.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT
// RUN: ! relax-run %s --entry inc --input %t/x.npy --expect %t/bad.npy --rtol 0 --atol 0 2> %t/err
// RUN: FileCheck %s --check-prefix=MISMATCH < %t/err
// RUN3: output #0: i16 [3, 2]
// RUN3: output #3: ui64 [3, 2]
// RUN3: output #4: ui64 [3] = [9223372036854775808, 9223372036854775808, 9223372036854775808]
// RUN3: output #5: ui16 [3] = [65535, 65535, 65535]
// RUN3: output #7: ui16 [3] = [0, 1, 2]
// RUN6: output #6: ui32 [6] = [0, 0, 0, 0, 0, 0]
// FILES: dtypes and values ok
// EXACT: output #0: ui64 [3] = [18446744073709551615, 9223372036854775810, 8]
// EXACT: all 1 outputs match
// MISMATCH: worst element 0: got 18446744073709551615, expected 18446744073709551614

relax.func @main(%a: !relax.tensor<[n, 2], i16>, %b: !relax.tensor<[n, 2], ui16>, %c: !relax.tensor<[n, 2], ui32>, %d: !relax.tensor<[n, 2], ui64>)
    -> (!relax.tensor<[n, 2], i16>, !relax.tensor<[n, 2], ui16>, !relax.tensor<[n, 2], ui32>, !relax.tensor<[n, 2], ui64>, !relax.tensor<[n], ui64>, !relax.tensor<[n], ui16>, !relax.tensor<[n], ui32>, !relax.tensor<[n], ui16>) {
  %f = relax.full {dtype = ui64, shape = #relax.shape<[n]>, value = 9223372036854775808.0 : f64} : !relax.tensor<[n], ui64>
  %g = relax.full {dtype = ui16, shape = #relax.shape<[n]>, value = 65535.0 : f64} : !relax.tensor<[n], ui16>
  %z = relax.zeros {dtype = ui32, shape = #relax.shape<[n]>} : !relax.tensor<[n], ui32>
  %r = relax.arange {dtype = ui16, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<1>} : !relax.tensor<[n], ui16>
  relax.return %a, %b, %c, %d, %f, %g, %z, %r : !relax.tensor<[n, 2], i16>, !relax.tensor<[n, 2], ui16>, !relax.tensor<[n, 2], ui32>, !relax.tensor<[n, 2], ui64>, !relax.tensor<[n], ui64>, !relax.tensor<[n], ui16>, !relax.tensor<[n], ui32>, !relax.tensor<[n], ui16>
}

relax.func @inc(%x: !relax.tensor<[k], ui64>) -> !relax.tensor<[k], ui64> {
  %one = relax.constant dense<1> : tensor<ui64>
  %y = relax.add %x, %one : (!relax.tensor<[k], ui64>, !relax.tensor<[], ui64>) -> !relax.tensor<[k], ui64>
  relax.return %y : !relax.tensor<[k], ui64>
}
