#!/usr/bin/env python3
"""A static performance model of gfx950 (MI355X) scaled-MFMA GEMM kernels.

There is no gfx950 GPU here, so the speed of a kernel is argued from its
code. This module turns a kernel's ISA (the assembly that
`mx-opt --mx-gfx950-pipeline=output=isa` embeds in its gpu.binary ops, or
`llvm-objdump -d --mcpu=gfx950` of a code object) and a launch shape into
predicted main-loop cycles and whole-GEMM time. bench/README.md states every
assumption; the constants are in `Machine` below. It is a library (the
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
import json
import math
import os
import re
import subprocess
import sys


@dataclasses.dataclass(frozen=True)
class Machine:
    """MI355X (gfx950) constants. Each one is an assumption of the model;
    bench/README.md gives its source."""
    cus: int = 256
    clock_hz: float = 2.4e9
    simds_per_cu: int = 4
    issue_cycles: int = 4          # one instruction per wave every 4 clocks
    lds_bytes_per_clk_cu: float = 128.0
    lds_latency: int = 128         # ds_read issue -> data in VGPRs
    l2_bytes_per_clk_cu: float = 64.0   # vector memory path of one CU
    global_latency: int = 1000     # load issue -> data (L2 / MALL hit)
    barrier_cycles: int = 64       # s_barrier: release + skew of the waves
    hbm_bytes_per_s: float = 8.0e12
    # The one calibrated constant: achieved / modeled throughput, fitted on
    # AITER's published 16384^3 time (see `calibrate`). It stands for what
    # the model does not see: clock drop under load, L2 misses, DRAM
    # refresh, launch overhead.
    efficiency: float = 1.0


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


def mfma_cycles(i):
    """Cycles the MFMA occupies its SIMD's matrix pipe."""
    m = re.search(r"(\d+)x(\d+)x(\d+)", i.mnemonic)
    shape = tuple(int(x) for x in m.groups()) if m else (16, 16, 16)
    if "scale" in i.mnemonic or "f8f6f4" in i.mnemonic:
        a = int((re.search(r"cbsz:(\d)", i.operands) or [0, 0])[1])
        b = int((re.search(r"blgp:(\d)", i.operands) or [0, 0])[1])
        narrow = a >= 2 and b >= 2
        base = 16 if shape[0] == 16 else 32
        return base if narrow else 2 * base
    # Other MFMAs: 4 passes of 4 cycles per 16x16 block of 4 k (rough).
    return max(8, shape[0] * shape[1] * shape[2] // 1024)


def mfma_formats(i):
    a = int((re.search(r"cbsz:(\d)", i.operands) or [0, 0])[1])
    b = int((re.search(r"blgp:(\d)", i.operands) or [0, 0])[1])
    return FORMAT_NAMES.get(a, "?"), FORMAT_NAMES.get(b, "?")


def mfma_flops(i):
    m = re.search(r"(\d+)x(\d+)x(\d+)", i.mnemonic)
    return 2 * math.prod(int(x) for x in m.groups()) if m else 0


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
    simulated_cycles: float = 0.0  # one wave's steady-state iteration
    cycles: float = 0.0            # with the per-CU throughput floors
    bound: str = ""
    lds_demand: float = 0.0        # B/clk/CU at the MFMA pipe's rate
    waves_per_cu: int = 4


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
    a.mfma_cycles = sum(mfma_cycles(i) for i in body if is_mfma(i))
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
    ends = []
    waits = {"vmcnt": 0.0, "lgkmcnt": 0.0, "barrier": 0.0, "mfma": 0.0}
    per_iter_waits = []
    for it in range(iterations):
        before = dict(waits)
        for i, (k, b) in zip(body, kinds):
            ops = split_operands(i.operands)
            if k == "mfma":
                srcs = registers(",".join(ops[1:3] + ops[4:6]))
                ready = max([reg_ready.get(r, 0.0) for r in srcs] + [0.0])
                start = max(t, mfma_free)
                if ready > start:
                    waits["mfma"] += ready - start
                    start = ready
                mfma_free = start + mfma_cycles(i)
                for r in registers(ops[0]):
                    reg_ready[r] = mfma_free
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


def resident_workgroups(waves_per_simd, waves_per_wg, workgroups,
                        machine=Machine()):
    """Workgroups that share a CU at once: as many as its occupancy allows
    (`waves_per_simd` waves on each of its SIMDs), but no more than the
    grid gives each CU (a grid of 45 workgroups puts one on 45 CUs)."""
    by_occupancy = max(1, waves_per_simd * machine.simds_per_cu //
                       waves_per_wg)
    return max(1, min(by_occupancy, math.ceil(workgroups / machine.cus)))


def predict_gemm(loop, m, n, k, tile_m, tile_n, waves_per_wg, wgs_per_cu=1,
                 out_bytes=4, machine=Machine()):
    """Whole-GEMM time of a kernel whose main loop is `loop`
    (LoopAnalysis): one workgroup per TM x TN tile, rounds of
    `cus * wgs_per_cu` tiles (wave quantization), each tile its K
    iterations, plus a fixed cost per tile: filling the load pipeline (one
    global latency) and storing its TM x TN results."""
    k_per_iter = loop.flops * waves_per_wg // (2 * tile_m * tile_n)
    iterations = math.ceil(k / k_per_iter)
    tiles = math.ceil(m / tile_m) * math.ceil(n / tile_n)
    rounds = math.ceil(tiles / (machine.cus * wgs_per_cu))
    store = tile_m * tile_n * out_bytes * wgs_per_cu / \
        machine.l2_bytes_per_clk_cu
    # Several workgroups on a CU share its SIMDs' MFMA pipes.
    per_iter = max(loop.cycles, loop.mfma_cycles * wgs_per_cu)
    tile_cycles = iterations * per_iter + machine.global_latency + store
    seconds = rounds * tile_cycles / machine.clock_hz / machine.efficiency
    # HBM floor: every operand byte and the result once.
    return GemmPrediction(tiles, rounds, k_per_iter, iterations, tile_cycles,
                          seconds, 2.0 * m * n * k / seconds / 1e15)


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


def aiter_loop(objdump="llvm-objdump-22", repo=AITER_REPO):
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


def calibrate(machine=Machine(), objdump="llvm-objdump-22"):
    """The efficiency that makes AITER's 16384^3 time come out right, and
    the 10000x16384x16384 prediction it implies."""
    loop = analyze_loop(aiter_loop(objdump), machine)
    raw = predict_gemm(loop, 16384, 16384, 16384, 256, 256, 4,
                       out_bytes=2, machine=machine)
    eff = raw.seconds / (AITER_16384_US * 1e-6)
    cal = dataclasses.replace(machine, efficiency=eff)
    check = predict_gemm(loop, 10000, 16384, 16384, 256, 256, 4,
                         out_bytes=2, machine=cal)
    return cal, loop, check


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
             "  exposed per iteration: vmcnt %.0f, lgkmcnt %.0f, barrier %.0f,"
             " MFMA dependences %.0f cycles" % (
                 loop.vmcnt_wait, loop.lgkmcnt_wait, loop.barrier_wait,
                 loop.mfma_dep_wait),
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
                       out_bytes, machine=Machine()):
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
                       machine=dataclasses.replace(machine, efficiency=1.0))
    return gemm, raw, raw.seconds / (gemm["median_us"] * 1e-6)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("calibrate", help="fit on AITER's 256x256 kernel")
    c.add_argument("--objdump", default="llvm-objdump-22")
    f = sub.add_parser("isa", help="model a loop of an assembly file")
    f.add_argument("file")
    f.add_argument("--label")
    f.add_argument("--tile", default="256x256")
    f.add_argument("--waves", type=int, default=4)
    f.add_argument("--out-bytes", type=int, default=4)
    f.add_argument("--measured", help="the output of mx-run --backend=hip "
                   "--repeat=N on a GPU (its hip-timing lines): calibrate "
                   "the efficiency constant on its largest launch")
    f.add_argument("--shape", default="seed", choices=sorted(SHAPES),
                   help="the shape of the --measured run (default seed)")
    args = p.parse_args()
    cal, aiter, check = calibrate(objdump=getattr(args, "objdump",
                                                  "llvm-objdump-22"))
    if args.cmd == "calibrate":
        ref = predict_gemm(aiter, 16384, 16384, 16384, 256, 256, 4,
                           out_bytes=2, machine=cal)
        print(describe("AITER 256x256", aiter,
                       [("16384^3 (fitted)", ref),
                        ("10000x16384x16384", check)]))
        print("efficiency constant: %.3f; 10000x16384x16384 predicted %.0f us"
              ", published %.0f us (%+.1f%%)"
              % (cal.efficiency, check.seconds * 1e6, AITER_10000_US,
                 100.0 * (check.seconds * 1e6 / AITER_10000_US - 1)))
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
                              out_bytes=args.out_bytes, machine=cal))
             for s in SHAPES]
    print(describe(os.path.basename(args.file), loop, preds))
    if args.measured:
        gemm, raw, eff = calibrate_measured(
            loop, read_hip_timings(args.measured), SHAPES[args.shape], tm, tn,
            args.waves, args.out_bytes)
        print("measured %s %s: median %.1f us (%.3f TFLOP/s); model at "
              "efficiency 1: %.1f us; efficiency constant %.3f (AITER-fitted:"
              " %.3f)" % (gemm["kernel"], args.shape, gemm["median_us"],
                          gemm["tflops"], raw.seconds * 1e6, eff,
                          cal.efficiency))


if __name__ == "__main__":
    main()
