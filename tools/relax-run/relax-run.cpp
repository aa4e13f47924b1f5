//===- relax-run.cpp - Run a function of a relax module -------------------===//
//
// relax-run's executable, which links neither LLVM nor MLIR: libLLVM and
// libMLIR cost a process about 85 MiB of resident memory before it does
// anything (their relocations and static initialisers), more than a small
// model needs to run (docs/memory.md). So it runs a library that
// relax-compile wrote itself, with the runtime alone (libRelaxModule: the
// loader and calling convention of ModuleLoader.h) and the LLVM-free host
// tensors of RelaxHostTensor (.npy files, random inputs, comparison), and
// loads the compiler side, libRelaxRunJIT.so (RelaxRunJIT.cpp), only when
// it must:
//
//  - the input is not a library (.mlir, .onnx, TOSA): it is compiled;
//  - the command line is anything but a well-formed run of a library with
//    the options handled here (--help, --version, an option of the JIT, an
//    unknown option, a malformed value, a repeated option, ...).
//
// The compiler side then parses the same command line with cl::opt and does
// everything, a library included, so its messages and exit statuses are the
// only ones for options. What this file does for a library mirrors
// RelaxRunJIT.cpp (and CompiledModule's library path) message for message;
// test/lit/Tools/relax-run-light.test checks that no LLVM is loaded.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/Compare.h"
#include "RelaxDialect/Execution/HostIO.h"
#include "RelaxDialect/Execution/HostTensor.h"
#include "RelaxDialect/Execution/Warmup.h"
#include "RelaxDialect/Runtime/ModuleLoader.h"
#include "RelaxDialect/Runtime/ShapeFunction.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <dlfcn.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::relax;
using namespace mlir::relax::exec;

namespace {

//===----------------------------------------------------------------------===//
// The command line
//===----------------------------------------------------------------------===//

/// The options of a library run, as RelaxRunJIT.cpp declares them.
struct Options {
  std::string input, params, entry = "main", outputDir;
  std::vector<std::string> inputs, expects, dims;
  bool randomInputs = false;
  unsigned seed = 0, benchmarkRuns = 0;
  std::optional<unsigned> warmupRuns;
  double rtol = 1e-5, atol = 1e-6;
};

/// A decimal that cl::opt<unsigned> reads the same: digits only, no leading
/// zero (cl would read "010" as octal), within unsigned.
std::optional<unsigned> parseUnsigned(std::string_view s) {
  if (s.empty() || s.size() > 10 || (s.size() > 1 && s[0] == '0'))
    return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v > UINT32_MAX)
    return std::nullopt;
  return static_cast<unsigned>(v);
}

/// A plain decimal floating-point number ([-]d[.d][e[+-]d]), which
/// cl::opt<double> reads the same; anything fancier goes to cl.
std::optional<double> parseDouble(const std::string &s) {
  size_t i = 0, n = s.size();
  auto digits = [&] {
    size_t start = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(s[i])))
      ++i;
    return i > start;
  };
  if (i < n && (s[i] == '-' || s[i] == '+'))
    ++i;
  bool whole = digits();
  bool fraction = false;
  if (i < n && s[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (!whole && !fraction)
    return std::nullopt;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '-' || s[i] == '+'))
      ++i;
    if (!digits())
      return std::nullopt;
  }
  if (i != n)
    return std::nullopt;
  return std::strtod(s.c_str(), nullptr);
}

/// Parses the command line of a library run. Returns nullopt for anything
/// else, which the compiler side then handles (see the file comment).
std::optional<Options> parseLibraryRun(int argc, char **argv) {
  Options o;
  std::map<std::string, int> seen;
  bool havePositional = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.empty() || arg[0] != '-' || arg == "-") {
      // cl reads a response file (@file) too.
      if (havePositional || arg.empty() || arg[0] == '@')
        return std::nullopt;
      havePositional = true;
      o.input = arg;
      continue;
    }
    size_t dashes = arg.compare(0, 2, "--") == 0 ? 2 : 1;
    std::string name = arg.substr(dashes);
    std::optional<std::string> value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    // Options given once at most (cl::opt), or lists (cl::list).
    bool isList = name == "input" || name == "expect" || name == "dim";
    if (!isList && seen[name]++)
      return std::nullopt;
    if (name == "random-inputs") {
      if (!value || *value == "true" || *value == "1" || *value == "TRUE" ||
          *value == "True")
        o.randomInputs = true;
      else if (*value == "false" || *value == "0" || *value == "FALSE" ||
               *value == "False")
        o.randomInputs = false;
      else
        return std::nullopt;
      continue;
    }
    static const char *const valued[] = {
        "params", "entry", "input",     "seed", "dim",   "output-dir",
        "expect", "rtol",  "atol",      "benchmark",     "device",
        "warmup"};
    if (std::find_if(std::begin(valued), std::end(valued), [&](const char *v) {
          return name == v;
        }) == std::end(valued))
      return std::nullopt;
    if (!value) {
      if (i + 1 >= argc)
        return std::nullopt;
      value = argv[++i];
    }
    if (value->empty())
      return std::nullopt;
    if (name == "params") {
      o.params = *value;
    } else if (name == "entry") {
      o.entry = *value;
    } else if (name == "input") {
      o.inputs.push_back(*value);
    } else if (name == "expect") {
      o.expects.push_back(*value);
    } else if (name == "dim") {
      o.dims.push_back(*value);
    } else if (name == "output-dir") {
      o.outputDir = *value;
    } else if (name == "device") {
      if (*value != "cpu")
        return std::nullopt;
    } else if (name == "seed" || name == "benchmark" || name == "warmup") {
      std::optional<unsigned> v = parseUnsigned(*value);
      if (!v)
        return std::nullopt;
      if (name == "warmup")
        o.warmupRuns = *v;
      else
        (name == "seed" ? o.seed : o.benchmarkRuns) = *v;
    } else {
      std::optional<double> v = parseDouble(*value);
      if (!v)
        return std::nullopt;
      (name == "rtol" ? o.rtol : o.atol) = *v;
    }
  }
  // Bad tolerances are reported by the compiler side's parser.
  if (!checkTolerances({o.rtol, o.atol}).empty())
    return std::nullopt;
  std::string_view input = o.input;
  if (!havePositional || input.size() < 3 ||
      input.substr(input.size() - 3) != ".so")
    return std::nullopt;
  return o;
}

//===----------------------------------------------------------------------===//
// Running the library
//===----------------------------------------------------------------------===//

int fail(const std::string &message) {
  std::fprintf(stderr, "relax-run: error: %s\n", message.c_str());
  return 1;
}

/// exec::checkInputs (CompiledModule.cpp) on the metadata's signature.
std::optional<std::string> checkInputs(const rt::FunctionSpec &f,
                                       std::vector<HostTensor> &inputs) {
  const std::string &entry = f.name;
  if (inputs.size() != f.params.size())
    return "'" + entry + "' takes " + std::to_string(f.params.size()) +
           " inputs, got " + std::to_string(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    HostTensor &t = inputs[i];
    const rt::TensorSpec &spec = f.params[i];
    std::string input = "input #" + std::to_string(i);
    DType wanted = *dtypeFromName(spec.dtype);
    adoptDType(t, wanted);
    if (t.dtype != wanted)
      return input + " has dtype " + dtypeName(t.dtype) + " but '" + entry +
             "' expects " + dtypeName(wanted);
    if (spec.ranked && t.shape.size() != spec.staticSizes.size())
      return input + " has rank " + std::to_string(t.shape.size()) + " but '" +
             entry + "' expects rank " +
             std::to_string(spec.staticSizes.size());
    for (size_t d = 0; d < spec.staticSizes.size(); ++d)
      if (spec.staticSizes[d] >= 0 && spec.staticSizes[d] != t.shape[d])
        return input + " dim " + std::to_string(d) + " is " +
               std::to_string(t.shape[d]) + " but '" + entry + "' expects " +
               std::to_string(spec.staticSizes[d]);
    if (!checkedElementCount(t.shape) ||
        t.data.size() !=
            static_cast<size_t>(t.numElements()) * dtypeSize(t.dtype))
      return input + " of shape " + t.shapeStr() + " holds " +
             std::to_string(t.data.size()) +
             " bytes, not the size of its shape";
  }
  return std::nullopt;
}

/// One entry bound to its inputs (exec::Call on the CPU).
class LibraryCall {
public:
  LibraryCall(rt::PackedFn fn, const rt::FunctionSpec &spec,
              std::vector<HostTensor> inputsArg)
      : spec(spec), inputs(std::move(inputsArg)),
        call(fn, spec.name, rankedParams(spec), resultRanks(spec)) {
    for (size_t i = 0; i < inputs.size(); ++i)
      call.setInput(i, inputs[i].data.data(), inputs[i].shape);
  }
  ~LibraryCall() { releaseOutputs(); }

  std::optional<std::string> run() {
    releaseOutputs();
    // After a failure the result descriptors may be partly written: they
    // are left alone rather than freed.
    if (rt::Status s = call.run())
      return s.message();
    outputsLive = true;
    return std::nullopt;
  }
  std::vector<HostTensor> readOutputs() const {
    std::vector<HostTensor> outputs;
    for (size_t i = 0; i < spec.results.size(); ++i) {
      int64_t rank = spec.results[i].staticSizes.size();
      const int64_t *words = call.result(i);
      HostTensor t;
      t.dtype = *dtypeFromName(spec.results[i].dtype);
      t.shape.assign(words + 3, words + 3 + rank);
      t.data.resize(t.numElements() * dtypeSize(t.dtype));
      rt::copyToDense(words, rank, dtypeSize(t.dtype), t.data.data());
      outputs.push_back(std::move(t));
    }
    return outputs;
  }
  void releaseOutputs() {
    if (!outputsLive)
      return;
    outputsLive = false;
    for (void *block : call.ownedResultBlocks())
      std::free(block);
  }

private:
  static std::vector<bool> rankedParams(const rt::FunctionSpec &spec) {
    std::vector<bool> ranked;
    for (const rt::TensorSpec &t : spec.params)
      ranked.push_back(t.ranked);
    return ranked;
  }
  static std::vector<int64_t> resultRanks(const rt::FunctionSpec &spec) {
    std::vector<int64_t> ranks;
    for (const rt::TensorSpec &t : spec.results)
      ranks.push_back(t.staticSizes.size());
    return ranks;
  }

  const rt::FunctionSpec &spec;
  std::vector<HostTensor> inputs;
  rt::PackedCall call;
  bool outputsLive = false;
};

void printSummary(size_t i, const HostTensor &t) {
  std::string line = "output #" + std::to_string(i) + ": " +
                     dtypeName(t.dtype) + " " + t.shapeStr() + " = [";
  int64_t n = std::min<int64_t>(t.numElements(), 8);
  for (int64_t k = 0; k < n; ++k)
    line += (k ? ", " : "") + t.str(k, 6);
  if (t.numElements() > n)
    line += ", ...";
  std::printf("%s]\n", line.c_str());
}

/// mkdir -p, quietly: a failure shows when the file is written.
void createDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    ::mkdir(path.substr(0, slash).c_str(), 0777);
    if (slash == std::string::npos)
      break;
  }
}

int runLibrary(const Options &o) {
  // As retainFreedMemory() (CompiledModule.h): repeated calls reuse pages.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::map<std::string, int64_t> dims;
  for (const std::string &binding : o.dims) {
    size_t eq = binding.find('=');
    std::string name = binding.substr(0, eq);
    std::string value =
        eq == std::string::npos ? std::string() : binding.substr(eq + 1);
    // StringRef::getAsInteger(10): an optional '-', then digits only.
    bool ok = !name.empty() && !value.empty() && value[0] != '-' &&
              std::all_of(value.begin(), value.end(), [](char c) {
                return c >= '0' && c <= '9';
              });
    errno = 0;
    long long v = ok ? std::strtoll(value.c_str(), nullptr, 10) : 0;
    if (!ok || errno == ERANGE)
      return fail("--dim expects name=non-negative-integer, got '" + binding +
                  "'");
    dims[name] = v;
  }

  auto library = rt::Library::open(o.input, o.params);
  if (!library)
    return fail(library.message());
  const rt::FunctionSpec *spec = (*library)->getMetadata().lookup(o.entry);
  if (!spec)
    return fail("no function '" + o.entry + "' in " + o.input);
  for (const auto *specs : {&spec->params, &spec->results})
    for (const rt::TensorSpec &t : *specs)
      if (!dtypeFromName(t.dtype))
        return fail("bad metadata in " + o.input + ": '" + spec->name +
                    "': unknown dtype '" + t.dtype + "'");
  size_t numParams = spec->params.size();
  if (std::optional<std::string> error = checkDimNamesFor(*spec, dims))
    return fail(*error);
  // The library checked at open that it has the function the metadata
  // names.
  auto shapeFn = reinterpret_cast<rt::ShapeFn>(
      spec->shapeFunction.empty()
          ? nullptr
          : (*library)->lookupSymbol(spec->shapeFunction));

  std::vector<HostTensor> inputs;
  if (!o.inputs.empty()) {
    if (o.inputs.size() != numParams)
      return fail("'" + o.entry + "' takes " + std::to_string(numParams) +
                  " inputs, got " + std::to_string(o.inputs.size()) +
                  " --input files");
    for (const std::string &path : o.inputs) {
      std::string error;
      std::optional<HostTensor> t = readNpyFile(path, error);
      if (!t)
        return fail(error);
      inputs.push_back(std::move(*t));
    }
  } else if (o.randomInputs) {
    std::string error;
    auto random = makeRandomInputsFor(*spec, shapeFn, dims, o.seed, error);
    if (!random)
      return fail(error);
    inputs = std::move(*random);
  } else if (numParams != 0) {
    return fail("'" + o.entry + "' takes " + std::to_string(numParams) +
                " inputs: give --input files or --random-inputs");
  }
  if (std::optional<std::string> error = checkInputs(*spec, inputs))
    return fail(*error);

  std::vector<std::vector<int64_t>> inputShapes;
  for (const HostTensor &t : inputs)
    inputShapes.push_back(t.shape);
  LibraryCall call((*library)->lookupEntry(o.entry), *spec, std::move(inputs));
  relax_rt_memory_reset();
  if (std::optional<std::string> error = call.run())
    return fail(*error);
  std::vector<HostTensor> outputs = call.readOutputs();
  call.releaseOutputs();
  std::vector<std::vector<int64_t>> outputShapes;
  for (const HostTensor &t : outputs)
    outputShapes.push_back(t.shape);
  if (std::optional<std::string> error =
          rt::checkResultShapes(*spec, shapeFn, inputShapes, outputShapes))
    return fail(*error);

  for (size_t i = 0; i < outputs.size(); ++i)
    printSummary(i, outputs[i]);

  if (!o.outputDir.empty()) {
    createDirectories(o.outputDir);
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::string path = o.outputDir;
      if (path.back() != '/')
        path += '/';
      path += "output_" + std::to_string(i) + ".npy";
      std::string error;
      if (!writeNpyFile(path, outputs[i], error))
        return fail(error);
    }
  }

  bool ok = true;
  if (!o.expects.empty()) {
    if (o.expects.size() != outputs.size())
      return fail("'" + o.entry + "' returns " +
                  std::to_string(outputs.size()) + " results, got " +
                  std::to_string(o.expects.size()) + " --expect files");
    CompareOptions tolerances{o.rtol, o.atol};
    for (size_t i = 0; i < o.expects.size(); ++i) {
      std::string error;
      std::optional<HostTensor> expected = readNpyFile(o.expects[i], error);
      if (!expected)
        return fail(error);
      adoptDType(*expected, outputs[i].dtype);
      CompareResult result = compareTensors(outputs[i], *expected, tolerances);
      if (!result.matches()) {
        std::fprintf(stderr, "relax-run: %s\n",
                     result
                         .message("output #" + std::to_string(i),
                                  "the expected file")
                         .c_str());
        ok = false;
      }
    }
    if (ok)
      std::printf("relax-run: all %zu outputs match (rtol=%s, atol=%s)\n",
                  outputs.size(), formatG(o.rtol).c_str(),
                  formatG(o.atol).c_str());
  }

  if (o.benchmarkRuns > 0) {
    // exec::timeCalls: untimed runs (page faults, thread start, weights
    // packed), then timed runs.
    std::optional<std::string> error;
    if (!exec::warmUp(o.warmupRuns, [&] {
          if ((error = call.run()))
            return false;
          call.releaseOutputs();
          return true;
        }))
      return fail(*error);
    std::vector<double> ms;
    for (unsigned r = 0; r < o.benchmarkRuns; ++r) {
      auto start = std::chrono::steady_clock::now();
      if (std::optional<std::string> error = call.run())
        return fail(*error);
      auto stop = std::chrono::steady_clock::now();
      call.releaseOutputs();
      ms.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("benchmark: %u runs, min %.4f ms, median %.4f ms\n",
                o.benchmarkRuns, ms.front(), ms[ms.size() / 2]);
  }
  return ok ? 0 : 1;
}

/// Hands the command line to libRelaxRunJIT.so, found through relax-run's
/// run path (<prefix>/lib next to <prefix>/bin, or the build tree's lib).
int runCompilerSide(int argc, char **argv) {
  void *jit = dlopen("libRelaxRunJIT.so", RTLD_NOW | RTLD_LOCAL);
  if (!jit)
    return fail(std::string("cannot load relax-run's compiler "
                            "(libRelaxRunJIT.so): ") +
                dlerror());
  using MainFn = int (*)(int, char **);
  auto jitMain = reinterpret_cast<MainFn>(dlsym(jit, "relax_run_jit_main"));
  if (!jitMain)
    return fail("libRelaxRunJIT.so has no relax_run_jit_main");
  return jitMain(argc, argv);
}

} // namespace

int main(int argc, char **argv) {
  // RELAX_RUN_FORCE_JIT=1 runs a library through the compiler side too (the
  // path before the driver existed): a reference for the tests.
  const char *force = std::getenv("RELAX_RUN_FORCE_JIT");
  std::optional<Options> options;
  if (!force || std::strcmp(force, "1") != 0)
    options = parseLibraryRun(argc, argv);
  if (!options)
    return runCompilerSide(argc, argv);
  // Buffered as llvm::outs(), the compiler side's stream, so that stdout and
  // stderr interleave the same way in a combined log: in blocks of the
  // file's preferred size, not at all on a terminal; stderr is unbuffered
  // and not tied to stdout (an error line comes before the output lines
  // still buffered).
  struct stat st;
  if (fstat(STDOUT_FILENO, &st) == 0) {
    if (S_ISCHR(st.st_mode) && isatty(STDOUT_FILENO))
      std::setvbuf(stdout, nullptr, _IONBF, 0);
    else if (st.st_blksize > 0)
      std::setvbuf(stdout, nullptr, _IOFBF, st.st_blksize);
  }
  int status = runLibrary(*options);
  std::fflush(stdout);
  return status;
}
