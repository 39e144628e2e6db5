//===- QuantizeProducer.h - elementwise producers of a quantize -*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mx-gfx950-lower-quantize computes an elementwise producer of its input in
// the quantize kernel (e.g. SwiGLU before the intermediate of a MoE layer is
// quantized): each block's 32 values are computed from the producer's
// inputs instead of being loaded from a buffer that a dispatch of its own
// wrote.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_TARGET_GFX950_TRANSFORMS_QUANTIZEPRODUCER_H
#define MX_LIB_TARGET_GFX950_TRANSFORMS_QUANTIZEPRODUCER_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::mx::gfx950::detail {

/// Whether `op` only allocates memory or touches none.
bool onlyAllocates(Operation *op);

/// Evaluates every result of `map` at `coords`.
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange coords);

/// The elementwise linalg.generic that writes `op`'s input, if the quantize
/// kernel can compute it instead: `op`'s input is a memref.alloc used only
/// as the generic's one output and as `op`'s input; the generic is
/// all-parallel over the input's shape with identity output map, does not
/// read its output, and only allocations lie between it and `op` (so its
/// inputs hold the same values at `op`). Null otherwise.
linalg::GenericOp getFusableProducer(QuantizeIntoOp op);

/// The 32 values of the block of `producer`'s output that starts at
/// `coords` (along `axis`, inside the output): the producer's body applied
/// to its inputs at each point (one 32-wide vector load per input whose map
/// sends the axis to a unit-stride innermost dimension, else a load per
/// value), as a vector of the output's element type.
Value emitProducerBlock(OpBuilder &b, Location loc, linalg::GenericOp producer,
                        int64_t axis, ArrayRef<Value> coords);

} // namespace mlir::mx::gfx950::detail

#endif // MX_LIB_TARGET_GFX950_TRANSFORMS_QUANTIZEPRODUCER_H
