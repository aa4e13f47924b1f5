//===- QuantizeOps.cpp - shape inference of the dequantize ops ------------===//
//
// The dims of a quantized weight are related by its layout (k = 2 * bytes
// for 4 bits, groups * group_size = k): inference rejects relations that
// are provably false and leaves the undecidable ones to the run-time checks
// of ShapeContracts, so the result type is always fully named. The tiled
// layout (relax.dequantize_tiles) relates nothing the types cannot state:
// its tile size is a constant and the weight's dims are multiples of the
// tile counts.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

using namespace mlir;
using namespace mlir::relax;

namespace {
/// Diagnostics of one inference, prefixed by the op name.
struct DequantizeInfer {
  std::optional<Location> loc;
  StringRef opName;

  LogicalResult fail(const Twine &message) const {
    return inferFailure(loc, opName, message);
  }
  /// `what` must have rank 2.
  LogicalResult requireMatrix(RelaxTensorType t, StringRef what) const {
    if (t.hasRank() && t.getRank() != 2)
      return fail(what + " must have rank 2, got " + t.getShape().str());
    return success();
  }
  /// Two dims that must be equal: provably different is an error.
  LogicalResult requireNotDifferent(const sym::Expr &a, const sym::Expr &b,
                                    const Twine &what) const {
    if (a && b && defaultSymContext().provablyNotEqual(a, b))
      return fail(what + ": " + a.str() + " vs " + b.str());
    return success();
  }
};
} // namespace

static bool isUnsignedInt(Type t, unsigned width) {
  auto i = dyn_cast<IntegerType>(t);
  return i && i.isUnsigned() && i.getWidth() == width;
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  DequantizeInfer infer{loc, getOperationName()};
  auto q = cast<RelaxTensorType>(adaptor.getQ().getType());
  auto scales = cast<RelaxTensorType>(adaptor.getScales().getType());
  RelaxTensorType zeros;
  if (Value z = adaptor.getZeros())
    zeros = cast<RelaxTensorType>(z.getType());
  int64_t bits = adaptor.getBits();
  std::optional<int64_t> group = adaptor.getGroupSize();

  if (bits != 4 && bits != 8)
    return infer.fail("bits must be 4 or 8, got " + Twine(bits));
  if (group && *group < 1)
    return infer.fail("group_size must be positive, got " + Twine(*group));
  if (group && bits == 4 && *group % 2 != 0)
    return infer.fail("group_size must be even with 4 bits (a byte holds "
                      "two elements of one group), got " +
                      Twine(*group));
  Type qType = q.getDtype();
  if (bits == 8 && !qType.isSignlessInteger(8))
    return infer.fail("q must be i8 with 8 bits, got " + typeText(qType));
  if (bits == 4 && !isUnsignedInt(qType, 8))
    return infer.fail("q must be ui8 (two 4-bit values a byte) with 4 bits, "
                      "got " +
                      typeText(qType));
  if (!scales.getDtype().isF32() && !scales.getDtype().isF16())
    return infer.fail("scales must be f32 or f16, got " +
                      typeText(scales.getDtype()));
  if (zeros && bits != 4)
    return infer.fail("zero points need bits = 4 (8-bit weights are "
                      "symmetric)");
  if (zeros && !isUnsignedInt(zeros.getDtype(), 8))
    return infer.fail("zeros must be ui8, got " + typeText(zeros.getDtype()));
  if (failed(infer.requireMatrix(q, "q")) ||
      failed(infer.requireMatrix(scales, "scales")) ||
      (zeros && failed(infer.requireMatrix(zeros, "zeros"))))
    return failure();

  Type f32 = Float32Type::get(context);
  if (!q.hasRank()) {
    results.push_back(RelaxTensorType::get(SymShape::unranked(), f32));
    return success();
  }
  sym::Expr n = q.getDims()[0], k = q.getDims()[1];
  if (k && bits == 4)
    k = k * sym::Expr::constant(2);
  if (scales.hasRank()) {
    sym::Expr g = scales.getDims()[1];
    if (failed(infer.requireNotDifferent(scales.getDims()[0], n,
                                         "scales dim 0 differs from q's")))
      return failure();
    // g groups of G elements cover the row: g * G == k (per-channel: g == 1).
    sym::Expr covered =
        g && group ? g * sym::Expr::constant(*group) : sym::Expr();
    if (!group &&
        failed(infer.requireNotDifferent(
            g, sym::Expr::constant(1),
            "without group_size (per-channel) scales dim 1 must be 1")))
      return failure();
    if (group && failed(infer.requireNotDifferent(
                     covered, k,
                     "scales dim 1 times group_size " + Twine(*group) +
                         " must equal the row length")))
      return failure();
    if (zeros && zeros.hasRank())
      for (int64_t d = 0; d < 2; ++d)
        if (failed(infer.requireNotDifferent(
                zeros.getDims()[d], scales.getDims()[d],
                "zeros dim " + Twine(d) + " differs from scales'")))
          return failure();
  }
  results.push_back(
      RelaxTensorType::get(SymShape(ArrayRef<sym::Expr>{n, k}), f32));
  return success();
}

LogicalResult DequantizeTilesOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  namespace tiles = ::relax::runtime::quant_tiles;
  DequantizeInfer infer{loc, getOperationName()};
  auto t = cast<RelaxTensorType>(adaptor.getTiles().getType());
  int64_t bits = adaptor.getBits();
  if (bits != 4 && bits != 8)
    return infer.fail("bits must be 4 or 8, got " + Twine(bits));
  if (!isUnsignedInt(t.getDtype(), 8))
    return infer.fail("tiles must be ui8 (bytes), got " +
                      typeText(t.getDtype()));
  Type f32 = Float32Type::get(context);
  if (!t.hasRank()) {
    results.push_back(RelaxTensorType::get(SymShape::unranked(), f32));
    return success();
  }
  if (t.getRank() != 3)
    return infer.fail("tiles must have rank 3 ([nb, kb, tile bytes]), got " +
                      t.getShape().str());
  // The tile size is part of the layout, not a dim the program chooses.
  int64_t tileBytes = tiles::tileBytes(bits);
  sym::Expr size = t.getDims()[2];
  std::optional<int64_t> constant = size ? size.getConstant() : std::nullopt;
  if (constant != tileBytes)
    return infer.fail("tiles dim 2 must be " + Twine(tileBytes) +
                      " (the bytes of a tile of 8 x 128 " + Twine(bits) +
                      "-bit elements and its scales), got " +
                      (size ? size.str() : std::string("?")));
  sym::Expr nb = t.getDims()[0], kb = t.getDims()[1];
  sym::Expr n = nb ? nb * sym::Expr::constant(tiles::kRows) : sym::Expr();
  sym::Expr k = kb ? kb * sym::Expr::constant(tiles::kCols) : sym::Expr();
  results.push_back(
      RelaxTensorType::get(SymShape(ArrayRef<sym::Expr>{n, k}), f32));
  return success();
}
