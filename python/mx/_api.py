# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""mx.compile, mx.run, mx.quantize, mx.dequantize, mx.layout."""

import ctypes
import dataclasses
import os
import subprocess

import numpy as np

from . import _capi
from ._capi import MXError, MLIRContext, StringRef
from ._tensors import TensorType, from_buffer, to_buffer

# --- pipeline options -------------------------------------------------------

_ENUMS = {
    "intrinsic": {None: 0, "default": 0, "16x16x128": 1, "32x32x64": 2},
    "output": {"gpu": 0, "rocdl": 1, "isa": 2, "hsaco": 3},
    "quantize_in_gemm": {"auto": 0, "always": 1, "never": 2},
    "reserve_accumulator_agprs": {"auto": 0, "always": 1, "never": 2},
}

#: Python keyword -> field of MxGFX950PipelineOptions (mx-c/Pipelines.h);
#: the keyword is the pipeline option's name with '-' as '_'.
PIPELINE_OPTIONS = {
    "intrinsic": "intrinsic",
    "intrinsics_m": "intrinsicsM",
    "intrinsics_n": "intrinsicsN",
    "intrinsics_k": "intrinsicsK",
    "subgroups_m": "subgroupsM",
    "subgroups_n": "subgroupsN",
    "relayout_workgroup_size": "relayoutWorkgroupSize",
    "output": "output",
    "lld": "lld",
    "split_k": "splitK",
    "config_table": "configTable",
    "quantize_in_gemm": "quantizeInGEMM",
    "unroll_k": "unrollK",
    "reserve_accumulator_agprs": "reserveAccumulatorAGPRs",
    "column_consumer_elements": "columnConsumerElements",
}


class PipelineOptions:
    """mx-gfx950-pipeline's options as the C struct, from keyword arguments
    (e.g. intrinsic="32x32x64", intrinsics_m=2, split_k=1); the strings it
    points to live as long as this object."""

    def __init__(self, options):
        self.given = {}
        for key, value in options.items():
            name = key.replace("-", "_")
            if name not in PIPELINE_OPTIONS:
                raise TypeError(
                    "unknown mx-gfx950-pipeline option '%s' (options: %s)" %
                    (key, ", ".join(sorted(PIPELINE_OPTIONS))))
            self.given[name] = value
        self.struct = _capi.lib().mxGFX950PipelineOptionsGetDefault()
        self._keep = []
        for name, value in self.given.items():
            field = PIPELINE_OPTIONS[name]
            if name in _ENUMS:
                table = _ENUMS[name]
                if value not in table:
                    raise MXError("invalid %s '%s' (one of: %s)" % (
                        name, value,
                        ", ".join(str(k) for k in table if k is not None)))
                setattr(self.struct, field, table[value])
            elif name in ("lld", "config_table"):
                data = str(value or "").encode("utf-8")
                self._keep.append(data)
                setattr(self.struct, field, StringRef.of(data))
            else:
                if isinstance(value, bool) or not isinstance(
                        value, (int, np.integer)):
                    raise MXError("%s must be an integer, got %r" %
                                  (name, value))
                setattr(self.struct, field, int(value))

    def with_output(self, output):
        """A copy with option `output` replaced."""
        options = dict(self.given)
        options["output"] = output
        return PipelineOptions(options)

    def pointer(self):
        return ctypes.pointer(self.struct)


# --- programs -------------------------------------------------------------


def _read_program(program):
    """(MLIR text, path or None) of `program`: a Program, a path, or MLIR
    text."""
    if isinstance(program, Program):
        return program.source, program.path
    if isinstance(program, os.PathLike):
        program = os.fspath(program)
    if not isinstance(program, str):
        raise TypeError("a program is MLIR text, a path or what mx.compile "
                        "returned, not %s" % type(program).__name__)
    if "\n" not in program and "{" not in program and \
            os.path.isfile(program):
        with open(program, encoding="utf-8") as f:
            return f.read(), program
    if "\n" not in program and program.endswith(".mlir"):
        raise MXError("no such file: '%s'" % program)
    return program, None


@dataclasses.dataclass(frozen=True)
class Kernel:
    """One kernel of the report (mx-c/KernelReport.h's MxGFX950KernelStats):
    registers, LDS and scratch bytes, spills, code size, occupancy (waves per
    SIMD) and MFMA counts (main_loop_mfmas: in the loop with the most)."""
    binary: str
    name: str
    vgprs: int
    agprs: int
    sgprs: int
    lds_bytes: int
    scratch_bytes: int
    vgpr_spills: int
    sgpr_spills: int
    max_workgroup_size: int
    code_bytes: int
    waves_per_simd: int
    mfmas: int
    main_loop_mfmas: int
    has_loop: bool


def _kernel(stats):
    return Kernel(
        stats.binary.str(), stats.name.str(), stats.vgprs, stats.agprs,
        stats.sgprs, stats.ldsBytes, stats.scratchBytes, stats.vgprSpills,
        stats.sgprSpills, stats.maxWorkgroupSize, stats.codeBytes,
        stats.wavesPerSIMD, stats.mfmas, stats.mainLoopMFMAs, stats.hasLoop)


def _run_pipeline(context, source, options, path=None):
    """Parses `source` (from `path` when given) and runs mx-gfx950-pipeline
    with `options` on it; returns the module."""
    lib = context.lib
    module = context.parse(source, path)
    pm = lib.mlirPassManagerCreate(context.context)
    try:
        context.check(
            lib.mxBuildGFX950Pipeline(lib.mlirPassManagerGetAsOpPassManager(pm),
                                      options.pointer()),
            "invalid mx-gfx950-pipeline options")
        context.check(
            lib.mlirPassManagerRunOnOp(pm, lib.mlirModuleGetOperation(module)),
            "mx-gfx950-pipeline failed")
    finally:
        lib.mlirPassManagerDestroy(pm)
    return module


def _objects(context, module):
    """{binary: (bytes, is_code_object)} of the module's gpu.binary ops."""
    objects = {}

    @_capi.CodeObjectCallback
    def callback(pointer, _):
        item = pointer.contents
        objects[item.binary.str()] = (item.bytes.bytes(), item.isCodeObject)

    context.check(
        context.lib.mxGFX950ForEachCodeObject(
            context.lib.mlirModuleGetOperation(module), callback, None),
        "the compiled program has no gpu.binary")
    return objects


class Program:
    """A program compiled by mx.compile for gfx950.

    Attributes: `source` (the MLIR text given), `options` (the pipeline
    options, keyword form), `ir` (the module after the pipeline), `kernels`
    (list of Kernel), `kernel_report` (the text of
    --mx-gfx950-kernel-report), `isa` ({gpu.module: assembly}); computed on
    first use: `code_objects` ({gpu.module: ELF bytes}, a second compilation
    with output=hsaco) and `launch_plan` (the text of mx-run --backend=hip
    --dry-run)."""

    def __init__(self, source, options, entry=None, path=None):
        self.source = source
        self.path = path
        self.entry = entry
        self._options = PipelineOptions(options)
        self.options = dict(self._options.given)
        self.kernels, self.kernel_report, self.isa, self.ir = [], "", {}, ""
        self._code_objects = None
        self._launch_plan = None
        output = self.options.get("output", "isa")
        compile_options = self._options.with_output(output)
        with MLIRContext() as context:
            module = _run_pipeline(context, source, compile_options, path)
            lib = context.lib
            operation = lib.mlirModuleGetOperation(module)
            callback, pieces = _capi.collect_strings()
            lib.mlirOperationPrint(operation, callback, None)
            self.ir = _capi.joined(pieces)
            if output not in ("isa", "hsaco"):
                return
            for binary, (data, is_object) in _objects(context,
                                                      module).items():
                if is_object:
                    self._code_objects = self._code_objects or {}
                    self._code_objects[binary] = data
                else:
                    self.isa[binary] = data.decode("utf-8", "replace")
            if output != "isa":
                return

            @_capi.KernelStatsCallback
            def on_kernel(pointer, _):
                self.kernels.append(_kernel(pointer.contents))

            context.check(lib.mxGFX950ForEachKernel(operation, on_kernel, None),
                          "cannot read the kernel report")
            callback, pieces = _capi.collect_strings()
            context.check(
                lib.mxGFX950PrintKernelReport(operation, callback, None),
                "cannot print the kernel report")
            self.kernel_report = _capi.joined(pieces)

    @property
    def code_objects(self):
        if self._code_objects is None:
            with MLIRContext() as context:
                module = _run_pipeline(context, self.source,
                                       self._options.with_output("hsaco"),
                                       self.path)
                self._code_objects = {
                    binary: data
                    for binary, (data, _) in _objects(context, module).items()
                }
        return self._code_objects

    @property
    def launch_plan(self):
        if self._launch_plan is None:
            with MLIRContext() as context:
                module = context.parse(self.source, self.path)
                callback, pieces = _capi.collect_strings()
                entry = (self.entry or "").encode("utf-8")
                context.check(
                    context.lib.mxGFX950PrintLaunchPlan(
                        module, StringRef.of(entry), self._options.pointer(),
                        callback, None), "cannot make the launch plan")
                self._launch_plan = _capi.joined(pieces)
        return self._launch_plan

    def __repr__(self):
        return "<mx.Program: %d kernels, options %s>" % (len(self.kernels),
                                                         self.options)


def compile(program, target="gfx950", entry=None, **pipeline_options):
    """Compiles `program` (MLIR text or a path to a .mlir file) with
    mx-gfx950-pipeline and the given options (every option of the pipeline,
    '-' spelled '_': intrinsic="32x32x64", intrinsics_m=2, split_k=1,
    quantize_in_gemm="always", output="isa" (the default), ...). `entry`
    names the function launch_plan and mx.run use. Returns a Program."""
    if target != "gfx950":
        raise MXError("unknown target '%s' (available: gfx950)" % target)
    source, path = _read_program(program)
    return Program(source, pipeline_options, entry, path)


# --- running ----------------------------------------------------------------

BACKENDS = ("cpu", "gfx950-emu", "gfx950-isa", "hip", "reference")


class Results(list):
    """mx.run's results (one numpy array per result of the function), with
    `report`: the comparison report (compare="reference"), else ""."""
    report = ""


class MismatchError(MXError):
    """compare="reference" found results that differ from the reference:
    the message is the report; `results` holds what the backend computed."""

    def __init__(self, report, results):
        super().__init__(report)
        self.report = report
        self.results = results


def entry_types(program, entry=None):
    """The argument and result types of the function `entry` (default: the
    only one) of `program`: (list of TensorType, list of TensorType)."""
    source, path = _read_program(program)
    with MLIRContext() as context:
        return _entry_types(context, context.parse(source, path), entry)


def _entry_types(context, module, entry):
    arguments, results = [], []

    @_capi.TensorTypeCallback
    def callback(is_result, index, pointer, _):
        (results if is_result else arguments).append(
            TensorType(pointer.contents))

    name = (entry or "").encode("utf-8")
    context.check(
        context.lib.mxForEachEntryType(module, StringRef.of(name), callback,
                                       None),
        "cannot run the program")
    return arguments, results


def run(program, *arrays, entry=None, backend="cpu", compare=None, rtol=0.0,
        atol=0.0, threads=1, max_workgroups=0, max_memory=0, opt_level=2,
        **pipeline_options):
    """Runs the function `entry` (default: the program's entry, else its only
    function) of `program` (what mx.compile returned, with its options; or
    MLIR text or a path with `pipeline_options`) on `backend` with one numpy
    array per argument (mx._tensors describes the conventions: MX elements
    and scales as uint8, bf16 as uint16 bits or floats rounded to nearest
    even). Returns Results, one numpy array per result. compare="reference"
    checks every result against the independent reference evaluator (bit
    for bit by default, rtol/atol for floats) and raises MismatchError with
    the report when one differs."""
    if backend not in BACKENDS:
        raise MXError("unknown backend '%s' (available: %s)" %
                      (backend, ", ".join(BACKENDS)))
    if compare not in (None, "reference"):
        raise MXError("compare must be None or 'reference', got %r" %
                      (compare,))
    if isinstance(program, Program):
        if pipeline_options:
            raise TypeError("pipeline options come from mx.compile when the "
                            "program is a Program")
        options = program._options
        entry = entry or program.entry
    else:
        options = PipelineOptions(pipeline_options)
    source, path = _read_program(program)
    with MLIRContext() as context:
        lib = context.lib
        module = context.parse(source, path)
        arguments, _ = _entry_types(context, module, entry)
        if len(arrays) != len(arguments):
            raise MXError("the function takes %d argument(s) but %d "
                          "array(s) were given" % (len(arguments),
                                                   len(arrays)))
        buffers = [
            to_buffer(array, tensor_type, "argument #%d" % index)
            for index, (array, tensor_type) in enumerate(
                zip(arrays, arguments))
        ]
        inputs = (_capi.TensorBuffer * max(1, len(buffers)))()
        for index, data in enumerate(buffers):
            inputs[index].data = data.ctypes.data
            inputs[index].numBytes = data.nbytes
        run_options = lib.mxRunOptionsGetDefault()
        entry_bytes = (entry or "").encode("utf-8")
        backend_bytes = backend.encode("utf-8")
        run_options.entry = StringRef.of(entry_bytes)
        run_options.backend = StringRef.of(backend_bytes)
        run_options.gfx950 = options.pointer()
        run_options.compareReference = compare == "reference"
        run_options.rtol, run_options.atol = float(rtol), float(atol)
        run_options.threads = int(threads)
        run_options.maxWorkgroups = int(max_workgroups)
        run_options.maxMemory = int(max_memory)
        run_options.optLevel = int(opt_level)
        results = Results()

        errors = []

        @_capi.TensorCallback
        def on_result(index, pointer, _):
            try:  # an exception must not cross into C
                tensor = pointer.contents
                results.append(from_buffer(tensor.data.bytes(),
                                           TensorType(tensor.type)))
            except Exception as error:
                errors.append(error)

        report, pieces = _capi.collect_strings()
        passed = ctypes.c_bool(True)
        context.check(
            lib.mxRun(module, ctypes.byref(run_options), inputs, len(buffers),
                      on_result, report, None, ctypes.byref(passed)),
            "the run on %s failed" % backend)
        if errors:
            raise MXError("cannot read a result: %s" % errors[0])
        results.report = _capi.joined(pieces)
        if not passed.value:
            raise MismatchError(results.report, results)
        return results


# --- quantization -----------------------------------------------------------

#: Short names of the MX element types, and their MLIR spellings.
FORMATS = {
    "fp4": "f4E2M1FN",
    "fp6_e2m3": "f6E2M3FN",
    "fp6_e3m2": "f6E3M2FN",
    "fp8_e4m3": "f8E4M3FN",
    "fp8_e5m2": "f8E5M2",
}
RULES = ("floor", "ceil", "even", "rceil")
ROUNDINGS = ("nearest_even", "ties_away")


def _format(name):
    if name in FORMATS:
        return FORMATS[name]
    if name in FORMATS.values():
        return name
    raise MXError("unknown MX format '%s' (one of: %s)" %
                  (name, ", ".join(list(FORMATS) + list(FORMATS.values()))))


def _tensor(shape, element):
    return "tensor<%sx%s>" % ("x".join(str(s) for s in shape), element)


def _axis(axis, rank):
    if not -rank <= axis < rank:
        raise MXError("axis %d is out of range for rank %d" % (axis, rank))
    return axis % rank


def quantize(array, format="fp4", rule="even", rounding="ties_away", axis=-1,
             input_type=None):
    """Quantizes `array` to MX `format` in blocks of 32 along `axis` with the
    scale `rule` (floor, ceil, even, rceil) and element `rounding`
    (nearest_even, ties_away), on the CPU path (mx.quantize through
    mx-cpu-pipeline). `array` is float32, float16, or uint16 bf16 bit
    patterns; input_type="bf16" first rounds a float array to bf16 (nearest
    even). Returns (elements, scales) as uint8: elements packed as mx.run
    returns them (fp4: two per byte), scales one E8M0 byte per block."""
    array = np.asarray(array)
    element = _format(format)
    if rule not in RULES:
        raise MXError("unknown scale rule '%s' (one of: %s)" %
                      (rule, ", ".join(RULES)))
    if rounding not in ROUNDINGS:
        raise MXError("unknown rounding '%s' (one of: %s)" %
                      (rounding, ", ".join(ROUNDINGS)))
    if input_type is None:
        input_type = {np.dtype(np.float32): "f32",
                      np.dtype(np.float16): "f16",
                      np.dtype(np.uint16): "bf16"}.get(array.dtype)
        if input_type is None:
            raise MXError("quantize takes float32, float16 or uint16 (bf16 "
                          "bits) arrays, got %s (or pass input_type)" %
                          array.dtype)
    if input_type not in ("f32", "f16", "bf16"):
        raise MXError("input_type must be f32, f16 or bf16")
    if array.ndim == 0:
        raise MXError("quantize needs an array of rank 1 or more")
    shape = array.shape
    axis = _axis(axis, len(shape))
    if shape[axis] % 32:
        raise MXError("the size along axis %d (%d) is not a multiple of the "
                      "block size 32" % (axis, shape[axis]))
    scale_shape = shape[:axis] + (shape[axis] // 32,) + shape[axis + 1:]
    x, q, s = (_tensor(shape, input_type), _tensor(shape, element),
               _tensor(scale_shape, "f8E8M0FNU"))
    source = (
        "func.func @quantize(%%x: %s) -> (%s, %s) {\n"
        "  %%q, %%s = mx.quantize %%x axis(%d) scale(%s) rounding(%s)\n"
        "      : %s -> %s, %s\n"
        "  return %%q, %%s : %s, %s\n}\n" %
        (x, q, s, axis, rule, rounding, x, q, s, q, s))
    elements, scales = run(source, array, backend="cpu")
    return elements, scales


def dequantize(elements, scales, format="fp4", axis=-1, dtype="f32"):
    """The values of MX `elements` (uint8: packed bytes as quantize returns
    them, or one code per element) with E8M0 `scales` (uint8, one per block
    of 32 along `axis`), on the CPU path (mx.dequantize). `dtype` is f32
    (float32), f16 (float16) or bf16 (uint16 bit patterns)."""
    scales = np.asarray(scales)
    element = _format(format)
    if dtype not in ("f32", "f16", "bf16"):
        raise MXError("dtype must be f32, f16 or bf16")
    if scales.ndim == 0:
        raise MXError("scales need rank 1 or more")
    axis = _axis(axis, scales.ndim)
    shape = scales.shape[:axis] + (scales.shape[axis] * 32,) + \
        scales.shape[axis + 1:]
    e, s, r = (_tensor(shape, element), _tensor(scales.shape, "f8E8M0FNU"),
               _tensor(shape, dtype))
    source = (
        "func.func @dequantize(%%e: %s, %%s: %s) -> %s {\n"
        "  %%r = mx.dequantize %%e, %%s axis(%d) : %s, %s -> %s\n"
        "  return %%r : %s\n}\n" % (e, s, r, axis, e, s, r, r))
    (values,) = run(source, elements, scales, backend="cpu")
    return values


# --- layouts ------------------------------------------------------------------


def layout(layout=None, format="text", **options):
    """The picture of a data-tiled layout from the mx-layout tool: `layout`
    is a #mx.data_tiled_layout<...> (or None to resolve one from lhs_type,
    rhs_type, m, n and the intrinsic options); every other keyword is an
    mx-layout option with '-' spelled '_' (operand="lhs", cells="lane",
    rows="0:16", where="3,5", target=...). format="svg" returns the SVG
    text. Raises MXError with the tool's message on bad options."""
    tool = _capi.lib().tool("mx-layout")
    command = [tool, "--format=" + format]
    if layout is not None:
        command.append("--layout=" + layout)
    for key, value in options.items():
        if value is None:
            continue
        command.append("--%s=%s" % (key.replace("_", "-"), value))
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise MXError("mx-layout failed: " + result.stderr.strip())
    return result.stdout


def version():
    """mx's version and the commit it was built from."""
    lib = _capi.lib()
    return "%s (%s)" % (lib.mxGetVersion().str(), lib.mxGetCommit().str())
