//===- Prepack.h - weights packed once, outside the call --------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A function argument marked `mx.prepack` is a weight: the data-tiling
// relayout that mx-materialize-encodings builds for it runs once, at model
// load, in a function of its own (`@<f>_prepack_<argno>`), and the function
// takes the packed tensor, its argument naming the packing function in
// `mx.prepacked_by`. mx-hoist-argument-relayouts drives the rewrite; runners
// (mx-run, the C API) call the packing function on the logical weight first.
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_PREPACK_H
#define MX_DIALECT_MX_TRANSFORMS_PREPACK_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace mx {

/// The unit argument attribute of a `func.func` argument that is a weight:
/// pack it once, outside the function (the user's opt-in).
constexpr StringLiteral kPrepackAttrName = "mx.prepack";

/// The argument attribute (a flat symbol reference) of an argument that
/// takes the packed form of a weight: the function that packs it (one
/// argument, the logical weight; one result, the argument's type).
constexpr StringLiteral kPrepackedByAttrName = "mx.prepacked_by";

/// Outlines the relayout of every `mx.prepack` argument of \p func into a new
/// public function `@<func>_prepack_<argno>`, after \p func in argument
/// order (taking
/// the logical tensor and returning the relaid-out one), gives the argument
/// the relaid-out type and replaces `mx.prepack` with `mx.prepacked_by`. The
/// relayout is the forward slice of the argument through linalg.pack,
/// linalg.unpack, linalg.transpose, tensor.expand_shape,
/// tensor.collapse_shape, tensor.pad and tensor.cast (as their source), up
/// to the one tensor the rest of \p func uses; the other operands of those
/// ops (padding values, destinations) must be computed by side-effect-free
/// ops from no function argument, and are cloned. Emits an error at the
/// argument and fails when it cannot (another use, several relaid-out
/// tensors, no relayout, a called function); \p func may then be partially
/// rewritten. Returns the new functions.
FailureOr<SmallVector<func::FuncOp>>
hoistArgumentRelayouts(RewriterBase &rewriter, func::FuncOp func);

} // namespace mx
} // namespace mlir

#endif // MX_DIALECT_MX_TRANSFORMS_PREPACK_H
