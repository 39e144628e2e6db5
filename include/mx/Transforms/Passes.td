//===- Passes.td - generic transformation passes -----------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Passes on upstream ops only (tensor, linalg, memref, gpu) that the mx pipelines
// need and upstream does not provide; nothing here knows the mx dialect.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TRANSFORMS_PASSES_TD
#define MX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MXLowerRelayouts : Pass<"mx-lower-relayouts"> {
  let summary = "Lower linalg.pack/unpack to pad, reshapes and transposes";
  let description = [{
    Rewrites `linalg.pack` into `tensor.pad` + `tensor.expand_shape` +
    `linalg.transpose` and `linalg.unpack` into `linalg.transpose` +
    `tensor.collapse_shape` + `tensor.extract_slice`, which bufferize and run
    on the host. Part of the CPU pipeline.

    Example:

    ```mlir
    %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %e
        : tensor<64x256xf4E2M1FN> -> tensor<4x2x16x128xf4E2M1FN>
    ```

    becomes an `expand_shape` to `4x16x2x128` and a transpose to `4x2x16x128`.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def MXMemRefCopyToLinalg : Pass<"mx-memref-copy-to-linalg"> {
  let summary = "Rewrite memref.copy as linalg.copy";
  let description = [{
    `memref.copy` between non-contiguous buffers lowers to a call into
    MLIR's C runner-utils library (`memrefCopy`); as `linalg.copy` it lowers
    to plain loops instead, so host code needs no runtime library. Part of
    the CPU pipeline, after bufferization.

    Example:

    ```mlir
    memref.copy %a, %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
    ```

    becomes

    ```mlir
    linalg.copy ins(%a : memref<4x8xf32, strided<[16, 1]>>) outs(%b : memref<4x8xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MXSplitEmptyTensors : Pass<"mx-split-empty-tensors"> {
  let summary = "Give each use of a tensor.empty its own";
  let description = [{
    CSE merges `tensor.empty` ops of one shape into one value with several
    uses, and one-shot bufferization then gives the destinations built on it
    one buffer: e.g. two `linalg.fill`s of equal shape that feed different
    ops, whose fills must then run one after the other's consumers instead
    of together (an MoE layer's two routed GEMMs when 2I = H: the down
    GEMM's zero fill waited for the intermediate's quantize, which reuses
    the gate_up GEMM's buffer). This pass clones a `tensor.empty` for each
    use by an op of its own block but the first, right before
    bufferization, so that each destination gets a buffer of its own; uses
    in nested regions (e.g. exclusive branches, which can share one buffer)
    keep it. A `tensor.empty` has no contents: the program computes the
    same values.

    Example:

    ```mlir
    %e = tensor.empty() : tensor<16x64xf32>
    %a = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %b = linalg.fill ins(%one : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    ```

    becomes

    ```mlir
    %e = tensor.empty() : tensor<16x64xf32>
    %e_0 = tensor.empty() : tensor<16x64xf32>
    %a = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %b = linalg.fill ins(%one : f32) outs(%e_0 : tensor<16x64xf32>) -> tensor<16x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def MXMergeGPULaunches : Pass<"mx-merge-gpu-launches"> {
  let summary = "Merge consecutive independent gpu.launch ops into one";
  let description = [{
    Data tiling relays out every operand of a GEMM with its own dispatch (A,
    B, their scales, the accumulator): a launch each, although none depends
    on another. This pass merges each run of consecutive `gpu.launch` ops
    that are independent into one launch whose grid is the sum of theirs:
    block `x` runs the first launch's body for `x < grid0`, the second's
    for `grid0 <= x < grid0 + grid1` (with `x - grid0` as its block index),
    and so on. The merged launch keeps the first launch's kernel name.

    Launches merge when both have a one-dimensional grid and the same
    one-dimensional block size, no async dependencies, workgroup or private
    attributions or dynamic shared memory, and neither writes memory the
    other accesses: the buffers are traced through view ops to their
    allocation or function argument; distinct allocations do not alias,
    function arguments may alias each other. Side-effect-free ops and
    `memref.alloc`s between two launches move before the first; any other
    op ends the run.

    Example:

    ```mlir
    gpu.launch blocks(%bx, ...) in (%gx = %c8, ...) threads(...) in (%sx = %c256, ...) {
      ... A relayout ...
    }
    %sa = memref.alloc() : memref<...>
    gpu.launch blocks(%bx, ...) in (%gx = %c2, ...) threads(...) in (%sx = %c256, ...) {
      ... A scales relayout ...
    }
    ```

    becomes the allocation, then one launch of 10 blocks of 256 threads.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MXGPUModulesToBinaries : Pass<"mx-gpu-modules-to-binaries"> {
  let summary = "Serialize every gpu.module into a gpu.binary, the modules in parallel";
  let description = [{
    What upstream's `gpu-module-to-binary` does, with the modules serialized
    in parallel: each `gpu.module` directly inside the op becomes a
    `gpu.binary` of the same name holding one `#gpu.object` per target
    attribute of the module (`TargetAttrInterface::serializeToObject`, then
    `createObject`), in the module's place. Each module's translation to
    LLVM IR, LLVM's optimizations and code generation run on a thread of the
    context's pool (`--mlir-disable-threading` runs them one after the
    other); the binaries are created in order afterwards, and diagnostics
    come in the modules' order. A program of several kernels (relayouts, a
    GEMM) is then compiled in about the time of its largest kernel.

    `format` is the objects' format: `isa` (assembly), `bin` (a code
    object), `llvm` (LLVM IR for offloading) or `fatbin`.

    Example:

    ```mlir
    gpu.module @kernels [#rocdl.target<chip = "gfx950">] {
      llvm.func @k() attributes {gpu.kernel, rocdl.kernel} { llvm.return }
    }
    ```

    becomes (format=isa)

    ```mlir
    gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx950">,
                                     assembly = "\t.amdgcn_target ...">]
    ```
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "The objects' format: isa, bin, llvm or fatbin">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def MXAttachLoopAnnotations : Pass<"mx-attach-loop-annotations"> {
  let summary = "Turn the llvm.loop_annotation attributes of LLVM branches into their loop metadata";
  let description = [{
    `scf-to-cf` moves an `scf.for`'s `llvm.loop_annotation` attribute onto
    the loop's back edge, and the conversion to the LLVM dialect keeps it
    there as a discardable attribute of the `llvm.br`. The translation to
    LLVM IR reads only the branch's own `loop_annotation` property, so the
    annotation (e.g. an unroll that must not happen) never reaches LLVM.
    This pass moves the discardable `llvm.loop_annotation` of every
    `llvm.br` and `llvm.cond_br` into that property; a branch that already
    has one keeps it, and loses the discardable attribute. An
    `llvm.loop_annotation` that is not a `#llvm.loop_annotation` is an
    error.

    Example:

    ```mlir
    llvm.br ^bb1(%next : i64) {llvm.loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
    ```

    becomes

    ```mlir
    llvm.br ^bb1(%next : i64) {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MX_TRANSFORMS_PASSES_TD
