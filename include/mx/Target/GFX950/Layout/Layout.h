//===- Layout.h - gfx950 scaled-MFMA facts and data-tiled layouts -*- C++
//-*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place that knows how gfx950's scaled MFMA instructions lay their
// operands out over the 64 lanes of a wave (CDNA4 ISA, "F8F6F4 MFMA" tables),
// which #mx_gfx950.scaled_mfma gives the core's #mx.data_tiled_layout to
// compose each operand's swizzle from; and the resolver's layout choices.
// Nothing else (ukernels, emulator checks, layout pictures) has lane tables.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_LAYOUT_LAYOUT_H
#define MX_TARGET_GFX950_LAYOUT_LAYOUT_H

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/IR/TileSwizzle.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"

namespace mlir::mx::gfx950 {

/// Shape facts of one scaled MFMA instruction.
struct IntrinsicInfo {
  /// Rows of A / columns of B / the square accumulator size.
  int64_t m, n;
  /// Reduction depth (elements).
  int64_t k;
  /// Lane groups along K: lane = row + m * group, group in [0, kGroups).
  int64_t kGroups;
  /// f32 accumulator values per lane.
  int64_t accPerLane;
};

IntrinsicInfo getIntrinsicInfo(ScaledMMAIntrinsic intrinsic);
/// The facts of `intrinsic`, a `#mx_gfx950.scaled_mfma`.
IntrinsicInfo getIntrinsicInfo(ScaledMMAIntrinsicAttrInterface intrinsic);

/// The instruction of `intrinsic`, a `#mx_gfx950.scaled_mfma`.
ScaledMMAIntrinsic getIntrinsic(ScaledMMAIntrinsicAttrInterface intrinsic);
/// The instruction of `layout`, whose intrinsic is a
/// `#mx_gfx950.scaled_mfma`.
ScaledMMAIntrinsic getIntrinsic(DataTiledLayoutAttr layout);

/// `layout` if it is a gfx950 data-tiled layout (an `#mx.data_tiled_layout`
/// whose intrinsic is a `#mx_gfx950.scaled_mfma`), else null: what the
/// gfx950 code takes from the IR instead of a plain dyn_cast, since the
/// core's layouts may carry any target's intrinsic.
DataTiledLayoutAttr getDataTiledLayout(Attribute layout);

/// The workgroup tile of a layout: M, N and K (in elements).
struct TileSizes {
  int64_t m, n, k;
};
TileSizes getTileSizes(DataTiledLayoutAttr layout);

/// Lanes of a wave.
constexpr int64_t kWaveSize = 64;
/// The global address space the kernels read and write.
constexpr int64_t kGlobalAddressSpace = 1;
/// The workgroup (LDS) address space.
constexpr int64_t kLDSAddressSpace = 3;
/// The private (per-lane) address space, where the GEMM kernels keep their
/// accumulator arrays.
constexpr int64_t kPrivateAddressSpace = 5;
/// The largest count of the vector memory counter (vmcnt, 6 bits).
constexpr int64_t kMaxLoadCount = 63;
/// The largest count of the LDS counter (lgkmcnt, 4 bits).
constexpr int64_t kMaxLDSCount = 15;
/// LDS per workgroup (CDNA4: 160 KiB).
constexpr int64_t kLDSBytes = 160 * 1024;
/// Accumulation registers available per lane (AGPRs).
constexpr int64_t kAccRegisters = 256;
/// Compute units of an MI355X (gfx950): workgroups that run at once, one
/// per CU, for the ukernels' one-workgroup-per-CU tiles.
constexpr int64_t kNumCUs = 256;
/// The largest M that resolveLayout treats as decode (small M: it fills the
/// CUs before maximizing the tile's intensity).
constexpr int64_t kSmallM = 64;
/// The most parts a GEMM's K loop is split into (mx-split-k).
constexpr int64_t kMaxSplitK = 64;

/// The lane layout of one `intrinsic` tile of `role` whose elements are of
/// `elementType` (ScaledMMAIntrinsicAttrInterface::getIntrinsicSwizzle).
///
/// Per intrinsic (m = n = 16, K = 128, 4 lane groups; or m = n = 32, K = 64,
/// 2 lane groups), with lane = r + m * g:
///  * A (and B with its column n for the row): fp4/fp6 item t of lane l is
///    A[r][32 g + t]; fp8 item t = 16 h + u is A[r][h K/2 + 16 g + u] (two
///    16-element K chunks per lane, as the ISA tables say).
///  * Scales: lane l holds the scale of row r, K-block g (one byte).
///  * Accumulator: 16x16: item v of lane l is D[r][4 g + v]; 32x32: item v is
///    D[r][8 (v / 4) + 4 g + v % 4]. That is the ISA's C/D layout of the
///    transposed tile (D^T[4 g + v][r]): the ukernels give the MFMA B as
///    src0 and A as src1 (D^T = B A^T), so that a lane holds runs of 4
///    consecutive columns of one row, stored to (or loaded from) a row-major
///    result as one vector.
/// The lanes are the dimension pair (g, r), slowest first, the lane's own
/// values the fastest. `#mx.data_tiled_layout` adds the subgroup and unroll
/// dimensions (DataTiledLayoutAttr::getSwizzle).
TileSwizzle getIntrinsicSwizzle(ScaledMMAIntrinsic intrinsic, OperandRole role,
                                Type elementType);

/// The swizzle of the inner tile of `role` under `layout`
/// (`layout.getSwizzle(role)`).
TileSwizzle getSwizzle(DataTiledLayoutAttr layout, OperandRole role);

/// Unswizzled inner tile sizes of `role` (see TiledLayoutAttrInterface).
SmallVector<int64_t> getInnerTileSizes(DataTiledLayoutAttr layout,
                                       OperandRole role);

/// Static resource use of one workgroup tile of `layout`.
struct LayoutCost {
  /// Accumulator registers per lane.
  int64_t accRegisters;
  /// LDS bytes of the ukernels' staging (two K steps of A and B, or A's
  /// stages only where B is private and A and B do not fit) and, where it
  /// fits, of A's scales (getUKernelLDSBytes).
  int64_t ldsBytes;
  /// LDS bytes of two K steps of A and B (2 x getUKernelStageBytes). The
  /// resolver proposes only tiles where these fit; the larger tiles that fit
  /// with A's stages only (private B) run where the pins or the
  /// configuration table ask for them: the resolver has no register model,
  /// and its picks among them spilled (decode tiles of 64 x 1024).
  int64_t stagedBytes;
  /// Intrinsics (MFMAs) per K step of the workgroup tile.
  int64_t mfmasPerKStep;
};
LayoutCost getLayoutCost(DataTiledLayoutAttr layout);

/// Chooses a data-tiled layout for a contraction of `lhsType` x `rhsType`
/// with iteration sizes `m`, `n`, `k` (ShapedType::kDynamic when unknown).
///
/// Objective: maximize the MFMAs per byte loaded per K step (the tile's
/// arithmetic intensity, tileM * tileN / (tileM * bytesA + tileN * bytesB)),
/// subject to: accumulators fit the 256 AGPRs of a lane, the double-buffered
/// K step fits the 160 KiB of LDS, at most 4 waves (one per SIMD, so every
/// SIMD runs at least one wave), and tiles no larger than the problem
/// (rounded up to the intrinsic; the K step to the base step below). For
/// small M (at most kSmallM, decode), the number of workgroups that find a
/// CU (output tiles, up to kNumCUs) comes first: a 16-row tile and narrow N
/// tiles spread the weights over the GPU (mx-split-k then splits K if that
/// is not enough). Small M that is never split along K (`splitK` false)
/// ranks the tiles whose workgroups fit one round of the CUs first, the
/// shortest chain of K steps on a CU first (each step waits about one
/// global latency for its weights, then streams its bytes at the CU's L2
/// bandwidth; MachineModel.def's constants), then the intensity, then the
/// CUs filled. The K step covers 128
/// bytes of each A/B row
/// (one cache line), so intrinsics_k = 128 B / (K * element bytes); twice or
/// four times that is also a candidate (small tiles need it for whole 4-byte
/// scale groups per lane), the shortest preferred. Ties prefer more waves,
/// then fewer accumulators. If no tile within the problem qualifies (with
/// requireUKernel, small problems may have none), the least padded tile
/// within the hardware limits wins; only pins may break the hardware
/// limits. Scales interleave the M (N) and K unroll innermost, so one lane
/// reads all scale bytes of its intrinsics with one load. The non-zero
/// parameters of `target` pin the layout's, and with its `require_ukernel`
/// only layouts a gfx950 ukernel serves (selectUKernel) are candidates.
/// `groups` GEMMs of this shape run in the same launch (a batch, or the
/// experts of a grouped GEMM), which multiplies the workgroups; with
/// `splitK` false (a grouped GEMM) the K loop is never split.
DataTiledLayoutAttr resolveLayout(MLIRContext *ctx, Type lhsType, Type rhsType,
                                  int64_t m, int64_t n, int64_t k,
                                  TargetAttr target, int64_t groups = 1,
                                  bool splitK = true);

/// Into how many parts to split the K loop of a GEMM of `workgroups` output
/// tiles (batch x M tiles x N tiles; ShapedType::kDynamic when unknown) and
/// `kTiles` K tiles: a divisor of `kTiles`. `pinned` (the target's
/// `split_k`; 0: none) wins, rounded down to a divisor. Otherwise a GEMM
/// with fewer tiles than CUs (decode) is split into the fewest parts that
/// give every CU a workgroup, each part keeping at least two K tiles (so
/// the ukernel's copies of the next K step overlap the MFMAs); one with
/// enough tiles, or an unknown count, is not split. The reason of the
/// choice goes to `why`.
int64_t chooseSplitK(int64_t workgroups, int64_t kTiles, int64_t pinned,
                     raw_ostream &why);

/// The entry of `target`'s configuration table (config_table: "" the
/// embedded one, "none" none, else a file) for a contraction of `lhsType` x
/// `rhsType` of sizes M, N, K; null when no entry matches (or M is
/// dynamic); failure, with the reason in `error`, when the table cannot be
/// read. An entry for another intrinsic than the one `target` pins does not
/// match: its tile sizes count that intrinsic's shapes.
FailureOr<const ConfigEntry *> lookupConfig(TargetAttr target, Type lhsType,
                                            Type rhsType, int64_t m, int64_t n,
                                            int64_t k, std::string &error);

/// `target` with the pins of `entry` where `target` pins nothing (the
/// target's own pins win).
TargetAttr applyConfig(TargetAttr target, const ConfigEntry &entry);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_LAYOUT_LAYOUT_H
