#!/usr/bin/env python3
"""Result stores, C loads and epilogue size of the seed GEMM kernel.

The non-model columns of bench/README.md's "Wide result stores" table: for
each program (the accumulator source, the result type, the intrinsic) this
compiles the seed shape with `mx-opt --mx-gfx950-pipeline=output=isa
--mx-gfx950-kernel-report` and counts in the contraction kernel's assembly:

  stores      global/buffer stores by mnemonic;
  C loads     global/buffer loads (not into LDS) whose destination registers
              an MFMA reads as its accumulator operand (srcC); only counted
              for C += A x B, since a zero-filled accumulator has no C
              buffer (and its registers are reused, which this count cannot tell);
  epilogue    instructions after the main loop (bench/mx_perf_model.py's
              loop with the most MFMAs), the drained pipeline steps
              included;
  code B, VGPR / AGPR, spills  from the kernel report.

The cycles and predicted time of the same kernels come from
bench/ukernel_static_metrics.py.

Usage: bench/result_store_counts.py [--mx-opt build/bin/mx-opt]
"""

import argparse
import collections
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mx_perf_model as mpm  # noqa: E402
import ukernel_static_metrics as usm  # noqa: E402

PROGRAMS = [  # (name, acc, result, pipeline options)
    ("C += A x B f32 (16x16x128)", "arg", "f32", ""),
    ("zero acc, bf16 (16x16x128)", "zero", "bf16", ""),
    ("zero acc, f32 (16x16x128)", "zero", "f32", ""),
    ("C += A x B f32 (32x32x64)", "arg", "f32", "intrinsic=32x32x64"),
    ("zero acc, bf16 (32x32x64)", "zero", "bf16", "intrinsic=32x32x64"),
]


def counts(mx_opt, acc, result, options):
    _, m, n, k = usm.SHAPES[0]
    ir = usm.contraction(m, n, k, "f4E2M1FN", "f4E2M1FN", acc, result)
    with tempfile.NamedTemporaryFile("r", suffix=".report") as report:
        isa, _ = usm.run([mx_opt, "-", "--mx-gfx950-pipeline=%s output=isa"
                          % options,
                          "--mx-gfx950-kernel-report=output=" + report.name],
                         ir)
        stats = usm.parse_report(report.read())
    asms = mpm.assemblies_from_ir(isa)
    kernel = next(name for name in asms if re.search(r"_mma\d+$", name))
    instrs, labels = mpm.parse_isa(asms[kernel])
    loops = mpm.find_loops(instrs, labels)
    end = max(loops, key=lambda l: (sum(mpm.is_mfma(i) for i in
                                        instrs[l[0]:l[1] + 1]), -l[0]))[1]
    srcc = set()
    for i in instrs:
        if mpm.is_mfma(i):
            srcc |= set(mpm.registers(mpm.split_operands(i.operands)[3]))
    stores = collections.Counter(
        i.mnemonic for i in instrs
        if re.match(r"(buffer|global)_store", i.mnemonic))
    c_loads = collections.Counter(
        i.mnemonic for i in instrs
        if re.match(r"(buffer|global)_load", i.mnemonic)
        and not i.operands.rstrip().endswith(" lds")
        and set(mpm.registers(mpm.split_operands(i.operands)[0])) & srcc)
    s = stats[kernel]
    fmt = lambda c: ", ".join("%d %s" % (v, k) for k, v in sorted(c.items()))
    return [fmt(stores), fmt(c_loads) if acc == "arg" else "-",
            s["code_bytes"], str(len(instrs) - end - 1),
            "%s / %s" % (s["vgprs"], s["agprs"]),
            str(int(s["vgpr_spills"]) + int(s["sgpr_spills"]))]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mx-opt",
                        default=os.path.join(root, "build", "bin", "mx-opt"))
    args = parser.parse_args()
    rows = [[name] + counts(args.mx_opt, acc, result, options)
            for name, acc, result, options in PROGRAMS]
    usm.print_columns(["program", "result stores", "C loads", "code B",
                       "epilogue instrs", "VGPR / AGPR", "spills"], rows)


if __name__ == "__main__":
    main()
