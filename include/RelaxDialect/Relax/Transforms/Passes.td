//===- Passes.td - relax dialect passes --------------------*- tablegen -*-===//
#ifndef RELAX_TRANSFORMS_PASSES_TD
#define RELAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelaxVerifyWellFormed : Pass<"relax-verify-well-formed", "ModuleOp"> {
  let summary = "Check that every symbolic variable is bound before use";
  let description = [{
    Runs the relax well-formedness check on every `relax.func`: each
    symbolic variable is bound by a parameter type (a dim that is the bare
    variable) or by an earlier `relax.match_cast` before any other use. The
    verifier runs the same check; this pass makes it explicit in pipelines
    that disable verification, and is the check to put after a pass under
    development.
  }];
  let dependentDialects = ["::mlir::relax::RelaxDialect"];
}

def RelaxFoldBatchNorm : Pass<"relax-fold-batch-norm", "ModuleOp"> {
  let summary = "Fold inference batch normalisation into the convolution "
                "before it";
  let description = [{
    `relax.batch_norm` on the channel axis of a `relax.conv2d` whose weight
    and normalisation parameters are f32 constants (and whose result has no
    other reader) is a per-channel affine map at inference: it becomes the
    convolution with weights `W[o] * s[o]` plus a constant `[o, 1, 1]` bias
    `beta[o] - mean[o] * s[o]`, `s = gamma / sqrt(var + epsilon)`, computed
    once in double precision. Exported CNNs (torchvision ResNets) then run
    one fused library convolution per conv + BN (+ residual add + ReLU)
    instead of a convolution and an elementwise pass.

    ```mlir
    %y = relax.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : ...
    %z = relax.batch_norm %y, %g, %b, %m, %v {axis = 1 : i64, epsilon = 1.0e-05 : f64} : ...
    // becomes
    %y = relax.conv2d %x, %w_folded {padding = array<i64: 1, 1, 1, 1>} : ...
    %z = relax.add %y, %bias : (..., !relax.tensor<[64, 1, 1], f32>) -> ...
    ```
  }];
  let statistics = [
    Statistic<"numFolded", "num-folded", "Number of batch_norm ops folded">
  ];
}

def RelaxFuseAttention : Pass<"relax-fuse-attention", "ModuleOp"> {
  let summary = "Replace softmax(q k^T * c + mask) v subgraphs with "
                "relax.attention";
  let description = [{
    Imported graphs (torch.onnx exports of BERT, GPT-2, Llama) spell
    attention as matmuls around a softmax, which materialises the
    [b, h, s, t] scores. This pass recognises, in BNSH layout,

    ```mlir
    %kt = ... : !relax.tensor<[b, h, d, t], f32>       // K already transposed
    %s0 = relax.matmul %q, %kt                         // [b, h, s, t]
    %s1 = relax.multiply %s0, %c                       // and/or divide; or on q / kt
    %s2 = relax.add %s1, %mask                         // optional
    %p  = relax.softmax %s2 {axis = -1}
    %p1 = relax.where (relax.isnan %p), %zero, %p      // optional (dynamo exports)
    %o  = relax.matmul %p1, %v                         // [b, h, s, dv]
    ```

    and replaces `%o` by `relax.attention` on BSNH permutations of q, k and
    v (`relax.permute_dims` of permute_dims folds, so the exporters' own
    head transposes cancel) followed by a permutation back to BNSH:

    ```mlir
    %a = relax.attention %qs, %ks, %vs, %mask {scale = c} -> [b, s, h, dv]
    %o = relax.permute_dims %a {axes = array<i64: 0, 2, 1, 3>}
    ```

    The scale is the product of every scalar constant multiplying (or
    dividing) the scores, q or k^T. Keys and values repeated over groups
    of query heads the way torch exports grouped-query attention
    (`reshape(broadcast_to(expand_dims(x, 2), [b, hkv, g, t, d]),
    [b, hkv * g, t, d])`) are read unrepeated by the grouped-head
    attention. A `where(isnan(p), 0, p)` guard becomes the same guard on
    the result (a NaN softmax row, e.g. every key -inf, gives a zero row).

    Rewrites only when the shapes provably fit (symbolic engine, under the
    function's `sym_bounds`): rank-4 float operands of one dtype, batch and
    heads equal across q, k^T and v, the head dim of q equal to k^T's, the
    key count of k^T equal to v's, softmax over the last axis, scale
    constants with one element, a mask that broadcasts to the scores
    without widening them, and every intermediate used only by the next
    step. Anything else is left as it is.
  }];
  let statistics = [
    Statistic<"numFused", "num-fused", "Number of attention subgraphs fused">
  ];
}

def RelaxLegalizeOps : Pass<"relax-legalize-ops", "ModuleOp"> {
  let summary = "Lower high-level relax ops to tir programs called with "
                "call_tir";
  let description = [{
    Every high-level op (elementwise, matmul, reductions, shape
    manipulation, nn) becomes a `relax.call_tir` of a generated
    `tir.prim_func` whose buffers carry the op's symbolic shapes, so one
    program serves every runtime size. Ops with identical signatures share
    one prim_func. Symbolic variables that no buffer dim binds directly are
    passed as `tir_vars`. Each prim_func records its `op_pattern` for
    fusion. Operands and results must have known rank and dims (refine with
    `relax.match_cast` otherwise); the error says which.
  }];
  let dependentDialects = [
    "::mlir::tir::TIRDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect"
  ];
}

def RelaxDispatchLibrary : Pass<"relax-dispatch-library", "ModuleOp"> {
  let summary = "Offload matmul, linear and (CPU) conv2d to library calls "
                "(CPU BLAS, cuBLAS)";
  let description = [{
    Rewrites `relax.matmul` and `relax.linear` whose operands are float
    tensors of rank 2, or a rank-3 or rank-4 lhs (one or two batch dims)
    with a rhs of the same batch dims or of rank 2, into
    `relax.call_dps_packed` of a built-in library function, and adds that
    function's `extern.func` declaration (from the catalogue in
    `RelaxDialect/Extern/IR/Builtins.h`) to the module:

    ```mlir
    %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>,
        !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
    // becomes
    %c = relax.call_dps_packed @relax_blas_matmul_f32(%a, %b) : (...) -> ...
    ```

    `relax.linear` uses the transposed-B variant (`..._nt_...`); its bias,
    when present, becomes a `relax.add` after the call. A matmul whose rhs
    is a `relax.permute_dims` swapping the last two dims (attention's
    `q @ k^T`) also uses it, on the transpose's input; the transpose is
    erased when nothing else reads it. Ops are left alone (for
    `relax-legalize-ops`) when the target has no function for their dtype,
    `out_dtype` differs from the operand dtype, a rank is unknown or
    unsupported, the batch dims differ (broadcast), or the result shape has
    unknown (`?`) dims, which the caller could not allocate.

    With `target=cpu`, `relax.conv2d` (NCHW / OIHW, f32 or f64) becomes
    `relax_blas_conv2d_nchw_*` (im2col + GEMM in the runtime), its window
    (strides, padding, dilation, groups) passed as a constant [9] i64
    operand. A conv2d with constant weights takes the fused built-in
    (`relax_blas_conv2d_fused[_res]_packed_*`) with its bias, residual add
    and ReLU; every such conv of a function is planned before any call is
    made, and its output's layout follows from its users: NHWC when only
    channels-last views read it, conv-private (typed NHWC, the call marked
    `relax.conv_private_result`, its readers listing the operand in
    `relax.conv_private_operands`; oneDNN's blocked layout at run time)
    when only fused convolutions read it, NCHW otherwise (docs/extern.md).

    With `target=cpu`, a `relax.linear` of a `relax.dequantize`d weight
    (or a matmul of its transpose) becomes
    `relax_quant_linear[_batch]_<q8|q4|q4z>_<f32|f16>` on the stored
    weight (docs/quantization.md); `quant-activations=int8` picks the
    `_a8` variants, which quantize 1 to 4 rows of X to int8 by blocks of 32
    (llama.cpp's precision for Q8_0 and Q4_0).

    `target=cpu` (default) uses `relax_blas_*` (f32, f64), implemented by
    the runtime over OpenBLAS; `target=cuda` uses `relax_cublas_*` (f16,
    bf16, f32; no rank 4, no conv2d). The CPU pipeline
    (`--relax-lower-to-cpu`, relax-run) runs this pass by default.

    `library-gemms` picks which of the covered matmuls and linears are
    dispatched: `all` (the CPU's default), `by-size` (the default for
    `target=cuda`: cuBLAS only for a product with M >= 256, N >= 1024 and
    K >= 1024, proven under the function's `sym_bounds`, where M counts
    every row of the product, batch dims included, and that fuses with
    nothing: no bias, no `relax.dequantize`d operand, no elementwise op
    as the product's only reader; docs/gpu.md "Generated kernel or
    cuBLAS"), or `none`.
  }];
  let options = [
    Option<"target", "target", "::mlir::ext::BuiltinTarget",
           /*default=*/"::mlir::ext::BuiltinTarget::CPU",
           "Library to dispatch to",
           [{::llvm::cl::values(
             clEnumValN(::mlir::ext::BuiltinTarget::CPU, "cpu",
                        "the runtime's CPU BLAS and oneDNN built-ins"),
             clEnumValN(::mlir::ext::BuiltinTarget::CUDA, "cuda", "cuBLAS"))}]>,
    Option<"quantActivations", "quant-activations",
           "::mlir::ext::QuantActivations",
           /*default=*/"::mlir::ext::QuantActivations::F32",
           "What products with quantized weights do with X (CPU)",
           [{::mlir::ext::quantActivationsValues()}]>,
    Option<"libraryGemms", "library-gemms", "::mlir::ext::LibraryGemms",
           /*default=*/"::mlir::ext::LibraryGemms::Auto",
           "Which matmuls and linears go to the library",
           [{::llvm::cl::values(
             clEnumValN(::mlir::ext::LibraryGemms::Auto, "auto",
                        "all on the CPU, by-size for cuda"),
             clEnumValN(::mlir::ext::LibraryGemms::All, "all",
                        "every product a library variant covers"),
             clEnumValN(::mlir::ext::LibraryGemms::BySize, "by-size",
                        "M >= 256, N >= 1024, K >= 1024 (proven) and no "
                        "bias, dequantized operand or elementwise consumer "
                        "(docs/gpu.md)"),
             clEnumValN(::mlir::ext::LibraryGemms::None, "none",
                        "none: every product stays generated"))}]>
  ];
  let statistics = [
    Statistic<"numDispatched", "num-dispatched",
              "Number of matmul/linear/conv2d ops turned into library "
              "calls">
  ];
  let dependentDialects = ["::mlir::ext::ExternDialect"];
}

def RelaxShard : Pass<"relax-shard", "ModuleOp"> {
  let summary = "Turn a single-device program with sharding annotations into "
                "the program of one of N tensor-parallel ranks";
  let description = [{
    Reads `#relax.shard<split = a>` / `#relax.shard<replicated>` on the
    parameters of every `relax.func` (attribute `relax.shard`; none means
    replicated) and rewrites the function into the SPMD program every one
    of `num-ranks` ranks runs on its slice: a split parameter's axis `a`
    becomes `d / N` (a static dim that does not divide is an error; a
    symbolic one is divided when the symbolic engine proves it a multiple
    of N, else checked at run time by a `relax.assert_dims`), and the
    splits propagate through the body op by op, Megatron style:

    - `relax.linear` with a weight split on its output features (axis 0) is
      column-parallel: its result is split on the last axis (a bias must be
      split the same way). With a weight split on its input features
      (axis 1) and an input split on its last axis it is row-parallel: each
      rank computes a partial product, summed by a `relax.ccl.allreduce`
      inserted before the bias is added. `relax.matmul` likewise.
    - Elementwise ops, broadcasting binary ops, `rms_norm` over other axes,
      `strided_slice` / `take` / `concat` along other axes, `reshape` that
      splits or merges the split axis with its minor neighbours,
      `attention` with query, key and value split on the heads axis,
      `view` of leading rows, and `call_tir_inplace` of a loop program
      that is symbolic and spatial in the split dim keep the split.
    - An op among those that needs the whole of a split operand (a norm
      over the split axis, a slice of it, a replicated weight against a
      split feature axis, ...) gets a `relax.ccl.allgather` of it.
    - Any other op with a split operand is an error naming the op and the
      axis.

    The annotations are removed; split results change the function's
    result types (a KV cache split on its heads axis stays per rank).

    ```mlir
    relax.func @mlp(%x: !relax.tensor<[s, 64], f32>,
        %w1: !relax.tensor<[256, 64], f32> {relax.shard = #relax.shard<split = 0>},
        %w2: !relax.tensor<[64, 256], f32> {relax.shard = #relax.shard<split = 1>})
    // with num-ranks=2: %w1 [128, 64], %w2 [64, 128], and the product
    // with %w2 followed by relax.ccl.allreduce {num_ranks = 2, op = "sum"}
    ```
  }];
  let options = [
    Option<"numRanks", "num-ranks", "int64_t", /*default=*/"0",
           "Number of ranks (N) to shard the program for">
  ];
  let statistics = [
    Statistic<"numCollectives", "num-collectives",
              "Number of collectives inserted">
  ];
  let dependentDialects = ["::mlir::relax::RelaxDialect"];
}

def RelaxLowerCollectives : Pass<"relax-lower-collectives", "ModuleOp"> {
  let summary = "Turn relax.ccl collectives into library calls (MPI, NCCL)";
  let description = [{
    Rewrites `relax.ccl.allreduce` and `relax.ccl.allgather` into
    `relax.call_dps_packed` of a built-in of the catalogue
    (`RelaxDialect/Extern/IR/Builtins.h`), with the number of ranks (and
    the allgather's axis) in a constant i64 options operand that the
    runtime checks against the ranks it runs on:

    ```mlir
    %y = relax.ccl.allreduce %x {num_ranks = 2 : i64, op = "sum"} : (!relax.tensor<[1, s, 64], f32>) -> !relax.tensor<[1, s, 64], f32>
    // becomes
    %o = relax.constant dense<2> : tensor<1xi64>
    %y = relax.call_dps_packed @relax_mpi_allreduce_sum_r3_f32(%x, %o) : (...) -> !relax.tensor<[1, s, 64], f32>
    ```

    `target=cpu` (default) calls `relax_mpi_*`, implemented over
    `MPI_Allreduce` / `MPI_Allgather` on `MPI_COMM_WORLD` by
    libRelaxCollectives (f32, f64); `target=cuda` calls `relax_nccl_*`
    (f16, bf16, f32), which are declared only: no NCCL runtime exists yet.
    A collective the target has no function for (dtype, rank above 4) is an
    error. The CPU pipeline runs this pass with `target=cpu` and the GPU
    pipeline with `target=cuda`, before legalization; `--relax-fuse-ops`
    leaves the collectives as they are.
  }];
  let options = [
    Option<"target", "target", "::mlir::ext::BuiltinTarget",
           /*default=*/"::mlir::ext::BuiltinTarget::CPU",
           "Communication library to call",
           [{::llvm::cl::values(
             clEnumValN(::mlir::ext::BuiltinTarget::CPU, "cpu",
                        "MPI (libRelaxCollectives)"),
             clEnumValN(::mlir::ext::BuiltinTarget::CUDA, "cuda",
                        "NCCL (declared only)"))}]>
  ];
  let statistics = [
    Statistic<"numLowered", "num-lowered",
              "Number of collectives turned into library calls">
  ];
  let dependentDialects = ["::mlir::ext::ExternDialect"];
}

def RelaxAnnotateOpPattern : Pass<"relax-annotate-op-pattern", "ModuleOp"> {
  let summary = "Derive each tir.prim_func's fusion kind from its blocks";
  let description = [{
    Sets `op_pattern` on every `tir.prim_func` from its structure, not from
    the op it came from: a block whose loads all index exactly its spatial
    iteration variables is `elementwise`; loads indexing a subsequence of
    them (or constants) make it `broadcast`; any other spatial index map is
    `injective`; a block with reduce variables is `reduction`, or
    `out_ewise_fusable` when it multiplies two reduce-indexed operands
    (matmul, convolution). A program takes the strongest kind of its blocks
    (elementwise < broadcast < injective < reduction < out_ewise_fusable);
    a store at anything but the spatial iteration variables makes a block at
    least `injective`. A program without blocks, or with two contractions,
    or a contraction next to another reduction (attention), is `opaque`.
  }];
  let dependentDialects = ["::mlir::tir::TIRDialect"];
}

def RelaxGroupOps : Pass<"relax-group-ops", "ModuleOp"> {
  let summary = "Partition each dataflow region's call_tir ops into fusion "
                "groups";
  let description = [{
    Decides, from the `op_pattern` of the called programs (see
    `--relax-annotate-op-pattern`), which `relax.call_tir` ops of a
    `relax.dataflow` region run as one program, and marks the members of
    each group of two or more with `relax.fusion_group = <id>`.

    The decision follows the post-dominator tree of the region's dataflow
    graph: a call joins the group of its immediate post-dominator when every
    call on every path between them allows it.
    - `out_ewise_fusable` (matmul, convolution) takes its post-dominator when
      the edge to it is elementwise and every call on the way is at most
      `broadcast` (epilogues: bias, activation, residual).
    - `elementwise` and `broadcast` calls fuse into a post-dominator that is
      `injective`, a `reduction` or `out_ewise_fusable`, through calls that
      are at most `injective`.
    - `injective` chains fuse when every call, the last included, is at most
      `injective`.
    - `reduction` and `opaque` calls never join a later group; `opaque`
      calls (and every op that is not a `call_tir`) never join any.
    A broadcast call whose operand already has the result's shape counts as
    elementwise on that edge. A value that leaves the region through
    `relax.output` does not stop its producer from fusing: it becomes one
    more output of the group.
  }];
  let options = [
    Option<"maxGroupSize", "max-group-size", "unsigned", "256",
           "Largest number of calls in one group">
  ];
}

def RelaxFuseTIR : Pass<"relax-fuse-tir", "ModuleOp"> {
  let summary = "Merge each fusion group's programs into one tir.prim_func";
  let description = [{
    Replaces the `relax.call_tir` ops that share a `relax.fusion_group` id
    in a dataflow region by one call to a new `tir.prim_func` (named
    `fused_<members>`) that runs the members' loop nests in order. Its
    parameters are the group's inputs, then its outputs (member results used
    after the group), then `index` parameters for symbolic variables the
    merged body needs but no parameter buffer dim binds; the call passes
    them as `tir_vars`. Each member's variables are restated in the caller's
    variables, so two members may use the same name for different
    quantities. Intermediate tensors become `tir.alloc` buffers; an
    elementwise producer whose every consumer reads each element once is
    inlined into its consumers and its buffer disappears. The merged program
    carries the group's `op_pattern`; programs left without callers are
    erased. The call is placed at the group's last member, which keeps
    every symbolic variable bound before its use.
  }];
  let dependentDialects = ["::mlir::tir::TIRDialect",
                           "::mlir::arith::ArithDialect"];
}

def RelaxExternalizeParams : Pass<"relax-externalize-params", "ModuleOp"> {
  let summary = "Move large constants out of the module into a parameter file";
  let description = [{
    Runs on a module after `relax-lower-shapes`, where every
    `relax.constant` has become a constant `memref.global`. Each constant
    global whose initial value holds at least `min-bytes` bytes is written
    to the safetensors file `file` under its new symbol name, and becomes a
    public, uninitialized `memref.global @__relax_param_<k>` that the module
    loader fills from the file once, when the module is opened. The code
    then no longer carries the weights: LLVM neither translates nor emits
    them, so compile time no longer grows with their size.

    ```mlir
    memref.global "private" constant @__relax_const_0 : memref<512xf32> =
        dense_resource<w> {alignment = 64 : i64}
    // becomes
    memref.global @__relax_param_0 : memref<512xf32> = uninitialized
        {alignment = 64 : i64}
    ```

    Booleans (bit-packed in the attribute) and element types without a
    safetensors dtype stay in the module. The format and the loader are
    described in docs/compile.md.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "uint64_t", "1024",
           "Externalize constants of at least this many bytes">,
    Option<"file", "file", "std::string", "",
           "The parameter file (safetensors) to write">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def RelaxEmitShapeFunctions : Pass<"relax-emit-shape-functions", "ModuleOp"> {
  let summary = "Generate, per entry, the function computing its dims from "
                "its symbolic variables";
  let description = [{
    For each entry (the public relax functions, or those `entries` names),
    adds `func.func @<entry>__shapes(%symbols: !llvm.ptr, %dims: !llvm.ptr)
    -> i32`, called from C as
    `int32_t <entry>__shapes(const int64_t *symbols, int64_t *dims)`: from
    the values of the variables of the parameter dims (in order of first
    occurrence) it writes every dim of every ranked parameter leaf, then of
    every ranked result leaf (tuples flattened depth first). A dim of
    unknown size, or one using a variable that no parameter has (bound
    inside the function: a data-dependent size), is written -1; a dim
    whose arithmetic overflows int64 or divides by zero is written
    INT64_MIN, and the function returns how many such dims there were.

    ```mlir
    relax.func @main(%x: !relax.tensor<[n, 4], f32>)
        -> !relax.tensor<[n * 4], f32> { ... }
    // adds
    func.func @main__shapes(%symbols: !llvm.ptr, %dims: !llvm.ptr) -> i32
        attributes {relax.shape_function_of = "main"}
    // writing dims = [n, 4, n * 4]
    ```

    The execution library runs this pass before the relax pipeline, so the
    JIT and libraries from relax-compile carry one shape function per
    entry; the module metadata describes its layout (docs/compile.md).
  }];
  let options = [
    ListOption<"entries", "entries", "std::string",
               "The entries (relax functions) to generate shape functions "
               "for; empty: every public relax function">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def RelaxPlanMemory : Pass<"relax-plan-memory", "ModuleOp"> {
  let summary = "Plan the storage of each function's intermediate buffers "
                "in one arena with symbolic offsets";
  let description = [{
    Runs on legalized relax functions (call_tir / call_dps_packed), right
    before `relax-lower-shapes`, which carries the plan out. Every buffer a
    function creates and neither returns nor hands to a `relax.call` gets a
    storage slot in the function's arena. Buffers are visited in execution
    order; a buffer whose readers have all run frees its slot (after the
    outputs of its last reader took theirs, so that no output shares
    storage with an input of the same call, except where the call allows
    it: a `relax.call_dps_packed` whose `relax.output_may_alias` names, for
    a result, an operand of the same type (the fused convolution's
    residual) writes that result over the operand's slot when the operand
    is a planned buffer that dies at the call and no other operand reads
    it; never over an argument, a constant, or a buffer read later; the
    function's plan counts them as `in_place`). A new buffer takes a free slot
    when the symbolic engine proves, under the function's `sym_bounds`,
    that its byte size equals the slot's, is at most the slot's, or is at
    least the slot's (the slot then grows to it); otherwise it gets a new
    slot. Sizes are bytes, so buffers of any dtypes share slots.

    ```mlir
    // [n, 64] f32 then [n, 32] f32 (dead) then [n, 16] f64:
    // slot 0 holds all three; offsets are symbolic
    %a = relax.call_tir @f(%x) {relax.arena_offsets = [#relax.expr<0>]}
    ```

    Slots are laid out in order, each aligned to 64 bytes; the function
    gets `relax.memory_plan = {arena = #relax.expr<...>, bound = N, ...}`
    (see include/RelaxDialect/Relax/Transforms/MemoryPlan.h). `bound` is
    the arena's upper bound under `sym_bounds` when there is one: the
    lowering then allocates the arena once, at that size, and reuses it
    across calls. Sizes must be computable at function entry: a buffer
    whose size needs a variable bound later (match_cast) takes a slot of
    its constant upper bound, or its own allocation when it has none.

    With `verify` the plan is checked as `relax-verify-memory-plan` does.
  }];
  let options = [
    Option<"verify", "verify", "bool", "false",
           "Prove the plan sound (relax-verify-memory-plan) after planning">,
    Option<"inPlace", "in-place", "bool", "true",
           "Write a result over an operand that dies at its call where "
           "relax.output_may_alias allows it (false: a slot of its own, "
           "for side-by-side measurements)">
  ];
}

def RelaxVerifyMemoryPlan : Pass<"relax-verify-memory-plan", "ModuleOp"> {
  let summary = "Prove that no two live buffers share arena bytes";
  let description = [{
    Checks the `relax.memory_plan` of every function: each planned buffer's
    slot `[offset, offset + bytes)` lies within the arena and is 64-byte
    aligned, and the slots of any two buffers whose live ranges meet (one
    is created before the other's last reader runs) are provably disjoint
    under the function's facts. A planned buffer that escapes or is passed
    to a relax.call is an error. Independent of the planner's reasoning:
    liveness is recomputed and every claim is re-proved.
  }];
}

def RelaxLiftTIRAllocs : Pass<"relax-lift-tir-allocs", "ModuleOp"> {
  let summary = "Make the top-level scratch of loop programs extra outputs, "
                "for the memory planner";
  let description = [{
    Each `tir.alloc` of global scope directly in a `tir.prim_func`'s body,
    whose dims use only variables its parameters bind, becomes a new output
    parameter (after the existing buffers, before the `tir_vars` index
    parameters), and every `relax.call_tir` of the program gets a matching
    extra result whose shape is the alloc's in the caller's variables. The
    result has no reader: `relax-plan-memory` gives it an arena slot that is
    free again right after the call. Programs referenced by anything but
    call_tir, or whose calls do not bind every variable, are left alone.
    Runs in the CPU and GPU pipelines (with the memory plan) after the
    default schedule, which turns some scratch into per-iteration `local`
    buffers first.

    ```mlir
    tir.prim_func @f(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
      %t = tir.alloc : !tir.buffer<[n], f32>
      ...
    // becomes
    tir.prim_func @f(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>,
                     %t: !tir.buffer<[n], f32>) {
    %r:2 = relax.call_tir @f(%a) : (...) -> (!relax.tensor<[m], f32>, !relax.tensor<[m], f32>)
    ```
  }];
}

#endif // RELAX_TRANSFORMS_PASSES_TD
