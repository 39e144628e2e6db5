# -*- Python -*-
# lit configuration for the mx regression tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["data", "Inputs", "CMakeLists.txt", "lit.cfg.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mx_obj_root, "test")

config.substitutions.append(("%mx_src_root", config.mx_src_root))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))
config.substitutions.append(
    ("%testdata", os.path.join(config.mx_src_root, "test", "data")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.mx_tools_dir, config.llvm_tools_dir]
tools = ["mx-opt", "mx-run", "mx-layout"]
# In an AddressSanitizer build (scripts/sanitize.sh) MXPlugin.so is
# instrumented but Debian's mlir-opt is not: mlir-opt runs with clang's ASan
# runtime preloaded (which carries UBSan's too), with the ASan defaults of the
# mx executables (tools/asan-options/AsanOptions.cpp says why), and without
# leak checking, which would report upstream mlir-opt's own allocations.
if "Address" in config.mx_sanitizer:
    asan_runtime = subprocess.check_output(
        [config.mx_cxx_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        text=True).strip()
    tools.append(ToolSubst(
        "mlir-opt", command="env",
        extra_args=["LD_PRELOAD=" + asan_runtime,
                    "ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0",
                    os.path.join(config.llvm_tools_dir, "mlir-opt")]))
else:
    tools.append("mlir-opt")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The mlir-opt plugin: the build tree's, or another one (an installed tree's)
# with `lit --param mx_plugin=PATH`.
config.substitutions.append(
    ("%mx_plugin",
     lit_config.params.get("mx_plugin",
                           os.path.join(config.mx_obj_root, "lib",
                                        "MXPlugin.so"))))

# A headless browser renders the layout pictures (test/Tools/mx-layout); CI
# installs Debian's chromium (scripts/deps.sh), elsewhere those tests are
# unsupported when it is absent.
if shutil.which("chromium"):
    config.available_features.add("chromium")
