//===- MXOps.h - mx dialect operations --------------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXOPS_H
#define MX_DIALECT_MX_IR_MXOPS_H

#include "mx/Dialect/MX/IR/MXDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "mx/Dialect/MX/IR/MXEnums.h.inc"
#include "mx/Dialect/MX/IR/TileSwizzle.h"

#include "mx/Dialect/MX/IR/MXInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mx/Dialect/MX/IR/MXAttrs.h.inc"

namespace mlir::mx {

/// The MX block size: one E8M0 scale per this many consecutive elements along
/// the blocked (reduction) dimension.
constexpr int64_t kBlockSize = 32;

/// Returns true if `type` is one of the MX element types (f4E2M1FN,
/// f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2).
bool isMXElementType(Type type);

/// Returns true if `type` is a floating-point type narrower than a byte
/// (f4E2M1FN, f6E2M3FN, f6E3M2FN): such tensors are stored packed.
bool isSubByteType(Type type);

/// The number of bytes `count` consecutive elements of the sub-byte type
/// `type` take when packed densely (element i in the bits [w*i, w*i + w) of
/// the little-endian byte string, like an LLVM vector). Fails unless
/// `count * w` is a multiple of 8 (the packed row must end on a byte).
FailureOr<int64_t> getPackedByteCount(Type type, int64_t count);

/// The source row of a row gathered by the i32 `id` with `divisor` (the row
/// formula of mx.gather_rows and of mx.quantize_into's gather) from a source
/// of `sourceRows` rows: `id / divisor` clamped into the source (so that a
/// read there is in bounds), and whether it is a row of the source (the id
/// is non-negative and `id / divisor < sourceRows`).
std::pair<Value, Value> buildGatheredSourceRow(OpBuilder &b, Location loc,
                                               Value id, int64_t divisor,
                                               Value sourceRows);

/// The destination of `acc` when it is a fill with +0.0 (a linalg.fill, or
/// a linalg.generic without inputs whose body only yields +0.0), else null.
Value getPositiveZeroFillDestination(Value acc);

/// The largest intrinsic unroll count of a data-tiled layout along one
/// dimension (intrinsics_m, _n or _k); it keeps every tile size and byte count
/// computed from a layout far from int64 overflow.
constexpr int64_t kMaxIntrinsicUnroll = 256;
/// The most waves (subgroups_m * subgroups_n) of one workgroup: 1024 threads.
constexpr int64_t kMaxSubgroups = 16;

/// Verifies the unroll and wave counts of a data-tiled layout against the
/// limits above: each at least 1, or, with `zeroIsUnpinned` (the pins of a
/// target, where 0 leaves the choice to the resolver), at least 0. The one
/// validation of these counts, for layouts and for targets' pins.
LogicalResult verifyTileCounts(function_ref<InFlightDiagnostic()> emitError,
                               int64_t intrinsicsM, int64_t intrinsicsN,
                               int64_t intrinsicsK, int64_t subgroupsM,
                               int64_t subgroupsN, bool zeroIsUnpinned);

/// Verifies that `intrinsic` describes a scaled MMA the layouts can tile
/// (ScaledMMAIntrinsicAttrInterface): K a multiple of the block size, and for
/// every role, with lhs and rhs of `lhsType` and `rhsType`, a swizzle that
/// expands the intrinsic tile into lanes (at most the subgroup's) followed
/// by values.
LogicalResult
verifyScaledMMAIntrinsic(function_ref<InFlightDiagnostic()> emitError,
                         ScaledMMAIntrinsicAttrInterface intrinsic,
                         Type lhsType, Type rhsType);

/// Roles of the iteration dimensions of an `mx.scaled_contraction`, as
/// positions in its iteration space.
struct ScaledContractionDims {
  SmallVector<unsigned> batch;
  SmallVector<unsigned> m;
  SmallVector<unsigned> n;
  unsigned k = 0;
};

/// Classifies the iteration dimensions of a scaled contraction from its
/// (lhs, rhs, acc) indexing maps. Fails, emitting an error on `op` unless it
/// is null, when the maps do not describe one.
FailureOr<ScaledContractionDims>
inferScaledContractionDims(Operation *op, ArrayRef<AffineMap> maps);

} // namespace mlir::mx

#include "mx/Dialect/MX/IR/MXTargetInterfaces.h.inc"

namespace mlir::mx {

/// The target (layout resolver) of `op`: the `mx.target` attribute of the
/// nearest op enclosing `op` (`op` included) that has one; else `fallback`
/// (e.g. a pass's `target` option; null by default).
LayoutResolverAttrInterface
getEnclosingTarget(Operation *op, LayoutResolverAttrInterface fallback = {});

/// Parses `text`, the `target` option of the pass `passName`, as a target
/// attribute (a LayoutResolverAttrInterface; null for an empty `text`);
/// errors name the pass.
FailureOr<LayoutResolverAttrInterface>
parseTargetOption(MLIRContext *ctx, StringRef text, StringRef passName);

} // namespace mlir::mx

#define GET_OP_CLASSES
#include "mx/Dialect/MX/IR/MXOps.h.inc"

#endif // MX_DIALECT_MX_IR_MXOPS_H
