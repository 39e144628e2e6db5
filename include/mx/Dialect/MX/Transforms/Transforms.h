//===- Transforms.h - rewrites of the mx dialect's stages -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The rewrite of every stage in lib/Dialect/MX/Transforms, as functions a
// downstream compiler calls inside its own pipeline; each mx-* pass of this
// folder is a thin driver over one of them. A function on one op takes a
// RewriterBase and returns the op's replacement, or a null one when the op
// does not qualify and is left unchanged; failure means an error was
// emitted. A target-dependent rewrite takes the LayoutResolverAttrInterface
// to ask (the passes pass the `mx.target` of the nearest enclosing op, else
// their `target` option's, mx::getEnclosingTarget).
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_TRANSFORMS_H
#define MX_DIALECT_MX_TRANSFORMS_TRANSFORMS_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace linalg {
class GenericOp;
} // namespace linalg

namespace mx {

//===----------------------------------------------------------------------===//
// mx-raise-scaled-matmul
//===----------------------------------------------------------------------===//

/// What raiseScaledMatmul recognizes in a linalg.generic it raises.
struct ScaledMatmulMatch {
  /// The body's f32 product `scaling_extf(a, sa) * scaling_extf(b, sb)`,
  /// the term that the generic adds to its init at every point: the raised
  /// mx.scaled_contraction sums these terms over K in an order of its own
  /// (the generic's loop order is not kept).
  Value product;
};

/// Returns what raiseScaledMatmul would raise `op` as, or failure when it
/// would leave `op` unchanged; emits no diagnostics. The one home of the
/// match: raiseScaledMatmul raises exactly the ops this accepts.
FailureOr<ScaledMatmulMatch> matchScaledMatmul(linalg::GenericOp op);

/// Replaces `op`, a linalg.generic on tensors computing
/// `out + scaling_extf(a, sa) * scaling_extf(b, sb)` in f32 (flat K, or K
/// expanded into blocks and the 32 elements of a block), by an
/// mx.scaled_contraction. Fails when `op` is not of that form; when its body
/// uses arith.scaling_extf, a remark on `op` says why.
FailureOr<ScaledContractionOp> raiseScaledMatmul(RewriterBase &rewriter,
                                                 linalg::GenericOp op);

//===----------------------------------------------------------------------===//
// mx-raise-quantize
//===----------------------------------------------------------------------===//

/// Replaces `op`, a linalg.generic on tensors yielding
/// `arith.scaling_truncf(x, s)` with `s` the block amax of `x` times
/// 2^-emax converted to f8E8M0FNU (the upstream MX quantization, see the
/// pass), by the elements of an mx.quantize with `scale(floor)`; the
/// generics computing the E8M0 scales of the same amax become its scales
/// (they are erased). Fails when `op` is not of that form; when it uses
/// arith.scaling_truncf, a remark on `op` says why.
FailureOr<QuantizeOp> raiseQuantize(RewriterBase &rewriter,
                                    linalg::GenericOp op);

/// Replaces `op`, a linalg.generic on tensors yielding
/// `arith.scaling_extf(x, s)` with one scale per block of 32 of the last
/// dimension, by an mx.dequantize. Fails when `op` is not of that form; when
/// it uses arith.scaling_extf, a remark on `op` says why.
FailureOr<DequantizeOp> raiseDequantize(RewriterBase &rewriter,
                                        linalg::GenericOp op);

//===----------------------------------------------------------------------===//
// mx-specialize-dynamic-m
//===----------------------------------------------------------------------===//

/// Versions `op`, a contraction whose only dynamic loop is its one M
/// dimension, per M bucket of `target` (getDynamicMBuckets): an scf.if
/// chain selects at run time the copy whose `mx.layout` the target resolved
/// for the bucket's bound (`mx.m_bound`), else the unversioned op. The
/// chain of elementwise linalg.generic consumers of the result is copied
/// into each version. Returns the value that replaces the chain's last
/// result, null when `op` does not qualify or `target` has no buckets.
FailureOr<Value> specializeDynamicM(RewriterBase &rewriter,
                                    ScaledContractionOp op,
                                    LayoutResolverAttrInterface target);

//===----------------------------------------------------------------------===//
// mx-set-encodings
//===----------------------------------------------------------------------===//

/// Wraps the five operands of `op` in mx.set_encoding and its result in
/// mx.unset_encoding, with the #mx.encoding of each operand role; a pinned
/// `mx.layout` moves into the encodings. With `onlyStatic`, a contraction
/// with dynamic loop sizes is left alone (null result). Fails (with an
/// error) when `mx.layout` is not a data-tiled layout.
FailureOr<UnsetEncodingOp> setEncodings(RewriterBase &rewriter,
                                        ScaledContractionOp op,
                                        bool onlyStatic = false);

//===----------------------------------------------------------------------===//
// mx-materialize-encodings
//===----------------------------------------------------------------------===//

/// Options of materializeEncodings.
struct MaterializeEncodingsOptions {
  /// An accumulator already in the tiled order [batch.., m, n] that only
  /// contractions use stays in the user's layout (no relayout).
  bool userLayoutResults = false;
};

/// The layout `encoding` of an operand of `op` resolves to: the layout it
/// pins, else the choice of `target` (an error if null).
FailureOr<TiledLayoutAttrInterface>
resolveEncodingLayout(Operation *op, EncodingAttr encoding,
                      LayoutResolverAttrInterface target);

/// Materializes every encoding under `root`: mx.set_encoding and
/// mx.unset_encoding become relayouts (linalg.pack + tensor.expand_shape +
/// linalg.transpose and their inverse), an encoded mx.scaled_contraction an
/// mx.tiled_scaled_mma, and mx.grouped_scaled_contraction and
/// mx.routed_scaled_contraction one mx.tiled_scaled_mma over gathered row
/// tiles (materializeGroupedContraction, materializeRoutedContraction). The
/// target of an op is getEnclosingTarget(op, defaultTarget).
LogicalResult materializeEncodings(RewriterBase &rewriter, Operation *root,
                                   LayoutResolverAttrInterface defaultTarget,
                                   const MaterializeEncodingsOptions &options);

/// mx.grouped_scaled_contraction -> one mx.tiled_scaled_mma over every
/// expert: each expert's rows are gathered into tiles of their own
/// (mx.gather_row_tiles, by a tile table), the experts' weights are tiled
/// with the experts as a leading dimension, and the accumulator stays in
/// the user's layout. Returns the tiled op's result (`op` is not replaced).
FailureOr<Value>
materializeGroupedContraction(OpBuilder &builder, GroupedScaledContractionOp op,
                              LayoutResolverAttrInterface target);

/// mx.routed_scaled_contraction -> one mx.tiled_scaled_mma over every block
/// of the sorted routed rows (mx.gather_rows), the tiles' rows of the
/// accumulator named by the sorted ids. Returns the tiled op's result (`op`
/// is not replaced).
FailureOr<Value>
materializeRoutedContraction(OpBuilder &builder, RoutedScaledContractionOp op,
                             LayoutResolverAttrInterface target);

//===----------------------------------------------------------------------===//
// mx-split-k
//===----------------------------------------------------------------------===//

/// Splits the K tiles of `op` into the number of parts `target` asks for
/// (resolveSplitK): the parts become a leading batch dimension of a new
/// mx.tiled_scaled_mma (marked `mx.split_k`) and a linalg.generic adds their
/// sums in K order. Returns that sum, which replaces `op`; null when `op` is
/// not split (one part, grouped, with an epilogue or without result). Fails
/// with an error when the parts do not divide the K tiles.
FailureOr<Value> splitK(RewriterBase &rewriter, TiledScaledMMAOp op,
                        LayoutResolverAttrInterface target);

//===----------------------------------------------------------------------===//
// mx-fuse-quantize-relayouts
//===----------------------------------------------------------------------===//

/// Replaces `op` by one mx.quantize_into that writes each relayout chain
/// (linalg.pack, then tensor.expand_shape and linalg.transpose ops) that
/// consumes its elements or scales directly in the chain's layout, and the
/// plain layout for any other use. Returns the new op, or null when the
/// results of `op` are unused.
FailureOr<QuantizeIntoOp> fuseQuantizeRelayouts(RewriterBase &rewriter,
                                                QuantizeOp op);

//===----------------------------------------------------------------------===//
// mx-pack-to-bytes
//===----------------------------------------------------------------------===//

/// The attribute that keeps the logical type of a packed function argument
/// or result.
inline constexpr StringLiteral kPackedTypeAttrName = "mx.packed_type";

/// Stores every MX element and scale tensor of `func` as i8 tensors whose
/// innermost dimension counts bytes (sub-byte elements packed, low bits
/// first), rewriting the ops between them; arguments and results change
/// type and keep their logical one in `mx.packed_type`. Fails with an error
/// on an op that cannot operate on packed data.
LogicalResult packToBytes(func::FuncOp func);

//===----------------------------------------------------------------------===//
// mx-fuse-relayouts
//===----------------------------------------------------------------------===//

/// Replaces every chain of relayout ops (tensor reshapes, linalg.transpose,
/// tensor.pad, slices, mx.gather_rows, mx.gather_row_tiles) under `root`
/// with one linalg.generic that reads each element of the result from the
/// chain's source, then resolves the dynamic sizes of the replaced chains
/// in terms of their sources.
LogicalResult fuseRelayouts(RewriterBase &rewriter, Operation *root);

//===----------------------------------------------------------------------===//
// mx-fuse-epilogues
//===----------------------------------------------------------------------===//

/// Why `target`'s kernels cannot compute an op of `body` (a GEMM's
/// epilogue or another consumer its kernel computes), or "" if they can
/// compute every op (always with a null `target`).
std::string whyTargetCannotCompute(LayoutResolverAttrInterface target,
                                   Block &body);

/// Folds the elementwise linalg.generic that is the only user of `op`'s
/// result into `op`'s epilogue, if `target` can run it there. Returns the
/// new op (which replaces the generic), or null when it is not fused; a
/// remark on `op` then says why when there is such a consumer.
FailureOr<TiledScaledMMAOp> fuseEpilogue(RewriterBase &rewriter,
                                         TiledScaledMMAOp op,
                                         LayoutResolverAttrInterface target);

} // namespace mx
} // namespace mlir

#endif // MX_DIALECT_MX_TRANSFORMS_TRANSFORMS_H
