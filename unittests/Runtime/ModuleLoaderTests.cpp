//===- ModuleLoaderTests.cpp - Parameter files, metadata, packed calls ----===//
//
// The parts of the module loader that need no compiled library: the
// safetensors round trip and its corruption checks, the metadata's JSON
// round trip, and the descriptors a PackedCall builds; parameter files read
// into huge pages (the same bytes, still read-only) and loaded globals
// collapsed into them.
//
//===----------------------------------------------------------------------===//

#include "HugePageBacking.h"
#include "RelaxDialect/Runtime/ModuleLoader.h"
#include "RelaxDialect/Runtime/ParamFile.h"
#include "RelaxDialect/Runtime/ParamFileWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <csignal>
#include <cstring>

#include <sys/mman.h>

using namespace mlir::relax::rt;

namespace {

/// A temporary file removed at the end of the test.
struct TempFile {
  llvm::SmallString<128> path;
  TempFile() {
    int fd;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("paramfile", "params", fd, path));
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  ~TempFile() { llvm::sys::fs::remove(path); }
  void write(llvm::StringRef bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << bytes;
  }
  std::string read() {
    return (*llvm::MemoryBuffer::getFile(path, false, false))
        ->getBuffer()
        .str();
  }
};

std::string errorOf(const Result<std::unique_ptr<ParamFile>> &file) {
  return file ? "" : file.message();
}

TEST(ParamFileTest, RoundTrip) {
  TempFile tmp;
  std::vector<float> a = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f, 8.0f};
  std::vector<int64_t> b = {-1, 1LL << 40};
  std::vector<ParamToWrite> params = {
      {"a", "F32", {2, 3}, {reinterpret_cast<char *>(a.data()), 24}},
      {"empty", "F16", {0, 4}, {}},
      {"b", "I64", {2}, {reinterpret_cast<char *>(b.data()), 16}}};
  llvm::StringMap<std::string> meta;
  meta["format"] = "test";
  ASSERT_FALSE(llvm::errorToBool(writeParamFile(tmp.path, params, meta)));

  // The data starts 64-byte aligned, right after the padded header.
  std::string bytes = tmp.read();
  uint64_t headerSize;
  std::memcpy(&headerSize, bytes.data(), 8);
  EXPECT_EQ((8 + headerSize) % 64, 0u);
  EXPECT_EQ(bytes.size(), 8 + headerSize + 24 + 16);

  auto file = ParamFile::open(tmp.path.str().str());
  ASSERT_TRUE(static_cast<bool>(file)) << file.message();
  EXPECT_EQ((*file)->entries().size(), 3u);
  EXPECT_EQ((*file)->metadata().at("format"), "test");
  const ParamFile::Entry *ea = (*file)->lookup("a");
  ASSERT_NE(ea, nullptr);
  EXPECT_EQ(ea->dtype, "F32");
  EXPECT_EQ(ea->shape, (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(ea->data.size(), 24u);
  EXPECT_EQ(std::memcmp(ea->data.data(), a.data(), 24), 0);
  const ParamFile::Entry *eb = (*file)->lookup("b");
  ASSERT_NE(eb, nullptr);
  EXPECT_EQ(std::memcmp(eb->data.data(), b.data(), 16), 0);
  EXPECT_TRUE((*file)->lookup("empty")->data.empty());
  EXPECT_EQ((*file)->lookup("missing"), nullptr);
}

TEST(ParamFileTest, DuplicateNamesAreRefused) {
  TempFile tmp;
  float x = 1;
  std::vector<ParamToWrite> params = {
      {"a", "F32", {1}, {reinterpret_cast<char *>(&x), 4}},
      {"a", "F32", {1}, {reinterpret_cast<char *>(&x), 4}}};
  llvm::Error err = writeParamFile(tmp.path, params);
  EXPECT_NE(llvm::toString(std::move(err)).find("written twice"),
            std::string::npos);
}

/// A file of `header` (JSON) and `data` bytes.
std::string fileOf(llvm::StringRef header, size_t data) {
  std::string bytes(8, '\0');
  uint64_t n = header.size();
  std::memcpy(bytes.data(), &n, 8);
  return bytes + header.str() + std::string(data, '\0');
}

TEST(ParamFileTest, CorruptFilesAreRefusedWithTheReason) {
  TempFile tmp;
  auto check = [&](llvm::StringRef bytes, llvm::StringRef expected) {
    tmp.write(bytes);
    std::string message = errorOf(ParamFile::open(tmp.path.str().str()));
    EXPECT_NE(message.find(expected.str()), std::string::npos)
        << "got: " << message;
  };
  check("abc", "shorter than its 8-byte header length");
  check(std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + "{}",
        "header length");
  check(fileOf("[1]", 0), "header is not a JSON object");
  check(fileOf("{\"a\":", 0), "header is not JSON");
  check(fileOf(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4),
        "data ends at byte 8 but the file holds 4 bytes");
  check(fileOf(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8),
        "holds 8 bytes, its dtype and shape need 12");
  check(fileOf(R"({"a":{"dtype":"Q7","shape":[1],"data_offsets":[0,1]}})", 1),
        "unsupported dtype 'Q7'");
  check(fileOf(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}})", 0),
        "not a non-negative integer");
  check(fileOf(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", 4),
        "not an increasing pair");
  check(fileOf(R"({"a":{"dtype":"U8","shape":[4294967296,4294967296,)"
               R"(4294967296],"data_offsets":[0,0]}})",
               0),
        "size overflows");
  check(fileOf(R"({"__metadata__":{"k":1}})", 0), "is not a string");
  EXPECT_NE(errorOf(ParamFile::open("/no/such/file")).find("cannot open"),
            std::string::npos);
}

TEST(ModuleMetadataTest, JSONRoundTrip) {
  ModuleMetadata m;
  FunctionSpec f;
  f.name = "main";
  f.params.push_back({"f32",
                      true,
                      {-1, 16},
                      {"n", "16"},
                      {std::vector<int64_t>{0}, std::vector<int64_t>{}},
                      "!relax.tensor<[n, 16], f32>",
                      "model.norm.weight"});
  f.params.push_back({"i64", false, {}, {}, {}, ""});
  f.results.push_back(
      {"f32", true, {-1, 32}, {"?", "32"},
       {std::nullopt, std::vector<int64_t>{}}, ""});
  f.symbols.push_back({"n", 0, 0});
  f.shapeFunction = "main__shapes";
  m.functions.push_back(f);
  m.params.push_back({"__relax_param_0", "F32", {16, 16}});
  m.paramsFile = "model.params";
  auto back = ModuleMetadata::fromJSON(m.toJSON());
  ASSERT_TRUE(static_cast<bool>(back)) << back.message();
  ASSERT_EQ(back->functions.size(), 1u);
  const FunctionSpec *g = back->lookup("main");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->params[0].dims, (std::vector<std::string>{"n", "16"}));
  EXPECT_EQ(g->params[0].staticSizes, (std::vector<int64_t>{-1, 16}));
  EXPECT_EQ(g->params[0].relaxType, "!relax.tensor<[n, 16], f32>");
  EXPECT_EQ(g->params[0].dimSymbols, f.params[0].dimSymbols);
  EXPECT_EQ(g->results[0].dimSymbols, f.results[0].dimSymbols);
  EXPECT_FALSE(g->results[0].dimSymbols[0].has_value());
  ASSERT_TRUE(g->results[0].dimSymbols[1].has_value());
  EXPECT_TRUE(g->results[0].dimSymbols[1]->empty());
  ASSERT_EQ(g->symbols.size(), 1u);
  EXPECT_EQ(g->symbols[0].name, "n");
  EXPECT_EQ(g->symbols[0].param, 0);
  EXPECT_EQ(g->symbols[0].dim, 0);
  EXPECT_EQ(g->shapeFunction, "main__shapes");
  EXPECT_EQ(g->params[0].name, "model.norm.weight");
  EXPECT_EQ(g->params[1].name, "");
  EXPECT_FALSE(g->params[1].ranked);
  EXPECT_EQ(g->results[0].dtype, "f32");
  EXPECT_EQ(back->params[0].shape, (std::vector<int64_t>{16, 16}));
  EXPECT_EQ(back->paramsFile, "model.params");
  EXPECT_EQ(back->lookup("other"), nullptr);
}

TEST(ModuleMetadataTest, BadMetadataIsRefused) {
  EXPECT_FALSE(static_cast<bool>(ModuleMetadata::fromJSON("{")));
  auto wrongVersion = ModuleMetadata::fromJSON(
      R"({"format":"relax-mlir module","version":99,"functions":[],)"
      R"("params":[],"params_file":""})");
  ASSERT_FALSE(static_cast<bool>(wrongVersion));
  EXPECT_NE(wrongVersion.message().find("version 99"),
            std::string::npos);
  // Version 1 printed the dims as text for the reader to evaluate.
  auto oldVersion = ModuleMetadata::fromJSON(
      R"({"format":"relax-mlir module","version":1,"functions":[],)"
      R"("params":[],"params_file":""})");
  ASSERT_FALSE(static_cast<bool>(oldVersion));
  EXPECT_EQ(oldVersion.message(),
            "module format version 1, this runtime reads version 2 (written "
            "by an older relax-compile: compile the model again)");
  // The indices the runtime follows are checked: `main`'s one parameter
  // [n] with the given dim_symbols, binding and shape function.
  auto refusal = [](const std::string &dimSymbols, int binding,
                    const std::string &shapeFunction) {
    auto m = ModuleMetadata::fromJSON(
        R"({"format":"relax-mlir module","version":2,"functions":[{"name":)"
        R"("f","params":[{"dtype":"f32","ranked":true,"static_sizes":[-1],)"
        R"("dims":["n"],"dim_symbols":[)" +
        dimSymbols + R"(]}],"results":[],"symbols":[{"name":"n","param":0,)"
        R"("dim":)" + std::to_string(binding) + R"(}],"shape_function":")" +
        shapeFunction + R"("}],"params":[],"params_file":""})");
    return m ? std::string("accepted") : m.message();
  };
  EXPECT_EQ(refusal("[0]", 0, "f__shapes"), "accepted");
  EXPECT_EQ(refusal("[1]", 0, "f__shapes"),
            "no such symbol at metadata.functions[0].params[0].dim_symbols[0]");
  EXPECT_EQ(refusal("[0]", 1, "f__shapes"),
            "no such parameter dim at metadata.functions[0].symbols[0]");
  EXPECT_EQ(refusal("[0]", 0, ""),
            "missing for the dims of dim_symbols at "
            "metadata.functions[0].shape_function");
  auto badDType = ModuleMetadata::fromJSON(
      R"({"format":"relax-mlir module","version":2,"functions":[{"name":)"
      R"("f","params":[{"dtype":"q3","ranked":true,"static_sizes":[],)"
      R"("dims":[],"dim_symbols":[]}],"results":[]}],"params":[],)"
      R"("params_file":""})");
  ASSERT_FALSE(static_cast<bool>(badDType));
  EXPECT_NE(badDType.message().find("unknown dtype"), std::string::npos);
  EXPECT_NE(badDType.message().find("metadata.functions[0].params[0].dtype"),
            std::string::npos)
      << badDType.message();
  // A missing or mistyped field is named by its path.
  auto missing = ModuleMetadata::fromJSON(
      R"({"format":"relax-mlir module","version":2,"functions":[{"name":)"
      R"("f","params":[],"results":[],"symbols":[],"shape_function":""}],)"
      R"("params":[{"name":"p","dtype":"F32",)"
      R"("shape":[1,"x"]}]})");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(missing.message(), "expected integer at metadata.params[0].shape[1]");
  auto noFile = ModuleMetadata::fromJSON(
      R"({"format":"relax-mlir module","version":2,"functions":[],"params":[]})");
  ASSERT_FALSE(static_cast<bool>(noFile));
  EXPECT_EQ(noFile.message(), "missing value at metadata.params_file");
  auto notJSON = ModuleMetadata::fromJSON("{\"a\": tru}");
  ASSERT_FALSE(static_cast<bool>(notJSON));
  EXPECT_NE(notJSON.message().find("line 1"), std::string::npos)
      << notJSON.message();
}

/// An entry point that checks the packed layout and returns a descriptor
/// that views its first argument.
int64_t seenRank = -1, seenSizes[2], seenStrides[2];
void fakeEntry(void **args) {
  auto *result = *static_cast<int64_t **>(args[0]);
  auto *desc = *static_cast<int64_t **>(args[1]);
  auto *unranked = *static_cast<int64_t **>(args[2]);
  seenRank = unranked[0];
  seenSizes[0] = desc[3];
  seenSizes[1] = desc[4];
  seenStrides[0] = desc[5];
  seenStrides[1] = desc[6];
  std::memcpy(result, desc, 7 * sizeof(int64_t));
}

TEST(PackedCallTest, DescriptorsAndResults) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  float other[3] = {9, 9, 9};
  PackedCall call(fakeEntry, "fake", {true, false}, {2});
  int64_t shape[2] = {2, 3};
  int64_t shape1[1] = {3};
  call.setInput(0, data, shape, 2);
  call.setInput(1, other, shape1, 1);
  ASSERT_FALSE(static_cast<bool>(call.run()));
  EXPECT_EQ(seenRank, 1);
  EXPECT_EQ(seenSizes[0], 2);
  EXPECT_EQ(seenSizes[1], 3);
  EXPECT_EQ(seenStrides[0], 3);
  EXPECT_EQ(seenStrides[1], 1);
  // The result aliases an input: it owns no block.
  EXPECT_TRUE(call.ownedResultBlocks().empty());

  // A transposed view copied densely.
  int64_t words[7] = {0, reinterpret_cast<int64_t>(data), 0, 3, 2, 1, 3};
  float dense[6];
  copyToDense(words, 2, sizeof(float), dense);
  EXPECT_EQ(std::vector<float>(dense, dense + 6),
            (std::vector<float>{0, 3, 1, 4, 2, 5}));
}


//===----------------------------------------------------------------------===//
// Parameter files in huge pages (ParamResidence::HugePages, HugePages.h)
//===----------------------------------------------------------------------===//

/// A parameter file of a 6 MiB F32 tensor "w" (a 2 MiB one would fill no
/// whole huge page after the header) and a small one "b".
struct LargeParamFile {
  TempFile tmp;
  std::vector<float> w, b;
  LargeParamFile() : w(6 << 18), b(5) {
    for (size_t i = 0; i < w.size(); ++i)
      w[i] = float(i % 1000) * 0.25f - float(i / 1000);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = -float(i);
    std::vector<ParamToWrite> params = {
        {"w",
         "F32",
         {int64_t(w.size())},
         {reinterpret_cast<char *>(w.data()), w.size() * 4}},
        {"b", "F32", {5}, {reinterpret_cast<char *>(b.data()), 20}}};
    EXPECT_FALSE(
        llvm::errorToBool(writeParamFile(tmp.path, params, /*metadata=*/{})));
  }
};

TEST(ParamFileHugePagesTest, SameBytesBothWays) {
  relax::test::ScopedHugePagesEnv on("1");
  LargeParamFile params;
  auto mapped = ParamFile::open(params.tmp.path.str().str());
  auto huge = ParamFile::open(params.tmp.path.str().str(),
                              ParamResidence::HugePages);
  ASSERT_TRUE(static_cast<bool>(mapped)) << mapped.message();
  ASSERT_TRUE(static_cast<bool>(huge)) << huge.message();
  EXPECT_EQ((*mapped)->residence(), ParamResidence::Mapped);
  EXPECT_EQ((*huge)->residence(), ParamResidence::HugePages);
  ASSERT_EQ((*huge)->entries().size(), 2u);
  for (const auto &[name, entry] : (*mapped)->entries()) {
    const ParamFile::Entry *other = (*huge)->lookup(name);
    ASSERT_NE(other, nullptr) << name;
    EXPECT_EQ(other->dtype, entry.dtype);
    EXPECT_EQ(other->shape, entry.shape);
    // A copy, not the mapping, with the file's bytes.
    EXPECT_NE(other->data.data(), entry.data.data());
    EXPECT_EQ(other->data, entry.data) << name;
  }
  const ParamFile::Entry *w = (*huge)->lookup("w");
  EXPECT_EQ(std::memcmp(w->data.data(), params.w.data(), w->data.size()), 0);
  // Aligned as in the mapping: the data offsets are the file's.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(w->data.data()) % 64, 0u);
}

TEST(ParamFileHugePagesTest, InHugePagesWhereTheKernelHasThem) {
  if (const char *why = relax::test::hugePagesUnavailable())
    GTEST_SKIP() << why;
  relax::test::ScopedHugePagesEnv on("1");
  LargeParamFile params;
  auto huge = ParamFile::open(params.tmp.path.str().str(),
                              ParamResidence::HugePages);
  ASSERT_TRUE(static_cast<bool>(huge)) << huge.message();
  const ParamFile::Entry *w = (*huge)->lookup("w");
  relax::test::Backing b = relax::test::backingOf(w->data.data());
  ASSERT_TRUE(b.found);
  EXPECT_TRUE(b.advised);
  // The whole file (6 MiB and a header) is 4 huge pages: at least the 2
  // wholly inside "w" must be huge.
  EXPECT_GE(b.hugeBytes, 2 * ::relax::runtime::kHugePageBytes);
  EXPECT_EQ(relax::test::backingOf(
                (*ParamFile::open(params.tmp.path.str().str()))
                    ->lookup("w")
                    ->data.data())
                .hugeBytes,
            0u)
      << "a file mapping has no anonymous huge pages";
}

TEST(ParamFileHugePagesTest, OffOrSmallStaysMapped) {
  LargeParamFile params;
  {
    relax::test::ScopedHugePagesEnv off("0");
    auto file = ParamFile::open(params.tmp.path.str().str(),
                                ParamResidence::HugePages);
    ASSERT_TRUE(static_cast<bool>(file)) << file.message();
    EXPECT_EQ((*file)->residence(), ParamResidence::Mapped);
    const ParamFile::Entry *w = (*file)->lookup("w");
    EXPECT_EQ(std::memcmp(w->data.data(), params.w.data(), w->data.size()),
              0);
  }
  relax::test::ScopedHugePagesEnv on("1");
  TempFile small;
  float one = 1.0f;
  std::vector<ParamToWrite> tiny = {
      {"one", "F32", {1}, {reinterpret_cast<char *>(&one), 4}}};
  ASSERT_FALSE(llvm::errorToBool(writeParamFile(small.path, tiny, {})));
  auto file =
      ParamFile::open(small.path.str().str(), ParamResidence::HugePages);
  ASSERT_TRUE(static_cast<bool>(file)) << file.message();
  EXPECT_EQ((*file)->residence(), ParamResidence::Mapped);
}

TEST(ParamFileHugePagesDeathTest, EntriesStayReadOnly) {
  relax::test::ScopedHugePagesEnv on("1");
  LargeParamFile params;
  for (ParamResidence where :
       {ParamResidence::Mapped, ParamResidence::HugePages}) {
    auto file = ParamFile::open(params.tmp.path.str().str(), where);
    ASSERT_TRUE(static_cast<bool>(file)) << file.message();
    ASSERT_EQ((*file)->residence(), where);
    const ParamFile::Entry *w = (*file)->lookup("w");
    // An in-place update that reaches a constant must fault, not change it.
    auto *byte = const_cast<volatile char *>(
        w->data.data() + w->data.size() / 2);
    EXPECT_EXIT(*byte = 1, ::testing::KilledBySignal(SIGSEGV), "");
    EXPECT_EQ(*byte, w->data[w->data.size() / 2]);
  }
}

TEST(ParamFileHugePagesTest, LoadedGlobalsCollapse) {
  if (const char *why = relax::test::hugePagesUnavailable())
    GTEST_SKIP() << why;
  relax::test::ScopedHugePagesEnv on("1");
  LargeParamFile params;
  auto file = ParamFile::open(params.tmp.path.str().str());
  ASSERT_TRUE(static_cast<bool>(file)) << file.message();
  // A library's .bss global stands in: anonymous, not advised, 4 KiB pages.
  size_t bytes = params.w.size() * 4;
  void *global = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(global, MAP_FAILED);
  std::vector<float> bias(5);
  ModuleMetadata meta;
  meta.params = {{"w", "F32", {int64_t(params.w.size())}},
                 {"b", "F32", {5}}};
  Status s = loadParams(meta, **file, [&](const std::string &name) {
    return name == "w" ? ParamGlobal{global, bytes}
                       : ParamGlobal{bias.data(), 20};
  });
  ASSERT_FALSE(s) << s.message();
  EXPECT_EQ(std::memcmp(global, params.w.data(), bytes), 0);
  EXPECT_EQ(bias, params.b);
  // 6 MiB from a 4 KiB boundary: at least 2 whole aligned huge pages.
  uintptr_t first =
      (reinterpret_cast<uintptr_t>(global) + ::relax::runtime::kHugePageBytes -
       1) /
      ::relax::runtime::kHugePageBytes * ::relax::runtime::kHugePageBytes;
  EXPECT_GE(relax::test::backingOf(reinterpret_cast<void *>(first)).hugeBytes,
            2 * ::relax::runtime::kHugePageBytes);
  munmap(global, bytes);
}

} // namespace
