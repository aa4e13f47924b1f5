//===- Quantize.cpp - Legalization of the dequantize ops ------------------===//
//
// One spatial block per weight element [j, l] that decodes it from the
// packed bytes (relax.dequantize) or from its tile (relax.dequantize_tiles,
// RelaxDialect/Runtime/QuantTiles.h: the f16 scale is two bytes of the
// tile, put together and bitcast): (q - zero) * scale, computed exactly (the
// integer difference is exact in f32, f16 scales widen exactly, one rounding in
// the product), so the unfused, fused and library paths agree bit for bit on
// the weight. Every constant the body needs is created inside the block: fusion
// inlines the block into the consuming product (docs/quantization.md), which
// only clones the block's own ops.
//
// The program is marked as a decode (tir::kDecodeAttrName): it reads fewer
// bytes than it writes, so --relax-fuse-ops puts it inside the contraction
// that reads it and recomputes each element at its read instead of
// materialising the f32 weight.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "RelaxDialect/Runtime/QuantTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::relax;

namespace {
/// The arithmetic both decodes build in a block, every constant created in
/// place (fusion clones the block's ops only).
struct DecodeBuilder {
  OpBuilder &b;
  Location l;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, l, v); }
  Value int32(int64_t v) {
    return arith::ConstantIntOp::create(b, l, b.getI32Type(), v);
  }
  /// A byte (i8 or ui8) loaded from `buffer` at `indices`, as signless i8.
  Value loadByte(Value buffer, ValueRange indices) {
    return toSignlessScalar(b, l, tir::LoadOp::create(b, l, buffer, indices));
  }
  /// The signed 8-bit value of `byte` as i32.
  Value signedByte(Value byte) {
    return arith::ExtSIOp::create(b, l, b.getI32Type(), byte);
  }
  /// The 4-bit value of `byte` that holds element `col` (2i in the low
  /// nibble of byte i, 2i + 1 in the high one) as i32.
  Value nibble(Value byte, Value col) {
    Type i32 = b.getI32Type();
    Value wide = arith::ExtUIOp::create(b, l, i32, byte);
    Value odd = arith::IndexCastOp::create(
        b, l, i32, arith::RemUIOp::create(b, l, col, index(2)));
    Value shift = arith::MulIOp::create(b, l, odd, int32(4));
    return arith::AndIOp::create(
        b, l, arith::ShRUIOp::create(b, l, wide, shift), int32(15));
  }
  /// value * scale in f32 (value the integer q - zero, i32): exact up to
  /// the one rounding of the product.
  Value decode(Value value, Value scale) {
    return arith::MulFOp::create(
        b, l, arith::SIToFPOp::create(b, l, b.getF32Type(), value), scale);
  }
};
} // namespace

/// The element of W [j, l] as f32, built in its block from the program's
/// inputs.
using DecodeElementFn = llvm::function_ref<Value(
    DecodeBuilder &d, ValueRange inputs, Value row, Value col)>;

/// Replaces `op` (a dequantize of either layout) with a call_tir of a
/// program `name` that stores `element` at every [j, l] of the result, and
/// marks that program as a decode for --relax-fuse-ops.
static LogicalResult legalizeDecode(Operation *op, StringRef name,
                                    LegalizeContext &ctx,
                                    DecodeElementFn element) {
  if (failed(requireKnownShapes(op)))
    return failure();
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  // The call replacing `op` is created right before it.
  Operation *next = op->getNextNode();
  LogicalResult result = ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &builder, Location loc, ValueRange inputs,
          ValueRange outputs) {
        buildSpatialCompute(builder, loc, name, resultType.getShape(),
                            [&](OpBuilder &b, Location l, ValueRange ivs) {
                              DecodeBuilder d{b, l};
                              tir::StoreOp::create(
                                  b, l, element(d, inputs, ivs[0], ivs[1]),
                                  outputs[0], ivs);
                            });
      },
      tir::OpPattern::Injective, op->getAttrDictionary());
  if (failed(result))
    return failure();
  auto call = cast<CallTIROp>(next->getPrevNode());
  auto callee = SymbolTable::lookupNearestSymbolFrom<tir::PrimFuncOp>(
      call, call.getCalleeAttr());
  callee->setAttr(tir::kDecodeAttrName, UnitAttr::get(call->getContext()));
  return success();
}

static LogicalResult legalizeDequantize(DequantizeOp op, LegalizeContext &ctx) {
  int64_t bits = op.getBits();
  std::optional<int64_t> group = op.getGroupSize();
  bool hasZeros = bool(op.getZeros());
  bool f16Scales =
      cast<RelaxTensorType>(op.getScales().getType()).getDtype().isF16();
  return legalizeDecode(
      op, "dequantize", ctx,
      [&](DecodeBuilder &d, ValueRange inputs, Value row, Value col) {
        OpBuilder &b = d.b;
        Location l = d.l;
        // The group's column in scales and zeros (0 per-channel).
        Value groupCol =
            group ? Value(arith::DivUIOp::create(b, l, col, d.index(*group)))
                  : d.index(0);
        Value value; // the integer q - zero, as i32
        if (bits == 8) {
          Value q = tir::LoadOp::create(b, l, inputs[0], ValueRange{row, col});
          value = d.signedByte(q);
        } else {
          Value byteCol = arith::DivUIOp::create(b, l, col, d.index(2));
          Value nibble = d.nibble(d.loadByte(inputs[0], {row, byteCol}), col);
          Value zero = hasZeros ? Value(arith::ExtUIOp::create(
                                      b, l, b.getI32Type(),
                                      d.loadByte(inputs[2], {row, groupCol})))
                                : d.int32(8);
          value = arith::SubIOp::create(b, l, nibble, zero);
        }
        Value scale =
            tir::LoadOp::create(b, l, inputs[1], ValueRange{row, groupCol});
        if (f16Scales)
          scale = arith::ExtFOp::create(b, l, b.getF32Type(), scale);
        return d.decode(value, scale);
      });
}

/// Element [j, l] of W from tile (j / 8, l / 128): within the tile, row
/// r = j % 8 and group g = (l % 128) / 32 make the slot g * 8 + r whose
/// scale is the f16 at bytes 2 * slot (little-endian: the low byte first)
/// and whose 32 elements follow the 64 bytes of scales.
static LogicalResult legalizeDequantizeTiles(DequantizeTilesOp op,
                                             LegalizeContext &ctx) {
  namespace tiles = ::relax::runtime::quant_tiles;
  int64_t bits = op.getBits();
  return legalizeDecode(
      op, "dequantize_tiles", ctx,
      [&](DecodeBuilder &d, ValueRange inputs, Value row, Value col) {
        OpBuilder &b = d.b;
        Location l = d.l;
        auto div = [&](Value v, int64_t c) -> Value {
          return arith::DivUIOp::create(b, l, v, d.index(c));
        };
        auto rem = [&](Value v, int64_t c) -> Value {
          return arith::RemUIOp::create(b, l, v, d.index(c));
        };
        auto add = [&](Value v, int64_t c) -> Value {
          return arith::AddIOp::create(b, l, v, d.index(c));
        };
        auto mul = [&](Value v, int64_t c) -> Value {
          return arith::MulIOp::create(b, l, v, d.index(c));
        };
        Value bj = div(row, tiles::kRows), bk = div(col, tiles::kCols);
        Value inTile = rem(col, tiles::kCols);
        Value slot = arith::AddIOp::create(
            b, l, mul(div(inTile, tiles::kGroup), tiles::kRows),
            rem(row, tiles::kRows));
        Value element = rem(inTile, tiles::kGroup);
        auto tileByte = [&](Value offset) {
          return d.loadByte(inputs[0], {bj, bk, offset});
        };
        // The scale: two bytes, little-endian, as an f16.
        Value scaleByte = mul(slot, 2);
        Type i16 = b.getI16Type();
        Value lo = arith::ExtUIOp::create(b, l, i16, tileByte(scaleByte));
        Value hi =
            arith::ExtUIOp::create(b, l, i16, tileByte(add(scaleByte, 1)));
        Value half = arith::OrIOp::create(
            b, l, lo,
            arith::ShLIOp::create(b, l, hi,
                                  arith::ConstantIntOp::create(b, l, i16, 8)));
        Value scale = arith::ExtFOp::create(
            b, l, b.getF32Type(),
            Value(arith::BitcastOp::create(b, l, b.getF16Type(), half)));
        // The element: row r's group g as the plain layout stores it.
        Value chunk =
            add(mul(slot, tiles::chunkBytes(bits)), tiles::kScaleBytes);
        Value value;
        if (bits == 8) {
          value = d.signedByte(
              tileByte(arith::AddIOp::create(b, l, chunk, element)));
        } else {
          Value byte =
              tileByte(arith::AddIOp::create(b, l, chunk, div(element, 2)));
          value =
              arith::SubIOp::create(b, l, d.nibble(byte, element), d.int32(8));
        }
        return d.decode(value, scale);
      });
}

void mlir::relax::addQuantizeLegalizers(LegalizerTable &table) {
  registerLegalizer<DequantizeOp>(table, legalizeDequantize);
  registerLegalizer<DequantizeTilesOp>(table, legalizeDequantizeTiles);
}
