//===- LegalizeOps.cpp - --relax-legalize-ops -----------------------------===//
//
// Drives the per-category legalizers (lib/Relax/Transforms/Legalize/) and
// owns what they share: deduplicated prim_funcs and the mapping of symbolic
// variables into the callee. A prim_func's buffers keep the caller's
// symbolic dims, so the callee binds the same variable names from its
// buffer shapes; variables that appear only inside expressions (`[n + 1]`)
// are passed explicitly as `tir_vars` index parameters.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.h"
#include "RelaxDialect/Relax/Transforms/Legalize.h"
#include "RelaxDialect/Relax/Transforms/ShapeContracts.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/TIR/IR/OpPattern.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXLEGALIZEOPS
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

FailureOr<tir::BufferType> relax::toBufferType(Type relaxType) {
  auto tensor = dyn_cast<RelaxTensorType>(relaxType);
  if (!tensor || !tensor.getShape().isFullyKnown())
    return failure();
  return tir::BufferType::get(relaxType.getContext(), tensor.getShape(),
                              tensor.getDtype(), tir::MemoryScope::global);
}

StringRef relax::shortOpName(Operation *op) {
  return op->getName().getStringRef().drop_front(strlen("relax."));
}

Value relax::indexToFloat(OpBuilder &b, Location l, Value index,
                          Type floatType) {
  Value i64 = arith::IndexCastOp::create(b, l, b.getI64Type(), index);
  return arith::SIToFPOp::create(b, l, floatType, i64);
}

LogicalResult relax::requireKnownShapes(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Type t : types) {
    auto tt = dyn_cast<RelaxTensorType>(t);
    if (!tt || !tt.getShape().isFullyKnown())
      return op->emitOpError("cannot be legalized: type ")
             << t << " has an unknown rank or dim (refine it with "
             << "relax.match_cast)";
  }
  return success();
}

bool relax::isUnsignedDtype(Type dtype) {
  auto i = dyn_cast<IntegerType>(dtype);
  return i && i.isUnsigned();
}

Value relax::createScalarConstant(OpBuilder &builder, Location loc, Type type,
                                  double value) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(builder, loc,
                                     builder.getFloatAttr(f, value));
  // Unsigned values up to 2^64 - 1 do not fit an int64_t: build the bits.
  unsigned width = type.getIntOrFloatBitWidth();
  APInt bits = value >= 0x1p63 ? APInt(64, static_cast<uint64_t>(value))
                               : APInt(64, static_cast<int64_t>(value),
                                       /*isSigned=*/true);
  return arith::ConstantOp::create(
      builder, loc,
      builder.getIntegerAttr(builder.getIntegerType(width), bits.trunc(width)));
}

SmallVector<tir::LoopKind>
relax::outerParallelKinds(ArrayRef<sym::Expr> spatial, unsigned numLoops) {
  SmallVector<tir::LoopKind> kinds(numLoops, tir::LoopKind::serial);
  if (spatial.empty())
    return kinds;
  size_t p = 0;
  while (p + 1 < spatial.size() && spatial[p].getConstant() == 1)
    ++p;
  kinds[p] = tir::LoopKind::parallel;
  return kinds;
}

void relax::buildSpatialCompute(
    OpBuilder &builder, Location loc, StringRef blockName,
    const SymShape &shape,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<tir::LoopKind> kinds =
      outerParallelKinds(shape.getDims(), shape.getRank());
  tir::buildLoopNest(
      builder, loc, shape.getDims(), kinds,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        SmallVector<tir::IterKind> iterKinds(ivs.size(),
                                             tir::IterKind::spatial);
        tir::BlockOp::create(b, l, blockName, ivs, iterKinds,
                             /*initBuilder=*/nullptr, body);
      });
}

FailureOr<SmallVector<Value>>
relax::broadcastIndices(OpBuilder &builder, Location loc, const SymShape &in,
                        const SymShape &out, ValueRange ivs) {
  int64_t offset = out.getRank() - in.getRank();
  if (offset < 0)
    return failure();
  SmallVector<Value> indices;
  for (int64_t i = 0; i < in.getRank(); ++i)
    indices.push_back(broadcastIndex(builder, loc, in.getDim(i),
                                     out.getDim(offset + i), ivs[offset + i]));
  return indices;
}

Value relax::toSignlessScalar(OpBuilder &b, Location l, Value v) {
  auto it = dyn_cast<IntegerType>(v.getType());
  if (!it || it.isSignless())
    return v;
  Type signless = b.getIntegerType(it.getWidth());
  return UnrealizedConversionCastOp::create(b, l, signless, v).getResult(0);
}

Value relax::fromSignlessScalar(OpBuilder &b, Location l, Value v, Type dtype) {
  if (v.getType() == dtype || !isUnsignedDtype(dtype))
    return v;
  return UnrealizedConversionCastOp::create(b, l, dtype, v).getResult(0);
}

/// Converts one scalar between relax dtypes (float <-> int, widths, i1).
Value relax::castScalar(OpBuilder &b, Location l, Value v, Type to,
                        bool fromUnsigned) {
  bool unsignedTo = isUnsignedDtype(to);
  unsigned tw = to.getIntOrFloatBitWidth();
  if (unsignedTo)
    to = b.getIntegerType(tw);
  Type from = v.getType();
  if (from == to)
    return v;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, l, to, v);
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncFOp::create(b, l, to, v);
    // f16 <-> bf16: go through f32.
    Value wide = arith::ExtFOp::create(b, l, b.getF32Type(), v);
    return arith::TruncFOp::create(b, l, to, wide);
  }
  if (fromFloat) {
    if (to.isInteger(1)) {
      Value zero = createScalarConstant(b, l, from, 0.0);
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v, zero);
    }
    if (!unsignedTo)
      return arith::FPToSIOp::create(b, l, to, v);
    // Below 64 bits, go through i64 so that values beyond the signed range
    // of the width (200.0 to ui8) and negative ones wrap as numpy does.
    if (tw == 64)
      return arith::FPToUIOp::create(b, l, to, v);
    Value wide = arith::FPToSIOp::create(b, l, b.getI64Type(), v);
    return arith::TruncIOp::create(b, l, to, wide);
  }
  if (toFloat) {
    if (from.isInteger(1) || fromUnsigned)
      return arith::UIToFPOp::create(b, l, to, v);
    return arith::SIToFPOp::create(b, l, to, v);
  }
  unsigned fw = from.getIntOrFloatBitWidth();
  if (to.isInteger(1)) {
    Value zero = createScalarConstant(b, l, from, 0);
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v, zero);
  }
  if (fw < tw)
    return from.isInteger(1) || fromUnsigned
               ? Value(arith::ExtUIOp::create(b, l, to, v))
               : Value(arith::ExtSIOp::create(b, l, to, v));
  if (fw == tw)
    return v; // iN <-> uiN: the same bits.
  return arith::TruncIOp::create(b, l, to, v);
}

/// numpy broadcasting of one dim; an undecidable pair reads index 0 exactly
/// when the input dim is 1 at run time.
Value relax::broadcastIndex(OpBuilder &b, Location l, const sym::Expr &in,
                            const sym::Expr &out, Value iv) {
  if (in == out || defaultSymContext().provablyEqual(in, out))
    return iv;
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  if (in.getConstant() == 1)
    return zero;
  Value d = tir::materializeDim(b, l, in);
  Value isOne = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, d,
                                      arith::ConstantIndexOp::create(b, l, 1));
  return arith::SelectOp::create(b, l, isOne, zero, iv);
}

/// A stable text key for deduplicating prim_funcs.
static std::string signatureKey(StringRef base, TypeRange inputs,
                                TypeRange results, Attribute key) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << base << "(";
  llvm::interleaveComma(inputs, os);
  os << ")->(";
  llvm::interleaveComma(results, os);
  os << ")";
  if (key)
    os << key;
  return s;
}

LogicalResult LegalizeContext::replaceWithCallTIR(
    Operation *op, StringRef baseName, ValueRange inputs,
    TypeRange resultTypes, PrimFuncBodyBuilder body, tir::OpPattern opPattern,
    Attribute key, ArrayRef<sym::Expr> extraExprs) {
  SmallVector<Type> params;
  llvm::StringSet<> bound;
  SmallVector<std::string> used;
  auto addBuffer = [&](Type type, StringRef what,
                       unsigned i) -> LogicalResult {
    FailureOr<tir::BufferType> buffer = toBufferType(type);
    if (failed(buffer))
      return op->emitOpError("cannot be legalized: ")
             << what << " #" << i << " has type " << type
             << "; every dim must be known (refine it with relax.match_cast)";
    params.push_back(*buffer);
    for (const sym::Expr &dim : buffer->getDims()) {
      if (dim.isVar())
        bound.insert(dim.getVarName());
      dim.collectVars(used);
    }
    return success();
  };
  for (auto [i, v] : llvm::enumerate(inputs))
    if (failed(addBuffer(v.getType(), "operand", i)))
      return failure();
  for (auto [i, t] : llvm::enumerate(resultTypes))
    if (failed(addBuffer(t, "result", i)))
      return failure();
  for (const sym::Expr &e : extraExprs)
    e.collectVars(used);
  llvm::sort(used);
  used.erase(std::unique(used.begin(), used.end()), used.end());

  // Variables no buffer dim binds directly travel as index parameters.
  SmallVector<sym::Expr> tirVars;
  SmallVector<std::string> tirVarNames;
  for (const std::string &var : used) {
    if (bound.contains(var))
      continue;
    tirVars.push_back(sym::Expr::var(var));
    tirVarNames.push_back(var);
  }

  std::string cacheKey =
      signatureKey(baseName, inputs.getTypes(), resultTypes, key);
  tir::PrimFuncOp callee = cache.lookup(cacheKey);
  OpBuilder builder(op->getContext());
  if (!callee) {
    builder.setInsertionPointToEnd(module.getBody());
    std::string name = baseName.str();
    unsigned &count = nameCounts[baseName];
    while (module.lookupSymbol(name))
      name = (baseName + "_" + Twine(++count)).str();
    SmallVector<Type> allParams(params);
    allParams.append(tirVars.size(), builder.getIndexType());
    unsigned numInputs = inputs.size(), numOutputs = resultTypes.size();
    callee = tir::buildPrimFunc(
        builder, op->getLoc(), name, allParams,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          body(b, loc, args.take_front(numInputs),
               args.slice(numInputs, numOutputs));
        });
    for (auto [i, var] : llvm::enumerate(tirVarNames))
      callee.setArgAttr(params.size() + i, "tir.var",
                        builder.getStringAttr(var));
    tir::setOpPattern(callee, opPattern);
    callee.setPrivate();
    cache[cacheKey] = callee;
  }

  builder.setInsertionPoint(op);
  ShapeExprAttr tirVarsAttr;
  if (!tirVars.empty())
    tirVarsAttr = ShapeExprAttr::get(op->getContext(), SymShape(tirVars));
  auto call = CallTIROp::create(builder, op->getLoc(), resultTypes,
                                callee.getSymName(), inputs, tirVarsAttr);
  op->replaceAllUsesWith(call.getResults());
  op->erase();
  return success();
}

namespace {
struct RelaxLegalizeOpsPass
    : public relax::impl::RelaxLegalizeOpsBase<RelaxLegalizeOpsPass> {
  void runOnOperation() override {
    LegalizerTable table;
    addElementwiseLegalizers(table);
    addCreationLegalizers(table);
    addLinearAlgebraLegalizers(table);
    addManipulationLegalizers(table);
    addReductionLegalizers(table);
    addNormalizationLegalizers(table);
    addNNLegalizers(table);
    addQuantizeLegalizers(table);
    addRecurrentLegalizers(table);
    addResizeLegalizers(table);

    ModuleOp module = getOperation();
    LegalizeContext context(module);
    SmallVector<Operation *> worklist;
    module.walk([&](FuncOp func) {
      func.walk([&](Operation *op) {
        if (table.count(op->getName().getStringRef()))
          worklist.push_back(op);
      });
    });
    bool failedAny = false;
    OpBuilder builder(module.getContext());
    for (Operation *op : worklist) {
      const Legalizer &legalize = table[op->getName().getStringRef()];
      // What the kernel assumes of its shapes but inference left open.
      emitShapeContractChecks(builder, op);
      if (failed(legalize(op, context)))
        failedAny = true;
    }
    if (failedAny)
      return signalPassFailure();
    // Anything high-level left: say so here rather than deep inside the
    // host lowering. Collectives are no loop programs: they stay for
    // --relax-lower-collectives, which the CPU and GPU pipelines run with
    // their target (fusion alone stays target-neutral).
    WalkResult result = module.walk([&](Operation *op) {
      if (!isa<InferTypeOpInterface>(op) || !op->getDialect() ||
          op->getDialect()->getNamespace() != "relax" ||
          isa<ShapeOfOp, ShapeExprOp, ConstantOp, TupleOp, TupleGetItemOp,
              AllReduceOp, AllGatherOp>(op))
        return WalkResult::advance();
      // A relax op may stand in another function (a func.func verifies
      // with it); only relax functions are graphs to legalize.
      if (!op->getParentOfType<FuncOp>())
        op->emitOpError("is outside a relax.func: --relax-legalize-ops "
                        "legalizes the ops of relax functions");
      else
        // unreachable: every op of the relax dialect that infers its type
        // has a legalizer in the table (lib/Relax/Transforms/Legalize/) or
        // is one of those let through above; the ones in a relax.func were
        // all on the worklist, and a legalizer replaces its op or fails.
        op->emitOpError("internal error: has no legalization to tir");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
