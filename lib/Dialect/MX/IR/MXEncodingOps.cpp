//===- MXEncodingOps.cpp - mx encoding and data-tiled ops -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::mx;

/// The element type an encoding assigns to its role.
static Type getRoleElementType(EncodingAttr encoding) {
  return encoding.getElementTypes()[static_cast<unsigned>(encoding.getRole())];
}

/// Checks an encoded tensor type against its plain counterpart.
static LogicalResult verifyEncodedPair(Operation *op, RankedTensorType plain,
                                       RankedTensorType encoded) {
  auto encoding = dyn_cast_or_null<EncodingAttr>(encoded.getEncoding());
  if (!encoding)
    return op->emitOpError() << "expected an #mx.encoding on " << encoded;
  if (plain.getEncoding())
    return op->emitOpError()
           << "expected a tensor without encoding, got " << plain;
  if (plain.getShape() != encoded.getShape() ||
      plain.getElementType() != encoded.getElementType())
    return op->emitOpError()
           << "encoding must not change the shape or element type: " << plain
           << " vs " << encoded;
  Type roleType = getRoleElementType(encoding);
  if (roleType != plain.getElementType())
    return op->emitOpError()
           << "element type " << plain.getElementType()
           << " does not match the encoding's "
           << stringifyOperandRole(encoding.getRole()) << " type " << roleType;
  unsigned rank = encoding.getRoleMap().getNumResults();
  if (plain.getRank() != rank)
    return op->emitOpError()
           << "tensor of rank " << plain.getRank() << " does not match the "
           << stringifyOperandRole(encoding.getRole())
           << " indexing map, which has " << rank << " results";
  return success();
}

LogicalResult SetEncodingOp::verify() {
  return verifyEncodedPair(*this, getSource().getType(), getResult().getType());
}

LogicalResult UnsetEncodingOp::verify() {
  if (failed(verifyEncodedPair(*this, getResult().getType(),
                               getSource().getType())))
    return failure();
  int64_t numDynamic = getResult().getType().getNumDynamicDims();
  if (int64_t(getResultDims().size()) != numDynamic)
    return emitOpError() << "expected " << numDynamic
                         << " result_dims for the dynamic sizes of the "
                            "result, got "
                         << getResultDims().size();
  return success();
}

//===----------------------------------------------------------------------===//
// TiledScaledMMAOp
//===----------------------------------------------------------------------===//

static constexpr std::pair<OperandRole, StringLiteral> kTiledOperands[] = {
    {OperandRole::lhs, "lhs"},
    {OperandRole::rhs, "rhs"},
    {OperandRole::lhs_scales, "lhs_scales"},
    {OperandRole::rhs_scales, "rhs_scales"},
    {OperandRole::result, "acc"}};

unsigned TiledScaledMMAOp::getNumBatchDims() {
  int64_t inner =
      getLayout().getSwizzle(OperandRole::lhs).getSwizzledShape().size();
  return cast<ShapedType>(getLhs().getType()).getRank() - 2 - inner;
}

bool TiledScaledMMAOp::hasUserLayoutAcc() {
  return cast<ShapedType>(getAcc().getType()).getRank() ==
         getNumBatchDims() + 2;
}

LogicalResult TiledScaledMMAOp::verifyEpilogue(int64_t numBatch,
                                               bool userLayoutAcc) {
  ValueRange inputs = getEpilogueInputs();
  if (!hasEpilogue()) {
    if (!inputs.empty() || getEpilogueMaps())
      return emitOpError() << "has epilogue inputs or maps but no epilogue";
    return success();
  }
  if (!userLayoutAcc || !getZeroAcc())
    return emitOpError() << "an epilogue needs zero_acc and acc in the "
                            "user's layout ([B.., M, N])";
  ArrayAttr maps = getEpilogueMapsAttr();
  if (!maps || maps.size() != inputs.size())
    return emitOpError() << "expected one epilogue map per epilogue input ("
                         << inputs.size() << ")";
  auto accType = cast<ShapedType>(getAcc().getType());
  for (auto [index, input, mapAttr] : llvm::enumerate(inputs, maps)) {
    auto map = dyn_cast<AffineMapAttr>(mapAttr);
    auto type = cast<ShapedType>(input.getType());
    if (!map || map.getValue().getNumDims() != numBatch + 2 ||
        map.getValue().getNumSymbols() != 0 ||
        map.getValue().getNumResults() != type.getRank() ||
        !map.getValue().isProjectedPermutation())
      return emitOpError() << "epilogue map #" << index
                           << " must be a projected permutation of the "
                           << numBatch + 2 << " result dimensions onto the "
                           << type.getRank() << " dimensions of " << type;
    if (isa<RankedTensorType>(type) != isa<RankedTensorType>(accType))
      return emitOpError() << "epilogue input #" << index
                           << " must be a tensor iff acc is";
  }
  if (getEpilogue().size() != 1 ||
      !llvm::hasSingleElement(getEpilogue().front()))
    return emitOpError() << "the epilogue must be one region of one block";
  Block &body = getEpilogueBlock();
  SmallVector<Type> expected = {Float32Type::get(getContext())};
  for (Value input : inputs)
    expected.push_back(getElementTypeOrSelf(input.getType()));
  expected.push_back(accType.getElementType());
  if (body.getArgumentTypes() != ArrayRef<Type>(expected)) {
    InFlightDiagnostic diag = emitOpError()
                              << "epilogue block must take (f32 sum, the "
                                 "epilogue inputs' elements, acc's element): ";
    llvm::interleaveComma(expected, diag);
    return diag;
  }
  if (!body.getArguments().back().use_empty())
    return emitOpError() << "the epilogue must not read acc's old value "
                            "(the accumulator starts at zero)";
  // (A block without ops has no terminator to ask for.)
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues()[0].getType() != accType.getElementType())
    return emitOpError() << "the epilogue must yield one value of acc's "
                            "element type "
                         << accType.getElementType();
  return success();
}

MutableOperandRange TiledScaledMMAOp::getDpsInitsMutable() {
  return getAccMutable();
}

void TiledScaledMMAOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    bool isAcc = &operand == &getAccMutable();
    // With tile_groups, acc's rows that no tile names are kept.
    if (!isAcc || !getZeroAcc() || isGrouped())
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
    if (isAcc)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

Value mx::getPositiveZeroFillDestination(Value acc) {
  auto isPositiveZero = [](Value v) {
    FloatAttr attr;
    return matchPattern(v, m_Constant(&attr)) && attr.getValue().isPosZero();
  };
  if (auto fill = acc.getDefiningOp<linalg::FillOp>())
    return isPositiveZero(fill.value()) ? fill.output() : Value();
  auto generic = acc.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 || generic.getNumResults() != 1)
    return {};
  Block &body = generic.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      !isPositiveZero(yield.getOperand(0)))
    return {};
  return generic.getDpsInits()[0];
}

namespace {
/// Starts the accumulator at zero when it is a fill with +0.0: a linalg.fill,
/// or a linalg.generic without inputs whose body only yields +0.0 (what
/// mx-fuse-relayouts makes of the relayout of a fill). The fill's
/// destination becomes the op's.
struct ZeroFilledAccumulator : public OpRewritePattern<TiledScaledMMAOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TiledScaledMMAOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getZeroAcc() || op.getResults().empty())
      return failure();
    Value destination = getPositiveZeroFillDestination(op.getAcc());
    if (!destination)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      // With tile_groups, rows that no tile names keep acc's value: acc
      // stays the fill (its tiles' rows are not read).
      if (!op.isGrouped())
        op.getAccMutable().assign(destination);
      op.setZeroAcc(true);
    });
    return success();
  }
};
} // namespace

/// Whether the rows of `value` ([R, N]) that its users read are rows that
/// `ids` names: they read it only through slices of whole rows and
/// elementwise linalg.generics (row for row), down to quantizes that gather
/// their rows by `ids` (divisor 1).
static bool isReadOnlyAtIds(Value value, Value ids) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user)) {
      auto sourceType = slice.getSourceType();
      if (sourceType.getRank() != 2 || slice.getResultType().getRank() != 2 ||
          !isConstantIntValue(slice.getMixedOffsets()[0], 0) ||
          !isConstantIntValue(slice.getMixedStrides()[0], 1) ||
          sourceType.isDynamicDim(0) ||
          !isConstantIntValue(slice.getMixedSizes()[0],
                              sourceType.getDimSize(0)) ||
          !isReadOnlyAtIds(slice.getResult(), ids))
        return false;
      continue;
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
      if (!generic.isDpsInput(&use) ||
          generic.getNumParallelLoops() != generic.getNumLoops() ||
          !llvm::all_of(generic.getIndexingMapsArray(),
                        [](AffineMap map) { return map.isIdentity(); }) ||
          !generic.getBody()->getOps<linalg::IndexOp>().empty() ||
          !llvm::all_of(generic.getResults(), [&](Value result) {
            return isReadOnlyAtIds(result, ids);
          }))
        return false;
      continue;
    }
    auto quantize = dyn_cast<QuantizeIntoOp>(user);
    if (!quantize || quantize.getInput() != value || quantize.getIds() != ids ||
        quantize.getDivisor().value_or(1) != 1)
      return false;
  }
  return true;
}

namespace {
/// Drops the +0.0 fill of a routed accumulator from zero whose rows are read
/// only where the row ids name them: the GEMM writes every such row (+0.0
/// from a tile without rows: zero_empty_tiles), so the fill is never seen.
/// The fill's destination becomes the op's.
struct UnreadRoutedFill : public OpRewritePattern<TiledScaledMMAOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TiledScaledMMAOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getZeroAcc() || !op.getRowIds() || op.getZeroEmptyTiles() ||
        op.getResults().empty())
      return failure();
    Value destination = getPositiveZeroFillDestination(op.getAcc());
    if (!destination || !isReadOnlyAtIds(op.getResult(), op.getRowIds()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getAccMutable().assign(destination);
      op.setZeroEmptyTiles(true);
    });
    return success();
  }
};
} // namespace

void TiledScaledMMAOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<ZeroFilledAccumulator, UnreadRoutedFill>(context);
}

/// Checks that the operands of `op` are all tensors (one result of the acc
/// type) or all memrefs (no result).
static LogicalResult verifyTensorOrMemRefForm(TiledScaledMMAOp op,
                                              ArrayRef<ShapedType> types) {
  SmallVector<Type> allTypes =
      llvm::map_to_vector(types, [](ShapedType type) -> Type { return type; });
  if (op.isGrouped())
    allTypes.push_back(op.getTileGroups().getType());
  if (op.getRowIds())
    allTypes.push_back(op.getRowIds().getType());
  if (llvm::all_of(allTypes, llvm::IsaPred<RankedTensorType>)) {
    if (op.getResults().size() != 1 ||
        op.getResults().front().getType() != op.getAcc().getType())
      return op.emitOpError() << "on tensors, expected one result of the acc "
                                 "type "
                              << op.getAcc().getType();
    return success();
  }
  if (llvm::all_of(allTypes, llvm::IsaPred<MemRefType>)) {
    if (!op.getResults().empty())
      return op.emitOpError() << "on memrefs, expected no result (acc is "
                                 "updated in place)";
    return success();
  }
  return op.emitOpError() << "operands must be all tensors or all memrefs";
}

/// Checks the element types of the operands of `op` (of `types`, in
/// kTiledOperands order) and returns which operands hold packed bytes of a
/// sub-byte layout type.
static FailureOr<SmallVector<bool, 5>>
verifyTiledElementTypes(TiledScaledMMAOp op, ArrayRef<ShapedType> types) {
  TiledLayoutAttrInterface layout = op.getLayout();
  // lhs and rhs are typed, or packed bytes of a sub-byte layout type.
  SmallVector<bool, 5> packed(5, false);
  for (unsigned i = 0; i < 2; ++i) {
    Type elementType = types[i].getElementType();
    Type layoutType = layout.getElementType(kTiledOperands[i].first);
    if (elementType.isInteger(8)) {
      packed[i] = isSubByteType(layoutType);
      continue;
    }
    if (!isMXElementType(elementType))
      return op.emitOpError() << kTiledOperands[i].second
                              << " must have an MX element type (or i8 "
                                 "holding its bytes), got "
                              << elementType;
    if (elementType != layoutType)
      return op.emitOpError()
             << kTiledOperands[i].second << " has element type " << elementType
             << ", but the layout says " << layoutType;
  }
  for (unsigned i = 2; i < 4; ++i)
    if (!isa<Float8E8M0FNUType>(types[i].getElementType()) &&
        !types[i].getElementType().isInteger(8))
      return op.emitOpError()
             << kTiledOperands[i].second
             << " must have element type f8E8M0FNU (or i8), got "
             << types[i].getElementType();
  if (!types[4].getElementType().isF32() && !op.hasEpilogue())
    return op.emitOpError() << "acc must have element type f32 (or the type "
                               "its epilogue yields), got "
                            << types[4].getElementType();
  return packed;
}

/// The leading group dimensions of operand `operand` of a tiled op: with
/// tile_groups, rhs and rhs_scales have one.
static int64_t getGroupDims(bool grouped, unsigned operand) {
  return grouped && (operand == 1 || operand == 3) ? 1 : 0;
}

/// Checks the accumulator in the user's layout, [B.., M, N] (of `numBatch`
/// batch dimensions): its M and N within the last tile of the operands' tile
/// counts (with tile_groups, any number of rows).
static LogicalResult verifyUserLayoutAcc(TiledScaledMMAOp op,
                                         ArrayRef<ShapedType> types,
                                         int64_t numBatch) {
  bool grouped = op.isGrouped();
  ShapedType type = types[4];
  SmallVector<int64_t> tile =
      op.getLayout().getInnerTileSizes(OperandRole::result);
  for (unsigned d = grouped ? 1 : 0; d < 2; ++d) {
    int64_t size = type.getDimSize(numBatch + d);
    int64_t tiles = types[d].getDimSize(numBatch + getGroupDims(grouped, d));
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(tiles) ||
        int64_t(llvm::divideCeil(size, tile[d])) == tiles)
      continue;
    return op.emitOpError()
           << "acc in the user's layout has " << size << " "
           << (d == 0 ? "rows" : "columns") << ", which is not " << tiles
           << " tiles of " << tile[d] << " (as " << kTiledOperands[d].second
           << ")";
  }
  return success();
}

/// Checks the shape of the data-tiled operand `index` of `op` ([B..,
/// (group,) outer tiles, swizzled tile], the tile in bytes when `packed`)
/// and returns its number of batch dimensions, which must be `numBatch`
/// when that is known (not negative).
static FailureOr<int64_t> verifyTiledOperandShape(TiledScaledMMAOp op,
                                                  unsigned index,
                                                  ShapedType type, bool packed,
                                                  int64_t numBatch) {
  TiledLayoutAttrInterface layout = op.getLayout();
  auto [role, name] = kTiledOperands[index];
  bool grouped = op.isGrouped();
  SmallVector<int64_t> inner = layout.getSwizzle(role).getSwizzledShape();
  if (packed) {
    Type layoutType = layout.getElementType(role);
    FailureOr<int64_t> bytes =
        getPackedByteCount(layoutType, inner.empty() ? 0 : inner.back());
    if (inner.empty() || failed(bytes))
      return op.emitOpError()
             << name << " cannot be stored packed: the innermost tile "
             << "dimension of " << layoutType << " is not whole bytes";
    inner.back() = *bytes;
  }
  int64_t groupDims = getGroupDims(grouped, index);
  int64_t batch = type.getRank() - 2 - int64_t(inner.size()) - groupDims;
  if (batch < 0)
    return op.emitOpError()
           << name << " has rank " << type.getRank() << ", expected at least "
           << inner.size() + 2 + groupDims
           << (groupDims ? " (the group dim, " : " (")
           << "2 outer tile dims and the " << inner.size()
           << "-d swizzled tile of the layout)";
  if (grouped && batch != 0)
    return op.emitOpError() << name << " has " << batch
                            << " batch dimensions; with tile_groups there are "
                               "none";
  if (numBatch >= 0 && batch != numBatch)
    return op.emitOpError()
           << name << " has " << batch << " batch dimensions, expected "
           << numBatch << " (as lhs)";
  ArrayRef<int64_t> actual = type.getShape().take_back(inner.size());
  if (actual != ArrayRef<int64_t>(inner)) {
    std::string want, got;
    llvm::raw_string_ostream wantOs(want), gotOs(got);
    llvm::interleave(inner, wantOs, "x");
    llvm::interleave(actual, gotOs, "x");
    return op.emitOpError() << name << " inner tile " << got
                            << " does not match the layout's swizzled " << name
                            << " tile " << want;
  }
  return batch;
}

/// Checks that the outer tile counts agree: [Mo, Ko], [No, Ko], [Mo, Ko],
/// [No, Ko], [Mo, No] (acc only when data-tiled).
static LogicalResult verifyOuterTileCounts(TiledScaledMMAOp op,
                                           ArrayRef<ShapedType> types,
                                           int64_t numBatch,
                                           bool userLayoutAcc) {
  bool grouped = op.isGrouped();
  auto outer = [&](unsigned operand, unsigned i) {
    return types[operand].getDimSize(numBatch + getGroupDims(grouped, operand) +
                                     i);
  };
  auto same = [&](StringRef what, std::pair<unsigned, unsigned> a,
                  std::pair<unsigned, unsigned> b) -> LogicalResult {
    int64_t x = outer(a.first, a.second), y = outer(b.first, b.second);
    if (ShapedType::isDynamic(x) || ShapedType::isDynamic(y) || x == y)
      return success();
    return op.emitOpError() << what << " tile count differs: " << x << " in "
                            << kTiledOperands[a.first].second << " vs " << y
                            << " in " << kTiledOperands[b.first].second;
  };
  if ((!userLayoutAcc && (failed(same("M", {0, 0}, {4, 0})) ||
                          failed(same("N", {1, 0}, {4, 1})))) ||
      failed(same("M", {0, 0}, {2, 0})) || failed(same("N", {1, 0}, {3, 0})) ||
      failed(same("K", {0, 1}, {1, 1})) || failed(same("K", {0, 1}, {2, 1})) ||
      failed(same("K", {0, 1}, {3, 1})))
    return failure();
  return success();
}

/// Checks the block experts of a routed op (`tile_groups` `[blocks]` of
/// i32): row_ids splits into blocks of whole M tiles.
static LogicalResult verifyBlockExperts(TiledScaledMMAOp op,
                                        ShapedType expertsType) {
  if (!expertsType.getElementType().isInteger(32))
    return op.emitOpError() << "tile_groups as block experts must be "
                               "[blocks] of i32, got "
                            << expertsType;
  auto idsType = cast<ShapedType>(op.getRowIds().getType());
  int64_t blocks = expertsType.getDimSize(0);
  if (!idsType.hasStaticShape() || ShapedType::isDynamic(blocks))
    return success();
  int64_t positions = idsType.getDimSize(0);
  int64_t tileRows = op.getLayout().getInnerTileSizes(OperandRole::lhs)[0];
  if (blocks == 0 || positions % blocks != 0 ||
      (positions / blocks) % tileRows != 0)
    return op.emitOpError()
           << "the " << positions << " row_ids are not " << blocks
           << " blocks (tile_groups as block experts) of whole M tiles of "
           << tileRows << " rows";
  return success();
}

/// Checks the tile table of a grouped op and the groups of its weights.
static LogicalResult verifyTileGroups(TiledScaledMMAOp op,
                                      ArrayRef<ShapedType> types) {
  int64_t groups = types[1].getDimSize(0), scaleGroups = types[3].getDimSize(0);
  if (ShapedType::isStatic(groups) && ShapedType::isStatic(scaleGroups) &&
      groups != scaleGroups)
    return op.emitOpError()
           << "rhs has " << groups << " groups but rhs_scales " << scaleGroups;
  auto tilesType = cast<ShapedType>(op.getTileGroups().getType());
  // A routed op may name the expert of each block of row_ids instead.
  if (op.getRowIds() && tilesType.getRank() == 1)
    return verifyBlockExperts(op, tilesType);
  if (tilesType.getRank() != 2 || tilesType.getDimSize(1) != 3 ||
      !tilesType.getElementType().isInteger(32))
    return op.emitOpError() << "tile_groups must be [Mo, 3] of i32 (group, "
                               "first row, row count per M tile), got "
                            << tilesType;
  int64_t tiles = tilesType.getDimSize(0), mo = types[0].getDimSize(0);
  if (ShapedType::isStatic(tiles) && ShapedType::isStatic(mo) && tiles != mo)
    return op.emitOpError() << "tile_groups has " << tiles << " rows, lhs has "
                            << mo << " M tiles";
  return success();
}

/// Checks `row_ids` (one row of acc per row of the lhs tiles).
static LogicalResult verifyRowIds(TiledScaledMMAOp op,
                                  ArrayRef<ShapedType> types) {
  if (!op.isGrouped())
    return op.emitOpError() << "row_ids needs tile_groups";
  auto idsType = cast<ShapedType>(op.getRowIds().getType());
  int64_t tileRows = op.getLayout().getInnerTileSizes(OperandRole::lhs)[0];
  int64_t mo = types[0].getDimSize(0);
  if (idsType.getRank() != 1 || !idsType.getElementType().isInteger(32))
    return op.emitOpError()
           << "row_ids must be a 1-d tensor or memref of i32, got " << idsType;
  if (ShapedType::isDynamic(mo) || !idsType.hasStaticShape())
    return success();
  std::optional<int64_t> rows = llvm::checkedMul(mo, tileRows);
  if (!rows)
    return op.emitOpError() << mo << " M tiles of " << tileRows
                            << " rows overflow a 64-bit row count";
  if (idsType.getDimSize(0) != *rows)
    return op.emitOpError()
           << "row_ids has " << idsType.getDimSize(0) << " rows, expected "
           << *rows << " (" << mo << " M tiles of " << tileRows << " rows)";
  return success();
}

/// Checks that the `numBatch` batch dimensions of every operand agree with
/// lhs's.
static LogicalResult verifyBatchDims(TiledScaledMMAOp op,
                                     ArrayRef<ShapedType> types,
                                     int64_t numBatch) {
  for (unsigned i = 1; i < 5; ++i)
    for (int64_t b = 0; b < numBatch; ++b) {
      int64_t x = types[0].getDimSize(b), y = types[i].getDimSize(b);
      if (ShapedType::isStatic(x) && ShapedType::isStatic(y) && x != y)
        return op.emitOpError()
               << "batch dimension " << b << " differs: " << x << " in lhs vs "
               << y << " in " << kTiledOperands[i].second;
    }
  return success();
}

LogicalResult TiledScaledMMAOp::verify() {
  SmallVector<ShapedType> types = {cast<ShapedType>(getLhs().getType()),
                                   cast<ShapedType>(getRhs().getType()),
                                   cast<ShapedType>(getLhsScales().getType()),
                                   cast<ShapedType>(getRhsScales().getType()),
                                   cast<ShapedType>(getAcc().getType())};
  if (failed(verifyTensorOrMemRefForm(*this, types)))
    return failure();
  FailureOr<SmallVector<bool, 5>> packed =
      verifyTiledElementTypes(*this, types);
  if (failed(packed))
    return failure();

  // The operands' shapes, in kTiledOperands order: lhs decides the number
  // of batch dimensions.
  bool grouped = isGrouped();
  int64_t numBatch = -1;
  bool userLayoutAcc = false;
  for (auto [index, type] : llvm::enumerate(types)) {
    bool isAcc = kTiledOperands[index].first == OperandRole::result;
    if (isAcc && grouped && type.getRank() != numBatch + 2)
      return emitOpError() << "with tile_groups, acc must be in the user's "
                              "layout ([T, N]), got "
                           << type;
    if (isAcc && type.getRank() == numBatch + 2) {
      userLayoutAcc = true;
      if (failed(verifyUserLayoutAcc(*this, types, numBatch)))
        return failure();
      continue;
    }
    FailureOr<int64_t> batch =
        verifyTiledOperandShape(*this, index, type, (*packed)[index], numBatch);
    if (failed(batch))
      return failure();
    numBatch = *batch;
  }
  if (failed(verifyOuterTileCounts(*this, types, numBatch, userLayoutAcc)) ||
      failed(verifyEpilogue(numBatch, userLayoutAcc)))
    return failure();
  if (grouped && failed(verifyTileGroups(*this, types)))
    return failure();
  if (getRowIds() && failed(verifyRowIds(*this, types)))
    return failure();
  if (getZeroEmptyTiles() &&
      (!getZeroAcc() ||
       !(getRowIds() ||
         (grouped &&
          cast<ShapedType>(getTileGroups().getType()).getRank() == 2))))
    return emitOpError() << "zero_empty_tiles needs zero_acc, and row_ids or "
                            "a tile table";
  return verifyBatchDims(*this, types, numBatch);
}
