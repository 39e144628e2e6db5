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

/// The function, `() -> ()`, that the host lowering of
/// mx.grouped_scaled_contraction calls (instead of computing) when the expert
/// offsets are inconsistent; a runner defines it and reports the error.
inline constexpr char kInvalidOffsetsReporter[] = "mx_report_invalid_offsets";

/// Adds the patterns that lower mx.quantize, mx.dequantize and
/// mx.scaled_contraction to linalg.generic with exact MX arithmetic, and
/// mx.grouped_scaled_contraction to a loop of mx.scaled_contraction.
void populateMXToLinalgPatterns(RewritePatternSet &patterns);

} // namespace mx
} // namespace mlir

#endif // MX_CONVERSION_MXTOLINALG_MXTOLINALG_H
