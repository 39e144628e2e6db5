//===- QuantizeInGEMMPass.cpp - mx-gfx950-quantize-in-gemm ----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Layout/Layout.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/Transforms/Transforms.h"
#include "mx/Target/GFX950/UKernels/QuantizeInGEMM.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950QUANTIZEINGEMM
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

/// The GEMM whose A and A scales are exactly `quantize`'s results, if they
/// have no other use. Otherwise, when some result of `quantize` does feed a
/// GEMM's A or A scales (the fusion mode=always asks for but cannot do),
/// `reason` says why it is not that GEMM's alone; it stays empty for a
/// quantize that feeds no GEMM's A (e.g. weights quantized for B).
static TiledScaledMMAOp getOnlyConsumer(QuantizeIntoOp quantize,
                                        std::string &reason) {
  bool feedsLhs = false;
  for (Value result : quantize.getResults())
    for (OpOperand &use : result.getUses()) {
      auto op = dyn_cast<TiledScaledMMAOp>(use.getOwner());
      feedsLhs |= op && (op.getLhs() == result || op.getLhsScales() == result);
    }
  if (!feedsLhs)
    return {};
  llvm::raw_string_ostream os(reason);
  if (quantize.getResults().size() != 2) {
    os << "it writes " << quantize.getElements().size() << " element and "
       << quantize.getScales().size()
       << " scale destinations, the GEMM's and others (e.g. a returned "
          "quantized A), which must reach memory";
    return {};
  }
  Value elements = quantize.getResult(0), scales = quantize.getResult(1);
  if (!elements.hasOneUse() || !scales.hasOneUse()) {
    os << "the quantized A or its scales have uses besides the GEMM's A "
          "operands (e.g. they are returned), so they must reach memory";
    return {};
  }
  auto op = dyn_cast<TiledScaledMMAOp>(*elements.getUsers().begin());
  if (!op || op.getLhs() != elements || op.getLhsScales() != scales) {
    os << "its elements and scales are not the A and A scales of one GEMM";
    return {};
  }
  return op;
}

/// The groups of a grouped (routed) GEMM that have rows when its routed
/// rows (acc's) spread evenly over the groups that can have them, and the
/// M tiles of each; std::nullopt when the shapes are dynamic.
static std::optional<std::pair<int64_t, int64_t>>
getBusyGroups(TiledScaledMMAOp op, int64_t tileRows) {
  int64_t routed = cast<ShapedType>(op.getAcc().getType()).getDimSize(0);
  int64_t groups = cast<ShapedType>(op.getRhs().getType()).getDimSize(0);
  if (ShapedType::isDynamic(routed) || ShapedType::isDynamic(groups) ||
      routed <= 0 || groups <= 0)
    return std::nullopt;
  int64_t busy = std::min(routed, groups);
  return std::make_pair(
      busy, llvm::divideCeil(llvm::divideCeil(routed, busy), tileRows));
}

/// The rows whose A tiles the workgroups of one N tile of B read: all of
/// A's (padded) rows for one B; in a grouped (routed) GEMM, where each
/// group (expert) has its own B, the tiles of one group with rows
/// (getBusyGroups).
static int64_t getRowsPerB(TiledScaledMMAOp op, int64_t tileRows) {
  unsigned numBatch = op.getNumBatchDims();
  int64_t mTiles = cast<ShapedType>(op.getLhs().getType()).getDimSize(numBatch);
  std::optional<std::pair<int64_t, int64_t>> busy;
  if (op.isGrouped())
    busy = getBusyGroups(op, tileRows);
  return (busy ? busy->second : mTiles) * tileRows;
}

/// Whether a grouped (routed) GEMM's workgroups with rows fill the CUs at
/// least twice (getBusyGroups' tiles, times the N tiles): the quantize's
/// VALU work and barrier in each K step sit on a workgroup's critical path,
/// hidden only behind other workgroups. In the timing model the MoE layers
/// with fewer (bench/moe_layer.py: gpt-oss-120b's gate_up at 4 tokens, 368
/// workgroups, 27.4 -> 31.7 us; DeepSeek-R1 TP8's at 16 and 512 tokens,
/// 66.5 -> 89.0 and 157.2 -> 208.8 us) were slower quantizing in the GEMM;
/// those with more (512 to 4,096: DeepSeek-R1 at 4 to 1,024 tokens,
/// gpt-oss-120b at 64 and 1,024) as fast or faster.
static bool fillsCUsTwice(TiledScaledMMAOp op, int64_t tileRows) {
  std::optional<std::pair<int64_t, int64_t>> busy = getBusyGroups(op, tileRows);
  int64_t nTiles = cast<ShapedType>(op.getRhs().getType())
                       .getDimSize(op.getNumBatchDims() + 1);
  if (!busy || ShapedType::isDynamic(nTiles))
    return false;
  return busy->first * busy->second * nTiles >= 2 * kNumCUs;
}

/// mode=auto's heuristic: the unquantized A tiles that the workgroups of
/// all N tiles read are at most the bytes of B that they share (see the
/// pass description), and the input is not computed by an elementwise
/// producer (which the quantize dispatch computes in its kernel: in the
/// GEMM, the producer would need a dispatch of its own).
static bool isWorthIt(QuantizeIntoOp quantize, TiledScaledMMAOp op) {
  if (auto producer = quantize.getInput().getDefiningOp<linalg::GenericOp>())
    if (producer.getNumParallelLoops() == producer.getNumLoops())
      return false;
  auto layout = cast<DataTiledLayoutAttr>(op.getLayout());
  // The waves load and quantize a K step's A fragments in rounds of one
  // fragment each, every round a global load and a quantize in series
  // before the step's barrier: with more than one round per wave the
  // kernel was slower than the quantize dispatch and the plain GEMM in the
  // static model (bench/moe_layer.py: DeepSeek-R1's gate_up at 1 token,
  // 16x128x1024 tiles of 8 fragments over 4 waves, 29.6 us against 15.6 +
  // 1.8 us; one round per wave at 16x256x512: 31.7 against 31.2 + 1.8).
  // (Routed tiles of one fragment of rows now quantize only the rows up to
  // their last token, and that tile ties at 15.62 against 15.61 us on both
  // models, `bench/moe_layer.py in-gemm`; its 256 workgroups fill the CUs
  // once, so fillsCUsTwice declines it all the same.)
  int64_t fragments = layout.getSubgroupsM() * layout.getIntrinsicsM() *
                      layout.getIntrinsicsK();
  if (fragments > layout.getSubgroupsM() * layout.getSubgroupsN())
    return false;
  TileSizes tile = getTileSizes(layout);
  if (op.isGrouped() && !fillsCUsTwice(op, tile.m))
    return false;
  int64_t sourceBytes =
      cast<ShapedType>(quantize.getInput().getType()).getElementTypeBitWidth() /
      8;
  int64_t rhsBits = layout.getRhsType().getIntOrFloatBitWidth();
  return getRowsPerB(op, tile.m) * sourceBytes * 8 <= tile.n * rhsBits;
}

LogicalResult mlir::mx::gfx950::quantizeInGEMM(Operation *root,
                                               StringRef mode) {
  if (mode != "auto" && mode != "always" && mode != "never")
    return root->emitError()
           << "mx-gfx950-quantize-in-gemm: mode must be auto, always or "
              "never, got '"
           << mode << "'";
  if (mode == "never")
    return success();
  root->walk([&](QuantizeIntoOp quantize) {
    if (quantize.getResults().empty() || quantize.getInConsumer())
      return;
    std::string reason;
    TiledScaledMMAOp op = getOnlyConsumer(quantize, reason);
    if (!op) {
      if (mode == "always" && !reason.empty())
        quantize.emitWarning()
            << "A is quantized by a dispatch, not in the GEMM: " << reason;
      return;
    }
    if (failed(analyzeQuantizedLhs(quantize, op, reason))) {
      if (mode == "always")
        quantize.emitWarning()
            << "A is quantized by a dispatch, not in the GEMM: " << reason;
      return;
    }
    if (mode == "auto" && !isWorthIt(quantize, op))
      return;
    quantize.setInConsumer(true);
  });
  return success();
}

namespace {
struct QuantizeInGEMMPass
    : public gfx950::impl::MXGFX950QuantizeInGEMMBase<QuantizeInGEMMPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(quantizeInGEMM(getOperation(), mode)))
      return signalPassFailure();
  }
};
} // namespace
