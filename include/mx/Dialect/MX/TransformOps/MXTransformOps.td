//===- MXTransformOps.td - transform.mx.* ops --------------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Transform-dialect ops that apply the stages of lib/Dialect/MX/Transforms
// to payload ops, so that a downstream compiler can script them (with
// `transform.named_sequence` and the transform interpreter) instead of
// running mx's passes. Each op calls the stage's public function
// (mx/Dialect/MX/Transforms/Transforms.h), the one its pass drives.
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMOPS_MXTRANSFORMOPS_TD
#define MX_DIALECT_MX_TRANSFORMOPS_MXTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

/// An op that rewrites each payload op of `target` on its own and returns
/// a handle to what replaced it (ops left alone map to nothing).
class MX_EachOpTransformOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "mx." # mnemonic,
         !listconcat([FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
                      TransformOpInterface, TransformEachOpTrait,
                      ReportTrackingListenerFailuresOpTrait], traits)> {
  let cppNamespace = "::mlir::mx";
  let results = (outs TransformHandleTypeInterface:$transformed);
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def MX_RaiseScaledMatmulTransformOp : MX_EachOpTransformOp<"raise_scaled_matmul"> {
  let summary = "Raise a linalg.generic scaled matmul to mx.scaled_contraction";
  let description = [{
    Applies `mx::raiseScaledMatmul` (the rewrite of
    `mx-raise-scaled-matmul`) to each `linalg.generic` of `target`: one in
    the upstream form of a scaled matmul (`arith.scaling_extf` of both
    operands, f32 multiply-add) becomes an `mx.scaled_contraction`.

    #### Return modes
    Consumes `target`; `transformed` holds the new contractions. A payload
    op that is not a `linalg.generic` or not of that form is a silenceable
    failure.

    Example:

    ```mlir
    %generic = transform.structured.match ops{["linalg.generic"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %contraction = transform.mx.raise_scaled_matmul %generic
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, results)";
}

def MX_SetEncodingsTransformOp : MX_EachOpTransformOp<"set_encodings"> {
  let summary = "Put #mx.encoding on the operands of mx.scaled_contraction";
  let description = [{
    Applies `mx::setEncodings` (the rewrite of `mx-set-encodings`) to each
    `mx.scaled_contraction` of `target`: its five operands are wrapped in
    `mx.set_encoding` and its result in `mx.unset_encoding`. With
    `only_static`, a contraction with dynamic loop sizes is left alone.

    #### Return modes
    Consumes `target`; `transformed` holds the `mx.unset_encoding` ops that
    replace the contractions' results. A payload op that is not an
    `mx.scaled_contraction` is a silenceable failure; a pinned `mx.layout`
    that is not a data-tiled layout is a definite one.

    Example:

    ```mlir
    %unset = transform.mx.set_encodings %contraction
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       UnitAttr:$only_static);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, results)";
}

def MX_MaterializeEncodingsTransformOp : Op<Transform_Dialect,
    "mx.materialize_encodings",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Materialize the mx encodings under each payload op for a target";
  let description = [{
    Applies `mx::materializeEncodings` (the rewrite of
    `mx-materialize-encodings`) under each payload op of `target`:
    `mx.set_encoding` / `mx.unset_encoding` become relayouts into the
    data-tiled layout the target resolves, encoded contractions become
    `mx.tiled_scaled_mma`. `layout_target` is the target attribute to ask
    (one that implements `LayoutResolverAttrInterface`, e.g.
    `#mx_gfx950.target<...>`); without it, the `mx.target` of the nearest
    enclosing op. `user_layout_results` is the pass option of that name.

    #### Return modes
    Reads `target` (the payload ops stay; what is under them is
    rewritten). An encoding without a target to resolve it, or a layout the
    target cannot give, is a definite failure, with the pass's message.

    Example:

    ```mlir
    transform.mx.materialize_encodings %func
        {layout_target = #mx_gfx950.target<intrinsic = mfma_scale_32x32x64>}
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<AnyAttr>:$layout_target,
                       UnitAttr:$user_layout_results);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let cppNamespace = "::mlir::mx";
  let hasVerifier = 1;
}

def MX_SplitKTransformOp : MX_EachOpTransformOp<"split_k"> {
  let summary = "Split the K loop of mx.tiled_scaled_mma as the target asks";
  let description = [{
    Applies `mx::splitK` (the rewrite of `mx-split-k`) to each
    `mx.tiled_scaled_mma` of `target`: its K tiles are split into the number
    of parts `layout_target` (else the enclosing `mx.target`) asks for, as a
    leading batch dimension of a new op whose parts a `linalg.generic` adds.

    #### Return modes
    Consumes `target`; `transformed` holds the op that yields each result
    (the adding `linalg.generic`, or the unchanged op when it is not
    split). A payload op that is not an `mx.tiled_scaled_mma` is a
    silenceable failure.

    Example:

    ```mlir
    %split = transform.mx.split_k %mma
        {layout_target = #mx_gfx950.target<split_k = 4>}
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<AnyAttr>:$layout_target);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, results)";
  let hasVerifier = 1;
}

def MX_FuseQuantizeRelayoutsTransformOp
    : MX_EachOpTransformOp<"fuse_quantize_relayouts"> {
  let summary = "Make mx.quantize write the layouts of the relayouts it feeds";
  let description = [{
    Applies `mx::fuseQuantizeRelayouts` (the rewrite of
    `mx-fuse-quantize-relayouts`) to each `mx.quantize` of `target`: it
    becomes one `mx.quantize_into` that writes each relayout chain it feeds
    in the chain's layout.

    #### Return modes
    Consumes `target`; `transformed` holds the `mx.quantize_into` ops. A
    payload op that is not an `mx.quantize` is a silenceable failure.

    Example:

    ```mlir
    %into = transform.mx.fuse_quantize_relayouts %quantize
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, results)";
}

def MX_FuseEpilogueTransformOp : MX_EachOpTransformOp<"fuse_epilogue"> {
  let summary = "Fold the elementwise consumer of mx.tiled_scaled_mma into it";
  let description = [{
    Applies `mx::fuseEpilogue` (the rewrite of `mx-fuse-epilogues`) to each
    `mx.tiled_scaled_mma` of `target`: the elementwise `linalg.generic` that
    is the only user of its result is folded into its epilogue, if
    `layout_target` (else the enclosing `mx.target`) can compute it there.

    #### Return modes
    Consumes `target`; `transformed` holds the resulting ops (fused, or
    unchanged). A payload op that is not an `mx.tiled_scaled_mma` is a
    silenceable failure.

    Example:

    ```mlir
    %fused = transform.mx.fuse_epilogue %mma
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<AnyAttr>:$layout_target);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, results)";
  let hasVerifier = 1;
}

def MX_FuseRelayoutsTransformOp : Op<Transform_Dialect, "mx.fuse_relayouts",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Fuse each relayout chain under the payload ops into one gather";
  let description = [{
    Applies `mx::fuseRelayouts` (the rewrite of `mx-fuse-relayouts`) under
    each payload op of `target`: every chain of relayout ops (reshapes,
    transposes, pads, slices, `mx.gather_rows`, `mx.gather_row_tiles`)
    becomes one `linalg.generic` reading from the chain's source.

    #### Return modes
    Reads `target`; a failure of the rewrite is a definite failure.

    Example:

    ```mlir
    transform.mx.fuse_relayouts %func : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let cppNamespace = "::mlir::mx";
}

def MX_SpecializeDynamicMTransformOp
    : MX_EachOpTransformOp<"specialize_dynamic_m"> {
  let summary = "Version a dynamic-M mx.scaled_contraction per M bucket";
  let description = [{
    Applies `mx::specializeDynamicM` (the rewrite of
    `mx-specialize-dynamic-m`) to each `mx.scaled_contraction` of `target`:
    one whose only dynamic loop is M is versioned per M bucket of
    `layout_target` (else the enclosing `mx.target`), an `scf.if` chain
    choosing the copy at run time.

    #### Return modes
    Consumes `target`; `transformed` holds the op that yields each result
    (the `scf.if` chain, or the unchanged op when it does not qualify). A
    payload op of another kind is a silenceable failure.

    Example:

    ```mlir
    %versions = transform.mx.specialize_dynamic_m %contraction
        {layout_target = #mx_gfx950.target}
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<AnyAttr>:$layout_target);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, results)";
  let hasVerifier = 1;
}

def MX_PackToBytesTransformOp : Op<Transform_Dialect, "mx.pack_to_bytes",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Store the MX tensors of each payload function as bytes";
  let description = [{
    Applies `mx::packToBytes` (the rewrite of `mx-pack-to-bytes`) to each
    `func.func` of `target`: its MX element and scale tensors become `i8`
    tensors (sub-byte elements packed), its signature with them. Unlike
    the pass, it does not check the function's callers: a script that
    packs a called function packs its callers too.

    #### Return modes
    Reads `target`. A payload op that is not a `func.func` is a silenceable
    failure; an op that cannot work on packed data a definite one.

    Example:

    ```mlir
    transform.mx.pack_to_bytes %func : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let cppNamespace = "::mlir::mx";
}

/// A pattern set of an mx stage, for `transform.apply_patterns`.
class MX_PatternsOp<string mnemonic, string function>
    : Op<Transform_Dialect, "apply_patterns.mx." # mnemonic,
         [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let cppNamespace = "::mlir::mx";
  let assemblyFormat = "attr-dict";
  let summary = "The patterns of `" # function # "`";
}

def MX_ApplyLowerRelayoutsPatternsOp
    : MX_PatternsOp<"lower_relayouts", "mx::populateLowerRelayoutsPatterns"> {
  let description = [{
    The patterns of `mx-lower-relayouts`
    (`mx::populateLowerRelayoutsPatterns`): `linalg.pack` / `linalg.unpack`
    become pad, reshapes and transposes.

    Example:

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.mx.lower_relayouts
    } : !transform.any_op
    ```
  }];
}

def MX_ApplyMemRefCopyToLinalgPatternsOp
    : MX_PatternsOp<"memref_copy_to_linalg",
                    "mx::populateMemRefCopyToLinalgPatterns"> {
  let description = [{
    The patterns of `mx-memref-copy-to-linalg`
    (`mx::populateMemRefCopyToLinalgPatterns`): `memref.copy` becomes a
    `linalg.copy`.

    Example:

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.mx.memref_copy_to_linalg
    } : !transform.any_op
    ```
  }];
}

def MX_ApplyMXToLinalgPatternsOp
    : MX_PatternsOp<"mx_to_linalg", "mx::populateMXToLinalgPatterns"> {
  let description = [{
    The patterns of `convert-mx-to-linalg` (`mx::populateMXToLinalgPatterns`):
    the `mx` ops become `linalg` ops with exact MX arithmetic (the CPU path).

    Example:

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.mx.mx_to_linalg
    } : !transform.any_op
    ```
  }];
}

def MX_MergeGPULaunchesTransformOp : Op<Transform_Dialect,
    "mx.merge_gpu_launches",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Merge independent gpu.launch ops under each payload op";
  let description = [{
    Applies `mx::mergeGPULaunches` (the rewrite of `mx-merge-gpu-launches`)
    to every block under each payload op of `target`: runs of independent
    `gpu.launch` ops become one launch over the sum of their grids.

    #### Return modes
    Reads `target`; never fails.

    Example:

    ```mlir
    transform.mx.merge_gpu_launches %func : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let cppNamespace = "::mlir::mx";
}

def MX_GPUModulesToBinariesTransformOp : Op<Transform_Dialect,
    "mx.gpu_modules_to_binaries",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Serialize the gpu.modules under each payload op in parallel";
  let description = [{
    Applies `mx::serializeGPUModulesToBinaries` (the rewrite of
    `mx-gpu-modules-to-binaries`) under each payload op of `target`: its
    `gpu.module`s become `gpu.binary` ops of `format` (`isa`, `bin`,
    `llvm`, `fatbin`), serialized in parallel.

    #### Return modes
    Reads `target`; a module that fails to serialize is a definite failure.

    Example:

    ```mlir
    transform.mx.gpu_modules_to_binaries %module {format = "isa"}
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<StrAttr, "\"isa\"">:$format);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let cppNamespace = "::mlir::mx";
  let hasVerifier = 1;
}

#endif // MX_DIALECT_MX_TRANSFORMOPS_MXTRANSFORMOPS_TD
