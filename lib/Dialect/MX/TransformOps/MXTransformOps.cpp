//===- MXTransformOps.cpp - transform.mx.* ops ----------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each op calls the public rewrite of its stage (Transforms.h); what the
// rewrite reports as an error is a definite failure, a payload op of the
// wrong kind a silenceable one.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/TransformOps/MXTransformOps.h"
#include "mx/Conversion/MXToLinalg/MXToLinalg.h"
#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/TransformOps/TransformOpUtils.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"
#include "mx/Transforms/Transforms.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"

using namespace mlir;
using namespace mlir::mx;

/// The target attribute `attr` as a layout resolver; `op` names it in the
/// error when it is not one.
static LogicalResult verifyLayoutTarget(Operation *op, Attribute attr) {
  if (attr && !isa<LayoutResolverAttrInterface>(attr))
    return op->emitOpError("'layout_target' must be a target attribute "
                           "implementing LayoutResolverAttrInterface (e.g. ")
           << op->getContext()
                  ->getOrLoadDialect<MXDialect>()
                  ->getTargetExample()
           << "), got " << attr;
  return success();
}

/// The resolver for `payload`: `attr` when given, else the `mx.target` of
/// the nearest enclosing op (null when there is none).
static LayoutResolverAttrInterface resolveTarget(Attribute attr,
                                                 Operation *payload) {
  if (auto target = dyn_cast_if_present<LayoutResolverAttrInterface>(attr))
    return target;
  return getEnclosingTarget(payload);
}

/// The resolver to ask for `payload`: `attr` when given, else the
/// enclosing `mx.target`; failure, with an error on `transformOp` saying
/// what it was needed `for`, when there is none.
static FailureOr<LayoutResolverAttrInterface>
getResolver(Operation *transformOp, Attribute attr, Operation *payload,
            StringRef purpose) {
  if (LayoutResolverAttrInterface resolver = resolveTarget(attr, payload))
    return resolver;
  return transformOp->emitError()
         << "no 'layout_target' and no enclosing 'mx.target' to ask "
         << purpose;
}

//===----------------------------------------------------------------------===//
// RaiseScaledMatmulTransformOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure RaiseScaledMatmulTransformOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  auto generic = dyn_cast<linalg::GenericOp>(target);
  if (!generic)
    return emitWrongPayload<linalg::GenericOp>(*this, target);
  rewriter.setInsertionPoint(generic);
  FailureOr<ScaledContractionOp> raised = raiseScaledMatmul(rewriter, generic);
  if (failed(raised)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableFailure(*this)
        << "the payload is not a scaled matmul in upstream form";
    diag.attachNote(target->getLoc()) << "payload op";
    return diag;
  }
  results.push_back(*raised);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// SetEncodingsTransformOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
SetEncodingsTransformOp::applyToOne(transform::TransformRewriter &rewriter,
                                    Operation *target,
                                    transform::ApplyToEachResultList &results,
                                    transform::TransformState &state) {
  return rewritePayload<ScaledContractionOp>(
      *this, rewriter, target, results, /*keepUnchanged=*/true, "the rewrite",
      [&](ScaledContractionOp op) {
        return setEncodings(rewriter, op, getOnlyStatic());
      });
}

//===----------------------------------------------------------------------===//
// MaterializeEncodingsTransformOp
//===----------------------------------------------------------------------===//

LogicalResult MaterializeEncodingsTransformOp::verify() {
  return verifyLayoutTarget(*this, getLayoutTargetAttr());
}

DiagnosedSilenceableFailure
MaterializeEncodingsTransformOp::apply(transform::TransformRewriter &rewriter,
                                       transform::TransformResults &results,
                                       transform::TransformState &state) {
  MaterializeEncodingsOptions options;
  options.userLayoutResults = getUserLayoutResults();
  auto target =
      dyn_cast_if_present<LayoutResolverAttrInterface>(getLayoutTargetAttr());
  return applyToEachPayload<Operation *>(
      *this, state, getTarget(), "materializing the encodings",
      [&](Operation *payload) {
        return materializeEncodings(rewriter, payload, target, options);
      });
}

void MaterializeEncodingsTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

//===----------------------------------------------------------------------===//
// SplitKTransformOp
//===----------------------------------------------------------------------===//

LogicalResult SplitKTransformOp::verify() {
  return verifyLayoutTarget(*this, getLayoutTargetAttr());
}

DiagnosedSilenceableFailure
SplitKTransformOp::applyToOne(transform::TransformRewriter &rewriter,
                              Operation *target,
                              transform::ApplyToEachResultList &results,
                              transform::TransformState &state) {
  return rewritePayload<TiledScaledMMAOp>(
      *this, rewriter, target, results, /*keepUnchanged=*/true, "the rewrite",
      [&](TiledScaledMMAOp op) -> FailureOr<Value> {
        FailureOr<LayoutResolverAttrInterface> resolver =
            getResolver(*this, getLayoutTargetAttr(), op, "for the split");
        if (failed(resolver))
          return failure();
        return splitK(rewriter, op, *resolver);
      });
}

//===----------------------------------------------------------------------===//
// FuseQuantizeRelayoutsTransformOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure FuseQuantizeRelayoutsTransformOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  return rewritePayload<QuantizeOp>(
      *this, rewriter, target, results, /*keepUnchanged=*/false, "the rewrite",
      [&](QuantizeOp op) { return fuseQuantizeRelayouts(rewriter, op); });
}

//===----------------------------------------------------------------------===//
// FuseEpilogueTransformOp
//===----------------------------------------------------------------------===//

LogicalResult FuseEpilogueTransformOp::verify() {
  return verifyLayoutTarget(*this, getLayoutTargetAttr());
}

DiagnosedSilenceableFailure
FuseEpilogueTransformOp::applyToOne(transform::TransformRewriter &rewriter,
                                    Operation *target,
                                    transform::ApplyToEachResultList &results,
                                    transform::TransformState &state) {
  return rewritePayload<TiledScaledMMAOp>(
      *this, rewriter, target, results, /*keepUnchanged=*/true, "the rewrite",
      [&](TiledScaledMMAOp op) -> FailureOr<TiledScaledMMAOp> {
        FailureOr<LayoutResolverAttrInterface> resolver = getResolver(
            *this, getLayoutTargetAttr(), op, "what an epilogue can compute");
        if (failed(resolver))
          return failure();
        return fuseEpilogue(rewriter, op, *resolver);
      });
}

//===----------------------------------------------------------------------===//
// FuseRelayoutsTransformOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
FuseRelayoutsTransformOp::apply(transform::TransformRewriter &rewriter,
                                transform::TransformResults &results,
                                transform::TransformState &state) {
  return applyToEachPayload<Operation *>(
      *this, state, getTarget(), "fusing the relayouts",
      [&](Operation *payload) { return fuseRelayouts(rewriter, payload); });
}

void FuseRelayoutsTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

//===----------------------------------------------------------------------===//
// SpecializeDynamicMTransformOp
//===----------------------------------------------------------------------===//

LogicalResult SpecializeDynamicMTransformOp::verify() {
  return verifyLayoutTarget(*this, getLayoutTargetAttr());
}

DiagnosedSilenceableFailure SpecializeDynamicMTransformOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  return rewritePayload<ScaledContractionOp>(
      *this, rewriter, target, results, /*keepUnchanged=*/true, "the rewrite",
      [&](ScaledContractionOp op) -> FailureOr<Value> {
        FailureOr<LayoutResolverAttrInterface> resolver =
            getResolver(*this, getLayoutTargetAttr(), op, "for the M buckets");
        if (failed(resolver))
          return failure();
        return specializeDynamicM(rewriter, op, *resolver);
      });
}

//===----------------------------------------------------------------------===//
// PackToBytesTransformOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
PackToBytesTransformOp::apply(transform::TransformRewriter &rewriter,
                              transform::TransformResults &results,
                              transform::TransformState &state) {
  return applyToEachPayload<func::FuncOp>(*this, state, getTarget(),
                                          "packing to bytes", packToBytes);
}

void PackToBytesTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

//===----------------------------------------------------------------------===//
// Pattern sets
//===----------------------------------------------------------------------===//

void ApplyLowerRelayoutsPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  populateLowerRelayoutsPatterns(patterns);
}

void ApplyMemRefCopyToLinalgPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  populateMemRefCopyToLinalgPatterns(patterns);
}

void ApplyMXToLinalgPatternsOp::populatePatterns(RewritePatternSet &patterns) {
  populateMXToLinalgPatterns(patterns);
}

//===----------------------------------------------------------------------===//
// MergeGPULaunchesTransformOp, GPUModulesToBinariesTransformOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
MergeGPULaunchesTransformOp::apply(transform::TransformRewriter &rewriter,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  return applyToEachPayload<Operation *>(
      *this, state, getTarget(), "merging the launches",
      [](Operation *payload) {
        payload->walk([](Block *block) { mergeGPULaunches(*block); });
        return success();
      });
}

void MergeGPULaunchesTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

LogicalResult GPUModulesToBinariesTransformOp::verify() {
  if (!parseCompilationTarget(getFormat()))
    return emitOpError("'format' must be isa, bin, llvm or fatbin, got '")
           << getFormat() << "'";
  return success();
}

DiagnosedSilenceableFailure
GPUModulesToBinariesTransformOp::apply(transform::TransformRewriter &rewriter,
                                       transform::TransformResults &results,
                                       transform::TransformState &state) {
  gpu::CompilationTarget format = *parseCompilationTarget(getFormat());
  return applyToEachPayload<Operation *>(
      *this, state, getTarget(), "serializing the GPU modules",
      [&](Operation *payload) {
        return serializeGPUModulesToBinaries(payload, format);
      });
}

void GPUModulesToBinariesTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "mx/Dialect/MX/TransformOps/MXTransformOps.cpp.inc"

namespace {
/// The `transform.mx.*` ops, loaded with the dialects their rewrites
/// create.
class MXTransformDialectExtension
    : public transform::TransformDialectExtension<MXTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MXTransformDialectExtension)
  using Base::Base;

  void init() {
    declareDependentDialect<MXDialect>();
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "mx/Dialect/MX/TransformOps/MXTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mx::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<MXTransformDialectExtension>();
}
