// REQUIRES: mlir-opt-plugin
// The pass plugin alone registers the project's passes in upstream
// mlir-opt: listed by --help, and runnable on IR of upstream dialects only
// (the stack-budget check of the CPU pipeline on memref.alloca).
//
// RUN: %mlir_opt --load-pass-plugin=%relax_plugin --help | FileCheck %s --check-prefix=HELP
// HELP-DAG: --relax-fuse-tir
// HELP-DAG: --relax-legalize-ops
// HELP-DAG: --convert-tir-to-scf
// HELP-DAG: --tir-cpu-default-schedule
// HELP-DAG: --relax-check-stack-allocs
//
// RUN: %mlir_opt --load-pass-plugin=%relax_plugin \
// RUN:   --pass-pipeline='builtin.module(relax-check-stack-allocs)' \
// RUN:   %s -verify-diagnostics

func.func @bounded() {
  %a = memref.alloca() : memref<1024xf32>
  return
}

func.func @too_large() {
  // expected-error@+1 {{stack allocation of up to 67108864 bytes exceeds the stack budget of 65536 bytes (max-stack-bytes)}}
  %s = memref.alloca() : memref<4096x4096xf32>
  return
}
