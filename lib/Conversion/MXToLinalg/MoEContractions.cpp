//===- MoEContractions.cpp - MoE contractions to linalg -------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// mx.grouped_scaled_contraction and mx.routed_scaled_contraction as
// linalg.generic ops with exact MX arithmetic, for the CPU path (see
// MXToLinalg.cpp).
//
//===----------------------------------------------------------------------===//

#include "MoEContractions.h"
#include "mx/Conversion/MXToLinalg/MXToLinalg.h"

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/QuantizeArith.h"
#include "mx/Dialect/MX/Transforms/Relayout.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mx;

namespace {

/// Calls kInvalidRoutingReporter with \p code, declaring it, `(i32) -> ()`,
/// in the module of \p op when missing.
static void reportInvalidRouting(OpBuilder &b, Location loc, Operation *op,
                                 InvalidRouting code) {
  auto module = op->getParentOfType<ModuleOp>();
  StringRef name = kInvalidRoutingReporter;
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (!callee) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    callee = func::FuncOp::create(
        b, module.getLoc(), name,
        b.getFunctionType(TypeRange{b.getI32Type()}, TypeRange{}));
    callee.setPrivate();
  }
  Value value = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                             static_cast<int32_t>(code));
  func::CallOp::create(b, loc, callee, ValueRange{value});
}

/// mx.grouped_scaled_contraction -> a check of the offsets, then an scf.for
/// over the experts, each an mx.scaled_contraction of its rows of lhs and
/// acc (dynamic slices) with its weights (rank-reducing slices of rhs),
/// lowered by the pattern above. Inconsistent offsets skip the loop, so no
/// slice is ever out of bounds, and call `mx_report_invalid_routing` (see
/// reportInvalidRouting), which the runner defines.
/// Expert `e` of `source` ([E, X, Y]): [X, Y].
static Value sliceExpert(OpBuilder &b, Location loc, Value source, Value e) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> offs = {e, b.getIndexAttr(0), b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                     tensor::getMixedSize(b, loc, source, 1),
                                     tensor::getMixedSize(b, loc, source, 2)};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  auto sliceType = RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, sliceType, source, offs, sizes,
                                        strides);
}

/// The maps of a contraction with B as N x K weights: (m, k), (n, k),
/// (m, n).
static ArrayAttr getWeightMaps(OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
             k = getAffineDimExpr(2, ctx);
  return b.getAffineMapArrayAttr({AffineMap::get(3, 0, {m, k}, ctx),
                                  AffineMap::get(3, 0, {n, k}, ctx),
                                  AffineMap::get(3, 0, {m, n}, ctx)});
}

/// \p v (an integer) as an index.
static Value toIndex(OpBuilder &b, Location loc, Value v) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// The index constant \p value.
static Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// 0 <= \p v < \p end (indices, signed).
static Value inRange(OpBuilder &b, Location loc, Value v, Value end) {
  return arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v,
                            indexConstant(b, loc, 0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, end));
}

/// mx.routed_scaled_contraction -> a loop over the blocks of sorted_ids:
/// for a block of a valid expert, its routed rows' tokens, token scales and
/// accumulator rows are gathered (mx.gather_rows; padding ids give zero
/// rows), contracted with the expert's weights, and each valid row of the
/// sum is inserted at its routed row. A first loop over the positions marks
/// the rows that positions name (in any block); a row named twice calls
/// `mx_report_invalid_routing` instead (the blocks would race on it on a
/// GPU) and leaves `acc` unchanged, and so does, with `all_rows_named`, a
/// row that no position names.
struct RoutedScaledContractionLowering
    : public OpRewritePattern<RoutedScaledContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RoutedScaledContractionOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->getParentOfType<ModuleOp>())
      return rewriter.notifyMatchFailure(op, "needs an enclosing module");
    Location loc = op.getLoc();
    Value acc = op.getAcc(), ids = op.getSortedIds();
    Value zero = indexConstant(rewriter, loc, 0),
          one = indexConstant(rewriter, loc, 1);
    Value positions = tensor::DimOp::create(rewriter, loc, ids, 0);
    Value blocks = tensor::DimOp::create(rewriter, loc, op.getExpertIds(), 0);
    Value rows = tensor::DimOp::create(rewriter, loc, acc, 0);
    // (No blocks: no iteration, whatever the divisor.)
    Value blockRows = arith::DivUIOp::create(
        rewriter, loc, positions,
        arith::MaxUIOp::create(rewriter, loc, blocks, one));

    // valid = no row is named by two positions (of any block: a GPU kernel
    // from zero writes +0.0 in the rows of a block of an expert outside
    // [0, E)) whose ids are in [0, T * top_k).
    Value covered = arith::MulIOp::create(rewriter, loc, blocks, blockRows);
    Type i8 = rewriter.getI8Type();
    Value unmarked =
        linalg::FillOp::create(
            rewriter, loc,
            ValueRange{arith::ConstantIntOp::create(rewriter, loc, i8, 0)},
            ValueRange{tensor::EmptyOp::create(
                rewriter, loc,
                ArrayRef<OpFoldResult>{
                    tensor::getMixedSize(rewriter, loc, acc, 0)},
                i8)})
            .getResult(0);
    Value trueValue =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1);
    // With all_rows_named, a third value counts the rows named.
    SmallVector<Value> init = {unmarked, trueValue};
    if (op.getAllRowsNamed())
      init.push_back(zero);
    auto check = scf::ForOp::create(
        rewriter, loc, zero, covered, one, init,
        [&](OpBuilder &b, Location loc, Value position, ValueRange args) {
          Value id =
              toIndex(b, loc, tensor::ExtractOp::create(b, loc, ids, position));
          Value named = inRange(b, loc, id, rows);
          auto ifOp = scf::IfOp::create(
              b, loc, named,
              [&](OpBuilder &b, Location loc) {
                Value mark = tensor::ExtractOp::create(b, loc, args[0], id);
                Value first = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::eq, mark,
                    arith::ConstantIntOp::create(b, loc, i8, 0));
                Value marked = tensor::InsertOp::create(
                    b, loc, arith::ConstantIntOp::create(b, loc, i8, 1),
                    args[0], id);
                SmallVector<Value> next = {
                    marked, arith::AndIOp::create(b, loc, args[1], first)};
                if (args.size() == 3)
                  next.push_back(arith::AddIOp::create(
                      b, loc, args[2],
                      arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                                   first)));
                scf::YieldOp::create(b, loc, next);
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, args);
              });
          scf::YieldOp::create(b, loc, ifOp.getResults());
        });

    Value once = check.getResult(1);
    Value valid = once;
    if (op.getAllRowsNamed())
      valid = arith::AndIOp::create(
          rewriter, loc, once,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                check.getResult(2), rows));
    auto computed = scf::IfOp::create(
        rewriter, loc, valid,
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc,
                               buildBlockLoop(b, loc, op, blocks, blockRows));
        },
        [&](OpBuilder &b, Location loc) {
          if (!op.getAllRowsNamed()) {
            reportInvalidRouting(b, loc, op, InvalidRouting::RepeatedRows);
          } else {
            // Named twice, or (every row named at most once) some row never.
            scf::IfOp::create(
                b, loc, once,
                [&](OpBuilder &b, Location loc) {
                  reportInvalidRouting(b, loc, op, InvalidRouting::UnnamedRows);
                  scf::YieldOp::create(b, loc);
                },
                [&](OpBuilder &b, Location loc) {
                  reportInvalidRouting(b, loc, op,
                                       InvalidRouting::RepeatedRows);
                  scf::YieldOp::create(b, loc);
                });
          }
          scf::YieldOp::create(b, loc, acc);
        });
    rewriter.replaceOp(op, computed.getResult(0));
    return success();
  }

  /// The loop over the blocks of \p op (valid routing).
  static Value buildBlockLoop(OpBuilder &rewriter, Location loc,
                              RoutedScaledContractionOp op, Value blocks,
                              Value blockRows) {
    Value acc = op.getAcc(), ids = op.getSortedIds();
    Value zero = indexConstant(rewriter, loc, 0),
          one = indexConstant(rewriter, loc, 1);
    Value rows = tensor::DimOp::create(rewriter, loc, acc, 0);
    Value experts = tensor::DimOp::create(rewriter, loc, op.getRhs(), 0);
    int64_t topK = op.getTopK();
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, blocks, one, ValueRange{acc},
        [&](OpBuilder &b, Location loc, Value block, ValueRange args) {
          Value e = toIndex(
              b, loc,
              tensor::ExtractOp::create(b, loc, op.getExpertIds(), block));
          Value first = arith::MulIOp::create(b, loc, block, blockRows);
          auto ifOp = scf::IfOp::create(
              b, loc, inRange(b, loc, e, experts),
              [&](OpBuilder &b, Location loc) {
                auto idType = RankedTensorType::get({ShapedType::kDynamic},
                                                    b.getI32Type());
                Value blockIds = tensor::ExtractSliceOp::create(
                    b, loc, idType, ids, ArrayRef<OpFoldResult>{first},
                    ArrayRef<OpFoldResult>{blockRows},
                    ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
                auto gather = [&](Value source, int64_t divisor) -> Value {
                  auto type = cast<RankedTensorType>(source.getType());
                  auto gathered = RankedTensorType::get(
                      {ShapedType::kDynamic, type.getDimSize(1)},
                      type.getElementType());
                  return GatherRowsOp::create(b, loc, gathered, source,
                                              blockIds,
                                              b.getI64IntegerAttr(divisor));
                };
                Value blockAcc = gather(args[0], 1);
                Value sum = ScaledContractionOp::create(
                    b, loc, blockAcc.getType(), gather(op.getLhs(), topK),
                    sliceExpert(b, loc, op.getRhs(), e),
                    gather(op.getLhsScales(), topK),
                    sliceExpert(b, loc, op.getRhsScales(), e), blockAcc,
                    getWeightMaps(b));
                // Each valid row of the sum into its routed row.
                auto scatter = scf::ForOp::create(
                    b, loc, indexConstant(b, loc, 0), blockRows,
                    indexConstant(b, loc, 1), ValueRange{args[0]},
                    [&](OpBuilder &b, Location loc, Value r, ValueRange inner) {
                      Value id = toIndex(
                          b, loc,
                          tensor::ExtractOp::create(b, loc, blockIds, r));
                      auto store = scf::IfOp::create(
                          b, loc, inRange(b, loc, id, rows),
                          [&](OpBuilder &b, Location loc) {
                            SmallVector<OpFoldResult> sizes = {
                                b.getIndexAttr(1),
                                tensor::getMixedSize(b, loc, sum, 1)};
                            SmallVector<OpFoldResult> strides(
                                2, b.getIndexAttr(1));
                            Value row = tensor::ExtractSliceOp::create(
                                b, loc, sum,
                                ArrayRef<OpFoldResult>{r, b.getIndexAttr(0)},
                                sizes, strides);
                            Value updated = tensor::InsertSliceOp::create(
                                b, loc, row, inner[0],
                                ArrayRef<OpFoldResult>{id, b.getIndexAttr(0)},
                                sizes, strides);
                            scf::YieldOp::create(b, loc, updated);
                          },
                          [&](OpBuilder &b, Location loc) {
                            scf::YieldOp::create(b, loc, inner[0]);
                          });
                      scf::YieldOp::create(b, loc, store.getResult(0));
                    });
                scf::YieldOp::create(b, loc, scatter.getResult(0));
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, args[0]);
              });
          scf::YieldOp::create(b, loc, ifOp.getResult(0));
        });
    return loop.getResult(0);
  }
};

struct GroupedScaledContractionLowering
    : public OpRewritePattern<GroupedScaledContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupedScaledContractionOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->getParentOfType<ModuleOp>())
      return rewriter.notifyMatchFailure(op, "needs an enclosing module");
    Location loc = op.getLoc();
    Value lhs = op.getLhs(), rhs = op.getRhs(), acc = op.getAcc();
    Value offsets = op.getOffsets();
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value zero = index(0), one = index(1);
    Value rows = tensor::DimOp::create(rewriter, loc, lhs, 0);
    Value numExperts = tensor::DimOp::create(rewriter, loc, rhs, 0);
    auto offsetAt = [&](OpBuilder &b, Value i) -> Value {
      Value value = tensor::ExtractOp::create(b, loc, offsets, i);
      if (!value.getType().isIndex())
        value = arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
      return value;
    };

    // valid = and over e of 0 <= offsets[e] <= offsets[e + 1] <= T.
    Value first = offsetAt(rewriter, zero);
    Value validInit = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, first, zero);
    auto check = scf::ForOp::create(
        rewriter, loc, zero, numExperts, one, ValueRange{validInit},
        [&](OpBuilder &b, Location loc, Value e, ValueRange args) {
          Value next = arith::AddIOp::create(b, loc, e, one);
          Value lo = offsetAt(b, e), hi = offsetAt(b, next);
          Value ordered =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, lo, hi);
          Value inRange = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::sle, hi, rows);
          Value ok = arith::AndIOp::create(
              b, loc, args[0], arith::AndIOp::create(b, loc, ordered, inRange));
          scf::YieldOp::create(b, loc, ok);
        });
    Value lastInRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sle, first, rows);
    Value valid =
        arith::AndIOp::create(rewriter, loc, check.getResult(0), lastInRange);

    auto ifOp = scf::IfOp::create(
        rewriter, loc, valid,
        [&](OpBuilder &b, Location loc) {
          auto loop = scf::ForOp::create(
              b, loc, zero, numExperts, one, ValueRange{acc},
              [&](OpBuilder &b, Location loc, Value e, ValueRange args) {
                Value lo = offsetAt(b, e);
                Value hi = offsetAt(b, arith::AddIOp::create(b, loc, e, one));
                Value count = arith::SubIOp::create(b, loc, hi, lo);
                auto rowSlice = [&](Value source) -> Value {
                  auto type = cast<RankedTensorType>(source.getType());
                  SmallVector<OpFoldResult> offs = {lo, b.getIndexAttr(0)};
                  SmallVector<OpFoldResult> sizes = {
                      count, tensor::getMixedSize(b, loc, source, 1)};
                  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
                  auto sliceType = RankedTensorType::get(
                      {ShapedType::kDynamic, type.getDimSize(1)},
                      type.getElementType());
                  return tensor::ExtractSliceOp::create(
                      b, loc, sliceType, source, offs, sizes, strides);
                };
                Value groupAcc = rowSlice(args[0]);
                Value sum = ScaledContractionOp::create(
                    b, loc, groupAcc.getType(), rowSlice(lhs),
                    sliceExpert(b, loc, rhs, e), rowSlice(op.getLhsScales()),
                    sliceExpert(b, loc, op.getRhsScales(), e), groupAcc,
                    getWeightMaps(b));
                SmallVector<OpFoldResult> offs = {lo, b.getIndexAttr(0)};
                SmallVector<OpFoldResult> sizes =
                    tensor::getMixedSizes(b, loc, sum);
                SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
                Value updated = tensor::InsertSliceOp::create(
                    b, loc, sum, args[0], offs, sizes, strides);
                scf::YieldOp::create(b, loc, updated);
              });
          scf::YieldOp::create(b, loc, loop.getResult(0));
        },
        [&](OpBuilder &b, Location loc) {
          reportInvalidRouting(b, loc, op, InvalidRouting::Offsets);
          scf::YieldOp::create(b, loc, acc);
        });
    rewriter.replaceOp(op, ifOp.getResult(0));
    return success();
  }
};

} // namespace

void mx::detail::populateMoEContractionLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<GroupedScaledContractionLowering, RoutedScaledContractionLowering>(
          patterns.getContext());
}
