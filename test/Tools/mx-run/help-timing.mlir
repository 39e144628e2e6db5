// --help lists every backend and the MFMA arithmetic models; --timing reports each phase, with the passes of
// the compilation nested in the run, on stderr (stdout keeps the results).
// RUN: mx-run --help | FileCheck %s --check-prefix=HELP
// HELP: --backend=<NAME> - Execution backend: cpu, gfx950-emu, gfx950-isa, hip, reference (default: cpu)
// HELP: --mfma-arithmetic=<value>
// HELP-NEXT: =exact
// HELP-NEXT: =cdna3-grouped
// HELP: --reference-arithmetic=<value>
// HELP: --reference-rounding=<value>
// HELP-NEXT: =auto
// HELP-NEXT: =once
// HELP-NEXT: =per-instruction
// HELP: --sum-tol=<R>
// HELP: --timing

// RUN: mx-run %s --arg=fill:2 --print --timing 2>%t.timing | FileCheck %s --check-prefix=RESULT
// RUN: FileCheck %s --check-prefix=TIMING < %t.timing
// RESULT: result #0 tensor<2xf32> = [4, 4]
// TIMING: Execution time report
// TIMING: Wall Time
// TIMING-NEXT: parse
// TIMING-NEXT: inputs
// TIMING-NEXT: run on cpu
// TIMING-NEXT: MXRaiseScaledMatmul
// TIMING: ConvertElementwiseToLinalgPass
// TIMING: ConvertMXToLinalg
// TIMING: ConvertToLLVMPass
// TIMING: report
// TIMING: Total

// Without --timing, no report.
// RUN: mx-run %s --arg=fill:2 2>&1 | count 0
// RUN: mx-run %s --arg=fill:2 --print 2>&1 | FileCheck %s --check-prefix=NO-TIMING --implicit-check-not="time report"
// NO-TIMING: result #0

func.func @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %y = linalg.add ins(%x, %x : tensor<2xf32>, tensor<2xf32>)
                  outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
