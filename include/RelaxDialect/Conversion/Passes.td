//===- Passes.td - relax-mlir dialect conversions ----------*- tablegen -*-===//
//
// Every conversion between dialects is declared here, one entry per
// `XToY` folder under lib/Conversion, flag `convert-x-to-y`.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_CONVERSION_PASSES_TD
#define RELAX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// TIRToSCF
//===----------------------------------------------------------------------===//

def ConvertTIRToSCF : Pass<"convert-tir-to-scf", "ModuleOp"> {
  let summary = "Lower tir programs to func, scf, memref and arith";
  let description = [{
    Turns every `tir.prim_func` into a `func.func` of the same name whose
    buffer parameters are memrefs (`!tir.buffer<[n, 4], f32>` becomes
    `memref<?x4xf32>`; index parameters stay). Symbolic variables become
    `memref.dim` of the parameter that binds them (or the `tir.var` index
    parameter), computed once at function entry.

    - `tir.for`: `parallel` -> `scf.parallel`; `thread_binding` ->
      `scf.parallel` with a `#gpu.loop_dim_map` mapping for
      `--convert-parallel-loops-to-gpu`; `serial`, `vectorized` and
      `unrolled` -> `scf.for`. Non-serial kinds and loop names stay as
      discardable `tir.loop_kind` / `tir.loop_name` attributes.
    - `tir.block` is inlined; its `tir.init` becomes an `scf.if` that runs
      when every reduce iteration variable is 0.
    - `tir.load` / `tir.store` -> `memref.load` / `memref.store`.
    - `tir.alloc`: `local` -> `memref.alloca`; `global` and `shared` ->
      `memref.alloc` freed at the end of the enclosing block; `shared`
      buffers live in `#gpu.address_space<workgroup>`.

    The result lowers to LLVM with the usual upstream passes
    (`--convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts`).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// OpenMP: after upstream's convert-scf-to-openmp
//===----------------------------------------------------------------------===//

def HoistOmpLoopAllocas : Pass<"hoist-omp-loop-allocas", "ModuleOp"> {
  let summary = "Allocate a parallel loop body's scratch once per thread";
  let description = [{
    `--convert-scf-to-openmp` wraps each iteration of a work-shared loop in
    `memref.alloca_scope`, which must keep one block; when the body holds a
    `memref.alloca` (a tir `local` buffer) the scope survives
    canonicalization and `--convert-scf-to-cf` then breaks it. This pass
    moves every such alloca whose sizes are defined outside the
    `omp.parallel` region to the start of that region, where each thread
    runs once: per-thread scratch, reused by the thread's iterations (every
    iteration writes what it reads, as tir scratch buffers do). The then
    empty scopes are inlined.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
}

#endif // RELAX_CONVERSION_PASSES_TD
