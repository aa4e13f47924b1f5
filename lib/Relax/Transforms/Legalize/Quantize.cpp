//===- Quantize.cpp - Legalization of relax.dequantize --------------------===//
//
// One spatial block per weight element [j, l] that decodes it from the
// packed bytes: (q - zero) * scale, computed exactly (the integer difference
// is exact in f32, f16 scales widen exactly, one rounding in the product),
// so the unfused, fused and library paths agree bit for bit on the weight.
// Every constant the body needs is created inside the block: fusion inlines
// the block into the consuming product (docs/quantization.md), which only
// clones the block's own ops.
//
// The program is marked as a decode (tir::kDecodeAttrName): it reads fewer
// bytes than it writes, so --relax-fuse-ops puts it inside the contraction
// that reads it and recomputes each element at its read instead of
// materialising the f32 weight.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::relax;

static LogicalResult legalizeDequantize(DequantizeOp op, LegalizeContext &ctx) {
  if (failed(requireKnownShapes(op)))
    return failure();
  auto resultType = cast<RelaxTensorType>(op.getResult().getType());
  int64_t bits = op.getBits();
  std::optional<int64_t> group = op.getGroupSize();
  bool hasZeros = bool(op.getZeros());
  // The call replacing `op` is created right before it.
  Operation *next = op->getNextNode();
  bool f16Scales =
      cast<RelaxTensorType>(op.getScales().getType()).getDtype().isF16();
  LogicalResult result = ctx.replaceWithCallTIR(
      op, "dequantize", op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &builder, Location loc, ValueRange inputs,
          ValueRange outputs) {
        buildSpatialCompute(
            builder, loc, "dequantize", resultType.getShape(),
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              Value row = ivs[0], col = ivs[1];
              Type i32 = b.getI32Type(), f32 = b.getF32Type();
              auto index = [&](int64_t v) -> Value {
                return arith::ConstantIndexOp::create(b, l, v);
              };
              auto int32 = [&](int64_t v) -> Value {
                return arith::ConstantIntOp::create(b, l, i32, v);
              };
              // The group's column in scales and zeros (0 per-channel).
              Value groupCol =
                  group
                      ? Value(arith::DivUIOp::create(b, l, col, index(*group)))
                      : index(0);
              Value value; // the integer q - zero, as i32
              if (bits == 8) {
                Value q =
                    tir::LoadOp::create(b, l, inputs[0], ValueRange{row, col});
                value = arith::ExtSIOp::create(b, l, i32, q);
              } else {
                Value byteCol = arith::DivUIOp::create(b, l, col, index(2));
                Value byte = toSignlessScalar(
                    b, l,
                    tir::LoadOp::create(b, l, inputs[0],
                                        ValueRange{row, byteCol}));
                Value wide = arith::ExtUIOp::create(b, l, i32, byte);
                // Element 2i is the low nibble, 2i + 1 the high one.
                Value odd = arith::IndexCastOp::create(
                    b, l, i32, arith::RemUIOp::create(b, l, col, index(2)));
                Value shift = arith::MulIOp::create(b, l, odd, int32(4));
                Value nibble = arith::AndIOp::create(
                    b, l, arith::ShRUIOp::create(b, l, wide, shift), int32(15));
                Value zero = hasZeros ? Value() : int32(8);
                if (hasZeros)
                  zero = arith::ExtUIOp::create(
                      b, l, i32,
                      toSignlessScalar(
                          b, l,
                          tir::LoadOp::create(b, l, inputs[2],
                                              ValueRange{row, groupCol})));
                value = arith::SubIOp::create(b, l, nibble, zero);
              }
              Value scale = tir::LoadOp::create(b, l, inputs[1],
                                                ValueRange{row, groupCol});
              if (f16Scales)
                scale = arith::ExtFOp::create(b, l, f32, scale);
              Value w = arith::MulFOp::create(
                  b, l, arith::SIToFPOp::create(b, l, f32, value), scale);
              tir::StoreOp::create(b, l, w, outputs[0], ivs);
            });
      },
      tir::OpPattern::Injective, op->getAttrDictionary());
  if (failed(result))
    return failure();
  auto call = cast<CallTIROp>(next->getPrevNode());
  auto callee = SymbolTable::lookupNearestSymbolFrom<tir::PrimFuncOp>(
      call, call.getCalleeAttr());
  callee->setAttr(tir::kDecodeAttrName, UnitAttr::get(op->getContext()));
  return success();
}

void relax::addQuantizeLegalizers(LegalizerTable &table) {
  registerLegalizer<DequantizeOp>(table, legalizeDequantize);
}
