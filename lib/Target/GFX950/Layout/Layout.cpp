//===- Layout.cpp - gfx950 scaled-MFMA facts and data-tiled layouts -------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/Layout/Layout.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

IntrinsicInfo gfx950::getIntrinsicInfo(ScaledMMAIntrinsic intrinsic) {
  switch (intrinsic) {
  case ScaledMMAIntrinsic::mfma_scale_16x16x128:
    return {/*m=*/16, /*n=*/16, /*k=*/128, /*kGroups=*/4, /*accPerLane=*/4};
  case ScaledMMAIntrinsic::mfma_scale_32x32x64:
    return {/*m=*/32, /*n=*/32, /*k=*/64, /*kGroups=*/2, /*accPerLane=*/16};
  }
  llvm_unreachable("unknown intrinsic");
}

IntrinsicInfo
gfx950::getIntrinsicInfo(ScaledMMAIntrinsicAttrInterface intrinsic) {
  return getIntrinsicInfo(getIntrinsic(intrinsic));
}

ScaledMMAIntrinsic
gfx950::getIntrinsic(ScaledMMAIntrinsicAttrInterface intrinsic) {
  return cast<ScaledMFMAAttr>(intrinsic).getIntrinsic();
}

ScaledMMAIntrinsic gfx950::getIntrinsic(DataTiledLayoutAttr layout) {
  return getIntrinsic(layout.getIntrinsic());
}

DataTiledLayoutAttr gfx950::getDataTiledLayout(Attribute layout) {
  auto tiled = dyn_cast_or_null<DataTiledLayoutAttr>(layout);
  if (!tiled || !isa<ScaledMFMAAttr>(tiled.getIntrinsic()))
    return {};
  return tiled;
}

TileSizes gfx950::getTileSizes(DataTiledLayoutAttr layout) {
  auto [m, n, k] = layout.getTileSizes();
  return {m, n, k};
}

static int64_t getBitWidth(Type type) {
  return cast<FloatType>(type).getWidth();
}

namespace {
using Kind = TileSwizzle::Kind;

/// Builds a swizzle from named dimensions: each inner tile dimension is a
/// group of named expanded dimensions (outermost first), and `order` lists
/// the names from outermost to innermost in the swizzled tile. Unit
/// dimensions are dropped.
class SwizzleBuilder {
public:
  void addGroup(ArrayRef<std::tuple<StringRef, Kind, int64_t>> dims) {
    SmallVector<TileSwizzle::Dim> group;
    for (auto [name, kind, size] : dims) {
      if (size == 1)
        continue;
      names[name] = counter++;
      group.push_back({kind, size});
    }
    swizzle.expandShape.push_back(group);
  }

  TileSwizzle build(ArrayRef<StringRef> order) {
    for (StringRef name : order) {
      auto it = names.find(name);
      if (it != names.end())
        swizzle.permutation.push_back(it->second);
    }
    assert(int64_t(swizzle.permutation.size()) == counter &&
           "every expanded dimension must be placed");
    return swizzle;
  }

private:
  TileSwizzle swizzle;
  llvm::StringMap<int64_t> names;
  int64_t counter = 0;
};
} // namespace

SmallVector<int64_t> gfx950::getInnerTileSizes(DataTiledLayoutAttr layout,
                                               OperandRole role) {
  return layout.getInnerTileSizes(role);
}

TileSwizzle gfx950::getSwizzle(DataTiledLayoutAttr layout, OperandRole role) {
  return layout.getSwizzle(role);
}

TileSwizzle gfx950::getIntrinsicSwizzle(ScaledMMAIntrinsic intrinsic,
                                        OperandRole role, Type elementType) {
  IntrinsicInfo info = getIntrinsicInfo(intrinsic);
  SwizzleBuilder builder;
  switch (role) {
  case OperandRole::lhs:
  case OperandRole::rhs:
    builder.addGroup({{"lane_r", Kind::Lane, info.m}});
    if (getBitWidth(elementType) == 8) {
      // Two 16-element K chunks per lane: k = h * K/2 + 16 g + u.
      builder.addGroup({{"chunk", Kind::Internal, 2},
                        {"lane_g", Kind::Lane, info.kGroups},
                        {"item", Kind::Internal, 16}});
    } else {
      // 32 contiguous K values per lane: k = 32 g + t.
      builder.addGroup({{"lane_g", Kind::Lane, info.kGroups},
                        {"item", Kind::Internal, kBlockSize}});
    }
    return builder.build({"lane_g", "lane_r", "chunk", "item"});
  case OperandRole::lhs_scales:
  case OperandRole::rhs_scales:
    // One scale byte per lane: row r, K-block g.
    builder.addGroup({{"lane_r", Kind::Lane, info.m}});
    builder.addGroup({{"lane_g", Kind::Lane, info.kGroups}});
    return builder.build({"lane_g", "lane_r"});
  case OperandRole::result:
    // The ukernels give the MFMA B's fragment as src0 and A's as src1, so
    // that it computes the transposed tile D^T = B A^T, whose rows are D's
    // columns: lane (g, r) holds row r of D and consecutive columns, which
    // the result's stores (and loads) in a row-major user layout take as
    // one vector per lane (see the header).
    builder.addGroup({{"lane_r", Kind::Lane, info.m}});
    if (info.n == 16) {
      // D[r][4 g + v].
      builder.addGroup(
          {{"lane_g", Kind::Lane, info.kGroups}, {"item", Kind::Internal, 4}});
    } else {
      // D[r][8 (v / 4) + 4 g + v % 4].
      builder.addGroup({{"item_hi", Kind::Internal, 4},
                        {"lane_g", Kind::Lane, info.kGroups},
                        {"item", Kind::Internal, 4}});
    }
    return builder.build({"lane_g", "lane_r", "item_hi", "item"});
  }
  llvm_unreachable("unknown role");
}

LayoutCost gfx950::getLayoutCost(DataTiledLayoutAttr layout) {
  IntrinsicInfo info = getIntrinsicInfo(layout.getIntrinsic());
  LayoutCost cost;
  cost.accRegisters =
      layout.getIntrinsicsM() * layout.getIntrinsicsN() * info.accPerLane;
  cost.ldsBytes = getUKernelLDSBytes(layout);
  cost.stagedBytes = 2 * getUKernelStageBytes(layout);
  cost.mfmasPerKStep = layout.getSubgroupsM() * layout.getSubgroupsN() *
                       layout.getIntrinsicsM() * layout.getIntrinsicsN() *
                       layout.getIntrinsicsK();
  return cost;
}

static SmallVector<int64_t> powersOfTwo(int64_t max) {
  SmallVector<int64_t> result;
  for (int64_t v = 1; v <= max; v *= 2)
    result.push_back(v);
  return result;
}

namespace {
/// How hard the resolver's limits are: all of them; all but the problem's
/// K (a K shorter than every tile's K step); only the hardware's (registers,
/// LDS), tiles may exceed the problem; none (the pins win).
enum class Limits { All, AllButK, Hardware, None };
} // namespace

/// The first key of a candidate `tile` for an M x N x K problem: with tiles
/// larger than the problem, the least padding first. Past K only, the least
/// padded work (M x N x K rounded up to whole tiles, a dynamic size one
/// tile), so that M and N still get their tiles by the keys after it; past
/// M or N, the smallest tile; 0 within the problem.
static double getPaddingKey(Limits limits, int64_t m, int64_t n, int64_t k,
                            TileSizes tile) {
  auto padded = [](int64_t size, int64_t unit) {
    return ShapedType::isDynamic(size)
               ? double(unit)
               : double(llvm::divideCeil(size, unit) * unit);
  };
  if (limits == Limits::AllButK)
    return -padded(m, tile.m) * padded(n, tile.n) * padded(k, tile.k);
  if (limits == Limits::Hardware)
    return -double(tile.m) * double(tile.n);
  return 0.0;
}

/// The CUs (up to all of them) that a GEMM of `groups` x M x N x K (static
/// M and N) gives a workgroup with `tile`, counting the parts chooseSplitK
/// would split K into (with `splitK`).
static int64_t getCUsFilled(int64_t m, int64_t n, int64_t k, TileSizes tile,
                            int64_t groups, bool splitK) {
  int64_t tiles =
      groups * llvm::divideCeil(m, tile.m) * llvm::divideCeil(n, tile.n);
  int64_t kTiles = ShapedType::isDynamic(k) ? ShapedType::kDynamic
                                            : llvm::divideCeil(k, tile.k);
  int64_t parts =
      splitK ? chooseSplitK(tiles, kTiles, /*pinned=*/0, llvm::nulls()) : 1;
  return std::min<int64_t>(kNumCUs, tiles * parts);
}

namespace {
/// The machine constants of the latency estimate below: MachineModel.def,
/// the one home of the static and timing models' constants.
struct MachineConstants {
#define MX_GFX950_MACHINE(Name, pyName, value, unit, kind, source)             \
  double Name = value;
#include "mx/Target/GFX950/ISA/MachineModel.def"
};
} // namespace

/// The cycles a CU spends on its K steps, one after another, for a GEMM of
/// `groups` x M x N x K (static N) of `lhsType` x `rhsType` with `tile`
/// when its output tiles fit one round of the CUs (a dynamic M or K: one
/// tile, one step); none for more tiles than CUs. Each step waits about one
/// global latency for its operands, then streams the step's bytes of A and
/// B and their scales at the CU's L2 bandwidth: at equal step counts the
/// tile that leaves each CU fewer bytes per step (a narrower N tile, over
/// more CUs) finishes first.
static std::optional<double> getLatencyChain(Type lhsType, Type rhsType,
                                             int64_t m, int64_t n, int64_t k,
                                             TileSizes tile, int64_t groups) {
  auto count = [](int64_t size, int64_t unit) {
    return ShapedType::isDynamic(size) ? 1 : llvm::divideCeil(size, unit);
  };
  if (groups * count(m, tile.m) * count(n, tile.n) > kNumCUs)
    return std::nullopt;
  MachineConstants machine;
  double stepBytes =
      double(tile.k) *
      (double(tile.m * getBitWidth(lhsType) + tile.n * getBitWidth(rhsType)) /
           8 +
       double(tile.m + tile.n) / kBlockSize);
  return double(count(k, tile.k)) *
         (machine.GlobalLatency + stepBytes / machine.L2BytesPerCycle);
}

/// The K steps (intrinsics_k) the resolver tries, into `stepsK`: 128 bytes
/// of the wider operand's row, at least one intrinsic; or two or four times
/// that, which small tiles need for whole 4-byte groups of scale bytes per
/// lane (the ukernels' scale loads); only the pinned one if any. Returns the
/// largest K tile the problem's K (rounded up to the base step) has room for.
static int64_t getKStepCandidates(Type lhsType, Type rhsType, int64_t k,
                                  const IntrinsicInfo &info, TargetAttr target,
                                  SmallVectorImpl<int64_t> &stepsK) {
  int64_t widest = std::max(getBitWidth(lhsType), getBitWidth(rhsType));
  int64_t baseK = std::max<int64_t>(1, 128 * 8 / (info.k * widest));
  stepsK.assign({baseK, 2 * baseK, 4 * baseK});
  if (int64_t pinned = target.getIntrinsicsK())
    stepsK.assign({pinned});
  if (ShapedType::isDynamic(k))
    return std::numeric_limits<int64_t>::max();
  return std::max<int64_t>(baseK * info.k, llvm::divideCeil(k, baseK * info.k) *
                                               baseK * info.k);
}

DataTiledLayoutAttr gfx950::resolveLayout(MLIRContext *ctx, Type lhsType,
                                          Type rhsType, int64_t m, int64_t n,
                                          int64_t k, TargetAttr target,
                                          int64_t groups, bool splitK) {
  ScaledMMAIntrinsic intrinsic =
      target.getIntrinsic().value_or(ScaledMMAIntrinsic::mfma_scale_16x16x128);
  IntrinsicInfo info = getIntrinsicInfo(intrinsic);

  SmallVector<int64_t> stepsK;
  int64_t maxK = getKStepCandidates(lhsType, rhsType, k, info, target, stepsK);
  // Decode (M up to 64): few output tiles, so the tile that gives the most
  // CUs a workgroup comes before the most MFMAs per byte.
  bool smallM = !ShapedType::isDynamic(m) && m <= kSmallM;

  SmallVector<OperandRole> interleaveM = {OperandRole::lhs_scales};
  SmallVector<OperandRole> interleaveN = {OperandRole::rhs_scales};
  SmallVector<OperandRole> interleaveK = {OperandRole::lhs_scales,
                                          OperandRole::rhs_scales};
  auto make = [&](int64_t im, int64_t in, int64_t ik, int64_t sm, int64_t sn) {
    return DataTiledLayoutAttr::get(ctx, ScaledMFMAAttr::get(ctx, intrinsic),
                                    lhsType, rhsType, im, in, ik, sm, sn,
                                    interleaveM, interleaveN, interleaveK);
  };
  auto cap = [](int64_t size, int64_t unit) {
    if (ShapedType::isDynamic(size))
      return std::numeric_limits<int64_t>::max();
    return std::max<int64_t>(unit, llvm::divideCeil(size, unit) * unit);
  };
  int64_t maxM = cap(m, info.m), maxN = cap(n, info.n);

  auto pick = [](int64_t pinned, ArrayRef<int64_t> all) {
    return pinned ? SmallVector<int64_t>{pinned} : SmallVector<int64_t>(all);
  };
  // At most 4 waves (one per SIMD) unless the options pin more.
  int64_t maxWaves =
      std::max<int64_t>(4, std::max<int64_t>(1, target.getSubgroupsM()) *
                               std::max<int64_t>(1, target.getSubgroupsN()));
  SmallVector<int64_t> units = powersOfTwo(16), waves = powersOfTwo(4);
  auto search = [&](Limits limits) {
    DataTiledLayoutAttr best;
    std::tuple<double, bool, double, double, int64_t, double, int64_t, int64_t,
               int64_t, int64_t>
        bestKey;
    for (int64_t sm : pick(target.getSubgroupsM(), waves))
      for (int64_t sn : pick(target.getSubgroupsN(), waves))
        for (int64_t im : pick(target.getIntrinsicsM(), units))
          for (int64_t in : pick(target.getIntrinsicsN(), units))
            for (int64_t ik : stepsK) {
              if (sm * sn > maxWaves)
                continue;
              DataTiledLayoutAttr candidate = make(im, in, ik, sm, sn);
              if (target.getRequireUkernel() && !selectUKernel(candidate).name)
                continue;
              LayoutCost cost = getLayoutCost(candidate);
              TileSizes tile = getTileSizes(candidate);
              if (limits != Limits::None &&
                  (cost.accRegisters > kAccRegisters ||
                   cost.stagedBytes > kLDSBytes))
                continue;
              if ((limits == Limits::All || limits == Limits::AllButK) &&
                  (tile.m > maxM || tile.n > maxN ||
                   (limits == Limits::All && tile.k > maxK)))
                continue;
              double intensity = double(tile.m) * tile.n /
                                 (double(tile.m) * getBitWidth(lhsType) +
                                  double(tile.n) * getBitWidth(rhsType));
              double padding = getPaddingKey(limits, m, n, k, tile);
              // Small M: the workgroups that find a CU (up to all of
              // them), with the parts chooseSplitK will split K into.
              int64_t fill = smallM && !ShapedType::isDynamic(n)
                                 ? getCUsFilled(m, n, k, tile, groups, splitK)
                                 : 0;
              // Small M that mx-split-k never splits (grouped GEMMs): each
              // workgroup's K steps run one after another, each waiting
              // about one global latency for weights, so the tiles that fit
              // one round of the CUs come first, the shortest chain of K
              // steps first (fewer steps, fewer bytes per step), then the
              // intensity; the others by the keys that follow.
              std::optional<double> chain;
              if (smallM && !splitK && !ShapedType::isDynamic(n))
                chain =
                    getLatencyChain(lhsType, rhsType, m, n, k, tile, groups);
              auto key = std::make_tuple(
                  padding, chain.has_value(), -chain.value_or(0.0),
                  chain ? intensity : 0.0, fill, intensity, -ik, sm * sn,
                  -cost.accRegisters, -std::abs(tile.m - tile.n));
              if (!best || key > bestKey) {
                best = candidate;
                bestKey = key;
              }
            }
    return best;
  };
  // When no tile within the problem fits (e.g. the ukernels' scale groups
  // need more intrinsics than a small problem has), the smallest tile that
  // fits the hardware wins. Pinned parameters may make every candidate
  // exceed a hardware limit; then the limits give way to the pins.
  DataTiledLayoutAttr best = search(Limits::All);
  if (!best)
    best = search(Limits::AllButK);
  if (!best)
    best = search(Limits::Hardware);
  if (!best)
    best = search(Limits::None);
  if (!best)
    best = make(std::max<int64_t>(1, target.getIntrinsicsM()),
                std::max<int64_t>(1, target.getIntrinsicsN()), stepsK.front(),
                std::max<int64_t>(1, target.getSubgroupsM()),
                std::max<int64_t>(1, target.getSubgroupsN()));
  return best;
}

int64_t gfx950::chooseSplitK(int64_t workgroups, int64_t kTiles, int64_t pinned,
                             raw_ostream &why) {
  if (ShapedType::isDynamic(kTiles) || kTiles < 2) {
    why << "the K tile count is " << (kTiles < 2 ? "1" : "dynamic");
    return 1;
  }
  auto largestDivisorUpTo = [&](int64_t limit) {
    int64_t best = 1;
    for (int64_t d = 1; d <= std::min(limit, kTiles); ++d)
      if (kTiles % d == 0)
        best = d;
    return best;
  };
  if (pinned > 0) {
    int64_t parts = largestDivisorUpTo(pinned);
    why << "split_k = " << pinned << " is pinned";
    if (parts != pinned)
      why << " (" << parts << ", the largest divisor of the " << kTiles
          << " K tiles up to it)";
    return parts;
  }
  if (ShapedType::isDynamic(workgroups)) {
    why << "the number of output tiles is dynamic";
    return 1;
  }
  if (workgroups >= kNumCUs) {
    why << workgroups << " output tiles fill the " << kNumCUs << " CUs";
    return 1;
  }
  // The fewest parts that give every CU a workgroup, each part at least two
  // K tiles long; else the most parts of at least two K tiles.
  int64_t parts = 1;
  for (int64_t d = 2; d <= std::min(kMaxSplitK, kTiles / 2); ++d) {
    if (kTiles % d != 0)
      continue;
    parts = d;
    if (workgroups * d >= kNumCUs)
      break;
  }
  why << workgroups << " output tiles for " << kNumCUs << " CUs";
  if (parts > 1)
    why << ": " << workgroups * parts << " workgroups in " << parts
        << " parts of " << kTiles / parts << " K tiles";
  else
    why << ", but " << kTiles << " K tiles cannot be split into parts of at "
        << "least 2";
  return parts;
}
