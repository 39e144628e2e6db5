//===- Passes.td - gfx950 target passes --------------------*- tablegen -*-===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_PASSES_TD
#define MX_TARGET_GFX950_PASSES_TD

include "mlir/Pass/PassBase.td"

def MXGFX950KernelReport : Pass<"mx-gfx950-kernel-report", "::mlir::ModuleOp"> {
  let summary = "Print static statistics of the gfx950 kernels in gpu.binary ops";
  let description = [{
    For every `gpu.binary` object in assembly form (`gpu-module-to-binary`
    with `format=isa`), prints per kernel: VGPR/AGPR/SGPR counts, LDS bytes,
    scratch bytes, VGPR/SGPR spills (all from the AMDHSA metadata), the
    occupancy they allow (waves per SIMD), the exact code size (the text is
    assembled with LLVM's MC layer), and the instruction, MFMA (by kind),
    global, LDS and direct-to-LDS load counts of the whole kernel and of its
    main loop (the loop with the most MFMAs). The IR is not changed.

    Example output:

    ```
    kernel uk
      vgprs: 58
      scratch_bytes: 0
      vgpr_spills: 0
      waves_per_simd: 8
      code_bytes: 400
      main_loop.mfma: 8
    ```
  }];
  let options = [
    Option<"outputFile", "output", "std::string", "\"-\"",
           "Where to print the report (default: stdout)">
  ];
}

#endif // MX_TARGET_GFX950_PASSES_TD
