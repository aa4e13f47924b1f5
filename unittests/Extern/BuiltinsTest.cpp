//===- BuiltinsTest.cpp - The built-in library catalogue ------------------===//
//
// getOrCreateBuiltin is a C++ API: the passes that call it ask
// whyUnsupported first, so its refusal of an unsupported spec is reached
// only from C++, and is tested here. Also: a supported spec is declared once
// and found again, named after its runtime symbol.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Extern/IR/Builtins.h"
#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
class BuiltinsTest : public ::testing::Test {
protected:
  BuiltinsTest() {
    context.loadDialect<ext::ExternDialect, relax::RelaxDialect>();
    module = ModuleOp::create(UnknownLoc::get(&context));
  }
  ~BuiltinsTest() override { module->erase(); }

  /// The errors emitted while `fn` runs, one string each.
  template <typename Fn>
  std::vector<std::string> errorsOf(Fn fn) {
    std::vector<std::string> errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        errors.push_back(diag.str());
      return success();
    });
    fn();
    return errors;
  }

  MLIRContext context;
  ModuleOp module;
};
} // namespace

TEST_F(BuiltinsTest, UnsupportedSpecIsAnErrorAtTheModule) {
  ext::BuiltinSpec spec;
  spec.kind = ext::BuiltinKind::Conv2D;
  spec.target = ext::BuiltinTarget::CUDA;
  spec.dtype = Float32Type::get(&context);
  std::string why = ext::whyUnsupported(spec);
  ASSERT_FALSE(why.empty());
  FailureOr<ext::FuncOp> decl;
  std::vector<std::string> errors =
      errorsOf([&] { decl = ext::getOrCreateBuiltin(module, spec); });
  EXPECT_TRUE(failed(decl));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "no built-in library function: " + why);
  // Nothing was declared.
  EXPECT_TRUE(module.getBody()->empty());
}

TEST_F(BuiltinsTest, SupportedSpecIsDeclaredOnce) {
  ext::BuiltinSpec spec;
  spec.dtype = Float32Type::get(&context);
  ASSERT_TRUE(ext::whyUnsupported(spec).empty());
  FailureOr<ext::FuncOp> first, second;
  std::vector<std::string> errors = errorsOf([&] {
    first = ext::getOrCreateBuiltin(module, spec);
    second = ext::getOrCreateBuiltin(module, spec);
  });
  EXPECT_TRUE(errors.empty());
  ASSERT_TRUE(succeeded(first));
  ASSERT_TRUE(succeeded(second));
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(first->getSymName(), *ext::getBuiltinLinkName(spec));
  EXPECT_EQ(llvm::range_size(module.getBody()->getOperations()), 1u);
}
