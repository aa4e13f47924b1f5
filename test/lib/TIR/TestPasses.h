//===- TestPasses.h - Registration of the tir test passes -------*- C++ -*-===//
//
// Test-only passes are registered by the tools that link RelaxTestTIR
// (relax-opt, when RELAX_INCLUDE_TESTS is on); the production libraries do
// not know about them.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_TEST_LIB_TIR_TESTPASSES_H
#define RELAX_TEST_LIB_TIR_TESTPASSES_H

namespace mlir {
namespace relax {
namespace test {

/// `--tir-test-schedule`: applies the `tir.schedule` steps of each prim_func.
void registerTestTIRSchedulePass();
/// `--tir-test-gpu-as-serial`: GPU-scheduled tir programs run serially.
void registerTestTIRGPUAsSerialPass();

/// Every tir test pass.
inline void registerTestTIRPasses() {
  registerTestTIRSchedulePass();
  registerTestTIRGPUAsSerialPass();
}

} // namespace test
} // namespace relax
} // namespace mlir

#endif // RELAX_TEST_LIB_TIR_TESTPASSES_H
