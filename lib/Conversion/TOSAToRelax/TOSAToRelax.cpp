//===- TOSAToRelax.cpp - --convert-tosa-to-relax ---------------------------===//
//
// The way in for TOSA, the dialect torch-mlir and TensorFlow emit for
// inference graphs. A TOSA function is a straight-line graph on tensors:
// each func.func holding TOSA ops becomes one relax.func whose body is one
// relax.dataflow region. The conversion is DialectConversion's, over the
// pattern families of TOSAToRelax.h with TOSA illegal; every relax op is
// built through its own shape inference, so result types carry symbolic
// shapes.
//
// The `?` dims of the arguments become named symbolic variables; from there
// relax's inference carries them (`reshape [n, 4] -> [1, n, 4]`, `matmul`,
// `conv2d`'s output-size expressions). A result dim that inference leaves
// `?` is bound to a fresh variable with relax.match_cast (DESIGN.md: unknown
// dims are bound, not refused).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TOSAToRelax/TOSAToRelax.h"

#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_CONVERTTOSATORELAX
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// Whether `func` has a body with TOSA ops: the functions the pass converts.
static bool holdsTosa(func::FuncOp func) {
  return !func.isExternal() &&
         func.walk([](Operation *op) {
               return isa<tosa::TosaDialect>(op->getDialect())
                          ? WalkResult::interrupt()
                          : WalkResult::advance();
             })
             .wasInterrupted();
}

/// Reports what makes `func` not convert before the conversion runs, in
/// the order of the function: its signature (control flow, arguments, dim
/// names, as the function pattern checks it), then the first op that no
/// pattern converts (the driver's own failure would not say why).
static LogicalResult
checkConvertible(func::FuncOp func, const TosaToRelaxTypeConverter &converter,
                 const llvm::DenseSet<OperationName> &convertible) {
  if (failed(converter.convertArgumentTypes(func)))
    return failure();
  WalkResult result = func.walk([&](Operation *op) {
    if (op == func.getOperation() || convertible.contains(op->getName()) ||
        (isa<func::ReturnOp>(op) && op->getParentOp() == func))
      return WalkResult::advance();
    op->emitOpError("has no conversion to relax (--convert-tosa-to-relax)");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Puts the body of a converted function into one relax.dataflow region:
/// the graph is pure, and fusion works on that form.
static void wrapInDataflow(relax::FuncOp func) {
  Block *body = &func.getBody().front();
  auto ret = cast<relax::ReturnOp>(body->getTerminator());
  Location loc = ret.getLoc();
  OpBuilder b(ret);
  auto dataflow = DataflowOp::create(b, loc, ret.getOperandTypes());
  Block *dfBody = new Block();
  dataflow.getBody().push_back(dfBody);
  dfBody->getOperations().splice(dfBody->end(), body->getOperations(),
                                 body->begin(), Block::iterator(dataflow));
  b.setInsertionPointToEnd(dfBody);
  OutputOp::create(b, loc, ret.getOperands());
  ret->setOperands(dataflow.getResults());
}

namespace {
struct ConvertTOSAToRelax
    : relax::impl::ConvertTOSAToRelaxBase<ConvertTOSAToRelax> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    // Functions with a body that holds TOSA ops; declarations and other
    // functions stay as they are.
    SmallVector<StringAttr> names;
    for (auto f : module.getOps<func::FuncOp>())
      if (holdsTosa(f))
        names.push_back(f.getSymNameAttr());
    if (names.empty())
      return;

    SmallVector<std::string> dimNameList(dimNames.begin(), dimNames.end());
    TosaToRelaxTypeConverter converter(dimNameList);
    RewritePatternSet patterns(context);
    populateTosaToRelaxFunctionPatterns(converter, patterns);
    populateTosaToRelaxElementwisePatterns(converter, patterns);
    populateTosaToRelaxNNPatterns(converter, patterns);
    populateTosaToRelaxShapePatterns(converter, patterns);

    llvm::DenseSet<OperationName> convertible;
    for (const std::unique_ptr<RewritePattern> &p :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = p->getRootKind())
        convertible.insert(*root);
    bool ok = true;
    for (StringAttr name : names)
      ok &= succeeded(checkConvertible(module.lookupSymbol<func::FuncOp>(name),
                                       converter, convertible));
    if (!ok)
      return signalPassFailure();

    ConversionTarget target(*context);
    target.addLegalDialect<RelaxDialect>();
    target.addIllegalDialect<tosa::TosaDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>(
        [](func::FuncOp f) { return !holdsTosa(f); });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [](func::ReturnOp r) { return !isa<relax::FuncOp>(r->getParentOp()); });
    {
      // A pattern that refuses an op says why, at the op; the driver then
      // reports the same op as "failed to legalize", which adds nothing.
      bool explained = false;
      ScopedDiagnosticHandler refusals(context, [&](Diagnostic &diag) {
        if (diag.getSeverity() != DiagnosticSeverity::Error)
          return failure();
        if (explained &&
            StringRef(diag.str()).starts_with("failed to legalize operation"))
          return success();
        explained = true;
        return failure();
      });
      // All or nothing: on failure the driver rolls every function back.
      // The patterns rely on that mode (the default) in one more way: an op
      // they erase (a tosa.const_shape) stays readable until the end, for
      // the ops that read its shape afterwards.
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }

    // The op-by-op translation leaves layout round trips (NHWC -> NCHW ->
    // NHWC between two convolutions), no-op reshapes, constants only a zero
    // point read and weights no longer read: relax's own folders and
    // canonicalization patterns remove them.
    RewritePatternSet cleanup(context);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      if (op.getDialectNamespace() == RelaxDialect::getDialectNamespace())
        op.getCanonicalizationPatterns(cleanup, context);
    FrozenRewritePatternSet frozen(std::move(cleanup));
    // Constants stay where they were built, inside the dataflow region, as
    // the ONNX importer leaves them.
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    for (StringAttr name : names) {
      auto f = module.lookupSymbol<relax::FuncOp>(name);
      wrapInDataflow(f);
      (void)applyPatternsGreedily(f, frozen, config);
    }
  }
};
} // namespace
