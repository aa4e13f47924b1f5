//===- NpyTest.cpp - The .npy reader and writer ---------------------------===//
//
// Round trips for every dtype, the three format versions, and one test per
// malformed-file error: each must be an error naming the file, never a crash,
// a wrapped size or a silently accepted header.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace mlir::relax::exec;

namespace {

/// The message of a failed read, or "" when it succeeded.
std::string errorOf(llvm::Expected<HostTensor> result) {
  if (result)
    return "";
  return llvm::toString(result.takeError());
}

/// A .npy file of format `major`.0 with `header` (padded to 64 bytes with a
/// final newline, as numpy does) followed by `data`.
std::string npyBytes(const std::string &header, const std::string &data,
                     int major = 1) {
  size_t prefix = major == 1 ? 10 : 12;
  std::string padded = header;
  padded.append((64 - (prefix + padded.size() + 1) % 64) % 64, ' ');
  padded += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += char(major);
  bytes += char(0);
  for (size_t i = 0; i < prefix - 8; ++i)
    bytes += char((padded.size() >> (8 * i)) & 0xff);
  return bytes + padded + data;
}

std::string f32Bytes(std::initializer_list<float> values) {
  std::string s;
  for (float v : values)
    s.append(reinterpret_cast<const char *>(&v), 4);
  return s;
}

const DType allDTypes[] = {DType::F16,  DType::BF16, DType::F32, DType::F64,
                           DType::Bool, DType::I8,   DType::I16, DType::I32,
                           DType::I64,  DType::U8,   DType::U16, DType::U32,
                           DType::U64};

TEST(NpyTest, RoundTripEveryDType) {
  for (DType dtype : allDTypes) {
    SCOPED_TRACE(dtypeName(dtype));
    std::optional<HostTensor> t = HostTensor::zeros(dtype, {2, 3});
    ASSERT_TRUE(t);
    for (int64_t i = 0; i < 6; ++i)
      t->set(i, dtype == DType::Bool ? i % 2 : i + 1);
    llvm::Expected<HostTensor> back = parseNpy(encodeNpy(*t), "t.npy");
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    // bf16 travels as its uint16 bit pattern and reads back as ui16.
    EXPECT_EQ(back->dtype, dtype == DType::BF16 ? DType::U16 : dtype);
    adoptDType(*back, dtype);
    EXPECT_EQ(back->dtype, dtype);
    EXPECT_EQ(back->shape, t->shape);
    EXPECT_EQ(back->data, t->data);
  }
}

TEST(NpyTest, RoundTripThroughAFile) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("relax-npy", "npy", path));
  HostTensor t = *HostTensor::zeros(DType::I64, {3});
  t.set(0, -5);
  t.set(2, 1e15);
  ASSERT_FALSE(bool(writeNpy(path, t)));
  llvm::Expected<HostTensor> back = readNpy(path);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->data, t.data);
  llvm::sys::fs::remove(path);
}

TEST(NpyTest, ScalarsAndEmptyTensors) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{}, {0}, {4, 0, 3}, {1}}) {
    HostTensor t = *HostTensor::zeros(DType::F32, shape);
    llvm::Expected<HostTensor> back = parseNpy(encodeNpy(t), "t.npy");
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->shape, shape);
    EXPECT_EQ(back->data.size(), t.data.size());
  }
}

TEST(NpyTest, FormatVersions) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (2,), }";
  for (int major : {1, 2, 3}) {
    SCOPED_TRACE(major);
    llvm::Expected<HostTensor> t =
        parseNpy(npyBytes(header, f32Bytes({1.5f, -2})), "v.npy");
    ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
    EXPECT_EQ(t->shape, std::vector<int64_t>{2});
    EXPECT_EQ(t->get(0), 1.5);
    EXPECT_EQ(t->get(1), -2);
  }
  EXPECT_EQ(errorOf(parseNpy(npyBytes(header, f32Bytes({1, 2}), 4), "v.npy")),
            "v.npy: not a valid .npy file: unsupported format version 4");
}

TEST(NpyTest, KeysInAnyOrderAndDoubleQuotes) {
  llvm::Expected<HostTensor> t = parseNpy(
      npyBytes("{\"shape\": (1, 2), 'fortran_order': False, 'descr': '<f4'}",
               f32Bytes({1, 2})),
      "o.npy");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->shape, (std::vector<int64_t>{1, 2}));
}

TEST(NpyTest, BadMagic) {
  EXPECT_EQ(errorOf(parseNpy("hello\n", "text.npy")),
            "text.npy: not a valid .npy file: missing the \\x93NUMPY magic");
  EXPECT_EQ(errorOf(parseNpy(std::string("\x93NUMPZ\x01\x00\x10\x00", 10) +
                                 std::string(16, ' '),
                             "z.npy")),
            "z.npy: not a valid .npy file: missing the \\x93NUMPY magic");
}

TEST(NpyTest, TruncatedHeader) {
  std::string full =
      npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
               f32Bytes({1, 2}));
  EXPECT_EQ(errorOf(parseNpy(full.substr(0, 40), "h.npy")),
            "h.npy: not a valid .npy file: truncated header");
  // Version 2.0 with its 4-byte length cut off.
  EXPECT_EQ(
      errorOf(parseNpy(std::string("\x93NUMPY\x02\x00\x40\x00", 10), "h2.npy")),
      "h2.npy: not a valid .npy file: truncated header");
}

TEST(NpyTest, TruncatedData) {
  std::string full =
      npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
               f32Bytes({1, 2}));
  EXPECT_EQ(errorOf(parseNpy(full, "d.npy")),
            "d.npy: not a valid .npy file: expected 12 data bytes, found 8");
}

TEST(NpyTest, UnsupportedDType) {
  for (const char *descr : {"<c8", ">f4", "<U3", "|O"}) {
    SCOPED_TRACE(descr);
    std::string header = std::string("{'descr': '") + descr +
                         "', 'fortran_order': False, 'shape': (1,), }";
    EXPECT_EQ(
        errorOf(parseNpy(npyBytes(header, std::string(16, '\0')), "c.npy")),
        std::string("c.npy: not a valid .npy file: unsupported dtype '") +
            descr + "'");
  }
}

TEST(NpyTest, FortranOrder) {
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': True, "
                                      "'shape': (2, 2), }",
                                      f32Bytes({1, 2, 3, 4})),
                             "f.npy")),
            "f.npy: not a valid .npy file: Fortran-ordered arrays are not "
            "supported");
}

TEST(NpyTest, HeaderNotADict) {
  EXPECT_EQ(errorOf(parseNpy(npyBytes("'descr': '<f4', 'fortran_order': False, "
                                      "'shape': (2,)",
                                      f32Bytes({1, 2})),
                             "nd.npy")),
            "nd.npy: not a valid .npy file: the header is not a Python dict "
            "literal");
  EXPECT_EQ(errorOf(parseNpy(
                npyBytes("['descr', '<f4', 'fortran_order', False, 'shape', "
                         "(2,)]",
                         f32Bytes({1, 2})),
                "list.npy")),
            "list.npy: not a valid .npy file: the header is not a Python "
            "dict literal");
}

TEST(NpyTest, DuplicatedKey) {
  // The second 'shape' would make this 4 elements; it must not be ignored.
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (2,), 'shape': (4,), }",
                                f32Bytes({1, 2, 3, 4})),
                       "dup.npy")),
      "dup.npy: not a valid .npy file: the header has the key 'shape' "
      "twice");
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'descr': '<f8', "
                                "'fortran_order': False, 'shape': (1,), }",
                                f32Bytes({1, 2})),
                       "dup2.npy")),
      "dup2.npy: not a valid .npy file: the header has the key 'descr' "
      "twice");
}

TEST(NpyTest, MissingAndUnknownKeys) {
  EXPECT_EQ(errorOf(parseNpy(
                npyBytes("{'descr': '<f4', 'shape': (2,), }", f32Bytes({1, 2})),
                "m.npy")),
            "m.npy: not a valid .npy file: header lacks descr, fortran_order "
            "or shape");
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (2,), 'extra': 1}",
                                f32Bytes({1, 2})),
                       "u.npy")),
      "u.npy: not a valid .npy file: unexpected header key 'extra'");
}

TEST(NpyTest, MalformedShape) {
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': [2], }",
                                f32Bytes({1, 2})),
                       "s.npy")),
      "s.npy: not a valid .npy file: malformed shape");
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (2, -1), }",
                                f32Bytes({1, 2})),
                       "s.npy")),
      "s.npy: not a valid .npy file: malformed shape entry '-1'");
}

TEST(NpyTest, ElementCountOverflow) {
  // 2^40 * 2^40 wraps to 0 in 64 bits: that must not read as an empty
  // tensor.
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (1099511627776, 1099511627776), }",
                                ""),
                       "big.npy")),
      "big.npy: not a valid .npy file: shape too large");
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (4294967296, 4294967296, 16), }",
                                ""),
                       "big.npy")),
      "big.npy: not a valid .npy file: shape too large");
  EXPECT_EQ(
      errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (99999999999999999999,), }",
                                ""),
                       "big.npy")),
      "big.npy: not a valid .npy file: malformed shape entry "
      "'99999999999999999999'");
}

TEST(NpyTest, ReadMissingFile) {
  std::string message = errorOf(readNpy("/nonexistent/dir/x.npy"));
  EXPECT_NE(message.find("/nonexistent/dir/x.npy: "), std::string::npos)
      << message;
}

TEST(HostTensorTest, CheckedElementCount) {
  EXPECT_EQ(checkedElementCount({}), 1);
  EXPECT_EQ(checkedElementCount({3, 4}), 12);
  EXPECT_EQ(checkedElementCount({int64_t(1) << 62, 0}), 0);
  EXPECT_EQ(checkedElementCount({int64_t(1) << 40}), int64_t(1) << 40);
  EXPECT_FALSE(checkedElementCount({(int64_t(1) << 40) + 1}));
  EXPECT_FALSE(checkedElementCount({int64_t(1) << 32, int64_t(1) << 32}));
  EXPECT_FALSE(checkedElementCount({-1, 2}));
  EXPECT_FALSE(HostTensor::zeros(DType::F32, {int64_t(1) << 62, 4}));
}

} // namespace
