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
#include "mx/Dialect/MX/TransformOps/TransformOpUtils.h"
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

DiagnosedSilenceableFailure
LowerTiledMMATransformOp::applyToOne(transform::TransformRewriter &rewriter,
                                     Operation *target,
                                     transform::ApplyToEachResultList &results,
                                     transform::TransformState &state) {
  return rewritePayload<TiledScaledMMAOp>(
      *this, rewriter, target, results, /*keepUnchanged=*/false, "the lowering",
      [&](TiledScaledMMAOp op) { return lowerTiledScaledMMA(rewriter, op); });
}

DiagnosedSilenceableFailure
LowerQuantizeTransformOp::applyToOne(transform::TransformRewriter &rewriter,
                                     Operation *target,
                                     transform::ApplyToEachResultList &results,
                                     transform::TransformState &state) {
  LowerQuantizeOptions options;
  options.workgroupSize = getWorkgroupSize();
  options.packedConversions = getPackedConversions();
  return rewritePayload<QuantizeIntoOp>(
      *this, rewriter, target, results, /*keepUnchanged=*/false, "the lowering",
      [&](QuantizeIntoOp op) { return lowerQuantize(rewriter, op, options); });
}

DiagnosedSilenceableFailure
SpecializeUKernelsTransformOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  SpecializeUKernelsOptions options;
  options.unrollK = getUnrollK();
  return applyToEachPayload<Operation *>(
      *this, state, getTarget(), "specializing the ukernels",
      [&](Operation *payload) { return specializeUKernels(payload, options); });
}

void SpecializeUKernelsTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure
QuantizeInGEMMTransformOp::apply(transform::TransformRewriter &rewriter,
                                 transform::TransformResults &results,
                                 transform::TransformState &state) {
  return applyToEachPayload<Operation *>(
      *this, state, getTarget(), "quantizing in the GEMM",
      [&](Operation *payload) { return quantizeInGEMM(payload, getMode()); });
}

void QuantizeInGEMMTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure ReserveAccumulatorAGPRsTransformOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  return applyToEachPayload<gpu::GPUModuleOp>(
      *this, state, getTarget(), "reserving the AGPRs",
      [&](gpu::GPUModuleOp payload) {
        reserveAccumulatorAGPRs(payload, getAll());
        return success();
      });
}

void ReserveAccumulatorAGPRsTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
}

DiagnosedSilenceableFailure
LDSCopyAliasScopesTransformOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  return applyToEachPayload<gpu::GPUModuleOp>(*this, state, getTarget(),
                                              "setting the alias scopes",
                                              [&](gpu::GPUModuleOp payload) {
                                                setLDSCopyAliasScopes(payload);
                                                return success();
                                              });
}

void LDSCopyAliasScopesTransformOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getRewriteUnderEffects(getTargetMutable(), effects);
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
