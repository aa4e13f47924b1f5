//===- relax-opt-fuzzer.cpp - libFuzzer target for relax-opt --------------===//
//
// Feeds arbitrary bytes (seeded with the lit tests' relax/tir/extern IR and
// mutated by libFuzzer) to the MLIR parser with the project's dialects, the
// verifier, and then, for modules made only of relax, tir and extern ops,
// to `--relax-fuse-ops` followed by the CPU pipeline down to the LLVM
// dialect. Diagnostics and pass failures are fine; what is a bug:
//   - a crash, hang or sanitizer report anywhere;
//   - a pass that succeeds but leaves IR that does not verify (checked after
//     every pass by the instrumentation below, the pass manager's own
//     verifier being off so that the pass is named).
// Built only with -DRELAX_BUILD_FUZZERS=ON and clang; run it with
// scripts/fuzz-relax-opt.sh.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

/// Aborts when a pass that reported success leaves an op that does not
/// verify: the pass produced invalid IR from valid IR.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "relax-opt-fuzzer: pass '" << pass->getArgument()
                 << "' succeeded but left IR that does not verify\n";
    abort();
  }
};

/// Upstream MLIR 22 crashes inside Parser::parseDenseArrayAttr on
/// `array<index ...>` (see docs/development.md); inputs that could reach it
/// are skipped so that the fuzzer does not stop on a known upstream bug.
bool mayReachUpstreamDenseArrayBug(llvm::StringRef text) {
  for (size_t pos = text.find("array"); pos != llvm::StringRef::npos;
       pos = text.find("array", pos + 1)) {
    llvm::StringRef rest = text.drop_front(pos + 5).ltrim();
    if (!rest.consume_front("<"))
      continue;
    rest = rest.ltrim();
    // Integer and float element types are safe; index, and anything else
    // (an alias such as `!t` may stand for index), is skipped.
    bool safe = (rest.starts_with("i") && !rest.starts_with("index")) ||
                rest.starts_with("f") || rest.starts_with("bf");
    if (!safe)
      return true;
  }
  return false;
}

bool onlyProjectDialects(ModuleOp module) {
  bool only = true;
  module->walk([&](Operation *op) {
    llvm::StringRef ns = op->getName().getDialectNamespace();
    if (ns != "relax" && ns != "tir" && ns != "extern" &&
        !isa<ModuleOp>(op)) {
      only = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return only;
}

MLIRContext &getContext() {
  // One context for the whole run: creating one per input would dominate
  // the time. Threading is off so every input runs the same code path.
  static MLIRContext *context = [] {
    relax::registerAllPasses();
    DialectRegistry registry;
    relax::registerAllDialects(registry);
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    // Diagnostics are expected for most inputs: drop them.
    ctx->getDiagEngine().registerHandler([](Diagnostic &) {});
    return ctx;
  }();
  return *context;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer reads up to a terminating NUL (as any file it loads has):
  // libFuzzer's buffer has none, so the text is copied into one that does.
  std::string source(reinterpret_cast<const char *>(data), size);
  if (mayReachUpstreamDenseArrayBug(source))
    return 0;
  MLIRContext &context = getContext();
  ParserConfig config(&context);
  auto buffer = llvm::MemoryBuffer::getMemBuffer(
      source, "fuzz.mlir", /*RequiresNullTerminator=*/true);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, config);
  // parseSourceString verifies what it returns.
  if (!module || !onlyProjectDialects(*module))
    return 0;

  PassManager pm(&context, ModuleOp::getOperationName());
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  relax::FuseOpsPipelineOptions fuseOptions;
  relax::buildFuseOpsPipeline(pm, fuseOptions);
  relax::LowerToCPUOptions cpuOptions;
  relax::buildLowerToCPUFromRelaxPipeline(pm, cpuOptions);
  (void)pm.run(*module);
  return 0;
}
