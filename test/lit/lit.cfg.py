# lit configuration for the relax-mlir FileCheck tests.
import os
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
    ["relax-opt", "relax-translate", "relax-run"], tool_dirs)
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
config.substitutions.append(("%scripts", os.path.join(config.relax_src_root, "scripts")))
config.substitutions.append(("%relax_tools_dir", config.relax_tools_dir))
