//===- Resize.cpp - Legalization of resize2d ------------------------------===//
//
// relax.resize2d becomes one spatial block: the ONNX coordinate transform
// in f32 (f64 for f64 data), nearest rounding or bilinear weights, indices
// clamped.
//
//===----------------------------------------------------------------------===//

#include "NNHelpers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::nn_legalize;

//===----------------------------------------------------------------------===//
// resize2d
//===----------------------------------------------------------------------===//

namespace {
/// One spatial dim of a resize: the input coordinate of an output index
/// (ONNX's coordinate_transformation_mode) and its rounding or neighbours.
struct ResizeAxis {
  Value in, out;   // extents (index)
  Value inF, outF; // the same as floats of the coordinate type
  std::optional<double> scale;
  StringRef mode;

  Value coordinate(OpBuilder &b, Location l, Value o) const {
    Type ft = inF.getType();
    auto c = [&](double v) { return createScalarConstant(b, l, ft, v); };
    Value of = indexToFloat(b, l, o, ft);
    // x / scale, with scale = out / in unless given: x * in / out.
    auto unscale = [&](Value v) -> Value {
      if (scale)
        return arith::DivFOp::create(b, l, v, c(*scale));
      return arith::DivFOp::create(b, l, arith::MulFOp::create(b, l, v, inF),
                                   outF);
    };
    if (mode == "asymmetric")
      return unscale(of);
    Value moreThanOne = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt,
                                              out, cIdx(b, l, 1));
    if (mode == "align_corners") {
      Value r = arith::DivFOp::create(
          b, l,
          arith::MulFOp::create(b, l, of,
                                arith::SubFOp::create(b, l, inF, c(1))),
          arith::SubFOp::create(b, l, outF, c(1)));
      return arith::SelectOp::create(b, l, moreThanOne, r, c(0));
    }
    Value r = arith::SubFOp::create(
        b, l, unscale(arith::AddFOp::create(b, l, of, c(0.5))), c(0.5));
    if (mode == "pytorch_half_pixel")
      return arith::SelectOp::create(b, l, moreThanOne, r, c(0));
    return r;
  }

  /// An integral float coordinate as an index clamped to [0, in - 1].
  Value clampIndex(OpBuilder &b, Location l, Value f) const {
    Value i = arith::IndexCastOp::create(
        b, l, b.getIndexType(),
        arith::FPToSIOp::create(b, l, b.getI64Type(), f));
    Value last = arith::SubIOp::create(b, l, in, cIdx(b, l, 1));
    return arith::MaxSIOp::create(b, l, cIdx(b, l, 0),
                                  arith::MinSIOp::create(b, l, i, last));
  }
};
} // namespace

static Value roundNearest(OpBuilder &b, Location l, Value x,
                          StringRef nearestMode) {
  Value half = createScalarConstant(b, l, x.getType(), 0.5);
  if (nearestMode == "round_prefer_floor")
    return math::CeilOp::create(b, l, arith::SubFOp::create(b, l, x, half));
  if (nearestMode == "round_prefer_ceil")
    return math::FloorOp::create(b, l, arith::AddFOp::create(b, l, x, half));
  if (nearestMode == "floor")
    return math::FloorOp::create(b, l, x);
  return math::CeilOp::create(b, l, x);
}

static LogicalResult legalizeResize2D(Resize2DOp op, LegalizeContext &ctx) {
  Value x = op.getInput();
  if (failed(checkRank(op, x, 4, "input")) ||
      failed(checkRank(op, op.getResult(), 4, "result")))
    return failure();
  Type dtype = cast<RelaxTensorType>(x.getType()).getDtype();
  bool linear = op.getMethod() == "linear";
  if (linear && !isa<FloatType>(dtype))
    // unreachable: the relax.resize2d verifier requires a float dtype for
    // linear resizes.
    return op.emitOpError("cannot be legalized: linear resize needs a float "
                          "dtype, got ")
           << dtype;
  Type coordType = dtype.isF64() ? Type(Float64Type::get(op.getContext()))
                                 : Type(Float32Type::get(op.getContext()));
  std::optional<ArrayRef<double>> scales = op.getScales();
  StringRef mode = op.getCoordinateTransformationMode();
  StringRef nearestMode = op.getNearestMode();
  auto resultType = cast<RelaxTensorType>(op.getResult().getType());

  return ctx.replaceWithCallTIR(
      op, "resize2d", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location l, ValueRange in, ValueRange out) {
        Value X = in[0], Y = out[0];
        ResizeAxis axes[2];
        for (int i = 0; i < 2; ++i) {
          ResizeAxis &a = axes[i];
          a.in = dimOf(b, l, x.getType(), 2 + i);
          a.out = dimOf(b, l, resultType, 2 + i);
          a.inF = indexToFloat(b, l, a.in, coordType);
          a.outF = indexToFloat(b, l, a.out, coordType);
          if (scales)
            a.scale = (*scales)[i];
          a.mode = mode;
        }
        buildSpatialCompute(
            b, l, "resize2d", resultType.getShape(),
            [&](OpBuilder &b, Location l, ValueRange iv) {
              Value cy = axes[0].coordinate(b, l, iv[2]);
              Value cx = axes[1].coordinate(b, l, iv[3]);
              auto load = [&](Value iy, Value ix) -> Value {
                return tir::LoadOp::create(b, l, X,
                                           ValueRange{iv[0], iv[1], iy, ix});
              };
              if (!linear) {
                Value v = load(axes[0].clampIndex(
                                   b, l, roundNearest(b, l, cy, nearestMode)),
                               axes[1].clampIndex(
                                   b, l, roundNearest(b, l, cx, nearestMode)));
                tir::StoreOp::create(b, l, v, Y, iv);
                return;
              }
              // Bilinear between the clamped neighbours (ONNX pads with the
              // edge values), weights in the coordinate type.
              Value one = createScalarConstant(b, l, coordType, 1.0);
              Value idx[2][2], frac[2];
              Value coords[2] = {cy, cx};
              for (int i = 0; i < 2; ++i) {
                Value lo = math::FloorOp::create(b, l, coords[i]);
                frac[i] = arith::SubFOp::create(b, l, coords[i], lo);
                idx[i][0] = axes[i].clampIndex(b, l, lo);
                idx[i][1] = axes[i].clampIndex(
                    b, l, arith::AddFOp::create(b, l, lo, one));
              }
              auto lerp = [&](Value a, Value c, Value t) -> Value {
                Value d = arith::SubFOp::create(b, l, c, a);
                return arith::AddFOp::create(b, l, a,
                                             arith::MulFOp::create(b, l, d, t));
              };
              Value row[2];
              for (int r = 0; r < 2; ++r)
                row[r] = lerp(
                    castScalar(b, l, load(idx[0][r], idx[1][0]), coordType),
                    castScalar(b, l, load(idx[0][r], idx[1][1]), coordType),
                    frac[1]);
              Value v = lerp(row[0], row[1], frac[0]);
              tir::StoreOp::create(b, l, castScalar(b, l, v, dtype), Y, iv);
            });
      },
      tir::OpPattern::Injective, op->getAttrDictionary());
}

void relax::addResizeLegalizers(LegalizerTable &table) {
  registerLegalizer<Resize2DOp>(table, legalizeResize2D);
}
