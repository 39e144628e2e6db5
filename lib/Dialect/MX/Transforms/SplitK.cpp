//===- SplitK.cpp - mx-split-k --------------------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A GEMM whose target asks for it runs its K tiles in parts: the parts become
// a leading batch dimension of the mx.tiled_scaled_mma (pure views of the
// operands, which join their relayouts), and an elementwise linalg.generic
// adds the parts' f32 sums in K order. The pass never names a target: the
// number of parts is LayoutResolverAttrInterface::resolveSplitK's.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/TargetOptionPass.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "mx-split-k"

namespace mlir::mx {
#define GEN_PASS_DEF_MXSPLITK
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
/// `operand` ([B.., X, Ko, tile..]) as [S, B.., X, Ko / S, tile..]: part s
/// holds K tiles s * Ko / S .. (s + 1) * Ko / S - 1.
Value splitOperand(OpBuilder &b, Location loc, Value operand, unsigned numBatch,
                   int64_t parts) {
  auto type = cast<RankedTensorType>(operand.getType());
  unsigned koDim = numBatch + 1;
  int64_t ko = type.getDimSize(koDim);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, operand);

  // Expand Ko into (S, Ko / S).
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<OpFoldResult> expandedSizes;
  SmallVector<int64_t> expandedShape;
  for (unsigned d = 0, e = type.getRank(); d < e; ++d) {
    if (d == koDim) {
      reassociation.push_back(
          {int64_t(expandedShape.size()), int64_t(expandedShape.size()) + 1});
      expandedShape.append({parts, ko / parts});
      expandedSizes.append({b.getIndexAttr(parts), b.getIndexAttr(ko / parts)});
      continue;
    }
    reassociation.push_back({int64_t(expandedShape.size())});
    expandedShape.push_back(type.getDimSize(d));
    expandedSizes.push_back(sizes[d]);
  }
  auto expandedType = type.clone(expandedShape);
  Value expanded = tensor::ExpandShapeOp::create(b, loc, expandedType, operand,
                                                 reassociation, expandedSizes);

  // Move S to the front.
  SmallVector<int64_t> permutation = {int64_t(koDim)};
  for (int64_t d = 0, e = expandedShape.size(); d < e; ++d)
    if (d != int64_t(koDim))
      permutation.push_back(d);
  SmallVector<OpFoldResult> transposedSizes;
  for (int64_t d : permutation)
    transposedSizes.push_back(expandedSizes[d]);
  Value init =
      tensor::EmptyOp::create(b, loc, transposedSizes, type.getElementType());
  return linalg::TransposeOp::create(b, loc, expanded, init, permutation)
      .getResult()
      .front();
}

/// `((first + rest[0]) + rest[1]) + ...`, elementwise, into `init`.
Value addInOrder(OpBuilder &b, Location loc, ValueRange inputs, Value init) {
  auto type = cast<RankedTensorType>(init.getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<AffineMap> maps(inputs.size() + 1, identity);
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value sum = args.front();
        for (Value part : args.drop_front().drop_back())
          sum = arith::AddFOp::create(nested, nestedLoc, sum, part);
        linalg::YieldOp::create(nested, nestedLoc, sum);
      });
  return generic.getResult(0);
}

} // namespace

/// The number of K parts `target` asks for `op`, checked against its K tile
/// count (an error if they do not divide it); 1 when `op` is not split.
static FailureOr<int64_t> getSplitKParts(TiledScaledMMAOp op,
                                         LayoutResolverAttrInterface target) {
  std::string why;
  llvm::raw_string_ostream os(why);
  int64_t parts = target.resolveSplitK(op, os);
  if (parts == 1)
    return parts;
  unsigned numBatch = op.getNumBatchDims();
  int64_t ko = cast<ShapedType>(op.getLhs().getType()).getDimSize(numBatch + 1);
  if (ShapedType::isDynamic(ko))
    return op.emitOpError() << "cannot be split into " << parts
                            << " parts along K: its K tile count is dynamic";
  if (parts < 1 || ko % parts != 0)
    return op.emitOpError()
           << "cannot be split into " << parts << " parts along K: "
           << "the number of parts must divide its " << ko << " K tiles";
  LLVM_DEBUG(llvm::dbgs() << "mx-split-k: " << parts << " parts of "
                          << ko / parts << " K tiles: " << why << "\n");
  return parts;
}

FailureOr<Value> mx::splitK(RewriterBase &rewriter, TiledScaledMMAOp op,
                            LayoutResolverAttrInterface target) {
  // A grouped GEMM (tile_groups) is not split: its workgroups are the
  // experts' tiles, and its rows outside every group keep acc.
  if (!target || op.getResults().empty() || op.hasEpilogue() || op.isGrouped())
    return Value();
  FailureOr<int64_t> parts = getSplitKParts(op, target);
  if (failed(parts))
    return failure();
  if (*parts == 1)
    return Value();
  // Without an epilogue, acc holds f32 (the op's verifier).
  auto accType = cast<RankedTensorType>(op.getAcc().getType());

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  unsigned numBatch = op.getNumBatchDims();
  auto split = [&](Value operand) {
    return splitOperand(rewriter, loc, operand, numBatch, *parts);
  };
  // (One statement each: the IR's order does not depend on the order in
  // which a compiler evaluates arguments.)
  Value lhs = split(op.getLhs());
  Value rhs = split(op.getRhs());
  Value lhsScales = split(op.getLhsScales());
  Value rhsScales = split(op.getRhsScales());
  SmallVector<OpFoldResult> accSizes =
      tensor::getMixedSizes(rewriter, loc, op.getAcc());
  SmallVector<OpFoldResult> workspaceSizes = {rewriter.getIndexAttr(*parts)};
  llvm::append_range(workspaceSizes, accSizes);
  Value workspace = tensor::EmptyOp::create(rewriter, loc, workspaceSizes,
                                            rewriter.getF32Type());
  auto partial = TiledScaledMMAOp::create(
      rewriter, loc, TypeRange{workspace.getType()}, lhs, rhs, lhsScales,
      rhsScales, workspace, op.getLayout(),
      /*zero_acc=*/true);
  partial->setAttr(MXDialect::kSplitKAttrName,
                   rewriter.getI64IntegerAttr(*parts));

  // The parts' sums, added in K order after C (unless the GEMM starts
  // from zero).
  SmallVector<Value> inputs;
  if (!op.getZeroAcc())
    inputs.push_back(op.getAcc());
  SmallVector<OpFoldResult> strides(accType.getRank() + 1,
                                    rewriter.getIndexAttr(1));
  for (int64_t s = 0; s < *parts; ++s) {
    SmallVector<OpFoldResult> offsets(accType.getRank() + 1,
                                      rewriter.getIndexAttr(0));
    offsets[0] = rewriter.getIndexAttr(s);
    SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1)};
    llvm::append_range(sizes, accSizes);
    inputs.push_back(tensor::ExtractSliceOp::create(
        rewriter, loc, accType, partial.getResult(), offsets, sizes, strides));
  }
  Value result = addInOrder(rewriter, loc, inputs, op.getAcc());
  rewriter.replaceOp(op, result);
  return result;
}

namespace {
struct SplitKPass
    : public TargetOptionPass<mx::impl::MXSplitKBase<SplitKPass>> {
  using TargetOptionPass::TargetOptionPass;

  void runOnOperation() override {
    SmallVector<TiledScaledMMAOp> ops;
    getOperation()->walk([&](TiledScaledMMAOp op) {
      if (!op->hasAttr(MXDialect::kSplitKAttrName))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (TiledScaledMMAOp op : ops)
      if (failed(splitK(rewriter, op, getTarget(op))))
        return signalPassFailure();
  }
};
} // namespace
