# -*- Python -*-
# lit configuration for the ukernel sources: each ukernel file is a lit test.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "MX-ukernels"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mx_obj_root, "ukernels")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["mx-opt"], [config.mx_tools_dir, config.llvm_tools_dir])
