//===- RelaxMLIRPlugin.cpp - relax, tir and extern for upstream mlir-opt --===//
//
// One shared object that is both a dialect plugin and a pass plugin for an
// mlir-opt built against libMLIR.so (Debian's is):
//
//   mlir-opt --load-dialect-plugin=RelaxMLIRPlugin.so \
//            --load-pass-plugin=RelaxMLIRPlugin.so --relax-fuse-ops in.mlir
//
// Both roles live in one object on purpose: the dialects' TypeIDs and the
// pass registrations are defined in the project's static libraries, and two
// plugins would each carry a copy, so relax types parsed through one would
// not be the types the other's passes look for. MLIR itself (context,
// builtin and upstream TypeIDs, the pass registry) is libMLIR.so, which the
// plugin links and mlir-opt has already loaded: one copy in the process.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

using namespace mlir;

/// The dialect plugin also registers the passes, so that one
/// --load-dialect-plugin suffices for parsing and transforming; loaded as
/// both, the plugin registers them once (registerRelaxProjectPasses).
extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RelaxDialects", RELAX_MLIR_VERSION_STRING,
          [](DialectRegistry *registry) {
            relax::registerRelaxProjectDialects(*registry);
            relax::registerRelaxProjectPasses();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RelaxPasses", RELAX_MLIR_VERSION_STRING,
          [] { relax::registerRelaxProjectPasses(); }};
}
