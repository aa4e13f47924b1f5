//===- CompiledModuleTest.cpp - Calling a JIT-compiled module from C++ ----===//
//
// A relax module compiled once and called several times with different
// symbolic sizes, its signature, the runtime's error for inconsistent
// shapes, and the seeded random inputs.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/CompiledModule.h"
#include "RelaxDialect/Execution/Benchmark.h"
#include "RelaxDialect/Execution/RandomInputs.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace mlir::relax::exec;

namespace {

const char *addModule = R"mlir(
relax.func @add(%x: !relax.tensor<[n], f32> {relax.name = "x"},
                %y: !relax.tensor<[n], f32> {relax.name = "y"}) -> !relax.tensor<[n], f32> {
  %z = relax.add %x, %y : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %z : !relax.tensor<[n], f32>
}
relax.func @scale(%x: !relax.tensor<[m, 2], i32>) -> !relax.tensor<[m, 2], i32> {
  %z = relax.add %x, %x : (!relax.tensor<[m, 2], i32>, !relax.tensor<[m, 2], i32>) -> !relax.tensor<[m, 2], i32>
  relax.return %z : !relax.tensor<[m, 2], i32>
}
)mlir";

CompileOptions testOptions() {
  CompileOptions options;
  options.runtimeLibraryPath = RELAX_TEST_RUNTIME_LIBRARY;
  return options;
}

HostTensor vector(std::vector<double> values) {
  HostTensor t = *HostTensor::zeros(DType::F32, {int64_t(values.size())});
  for (auto [i, v] : llvm::enumerate(values))
    t.set(i, v);
  return t;
}

/// One module for the whole suite: compiling is the slow part.
class CompiledModuleTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto compiled =
        CompiledModule::compileSource(addModule, "add.mlir", testOptions());
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    module = std::move(*compiled);
  }
  static void TearDownTestSuite() { module.reset(); }
  static std::unique_ptr<CompiledModule> module;
};
std::unique_ptr<CompiledModule> CompiledModuleTest::module;

TEST_F(CompiledModuleTest, CompiledOnceCalledWithDifferentSizes) {
  ASSERT_TRUE(module && module->isCompiled());
  auto three = module->invoke("add", {vector({1, 2, 3}), vector({10, 20, 30})});
  ASSERT_TRUE(bool(three)) << llvm::toString(three.takeError());
  ASSERT_EQ(three->size(), 1u);
  EXPECT_EQ((*three)[0].shape, std::vector<int64_t>{3});
  EXPECT_EQ((*three)[0].get(0), 11);
  EXPECT_EQ((*three)[0].get(2), 33);

  auto five = module->invoke(
      "add", {vector({1, 2, 3, 4, 5}), vector({0.5, 0.5, 0.5, 0.5, 0.5})});
  ASSERT_TRUE(bool(five)) << llvm::toString(five.takeError());
  EXPECT_EQ((*five)[0].shape, std::vector<int64_t>{5});
  EXPECT_EQ((*five)[0].get(4), 5.5);
}

TEST_F(CompiledModuleTest, Signature) {
  auto sig = module->getSignature("add");
  ASSERT_TRUE(bool(sig)) << llvm::toString(sig.takeError());
  ASSERT_EQ(sig->params.size(), 2u);
  ASSERT_EQ(sig->results.size(), 1u);
  EXPECT_EQ(sig->params[0].dtype, DType::F32);
  EXPECT_EQ(sig->params[0].staticSizes[0], mlir::ShapedType::kDynamic);
  EXPECT_EQ(sig->spec.params[0].dims, (std::vector<std::string>{"n"}));

  auto missing = module->getSignature("nope");
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "no function 'nope' in add.mlir");
}

TEST_F(CompiledModuleTest, PreparedCallRunsRepeatedly) {
  auto call = module->prepareCall("add", {vector({1}), vector({2})});
  ASSERT_TRUE(bool(call)) << llvm::toString(call.takeError());
  for (int i = 0; i < 3; ++i) {
    ASSERT_FALSE(bool((*call)->run()));
    auto outputs = (*call)->readOutputs();
    ASSERT_TRUE(bool(outputs));
    EXPECT_EQ((*outputs)[0].get(0), 3);
  }
  (*call)->releaseOutputs();
  EXPECT_FALSE(bool((*call)->readOutputs())) << "outputs were freed";
  auto times = timeCalls(**call, 3);
  ASSERT_TRUE(bool(times));
  EXPECT_EQ(times->ms.size(), 3u);
  EXPECT_LE(times->min(), times->median());
  // Kernel timing needs the GPU.
  EXPECT_FALSE(bool(timeGPUKernels(**call, 1)));
}

TEST_F(CompiledModuleTest, RuntimeShapeErrorIsReturned) {
  // n is 2 from x but y has 3 elements: the compiled code's shape check.
  auto result = module->invoke("add", {vector({1, 2}), vector({1, 2, 3})});
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "add: n = 2 from 'x' dim 0, but 'y' dim 0 = n is 3");
  // The module still works afterwards.
  auto ok = module->invoke("add", {vector({1}), vector({1})});
  ASSERT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
}

TEST_F(CompiledModuleTest, InputsAreChecked) {
  auto wrongCount = module->invoke("add", {vector({1})});
  ASSERT_FALSE(bool(wrongCount));
  EXPECT_EQ(llvm::toString(wrongCount.takeError()),
            "'add' takes 2 inputs, got 1");
  HostTensor ints = *HostTensor::zeros(DType::I32, {1});
  auto wrongDType = module->invoke("add", {vector({1}), ints});
  ASSERT_FALSE(bool(wrongDType));
  EXPECT_EQ(llvm::toString(wrongDType.takeError()),
            "input #1 has dtype i32 but 'add' expects f32");
}

TEST_F(CompiledModuleTest, RandomInputsFromSymbolicDims) {
  auto sig = module->getSignature("scale");
  ASSERT_TRUE(bool(sig));
  llvm::StringMap<int64_t> dims;
  dims["m"] = 3;
  auto inputs = makeRandomInputs(*module, "scale", dims, /*seed=*/7);
  ASSERT_TRUE(bool(inputs)) << llvm::toString(inputs.takeError());
  ASSERT_EQ(inputs->size(), 1u);
  EXPECT_EQ((*inputs)[0].shape, (std::vector<int64_t>{3, 2}));
  // Same seed, same data.
  auto again = makeRandomInputs(*module, "scale", dims, 7);
  EXPECT_EQ((*again)[0].data, (*inputs)[0].data);
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_GE((*inputs)[0].getExact(i), 0);
    EXPECT_LE((*inputs)[0].getExact(i), 9);
  }
  auto outputs = module->invoke("scale", *inputs);
  ASSERT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ((*outputs)[0].getExact(i), 2 * (*inputs)[0].getExact(i));
}

TEST_F(CompiledModuleTest, RandomInputsRefuseHugeAndUnboundDims) {
  auto sig = module->getSignature("scale");
  ASSERT_TRUE(bool(sig));
  llvm::StringMap<int64_t> none;
  auto unbound = makeRandomInputs(*module, "scale", none, 0);
  ASSERT_FALSE(bool(unbound));
  EXPECT_EQ(llvm::toString(unbound.takeError()),
            "parameter #0 dim 0 is m: bind m with --dim m=<value>");
  llvm::StringMap<int64_t> misspelled;
  misspelled["q"] = 3;
  llvm::Error unknown = checkDimNames(*sig, misspelled);
  EXPECT_EQ(llvm::toString(std::move(unknown)),
            "--dim q: 'scale' has no symbolic variable 'q' (its variables: "
            "m)");
  llvm::StringMap<int64_t> known;
  known["m"] = 3;
  EXPECT_FALSE(bool(checkDimNames(*sig, known)));
  llvm::StringMap<int64_t> huge;
  huge["m"] = int64_t(1) << 62; // [2^62, 2] overflows int64
  auto tooBig = makeRandomInputs(*module, "scale", huge, 0);
  ASSERT_FALSE(bool(tooBig));
  EXPECT_EQ(llvm::toString(tooBig.takeError()),
            "parameter #0: shape [4611686018427387904, 2] has too many "
            "elements (more than 2^40)");
}

TEST(CompiledModuleLoadTest, ParseErrorIsDiagnosed) {
  auto module =
      CompiledModule::loadSource("relax.func @f(", "bad.mlir", testOptions());
  ASSERT_FALSE(bool(module));
  bool diagnosed = false;
  llvm::handleAllErrors(module.takeError(),
                        [&](const DiagnosedError &) { diagnosed = true; });
  EXPECT_TRUE(diagnosed);
}

TEST(CompiledModuleLoadTest, SignatureBeforeJIT) {
  CompileOptions options = testOptions();
  options.entries = {"scale"};
  auto module = CompiledModule::loadSource(addModule, "add.mlir", options);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  EXPECT_FALSE((*module)->isCompiled());
  auto sig = (*module)->getSignature("scale");
  ASSERT_TRUE(bool(sig)) << llvm::toString(sig.takeError());
  EXPECT_EQ(sig->params[0].dtype, DType::I32);
  EXPECT_EQ(sig->spec.params[0].dims, (std::vector<std::string>{"m", "2"}));
  EXPECT_EQ(sig->spec.shapeFunction, "scale__shapes");
  // Only the listed entries can be called.
  auto other = (*module)->getSignature("add");
  ASSERT_FALSE(bool(other));
  llvm::consumeError(other.takeError());
}

/// A module with a weight large enough to leave the code: 300 f32 = 1200
/// bytes, a splat so the test needs no blob.
const char *weightModule = R"mlir(
relax.func @main(%x: !relax.tensor<[n, 300], f32>) -> !relax.tensor<[n, 300], f32> {
  %w = relax.constant dense<1.5> : tensor<300xf32>
  %y = relax.multiply %x, %w : (!relax.tensor<[n, 300], f32>, !relax.tensor<[300], f32>) -> !relax.tensor<[n, 300], f32>
  relax.return %y : !relax.tensor<[n, 300], f32>
}
)mlir";

/// Ahead of time through the library API: export, open again, call at two
/// sizes; the results equal the JIT's.
TEST(CompiledLibraryTest, ExportOpenAndCall) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("relax-lib", dir));
  llvm::SmallString<128> so(dir), params(dir);
  llvm::sys::path::append(so, "weights.so");
  llvm::sys::path::append(params, "weights.params");

  auto module =
      CompiledModule::loadSource(weightModule, "weights.mlir", testOptions());
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  LibraryOptions options;
  options.outputPath = std::string(so);
  std::vector<std::pair<std::string, double>> timings;
  options.timings = &timings;
  llvm::Error err = (*module)->exportLibrary(options);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_FALSE(timings.empty());
  EXPECT_TRUE(llvm::sys::fs::exists(params)); // the default name
  // The module was consumed.
  llvm::Error again = (*module)->jit();
  EXPECT_TRUE(bool(again));
  llvm::consumeError(std::move(again));

  auto library = CompiledModule::openLibrary(so, "");
  ASSERT_TRUE(bool(library)) << llvm::toString(library.takeError());
  EXPECT_TRUE((*library)->isCompiled());
  auto sig = (*library)->getSignature("main");
  ASSERT_TRUE(bool(sig)) << llvm::toString(sig.takeError());
  EXPECT_EQ(sig->spec.params[0].dims,
            (std::vector<std::string>{"n", "300"}));
  // Sized by the library's shape function.
  llvm::StringMap<int64_t> dims;
  dims["n"] = 3;
  auto random = makeRandomInputs(**library, "main", dims, 1);
  ASSERT_TRUE(bool(random)) << llvm::toString(random.takeError());
  EXPECT_EQ((*random)[0].shape, (std::vector<int64_t>{3, 300}));
  for (int64_t n : {1, 4}) {
    HostTensor x = *HostTensor::zeros(DType::F32, {n, 300});
    for (int64_t i = 0; i < x.numElements(); ++i)
      x.set(i, i % 7);
    auto out = (*library)->invoke("main", {x});
    ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
    ASSERT_EQ((*out)[0].shape, (std::vector<int64_t>{n, 300}));
    for (int64_t i = 0; i < x.numElements(); ++i)
      ASSERT_EQ((*out)[0].get(i), 1.5 * (i % 7)) << "n = " << n;
  }
  // One open per process and library.
  auto second = CompiledModule::openLibrary(so, "");
  ASSERT_FALSE(bool(second));
  EXPECT_NE(llvm::toString(second.takeError()).find("already open"),
            std::string::npos);
  library->reset();
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
