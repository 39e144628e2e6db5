//===- LDSCopyAliasScopes.cpp - mx-gfx950-lds-copy-alias-scopes -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/Transforms/Transforms.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950LDSCOPYALIASSCOPES
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using mlir::mx::gfx950::kMaxLoadCount;

/// Whether `op` copies global memory to LDS without going through VGPRs
/// (LLVM's "LDS DMA", counted on the vector memory counter).
static bool isLDSCopy(Operation *op) {
  return isa<ROCDL::LoadToLDSOp, ROCDL::GlobalLoadLDSOp,
             ROCDL::RawPtrBufferLoadLdsOp>(op);
}

/// The loads `wait` leaves in flight (gfx9's s_waitcnt: the vector memory
/// count in bits 3-0 and 15-14, 63 meaning "no wait").
static uint32_t getLoadsLeft(ROCDL::SWaitcntOp wait) {
  uint32_t bits = uint32_t(wait.getBitfield());
  return (bits & 0xF) | ((bits >> 14) & 0x3) << 4;
}

/// Whether `wait` leaves some but not all of the wave's loads in flight.
static bool leavesLoadsInFlight(ROCDL::SWaitcntOp wait) {
  uint32_t loads = getLoadsLeft(wait);
  return loads != 0 && loads != kMaxLoadCount;
}

/// Whether `wait` waits for all of the wave's loads (vmcnt(0)).
static bool waitsForAllLoads(ROCDL::SWaitcntOp wait) {
  return getLoadsLeft(wait) == 0;
}

/// Whether `barrier` is a workgroup barrier without a fence right after an
/// explicit wait for all loads: the kernel orders its copies before the
/// reads behind the barrier itself (amdgpu.lds_barrier's fence would make
/// LLVM wait for the copies anyway).
static bool isExplicitlyWaitedBarrier(ROCDL::SBarrierOp barrier) {
  auto wait = dyn_cast_or_null<ROCDL::SWaitcntOp>(barrier->getPrevNode());
  return wait && waitsForAllLoads(wait);
}

/// `list` with `scope` appended (a fresh list if `list` is null).
static ArrayAttr append(ArrayAttr list, Attribute scope) {
  SmallVector<Attribute> scopes;
  if (list)
    llvm::append_range(scopes, list.getValue());
  scopes.push_back(scope);
  return ArrayAttr::get(scope.getContext(), scopes);
}

/// Puts the LDS copies and reads of `func` in alias scopes of their own
/// (see mx::gfx950::setLDSCopyAliasScopes).
static void setLDSCopyAliasScopes(LLVM::LLVMFuncOp func) {
  MLIRContext *ctx = func.getContext();
  SmallVector<Operation *> copies;
  SmallVector<LLVM::LoadOp> reads;
  bool copiesInFlight = false;
  func.walk([&](Operation *op) {
    if (auto wait = dyn_cast<ROCDL::SWaitcntOp>(op))
      copiesInFlight |= leavesLoadsInFlight(wait);
    if (auto barrier = dyn_cast<ROCDL::SBarrierOp>(op))
      copiesInFlight |= isExplicitlyWaitedBarrier(barrier);
    if (isLDSCopy(op)) {
      copies.push_back(op);
      return;
    }
    auto load = dyn_cast<LLVM::LoadOp>(op);
    auto pointer =
        load ? dyn_cast<LLVM::LLVMPointerType>(load.getAddr().getType())
             : LLVM::LLVMPointerType();
    if (pointer && pointer.getAddressSpace() == mx::gfx950::kLDSAddressSpace)
      reads.push_back(load);
  });
  if (!copiesInFlight || copies.empty() || reads.empty())
    return;
  // One domain per kernel, with a scope for its copies and one for its
  // reads (LLVM only disambiguates LDS DMA from accesses that have a
  // scope of their own).
  auto domain = LLVM::AliasScopeDomainAttr::get(
      ctx, StringAttr::get(ctx, func.getName() + ": LDS copies"));
  auto copyScope =
      LLVM::AliasScopeAttr::get(domain, StringAttr::get(ctx, "copies to LDS"));
  auto readScope =
      LLVM::AliasScopeAttr::get(domain, StringAttr::get(ctx, "reads of LDS"));
  for (Operation *op : copies) {
    auto aliasing = cast<LLVM::AliasAnalysisOpInterface>(op);
    aliasing.setAliasScopes(append(aliasing.getAliasScopesOrNull(), copyScope));
  }
  for (LLVM::LoadOp load : reads) {
    load.setAliasScopesAttr(append(load.getAliasScopesAttr(), readScope));
    load.setNoaliasScopesAttr(append(load.getNoaliasScopesAttr(), copyScope));
  }
}

void mlir::mx::gfx950::setLDSCopyAliasScopes(gpu::GPUModuleOp module) {
  module.walk([](LLVM::LLVMFuncOp func) { ::setLDSCopyAliasScopes(func); });
}

namespace {
struct LDSCopyAliasScopesPass
    : public mx::gfx950::impl::MXGFX950LDSCopyAliasScopesBase<
          LDSCopyAliasScopesPass> {
  using Base::Base;

  void runOnOperation() override {
    mx::gfx950::setLDSCopyAliasScopes(getOperation());
  }
};
} // namespace
