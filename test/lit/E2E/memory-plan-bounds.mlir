// A planned function whose sym_bounds are far above the sizes it is called
// with: the arena's bound (2^40 rows of 256 bytes, twice: 2^49 bytes) cannot
// be allocated, so the call gets the bytes it needs, and a second, larger
// call a larger arena. The outputs equal those without a plan.
// RUN: rm -rf %t && mkdir -p %t
// RUN: relax-run %s --random-inputs --dim n=5 --plan-memory=false --output-dir %t/off5 > /dev/null
// RUN: relax-run %s --random-inputs --dim n=5 --memory-report --expect %t/off5/output_0.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run %s --random-inputs --dim n=3000 --plan-memory=false --output-dir %t/off3000 > /dev/null
// RUN: relax-run %s --random-inputs --dim n=3000 --expect %t/off3000/output_0.npy --rtol 0 --atol 0 --benchmark 3 --warmup 1 | FileCheck %s --check-prefix=LARGE
// CHECK: @main: 2 of 2 intermediates in 2 storages, arena 2560 bytes
// CHECK: arena bound 562949953421312 bytes (sym_bounds): allocated once
// CHECK: relax-run: all 1 outputs match (rtol=0, atol=0)
// LARGE: relax-run: all 1 outputs match (rtol=0, atol=0)
// LARGE: benchmark: 3 runs
relax.func @main(%x: !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
    attributes {sym_bounds = {n = array<i64: 1, 1099511627776>}} {
  %a = relax.sigmoid %x : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %b = relax.multiply %a, %x : (!relax.tensor<[n, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  %c = relax.tanh %b : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[n, 64], f32>
  relax.return %c : !relax.tensor<[n, 64], f32>
}
