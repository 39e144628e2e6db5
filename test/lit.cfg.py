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
config.substitutions.append(("%mx_tools_dir", config.mx_tools_dir))
config.substitutions.append(
    ("%testdata", os.path.join(config.mx_src_root, "test", "data")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.mx_tools_dir, config.llvm_tools_dir]
tools = ["mx-opt", "mx-run", "mx-layout", "mx-isa", "mx-pipeline-doc"]
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

# `lit --param mx_gfx950_backend=gfx950-isa` runs the tests written for the
# wave emulator (--backend=gfx950-emu) on the gfx950 ISA executor instead:
# the same RUN lines and checks, the code objects executed (ctest runs every
# such file both ways, test/CMakeLists.txt).
gfx950_backend = lit_config.params.get("mx_gfx950_backend")
if gfx950_backend:
    config.substitutions.append(
        ("--backend=gfx950-emu", "--backend=" + gfx950_backend))
    config.available_features.add("backend-" + gfx950_backend)

# A headless browser renders the layout pictures (test/Tools/mx-layout); CI
# installs Debian's chromium (scripts/deps.sh), elsewhere those tests are
# unsupported when it is absent.
if shutil.which("chromium"):
    config.available_features.add("chromium")

# A stand-in HIP runtime (test/lib/FakeHIP) for the runtime path of
# mx-run --backend=hip.
config.substitutions.append(
    ("%fake_hip", os.path.join(config.mx_obj_root, "test", "lib",
                               "libMXFakeHIP.so")))
# A C client that misuses the C API (test/lib/CAPIMisuse).
config.substitutions.append(
    ("%mx_capi_misuse", os.path.join(config.mx_tools_dir, "mx-capi-misuse")))
# The Python package (python/): a Python that imports numpy and pytest
# (Debian's python3-numpy, python3-pytest; $MX_PYTHON first) runs its tests
# against the build tree's libMXCAPI.so. An AddressSanitizer build's library
# cannot load into an uninstrumented Python: those tests are unsupported
# there.
def _find_python():
    import sys
    candidates = [os.environ.get("MX_PYTHON"), sys.executable,
                  shutil.which("python3"), "/usr/bin/python3"]
    for python in candidates:
        if not python or not os.path.exists(python):
            continue
        try:
            subprocess.run([python, "-c", "import numpy, pytest"], check=True,
                           capture_output=True, timeout=120)
        except (OSError, subprocess.SubprocessError):
            continue
        return python
    return None


mx_python = _find_python()
if mx_python and "Address" not in config.mx_sanitizer:
    config.available_features.add("mx-python")
    config.substitutions.append(("%mx_python", mx_python))
    # pip and setuptools (python3-pip, python3-setuptools) install it.
    if subprocess.run([mx_python, "-c", "import setuptools, pip"],
                      capture_output=True).returncode == 0:
        config.available_features.add("mx-pip")
config.substitutions.append(
    ("%mx_capi_library", os.path.join(config.mx_obj_root, "lib",
                                      "libMXCAPI.so")))

# The environment of the HIP backend comes from the caller only where a test
# sets it.
for name in ["MX_HIP_LIBRARY", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
             "MX_FAKE_HIP_DEVICES"]:
    config.environment.pop(name, None)


def _hip_gfx950_device():
    """Whether a HIP runtime loads and shows a gfx950 GPU (MI350/MI355X):
    the `hip-device` feature of the hardware tests (test/Hardware)."""
    import ctypes
    library = os.environ.get("MX_HIP_LIBRARY", "libamdhip64.so")
    try:
        hip = ctypes.CDLL(library)
    except OSError:
        return False
    count = ctypes.c_int(0)
    if hip.hipInit(0) != 0 or hip.hipGetDeviceCount(ctypes.byref(count)) != 0:
        return False
    if count.value < 1:
        return False
    # The architecture: amdgpu-arch (LLVM's tool, also in ROCm) lists the
    # GPUs present.
    for arch in [shutil.which("amdgpu-arch"),
                 os.path.join(config.llvm_tools_dir, "amdgpu-arch"),
                 "/opt/rocm/llvm/bin/amdgpu-arch"]:
        if not arch or not os.path.exists(arch):
            continue
        try:
            names = subprocess.run([arch], capture_output=True, text=True,
                                   timeout=60).stdout.split()
        except (OSError, subprocess.SubprocessError):
            continue
        return "gfx950" in names
    return False


if _hip_gfx950_device():
    config.available_features.add("hip-device")
    # The hardware tests run with the caller's runtime selection.
    for name in ["MX_HIP_LIBRARY", "HIP_VISIBLE_DEVICES",
                 "ROCR_VISIBLE_DEVICES"]:
        if name in os.environ:
            config.environment[name] = os.environ[name]
