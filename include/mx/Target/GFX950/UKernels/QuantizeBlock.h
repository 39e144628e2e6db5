//===- QuantizeBlock.h - one MX block quantized in registers ----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The code that quantizes one block of 32 values held by one thread: its
// amax, its scale byte and its element codes, from gfx950's packed scaled
// conversions where they give exactly the rounding asked for, else from the
// exact arithmetic of QuantizeArith. The quantize kernels
// (mx-gfx950-lower-quantize) and the ukernels that quantize an operand in
// registers (its hook @mx_uk_quantize_lhs) both use it.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_UKERNELS_QUANTIZEBLOCK_H
#define MX_TARGET_GFX950_UKERNELS_QUANTIZEBLOCK_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::mx::gfx950 {

/// One block of 32 values, quantized.
struct QuantizedBlock {
  /// The E8M0 scale byte (i8).
  Value scaleByte;
  /// Without packed conversions: the i8 code of each element.
  SmallVector<Value> codes;
  /// With packed conversions (fp4): the 16 bytes of the block, two codes per
  /// byte in order along the block.
  SmallVector<Value> packedBytes;
};

/// Whether gfx950's packed scaled conversions give exactly the codes of
/// `rounding` for `elementType` from `inputType` values: fp4 with
/// nearest-even from any input, and ties-away from bf16 (see quantizeBlock).
bool canUsePackedConversions(FloatType elementType, Rounding rounding,
                             Type inputType);

/// Quantizes `block` (a vector of 32 bf16, f16 or f32 values) with `scale`
/// and `rounding` to `elementType`; the codes come from the packed
/// conversions when `packedConversions` (which canUsePackedConversions must
/// allow).
QuantizedBlock quantizeBlock(OpBuilder &b, Location loc, Value block,
                             ScaleRule scale, Rounding rounding,
                             FloatType elementType, bool packedConversions);

/// All bytes of a quantized block of `elementType`, in order.
SmallVector<Value> getBlockBytes(OpBuilder &b, Location loc,
                                 const QuantizedBlock &block,
                                 FloatType elementType);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_UKERNELS_QUANTIZEBLOCK_H
