//===- Passes.td - mx conversion passes --------------------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_CONVERSION_PASSES_TD
#define MX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMXToLinalg : Pass<"convert-mx-to-linalg"> {
  let summary = "Lower mx ops to linalg/arith/math with exact MX arithmetic";
  let description = [{
    Rewrites `mx.quantize`, `mx.dequantize` and `mx.scaled_contraction` on
    tensors into `linalg.generic` ops whose bodies implement the MX semantics
    exactly with `arith`/`math` operations, so that the program can run on
    the host CPU and serve as an executable reference for the data-tiled and
    GPU lowerings.

    * Element decoding uses a constant lookup table built from the builtin
      float type's own semantics (`APFloat`), indexed by the element's bits.
    * A scale byte `s` decodes to exactly `2^(s - 127)` and `0xFF` to NaN.
      (Upstream `arith.scaling_extf`/`extf` from `f8E8M0FNU` expands byte
      `0x00` to `0.0` instead of `2^-127`, and `arith.truncf` to
      `f4E2M1FN` rounds ties away from zero whatever the requested mode, so
      neither is used here.)
    * `mx.quantize` computes the block amax, the scale by the op's rule and
      the element codes by the op's rounding with f32 steps that are exact
      by construction and integer steps (`QuantizeArith.h`, shared with the
      gfx950 kernels).
    * `mx.scaled_contraction` accumulates exact products times both scales
      in f64 and rounds once to f32 at the end (plus `acc`).
    * `mx.grouped_scaled_contraction` checks its offsets, then loops over
      the experts, each an `mx.scaled_contraction` of the expert's rows
      (dynamic slices of `lhs` and `acc`) with its weights; inconsistent
      offsets call `mx_report_invalid_routing` (defined by the runner)
      and leave `acc` unchanged instead of reading out of bounds.
    * `mx.routed_scaled_contraction` loops over the blocks of `sorted_ids`,
      gathering each block's rows (`mx.gather_rows`) into an
      `mx.scaled_contraction` with its expert's weights and inserting each
      valid row of the sum at its routed row; a routed row named by more
      than one position calls `mx_report_invalid_routing` and leaves
      `acc` unchanged.
    * `mx.quantize_into` is an `mx.quantize` of its input and, per
      destination, a loop nest over the destination's padded logical domain
      that stores each code or scale at the map's position (code 0 or the
      scale padding outside the input); an `i8` destination is then packed
      into its bytes the way `mx-pack-to-bytes` stores them. A gathered
      one reads each logical row's codes and scales at input row
      `ids[i] / divisor` (`mx::buildGatheredSourceRow`, the row formula of
      `mx.gather_rows`), padding where that is no input row. Memref operands
      go through `bufferization.to_tensor` and
      `bufferization.materialize_in_destination`; dynamic sizes are read at
      run time.

    Example:

    ```mlir
    %r = mx.dequantize %e, %s axis(1)
        : tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
    ```

    becomes a `linalg.generic` over `4x64` that reads `%s` through
    `affine_map<(d0, d1) -> (d0, d1 floordiv 32)>`, looks the element up in a
    16-entry table and multiplies by the decoded scale.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ConvertLinalgToGPUDispatches
    : Pass<"convert-linalg-to-gpu-dispatches", "::mlir::func::FuncOp"> {
  let summary = "Run each elementwise linalg op on memrefs as a GPU dispatch";
  let description = [{
    Every linalg op on memrefs whose iterators are all parallel (the
    relayout ops of a bufferized data-tiled program: `linalg.map` fills,
    `linalg.copy`, `linalg.transpose`, `linalg.generic`) becomes a
    `gpu.launch` with one thread per iteration point: workgroups of
    `workgroup-size` threads along x, as many as the iteration space needs.
    Each thread linearizes its id, returns if it is past the end (the last
    workgroup diverges there), delinearizes the id into the loop indices
    (the last loop fastest, so consecutive threads touch consecutive
    elements of the output), loads the inputs through their indexing maps,
    runs the op's body and stores the outputs. When the op writes one buffer
    in loop order (identity map and layout) and the static sizes of its
    innermost loops allow, a thread owns 16 bytes of consecutive points
    instead (of the innermost loop, or of the innermost few when that one is
    shorter, e.g. a `[.., 16, 2]` scale tile's 8 x 2 points; whole rows
    of those, up to 64 bytes, when 16 bytes would split one, e.g. two
    24-byte fp6 rows): it runs the
    body for each and stores them with one `vector.store` (into the output
    with those loops collapsed), so relayouts move 16 contiguous bytes per
    thread. When the body also loads one buffer at an innermost index linear
    in the loop indices (possibly clamped to the buffer, as a fused pack's
    pad is) and that buffer holds whole runs of 16 bytes, the thread reads
    it in aligned runs of at least 16 bytes, one `vector.load` each, and
    takes its points' elements out of them; if its output chunk does not
    cover a run (a scale tile's chunk is 8 rows x 2 scales 4 apart), the
    outer loops the run needs are dealt to the thread whole (up to 256
    points), so it reads, e.g., 8 rows of 16 scales and writes 8 chunks.
    A body that yields `arith.select %c, %v, %out` (`%out` the output's
    own element, read nowhere else: the output is kept where `%c` is
    false, as a relayout of `mx.gather_row_tiles` with
    `undefined_empty_tiles` keeps its undefined destination) stores only
    where `%c` holds and never loads the output: one branch around the
    thread's vector store when its points' conditions are one value (a
    row's), else the vector where all hold and point by point otherwise.
    Ops already inside a
    `gpu.launch` and ops with reduction iterators are left alone. After
    `gpu-kernel-outlining`, each launch is one kernel.

    Example:

    ```mlir
    linalg.transpose ins(%a : memref<2x32x1x128xi8>)
        outs(%b : memref<2x1x32x128xi8>) permutation = [0, 2, 1, 3]
    ```

    becomes a `gpu.launch` of 2 workgroups of 256 threads (8192 bytes, 16 per
    thread) whose body loads `%a[i0, i2, i1, 16 c + j]` for j in 0..15 and
    stores them as one `vector<16xi8>` at `%b[i0, i1, i2, 16 c]` for the
    thread's `(i0, i1, i2, c)`.
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", "256",
           "Threads per workgroup (a multiple of 64, at most 1024)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

#endif // MX_CONVERSION_PASSES_TD
