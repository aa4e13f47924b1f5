//===- DispatchQuantized.cpp - Library calls for quantized products -------===//
//
// linear(x, dequantize(q, s[, z])) and matmul(x, permute_dims(dequantize(...)))
// on the CPU become relax_quant_linear_* calls (lib/Runtime/RelaxQuant.cpp),
// which stream the packed weight; relax.dequantize_tiles the same with the
// tiles as the weight operand (`_q8t` / `_q4t`). The layout relations the
// kernel relies on (groups * group_size = k, equal rows, the contraction
// dim) are asserted first wherever inference could not prove them: the
// runtime derives the group from the scales' shape and would otherwise
// accept another group.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/DispatchQuantized.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Relax/Transforms/ShapeContracts.h"

using namespace mlir;
using namespace mlir::relax;

/// Whether `op` transposes a matrix (`axes = [1, 0]`).
static bool transposesMatrix(PermuteDimsOp op) {
  auto in = dyn_cast<RelaxTensorType>(op.getInput().getType());
  std::optional<ArrayRef<int64_t>> axes = op.getAxes();
  return in && in.hasRank() && in.getRank() == 2 &&
         (!axes || (axes->size() == 2 && (*axes)[0] == 1 && (*axes)[1] == 0));
}

FailureOr<bool> relax::dispatchQuantizedProduct(RewriterBase &rewriter,
                                                ModuleOp module, Operation *op,
                                                ext::BuiltinTarget target,
                                                ext::QuantActivations activations) {
  if (target != ext::BuiltinTarget::CPU)
    return false;
  Value x, weight, bias;
  PermuteDimsOp permute;
  if (auto linear = dyn_cast<LinearOp>(op)) {
    x = linear.getX();
    weight = linear.getWeight();
    bias = linear.getBias();
  } else if (auto matmul = dyn_cast<MatmulOp>(op)) {
    permute = matmul.getRhs().getDefiningOp<PermuteDimsOp>();
    if (!permute || !transposesMatrix(permute))
      return false;
    x = matmul.getLhs();
    weight = permute.getInput();
  } else {
    return false;
  }
  auto dequantize = weight.getDefiningOp<DequantizeOp>();
  auto tiles = weight.getDefiningOp<DequantizeTilesOp>();
  if (!dequantize && !tiles)
    return false;
  Operation *decode = dequantize ? dequantize.getOperation() : tiles;
  auto xType = dyn_cast<RelaxTensorType>(x.getType());
  auto wType = cast<RelaxTensorType>(weight.getType());
  auto resultType = dyn_cast<RelaxTensorType>(op->getResult(0).getType());
  if (!xType || !xType.hasRank() || !wType.hasRank() || !resultType ||
      !resultType.getShape().isFullyKnown())
    return false;
  ext::BuiltinSpec spec;
  spec.kind = ext::BuiltinKind::QuantLinear;
  spec.target = target;
  spec.dtype = xType.getDtype();
  spec.lhsRank = xType.getRank();
  spec.quantTiles = static_cast<bool>(tiles);
  if (tiles) {
    spec.quantBits = tiles.getBits();
    spec.quantScalesF16 = true;
  } else {
    spec.quantBits = dequantize.getBits();
    spec.quantZeros = static_cast<bool>(dequantize.getZeros());
    spec.quantScalesF16 =
        cast<RelaxTensorType>(dequantize.getScales().getType())
            .getDtype()
            .isF16();
  }
  spec.quantInt8Activations = activations == ext::QuantActivations::Int8;
  if (!ext::whyUnsupported(spec).empty())
    return false;
  // The product: x's leading dims, then W's rows.
  SmallVector<sym::Expr> dims(xType.getDims().drop_back());
  dims.push_back(wType.getDims()[0]);
  auto productType = RelaxTensorType::get(SymShape(dims), xType.getDtype());
  if (!productType.getShape().isFullyKnown() ||
      (!bias && productType != resultType))
    return false;
  FailureOr<ext::FuncOp> decl = ext::getOrCreateBuiltin(module, spec);
  if (failed(decl))
    return failure();
  // The checks read the ops' own operands, so they go in first (they hold
  // for the original ops too, should the bias below send us back).
  emitShapeContractChecks(rewriter, decode);
  emitShapeContractChecks(rewriter, op);
  SmallVector<Value> inputs = {x};
  if (tiles) {
    inputs.push_back(tiles.getTiles());
  } else {
    inputs.append({dequantize.getQ(), dequantize.getScales()});
    if (Value zeros = dequantize.getZeros())
      inputs.push_back(zeros);
  }
  rewriter.setInsertionPoint(op);
  auto call =
      CallDPSPackedOp::create(rewriter, op->getLoc(), TypeRange{productType},
                              decl->getSymName(), inputs);
  Value result = call.getResult(0);
  if (bias) {
    auto add = AddOp::create(rewriter, op->getLoc(), result, bias);
    if (add.getResult().getType() != resultType) {
      // Inference disagreed with the linear's own: keep the original op.
      rewriter.eraseOp(add);
      rewriter.eraseOp(call);
      return false;
    }
    result = add.getResult();
  }
  rewriter.replaceOp(op, result);
  if (permute && permute->use_empty())
    rewriter.eraseOp(permute);
  if (decode->use_empty())
    rewriter.eraseOp(decode);
  return true;
}
