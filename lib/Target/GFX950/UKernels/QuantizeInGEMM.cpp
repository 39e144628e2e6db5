//===- QuantizeInGEMM.cpp - A quantized by the GEMM ukernel ---------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/UKernels/QuantizeInGEMM.h"

#include "mx/Dialect/MX/IR/TileSwizzle.h"
#include "mx/Support/CheckedArith.h"
#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

/// The input dimension and the number of its elements one step of result
/// `expr` of an elements map moves: `d`, `d floordiv c`, `d mod c` and their
/// compositions (what a pack, expand and transpose give), or a constant 0.
static std::optional<std::pair<unsigned, int64_t>> getStep(AffineExpr expr) {
  // A constant 0 (a dimension of size 1, e.g. K tiles per split) steps
  // nowhere.
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() == 0 ? std::optional(std::make_pair(0u, 0l))
                                    : std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return std::make_pair(dim.getPosition(), int64_t(1));
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (!constant || constant.getValue() <= 0)
    return std::nullopt;
  auto inner = getStep(binary.getLHS());
  if (!inner)
    return std::nullopt;
  if (binary.getKind() == AffineExprKind::Mod)
    return inner;
  if (binary.getKind() == AffineExprKind::FloorDiv)
    return std::make_pair(inner->first, inner->second * constant.getValue());
  return std::nullopt;
}

/// `expr` at the dimension values `dims` (the expressions of getStep; other
/// kinds for completeness), in wrapping arithmetic, with a division or
/// modulus by a non-positive value giving 0: the caller compares the result
/// with an expected position, so a meaningless map just fails the check.
static int64_t evaluate(AffineExpr expr, ArrayRef<int64_t> dims) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size() ? dims[dim.getPosition()] : 0;
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return 0;
  int64_t lhs = evaluate(binary.getLHS(), dims);
  int64_t rhs = evaluate(binary.getRHS(), dims);
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return int64_t(uint64_t(lhs) + uint64_t(rhs));
  case AffineExprKind::Mul:
    return int64_t(uint64_t(lhs) * uint64_t(rhs));
  case AffineExprKind::FloorDiv:
    return rhs > 0 ? llvm::divideFloorSigned(lhs, rhs) : 0;
  case AffineExprKind::CeilDiv:
    return rhs > 0 ? llvm::divideCeilSigned(lhs, rhs) : 0;
  case AffineExprKind::Mod:
    return rhs > 0 ? llvm::mod(lhs, rhs) : 0;
  default:
    return 0;
  }
}

/// Sets `reason` to `why` and fails.
static LogicalResult fail(std::string &reason, const Twine &why) {
  reason = why.str();
  return failure();
}

/// What the ukernel quantizing A supports of `quantize` and `op` besides
/// the maps: fp4 A from a static bf16 input under 2 GiB, in a GEMM that
/// such a ukernel serves; a grouped GEMM's rows gathered by the quantize's
/// ids (a routed GEMM's), and gathered rows without batch dimensions.
static LogicalResult checkSupported(QuantizeIntoOp quantize,
                                    TiledScaledMMAOp op,
                                    DataTiledLayoutAttr layout,
                                    std::string &reason) {
  if (quantize.getElements().size() != 1 || quantize.getScales().size() != 1)
    return fail(reason, "the quantize writes more than A and its scales");
  if (op.isGrouped() && !quantize.getIds())
    return fail(reason, "the grouped GEMM's A rows come from its tile table "
                        "(only rows that the quantize gathers by id are "
                        "read through their ids)");
  if (quantize.getIds() && op.getNumBatchDims() != 0)
    return fail(reason, "the quantize gathers rows by id for a GEMM with "
                        "batch dimensions");
  auto elementType = dyn_cast<Float4E2M1FNType>(quantize.getElementType());
  if (!elementType || !isa<Float4E2M1FNType>(layout.getLhsType()))
    return fail(reason, "A is not f4E2M1FN (a lane's 32 values are one block "
                        "only for fp4)");
  auto inputType = cast<ShapedType>(quantize.getInput().getType());
  Type sourceType = inputType.getElementType();
  // (The ukernel's instantiation takes f16 and f32 too, but its calls share
  // one declaration per module, whose source view is bf16.)
  if (!sourceType.isBF16())
    return fail(reason, "the input is not bf16");
  if (!inputType.hasStaticShape())
    return fail(reason, "the input has a dynamic shape");
  SmallVector<int64_t> sizes(inputType.getShape());
  sizes.push_back(sourceType.getIntOrFloatBitWidth() / 8);
  std::optional<int64_t> bytes = getCheckedProduct(sizes);
  if (!bytes || *bytes >= (int64_t(1) << 31))
    return fail(reason, "the input is 2 GiB or more (32-bit buffer offsets)");
  if (!selectUKernel(layout, /*quantizedLhs=*/true).name)
    return fail(reason, "no ukernel that quantizes A serves the layout");
  return success();
}

/// Sets `source.viewDims`: each dimension of the ukernel's view of A's tile
/// is one of the swizzle's (or absent: size 1): M's subgroups, intrinsics
/// and lane rows, K's intrinsics, lane groups and the 32 values of a lane.
/// `shape` is A's, in elements: [B.., Mo, Ko, swizzled tile].
static LogicalResult getViewDims(TiledScaledMMAOp op,
                                 DataTiledLayoutAttr layout,
                                 ArrayRef<int64_t> shape,
                                 QuantizedLhsSource &source,
                                 std::string &reason) {
  unsigned numOuter = op.getNumBatchDims() + 2;
  TileSwizzle swizzle = getSwizzle(layout, OperandRole::lhs);
  SmallVector<TileSwizzle::Dim> expanded = swizzle.getExpandedDims();
  if (swizzle.expandShape.size() != 2 ||
      shape.size() != numOuter + swizzle.permutation.size())
    return fail(reason, "A's tiles are not the layout's");
  source.viewDims.assign(7, -1);
  source.viewDims[0] = numOuter - 1;
  int64_t mDims = swizzle.expandShape[0].size();
  for (auto [j, e] : llvm::enumerate(swizzle.permutation)) {
    bool fromM = e < mDims;
    TileSwizzle::Kind kind = expanded[e].kind;
    int64_t slot = -1;
    if (fromM && kind == TileSwizzle::Kind::Subgroup)
      slot = 1;
    else if (fromM && kind == TileSwizzle::Kind::Intrinsic)
      slot = 2;
    else if (!fromM && kind == TileSwizzle::Kind::Intrinsic)
      slot = 3;
    else if (!fromM && kind == TileSwizzle::Kind::Lane)
      slot = 4;
    else if (fromM && kind == TileSwizzle::Kind::Lane)
      slot = 5;
    else if (!fromM && kind == TileSwizzle::Kind::Internal)
      slot = 6;
    if (slot < 0 || source.viewDims[slot] >= 0)
      return fail(reason,
                  "A's tile is not [subgroups_m, intrinsics_m, intrinsics_k, "
                  "K groups, rows, 32] but for unit dimensions");
    source.viewDims[slot] = numOuter + j;
  }
  return success();
}

/// Checks every block where the ukernel's lanes read it (at most 2^16, the
/// first ones: whole tiles): for each block's first position p of A (of
/// `shape`), the input point the steps give maps back to p, and its scale
/// lands at the lane's scale byte (intrinsic i, K step q) of the ukernel's
/// view of the scales tile, [subgroups_m, 64, im * ik].
static LogicalResult checkBlocks(QuantizeIntoOp quantize, TiledScaledMMAOp op,
                                 DataTiledLayoutAttr layout,
                                 ArrayRef<int64_t> shape,
                                 const QuantizedLhsSource &source,
                                 std::string &reason) {
  unsigned numOuter = op.getNumBatchDims() + 2;
  unsigned axis = quantize.getAxis();
  AffineMap map = quantize.getDestinationMap(0);
  AffineMap scaleMap = quantize.getDestinationMap(1);
  auto scalesType = cast<ShapedType>(quantize.getScales()[0].getType());
  if (!scalesType.hasStaticShape() || scalesType.getRank() <= numOuter ||
      scaleMap.getNumResults() != uint64_t(scalesType.getRank()))
    return fail(reason, "A's scales have a dynamic or unexpected shape");
  ArrayRef<int64_t> scaleShape = scalesType.getShape();
  int64_t im = layout.getIntrinsicsM(), ik = layout.getIntrinsicsK();
  auto viewSize = [&](int64_t slot) {
    return source.viewDims[slot] < 0 ? 1 : shape[source.viewDims[slot]];
  };
  int64_t rows = viewSize(5);
  int64_t checked = 1;
  for (int64_t size : shape.drop_back())
    checked = std::min<int64_t>(
        checked * std::clamp<int64_t>(size, 0, int64_t(1) << 16), int64_t(1)
                                                                      << 16);
  SmallVector<int64_t> position(shape.size(), 0);
  for (int64_t n = 0; n < checked; ++n) {
    int64_t rest = n;
    for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d) {
      position[d] = rest % shape[d];
      rest /= shape[d];
    }
    SmallVector<int64_t> point(map.getNumDims(), 0);
    for (auto [index, step] : llvm::zip_equal(position, source.steps))
      point[step.first] += index * step.second;
    for (auto [r, expr] : llvm::enumerate(map.getResults()))
      if (evaluate(expr, point) != position[r])
        return fail(reason, "the elements map is not a tiling of the input");
    SmallVector<int64_t> blockPoint(point);
    blockPoint[axis] /= kBlockSize;
    SmallVector<int64_t> scalePosition =
        llvm::map_to_vector(scaleMap.getResults(), [&](AffineExpr expr) {
          return evaluate(expr, blockPoint);
        });
    int64_t linear = 0;
    for (unsigned d = numOuter; d < scaleShape.size(); ++d)
      linear = linear * scaleShape[d] + scalePosition[d];
    auto at = [&](int64_t slot) {
      return source.viewDims[slot] < 0 ? 0 : position[source.viewDims[slot]];
    };
    int64_t lane = at(4) * rows + at(5);
    int64_t expected = (at(1) * 64 + lane) * im * ik + at(2) * ik + at(3);
    if (linear != expected || ArrayRef(scalePosition).take_front(numOuter) !=
                                  ArrayRef(position).take_front(numOuter))
      return fail(reason,
                  "the scales map does not put each block's scale where the "
                  "lane that multiplies the block reads it");
  }
  return success();
}

/// Sets `source.gatheredRowDims` for a quantize that gathers rows by id:
/// the destination dimensions that step along the gathered rows (with no
/// batch dimensions, the outer M tile, the M subgroups and intrinsics and
/// the lane's row: getViewDims). Each lane reads one input row through the
/// ids per fragment of rows.
static void getGatheredRowDims(ArrayRef<int64_t> shape,
                               QuantizedLhsSource &source) {
  for (auto [d, step] : llvm::enumerate(source.steps))
    if (step.first == 0 && shape[d] != 1)
      source.gatheredRowDims.push_back({d, step.second});
}

/// Sets `source.kBlocks` when K is padded to the K tile: the ukernel then
/// reads block (k * intrinsics_k + q) * G + g of a row at view position
/// (k, q, g), so the view's K dimensions must step along the axis by
/// those blocks (the padding is whole blocks: the quantize's verifier
/// wants the axis a multiple of 32).
static LogicalResult getKBlocks(QuantizeIntoOp quantize,
                                llvm::function_ref<int64_t(int64_t)> viewSize,
                                QuantizedLhsSource &source,
                                std::string &reason) {
  unsigned axis = quantize.getAxis();
  int64_t k = cast<ShapedType>(quantize.getInput().getType()).getDimSize(axis);
  FailureOr<SmallVector<int64_t>> domain = quantize.getPaddedDomain(0);
  if (failed(domain))
    return fail(reason, "the quantize's padded domain is unknown");
  if ((*domain)[axis] == k)
    return success();
  // The view's K dimensions, innermost first: K groups, intrinsics, tiles.
  int64_t block = kBlockSize;
  for (int64_t slot : {4, 3, 0}) {
    int64_t d = source.viewDims[slot];
    if (d >= 0 && viewSize(slot) > 1 &&
        source.steps[d] != std::make_pair(axis, block))
      return fail(reason, "K is padded and the K tile's blocks are not in "
                          "K order (tiles, intrinsics, lane groups)");
    block *= viewSize(slot);
  }
  // A dimension outside the tile along K (a split of K) steps by whole
  // blocks too: the caller subtracts the blocks before the workgroup's.
  for (auto [d, step] : llvm::enumerate(source.steps))
    if (int64_t(d) < source.viewDims[0] && step.first == axis &&
        step.second % kBlockSize != 0)
      return fail(reason, "K is padded and a dimension steps along K by "
                          "part of a block");
  source.kBlocks = k / kBlockSize;
  return success();
}

FailureOr<QuantizedLhsSource> mlir::mx::gfx950::analyzeQuantizedLhs(
    QuantizeIntoOp quantize, TiledScaledMMAOp op, std::string &reason) {
  DataTiledLayoutAttr layout = getDataTiledLayout(op.getLayout());
  if (!layout)
    return fail(reason, "the GEMM has no #mx.data_tiled_layout");
  if (failed(checkSupported(quantize, op, layout, reason)))
    return failure();

  // The elements destination in elements: [B.., Mo, Ko, swizzled tile].
  auto destType = cast<ShapedType>(quantize.getElements()[0].getType());
  if (!destType.hasStaticShape())
    return fail(reason, "A has a dynamic shape");
  SmallVector<int64_t> shape(destType.getShape());
  if (shape.empty())
    return fail(reason, "A's tiles are not the layout's");
  if (destType.getElementType().isInteger(8))
    shape.back() *= 2;
  QuantizedLhsSource source;
  if (failed(getViewDims(op, layout, shape, source, reason)))
    return failure();
  auto viewSize = [&](int64_t slot) {
    return source.viewDims[slot] < 0 ? 1 : shape[source.viewDims[slot]];
  };
  if (viewSize(6) != kBlockSize || viewSize(4) * viewSize(5) != 64 ||
      source.viewDims[6] != int64_t(shape.size()) - 1)
    return fail(reason, "a lane's values are not one block of 32, innermost");
  AffineMap map = quantize.getDestinationMap(0);
  if (map.getNumResults() != shape.size())
    return fail(reason, "the elements map is not a tiling of the input");
  for (AffineExpr expr : map.getResults()) {
    auto step = getStep(expr);
    if (!step)
      return fail(reason, "the elements map is not a tiling of the input");
    source.steps.push_back(*step);
  }
  unsigned axis = quantize.getAxis();
  if (source.steps.back() != std::make_pair(axis, int64_t(1)))
    return fail(reason,
                "a lane's 32 values are not consecutive along the axis");
  if (failed(getKBlocks(quantize, viewSize, source, reason)))
    return failure();
  if (quantize.getIds())
    getGatheredRowDims(shape, source);
  if (failed(checkBlocks(quantize, op, layout, shape, source, reason)))
    return failure();
  return source;
}
