//===- ReserveAccumulatorAGPRs.cpp - mx-gfx950-reserve-accumulator-agprs --===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/Transforms/Transforms.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950RESERVEACCUMULATORAGPRS
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using mlir::mx::gfx950::kAccRegisters;
using mlir::mx::gfx950::kPrivateAddressSpace;

/// LLVM's AMDGPU function attribute for the AGPRs a function keeps
/// allocatable.
static constexpr llvm::StringLiteral kAGPRAlloc = "amdgpu-agpr-alloc";

/// Reserves AGPRs for the accumulators of `func` (see
/// mx::gfx950::reserveAccumulatorAGPRs).
static void reserveAccumulatorAGPRs(gpu::GPUFuncOp func, bool all) {
  bool hasMFMA = false;
  int64_t values = 0;
  func.walk([&](Operation *op) {
    if (isa<amdgpu::ScaledMFMAOp>(op))
      hasMFMA = true;
    auto alloca = dyn_cast<memref::AllocaOp>(op);
    if (!alloca)
      return;
    MemRefType type = alloca.getType();
    auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
    if (space && space.getInt() == kPrivateAddressSpace &&
        type.getElementType().isF32() && type.hasStaticShape() &&
        (all || alloca->hasAttr(mx::gfx950::kAccumulatorAGPRs)))
      values += type.getNumElements();
  });
  if (!hasMFMA)
    return;
  // `all` (reserve-accumulator-agprs=always) asks for every GEMM kernel:
  // say where it cannot be done in full.
  if (values == 0) {
    if (all)
      func.emitWarning()
          << "accumulators not reserved in AGPRs: the kernel has no "
             "private f32 array of static shape (its accumulators are "
             "values LLVM allocates)";
    return;
  }
  // The AGPR budget is at most kAccRegisters registers.
  if (all && values > kAccRegisters)
    func.emitWarning() << "only " << kAccRegisters << " of the " << values
                       << " values of its private f32 arrays reserved in "
                          "AGPRs (the AGPR file's size)";
  values = std::min(values, kAccRegisters);
  Builder b(func.getContext());
  SmallVector<Attribute> entries;
  if (auto existing = func->getAttrOfType<ArrayAttr>("passthrough"))
    for (Attribute entry : existing) {
      auto pair = dyn_cast<ArrayAttr>(entry);
      auto key = pair && pair.size() == 2 ? dyn_cast<StringAttr>(pair[0])
                                          : StringAttr();
      if (!key || key.getValue() != kAGPRAlloc)
        entries.push_back(entry);
    }
  entries.push_back(b.getArrayAttr(
      {b.getStringAttr(kAGPRAlloc), b.getStringAttr(std::to_string(values))}));
  func->setAttr("passthrough", b.getArrayAttr(entries));
}

void mlir::mx::gfx950::reserveAccumulatorAGPRs(gpu::GPUModuleOp module,
                                               bool all) {
  module.walk(
      [&](gpu::GPUFuncOp func) { ::reserveAccumulatorAGPRs(func, all); });
}

namespace {
struct ReserveAccumulatorAGPRsPass
    : public mx::gfx950::impl::MXGFX950ReserveAccumulatorAGPRsBase<
          ReserveAccumulatorAGPRsPass> {
  using Base::Base;

  void runOnOperation() override {
    mx::gfx950::reserveAccumulatorAGPRs(getOperation(), all);
  }
};
} // namespace
