# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctypes declarations of the mx C API (include/mx-c/*.h) and of the part of
MLIR's C API (mlir-c/IR.h, mlir-c/Pass.h, mlir-c/Diagnostics.h) that
libMXCAPI.so carries, plus a context wrapper that turns MLIR diagnostics
into exceptions.

The library is found, in order, at: $MX_LIBRARY (a path to libMXCAPI.so);
$MX_BUILD_DIR/lib or $MX_PREFIX/lib; the build tree of the source checkout
this package sits in (python/../build/lib); next to the `mx-opt` on PATH
(bin/../lib); the dynamic loader's search path (LD_LIBRARY_PATH, ldconfig).
"""

import ctypes
import ctypes.util
import os
import re
import shutil
import threading

from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_char_p,
                    c_double, c_int, c_int8, c_int64, c_size_t, c_ssize_t,
                    c_void_p)


class MXError(RuntimeError):
    """An mx call failed; the message holds MLIR's diagnostics."""


# --- MLIR C API types -----------------------------------------------------


class StringRef(Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t)]

    @staticmethod
    def of(data):
        """A StringRef over `data` (bytes kept alive by the caller)."""
        return StringRef(ctypes.cast(c_char_p(data), c_void_p), len(data))

    def bytes(self):
        if not self.length:
            return b""
        return ctypes.string_at(self.data, self.length)

    def str(self):
        return self.bytes().decode("utf-8", "replace")


def _handle(name):
    return type(name, (Structure,), {"_fields_": [("ptr", c_void_p)]})


Context = _handle("Context")
DialectRegistry = _handle("DialectRegistry")
Module = _handle("Module")
Operation = _handle("Operation")
Location = _handle("Location")
Diagnostic = _handle("Diagnostic")
PassManager = _handle("PassManager")
OpPassManager = _handle("OpPassManager")


class LogicalResult(Structure):
    _fields_ = [("value", c_int8)]


StringCallback = CFUNCTYPE(None, StringRef, c_void_p)
# MlirLogicalResult ({int8_t}) and MlirDiagnostic ({void *}) travel in
# registers as their one field: ctypes callbacks take and return those.
DiagnosticHandler = CFUNCTYPE(c_int8, c_void_p, c_void_p)

# --- mx C API types ---------------------------------------------------------


class GFX950PipelineOptions(Structure):
    """MxGFX950PipelineOptions (mx-c/Pipelines.h), field for field."""
    _fields_ = [
        ("intrinsic", c_int),
        ("intrinsicsM", c_int64),
        ("intrinsicsN", c_int64),
        ("intrinsicsK", c_int64),
        ("subgroupsM", c_int64),
        ("subgroupsN", c_int64),
        ("relayoutWorkgroupSize", c_int64),
        ("output", c_int),
        ("lld", StringRef),
        ("splitK", c_int64),
        ("configTable", StringRef),
        ("quantizeInGEMM", c_int),
        ("unrollK", c_int64),
        ("reserveAccumulatorAGPRs", c_int),
        ("columnConsumerElements", c_int64),
    ]


class KernelStats(Structure):
    """MxGFX950KernelStats (mx-c/KernelReport.h)."""
    _fields_ = [
        ("binary", StringRef),
        ("name", StringRef),
        ("vgprs", c_int64),
        ("agprs", c_int64),
        ("sgprs", c_int64),
        ("ldsBytes", c_int64),
        ("scratchBytes", c_int64),
        ("vgprSpills", c_int64),
        ("sgprSpills", c_int64),
        ("maxWorkgroupSize", c_int64),
        ("codeBytes", c_int64),
        ("wavesPerSIMD", c_int64),
        ("mfmas", c_int64),
        ("mainLoopMFMAs", c_int64),
        ("hasLoop", c_bool),
    ]


class CodeObject(Structure):
    """MxGFX950CodeObject (mx-c/CodeObjects.h)."""
    _fields_ = [("binary", StringRef), ("bytes", StringRef),
                ("isCodeObject", c_bool)]


class TensorType(Structure):
    """MxTensorType (mx-c/Runner.h)."""
    _fields_ = [
        ("type", StringRef),
        ("elementType", StringRef),
        ("elementBits", c_int64),
        ("rank", c_ssize_t),
        ("shape", POINTER(c_int64)),
        ("numBytes", c_int64),
    ]


class TensorBuffer(Structure):
    """MxTensorBuffer (mx-c/Runner.h)."""
    _fields_ = [("data", c_void_p), ("numBytes", c_int64)]


class Tensor(Structure):
    """MxTensor (mx-c/Runner.h)."""
    _fields_ = [("type", TensorType), ("data", StringRef)]


class RunOptions(Structure):
    """MxRunOptions (mx-c/Runner.h)."""
    _fields_ = [
        ("entry", StringRef),
        ("backend", StringRef),
        ("gfx950", POINTER(GFX950PipelineOptions)),
        ("compareReference", c_bool),
        ("rtol", c_double),
        ("atol", c_double),
        ("sumTol", c_double),
        ("threads", c_int64),
        ("maxWorkgroups", c_int64),
        ("maxMemory", c_int64),
        ("optLevel", c_int64),
    ]


KernelStatsCallback = CFUNCTYPE(None, POINTER(KernelStats), c_void_p)
CodeObjectCallback = CFUNCTYPE(None, POINTER(CodeObject), c_void_p)
TensorTypeCallback = CFUNCTYPE(None, c_bool, c_ssize_t, POINTER(TensorType),
                               c_void_p)
TensorCallback = CFUNCTYPE(None, c_ssize_t, POINTER(Tensor), c_void_p)

# name: (result type, argument types)
_SIGNATURES = {
    # mlir-c
    "mlirDialectRegistryCreate": (DialectRegistry, []),
    "mlirDialectRegistryDestroy": (None, [DialectRegistry]),
    "mlirContextCreateWithRegistry": (Context, [DialectRegistry, c_bool]),
    "mlirContextDestroy": (None, [Context]),
    "mlirContextAttachDiagnosticHandler":
        (c_int64, [Context, DiagnosticHandler, c_void_p, c_void_p]),
    "mlirDiagnosticPrint": (None, [Diagnostic, StringCallback, c_void_p]),
    "mlirDiagnosticGetSeverity": (c_int, [Diagnostic]),
    "mlirDiagnosticGetLocation": (Location, [Diagnostic]),
    "mlirDiagnosticGetNumNotes": (c_ssize_t, [Diagnostic]),
    "mlirDiagnosticGetNote": (Diagnostic, [Diagnostic, c_ssize_t]),
    "mlirLocationPrint": (None, [Location, StringCallback, c_void_p]),
    "mlirModuleCreateParse": (Module, [Context, StringRef]),
    "mlirModuleCreateParseFromFile": (Module, [Context, StringRef]),
    "mlirModuleDestroy": (None, [Module]),
    "mlirModuleGetOperation": (Operation, [Module]),
    "mlirOperationPrint": (None, [Operation, StringCallback, c_void_p]),
    "mlirPassManagerCreate": (PassManager, [Context]),
    "mlirPassManagerDestroy": (None, [PassManager]),
    "mlirPassManagerGetAsOpPassManager": (OpPassManager, [PassManager]),
    "mlirPassManagerRunOnOp": (LogicalResult, [PassManager, Operation]),
    # mx-c
    "mxGetVersion": (StringRef, []),
    "mxGetCommit": (StringRef, []),
    "mxRegisterDialects": (None, [DialectRegistry]),
    "mxRegisterPipelineDialects": (None, [DialectRegistry]),
    "mxGFX950PipelineOptionsGetDefault": (GFX950PipelineOptions, []),
    "mxBuildGFX950Pipeline":
        (LogicalResult, [OpPassManager, POINTER(GFX950PipelineOptions)]),
    "mxBuildCPUPipeline": (LogicalResult, [OpPassManager, c_bool]),
    "mxGFX950ForEachKernel":
        (LogicalResult, [Operation, KernelStatsCallback, c_void_p]),
    "mxGFX950PrintKernelReport":
        (LogicalResult, [Operation, StringCallback, c_void_p]),
    "mxGFX950ForEachCodeObject":
        (LogicalResult, [Operation, CodeObjectCallback, c_void_p]),
    "mxForEachEntryType":
        (LogicalResult, [Module, StringRef, TensorTypeCallback, c_void_p]),
    "mxRunOptionsGetDefault": (RunOptions, []),
    "mxRun": (LogicalResult, [Module, POINTER(RunOptions),
                              POINTER(TensorBuffer), c_ssize_t, TensorCallback,
                              StringCallback, c_void_p, POINTER(c_bool)]),
    "mxGFX950PrintLaunchPlan":
        (LogicalResult, [Module, StringRef, POINTER(GFX950PipelineOptions),
                         StringCallback, c_void_p]),
}

_SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}


def _candidates():
    name = "libMXCAPI.so"
    if os.environ.get("MX_LIBRARY"):
        yield os.environ["MX_LIBRARY"]
    for variable in ("MX_BUILD_DIR", "MX_PREFIX"):
        if os.environ.get(variable):
            yield os.path.join(os.environ[variable], "lib", name)
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "build", "lib", name)
    mx_opt = shutil.which("mx-opt")
    if mx_opt:
        yield os.path.join(os.path.dirname(os.path.realpath(mx_opt)), "..",
                           "lib", name)
    found = ctypes.util.find_library("MXCAPI")
    if found:
        yield found
    yield name


class _Library:
    """The loaded libMXCAPI.so with its functions declared."""

    def __init__(self):
        errors = []
        explicit = bool(os.environ.get("MX_LIBRARY"))
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                if explicit:
                    raise MXError("MX_LIBRARY names '%s', which does not "
                                  "exist" % path)
                continue
            try:
                self.dll = ctypes.CDLL(path)
                self.path = path
                break
            except OSError as error:
                errors.append("%s: %s" % (path, error))
                if explicit:
                    break
        else:
            errors = []
        if not hasattr(self, "dll"):
            raise MXError(
                "cannot load libMXCAPI.so (the mx C API library the build "
                "makes in build/lib): set MX_LIBRARY to its path, or "
                "MX_BUILD_DIR/MX_PREFIX to the build or install tree" +
                ("; tried " + "; ".join(errors) if errors else ""))
        for name, (restype, argtypes) in _SIGNATURES.items():
            function = getattr(self.dll, name)
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)

    def tool(self, name):
        """The path of the mx tool `name` (e.g. mx-layout): $MX_TOOLS_DIR,
        next to the library (lib/../bin), or PATH."""
        directories = []
        if os.environ.get("MX_TOOLS_DIR"):
            directories.append(os.environ["MX_TOOLS_DIR"])
        directories.append(
            os.path.join(os.path.dirname(os.path.realpath(self.path)), "..",
                         "bin"))
        for directory in directories:
            path = os.path.join(directory, name)
            if os.access(path, os.X_OK):
                return os.path.normpath(path)
        found = shutil.which(name)
        if found:
            return found
        raise MXError("cannot find the %s tool: set MX_TOOLS_DIR to the "
                      "directory holding it" % name)


_library = None
_library_lock = threading.Lock()


def lib():
    """The loaded C API library (loaded at the first call)."""
    global _library
    with _library_lock:
        if _library is None:
            _library = _Library()
        return _library


def collect_strings():
    """A StringCallback and the list of str pieces it appends to."""
    pieces = []

    @StringCallback
    def callback(text, _):
        pieces.append(text.bytes())

    return callback, pieces


def joined(pieces):
    return b"".join(pieces).decode("utf-8", "replace")


class MLIRContext:
    """An MLIR context with the mx and pipeline dialects, whose diagnostics
    are collected as text (`diagnostics`) instead of printed. Use as a
    context manager; check(result, what) raises MXError with them."""

    def __init__(self):
        self.lib = lib()
        registry = self.lib.mlirDialectRegistryCreate()
        self.lib.mxRegisterDialects(registry)
        self.lib.mxRegisterPipelineDialects(registry)
        self.context = self.lib.mlirContextCreateWithRegistry(registry, False)
        self.lib.mlirDialectRegistryDestroy(registry)
        self.diagnostics = []
        self._handler = DiagnosticHandler(self._on_diagnostic)
        self.lib.mlirContextAttachDiagnosticHandler(self.context,
                                                    self._handler, None, None)
        self._modules = []

    def _format(self, diagnostic, indent=""):
        callback, pieces = collect_strings()
        self.lib.mlirLocationPrint(
            self.lib.mlirDiagnosticGetLocation(diagnostic), callback, None)
        location = joined(pieces)
        # loc("file.mlir":3:8) -> file.mlir:3:8, as mx-opt prints it.
        match = re.fullmatch(r'loc\("(.*)":(\d+):(\d+)\)', location)
        if match:
            location = "%s:%s:%s" % match.groups()
        callback, pieces = collect_strings()
        self.lib.mlirDiagnosticPrint(diagnostic, callback, None)
        severity = _SEVERITIES.get(
            self.lib.mlirDiagnosticGetSeverity(diagnostic), "diagnostic")
        lines = ["%s%s: %s: %s" % (indent, location, severity,
                                   joined(pieces))]
        for index in range(self.lib.mlirDiagnosticGetNumNotes(diagnostic)):
            lines.append(
                self._format(self.lib.mlirDiagnosticGetNote(diagnostic, index),
                             indent + "  "))
        return "\n".join(lines)

    def _on_diagnostic(self, diagnostic, _):
        try:
            self.diagnostics.append(self._format(Diagnostic(diagnostic)))
        except Exception:  # never let an exception cross into C
            self.diagnostics.append("<unprintable diagnostic>")
        return 1

    def take_diagnostics(self):
        text = "\n".join(self.diagnostics)
        self.diagnostics = []
        return text

    def check(self, result, what):
        """Raises MXError naming `what` unless `result` is a success."""
        if result.value:
            return
        details = self.take_diagnostics()
        raise MXError(what + (":\n" + details if details else ""))

    def parse(self, text, path=None):
        """Parses `text` (str) into a module owned by this context; from the
        file `path` instead when given (diagnostics then name the file)."""
        if path:
            data = os.fsencode(path)
            module = self.lib.mlirModuleCreateParseFromFile(
                self.context, StringRef.of(data))
        else:
            data = text.encode("utf-8")
            module = self.lib.mlirModuleCreateParse(self.context,
                                                    StringRef.of(data))
        if not module.ptr:
            details = self.take_diagnostics()
            raise MXError("cannot parse the program" +
                          (":\n" + details if details else ""))
        self._modules.append(module)
        return module

    def close(self):
        for module in self._modules:
            self.lib.mlirModuleDestroy(module)
        self._modules = []
        if self.context.ptr:
            self.lib.mlirContextDestroy(self.context)
            self.context = Context()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
