//===- MXToLinalg.h - lower mx ops to linalg --------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_CONVERSION_MXTOLINALG_MXTOLINALG_H
#define MX_CONVERSION_MXTOLINALG_MXTOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace mx {

#define GEN_PASS_DECL_CONVERTMXTOLINALG
#include "mx/Conversion/Passes.h.inc"

/// The function, `(i32) -> ()`, that the host lowerings of
/// mx.grouped_scaled_contraction and mx.routed_scaled_contraction call
/// (instead of computing) when their routing is inconsistent, with an
/// InvalidRouting code; a runner defines it and reports the error.
inline constexpr char kInvalidRoutingReporter[] = "mx_report_invalid_routing";

/// What kInvalidRoutingReporter reports.
enum class InvalidRouting : int32_t {
  /// Grouped expert offsets not non-decreasing within [0, T].
  Offsets = 0,
  /// A routed row named by more than one position of sorted_ids.
  RepeatedRows = 1,
  /// A routed row named by no position, where the op promises
  /// all_rows_named.
  UnnamedRows = 2,
};

/// Adds the patterns that lower mx.quantize, mx.dequantize and
/// mx.scaled_contraction to linalg.generic with exact MX arithmetic, and
/// mx.grouped_scaled_contraction to a loop of mx.scaled_contraction.
void populateMXToLinalgPatterns(RewritePatternSet &patterns);

} // namespace mx
} // namespace mlir

#endif // MX_CONVERSION_MXTOLINALG_MXTOLINALG_H
