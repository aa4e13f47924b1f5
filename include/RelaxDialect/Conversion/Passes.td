//===- Passes.td - relax-mlir dialect conversions ----------*- tablegen -*-===//
//
// Every conversion between dialects is declared here, one entry per
// `XToY` folder under lib/Conversion, flag `convert-x-to-y`. One exception:
// RelaxToFunc's pass keeps the design's name, `relax-lower-shapes`, since
// its work is the symbolic shapes (binding, checks, sizes), not the types.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_CONVERSION_PASSES_TD
#define RELAX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// RelaxToFunc
//===----------------------------------------------------------------------===//

def RelaxLowerShapes : Pass<"relax-lower-shapes", "ModuleOp"> {
  let summary = "Lower relax functions to host code over memrefs with "
                "runtime shape checks";
  let description = [{
    Turns every `relax.func` into a `func.func` whose tensors are memrefs
    (`!relax.tensor<[n, 4], f32>` becomes `memref<?x4xf32>`) and whose
    symbolic variables are `index` values:

    - At each binding point (the parameters, then every `relax.match_cast`)
      a dim that is a bare, unbound variable binds it from the runtime
      shape; every other dim is checked against its expression. A failed
      check records a message naming the function, argument, dim, expected
      expression and actual value in the runtime
      (`relax_rt_shape_error`), e.g.
      `main: argument 'x' dim 1: expected 4, got 5` or
      `main: n = 3 from 'x' dim 0, but 'y' dim 0 = n is 4`, and the
      function returns at once; nothing aborts. Argument names come from the
      `relax.name` argument attribute (`#i` otherwise).
    - `relax.call_tir` allocates its outputs (sizes computed from the
      symbolic shapes) and calls the loop program, which must already be a
      `func.func` (run `convert-tir-to-scf` first).
    - Constants become `memref.global`s; dataflow regions are inlined.
    - Memory: a function with a `relax.memory_plan` (`relax-plan-memory`)
      allocates its arena once at entry (with `reuse-arena`, from the
      runtime's per-function cache, at the plan's `bound` when it has one,
      so that the memory is reused across calls) and each planned buffer is
      a `memref.view` at its offset; it is released at every return and
      failure exit. Other buffers that are not returned are freed right
      after their last reader (`free-after-last-use`), or before returning.
    - With `record-memory`, allocations and frees of intermediates and a
      summary of each plan go to the runtime's counters
      (`relax_rt_memory_report`, `relax-run --memory-report`).

    High-level relax ops must have been legalized (`relax-legalize-ops`).
  }];
  let options = [
    Option<"reuseArena", "reuse-arena", "bool", "true",
           "Take arenas from the runtime's per-function cache (host memory) "
           "instead of allocating them with memref.alloc on every call">,
    Option<"freeAfterLastUse", "free-after-last-use", "bool", "true",
           "Free buffers that are not planned right after their last use">,
    Option<"recordMemory", "record-memory", "bool", "false",
           "Count intermediate bytes in the runtime (memory reports)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::ub::UBDialect"
  ];
}

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
    - `tir.alloc`: `global` and `shared` -> `memref.alloc` freed at the end
      of the enclosing block; `shared` buffers live in
      `#gpu.address_space<workgroup>`. A `local` buffer is per-iteration
      scratch of its innermost `parallel` loop (or of the whole function):
      it is allocated at the start of that loop's body, never inside a
      serial loop, with its sizes computed at function entry.
    - The stack rule for host `local` buffers: one goes on the stack
      (`memref.alloca`) only when its size has a constant upper bound that
      fits in what is left of the function's `max-stack-bytes`; a symbolic
      one bounded that way (through the `sym_bounds` of the relax functions
      that call the prim_func: the bound of each variable is the largest
      over all `relax.call_tir` sites of a private prim_func) becomes a
      `memref.view` of a constant-size, 64-byte aligned `i8` slot. Every
      other one is heap memory: `memref.alloc` at the same place, freed at
      the end of that body (`--hoist-omp-loop-allocas` later makes it once
      per thread). `local` buffers inside loops bound to GPU threads are
      thread-private memory and stay `memref.alloca`.

    The result lowers to LLVM with the usual upstream passes
    (`--convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts`).
  }];
  let options = [
    Option<"maxStackBytes", "max-stack-bytes", "int64_t", /*default=*/"65536",
           "Bytes of host scratch one function may put on the stack (per "
           "thread); larger or unbounded scratch goes to the heap">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// TIRToLinalg
//===----------------------------------------------------------------------===//

def ConvertTIRToLinalg : Pass<"convert-tir-to-linalg", "ModuleOp"> {
  let summary = "Turn tir block nests with affine index maps into linalg ops";
  let description = [{
    The linalg route out of tir. Inside every `tir.prim_func`, each perfect
    nest of `tir.for` loops around one `tir.block` whose accesses are
    affine in the loops becomes a `linalg.generic` on memrefs (buffer
    semantics: the buffers are `unrealized_conversion_cast` to the memref
    types `convert-tir-to-scf` gives them, which that pass folds away), so
    upstream tiling, vectorization and loop lowering, or another MLIR
    compiler, take over. Symbolic extents are fine: linalg reads them from
    the dynamic memref sizes.

    - Loops become the generic's dims in nest order; a loop feeding a
      `reduce` iteration variable is a `reduction` iterator, every other one
      `parallel`.
    - `tir.load` / `tir.store` become the indexing maps of inputs and
      outputs; a load of an output at its store's indices (before the
      store) is the output's accumulator. Iteration variables used as
      values become `linalg.index`.
    - A `tir.init` becomes a separate op over the parallel loops, before the
      reduction (`linalg.fill` when it stores a constant to the whole
      output). Unlike tir's init it also runs when the reduction is empty,
      which is when legalized reductions initialise their output anyway.
    - Named ops where the generic is exactly one: a constant stored to
      every element is `linalg.fill`; `C[i, j] += A[i, k] * B[k, j]` with
      one element type, no casts and no fast-math flags is `linalg.matmul`,
      with a batch dim on all three `linalg.batch_matmul`.

    The conversion is partial by design. A nest stays tir, for
    `convert-tir-to-scf`, when: it is not a perfect nest of loops from 0
    step 1 around one block (only pure, region-free ops between the loops);
    an index is not affine in the loops (gathers such as `relax.take`,
    data-dependent or symbolic offsets, `mod`, products of loops); a loop's
    extent is not provably the size of a buffer dim it indexes directly, or
    indexes no dim directly; a store does not index every parallel loop
    and only those (as a permutation), or a buffer is stored twice; a block
    reads a buffer it writes at other indices (scans such as cumsum); a
    reduce iteration variable is not a bare loop; or the body holds ops with
    regions or side effects other than its loads and stores.
    `explain=true` emits a remark at each block that stays, with the
    reason; the statistics count both kinds of nests (in builds with LLVM
    statistics enabled).
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark at each block that stays tir, saying why">,
    Option<"needParallelLoop", "need-parallel-loop", "bool",
           /*default=*/"false",
           "Leave nests without a parallel loop (full reductions, scalar "
           "blocks) to tir: the GPU route maps parallel loops to threads, "
           "the GPU schedule gives such nests a block reduction">,
  ];
  let statistics = [
    Statistic<"numConverted", "converted-nests",
              "Block nests converted to linalg ops">,
    Statistic<"numNamed", "named-ops",
              "Of the linalg ops created, named ones (fill, matmul, "
              "batch_matmul)">,
    Statistic<"numLeft", "nests-left",
              "Block nests left to convert-tir-to-scf">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect"];
}

def RelaxMapParallelLoopsToGPU : Pass<"relax-map-parallel-loops-to-gpu",
                                       "ModuleOp"> {
  let summary = "Tile and map the linalg route's parallel loops to GPU "
                "blocks and threads";
  let description = [{
    The GPU half of the linalg route, between upstream's
    `--convert-linalg-to-parallel-loops` and
    `--convert-parallel-loops-to-gpu`. Every outermost `scf.parallel`
    without a GPU mapping that is not inside a `gpu.launch` (after
    `convert-tir-to-gpu`, only loops from linalg ops are left) has its dims
    collapsed into one (row-major, so consecutive threads touch consecutive
    elements of the innermost dim), tiled by `block-size` without min/max
    bounds (upstream `tileParallelLoop`: the tail is an `scf.if`), and
    mapped: tiles to `blockIdx.x`, the elements of a tile to `threadIdx.x`.
    Parallel loops nested deeper (a parallel dim after a reduction one) run
    sequentially in their thread. Upstream's `--gpu-map-parallel-loops`
    maps up to three dims per level instead, with each dim's full extent on
    a grid axis, and the y/z axes hold at most 65535 blocks.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// OpenMP: after upstream's convert-scf-to-openmp
//===----------------------------------------------------------------------===//

def LoadBoolsAsBytes : Pass<"load-bools-as-bytes", "ModuleOp"> {
  let summary = "Load each bool as its byte and test it against zero";
  let description = [{
    Bool tensors hold one byte per element (numpy, ONNX and the C API agree),
    but an `llvm.load` of `i1` keeps only the byte's low bit: a condition
    byte of 2 read as false and `relax.if` took the wrong branch. This pass
    turns every `llvm.load` of `i1` or of a vector of `i1`, host code and
    kernels alike, into a load of the bytes and an `llvm.icmp "ne"` against
    zero, so any non-zero byte is true, as numpy reads it. Stores are
    unchanged (an `i1` is stored as 0 or 1). Runs after the conversion to
    the LLVM dialect, in both pipelines.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

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
    iteration writes what it reads, as tir scratch buffers do). Heap scratch
    (a `memref.alloc` with its one `memref.dealloc` in the same body, which
    `--convert-tir-to-scf` makes of scratch too large for the stack) moves
    the same way, its dealloc to the end of the region: one allocation per
    thread instead of one per iteration. The then empty scopes are inlined.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
}

def SerializeSmallOmpParallel : Pass<"serialize-small-omp-parallel",
                                     "ModuleOp"> {
  let summary = "Run omp.parallel regions with little work on one thread";
  let description = [{
    Every outer parallel loop of a kernel becomes an `omp.parallel` region,
    and each region is a fork and a join of the thread team: a few
    microseconds when the workers are spinning, and up to a scheduler time
    slice each when they are not (another process holds the core, the
    worker went to sleep). A decode-sized model (sequence 1) runs dozens of
    kernels of a few thousand operations each, so it is all fork and join.

    This pass estimates the work of each region as a run-time `index`
    value: the trip count of its `omp.loop_nest` times the operations of
    the body, with every nested `scf.for` weighted by its own trip count,
    read from the loop bounds (symbolic dims are SSA values by now, so the
    estimate follows the actual sizes). It then gives the region the clause
    `if(work >= min-work)`: below the threshold the OpenMP runtime runs it
    serialized on the calling thread, without waking the team. A nested
    region gets its own clause, computed inside the outer body: it forks
    when the region around it was serialized. Regions whose work cannot be
    computed before they start (a nested loop bound defined inside the
    region, a loop without a trip count such as `scf.while`) are left as
    they are.

    ```mlir
    %work = arith.muli %n, %c1024 : index
    %big = arith.cmpi sge, %work, %c32768 : index
    omp.parallel if(%big) { ... }
    ```
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Estimated operations below which a region runs on one thread">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::omp::OpenMPDialect"];
}

//===----------------------------------------------------------------------===//
// Parallel loops on the runtime's thread pool
//===----------------------------------------------------------------------===//

def ConvertParallelLoopsToRuntime : Pass<"convert-parallel-loops-to-runtime",
                                         "ModuleOp"> {
  let summary = "Run outer scf.parallel loops on the runtime's thread pool";
  let description = [{
    Each outermost `scf.parallel` without reductions becomes a call of the
    runtime's `relax_rt_parallel_for` (RelaxRuntime.h) on an outlined
    function that runs a range of the loop's flattened iteration space:

    ```mlir
    func.func private @k_par0(%ctx: !llvm.ptr, %begin: i64, %end: i64)
        attributes {llvm.linkage = #llvm.linkage<internal>}
    ...
    func.call @relax_rt_parallel_for(%fn, %ctx, %n, %chunks, %work)
    ```

    The values the body uses from above are stored in a struct on the
    caller's stack (memrefs as their LLVM descriptors); constants are
    cloned into the outlined function instead, so its loops keep constant
    bounds. The iteration space of a multi-dimensional loop is flattened,
    and the range is run a row of the innermost dim at a time, so that the
    innermost loop stays a plain counted loop that LLVM vectorizes.
    Allocations at the top of the body whose sizes are known outside it
    (tir `local` scratch) are made once per range instead of once per
    iteration.

    The work of the loop is estimated at run time from its bounds, like
    `--serialize-small-omp-parallel` does: below `min-work` operations the
    call asks for one chunk, which the runtime runs on the calling thread.
    Unlike OpenMP's fork and join, the runtime's pool never waits for a
    thread that has not started (lib/Runtime/RelaxThreads.cpp): the caller
    takes the chunks that nobody claimed. Nested `scf.parallel` loops stay
    in the outlined body and run sequentially.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Estimated operations below which a loop runs on one thread">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// Math functions
//===----------------------------------------------------------------------===//

def RelaxApproximateMath : Pass<"relax-approximate-math", "ModuleOp"> {
  let summary = "Replace f32 transcendental functions by polynomial "
                "approximations that vectorize";
  let description = [{
    On the CPU, `math.exp`, `math.erf`, `math.tanh`, ... otherwise become
    calls into libm (`expf`, `erff`, `tanhf`; LLVM's `llvm.exp` intrinsic
    is a libm call too), one scalar call per element: LLVM's loop
    vectorizer cannot widen a loop around them, and in a softmax or a GELU
    the calls cost more than the rest of the kernel. Measured on a
    BERT-style encoder layer (one thread), `expf` and `erff` were 23% of the
    time.

    This pass rewrites the f32 forms of the ops named in `ops` with
    upstream's polynomial approximations (`populateMathPolynomialApproximationPatterns`:
    range reduction plus a minimax polynomial, built from arith ops and
    `math.fma`), which the vectorizer widens like any other arithmetic.
    Measured against float64 references (test/lit/E2E/approximate-math.mlir)
    the default set is within 5 ulp on normal results and keeps the special
    values (`exp(-inf) = 0`, overflow to `+inf`, NaN in, NaN out; `erf` and
    `tanh` saturate to +-1); results below the smallest normal float
    (|y| < 2^-126, e.g. `exp(-100)`) flush to zero. The log family is not in
    the default set: its approximation treats subnormal inputs as the
    smallest normal (`log(1e-40)` gives -87.3 instead of -92.1). f64 and
    the ops not named keep libm.
  }];
  let options = [
    ListOption<"ops", "ops", "::mlir::relax::ApproxMathOpValue",
               "math op names to approximate (default: exp, expm1, erf, "
               "tanh)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

//===----------------------------------------------------------------------===//
// Stack allocations
//===----------------------------------------------------------------------===//

def RelaxCheckStackAllocs : Pass<"relax-check-stack-allocs", "ModuleOp"> {
  let summary = "Report every memref.alloca whose size is not bounded by "
                "the stack budget";
  let description = [{
    A verifier of the stack rule (docs/passes.md): host scratch lives on the
    stack only when its size has a constant upper bound within
    `max-stack-bytes`. Threads get a fixed stack (8 MiB for the main thread
    by default, less for OpenMP workers), so an allocation whose size grows
    with a symbolic dim works for small inputs and crashes on long ones.

    Every `memref.alloca` outside GPU code is checked: its byte size is the
    product of its static dims and of a constant upper bound of each dynamic
    size (upstream `ValueBoundsOpInterface`: constants, `affine.min`,
    loop bounds, ...) times the element size. An alloca with no provable
    bound, or one above the budget, is an error at its location; the pass
    then fails. It changes nothing. `--relax-lower-to-cpu` runs it on every
    module after the scratch placement passes.

    ```mlir
    // error: stack allocation of unbounded size (dynamic dim 0)
    %s = memref.alloca(%n) : memref<?xf32>
    ```
  }];
  let options = [
    Option<"maxStackBytes", "max-stack-bytes", "int64_t", /*default=*/"65536",
           "Largest size in bytes of one stack allocation">,
  ];
}

//===----------------------------------------------------------------------===//
// TIRToGPU
//===----------------------------------------------------------------------===//

def ConvertTIRToGPU : Pass<"convert-tir-to-gpu", "ModuleOp"> {
  let summary = "Turn tir loops bound to GPU axes (scf.parallel with a gpu "
                "mapping) into gpu.launch";
  let description = [{
    The GPU half of lowering a scheduled tir program (formerly
    `--convert-bound-loops-to-gpu`, still accepted as a deprecated alias).
    Runs after `--convert-tir-to-scf` on the loops that
    `tir.for ... kind = thread_binding` became. Each outermost loop mapped
    to a block axis (with the block loops directly nested in it) becomes one
    `gpu.launch` whose grid is their extents, computed on the host; the
    block size of each thread axis is the largest constant extent of the
    thread-mapped loops inside, and smaller ones run under
    `scf.if (threadIdx < extent)`. A `gpu.barrier` follows every thread loop
    that other kernel code follows, so several thread loops in sequence
    (a reduction into shared memory, then its use) synchronise.
    `memref.alloc` in the workgroup address space becomes a workgroup
    attribution of the launch (static shapes only). `gpu.subgroup_reduce`
    (the warp reductions of the default schedule) becomes a butterfly of
    `gpu.shuffle xor` over 32 lanes (values of at most 32 bits).

    Refuses, with an error on the loop: mapped loops that are not
    one-dimensional `0 to n step 1`, thread loops with a non-constant extent
    or more than 1024 threads per block, grid extents that depend on an
    enclosing block loop, unmapped `scf.parallel` inside a kernel, and
    thread-mapped loops outside every block loop.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// HostMemoryToGPU
//===----------------------------------------------------------------------===//

def RelaxAlignTmaSharedMemory : Pass<"relax-align-tma-shared-memory",
                                     "ModuleOp"> {
  let summary = "Align the shared tiles that TMA copies write to 1024 bytes";
  let description = [{
    A TMA copy (`cp.async.bulk.tensor`, what `tir.tma_load` lowers to in a
    GPU thread) writes its box at a shared-memory address that must be a
    multiple of 128 bytes, and with a swizzle of S bytes the hardware XORs
    the address bits of the 16-byte chunk with those of the row inside an
    `8 * S`-byte window: the box lands in the layout `tir.tma_load`
    describes (and the CPU emulation reads) only when the tile starts on
    such a boundary. A workgroup attribution otherwise gets the alignment of
    its element type (2 bytes for f16). For each TMA copy of a `gpu.func`,
    this pass follows the copy's destination address back (its backward
    slice) to the `memref.extract_aligned_pointer_as_index` of a workgroup
    attribution (through casts and views) and gives that attribution the
    alignment `8 * 128` = 1024 bytes (`llvm.align`, which the NVVM lowering
    puts on the shared global), enough for every swizzle mode; the
    mbarriers and other shared buffers keep theirs. Runs after
    `gpu-kernel-outlining` (a `gpu.launch` has no attribute slot for its
    attributions) and before the NVVM lowering.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ConvertHostMemoryToGPU : Pass<"convert-host-memory-to-gpu", "ModuleOp"> {
  let summary = "Allocate host-managed tensors in GPU memory";
  let description = [{
    After `--convert-tir-to-gpu` every element access is in a
    kernel, so tensors live on the device: host `memref.alloc` /
    `memref.dealloc` become `gpu.alloc` / `gpu.dealloc`, and constants
    (`memref.get_global`) become views of their resident device copies,
    which the runtime uploads on first use and keeps
    (`relax_rt_cuda_constant`, keyed by the host address): weights are not
    copied per call. A constant that is returned is copied to a fresh
    device buffer per call instead (`gpu.memcpy`; the caller owns it). Host
    code that
    still reads or writes elements (`memref.load`, `memref.store`,
    `memref.copy`) or calls an external function with buffers (other than
    the cuBLAS built-ins `relax_cublas_*`, which take device buffers) is
    rejected with an error: it would dereference device pointers on the
    host.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

//===----------------------------------------------------------------------===//
// TOSAToRelax
//===----------------------------------------------------------------------===//

def ConvertTOSAToRelax : Pass<"convert-tosa-to-relax", "ModuleOp"> {
  let summary = "Convert functions of TOSA ops on tensors to relax functions";
  let description = [{
    The way in for models that torch-mlir, TensorFlow and other frontends
    emit as TOSA. Every `func.func` with a body that holds TOSA ops becomes
    a `relax.func` of the same name whose body is one `relax.dataflow`
    region; each TOSA op becomes high-level relax ops built through their
    own shape inference, so result types carry symbolic shapes.

    - A `?` dim of a function argument becomes a symbolic variable: the
      names of `dim-names`, in order of the arguments and their dims
      (a name given twice is the same variable, so two arguments can share
      a dim), then `argI_dJ` for argument I, dim J. Static dims stay
      constants. Where two variables meet and TOSA's rules make them
      agree only at run time, the conversion says so in relax: elementwise
      operands are `broadcast_to` dims `max(a, b)`, concat and matmul
      operands `relax.match_cast` to the first operand's dims (both checked
      at run time). A result dim relax still cannot name (`?`) is bound by
      `relax.match_cast` to a fresh variable `vK` (or TOSA's static size).
    - NHWC convolutions and pools run as relax's NCHW ops between
      `permute_dims`; `tosa.reshape`, `tosa.slice`, `tosa.tile` and
      `tosa.pad` take their shapes from `tosa.const_shape` (`-1` in a
      reshape target is the remaining element count, symbolically).
    - Zero points must be 0 and `tosa.mul`'s shift 0 (float and plain
      integer models); quantized forms, and every op without a mapping,
      are an error at the op naming it. Nothing is converted then: the
      pass fails and the module is left as it was.

    Ops: const, const_shape, identity, add, sub, mul, pow, intdiv, maximum,
    minimum, exp, log, tanh, sigmoid, erf, sin, cos, floor, ceil, abs,
    negate, reciprocal, rsqrt, clamp, cast, select, equal, greater,
    greater_equal, logical_and/or/not, reduce_sum/max/min/product, argmax,
    matmul, conv2d, depthwise_conv2d, transpose_conv2d, avg_pool2d,
    max_pool2d, reshape, transpose, concat, slice, reverse, tile, pad,
    gather.

    ```mlir
    func.func @f(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
      %y = tosa.exp %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
      return %y : tensor<?x4xf32>
    }
    // becomes
    relax.func @f(%x: !relax.tensor<[arg0_d0, 4], f32>)
        -> !relax.tensor<[arg0_d0, 4], f32> { ... relax.exp ... }
    ```
  }];
  let options = [
    ListOption<"dimNames", "dim-names", "std::string",
               "Names of the symbolic variables for the `?` dims of each "
               "function's arguments, in order">
  ];
  let dependentDialects = ["::mlir::relax::RelaxDialect"];
}

#endif // RELAX_CONVERSION_PASSES_TD
