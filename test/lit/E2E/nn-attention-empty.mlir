// relax.attention with empty dims, through the runtime's blocked attention
// (the default) and the legalized streaming program
// (--dispatch-library=false): both routes must agree. No key (t = 0): each
// output is the uniform average over zero values, 0 / 0 = NaN. No query
// (s = 0): an empty result.
// RUN: relax-run %s --random-inputs --dim s=2 --dim t=0 | FileCheck %s --check-prefix=NOKEY
// RUN: relax-run --dispatch-library=false %s --random-inputs --dim s=2 --dim t=0 | FileCheck %s --check-prefix=NOKEY
// RUN: relax-run %s --random-inputs --dim s=0 --dim t=3 | FileCheck %s --check-prefix=NOQUERY
// RUN: relax-run --dispatch-library=false %s --random-inputs --dim s=0 --dim t=3 | FileCheck %s --check-prefix=NOQUERY
// NOKEY: output #0: f32 [1, 2, 2, 4] = [{{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}nan, ...]
// NOQUERY: output #0: f32 [1, 0, 2, 4] = []

relax.func @main(%q: !relax.tensor<[1, s, 2, 4], f32>, %k: !relax.tensor<[1, t, 2, 4], f32>,
                 %v: !relax.tensor<[1, t, 2, 4], f32>) -> !relax.tensor<[1, s, 2, 4], f32> {
  %y = relax.attention %q, %k, %v : (!relax.tensor<[1, s, 2, 4], f32>, !relax.tensor<[1, t, 2, 4], f32>, !relax.tensor<[1, t, 2, 4], f32>) -> !relax.tensor<[1, s, 2, 4], f32>
  relax.return %y : !relax.tensor<[1, s, 2, 4], f32>
}
