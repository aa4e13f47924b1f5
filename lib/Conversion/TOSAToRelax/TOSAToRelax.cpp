//===- TOSAToRelax.cpp - --convert-tosa-to-relax ---------------------------===//
//
// The way in for TOSA, the dialect torch-mlir and TensorFlow emit for
// inference graphs. A TOSA function is a straight-line graph on tensors, so
// each func.func becomes one relax.func whose body is a relax.dataflow
// region, op by op, in order. No dialect conversion framework: every relax
// op is built through its own shape inference (relax result types are
// symbolic shapes, which TOSA's `?` cannot express), and an op relax cannot
// type is reported where it stands instead of being rolled back.
//
// The `?` dims of the arguments become named symbolic variables; from there
// relax's inference carries them (`reshape [n, 4] -> [1, n, 4]`, `matmul`,
// `conv2d`'s output-size expressions). A result dim that inference leaves
// `?` is bound to a fresh variable with relax.match_cast (DESIGN.md: unknown
// dims are bound, not refused).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TOSAToRelax/TOSAToRelax.h"

#include "FunctionConverter.h"

#include "RelaxDialect/Relax/IR/BuildInferred.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"
#include "RelaxDialect/Support/SymShape.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTTOSATORELAX
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

LogicalResult FunctionConverter::convertReturn(func::ReturnOp ret,
                                               relax::FuncOp rfunc,
                                               Block *body) {
  SmallVector<Value> results;
  for (Value v : ret.getOperands()) {
    FailureOr<Value> r = get(v, ret);
    if (failed(r))
      return failure();
    results.push_back(*r);
  }
  if (results.empty())
    return ret.emitOpError("returns nothing: a relax function has results");
  // The graph is pure: its ops go into one relax.dataflow region, the form
  // fusion works on.
  Location loc = ret.getLoc();
  TypeRange resultTypes = ValueRange(results).getTypes();
  b.setInsertionPointToEnd(body);
  auto dataflow = DataflowOp::create(b, loc, resultTypes);
  Block *dfBody = new Block();
  dataflow.getBody().push_back(dfBody);
  dfBody->getOperations().splice(dfBody->end(), body->getOperations(),
                                 body->begin(), Block::iterator(dataflow));
  b.setInsertionPointToEnd(dfBody);
  OutputOp::create(b, loc, results);
  b.setInsertionPointToEnd(body);
  ReturnOp::create(b, loc, dataflow.getResults());
  rfunc.setFunctionType(
      b.getFunctionType(body->getArgumentTypes(), resultTypes));
  return success();
}

FailureOr<relax::FuncOp> FunctionConverter::run() {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("has control flow (more than one block); only "
                            "straight-line TOSA functions convert"),
           failure();
  FunctionType type = func.getFunctionType();
  SmallVector<Type> argTypes;
  size_t nextName = 0;
  for (auto [i, t] : llvm::enumerate(type.getInputs())) {
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
      // The symbolic parser must read the name back.
      if (name.empty() || !(std::isalpha(name[0]) || name[0] == '_') ||
          !llvm::all_of(name, [](char c) {
            return std::isalnum(c) || c == '_';
          }))
        return func.emitOpError("dim name '")
               << name << "' is not an identifier",
               failure();
      varNames.insert(name);
      dims.push_back(Expr::var(name));
    }
    // A dtype relax does not have (i4, i48, complex) is an error here.
    auto relaxType = RelaxTensorType::getChecked(
        [&] {
          return func.emitOpError("argument ") << i << " of type " << t
                                               << ": ";
        },
        SymShape(dims), rt.getElementType());
    if (!relaxType)
      return failure();
    argTypes.push_back(relaxType);
  }
  auto rfunc = relax::FuncOp::create(b, func.getLoc(), func.getSymName(),
                                     b.getFunctionType(argTypes, {}));
  if (auto vis = func.getSymVisibilityAttr())
    rfunc.setSymVisibilityAttr(vis);
  Block *body = rfunc.addEntryBlock();
  Block &tosaBody = func.getBody().front();
  for (auto [tosaArg, arg] :
       llvm::zip(tosaBody.getArguments(), body->getArguments()))
    values[tosaArg] = arg;
  b.setInsertionPointToEnd(body);
  for (Operation &op : tosaBody) {
    LogicalResult converted =
        isa<func::ReturnOp>(op)
            ? convertReturn(cast<func::ReturnOp>(op), rfunc, body)
            : convertOp(&op);
    if (failed(converted)) {
      rfunc.erase();
      return failure();
    }
  }
  return rfunc;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTOSAToRelax
    : relax::impl::ConvertTOSAToRelaxBase<ConvertTOSAToRelax> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Functions with a body that holds TOSA ops; declarations and other
    // functions stay as they are.
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal())
        continue;
      bool hasTosa = f.walk([](Operation *op) {
                        return isa<tosa::TosaDialect>(op->getDialect())
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      }).wasInterrupted();
      if (hasTosa)
        funcs.push_back(f);
    }
    SmallVector<relax::FuncOp> converted;
    bool ok = true;
    for (func::FuncOp f : funcs) {
      FunctionConverter conv(f, dimNames);
      FailureOr<relax::FuncOp> r = conv.run();
      if (failed(r)) {
        ok = false;
        continue;
      }
      converted.push_back(*r);
    }
    if (!ok) {
      // All or nothing: the module stays as it was.
      for (relax::FuncOp r : converted)
        r.erase();
      return signalPassFailure();
    }
    for (func::FuncOp f : funcs)
      f.erase();
    // The op-by-op translation leaves layout round trips (NHWC -> NCHW ->
    // NHWC between two convolutions), no-op reshapes and weights no longer
    // read: relax's own folders and canonicalization patterns remove them.
    RewritePatternSet patterns(&getContext());
    for (RegisteredOperationName op :
         getContext().getRegisteredOperations())
      if (op.getDialectNamespace() ==
          RelaxDialect::getDialectNamespace())
        op.getCanonicalizationPatterns(patterns, &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Constants stay where they were built, inside the dataflow region, as
    // the ONNX importer leaves them.
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    for (relax::FuncOp f : converted)
      (void)applyPatternsGreedily(f, frozen, config);
  }
};
} // namespace
