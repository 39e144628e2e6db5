//===- GFX950TransformOps.td - transform.mx.gfx950.* ops ---*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Transform-dialect ops that apply the gfx950 target's stages (lowering to
// ukernel calls, specializing the ukernels) to payload ops. Each op calls
// the stage's public function (mx/Target/GFX950/Transforms/Transforms.h),
// the one its pass drives.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_TRANSFORMOPS_GFX950TRANSFORMOPS_TD
#define MX_TARGET_GFX950_TRANSFORMOPS_GFX950TRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

/// An op that lowers each payload op of `target` and returns a handle to
/// the gpu.launch that replaced it.
class MXGFX950_LowerToLaunchOp<string mnemonic>
    : Op<Transform_Dialect, "mx.gfx950." # mnemonic,
         [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
          TransformOpInterface, TransformEachOpTrait,
          ReportTrackingListenerFailuresOpTrait]> {
  let cppNamespace = "::mlir::mx::gfx950";
  let results = (outs TransformHandleTypeInterface:$launch);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def MXGFX950_LowerTiledMMATransformOp : MXGFX950_LowerToLaunchOp<"lower_tiled_mma"> {
  let summary = "Lower mx.tiled_scaled_mma to a launch of ukernel calls";
  let description = [{
    Applies `mx::gfx950::lowerTiledScaledMMA` (the rewrite of
    `mx-gfx950-lower-tiled-mma`) to each `mx.tiled_scaled_mma` of `target`
    (on memrefs, after bufferization): it becomes a `gpu.launch` over the
    output tiles whose waves call the gfx950 ukernel selected for its
    layout, ready for `transform.mx.gfx950.specialize_ukernels`.

    #### Return modes
    Consumes `target`; `launch` holds the `gpu.launch` ops. A payload op
    that is not an `mx.tiled_scaled_mma` is a silenceable failure; one no
    ukernel serves is a definite failure, with the pass's error and notes.

    Example:

    ```mlir
    %mma = transform.structured.match ops{["mx.tiled_scaled_mma"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %launch = transform.mx.gfx950.lower_tiled_mma %mma
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
}

def MXGFX950_LowerQuantizeTransformOp : MXGFX950_LowerToLaunchOp<"lower_quantize"> {
  let summary = "Lower mx.quantize_into on memrefs to a gfx950 launch";
  let description = [{
    Applies `mx::gfx950::lowerQuantize` (the rewrite of
    `mx-gfx950-lower-quantize`) to each `mx.quantize_into` of `target` (on
    memrefs): it becomes one `gpu.launch` whose threads each quantize
    blocks. `workgroup_size` and `packed_conversions` are the pass's
    options of those names.

    #### Return modes
    Consumes `target`; `launch` holds the `gpu.launch` ops. A payload op
    of another kind is a silenceable failure; one the lowering rejects, a
    definite failure with its error.

    Example:

    ```mlir
    %launch = transform.mx.gfx950.lower_quantize %quantize
        {workgroup_size = 128} : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "256">:$workgroup_size,
                       DefaultValuedAttr<BoolAttr, "true">:$packed_conversions);
}

def MXGFX950_SpecializeUKernelsTransformOp : Op<Transform_Dialect,
    "mx.gfx950.specialize_ukernels",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Replace the ukernel calls under each payload op by specialized copies";
  let description = [{
    Applies `mx::gfx950::specializeUKernels` (the rewrite of
    `mx-gfx950-specialize-ukernels`) under each payload op of `target`:
    every call to a gfx950 ukernel becomes a copy of the ukernel bound to
    its types and constant tile parameters, folded and unrolled. `unroll_k`
    is the pass's option of that name (0: the factor each call asks for).

    #### Return modes
    Reads `target` (the payload ops stay; what is under them is
    rewritten). A call that cannot be specialized is a definite failure,
    with the pass's error.

    Example:

    ```mlir
    transform.mx.gfx950.specialize_ukernels %module : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "0">:$unroll_k);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let cppNamespace = "::mlir::mx::gfx950";
}

/// An op that applies a gfx950 stage under each payload op of `target`.
class MXGFX950_ApplyOp<string mnemonic>
    : Op<Transform_Dialect, "mx.gfx950." # mnemonic,
         [DeclareOpInterfaceMethods<TransformOpInterface>,
          DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
          ReportTrackingListenerFailuresOpTrait]> {
  let cppNamespace = "::mlir::mx::gfx950";
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def MXGFX950_QuantizeInGEMMTransformOp : MXGFX950_ApplyOp<"quantize_in_gemm"> {
  let summary = "Mark the activation quantizes the GEMM kernels compute themselves";
  let description = [{
    Applies `mx::gfx950::quantizeInGEMM` (the rewrite of
    `mx-gfx950-quantize-in-gemm`) under each payload op of `target` (a
    function on tensors): a quantize that only feeds the A operand of a
    GEMM a ukernel can quantize itself is marked `in_consumer`. `mode` is
    the pass's option (`auto`, `always`, `never`).

    #### Return modes
    Reads `target`; a failure of the rewrite (e.g. `always` where it cannot
    apply) is a definite failure.

    Example:

    ```mlir
    transform.mx.gfx950.quantize_in_gemm %func {mode = "always"} : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<StrAttr, "\"auto\"">:$mode);
}

def MXGFX950_ReserveAccumulatorAGPRsTransformOp
    : MXGFX950_ApplyOp<"reserve_accumulator_agprs"> {
  let summary = "Keep the marked accumulators of each gpu.module in AGPRs";
  let description = [{
    Applies `mx::gfx950::reserveAccumulatorAGPRs` (the rewrite of
    `mx-gfx950-reserve-accumulator-agprs`) to each `gpu.module` of `target`.
    `all` is the pass's option.

    #### Return modes
    Reads `target`. A payload op that is not a `gpu.module` is a
    silenceable failure.

    Example:

    ```mlir
    transform.mx.gfx950.reserve_accumulator_agprs %module : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, UnitAttr:$all);
}

def MXGFX950_LDSCopyAliasScopesTransformOp
    : MXGFX950_ApplyOp<"lds_copy_alias_scopes"> {
  let summary = "Put the ukernels' LDS copies and reads of each gpu.module in alias scopes";
  let description = [{
    Applies `mx::gfx950::setLDSCopyAliasScopes` (the rewrite of
    `mx-gfx950-lds-copy-alias-scopes`) to each `gpu.module` of `target` (in
    the LLVM dialect).

    #### Return modes
    Reads `target`. A payload op that is not a `gpu.module` is a
    silenceable failure.

    Example:

    ```mlir
    transform.mx.gfx950.lds_copy_alias_scopes %module : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
}

#endif // MX_TARGET_GFX950_TRANSFORMOPS_GFX950TRANSFORMOPS_TD
