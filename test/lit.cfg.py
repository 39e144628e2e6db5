# -*- Python -*-
# lit configuration for the mx regression tests.

import os

import lit.formats
from lit.llvm import llvm_config

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
tools = ["mx-opt", "mx-run", "mlir-opt"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The mlir-opt plugin: the build tree's, or another one (an installed tree's)
# with `lit --param mx_plugin=PATH`.
config.substitutions.append(
    ("%mx_plugin",
     lit_config.params.get("mx_plugin",
                           os.path.join(config.mx_obj_root, "lib",
                                        "MXPlugin.so"))))
