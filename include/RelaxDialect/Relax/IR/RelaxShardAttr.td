//===- RelaxShardAttr.td - sharding annotations ------------*- tablegen -*-===//
//
// How a value of a single-device program is distributed over the ranks of a
// tensor-parallel run: the annotation --relax-shard reads on function
// parameters (docs/llm.md, "Sharding annotations").
//
// Its declaration is generated apart (RelaxShardAttr.h.inc, included by
// RelaxShardAttr.h) so that only the files that use it see the class; the
// definitions are generated with the dialect's other attributes
// (RelaxAttrDefs.td), since the dialect's attribute parser dispatches over
// all of them at once. This file must therefore not include RelaxAttrs.td.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_SHARD_ATTR_TD
#define RELAX_SHARD_ATTR_TD

include "RelaxDialect/Relax/IR/RelaxBase.td"

def Relax_ShardAttr : AttrDef<Relax_Dialect, "Shard"> {
  let mnemonic = "shard";
  let summary = "The sharding of a tensor over a one-dimensional grid of ranks";
  let description = [{
    `#relax.shard<replicated>`: every rank holds the whole tensor.
    `#relax.shard<split = a>`: the tensor's axis `a` is cut into `N` equal
    contiguous blocks, rank `r` holding block `r` (`N` is the number of
    ranks, given to `--relax-shard` as `num-ranks`).

    In the vocabulary of upstream MLIR's `shard` dialect this is a
    `shard.sharding` on a one-dimensional `shard.grid` of `N` devices:
    `split = 0` is `split_axes = [[0]]`, `replicated` is
    `split_axes = [[]]`. The axis is checked against the tensor's rank where
    the annotation is read.

    ```mlir
    relax.func @mlp(%x: !relax.tensor<[s, 64], f32>,
                    %w: !relax.tensor<[256, 64], f32> {relax.shard = #relax.shard<split = 0>})
    ```
  }];
  let parameters = (ins
      OptionalParameter<"std::optional<int64_t>",
                        "the split tensor axis, none when replicated">:$split);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the function-parameter attribute that holds it.
    static constexpr ::llvm::StringLiteral kParamAttrName = "relax.shard";
    bool isReplicated() const { return !getSplit().has_value(); }
  }];
}

#endif // RELAX_SHARD_ATTR_TD
