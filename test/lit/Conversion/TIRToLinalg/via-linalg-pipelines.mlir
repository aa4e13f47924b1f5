// The via-linalg option of the pipelines: where the linalg route's passes
// sit, and that the direct route (the default) has none of them.
// RUN: relax-opt %s --relax-lower-to-cpu=via-linalg=true --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: relax-opt %s --relax-lower-to-cpu --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU-DIRECT
// RUN: relax-opt %s --relax-lower-to-gpu=via-linalg=true --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: relax-opt %s --relax-lower-to-gpu --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU-DIRECT

// CPU: relax-legalize-ops,
// CPU-NEXT: relax-lift-tir-allocs,
// CPU-NEXT: convert-tir-to-linalg{explain=false need-parallel-loop=false},
// CPU-NEXT: convert-tir-to-scf
// CPU: relax-lower-shapes
// CPU-NEXT: convert-linalg-to-parallel-loops,
// CPU: convert-parallel-loops-to-runtime
// CPU-DIRECT-NOT: linalg
// CPU-DIRECT: tir-cpu-default-schedule
// CPU-DIRECT-NOT: linalg

// GPU: relax-annotate-op-pattern,
// GPU-NEXT: convert-tir-to-linalg{explain=false need-parallel-loop=true},
// GPU-NEXT: tir-gpu-default-schedule
// GPU-NEXT: relax-lift-tir-allocs,
// GPU-NEXT: convert-tir-to-scf
// GPU-NEXT: convert-tir-to-gpu,
// GPU-NEXT: convert-linalg-to-parallel-loops,
// GPU-NEXT: relax-map-parallel-loops-to-gpu{block-size=256},
// GPU-NEXT: convert-parallel-loops-to-gpu,
// GPU: relax-lower-shapes
// GPU-NEXT: convert-host-memory-to-gpu,
// GPU-DIRECT-NOT: linalg
// GPU-DIRECT-NOT: parallel-loops

relax.func @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %y = relax.add %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}
