//===- RelaxDialect.cpp - relax dialect, types and attributes -------------===//

#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.h"
#include "RelaxDialect/Relax/IR/RelaxShardAttr.h"
#include "RelaxDialect/Symbolic/SymbolicTree.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relax;

#include "RelaxDialect/Relax/IR/RelaxOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "RelaxDialect/Relax/IR/RelaxOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "RelaxDialect/Relax/IR/RelaxAttrs.cpp.inc"

namespace {
/// Relax functions are pure graph code: any call may be inlined, and relax
/// ops may be moved into any relax region.
struct RelaxInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto ret = dyn_cast<ReturnOp>(op);
    if (!ret)
      return;
    for (auto [from, to] : llvm::zip(valuesToRepl, ret.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void RelaxDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "RelaxDialect/Relax/IR/RelaxOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.cpp.inc"
      >();
  addInterfaces<RelaxInlinerInterface>();
}

void RelaxDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "RelaxDialect/Relax/IR/RelaxOpsTypes.cpp.inc"
      >();
}

void RelaxDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "RelaxDialect/Relax/IR/RelaxAttrs.cpp.inc"
      >();
}

bool mlir::relax::isValidDtype(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    bool byteSized = width == 8 || width == 16 || width == 32 || width == 64;
    if (intType.isSignless())
      return width == 1 || byteSized;
    return intType.isUnsigned() && byteSized;
  }
  return false;
}

/// True when a floordiv or mod in `tree` has the constant divisor 0: the
/// symbolic engine keeps such terms unevaluated, and the dim has no value.
static bool hasZeroDivisor(const sym::Tree &tree) {
  using Kind = sym::Tree::Kind;
  if ((tree.kind == Kind::FloorDiv || tree.kind == Kind::Mod) &&
      tree.operands.size() == 2 && tree.operands[1].kind == Kind::Constant &&
      tree.operands[1].value == 0)
    return true;
  return llvm::any_of(tree.operands, hasZeroDivisor);
}

LogicalResult
RelaxTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                        SymShape shape, Type dtype) {
  if (!isValidDtype(dtype))
    return emitError() << "unsupported relax tensor dtype " << dtype
                       << " (expected f16, bf16, f32, f64, i1, i8, i16, i32, "
                          "i64, ui8, ui16, ui32 or ui64)";
  for (const sym::Expr &dim : shape.getDims()) {
    if (dim && dim.getConstant() && *dim.getConstant() < 0)
      return emitError() << "tensor dim must be non-negative, got "
                         << dim.str();
    if (dim && hasZeroDivisor(sym::toTree(dim)))
      return emitError() << "tensor dim " << dim.str()
                         << " divides by the constant 0";
  }
  // The byte size must be countable in int64 (the lowering's index type):
  // the static dims alone must not overflow it.
  int64_t bytes = (dtype.getIntOrFloatBitWidth() + 7) / 8;
  for (const sym::Expr &dim : shape.getDims())
    if (std::optional<int64_t> c = dim ? dim.getConstant() : std::nullopt;
        c && llvm::MulOverflow(bytes, *c, bytes))
      return emitError() << "tensor of shape " << shape.str()
                         << " and dtype " << dtype
                         << " has more bytes than int64 can count";
  return success();
}

// The shape parsers emit their own located errors; parsing by hand avoids the
// generic "failed to parse parameter" follow-up that ODS would add.
Type RelaxTensorType::parse(AsmParser &parser) {
  SymShape shape;
  Type dtype;
  if (parser.parseLess() || parseSymShape(parser, shape) ||
      parser.parseComma() || parser.parseType(dtype) || parser.parseGreater())
    return {};
  return parser.getChecked<RelaxTensorType>(parser.getContext(), shape, dtype);
}

void RelaxTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  printSymShape(printer, getShape());
  printer << ", " << getDtype() << ">";
}

Type RelaxShapeType::parse(AsmParser &parser) {
  SymShape shape;
  if (parser.parseLess() || parseSymShape(parser, shape) ||
      parser.parseGreater())
    return {};
  return RelaxShapeType::get(parser.getContext(), shape);
}

void RelaxShapeType::print(AsmPrinter &printer) const {
  printer << "<";
  printSymShape(printer, getShape());
  printer << ">";
}
