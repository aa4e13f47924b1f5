//===- relax-translate.cpp - The relax-mlir translation driver ------------===//
//
// mlir-translate with the upstream translations (e.g. --mlir-to-llvmir) and
// the project's own (importers and exporters) registered in one place.
//
// Before the upstream driver runs, the command line is looked at once:
//  - without a translation flag, the input's extension chooses the importer
//    (model.onnx: --import-onnx, .ll/.bc: --import-llvm, .spv:
//    --deserialize-spirv), or its first bytes when the extension says
//    nothing; any other input is one error naming the imports, instead of
//    cl's "must be specified at least once!" per translation;
//  - the input and output files are checked, so that their errors carry the
//    `relax-translate: error: ` prefix of every relax-mlir tool.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <string>
#include <vector>

namespace cl = llvm::cl;

/// The names of the registered translations. They are the values of the
/// parser mlirTranslateMain declares its option with: a probe option of
/// that parser lists them, then leaves the command line as it found it.
static std::vector<std::string> translationNames() {
  cl::opt<const mlir::Translation *, false, mlir::TranslationParser> probe(
      cl::ReallyHidden);
  std::vector<std::string> names;
  for (unsigned i = 0, e = probe.getParser().getNumOptions(); i < e; ++i)
    names.push_back(probe.getParser().getOption(i).str());
  probe.removeArgument();
  return names;
}

/// What the command line names, as cl will read it: the translation flags,
/// the input (stdin: "-") and -o's file. Not a parser: an argument this
/// does not understand leaves everything to cl.
struct CommandLine {
  std::vector<std::string> translations;
  std::vector<std::string> positionals;
  std::string output = "-";
  bool helpOrVersion = false;
};

static CommandLine scan(int argc, char **argv,
                        const std::vector<std::string> &known) {
  CommandLine line;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-" || !arg.starts_with("-")) {
      line.positionals.push_back(arg.str());
      continue;
    }
    llvm::StringRef name = arg.ltrim('-');
    auto [flag, value] = name.split('=');
    if (flag == "o") {
      if (name.contains('='))
        line.output = value.str();
      else if (i + 1 < argc)
        line.output = argv[++i];
      continue;
    }
    if (flag == "help" || flag.starts_with("help-") || flag == "h" ||
        flag == "version" || flag.starts_with("print-options") ||
        flag.starts_with("print-all-options"))
      line.helpOrVersion = true;
    if (llvm::is_contained(known, flag))
      line.translations.push_back(flag.str());
  }
  return line;
}

/// The first bytes of `path` ("" for stdin or an unreadable file).
static std::string leadingBytes(llvm::StringRef path, size_t n) {
  if (path == "-")
    return "";
  std::ifstream in(path.str(), std::ios::binary);
  std::string bytes(n, '\0');
  in.read(bytes.data(), n);
  bytes.resize(in.gcount());
  return bytes;
}

/// The importer for an input, if it is registered: from the extension, else
/// from the first bytes (an ONNX ModelProto opens with its ir_version field,
/// byte 0x08, which no text file does; LLVM bitcode "BC\xC0\xDE"; SPIR-V's
/// magic number, little endian).
static std::string importerFor(llvm::StringRef path,
                               const std::vector<std::string> &known) {
  std::string ext = llvm::sys::path::extension(path).lower();
  const char *importer = ext == ".onnx"                 ? "import-onnx"
                         : ext == ".ll" || ext == ".bc" ? "import-llvm"
                         : ext == ".spv"                ? "deserialize-spirv"
                                                        : nullptr;
  if (!importer && ext != ".mlir") {
    std::string magic = leadingBytes(path, 4);
    if (!magic.empty() && magic[0] == '\x08')
      importer = "import-onnx";
    else if (magic == "BC\xC0\xDE")
      importer = "import-llvm";
    else if (magic == std::string("\x03\x02\x23\x07", 4))
      importer = "deserialize-spirv";
  }
  if (importer && llvm::is_contained(known, importer))
    return importer;
  return "";
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "relax-translate: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  mlir::relax::registerAllTranslations();
  mlir::relax::registerVersionPrinter();
  std::vector<std::string> known = translationNames();
  CommandLine line = scan(argc, argv, known);
  std::vector<char *> args(argv, argv + argc);
  std::string inferred;
  if (!line.helpOrVersion && line.positionals.size() <= 1) {
    std::string input = line.positionals.empty() ? "-" : line.positionals[0];
    if (line.translations.empty()) {
      inferred = importerFor(input, known);
      if (inferred.empty()) {
        std::vector<std::string> imports;
        for (auto [importer, exts] : {std::pair{"import-onnx", ".onnx"},
                                      std::pair{"import-llvm", ".ll, .bc"},
                                      std::pair{"deserialize-spirv", ".spv"}})
          if (llvm::is_contained(known, importer))
            imports.push_back(std::string("--") + importer + " (" + exts + ")");
        llvm::StringRef ext = llvm::sys::path::extension(input);
        std::string what = input == "-" ? std::string("the standard input")
                                        : "'" + input + "'";
        if (ext == ".mlir")
          return fail("no translation given for " + what +
                      ", which is MLIR already: name a translation out of it "
                      "(--mlir-to-llvmir, ...; --help lists them) or run "
                      "relax-opt on it (a TOSA module: relax-opt "
                      "--convert-tosa-to-relax)");
        std::string list;
        for (size_t i = 0; i < imports.size(); ++i)
          list += (i == 0                    ? ""
                   : i + 1 == imports.size() ? " or "
                                             : ", ") +
                  imports[i];
        std::string why = input == "-" ? ""
                                       : ", and neither its extension nor its "
                                         "first bytes name one";
        return fail("no translation given for " + what + why +
                    ": give one, e.g. " + list +
                    " (relax-translate --help lists them all)");
      }
      inferred = "--" + inferred;
      args.insert(args.begin() + 1, inferred.data());
    }
    if (!mlir::relax::checkToolFiles("relax-translate", input, line.output))
      return 1;
  }
  return mlir::failed(mlir::mlirTranslateMain(static_cast<int>(args.size()),
                                              args.data(),
                                              "relax-mlir translation driver"));
}
