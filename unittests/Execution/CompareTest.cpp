//===- CompareTest.cpp - Comparing tensors against references -------------===//
//
// The edges of the comparison: infinities, NaN, integers beyond float
// precision, booleans, dtype kinds and shapes.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/Compare.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::relax::exec;

namespace {

HostTensor make(DType dtype, std::vector<double> values) {
  HostTensor t = *HostTensor::zeros(dtype, {int64_t(values.size())});
  for (auto [i, v] : llvm::enumerate(values))
    t.set(i, v);
  return t;
}

/// An i64 tensor from exact values (set() goes through double).
HostTensor makeI64(std::vector<int64_t> values) {
  HostTensor t = *HostTensor::zeros(DType::I64, {int64_t(values.size())});
  std::memcpy(t.data.data(), values.data(), values.size() * 8);
  return t;
}

const double inf = std::numeric_limits<double>::infinity();
const double nan = std::numeric_limits<double>::quiet_NaN();

TEST(CompareTest, WithinTolerance) {
  CompareResult r = compareTensors(make(DType::F32, {1.0, 2.0}),
                                   make(DType::F32, {1.000001, 2.0}));
  EXPECT_TRUE(r.matches());
  EXPECT_EQ(r.message("output #0", "the expected file"), "");
}

TEST(CompareTest, WorstElementReported) {
  CompareResult r = compareTensors(make(DType::F32, {1.0, 2.5, 3.1}),
                                   make(DType::F32, {1.0, 2.0, 3.0}));
  EXPECT_EQ(r.kind, CompareResult::Kind::ValueMismatch);
  EXPECT_EQ(r.worstIndex, 1);
  EXPECT_EQ(r.message("output #0", "the expected file"),
            "output #0 does not match (rtol=1e-05, atol=1e-06): worst "
            "element 1: got 2.5, expected 2");
}

TEST(CompareTest, InfinityAgainstFinite) {
  // |inf - 1e30| <= atol + rtol * |1e30| must not hold by accident, nor an
  // infinite reference accept a finite value.
  CompareOptions loose{1.0, 1.0};
  EXPECT_FALSE(
      compareTensors(make(DType::F32, {inf}), make(DType::F32, {1e30}), loose)
          .matches());
  CompareResult r =
      compareTensors(make(DType::F32, {1e30}), make(DType::F32, {inf}), loose);
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(r.worstDistance, inf);
}

TEST(CompareTest, WrongInfinity) {
  CompareResult r =
      compareTensors(make(DType::F64, {-inf}), make(DType::F64, {inf}));
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(r.message("output #0", "the expected file"),
            "output #0 does not match (rtol=1e-05, atol=1e-06): worst "
            "element 0: got -inf, expected inf");
  EXPECT_TRUE(compareTensors(make(DType::F16, {inf, -inf}),
                             make(DType::F16, {inf, -inf}))
                  .matches());
}

TEST(CompareTest, NaN) {
  // numpy.allclose(equal_nan=True): NaN matches NaN, nothing else.
  EXPECT_TRUE(compareTensors(make(DType::F32, {nan}), make(DType::F32, {nan}))
                  .matches());
  CompareResult r =
      compareTensors(make(DType::F32, {0, nan}), make(DType::F32, {0, 1}));
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(r.worstIndex, 1);
  EXPECT_FALSE(
      compareTensors(make(DType::F32, {1}), make(DType::F32, {nan})).matches());
}

TEST(CompareTest, IntegerOffByOneAtInt32Max) {
  // In f32 both values round to 2^31; they must still differ.
  CompareResult r = compareTensors(make(DType::I32, {2147483647}),
                                   make(DType::I32, {2147483646}));
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(r.message("output #0", "the expected file"),
            "output #0 does not match (rtol=1e-05, atol=1e-06): worst "
            "element 0: got 2147483647, expected 2147483646");
  // Tolerances never apply to integers.
  EXPECT_FALSE(compareTensors(make(DType::I32, {100}), make(DType::I32, {101}),
                              CompareOptions{1, 10})
                   .matches());
}

TEST(CompareTest, Int64AboveTwoToThe53) {
  int64_t big = (int64_t(1) << 53) + 1;
  CompareResult r = compareTensors(makeI64({big}), makeI64({int64_t(1) << 53}));
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(r.actualValue, "9007199254740993");
  EXPECT_EQ(r.expectedValue, "9007199254740992");
  EXPECT_TRUE(
      compareTensors(makeI64({big, INT64_MIN}), makeI64({big, INT64_MIN}))
          .matches());
}

TEST(CompareTest, UInt64Extremes) {
  HostTensor a = *HostTensor::zeros(DType::U64, {1});
  HostTensor b = a;
  uint64_t max = UINT64_MAX, below = UINT64_MAX - 1;
  std::memcpy(a.data.data(), &max, 8);
  std::memcpy(b.data.data(), &below, 8);
  CompareResult r = compareTensors(a, b);
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(r.actualValue, "18446744073709551615");
}

TEST(CompareTest, Booleans) {
  EXPECT_TRUE(
      compareTensors(make(DType::Bool, {1, 0}), make(DType::Bool, {1, 0}))
          .matches());
  CompareResult r =
      compareTensors(make(DType::Bool, {1, 0}), make(DType::Bool, {1, 1}));
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(r.worstIndex, 1);
}

TEST(CompareTest, DTypeKindMismatch) {
  CompareResult r =
      compareTensors(make(DType::I32, {1}), make(DType::F32, {1}));
  EXPECT_EQ(r.kind, CompareResult::Kind::DTypeKindMismatch);
  EXPECT_EQ(r.message("output #2", "the expected file"),
            "output #2 has dtype i32 but the expected file has f32");
  EXPECT_FALSE(
      compareTensors(make(DType::F64, {1}), make(DType::Bool, {1})).matches());
  // Same kind, different widths: compared by value.
  EXPECT_TRUE(
      compareTensors(make(DType::I64, {7}), make(DType::I32, {7})).matches());
}

TEST(CompareTest, ShapeMismatch) {
  HostTensor a = *HostTensor::zeros(DType::F32, {2, 3});
  HostTensor b = *HostTensor::zeros(DType::F32, {3, 2});
  CompareResult r = compareTensors(a, b);
  EXPECT_EQ(r.kind, CompareResult::Kind::ShapeMismatch);
  EXPECT_EQ(r.message("output #0", "the expected file"),
            "output #0 has shape [2, 3] but the expected file has [3, 2]");
}

} // namespace
