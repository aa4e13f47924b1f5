//===- RuntimeChecks.cpp - shape checks at run time -----------------------===//
//
// --relax-lower-shapes: symbolic sizes as overflow-checked index
// arithmetic, the run-time checks and their failure exits (the runtime's
// error slot, owned buffers freed), and the ops that only check or bind
// dims: match_cast, assert_dims, tensor_to_shape, assert_indices.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "RelaxDialect/Support/SymExprCodegen.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::lower_shapes;

/// A short `file:line:col` for messages about match_cast sites.
std::string lower_shapes::describeLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  return "<unknown location>";
}

/// printf-safe copy of text that goes into a message format.
std::string lower_shapes::escapePercent(const Twine &text) {
  std::string out;
  for (char c : text.str()) {
    out.push_back(c);
    if (c == '%')
      out.push_back('%');
  }
  return out;
}
/// Emits `expr` with overflow and zero-divisor checks; a failure names the
/// function, `context` (what the value is for) and the expression.
Value FunctionLowering::emitExpr(const sym::Expr &expr, StringRef context) {
  std::string prefix = escapePercent(src.getSymName().str() + ": " + context +
                                     ": " + (expr ? expr.str() : "") + ": ");
  return emitCheckedSymExpr(
      builder, src.getLoc(), expr,
      [&](StringRef var) { return env.lookup(var); },
      [&](Value bad, StringRef what, Value lhs, Value rhs) {
        emitFailure(bad, prefix + what.str(), lhs, rhs);
      });
}
/// a * b on sizes (index values), failing with "`context`: a * b overflows
/// int64" instead of wrapping.
Value FunctionLowering::checkedSizeMul(Value a, Value b, StringRef context) {
  Location loc = src.getLoc();
  Type i64 = builder.getI64Type();
  Value x = arith::IndexCastOp::create(builder, loc, i64, a);
  Value y = arith::IndexCastOp::create(builder, loc, i64, b);
  auto wide = arith::MulSIExtendedOp::create(builder, loc, x, y);
  Value sign = arith::ShRSIOp::create(
      builder, loc, wide.getLow(),
      arith::ConstantIntOp::create(builder, loc, i64, 63));
  Value bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                    wide.getHigh(), sign);
  emitFailure(bad,
              escapePercent(src.getSymName().str() + ": " + context) +
                  ": %lld * %lld overflows int64",
              x, y);
  return arith::MulIOp::create(builder, loc, a, b);
}
/// The failure exit for a check at the current point. The shared exit
/// returns poison results, which callers never read (they test the error
/// slot); a check made while the function owns buffers first frees them
/// all (none reaches the caller) and then branches there.
Block *FunctionLowering::getFailBlock() {
  OpBuilder::InsertionGuard guard(builder);
  Location loc = src.getLoc();
  if (!exitBlock) {
    exitBlock = builder.createBlock(&dst.getBody(), dst.getBody().end());
    SmallVector<Value> poison;
    for (Type t : dst.getResultTypes())
      poison.push_back(ub::PoisonOp::create(builder, loc, t));
    func::ReturnOp::create(builder, loc, poison);
  }
  if (ownedBuffers.empty())
    return exitBlock;
  Block *&failBlock = failBlocks[ownedVersion];
  if (failBlock)
    return failBlock;
  failBlock = builder.createBlock(&dst.getBody(), dst.getBody().end());
  llvm::SmallPtrSet<Value, 8> freed;
  for (Value buffer : ownedBuffers)
    if (freed.insert(buffer).second)
      freeBuffer(buffer, loc);
  cf::BranchOp::create(builder, loc, exitBlock);
  return failBlock;
}
/// Records `actual != expected` as a failure: the message goes to the runtime
/// right away (only the first one is kept there), the branch to the failure
/// exit happens at the next flushChecks().
void FunctionLowering::emitCheck(Value actual, Value expected,
                                 const std::string &format) {
  Value bad = arith::CmpIOp::create(builder, src.getLoc(),
                                    arith::CmpIPredicate::ne, actual, expected);
  emitFailure(bad, format, actual, expected);
}
/// Records `bad` as a failure with `format`'s message, which reads `first`
/// and `second` (index or i64 values) as its two %lld conversions.
void FunctionLowering::emitFailure(Value bad, const std::string &format,
                                   Value first, Value second) {
  Location loc = src.getLoc();
  auto ifOp = scf::IfOp::create(builder, loc, bad, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    reportError(first, second, format);
  }
  pendingFailure =
      pendingFailure ? arith::OrIOp::create(builder, loc, pendingFailure, bad)
                     : bad;
}
/// Calls the runtime's error slot with `format` and two index or i64 values.
void FunctionLowering::reportError(Value actual, Value expected,
                                   const std::string &format) {
  Location loc = src.getLoc();
  std::string name = "__relax_msg_" + std::to_string(messageCounter++);
  std::string text = format;
  text.push_back('\0');
  Value message = LLVM::createGlobalString(loc, builder, name, text,
                                           LLVM::Linkage::Internal);
  Type i64 = builder.getI64Type();
  auto toI64 = [&](Value v) -> Value {
    if (v.getType() == i64)
      return v;
    return arith::IndexCastOp::create(builder, loc, i64, v);
  };
  func::CallOp::create(builder, loc, kShapeErrorFn, TypeRange(),
                       ValueRange{message, toI64(actual), toI64(expected)});
}
/// A failed allocation of `buffer` (a null pointer) is a recorded error,
/// `format` printing `value`, rather than a crash at its first use; the
/// checks are flushed, so code after this never sees the null buffer.
void FunctionLowering::failIfNull(Value buffer, Location loc,
                                  const std::string &format, Value value) {
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, buffer);
  Value null = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, pointer,
      arith::ConstantIndexOp::create(builder, loc, 0));
  emitFailure(null, format, value, value);
  flushChecks();
}
void FunctionLowering::flushChecks() {
  if (!pendingFailure)
    return;
  Block *current = builder.getInsertionBlock();
  Block *rest = current->splitBlock(builder.getInsertionPoint());
  builder.setInsertionPointToEnd(current);
  cf::CondBranchOp::create(builder, src.getLoc(), pendingFailure,
                           getFailBlock(), rest);
  builder.setInsertionPointToStart(rest);
  pendingFailure = Value();
}
/// Adds "the runtime's error slot is set" to the pending failure: after a
/// call that reports errors there (a library call, a relax function, an
/// index check), so that the function stops before using its results.
void FunctionLowering::checkRuntimeErrorSlot(Location loc) {
  declareRuntimeFunction(kHasErrorFn,
                         builder.getFunctionType({}, {builder.getI32Type()}));
  Value hasError =
      func::CallOp::create(builder, loc, kHasErrorFn,
                           TypeRange{builder.getI32Type()}, ValueRange())
          .getResult(0);
  Value failed = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::ne, hasError,
      arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0));
  pendingFailure = pendingFailure
                       ? arith::OrIOp::create(builder, loc, pendingFailure,
                                              failed)
                       : failed;
}
/// Binds the bare variables of `type` that are still unbound from `memref`'s
/// runtime dims. Returns which dims were binding occurrences.
SmallVector<bool> FunctionLowering::bindVars(Value memref,
                                             RelaxTensorType type,
                                             StringRef what) {
  SmallVector<bool> binds(type.hasRank() ? type.getRank() : 0, false);
  for (auto [d, dim] : llvm::enumerate(type.getDims())) {
    if (!dim || !dim.isVar() || env.count(dim.getVarName()))
      continue;
    env[dim.getVarName()] = dimValue(memref, d);
    sites[dim.getVarName()] = {what.str(), static_cast<int64_t>(d)};
    binds[d] = true;
  }
  return binds;
}
/// Checks every dim of `memref` that is not a binding occurrence against its
/// expression under the current bindings.
LogicalResult FunctionLowering::checkDims(Value memref, RelaxTensorType type,
                                          StringRef what, bool isArgument,
                                          ArrayRef<bool> binds) {
  std::string fn = src.getSymName().str();
  for (auto [d, dim] : llvm::enumerate(type.getDims())) {
    if (!dim || binds[d])
      continue;
    Value expected =
        emitExpr(dim, ((isArgument ? "argument " : "") + what + " dim " +
                       Twine(d))
                          .str());
    if (!expected)
      return src.emitOpError("cannot lower: a variable of ")
             << dim.str() << " is not bound";
    std::string format;
    llvm::raw_string_ostream os(format);
    StringRef prefix = isArgument ? "argument " : "";
    if (dim.isVar()) {
      const BindingSite &site = sites[dim.getVarName()];
      os << fn << ": " << dim.getVarName() << " = %2$lld from " << site.what
         << " dim " << site.dim << ", but " << what << " dim " << d << " = "
         << dim.getVarName() << " is %1$lld";
    } else if (dim.getConstant()) {
      os << fn << ": " << prefix << what << " dim " << d
         << ": expected %2$lld, got %1$lld";
    } else {
      os << fn << ": " << prefix << what << " dim " << d << ": expected "
         << dim.str() << " = %2$lld, got %1$lld";
    }
    emitCheck(dimValue(memref, d), expected, format);
  }
  return success();
}
LogicalResult FunctionLowering::lowerMatchCast(MatchCastOp op) {
  auto target = dyn_cast<RelaxTensorType>(op.getResult().getType());
  if (!target || !isa<RelaxTensorType>(op.getValue().getType()))
    return op.emitOpError("only tensor-to-tensor casts can be lowered yet");
  Value input = mapping.lookup(op.getValue());
  Type targetType = *convertRelaxType(target);
  Location loc = op.getLoc();
  std::string site = "match_cast at " + describeLoc(loc);
  std::string fn = src.getSymName().str();
  if (isa<UnrankedMemRefType>(input.getType()) && target.hasRank()) {
    Value rank = memref::RankOp::create(builder, loc, input);
    Value expected =
        arith::ConstantIndexOp::create(builder, loc, target.getRank());
    emitCheck(rank, expected,
              fn + ": " + site + ": expected rank %2$lld, got %1$lld");
    flushChecks();
  }
  // Cast to the fully dynamic form first: the dims are checked below, so the
  // static cast that follows is justified.
  Value value = input;
  if (auto ranked = dyn_cast<MemRefType>(targetType)) {
    SmallVector<int64_t> dynamic(ranked.getRank(), ShapedType::kDynamic);
    value = castTo(value, MemRefType::get(dynamic, ranked.getElementType()));
  }
  SmallVector<bool> binds = bindVars(value, target, site);
  if (failed(checkDims(value, target, site, /*isArgument=*/false, binds)))
    return failure();
  SmallVector<std::string> bound;
  for (auto [d, dim] : llvm::enumerate(target.getDims()))
    if (binds[d])
      bound.push_back(dim.getVarName().str());
  checkSymBounds(bound);
  flushChecks();
  mapping.map(op.getResult(), castTo(value, targetType));
  return success();
}
/// The function's `sym_bounds` for variables just bound from run-time dims:
/// a value outside its declared range is the caller's error, and proofs at
/// compile time (symContextAt) relied on the range.
void FunctionLowering::checkSymBounds(ArrayRef<std::string> vars) {
  std::optional<DictionaryAttr> bounds = src.getSymBounds();
  if (!bounds)
    return;
  std::string fn = src.getSymName().str();
  Location loc = src.getLoc();
  for (const std::string &var : vars) {
    auto range = dyn_cast_or_null<DenseI64ArrayAttr>(bounds->get(var));
    if (!range || range.size() != 2)
      continue;
    Value value = env.lookup(var);
    const BindingSite &site = sites[var];
    std::string from =
        site.what + " dim " + std::to_string(site.dim);
    Value lo = arith::ConstantIndexOp::create(builder, loc, range[0]);
    Value hi = arith::ConstantIndexOp::create(builder, loc, range[1]);
    emitCheckIf(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      value, lo),
                value, lo,
                fn + ": " + var + " = %1$lld from " + from +
                    " is below its sym_bounds lower bound %2$lld");
    emitCheckIf(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                      value, hi),
                value, hi,
                fn + ": " + var + " = %1$lld from " + from +
                    " is above its sym_bounds upper bound %2$lld");
  }
}
/// "n * 4 = %1$lld", or just the value for a constant.
static std::string describeValue(const sym::Expr &expr, StringRef slot) {
  if (expr.getConstant())
    return slot.str();
  return expr.str() + " = " + slot.str();
}
LogicalResult FunctionLowering::lowerAssertDims(AssertDimsOp op) {
  sym::Expr lhsExpr = op.getLhs().getExpr(), rhsExpr = op.getRhs().getExpr();
  std::string context =
      (op.getOpName() + " at " + describeLoc(op.getLoc())).str();
  Value lhs = emitExpr(lhsExpr, context), rhs = emitExpr(rhsExpr, context);
  if (!lhs || !rhs)
    return op.emitOpError("uses a variable that is not bound");
  Location loc = op.getLoc();
  StringRef predicate = op.getPredicate();
  std::string condition;
  Value bad;
  if (predicate == "eq") {
    condition = lhsExpr.str() + " == " + rhsExpr.str();
    bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, lhs,
                                rhs);
  } else if (predicate == "le") {
    condition = lhsExpr.str() + " <= " + rhsExpr.str();
    bad = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt, lhs,
                                rhs);
  } else {
    condition = lhsExpr.str() + " == " + rhsExpr.str() + " or " +
                lhsExpr.str() + " == 1";
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    bad = arith::AndIOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, lhs, rhs),
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, lhs,
                              one));
  }
  std::string format = src.getSymName().str() + ": " +
                       op.getOpName().str() + " at " + describeLoc(loc) +
                       ": " + op.getWhat().str() + ": expected " + condition +
                       ", got " + describeValue(lhsExpr, "%1$lld") + " and " +
                       describeValue(rhsExpr, "%2$lld");
  emitCheckIf(bad, lhs, rhs, format);
  flushChecks();
  return success();
}
/// Reads the values of the staged input as dims: each must be >= 0; a bare
/// unbound variable of the result shape is bound to its value, every other
/// dim is checked against it.
LogicalResult FunctionLowering::lowerTensorToShape(TensorToShapeOp op) {
  Value input = mapping.lookupOrNull(op.getInput());
  if (!input || !isa<MemRefType>(input.getType()))
    return op.emitOpError("input must be a ranked tensor to be read");
  Location loc = op.getLoc();
  std::string site = "tensor_to_shape at " + describeLoc(loc);
  std::string fn = src.getSymName().str();
  Value staging = stageOnHost(input, loc);
  Type i64 = builder.getI64Type();
  Value zero = arith::ConstantIntOp::create(builder, loc, i64, 0);
  const SymShape &shape =
      cast<RelaxShapeType>(op.getResult().getType()).getShape();
  SmallVector<std::string> bound;
  for (auto [i, dim] : llvm::enumerate(shape.getDims())) {
    Value value = loadAsI64(
        staging, arith::ConstantIndexOp::create(builder, loc, i).getResult(),
        loc);
    emitFailure(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      value, zero),
                escapePercent(fn + ": " + site + " element " + Twine(i)) +
                    ": %1$lld is not a valid dim (negative)",
                value, zero);
    if (!dim)
      continue;
    Value asIndex = arith::IndexCastOp::create(builder, loc,
                                               builder.getIndexType(), value);
    if (dim.isVar() && !env.count(dim.getVarName())) {
      env[dim.getVarName()] = asIndex;
      sites[dim.getVarName()] = {site, static_cast<int64_t>(i)};
      bound.push_back(dim.getVarName().str());
      continue;
    }
    Value expected = emitExpr(dim, site + " element " + std::to_string(i));
    if (!expected)
      return op.emitOpError("uses a variable that is not bound");
    emitCheck(asIndex, expected,
              escapePercent(fn + ": " + site + " element " + Twine(i) +
                            ": expected ") +
                  describeValue(dim, "%2$lld") + ", got %1$lld");
  }
  freeStaging(staging, loc);
  checkSymBounds(bound);
  flushChecks();
  return success();
}
/// Scans the index buffer on the host: every value must lie in
/// [-extent, extent) ([0, extent) for unsigned dtypes); with a shape of
/// extents, position j of the last dim (an index tuple) against extent j.
/// The first bad value goes to the runtime's error slot;
/// relax_rt_has_error decides the branch. The scan reads a host staging
/// copy of the indices, so that it also holds where tensors live in device
/// memory (convert-host-memory-to-gpu turns the copy into a device-to-host
/// transfer).
LogicalResult FunctionLowering::lowerAssertIndices(AssertIndicesOp op) {
  Value indices = mapping.lookupOrNull(op.getIndices());
  auto memrefType = dyn_cast_or_null<MemRefType>(
      indices ? indices.getType() : Type());
  if (!memrefType)
    return op.emitOpError("indices must be a ranked tensor to be checked");
  // One extent for every value, or one per tuple position (the last dim).
  SmallVector<sym::Expr> extentExprs;
  auto tuple = dyn_cast<ShapeExprAttr>(op.getExtent());
  if (tuple)
    llvm::append_range(extentExprs, tuple.getShape().getDims());
  else
    extentExprs.push_back(cast<SymExprAttr>(op.getExtent()).getExpr());
  Location loc = op.getLoc();
  Type i64 = builder.getI64Type();
  std::string where =
      (op.getOpName() + " at " + describeLoc(op.getLoc())).str();
  SmallVector<Value> extents;
  SmallVector<std::string> formats;
  for (auto [j, extentExpr] : llvm::enumerate(extentExprs)) {
    Value extent = emitExpr(extentExpr, where + " extent");
    if (!extent)
      return op.emitOpError("uses a variable that is not bound");
    extents.push_back(arith::IndexCastOp::create(builder, loc, i64, extent));
    formats.push_back(src.getSymName().str() + ": " + where + ": index %1$lld" +
                      (tuple ? " (tuple position " + std::to_string(j) + ")"
                             : std::string()) +
                      " is out of range for an axis of " +
                      describeValue(extentExpr, "%2$lld"));
  }
  auto elementType = cast<IntegerType>(memrefType.getElementType());
  bool isUnsigned = elementType.isUnsigned();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value staging = stageOnHost(indices, loc);
  // Loops over every dim but a tuple's last, which is unrolled.
  int64_t loopRank = memrefType.getRank() - (tuple ? 1 : 0);
  SmallVector<Value> ivs;
  {
    OpBuilder::InsertionGuard guard(builder);
    for (int64_t d = 0; d < loopRank; ++d) {
      auto loop = scf::ForOp::create(builder, loc, zero,
                                     dimValue(indices, d), one);
      builder.setInsertionPointToStart(loop.getBody());
      ivs.push_back(loop.getInductionVar());
    }
    for (auto [j, extent64] : llvm::enumerate(extents)) {
      OpBuilder::InsertionGuard positionGuard(builder);
      SmallVector<Value> at(ivs);
      if (tuple)
        at.push_back(arith::ConstantIndexOp::create(builder, loc, j));
      Value v = loadAsI64(staging, at, loc);
      // Unsigned: one unsigned compare. Signed: v < -extent or v >= extent.
      Value bad = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::uge, v, extent64);
      if (!isUnsigned) {
        Value tooHigh = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::sge, v, extent64);
        Value negExtent = arith::SubIOp::create(
            builder, loc, arith::ConstantIntOp::create(builder, loc, i64, 0),
            extent64);
        Value tooLow = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::slt, v, negExtent);
        bad = arith::OrIOp::create(builder, loc, tooHigh, tooLow);
      }
      auto ifOp =
          scf::IfOp::create(builder, loc, bad, /*withElseRegion=*/false);
      builder.setInsertionPointToStart(ifOp.thenBlock());
      reportError(v, extent64, formats[j]);
    }
  }
  freeStaging(staging, loc);
  checkRuntimeErrorSlot(loc);
  flushChecks();
  return success();
}
