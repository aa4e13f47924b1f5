//===- LoadBoolsAsBytes.cpp - Bool loads that test the whole byte ---------===//
//
// A relax bool tensor stores one byte per element (as numpy, ONNX and the C
// API do). LLVM loads an i1 from such a byte by truncation: 2 reads as false,
// so a relax.if on a condition byte of 2 took the else branch. Loading the
// byte and comparing it with zero gives numpy's meaning (any non-zero byte is
// true) to every bool read, host or kernel, whatever produced the load.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/BoolLoads/LoadBoolsAsBytes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_LOADBOOLSASBYTES
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;

namespace {
/// The byte form of an i1 or vector-of-i1 type, or null for other types.
Type byteForm(Type type) {
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  if (auto vector = dyn_cast<VectorType>(type);
      vector && vector.getElementType().isInteger(1))
    return vector.clone(IntegerType::get(type.getContext(), 8));
  return nullptr;
}

struct LoadBoolsAsBytesPass
    : relax::impl::LoadBoolsAsBytesBase<LoadBoolsAsBytesPass> {
  void runOnOperation() override {
    SmallVector<LLVM::LoadOp> loads;
    getOperation()->walk([&](LLVM::LoadOp load) {
      if (byteForm(load.getType()))
        loads.push_back(load);
    });
    for (LLVM::LoadOp load : loads) {
      Type bytes = byteForm(load.getType());
      OpBuilder builder(load);
      Operation *wide = builder.clone(*load.getOperation());
      wide->getResult(0).setType(bytes);
      Value zero = LLVM::ZeroOp::create(builder, load.getLoc(), bytes);
      Value nonZero =
          LLVM::ICmpOp::create(builder, load.getLoc(), LLVM::ICmpPredicate::ne,
                               wide->getResult(0), zero);
      load.getResult().replaceAllUsesWith(nonZero);
      load.erase();
    }
  }
};
} // namespace
