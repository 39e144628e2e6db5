#!/usr/bin/env python3
"""A static performance model of gfx950 (MI355X) scaled-MFMA GEMM kernels.

There is no gfx950 GPU here, so the speed of a kernel is argued from its
code. This module turns a kernel's ISA (the assembly that
`mx-opt --mx-gfx950-pipeline=output=isa` embeds in its gpu.binary ops, or
`llvm-objdump -d --mcpu=gfx950` of a code object) and a launch shape into
predicted main-loop cycles and whole-GEMM time. bench/README.md states every
assumption; the constants are the rows of
include/mx/Target/GFX950/ISA/MachineModel.def, read into `Machine` below. It is a library (the
resolver or a tuner can call `analyze_loop` and `predict_gemm`) and a tool:

  python3 bench/mx_perf_model.py calibrate            # AITER's 256x256 kernel
  python3 bench/mx_perf_model.py kernel --mx-opt build/bin/mx-opt \
      [--lhs-type f4E2M1FN --rhs-type f4E2M1FN] [--pins "intrinsic=32x32x64"]

Inputs and outputs (what a C++ resolver would need to reproduce it):
  in:  the main loop's instructions (mnemonic and operands, in issue order),
       the workgroup tile (TM x TN), waves per workgroup, workgroups per CU,
       the problem shape (M, N, K) and the output element size;
  out: per iteration: MFMA pipe cycles, issue cycles, LDS and global bytes,
       exposed waits (vmcnt / lgkmcnt / barrier), steady-state cycles and the
       resource that bounds them; per GEMM: tiles, rounds over the CUs
       (wave quantization), per-tile cycles, time and PFLOP/s.
"""

import argparse
import dataclasses
import functools
import json
import math
import os
import re
import subprocess
import sys


# --- the machine ------------------------------------------------------------
#
# The constants live in one file shared with the ISA executor's timing mode:
# include/mx/Target/GFX950/ISA/MachineModel.def, one row
#   MX_GFX950_MACHINE(Name, python_name, value, "unit", Kind, "source")
# each. `Machine` is built from those rows (a frozen dataclass whose fields
# are the python_names, in the file's order, defaulting to the file's
# values), so no constant is written down twice.

MACHINE_DEF = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "include", "mx",
    "Target", "GFX950", "ISA", "MachineModel.def"))


@dataclasses.dataclass(frozen=True)
class MachineRow:
    name: str          # the C++ name (MFMA16NarrowCycles)
    python_name: str   # the Machine field (mfma16_narrow_cycles)
    value: object      # int or float
    unit: str
    kind: str          # Sourced, Assumed or Calibrated
    source: str


_ROW_RE = re.compile(
    r'MX_GFX950_MACHINE\(\s*(\w+)\s*,\s*(\w+)\s*,\s*([-+.\w]+)\s*,\s*'
    r'"((?:[^"\\]|\\.)*)"\s*,\s*(\w+)\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)')


def _number(text):
    try:
        return int(text)
    except ValueError:
        return float(text)


def read_machine_def(path=MACHINE_DEF):
    """The rows of MachineModel.def (MachineRow), in the file's order.
    Comments and preprocessor lines are skipped; a source split over
    several string literals is joined."""
    with open(path) as fh:
        lines = [l for l in fh.read().splitlines()
                 if not l.lstrip().startswith(("//", "#"))]
    rows = []
    for m in _ROW_RE.finditer("\n".join(lines)):
        name, py, value, unit, kind, source = m.groups()
        if kind not in ("Sourced", "Assumed", "Calibrated"):
            raise ValueError("%s: row %s has kind %s" % (path, name, kind))
        source = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', source))
        rows.append(MachineRow(name, py, _number(value), unit, kind, source))
    return rows


MACHINE_ROWS = read_machine_def()

# The fields this model reads; the .def file must have each.
_REQUIRED = (
    "cus", "clock_hz", "simds_per_cu", "hbm_bytes_per_s", "issue_cycles",
    "mfma_idle_start_cycles", "mfma16_narrow_cycles", "mfma16_wide_cycles",
    "mfma32_narrow_cycles", "mfma32_wide_cycles",
    "mfma_dependent_extra_cycles", "lds_bytes_per_clk_cu", "lds_latency",
    "l2_bytes_per_clk_cu", "global_latency", "barrier_cycles", "efficiency")
_missing = set(_REQUIRED) - {r.python_name for r in MACHINE_ROWS}
if _missing:
    raise ImportError("%s lacks the rows %s" % (MACHINE_DEF,
                                                ", ".join(sorted(_missing))))

Machine = dataclasses.make_dataclass(
    "Machine",
    [(r.python_name, type(r.value), dataclasses.field(default=r.value))
     for r in MACHINE_ROWS],
    frozen=True,
    namespace={"__module__": __name__, "__doc__":
               "MI355X (gfx950) constants, one field per row of "
               "MachineModel.def (its python_name), defaulting to its "
               "value. `efficiency` is the one calibrated constant: "
               "achieved / modelled throughput, fitted on AITER's published "
               "16384^3 time (`calibrate`); it stands for what the model "
               "does not see (clock drop under load, L2 misses, DRAM "
               "refresh, launch overhead)."})


def machine_rows(machine=None):
    """[(name, python_name, value, unit, kind, source)] of every constant,
    the value `machine`'s (default: the file's)."""
    machine = machine or Machine()
    return [(r.name, r.python_name, getattr(machine, r.python_name), r.unit,
             r.kind, r.source) for r in MACHINE_ROWS]


_DEFAULT_MACHINE = Machine()


def with_overrides(machine, settings):
    """`machine` with constants replaced: `settings` is a list of
    'python_name=value' strings (the --set options) or a dict."""
    if not isinstance(settings, dict):
        parsed = {}
        for s in settings or ():
            if "=" not in s:
                raise ValueError("--set %s: expected NAME=VALUE" % s)
            key, value = s.split("=", 1)
            parsed[key.strip()] = _number(value.strip())
        settings = parsed
    fields = {f.name for f in dataclasses.fields(Machine)}
    for key in settings:
        if key not in fields:
            raise ValueError("unknown machine constant %r (one of: %s)"
                             % (key, ", ".join(sorted(fields))))
    return dataclasses.replace(machine, **settings)


# E8M0-scaled MFMA operand formats (cbsz for A, blgp for B; ISA §7.x):
# 0 fp8 E4M3, 1 bf8 E5M2, 2 fp6 E2M3, 3 bf6 E3M2, 4 fp4 E2M1.
FORMAT_NAMES = {0: "fp8", 1: "bf8", 2: "fp6", 3: "bf6", 4: "fp4"}
LDS_READ_BYTES = {"b32": 4, "b64": 8, "b96": 12, "b128": 16, "u8": 1,
                  "u16": 2, "i8": 1, "i16": 2}


@dataclasses.dataclass
class Instr:
    mnemonic: str
    operands: str
    index: int

    @property
    def text(self):
        return (self.mnemonic + " " + self.operands).strip()


def parse_isa(text):
    """Instructions and labels of an AMDGPU assembly listing (LLVM asm or
    llvm-objdump output). Returns (instructions, {label: index})."""
    instrs, labels = [], {}
    for raw in text.splitlines():
        line = raw.split("//")[0].split(";")[0].rstrip()
        if not line.strip():
            continue
        m = re.match(r"^\s*(?:[0-9a-f]+\s+)?<?([.\w$]+)>?:\s*$", line)
        if m:
            labels[m.group(1)] = len(instrs)
            continue
        s = line.strip()
        if s.startswith("."):
            continue
        parts = s.split(None, 1)
        if not re.match(r"^[a-z][a-z0-9_]*$", parts[0]):
            continue
        instrs.append(Instr(parts[0], parts[1] if len(parts) > 1 else "",
                            len(instrs)))
    return instrs, labels


def is_mfma(i):
    return i.mnemonic.startswith("v_mfma")


def closes_loop(instrs, labels, start, end):
    """Whether the backward branch instrs[end] to instrs[start] closes a
    loop: whether control reaches it from `start` without leaving [start,
    end]. A block that LLVM placed after the code it jumps back into (the
    rare side of a branch, moved to the function's end) is no loop."""
    seen, work = set(), [start]
    while work:
        i = work.pop()
        while i <= end and i not in seen:
            seen.add(i)
            if i == end:
                return True
            ins = instrs[i]
            if ins.mnemonic == "s_endpgm":
                break
            if ins.mnemonic.startswith(("s_branch", "s_cbranch")):
                target = labels.get(ins.operands.split()[0]
                                    if ins.operands else "")
                if target is not None and start <= target <= end:
                    work.append(target)
                if ins.mnemonic == "s_branch":
                    break
            i += 1
    return False


def find_loops(instrs, labels):
    """Backward branches that close loops: (start, end) index pairs, end
    the branch."""
    loops = []
    for i in instrs:
        if i.mnemonic.startswith(("s_branch", "s_cbranch")):
            target = i.operands.split()[0] if i.operands else ""
            if (target in labels and labels[target] <= i.index and
                    closes_loop(instrs, labels, labels[target], i.index)):
                loops.append((labels[target], i.index))
    return loops


def main_loop(instrs, labels, label=None):
    """The loop with the most MFMAs (or the one starting at `label`)."""
    loops = find_loops(instrs, labels)
    if label is not None:
        loops = [l for l in loops if l[0] == labels.get(label)]
    if not loops:
        return None
    best = max(loops, key=lambda l: (sum(is_mfma(i) for i in
                                         instrs[l[0]:l[1] + 1]), -l[0]))
    return instrs[best[0]:best[1] + 1]


REG_RE = re.compile(r"\b([vas])\[(\d+):(\d+)\]|\b([vas])(\d+)\b")


def registers(text):
    """Register names ('v12', 'a3') that an operand string names."""
    out = []
    for m in REG_RE.finditer(text):
        if m.group(1):
            out += ["%s%d" % (m.group(1), r)
                    for r in range(int(m.group(2)), int(m.group(3)) + 1)]
        else:
            out.append("%s%s" % (m.group(4), m.group(5)))
    return out


def split_operands(ops):
    out, depth, cur = [], 0, ""
    for c in ops:
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def mfma_cycles(i, machine=None):
    """Cycles the MFMA occupies its SIMD's matrix pipe: for the f8f6f4
    (scaled) MFMAs the MFMA16/MFMA32 Narrow (fp4/fp6 A and B) or Wide (an
    fp8 operand) rows of MachineModel.def."""
    machine = machine or _DEFAULT_MACHINE
    m = re.search(r"(\d+)x(\d+)x(\d+)", i.mnemonic)
    shape = tuple(int(x) for x in m.groups()) if m else (16, 16, 16)
    if "scale" in i.mnemonic or "f8f6f4" in i.mnemonic:
        a = int((re.search(r"cbsz:(\d)", i.operands) or [0, 0])[1])
        b = int((re.search(r"blgp:(\d)", i.operands) or [0, 0])[1])
        narrow = a >= 2 and b >= 2
        if shape[0] == 16:
            return (machine.mfma16_narrow_cycles if narrow
                    else machine.mfma16_wide_cycles)
        return (machine.mfma32_narrow_cycles if narrow
                else machine.mfma32_wide_cycles)
    # Other MFMAs: 4 passes of 4 cycles per 16x16 block of 4 k (rough).
    return max(8, shape[0] * shape[1] * shape[2] // 1024)


def mfma_formats(i):
    a = int((re.search(r"cbsz:(\d)", i.operands) or [0, 0])[1])
    b = int((re.search(r"blgp:(\d)", i.operands) or [0, 0])[1])
    return FORMAT_NAMES.get(a, "?"), FORMAT_NAMES.get(b, "?")


def mfma_macs(text):
    """Multiply-adds of one MFMA of the first MxNxK shape in `text` (a
    mnemonic, or pipeline options with `intrinsic=`); 0 without one."""
    m = re.search(r"(\d+)x(\d+)x(\d+)", text or "")
    return math.prod(int(x) for x in m.groups()) if m else 0


def mfma_flops(i):
    return 2 * mfma_macs(i.mnemonic)


def classify(i):
    """(kind, bytes): kind one of mfma, lds_read, lds_write, vmem_load,
    vmem_lds (global -> LDS), vmem_store, smem, waitcnt, barrier, nop,
    branch, other; bytes moved per wave."""
    n = i.mnemonic
    if is_mfma(i):
        return "mfma", 0
    if n.startswith(("ds_read", "ds_load")):
        suffix = n.split("_")[-1]
        if n.startswith("ds_read2"):
            return "lds_read", 2 * 64 * LDS_READ_BYTES.get(suffix, 4)
        return "lds_read", 64 * LDS_READ_BYTES.get(suffix, 4)
    if n.startswith(("ds_write", "ds_store")):
        suffix = n.split("_")[-1]
        return "lds_write", 64 * LDS_READ_BYTES.get(suffix, 4)
    if n.startswith(("ds_", "s_load", "s_buffer_load")) or n == "s_dcache_inv":
        return ("smem" if n.startswith("s_") else "lds_other"), 0
    if n.startswith(("buffer_load", "global_load", "flat_load")):
        m = re.search(r"dword(x\d)?|b(\d+)|ubyte|ushort|sbyte|sshort", n)
        width = 4
        if m and m.group(0).startswith("dword"):
            width = 4 * int(m.group(1)[1:]) if m.group(1) else 4
        elif m and m.group(2):
            width = int(m.group(2)) // 8
        elif m and m.group(0) in ("ushort", "sshort"):
            width = 2
        elif m:
            width = 1
        to_lds = " lds" in " " + i.operands or "_lds" in n
        return ("vmem_lds" if to_lds else "vmem_load"), 64 * width
    if n.startswith(("buffer_store", "global_store", "flat_store",
                     "buffer_atomic", "global_atomic")):
        m = re.search(r"dword(x\d)?", n)
        width = 4 * int(m.group(1)[1:]) if m and m.group(1) else 4
        return "vmem_store", 64 * width
    if n == "s_waitcnt":
        return "waitcnt", 0
    if n == "s_barrier":
        return "barrier", 0
    if n == "s_nop":
        return "nop", 0
    if n.startswith(("s_branch", "s_cbranch")):
        return "branch", 0
    return "other", 0


@dataclasses.dataclass
class LoopAnalysis:
    instructions: int = 0
    mfmas: int = 0
    mfma_cycles: int = 0
    flops: int = 0
    formats: tuple = ()
    other_per_mfma: float = 0.0
    lds_read_bytes: int = 0        # per wave and iteration
    lds_dma_bytes: int = 0         # global -> LDS, per wave and iteration
    lds_write_bytes: int = 0
    global_bytes: int = 0          # global -> VGPR, per wave and iteration
    issue_cycles: int = 0
    barriers: int = 0
    # MFMAs whose A/B fragment comes from a ds_read of the same iteration,
    # and the fewest MFMAs between such a read and its first use; the same
    # for the scale operands.
    same_iteration_lds_uses: int = 0
    min_lds_use_distance: int = -1
    same_iteration_scale_uses: int = 0
    min_scale_use_distance: int = -1
    vmcnt_wait: float = 0.0        # exposed cycles per iteration
    lgkmcnt_wait: float = 0.0
    barrier_wait: float = 0.0
    mfma_dep_wait: float = 0.0
    # Accumulator chains (issue 33): an MFMA whose srcC an earlier MFMA
    # wrote starts no sooner than that MFMA's start + its pipe cycles +
    # mfma_dependent_extra_cycles. Per iteration (the loop's back edge
    # included): MFMAs reading an MFMA's result as srcC, the fewest MFMAs
    # from a producer to its reader (1: back to back; -1: none), the
    # back-to-back pairs, and the exposed cycles.
    # The MFMA pipe's idle gaps of one steady-state iteration: (cycles,
    # index in the body of the MFMA that ends the gap), in body order.
    pipe_gaps: list = dataclasses.field(default_factory=list)
    acc_dependent_mfmas: int = 0
    min_acc_distance: int = -1
    back_to_back_acc_pairs: int = 0
    acc_wait: float = 0.0
    # MFMAs issued into an idle pipe per iteration, and their late starts
    # (mfma_idle_start_cycles each).
    idle_starts: float = 0.0
    idle_wait: float = 0.0
    simulated_cycles: float = 0.0  # one wave's steady-state iteration
    cycles: float = 0.0            # with the per-CU throughput floors
    bound: str = ""
    lds_demand: float = 0.0        # B/clk/CU at the MFMA pipe's rate
    waves_per_cu: int = 4


# Instruction kinds whose first operand is not a destination register.
_NO_DEST = ("waitcnt", "branch", "vmem_store", "lds_write", "barrier", "nop")


def accumulator_chains(body):
    """(dependent MFMAs, min distance, back-to-back pairs) of a loop body:
    the MFMAs whose srcC (4th operand: a[..] AGPRs in AITER's kernels,
    a[..] or v[..] in mx's) the most recent write to which was an MFMA's,
    across the back edge too (the body is walked twice and the second
    walk's readers counted), the distance counted in MFMAs."""
    last = {}        # register -> ordinal of the MFMA that last wrote it
    ordinal = 0
    dists = []
    for walk in range(2):
        for i in body:
            ops = split_operands(i.operands)
            if is_mfma(i):
                if walk == 1 and len(ops) > 3:
                    hit = [last[r] for r in registers(ops[3]) if r in last]
                    if hit:
                        dists.append(ordinal - max(hit))
                for r in registers(ops[0]) if ops else ():
                    last[r] = ordinal
                ordinal += 1
            elif ops and classify(i)[0] not in _NO_DEST:
                for r in registers(ops[0]):
                    last.pop(r, None)
    return (len(dists), min(dists) if dists else -1,
            sum(d == 1 for d in dists))


def _wait_counts(operands):
    out = {}
    for name in ("vmcnt", "lgkmcnt", "expcnt"):
        m = re.search(name + r"\((\d+)\)", operands)
        if m:
            out[name] = int(m.group(1))
    return out


def analyze_loop(body, machine=Machine(), waves_per_cu=4, iterations=8):
    """Steady-state cycles of one iteration of `body` (a list of Instr) on
    one SIMD, `waves_per_cu` waves sharing the CU's LDS and memory path
    (one wave per SIMD: its own MFMA pipe and issue slots)."""
    a = LoopAnalysis(waves_per_cu=waves_per_cu)
    kinds = [classify(i) for i in body]
    a.instructions = len(body)
    a.mfmas = sum(k == "mfma" for k, _ in kinds)
    a.mfma_cycles = sum(mfma_cycles(i, machine) for i in body if is_mfma(i))
    a.flops = sum(mfma_flops(i) for i in body if is_mfma(i))
    a.formats = tuple(sorted({mfma_formats(i) for i in body if is_mfma(i)}))
    a.other_per_mfma = (len(body) - a.mfmas) / a.mfmas if a.mfmas else 0
    for (k, b) in kinds:
        if k == "lds_read":
            a.lds_read_bytes += b
        elif k == "vmem_lds":
            a.lds_dma_bytes += b
        elif k == "lds_write":
            a.lds_write_bytes += b
        elif k == "vmem_load":
            a.global_bytes += b
    a.barriers = sum(k == "barrier" for k, _ in kinds)

    # Which MFMAs read registers that a ds_read of the same iteration wrote,
    # and how many MFMAs lie between the read and the use (fragments: the
    # A/B operands; scales: the scale operands).
    written_by_lds = {}
    mfma_seen = 0
    dist = {"frag": None, "scale": None}
    for i, (k, _) in zip(body, kinds):
        ops = split_operands(i.operands)
        if k == "mfma":
            for what, srcs in (("frag", registers(",".join(ops[1:3]))),
                               ("scale", registers(",".join(ops[4:6])))):
                hit = [written_by_lds[r] for r in srcs if r in written_by_lds]
                if not hit:
                    continue
                if what == "frag":
                    a.same_iteration_lds_uses += 1
                else:
                    a.same_iteration_scale_uses += 1
                d = mfma_seen - max(hit)
                dist[what] = d if dist[what] is None else min(dist[what], d)
            mfma_seen += 1
        elif k == "lds_read" and ops:
            for r in registers(ops[0]):
                written_by_lds[r] = mfma_seen
        elif ops and k not in ("waitcnt", "branch", "vmem_store"):
            for r in registers(ops[0]):
                written_by_lds.pop(r, None)
    a.min_lds_use_distance = -1 if dist["frag"] is None else dist["frag"]
    a.min_scale_use_distance = -1 if dist["scale"] is None else dist["scale"]
    (a.acc_dependent_mfmas, a.min_acc_distance,
     a.back_to_back_acc_pairs) = accumulator_chains(body)

    # Timeline of one wave: in-order issue every `issue_cycles`, the MFMA
    # pipe busy `mfma_cycles` per MFMA, LDS and memory bandwidth shared
    # evenly by the CU's waves, loads completing in order per counter.
    lds_bw = machine.lds_bytes_per_clk_cu / waves_per_cu
    mem_bw = machine.l2_bytes_per_clk_cu / waves_per_cu
    t = 0.0
    mfma_free = 0.0
    lds_free = 0.0
    mem_free = 0.0
    queues = {"vmcnt": [], "lgkmcnt": []}
    reg_ready = {}
    acc_ready = {}   # register -> when an MFMA reading it as srcC may start
    ends = []
    waits = {"vmcnt": 0.0, "lgkmcnt": 0.0, "barrier": 0.0, "mfma": 0.0,
             "acc": 0.0, "idle": 0.0, "idle_starts": 0.0}
    per_iter_waits = []
    for it in range(iterations):
        before = dict(waits)
        for index, (i, (k, b)) in enumerate(zip(body, kinds)):
            ops = split_operands(i.operands)
            if k == "mfma":
                idle_from = mfma_free
                srcs = registers(",".join(ops[1:3] + ops[4:6]))
                ready = max([reg_ready.get(r, 0.0) for r in srcs] + [0.0])
                start = max(t, mfma_free)
                if ready > start:
                    waits["mfma"] += ready - start
                    start = ready
                # Issued (at max(t, ready)) into an idle pipe: it starts
                # mfma_idle_start_cycles late.
                if mfma_free < max(t, ready):
                    start += machine.mfma_idle_start_cycles
                    waits["idle"] += machine.mfma_idle_start_cycles
                    waits["idle_starts"] += 1
                # Its accumulator input written by an earlier MFMA.
                acc = max([acc_ready.get(r, 0.0) for r in
                           registers(ops[3] if len(ops) > 3 else "")] + [0.0])
                if acc > start:
                    waits["acc"] += acc - start
                    start = acc
                cycles = mfma_cycles(i, machine)
                if it == iterations - 1 and start > idle_from:
                    a.pipe_gaps.append((start - idle_from, index))
                mfma_free = start + cycles
                for r in registers(ops[0]):
                    reg_ready[r] = mfma_free
                    acc_ready[r] = (mfma_free +
                                    machine.mfma_dependent_extra_cycles)
                t = start + machine.issue_cycles
                continue
            if k == "waitcnt":
                for name, n in _wait_counts(i.operands).items():
                    q = queues.get(name)
                    if q is None:
                        continue
                    if len(q) > n:
                        done = max(q[:len(q) - n])
                        del q[:len(q) - n]
                        if done > t:
                            waits[name] += done - t
                            t = done
                t += machine.issue_cycles
                continue
            if k == "barrier":
                waits["barrier"] += machine.barrier_cycles
                t += machine.barrier_cycles
                continue
            if k == "nop":
                n = int(i.operands or 0)
                t += max(machine.issue_cycles, n + 1)
                continue
            # Reading an MFMA's result waits for the MFMA.
            srcs = registers(",".join(ops[1:])) if ops else []
            ready = max([reg_ready.get(r, 0.0) for r in srcs] + [0.0])
            if ready > t:
                waits["mfma"] += ready - t
                t = ready
            if ops and k not in _NO_DEST:
                for r in registers(ops[0]):
                    acc_ready.pop(r, None)
            start = t
            t += machine.issue_cycles
            if k == "lds_read" or k == "lds_write":
                s = max(start, lds_free)
                lds_free = s + b / lds_bw
                queues["lgkmcnt"].append(lds_free + machine.lds_latency)
            elif k in ("vmem_load", "vmem_lds", "vmem_store"):
                s = max(start, mem_free)
                mem_free = s + b / mem_bw
                done = max(mem_free, start + machine.global_latency)
                if k == "vmem_lds":
                    # The DMA also writes the bytes into LDS.
                    lds_free = max(lds_free, start) + b / lds_bw
                queues["vmcnt"].append(done)
            elif k == "smem" or k == "lds_other":
                queues["lgkmcnt"].append(start + machine.lds_latency)
        ends.append(max(t, mfma_free))
        per_iter_waits.append({k: waits[k] - before[k] for k in waits})
    # Steady state: the mean of the last half of the iterations.
    h = iterations // 2
    a.simulated_cycles = (ends[-1] - ends[h - 1]) / (iterations - h)
    last = per_iter_waits[h:]
    a.vmcnt_wait = sum(w["vmcnt"] for w in last) / len(last)
    a.lgkmcnt_wait = sum(w["lgkmcnt"] for w in last) / len(last)
    a.barrier_wait = sum(w["barrier"] for w in last) / len(last)
    a.mfma_dep_wait = sum(w["mfma"] for w in last) / len(last)
    a.acc_wait = sum(w["acc"] for w in last) / len(last)
    a.idle_wait = sum(w["idle"] for w in last) / len(last)
    a.idle_starts = sum(w["idle_starts"] for w in last) / len(last)
    a.issue_cycles = sum(machine.issue_cycles if k != "nop" else
                         max(machine.issue_cycles, int(i.operands or 0) + 1)
                         for i, (k, _) in zip(body, kinds))

    # Per-CU throughput floors.
    lds_bytes_cu = waves_per_cu * (a.lds_read_bytes + a.lds_dma_bytes +
                                   a.lds_write_bytes)
    mem_bytes_cu = waves_per_cu * (a.global_bytes + a.lds_dma_bytes)
    floors = {
        "simulated": a.simulated_cycles,
        "mfma": a.mfma_cycles,
        "issue": a.issue_cycles,
        "lds": lds_bytes_cu / machine.lds_bytes_per_clk_cu,
        "memory": mem_bytes_cu / machine.l2_bytes_per_clk_cu,
    }
    a.bound, a.cycles = max(floors.items(), key=lambda kv: kv[1])
    if a.bound == "simulated":
        a.bound = ("mfma" if a.simulated_cycles <= a.mfma_cycles * 1.02
                   else "latency")
    a.lds_demand = lds_bytes_cu / a.mfma_cycles if a.mfma_cycles else 0
    return a


@dataclasses.dataclass
class GemmPrediction:
    tiles: int
    rounds: int
    k_per_iteration: int
    iterations: int
    tile_cycles: float
    seconds: float
    pflops: float
    c_load_cycles: float = 0.0     # per tile: its C tile read from memory


def resident_workgroups(waves_per_simd, waves_per_wg, workgroups,
                        machine=Machine()):
    """Workgroups that share a CU at once: as many as its occupancy allows
    (`waves_per_simd` waves on each of its SIMDs), but no more than the
    grid gives each CU (a grid of 45 workgroups puts one on 45 CUs)."""
    by_occupancy = max(1, waves_per_simd * machine.simds_per_cu //
                       waves_per_wg)
    return max(1, min(by_occupancy, math.ceil(workgroups / machine.cus)))


def predict_gemm(loop, m, n, k, tile_m, tile_n, waves_per_wg, wgs_per_cu=1,
                 out_bytes=4, machine=Machine(), c_load_bytes=0):
    """Whole-GEMM time of a kernel whose main loop is `loop`
    (LoopAnalysis): one workgroup per TM x TN tile, rounds of
    `cus * wgs_per_cu` tiles (wave quantization), each tile its K
    iterations, plus a fixed cost per tile: filling the load pipeline (one
    global latency) and storing its TM x TN results (`out_bytes` each).
    A kernel that reads its accumulator tile from memory (C += A x B:
    `c_load_bytes` per element, 4 for f32; 0 for a zero-filled
    accumulator) also pays that read before its loop: TM x TN x
    c_load_bytes at the CU's L2 bandwidth plus one global latency."""
    k_per_iter = loop.flops * waves_per_wg // (2 * tile_m * tile_n)
    iterations = math.ceil(k / k_per_iter)
    tiles = math.ceil(m / tile_m) * math.ceil(n / tile_n)
    rounds = math.ceil(tiles / (machine.cus * wgs_per_cu))
    store = tile_m * tile_n * out_bytes * wgs_per_cu / \
        machine.l2_bytes_per_clk_cu
    # Several workgroups on a CU share its SIMDs' MFMA pipes.
    per_iter = max(loop.cycles, loop.mfma_cycles * wgs_per_cu)
    c_load = 0.0
    if c_load_bytes:
        c_load = (tile_m * tile_n * c_load_bytes * wgs_per_cu /
                  machine.l2_bytes_per_clk_cu + machine.global_latency)
    tile_cycles = (iterations * per_iter + machine.global_latency + store +
                   c_load)
    seconds = rounds * tile_cycles / machine.clock_hz / machine.efficiency
    return GemmPrediction(tiles, rounds, k_per_iter, iterations, tile_cycles,
                          seconds, 2.0 * m * n * k / seconds / 1e15, c_load)


def relayout_seconds(bytes_moved, machine=Machine(), hbm_efficiency=1.0):
    """A relayout dispatch reads and writes its bytes once at HBM speed."""
    return bytes_moved / (machine.hbm_bytes_per_s * hbm_efficiency)


# --- inputs -----------------------------------------------------------------

def assemblies_from_ir(ir):
    """{kernel name: assembly} from the gpu.binary ops of output=isa IR."""
    out = {}
    for m in re.finditer(r'assembly = "((?:[^"\\]|\\.)*)"', ir):
        text = re.sub(r"\\([0-9A-Fa-f]{2})",
                      lambda x: chr(int(x.group(1), 16)), m.group(1))
        text = text.replace("\\\\", "\\")
        for name in re.findall(r"^\t\.globl\t(\S+)$", text, re.M):
            start = text.find("\n%s:\n" % name)
            end = text.find(".Lfunc_end", start)
            out[name] = text[start:end]
    return out


AITER_REPO = "/work/.mirror/ROCm+aiter/repo"
AITER_KERNEL = "hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256.co"
# Published times (µs) of that kernel (reference/performance-anchors.md).
AITER_16384_US = 1563.0
AITER_10000_US = 1050.0
# The published figures `check` compares with (issue 33): (M, N, K) ->
# ("us", time) or ("PF", PFLOP/s).
AITER_PUBLISHED = [
    ((10000, 16384, 16384), "us", AITER_10000_US),
    ((8192, 8192, 8192), "PF", 5.096),
    ((8192, 8192, 16384), "PF", 5.520),
]


@functools.lru_cache(maxsize=None)
def aiter_loop(objdump="llvm-objdump-22", repo=AITER_REPO):
    """The main loop of AITER's 256x256 f4gemm kernel (read once per
    process; callers must not modify it)."""
    co = subprocess.run(["git", "--git-dir=" + repo, "show",
                         "HEAD:" + AITER_KERNEL], capture_output=True,
                        check=True).stdout
    path = "/tmp/mx_perf_model_aiter.co"
    with open(path, "wb") as f:
        f.write(co)
    text = subprocess.run([objdump, "-d", "--mcpu=gfx950", path],
                          capture_output=True, text=True, check=True).stdout
    instrs, labels = parse_isa(text)
    return main_loop(instrs, labels)


def predict_aiter(loop, m, n, k, machine):
    """AITER's 256x256 kernel at M x N x K: 4 waves, one workgroup per CU,
    zero-filled accumulators (no C read), bf16 result (2 bytes stored)."""
    return predict_gemm(loop, m, n, k, 256, 256, 4, out_bytes=2,
                        machine=machine, c_load_bytes=0)


def calibrate(machine=Machine(), objdump="llvm-objdump-22"):
    """The efficiency that makes AITER's 16384^3 time come out right, and
    the 10000x16384x16384 prediction it implies."""
    loop = analyze_loop(aiter_loop(objdump), machine)
    raw = predict_aiter(loop, 16384, 16384, 16384,
                        dataclasses.replace(machine, efficiency=1.0))
    eff = raw.seconds / (AITER_16384_US * 1e-6)
    cal = dataclasses.replace(machine, efficiency=eff)
    check = predict_aiter(loop, 10000, 16384, 16384, cal)
    return cal, loop, check


def describe_gaps(loop, body, context=4):
    """The MFMA pipe's idle gaps of one steady-state iteration of `loop`
    (analyze_loop of `body`), largest first, each with the instructions
    issued since the MFMA before it (at most `context`)."""
    lines = ["  MFMA pipe idle %.0f cycles per iteration in %d gaps:"
             % (sum(g for g, _ in loop.pipe_gaps), len(loop.pipe_gaps))]
    for gap, index in sorted(loop.pipe_gaps, key=lambda g: -g[0]):
        start = index
        while start > 0 and not is_mfma(body[start - 1]) and \
                index - start < context:
            start -= 1
        lines.append("    %4.0f cycles before #%d %s, after: %s" % (
            gap, index, body[index].mnemonic,
            "; ".join(body[j].text.strip() for j in range(start, index))
            or "(an MFMA)"))
    return "\n".join(lines)


def describe(name, loop, preds=()):
    lines = ["%s main loop: %d instructions, %d MFMAs (%s), %.2f other per "
             "MFMA" % (name, loop.instructions, loop.mfmas,
                       ",".join("x".join(f) for f in loop.formats),
                       loop.other_per_mfma),
             "  per wave and iteration: MFMA pipe %d cycles, issue %d, "
             "LDS reads %d B, LDS DMA %d B, global->VGPR %d B, %d barriers"
             % (loop.mfma_cycles, loop.issue_cycles, loop.lds_read_bytes,
                loop.lds_dma_bytes, loop.global_bytes, loop.barriers),
             "  LDS demand %.0f B/clk/CU at the MFMA rate; MFMAs whose "
             "fragment is a ds_read of the same iteration: %d (closest %d "
             "MFMAs after the read), scales: %d (closest %d)"
             % (loop.lds_demand, loop.same_iteration_lds_uses,
                loop.min_lds_use_distance, loop.same_iteration_scale_uses,
                loop.min_scale_use_distance),
             "  accumulator chains: %d MFMAs read an MFMA's result as srcC,"
             " closest %d MFMAs after it, %d back-to-back pairs"
             % (loop.acc_dependent_mfmas, loop.min_acc_distance,
                loop.back_to_back_acc_pairs),
             "  exposed per iteration: vmcnt %.0f, lgkmcnt %.0f, barrier %.0f,"
             " MFMA dependences %.0f, accumulator chains %.0f, idle-pipe "
             "starts %.0f (%.0f MFMAs) cycles" % (
                 loop.vmcnt_wait, loop.lgkmcnt_wait, loop.barrier_wait,
                 loop.mfma_dep_wait, loop.acc_wait, loop.idle_wait,
                 loop.idle_starts),
             "  iteration: %.0f cycles (%s-bound), MFMA pipe busy %.0f%%"
             % (loop.cycles, loop.bound,
                100.0 * loop.mfma_cycles / loop.cycles)]
    for label, p in preds:
        lines.append("  %-22s %5d tiles, %3d rounds, %4d iterations of K=%d:"
                     " %8.1f us, %.2f PFLOP/s"
                     % (label, p.tiles, p.rounds, p.iterations,
                        p.k_per_iteration, p.seconds * 1e6, p.pflops))
    return "\n".join(lines)


SHAPES = {"seed": (10000, 16384, 16384), "16384^3": (16384, 16384, 16384),
          "8192^3": (8192, 8192, 8192)}


def read_hip_timings(path):
    """The `hip-timing {json}` lines of `mx-run --backend=hip --repeat=N`
    (one per launch, `launch` >= 0, and one end to end, `launch` -1): dicts
    with kernel, grid, block, min_us, median_us, max_us, flops, bytes,
    tflops, gbps."""
    timings = []
    with open(path) as fh:
        for line in fh:
            if line.startswith("hip-timing "):
                timings.append(json.loads(line[len("hip-timing "):]))
    return timings


def calibrate_measured(loop, timings, shape, tile_m, tile_n, waves,
                       out_bytes, machine=Machine(), c_load_bytes=0):
    """The efficiency constant that a measured GEMM launch implies: the
    model's time without it (efficiency 1) over the measured median of the
    launch with the most FLOPs. Returns (launch, raw prediction,
    efficiency)."""
    launches = [t for t in timings if t["launch"] >= 0 and t["flops"] > 0]
    if not launches:
        raise ValueError("no timed launch with FLOPs")
    gemm = max(launches, key=lambda t: t["flops"])
    raw = predict_gemm(loop, *shape, tile_m, tile_n, waves,
                       out_bytes=out_bytes,
                       machine=dataclasses.replace(machine, efficiency=1.0),
                       c_load_bytes=c_load_bytes)
    return gemm, raw, raw.seconds / (gemm["median_us"] * 1e-6)


# --- the sensitivity sweep and the published checks --------------------------

def _scaled(value, factor):
    v = value * factor
    return int(v) if isinstance(value, int) and float(v).is_integer() else v


def seed_kernels(mx_opt, shapes=("16384^3", "seed"), options="",
                 acc="arg", result="f32"):
    """{shape name: kernel_model} of the seed kernel (what
    ukernel_static_metrics.py and the `kernel` subcommand model: the
    resolver's layout, MXFP4 x MXFP4, C += A x B with an f32 result by
    default), compiled by `mx_opt` once per shape."""
    import ukernel_static_metrics as usm
    return {s: usm.compile_kernel(mx_opt, (s,) + SHAPES[s], options,
                                  acc=acc, result=result) for s in shapes}


def sweep(kernels, machine=Machine(), factors=(0.5, 2.0),
          objdump="llvm-objdump-22"):
    """The baseline and each Assumed row of MachineModel.def at each factor:
    efficiency re-fitted on AITER's 16384^3 time under that setting, then
    AITER's and the seed kernel's predicted PFLOP/s at 16384^3 and the seed
    shape. A list of dicts."""
    import ukernel_static_metrics as usm
    settings = [("baseline", {})]
    for r in MACHINE_ROWS:
        if r.kind == "Assumed":
            for f in factors:
                value = _scaled(getattr(machine, r.python_name), f)
                settings.append(("%s x%g = %s" % (r.python_name, f, value),
                                 {r.python_name: value}))
    out = []
    for label, change in settings:
        cal, aiter, _ = calibrate(with_overrides(machine, change), objdump)
        row = dict(setting=label, change=change, efficiency=cal.efficiency)
        for s in ("16384^3", "seed"):
            a = predict_aiter(aiter, *SHAPES[s], cal)
            _, mx = usm.model_kernel(kernels[s], (s,) + SHAPES[s], cal)
            row[s] = dict(aiter_pf=a.pflops, mx_pf=mx.pflops,
                          aiter_us=a.seconds * 1e6, mx_us=mx.seconds * 1e6,
                          ratio=mx.pflops / a.pflops,
                          mx_ge_aiter=mx.pflops >= a.pflops)
        out.append(row)
    return out


def check(machine=Machine(), objdump="llvm-objdump-22"):
    """AITER's kernel calibrated on its 16384^3 time, against its other
    published figures: a list of dicts (shape, published and predicted us
    and PF, error of the predicted time in %)."""
    cal, aiter, _ = calibrate(machine, objdump)
    out = []
    for (m, n, k), unit, value in [((16384, 16384, 16384), "us",
                                    AITER_16384_US)] + AITER_PUBLISHED:
        flops = 2.0 * m * n * k
        pub_us = value if unit == "us" else flops / (value * 1e15) * 1e6
        p = predict_aiter(aiter, m, n, k, cal)
        out.append(dict(shape="%dx%dx%d" % (m, n, k), published=
                        "%g %s" % (value, unit), published_us=pub_us,
                        published_pf=flops / (pub_us * 1e-6) / 1e15,
                        predicted_us=p.seconds * 1e6, predicted_pf=p.pflops,
                        error_pct=100.0 * (p.seconds * 1e6 / pub_us - 1),
                        fitted=(m, n, k) == (16384, 16384, 16384)))
    return cal, out


# Issue 33's and 34's targets (PFLOP/s): (what, shape, PF).
TARGETS = [
    ("fp4/fp6 rate, 16x16x128 (issue 34)", "16384^3", 5.7),
    ("fp4/fp6 rate, 32x32x64 (issue 34)", "16384^3", 5.4),
    ("fp8 rate (issue 34)", "16384^3", 3.1),
    ("fp8 rate (issue 34)", "seed", 3.0),
    ("seed end to end, relayouts at 4 TB/s (issue 33)", "16384^3", 5.8),
    ("seed end to end, relayouts at 4 TB/s (issue 33)", "seed", 5.5),
]


def ceiling_gemm(m, n, k, wide, machine, c_load_bytes=0, out_bytes=2):
    """The GemmPrediction of a kernel that cannot be beaten on this model:
    AITER's and the seed's 256 x 256 tiles on 4 waves, whose main loop runs
    its MFMA pipe without a bubble (16x16x128 MFMAs back to back, no wait,
    no barrier, no issue slot lost), plus predict_gemm's fixed costs per
    tile (one global latency, the C tile's store and, for C += A x B, its
    read) and the efficiency constant fitted on AITER."""
    cycles = machine.mfma16_wide_cycles if wide else \
        machine.mfma16_narrow_cycles
    # Per wave and K step of 128: a 128 x 128 wave tile, 8 x 8 MFMAs.
    loop = LoopAnalysis(mfmas=64, mfma_cycles=64 * cycles,
                        flops=64 * 2 * 16 * 16 * 128)
    loop.cycles = loop.mfma_cycles
    return predict_gemm(loop, m, n, k, 256, 256, 4, out_bytes=out_bytes,
                        machine=machine, c_load_bytes=c_load_bytes)


def ceilings(machine=Machine(), objdump="llvm-objdump-22",
             relayout_bytes=None, relayout_rate=4e12):
    """The ceilings (ceiling_gemm) at each target's rate and shape, with
    the efficiency fitted on AITER: for AITER's contract (zero-filled
    accumulators, bf16 result) and the seed's (C += A x B in f32, the C
    read charged); the end-to-end rows add `relayout_bytes[shape]` (the
    seed program's relayout dispatches) at `relayout_rate` bytes/s. A list
    of dicts."""
    cal, _, _ = calibrate(machine, objdump)
    rows = []
    for what, shape, target in TARGETS:
        m, n, k = SHAPES[shape]
        wide = "fp8" in what
        zero = ceiling_gemm(m, n, k, wide, cal)
        acc = ceiling_gemm(m, n, k, wide, cal, c_load_bytes=4, out_bytes=4)
        row = dict(what=what, shape=shape, target=target,
                   peak=(2.0 * 16 * 16 * 128 * cal.simds_per_cu * cal.cus *
                         cal.clock_hz /
                         (cal.mfma16_wide_cycles if wide else
                          cal.mfma16_narrow_cycles) / 1e15),
                   zero_pf=zero.pflops, acc_pf=acc.pflops)
        if "end to end" in what:
            if relayout_bytes is None:
                continue
            flops = 2.0 * m * n * k
            moved = relayout_bytes[shape]
            row["relayout_mb"] = moved / 1e6
            row["acc_pf"] = flops / (acc.seconds + moved / relayout_rate) / 1e15
            row["zero_pf"] = None
        rows.append(row)
    return cal, rows


def format_ceilings(rows):
    header = ["target", "shape", "target PF", "peak PF",
              "ceiling PF (zero acc, bf16)", "ceiling PF (C += A x B, f32)",
              "reachable"]
    body = []
    for r in rows:
        best = max(x for x in (r["zero_pf"], r["acc_pf"]) if x is not None)
        what = r["what"] + (" (%.0f MB)" % r["relayout_mb"]
                            if "relayout_mb" in r else "")
        body.append([what, r["shape"], "%.1f" % r["target"],
                     "%.2f" % r["peak"],
                     "-" if r["zero_pf"] is None else "%.2f" % r["zero_pf"],
                     "%.2f" % r["acc_pf"],
                     "yes" if best >= r["target"] else "no"])
    return _table(header, body)


def _table(header, rows):
    widths = [max(len(str(r[i])) for r in rows + [header])
              for i in range(len(header))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in
                               zip(r, widths)).rstrip()
                     for r in [header] + rows)


def format_sweep(rows):
    header = ["setting", "eff", "AITER 16384^3", "mx 16384^3", "mx/AITER",
              "mx>=AITER", "AITER seed", "mx seed", "mx/AITER", "mx>=AITER"]
    body = []
    for r in rows:
        line = [r["setting"], "%.3f" % r["efficiency"]]
        for s in ("16384^3", "seed"):
            line += ["%.2f" % r[s]["aiter_pf"], "%.2f" % r[s]["mx_pf"],
                     "%.3f" % r[s]["ratio"],
                     "yes" if r[s]["mx_ge_aiter"] else "no"]
        body.append(line)
    return _table(header, body)


def format_check(rows):
    header = ["shape", "published", "published us", "published PF",
              "predicted us", "predicted PF", "time error"]
    return _table(header, [
        [r["shape"], r["published"], "%.1f" % r["published_us"],
         "%.3f" % r["published_pf"], "%.1f" % r["predicted_us"],
         "%.3f" % r["predicted_pf"],
         "(fitted)" if r["fitted"] else "%+.1f%%" % r["error_pct"]]
        for r in rows])


def format_constants(machine):
    base = Machine()
    rows = []
    for name, py, value, unit, kind, source in machine_rows(machine):
        changed = value != getattr(base, py)
        rows.append([name, py, "%g%s" % (value, " (--set)" if changed else ""),
                     unit, kind, source])
    return _table(["name", "python_name", "value", "unit", "kind", "source"],
                  rows)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--set", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="override a constant of MachineModel.def by its "
                        "python_name (repeatable), e.g. --set "
                        "global_latency=2000")
    common.add_argument("--objdump", default="llvm-objdump-22")
    common.add_argument("--json", action="store_true",
                        help="print JSON instead of text (constants, sweep, "
                        "check)")
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("calibrate", parents=[common],
                   help="fit on AITER's 256x256 kernel")
    sub.add_parser("constants", parents=[common],
                   help="the rows of MachineModel.def (with --set applied)")
    c = sub.add_parser("ceiling", parents=[common],
                       help="the PFLOP/s no kernel exceeds on this model "
                       "(MFMA pipe never idle), against issues 33 and 34's "
                       "targets")
    c.add_argument("--mx-opt", help="with it, the seed program's relayout "
                   "bytes for the end-to-end rows")
    sub.add_parser("check", parents=[common],
                   help="calibrate on AITER 16384^3, predict AITER's other "
                   "published shapes")
    f = sub.add_parser("isa", parents=[common],
                       help="model a loop of an assembly file")
    f.add_argument("file")
    f.add_argument("--label")
    f.add_argument("--tile", default="256x256")
    f.add_argument("--waves", type=int, default=4)
    f.add_argument("--out-bytes", type=int, default=4)
    f.add_argument("--c-load-bytes", type=int, default=0,
                   help="bytes per element of the accumulator tile the "
                   "kernel reads from memory (4 for C += A x B in f32; "
                   "default 0: a zero-filled accumulator)")
    f.add_argument("--measured", help="the output of mx-run --backend=hip "
                   "--repeat=N on a GPU (its hip-timing lines): calibrate "
                   "the efficiency constant on its largest launch")
    f.add_argument("--shape", default="seed", choices=sorted(SHAPES),
                   help="the shape of the --measured run (default seed)")
    for name, text in (("kernel", "compile the seed program (or --pins) "
                        "with mx-opt and model its contraction kernel"),
                       ("sweep", "each Assumed constant at x0.5 and x2, "
                        "AITER against the seed kernel")):
        k = sub.add_parser(name, parents=[common], help=text)
        k.add_argument("--mx-opt",
                       default=os.path.join(root, "build", "bin", "mx-opt"))
        k.add_argument("--pins", default="",
                       help="mx-gfx950-pipeline options, e.g. "
                       "'intrinsic=32x32x64'")
        k.add_argument("--acc", choices=["arg", "zero"], default="arg",
                       help="C += A x B (arg, the seed) or a zero fill")
        k.add_argument("--result", choices=["f32", "bf16", "f16"],
                       default="f32")
        if name == "kernel":
            k.add_argument("--lhs-type", default="f4E2M1FN")
            k.add_argument("--rhs-type", default="f4E2M1FN")
            k.add_argument("--gaps", action="store_true",
                           help="also the MFMA pipe's idle gaps of a "
                           "steady-state iteration (at the seed shape), "
                           "and AITER's under the same constants")
        else:
            k.add_argument("--factors", default="0.5,2")
    args = p.parse_args()
    try:
        base = with_overrides(Machine(), args.set)
    except ValueError as e:
        sys.exit(str(e))

    if args.cmd == "constants":
        if args.json:
            print(json.dumps([dict(zip(("name", "python_name", "value", "unit",
                                        "kind", "source"), r))
                              for r in machine_rows(base)], indent=1))
        else:
            print(format_constants(base))
        return
    if args.cmd == "ceiling":
        moved = None
        if args.mx_opt:
            import ukernel_static_metrics as usm
            moved = {s: usm.program_relayout_bytes(args.mx_opt, *SHAPES[s])
                     for s in ("16384^3", "seed")}
        cal, rows = ceilings(base, args.objdump, moved)
        print("The ceiling of a 256x256 kernel whose MFMA pipe never idles "
              "(16x16x128 back to back), with the efficiency %.3f fitted on "
              "AITER 16384^3 and the fixed costs per tile of predict_gemm; "
              "end to end: the seed program's relayout dispatches at 4 TB/s"
              % cal.efficiency)
        print(format_ceilings(rows))
        return
    if args.cmd == "check":
        cal, rows = check(base, args.objdump)
        if args.json:
            print(json.dumps(dict(efficiency=cal.efficiency, rows=rows),
                             indent=1))
        else:
            print("AITER f4gemm 256x256, efficiency %.3f fitted on 16384^3 "
                  "(%.0f us)" % (cal.efficiency, AITER_16384_US))
            print(format_check(rows))
        return
    if args.cmd == "sweep":
        import ukernel_static_metrics as usm
        try:
            kernels = seed_kernels(args.mx_opt, options=args.pins,
                                   acc=args.acc, result=args.result)
        except (usm.Failure, OSError) as e:
            sys.exit("cannot compile the seed kernel: %s" % e)
        rows = sweep(kernels, base, [float(x) for x in
                                     args.factors.split(",")], args.objdump)
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            print("AITER f4gemm 256x256 (zero acc, bf16) against mx's seed "
                  "kernel (%s, %s, acc %s, result %s; C read charged: %d "
                  "B/element); PFLOP/s at 16384^3 and the seed shape "
                  "10000x16384x16384, efficiency re-fitted on AITER 16384^3 "
                  "(%.0f us) for each setting"
                  % (kernels["seed"]["kernel"], args.pins or "resolver",
                     args.acc, args.result,
                     kernels["seed"]["c_load_bytes"], AITER_16384_US))
            print(format_sweep(rows))
        return

    cal, aiter, check_pred = calibrate(base, args.objdump)
    if args.cmd == "calibrate":
        ref = predict_aiter(aiter, 16384, 16384, 16384, cal)
        print(describe("AITER 256x256", aiter,
                       [("16384^3 (fitted)", ref),
                        ("10000x16384x16384", check_pred)]))
        print("efficiency constant: %.3f; 10000x16384x16384 predicted %.0f us"
              ", published %.0f us (%+.1f%%)"
              % (cal.efficiency, check_pred.seconds * 1e6, AITER_10000_US,
                 100.0 * (check_pred.seconds * 1e6 / AITER_10000_US - 1)))
        return
    if args.cmd == "kernel":
        import ukernel_static_metrics as usm
        preds = []
        for s in SHAPES:
            try:
                model = usm.compile_kernel(args.mx_opt, (s,) + SHAPES[s],
                                           args.pins, args.lhs_type,
                                           args.rhs_type, args.acc,
                                           args.result)
            except (usm.Failure, OSError) as e:
                sys.exit("%s: %s" % (s, e))
            loop, gemm = usm.model_kernel(model, (s,) + SHAPES[s], cal)
            preds.append((s, gemm))
        print(describe("%s (%s, %s x %s, acc %s, result %s)"
                       % (model["kernel"], args.pins or "resolver",
                          args.lhs_type, args.rhs_type, args.acc,
                          args.result), loop, preds))
        if args.gaps:
            print(describe_gaps(loop, model["body"]))
            print("AITER 256x256:")
            print(describe_gaps(aiter, aiter_loop(args.objdump)))
        return
    with open(args.file) as fh:
        text = fh.read()
    if "gpu.binary" in text:
        text = "\n".join(assemblies_from_ir(text).values())
    instrs, labels = parse_isa(text)
    body = main_loop(instrs, labels, args.label)
    if body is None:
        sys.exit("%s: no loop to model (the kernel is straight-line code)"
                 % args.file)
    loop = analyze_loop(body, cal, waves_per_cu=args.waves)
    tm, tn = (int(x) for x in args.tile.split("x"))
    preds = [(s, predict_gemm(loop, *SHAPES[s], tm, tn, args.waves,
                              out_bytes=args.out_bytes, machine=cal,
                              c_load_bytes=args.c_load_bytes))
             for s in SHAPES]
    print(describe(os.path.basename(args.file), loop, preds))
    if args.measured:
        gemm, raw, eff = calibrate_measured(
            loop, read_hip_timings(args.measured), SHAPES[args.shape], tm, tn,
            args.waves, args.out_bytes, base, args.c_load_bytes)
        print("measured %s %s: median %.1f us (%.3f TFLOP/s); model at "
              "efficiency 1: %.1f us; efficiency constant %.3f (AITER-fitted:"
              " %.3f)" % (gemm["kernel"], args.shape, gemm["median_us"],
                          gemm["tflops"], raw.seconds * 1e6, eff,
                          cal.efficiency))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
