#!/usr/bin/env python3
"""Quantizing the activation inside the GEMM (issue 12's small-M choice).

For the GPU MODE amd-mxfp4-mm contest shapes (seed 000: bf16 activations,
pre-quantized MXFP4 weights, bf16 result), compiles the program that
quantizes A with the seed's recipe and multiplies by constant weights (their
relayout folds at compile time, as for pre-shuffled weights), three ways:

  dispatch   quantize-in-gemm=never: a quantize dispatch writes A's fp4
             bytes and scales in the GEMM's layout, then the GEMM;
  in GEMM    quantize-in-gemm=always: one dispatch, whose kernel quantizes
             its A tiles in registers from bf16
             (ukernels/gfx950/mx_uk_scaled_mma_quantized_lhs.mlir);
  auto       the pipeline's default (mx-gfx950-quantize-in-gemm's heuristic):
             which of the two it picks.

and reports, per way: dispatches (all; "quantize": the quantize ones, a
quantize merged with another launch counting once), the GEMM kernel's VGPRs and spills, the
model's GEMM time (decode_metrics.evaluate: bench/mx_perf_model.py on the
kernel's ISA, floored by its unique bytes at HBM speed), the quantize
dispatch's time (its bytes at HBM speed), the split-K reduction, and their
total. Launch overheads are not modelled (bench/README.md): the in-GEMM
way also saves one launch and the wait between two dependent dispatches.
"break-even" is the in-GEMM way's total minus the dispatch way's: the
in-GEMM way is faster when a dependent dispatch costs more than that
(performance-anchors: small GEMM launches measure 5.5 to 6.5 us each).

Usage: bench/quantize_in_gemm.py [--mx-opt build/bin/mx-opt]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decode_metrics as dm  # noqa: E402
import ukernel_static_metrics as usm  # noqa: E402

SHAPES = [(m, n, k) for _, m, n, k, *_ in dm.CONTEST]
HEADER = ["shape", "way", "tile", "S", "dispatches", "quantize", "VGPR",
          "spills", "gemm us", "quant us", "red us", "total us", "break-even"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mx-opt", default="build/bin/mx-opt")
    args = parser.parse_args()
    rows = []
    for m, n, k in SHAPES:
        name = "%dx%dx%d" % (m, n, k)
        totals = {}
        for way, option in (("dispatch", "quantize-in-gemm=never"),
                            ("in GEMM", "quantize-in-gemm=always"),
                            ("auto", "")):
            try:
                r = dm.evaluate(args.mx_opt, m, n, k, dm.FP4, dm.FP4, "zero",
                                "bf16", option, source="bf16",
                                constant_b=True)
            except usm.Failure as failure:
                rows.append([name, way, "error: %s" % failure])
                continue
            label = way if way != "auto" else \
                "auto: " + ("in GEMM" if r["in_gemm"] else "dispatch")
            totals[way] = r["total_us"]
            # The cost a dependent dispatch must have for the in-GEMM way to
            # win: the time it adds to the GEMM.
            even = "%.2f" % (totals["in GEMM"] - totals["dispatch"]) \
                if way == "in GEMM" and "dispatch" in totals else ""
            rows.append([name, label, r["tile"], str(r["parts"]),
                         str(r["dispatches"]), str(r["quantizes"]), r["vgprs"],
                         str(r["spills"]), "%.2f" % r["gemm_us"],
                         "%.2f" % r["quant_us"], "%.2f" % r["red_us"],
                         "%.2f" % r["total_us"], even])
    usm.print_columns(HEADER, rows)


if __name__ == "__main__":
    main()
