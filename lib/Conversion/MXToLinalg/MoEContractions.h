//===- MoEContractions.h - MoE contractions to linalg -----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Conversion/MXToLinalg: the lowerings of the grouped and
// routed (mixture-of-experts) contractions and of mx.quantize_into, which
// populateMXToLinalgPatterns adds with the others.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_CONVERSION_MXTOLINALG_MOECONTRACTIONS_H
#define MX_LIB_CONVERSION_MXTOLINALG_MOECONTRACTIONS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::mx::detail {
/// Adds the lowerings of mx.grouped_scaled_contraction and
/// mx.routed_scaled_contraction to `patterns`.
void populateMoEContractionLoweringPatterns(RewritePatternSet &patterns);
/// Adds the lowering of mx.quantize_into on tensors with MX-typed
/// destinations (QuantizeInto.cpp) to `patterns`.
void populateQuantizeIntoLoweringPatterns(RewritePatternSet &patterns);
} // namespace mlir::mx::detail

#endif // MX_LIB_CONVERSION_MXTOLINALG_MOECONTRACTIONS_H
