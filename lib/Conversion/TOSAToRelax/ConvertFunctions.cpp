//===- ConvertFunctions.cpp - types, functions and constants --------------===//
//
// --convert-tosa-to-relax: the type converter (TOSA tensors to relax
// tensors, and the names of each function's symbolic dims) and the patterns
// for what holds the ops: func.func -> relax.func with named argument dims,
// func.return -> relax.return, tosa.const -> relax.constant, and the shape
// values that only the ops reading them use.
//
//===----------------------------------------------------------------------===//

#include "OpConverter.h"

#include "RelaxDialect/Relax/IR/RelaxDialect.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

//===----------------------------------------------------------------------===//
// Types and names
//===----------------------------------------------------------------------===//

TosaToRelaxTypeConverter::TosaToRelaxTypeConverter(
    ArrayRef<std::string> dimNames)
    : dimNames(dimNames) {
  // A dtype relax does not have makes the conversion fail (null type).
  auto silent = [] { return InFlightDiagnostic(); };
  addConversion([=](RankedTensorType t) -> Type {
    SmallVector<Expr> dims;
    for (int64_t d : t.getShape())
      dims.push_back(ShapedType::isDynamic(d) ? Expr() : Expr::constant(d));
    return RelaxTensorType::getChecked(silent, SymShape(dims),
                                       t.getElementType());
  });
  addConversion([=](UnrankedTensorType t) -> Type {
    return RelaxTensorType::getChecked(silent, SymShape::unranked(),
                                       t.getElementType());
  });
}

/// Whether the symbolic parser reads `name` back as one variable.
static bool isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

FailureOr<SmallVector<Type>>
TosaToRelaxTypeConverter::convertArgumentTypes(func::FuncOp func) const {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("has control flow (more than one block); only "
                            "straight-line TOSA functions convert"),
           failure();
  SmallVector<Type> types;
  size_t nextName = 0;
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt)
      return func.emitOpError("argument ")
             << i << " has type " << t
             << "; only ranked tensors convert to relax",
             failure();
    SmallVector<Expr> dims;
    for (auto [j, d] : llvm::enumerate(rt.getShape())) {
      if (!ShapedType::isDynamic(d)) {
        dims.push_back(Expr::constant(d));
        continue;
      }
      std::string name = nextName < dimNames.size()
                             ? dimNames[nextName++]
                             : "arg" + std::to_string(i) + "_d" +
                                   std::to_string(j);
      if (!isIdentifier(name))
        return func.emitOpError("dim name '")
               << name << "' is not an identifier",
               failure();
      dims.push_back(Expr::var(name));
    }
    // The relax type's own check, with its reason (i4, i48, complex).
    auto relaxType = RelaxTensorType::getChecked(
        [&] {
          return func.emitOpError("argument ") << i << " of type " << t
                                               << ": ";
        },
        SymShape(dims), rt.getElementType());
    if (!relaxType)
      return failure();
    types.push_back(relaxType);
  }
  return types;
}

void TosaToRelaxTypeConverter::declareNames(Operation *scope,
                                            TypeRange types) const {
  ScopeNames &names = scopes[scope];
  for (Type t : types)
    if (auto tensor = dyn_cast<RelaxTensorType>(t))
      for (const std::string &v : tensor.getShape().getVars())
        names.used.insert(v);
}

std::string TosaToRelaxTypeConverter::freshVar(Operation *scope) const {
  ScopeNames &names = scopes[scope];
  while (true) {
    std::string name = "v" + std::to_string(names.next++);
    if (names.used.insert(name).second)
      return name;
  }
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

namespace {
/// A func.func of TOSA ops becomes a relax.func of the same name over the
/// same body, its arguments named; the result types follow from the
/// converted func.return.
struct FuncPattern : OpConversionPattern<func::FuncOp> {
  FuncPattern(const TosaToRelaxTypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<func::FuncOp>(context), converter(converter) {}

  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Type>> argTypes =
        converter.convertArgumentTypes(func);
    if (failed(argTypes))
      return failure();
    auto rfunc = relax::FuncOp::create(
        rewriter, func.getLoc(), func.getSymName(),
        rewriter.getFunctionType(*argTypes, {}));
    if (StringAttr visibility = func.getSymVisibilityAttr())
      rfunc.setSymVisibilityAttr(visibility);
    converter.declareNames(rfunc, *argTypes);
    Block &tosaBody = func.getBody().front();
    SmallVector<Location> argLocs;
    for (BlockArgument arg : tosaBody.getArguments())
      argLocs.push_back(arg.getLoc());
    Block *body =
        rewriter.createBlock(&rfunc.getBody(), {}, *argTypes, argLocs);
    rewriter.inlineBlockBefore(&tosaBody, body, body->end(),
                               body->getArguments());
    rewriter.eraseOp(func);
    return success();
  }

  const TosaToRelaxTypeConverter &converter;
};

/// The results of the function are the returned values, with the types
/// relax inferred for them.
struct ReturnPattern : OpConversionPattern<func::ReturnOp> {
  ReturnPattern(const TosaToRelaxTypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<func::ReturnOp>(context), converter(converter) {}

  LogicalResult
  matchAndRewrite(func::ReturnOp ret, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getOperands().empty())
      return ret.emitOpError("returns nothing: a relax function has results");
    OpConverter c(ret, rewriter, converter);
    FailureOr<SmallVector<Value>> results = c.operands(adaptor.getOperands());
    if (failed(results))
      return failure();
    auto rfunc = cast<relax::FuncOp>(ret->getParentOp());
    rewriter.modifyOpInPlace(rfunc, [&] {
      rfunc.setFunctionType(rewriter.getFunctionType(
          rfunc.getArgumentTypes(), ValueRange(*results).getTypes()));
    });
    rewriter.replaceOpWithNewOp<relax::ReturnOp>(ret, *results);
    return success();
  }

  const TosaToRelaxTypeConverter &converter;
};

/// A constant is a relax.constant of the same value (a dtype relax does not
/// have is an error at it). One that only a zero point or a shift reads is
/// left unused, and the pass's cleanup removes it.
struct ConstPattern : TosaToRelaxPattern<tosa::ConstOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::ConstOp op, OpAdaptor,
                        OpConverter &c) const override {
    return c.replace(c.build<ConstantOp>({}, {c.named("value", op.getValues())}));
  }
};

/// tosa.const_shape and TOSA's shape arithmetic (tosa.dim, add_shape, ...)
/// have no relax value: an op that takes a shape reads it from its
/// tosa.const_shape (OpConverter::constShape), which still stands while the
/// conversion runs, and refuses one computed from run-time dims.
template <typename ShapeOp>
struct EraseShapePattern : OpConversionPattern<ShapeOp> {
  using OpConversionPattern<ShapeOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ShapeOp op, typename ShapeOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::relax::populateTosaToRelaxFunctionPatterns(
    TosaToRelaxTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<FuncPattern, ReturnPattern, ConstPattern>(converter, context);
  patterns.add<
      EraseShapePattern<tosa::ConstShapeOp>, EraseShapePattern<tosa::DimOp>,
      EraseShapePattern<tosa::AddShapeOp>, EraseShapePattern<tosa::SubShapeOp>,
      EraseShapePattern<tosa::MulShapeOp>,
      EraseShapePattern<tosa::DivCeilShapeOp>,
      EraseShapePattern<tosa::DivFloorShapeOp>,
      EraseShapePattern<tosa::ModShapeOp>, EraseShapePattern<tosa::MaxShapeOp>,
      EraseShapePattern<tosa::MinShapeOp>,
      EraseShapePattern<tosa::ConcatShapeOp>,
      EraseShapePattern<tosa::SliceShapeOp>,
      EraseShapePattern<tosa::Exp2ShapeOp>,
      EraseShapePattern<tosa::Log2CeilShapeOp>,
      EraseShapePattern<tosa::Log2FloorShapeOp>>(context);
}
