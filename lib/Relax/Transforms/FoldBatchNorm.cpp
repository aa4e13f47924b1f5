//===- FoldBatchNorm.cpp - --relax-fold-batch-norm ------------------------===//
//
// A CNN exported for inference (torch.onnx of torchvision models) keeps its
// BatchNormalization nodes after convolutions whose weights are constants.
// At inference the normalisation is a per-channel affine map, so it folds
// into the convolution: W'[o] = W[o] * s[o] and a bias b'[o] = beta[o] -
// mean[o] * s[o] with s = gamma / sqrt(var + eps), computed once here in
// double precision (onnxruntime's ConvBNFusion does the same). What is left
// is conv2d + a constant [o, 1, 1] bias, which the library dispatch hands
// to one fused convolution together with a following residual add and ReLU.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <cstring>

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXFOLDBATCHNORM
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// The f32 values of a relax.constant (dense, splat or dense_resource), or
/// nothing when `v` is not one or its data cannot be read.
static std::optional<std::vector<double>> readF32Constant(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  if (!cst)
    return std::nullopt;
  ElementsAttr attr = cst.getValue();
  if (!attr.getElementType().isF32())
    return std::nullopt;
  std::vector<double> values;
  values.reserve(attr.getNumElements());
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    ArrayRef<char> bytes = blob->getData();
    if (static_cast<int64_t>(bytes.size()) !=
        attr.getNumElements() * static_cast<int64_t>(sizeof(float)))
      return std::nullopt;
    for (int64_t i = 0, e = attr.getNumElements(); i < e; ++i) {
      float f;
      std::memcpy(&f, bytes.data() + i * sizeof(float), sizeof(float));
      values.push_back(f);
    }
    return values;
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  for (float f : dense.getValues<float>())
    values.push_back(f);
  return values;
}

namespace {
/// batch_norm(conv2d(x, W), gamma, beta, mean, var) on the channel axis,
/// every parameter and W f32 constants and the conv2d read only here ->
/// conv2d(x, W') + b'.
struct FoldConvBatchNorm : public OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getInput().getDefiningOp<Conv2DOp>();
    if (!conv || !conv->hasOneUse() || bn.getAxis() != 1)
      return rewriter.notifyMatchFailure(bn, "not a conv2d's only reader");
    auto weightType = dyn_cast<RelaxTensorType>(conv.getWeight().getType());
    std::optional<SmallVector<int64_t>> wShape =
        weightType && weightType.hasRank()
            ? weightType.getShape().getStaticSizes()
            : std::nullopt;
    if (!wShape || wShape->size() != 4)
      return rewriter.notifyMatchFailure(bn, "weight shape not static");
    int64_t channels = (*wShape)[0];
    std::optional<std::vector<double>> w = readF32Constant(conv.getWeight());
    std::optional<std::vector<double>> gamma = readF32Constant(bn.getGamma()),
                                       beta = readF32Constant(bn.getBeta()),
                                       mean =
                                           readF32Constant(bn.getMovingMean()),
                                       var = readF32Constant(bn.getMovingVar());
    if (!w || !gamma || !beta || !mean || !var)
      return rewriter.notifyMatchFailure(bn, "operands are not f32 constants");
    auto perChannel = [&](const std::vector<double> &p) {
      return static_cast<int64_t>(p.size()) == channels;
    };
    if (!perChannel(*gamma) || !perChannel(*beta) || !perChannel(*mean) ||
        !perChannel(*var))
      return rewriter.notifyMatchFailure(bn, "parameters are not per channel");

    double eps = bn.getEpsilon().convertToDouble();
    int64_t perOut = static_cast<int64_t>(w->size()) / channels;
    SmallVector<float> folded(w->size()), bias(channels);
    for (int64_t o = 0; o < channels; ++o) {
      double scale = (*gamma)[o] / std::sqrt((*var)[o] + eps);
      for (int64_t i = 0; i < perOut; ++i)
        folded[o * perOut + i] =
            static_cast<float>((*w)[o * perOut + i] * scale);
      bias[o] = static_cast<float>((*beta)[o] - (*mean)[o] * scale);
    }
    Location loc = bn.getLoc();
    Type f32 = rewriter.getF32Type();
    auto biasType = RankedTensorType::get({channels, 1, 1}, f32);
    Value biasValue = ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(biasType, ArrayRef<float>(bias)));
    auto sum = AddOp::create(rewriter, loc, conv.getResult(), biasValue);
    if (sum.getType() != bn.getType()) {
      rewriter.eraseOp(sum);
      rewriter.eraseOp(biasValue.getDefiningOp());
      return rewriter.notifyMatchFailure(bn, "the sum's type differs");
    }
    // The folded weights replace the originals in the same form: a
    // resource blob (out of the IR text) when the original was one.
    auto weightAttrType = RankedTensorType::get(*wShape, f32);
    ElementsAttr weightAttr;
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(
            conv.getWeight().getDefiningOp<ConstantOp>().getValue())) {
      ArrayRef<char> bytes(reinterpret_cast<const char *>(folded.data()),
                           folded.size() * sizeof(float));
      weightAttr = DenseResourceElementsAttr::get(
          weightAttrType, resource.getRawHandle().getKey().str() + "_bn",
          HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes,
                                                        alignof(float)));
    } else {
      weightAttr =
          DenseElementsAttr::get(weightAttrType, ArrayRef<float>(folded));
    }
    rewriter.setInsertionPoint(conv);
    Value weight =
        ConstantOp::create(rewriter, conv.getWeight().getLoc(),
                           conv.getWeight().getType(), weightAttr);
    rewriter.modifyOpInPlace(
        conv, [&] { conv.getWeightMutable().assign(weight); });
    rewriter.replaceOp(bn, sum.getResult());
    return success();
  }
};

struct RelaxFoldBatchNormPass
    : public relax::impl::RelaxFoldBatchNormBase<RelaxFoldBatchNormPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConvBatchNorm>(&getContext());
    unsigned before = 0, after = 0;
    getOperation().walk([&](BatchNormOp) { ++before; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation().walk([&](BatchNormOp) { ++after; });
    numFolded += before - after;
  }
};
} // namespace
