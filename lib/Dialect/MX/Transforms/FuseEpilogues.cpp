//===- FuseEpilogues.cpp - mx-fuse-epilogues ------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An elementwise linalg.generic that consumes the result of a zero-started
// mx.tiled_scaled_mma in the user's layout becomes the op's epilogue, when
// the target's kernels can compute every op of its body; a grouped op's
// output then starts as what the generic makes of its kept rows.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/TargetOptionPass.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXFUSEEPILOGUES
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
/// Why `generic` cannot be the epilogue of `op` on `target` (null: any op of
/// the body is accepted), or "" if it can.
std::string whyNotFusable(TiledScaledMMAOp op, linalg::GenericOp generic,
                          LayoutResolverAttrInterface target) {
  if (!op.getZeroAcc())
    return "the accumulator does not start at zero (C + A B would be "
           "rounded to f32 before the epilogue, as it is now)";
  if (!op.hasUserLayoutAcc())
    return "the accumulator is data-tiled";
  if (generic.getNumDpsInits() != 1 || generic.getNumResults() != 1)
    return "the consumer has more than one output";
  if (generic.getNumParallelLoops() != generic.getNumLoops())
    return "the consumer is not elementwise (it has reduction loops)";
  unsigned rank = op.getNumBatchDims() + 2;
  if (generic.getNumLoops() != rank)
    return "the consumer's iteration space is not the result's";
  unsigned uses = 0;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (input->get() == op.getResult())
      ++uses;
  if (uses != 1)
    return "the consumer reads the result more than once (e.g. a gated pair "
           "such as SwiGLU over two halves of N): an epilogue sees one sum "
           "at a time, and the two sums of a pair lie in different tiles of "
           "the GEMM";
  for (OpOperand *input : generic.getDpsInputOperands())
    if (input->get() == op.getResult() &&
        !generic.getMatchingIndexingMap(input).isIdentity())
      return "the consumer does not read the result elementwise (identity "
             "map)";
  OpOperand &init = generic.getDpsInitsMutable()[0];
  if (!generic.getMatchingIndexingMap(&init).isIdentity())
    return "the consumer's output map is not the identity";
  if (generic.getMatchingBlockArgument(&init).getUses().begin() !=
      generic.getMatchingBlockArgument(&init).getUses().end())
    return "the consumer reads its output's old values";
  if (cast<ShapedType>(init.get().getType()).getShape() !=
      cast<ShapedType>(op.getAcc().getType()).getShape())
    return "the consumer's output has another shape";
  bool usesIndex = false;
  generic.getBody()->walk([&](linalg::IndexOp) { usesIndex = true; });
  if (usesIndex)
    return "the consumer uses linalg.index";
  return whyTargetCannotCompute(target, *generic.getBody());
}

/// The linalg.generic that reads `result` (directly or through slices),
/// if any.
linalg::GenericOp getGenericConsumer(Value result) {
  for (Operation *user : result.getUsers()) {
    if (auto generic = dyn_cast<linalg::GenericOp>(user))
      return generic;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
      if (linalg::GenericOp generic = getGenericConsumer(slice.getResult()))
        return generic;
  }
  return {};
}

} // namespace

std::string mx::whyTargetCannotCompute(LayoutResolverAttrInterface target,
                                       Block &body) {
  if (!target)
    return "";
  std::string reason;
  llvm::raw_string_ostream os(reason);
  for (Operation &nested : body.without_terminator())
    if (failed(target.checkEpilogueOp(&nested, os)))
      return "the target's kernels cannot compute an op of its body: " + reason;
  return "";
}

/// The value `generic` yields when its input `sum` holds the f32 constant
/// `value` and it has no other input, folded to a constant; null if it
/// does not fold.
static TypedAttr foldConsumerAt(linalg::GenericOp generic, OpOperand *sum,
                                FloatAttr value) {
  if (generic.getNumDpsInputs() != 1)
    return {};
  DenseMap<Value, Attribute> constants;
  constants[generic.getMatchingBlockArgument(sum)] = value;
  Block &body = *generic.getBody();
  for (Operation &nested : body.without_terminator()) {
    SmallVector<Attribute> operands;
    for (Value operand : nested.getOperands()) {
      Attribute constant = constants.lookup(operand);
      if (!constant && !matchPattern(operand, m_Constant(&constant)))
        return {};
      operands.push_back(constant);
    }
    // Folded on a detached copy: a fold may update its op in place.
    Operation *copy = nested.clone();
    SmallVector<OpFoldResult> results;
    bool folded = succeeded(copy->fold(operands, results)) &&
                  results.size() == nested.getNumResults();
    for (auto [result, foldResult] : llvm::zip(nested.getResults(), results)) {
      Attribute constant = dyn_cast<Attribute>(foldResult);
      if (!constant) {
        Value value = cast<Value>(foldResult);
        constant = constants.lookup(value);
        if (!constant)
          matchPattern(value, m_Constant(&constant));
      }
      constants[result] = constant;
    }
    copy->destroy();
    if (!folded)
      return {};
  }
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value yielded = yield.getValues()[0];
  Attribute constant = constants.lookup(yielded);
  if (!constant)
    matchPattern(yielded, m_Constant(&constant));
  return dyn_cast_or_null<TypedAttr>(constant);
}

/// The output a grouped `op` fused with `generic` starts from: `op`'s rows
/// that no tile names keep it, so it holds what `generic` makes of `op`'s
/// accumulator there. From a fill with a constant that the consumer turns
/// into a constant c (a bf16 rounding of +0.0: +0.0), a fill with c;
/// otherwise a copy of `generic` that reads the accumulator (or takes the
/// fill's constant) instead of the result. A routed `op` whose tiles
/// without rows write every row the ids name (zero_empty_tiles) needs none:
/// its other rows are never read.
static Value getGroupedFusedInit(RewriterBase &b, TiledScaledMMAOp op,
                                 linalg::GenericOp generic) {
  Value init = generic.getDpsInits()[0];
  if (op.getZeroEmptyTiles())
    return init;
  Location loc = generic.getLoc();
  FloatAttr accValue;
  if (auto fill = op.getAcc().getDefiningOp<linalg::FillOp>())
    matchPattern(fill.value(), m_Constant(&accValue));
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  OpOperand *sum = nullptr;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (input->get() == op.getResult()) {
      sum = input;
      if (accValue)
        continue;
    }
    inputs.push_back(input->get() == op.getResult() ? op.getAcc()
                                                    : input->get());
    maps.push_back(generic.getMatchingIndexingMap(input));
  }
  if (accValue)
    if (TypedAttr constant = foldConsumerAt(generic, sum, accValue)) {
      Value c = arith::ConstantOp::create(b, loc, constant);
      return linalg::FillOp::create(b, loc, c, init).getResult(0);
    }
  OpOperand &out = generic.getDpsInitsMutable()[0];
  maps.push_back(generic.getMatchingIndexingMap(&out));
  auto copy = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      generic.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IRMapping mapping;
        unsigned next = 0;
        for (OpOperand *input : generic.getDpsInputOperands()) {
          BlockArgument arg = generic.getMatchingBlockArgument(input);
          if (input == sum && accValue)
            mapping.map(arg, arith::ConstantOp::create(nb, nloc, accValue));
          else
            mapping.map(arg, args[next++]);
        }
        mapping.map(generic.getMatchingBlockArgument(&out), args[next]);
        for (Operation &nested : generic.getBody()->getOperations())
          nb.clone(nested, mapping);
      });
  return copy.getResult(0);
}

/// Replaces `generic` and `op` by a copy of `op` with `generic` as its
/// epilogue.
static TiledScaledMMAOp fuse(RewriterBase &b, TiledScaledMMAOp op,
                             linalg::GenericOp generic) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(generic);
  SmallVector<Value> inputs;
  SmallVector<Attribute> maps;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (input->get() == op.getResult())
      continue;
    inputs.push_back(input->get());
    maps.push_back(AffineMapAttr::get(generic.getMatchingIndexingMap(input)));
  }
  Value init = op.isGrouped() ? getGroupedFusedInit(b, op, generic)
                              : generic.getDpsInits()[0];
  auto fused = TiledScaledMMAOp::create(
      b, op.getLoc(), TypeRange{init.getType()}, op.getLhs(), op.getRhs(),
      op.getLhsScales(), op.getRhsScales(), init, op.getTileGroups(),
      op.getRowIds(), op.getLayout(),
      /*zero_acc=*/true, op.getZeroEmptyTiles(), inputs, b.getArrayAttr(maps),
      /*epilogueCount=*/1);
  // The block: (sum, the other inputs' elements, the output's element).
  Block &old = *generic.getBody();
  Block *body = b.createBlock(&fused.getEpilogue().front());
  IRMapping mapping;
  Location loc = generic.getLoc();
  Value sum = body->addArgument(b.getF32Type(), loc);
  for (OpOperand *input : generic.getDpsInputOperands()) {
    BlockArgument arg = generic.getMatchingBlockArgument(input);
    if (input->get() == op.getResult())
      mapping.map(arg, sum);
    else
      mapping.map(arg, body->addArgument(arg.getType(), loc));
  }
  BlockArgument out =
      generic.getMatchingBlockArgument(&generic.getDpsInitsMutable()[0]);
  mapping.map(out, body->addArgument(out.getType(), loc));
  b.setInsertionPointToEnd(body);
  for (Operation &nested : old.without_terminator())
    b.clone(nested, mapping);
  auto yield = cast<linalg::YieldOp>(old.getTerminator());
  SmallVector<Value> values = llvm::map_to_vector(
      yield.getValues(), [&](Value v) { return mapping.lookupOrDefault(v); });
  YieldOp::create(b, yield.getLoc(), values);
  b.replaceOp(generic, fused.getResult());
  Value acc = op.getAcc();
  b.eraseOp(op);
  // A grouped op's accumulator fill, now unused, would still be written
  // once bufferized.
  while (Operation *def = acc.getDefiningOp()) {
    if (!isOpTriviallyDead(def))
      break;
    auto dps = dyn_cast<DestinationStyleOpInterface>(def);
    acc = dps && dps.getNumDpsInits() == 1 ? dps.getDpsInits()[0] : Value();
    b.eraseOp(def);
    if (!acc)
      break;
  }
  return fused;
}

FailureOr<TiledScaledMMAOp>
mx::fuseEpilogue(RewriterBase &rewriter, TiledScaledMMAOp op,
                 LayoutResolverAttrInterface target) {
  // The partial sums of a split K loop (mx-split-k) are no result: their
  // reduction is the generic that takes the consumers.
  if (op.getResults().empty() || op.hasEpilogue() ||
      op->hasAttr(MXDialect::kSplitKAttrName))
    return TiledScaledMMAOp();
  Value result = op.getResult();
  linalg::GenericOp generic = getGenericConsumer(result);
  if (!generic)
    return TiledScaledMMAOp();
  auto remark = [&](StringRef reason) {
    op.emitRemark() << "the elementwise consumer of the result stays a "
                       "separate dispatch: "
                    << reason;
    return TiledScaledMMAOp();
  };
  // Several uses: fusable only if they are all the generic's (which then
  // reads the result more than once: whyNotFusable says why not).
  if (llvm::any_of(result.getUsers(),
                   [&](Operation *user) { return user != generic; }))
    return remark("the result has other uses than the consumer (e.g. slices "
                  "of the two halves of N of a gated pair such as SwiGLU): an "
                  "epilogue sees one sum at a time, and the two sums of a "
                  "pair lie in different tiles of the GEMM");
  std::string reason = whyNotFusable(op, generic, target);
  if (!reason.empty())
    return remark(reason);
  return fuse(rewriter, op, generic);
}

namespace {
struct FuseEpiloguesPass
    : public TargetOptionPass<
          mx::impl::MXFuseEpiloguesBase<FuseEpiloguesPass>> {
  using TargetOptionPass::TargetOptionPass;

  void runOnOperation() override {
    SmallVector<TiledScaledMMAOp> ops;
    getOperation()->walk([&](TiledScaledMMAOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (TiledScaledMMAOp op : ops)
      (void)fuseEpilogue(rewriter, op, getTarget(op));
  }
};
} // namespace
