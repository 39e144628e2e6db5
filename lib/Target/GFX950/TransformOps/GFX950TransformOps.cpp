//===- GFX950TransformOps.cpp - transform.mx.gfx950.* ops -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each op calls the public rewrite of its gfx950 stage (Transforms.h); what
// the rewrite reports as an error is a definite failure, a payload op of the
// wrong kind a silenceable one.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/TransformOps/GFX950TransformOps.h"
#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"
#include "mx/Target/GFX950/Transforms/Transforms.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

/// The silenceable failure for a payload op that is not an `OpTy`.
template <typename OpTy>
static DiagnosedSilenceableFailure wrongPayload(Operation *transformOp,
                                                Operation *payload) {
  DiagnosedSilenceableFailure diag = emitSilenceableFailure(transformOp)
                                     << "expected '" << OpTy::getOperationName()
                                     << "' payload, got '" << payload->getName()
                                     << "'";
  diag.attachNote(payload->getLoc()) << "payload op";
  return diag;
}

/// Pushes the launch that replaced a payload op, or reports the failure of
/// its lowering (whose errors were emitted).
static DiagnosedSilenceableFailure
finish(Operation *transformOp, FailureOr<gpu::LaunchOp> launch,
       transform::ApplyToEachResultList &results) {
  if (failed(launch))
    return emitDefiniteFailure(transformOp, "the lowering failed (see the "
                                            "errors above)");
  results.push_back(*launch);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
LowerTiledMMATransformOp::applyToOne(transform::TransformRewriter &rewriter,
                                     Operation *target,
                                     transform::ApplyToEachResultList &results,
                                     transform::TransformState &state) {
  auto mma = dyn_cast<TiledScaledMMAOp>(target);
  if (!mma)
    return wrongPayload<TiledScaledMMAOp>(*this, target);
  rewriter.setInsertionPoint(mma);
  return finish(*this, lowerTiledScaledMMA(rewriter, mma), results);
}

DiagnosedSilenceableFailure
LowerQuantizeTransformOp::applyToOne(transform::TransformRewriter &rewriter,
                                     Operation *target,
                                     transform::ApplyToEachResultList &results,
                                     transform::TransformState &state) {
  auto quantize = dyn_cast<QuantizeIntoOp>(target);
  if (!quantize)
    return wrongPayload<QuantizeIntoOp>(*this, target);
  LowerQuantizeOptions options;
  options.workgroupSize = getWorkgroupSize();
  options.packedConversions = getPackedConversions();
  rewriter.setInsertionPoint(quantize);
  return finish(*this, lowerQuantize(rewriter, quantize, options), results);
}

DiagnosedSilenceableFailure
SpecializeUKernelsTransformOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  SpecializeUKernelsOptions options;
  options.unrollK = getUnrollK();
  for (Operation *payload : state.getPayloadOps(getTarget()))
    if (failed(specializeUKernels(payload, options)))
      return emitDefiniteFailure("specializing the ukernels failed "
                                 "(see the errors above)");
  return DiagnosedSilenceableFailure::success();
}

void SpecializeUKernelsTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::modifiesPayload(effects);
}

/// The effects of an op that rewrites what is under its payload ops.
static void
getApplyEffects(OpOperand &target,
                SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(target, effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
QuantizeInGEMMTransformOp::apply(transform::TransformRewriter &rewriter,
                                 transform::TransformResults &results,
                                 transform::TransformState &state) {
  for (Operation *payload : state.getPayloadOps(getTarget()))
    if (failed(quantizeInGEMM(payload, getMode())))
      return emitDefiniteFailure("quantizing in the GEMM failed (see the "
                                 "errors above)");
  return DiagnosedSilenceableFailure::success();
}

void QuantizeInGEMMTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getApplyEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure ReserveAccumulatorAGPRsTransformOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  for (Operation *payload : state.getPayloadOps(getTarget())) {
    auto module = dyn_cast<gpu::GPUModuleOp>(payload);
    if (!module)
      return wrongPayload<gpu::GPUModuleOp>(*this, payload);
    reserveAccumulatorAGPRs(module, getAll());
  }
  return DiagnosedSilenceableFailure::success();
}

void ReserveAccumulatorAGPRsTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getApplyEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure
LDSCopyAliasScopesTransformOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  for (Operation *payload : state.getPayloadOps(getTarget())) {
    auto module = dyn_cast<gpu::GPUModuleOp>(payload);
    if (!module)
      return wrongPayload<gpu::GPUModuleOp>(*this, payload);
    setLDSCopyAliasScopes(module);
  }
  return DiagnosedSilenceableFailure::success();
}

void LDSCopyAliasScopesTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getApplyEffects(getTargetMutable(), effects);
}

#define GET_OP_CLASSES
#include "mx/Target/GFX950/TransformOps/GFX950TransformOps.cpp.inc"

namespace {
/// The `transform.mx.gfx950.*` ops, loaded with the dialects their
/// rewrites create.
class GFX950TransformDialectExtension
    : public transform::TransformDialectExtension<
          GFX950TransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GFX950TransformDialectExtension)
  using Base::Base;

  void init() {
    declareDependentDialect<GFX950Dialect>();
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<amdgpu::AMDGPUDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<func::FuncDialect>();
    declareGeneratedDialect<LLVM::LLVMDialect>();
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "mx/Target/GFX950/TransformOps/GFX950TransformOps.cpp.inc"
        >();
  }
};
} // namespace

void gfx950::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<GFX950TransformDialectExtension>();
}
