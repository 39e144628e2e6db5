//===- ThreadStores.h - a dispatch thread's stores --------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How convert-linalg-to-gpu-dispatches deals an op's iteration points out to
// threads, and how a thread stores its points: one vector, or only where a
// condition holds (a destination the op's body keeps elsewhere).
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_CONVERSION_LINALGTOGPU_THREADSTORES_H
#define MX_LIB_CONVERSION_LINALGTOGPU_THREADSTORES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::mx::detail {

/// How the iteration points of an op are dealt out to threads: each thread
/// owns `vector` consecutive points of the loop order, spanning the
/// innermost `groupRank` loops (of `groupSize` points in all) when `vector`
/// is above 1.
struct ThreadChunking {
  int64_t vector = 1;
  int64_t groupRank = 1;
  int64_t groupSize = 1;
};

/// Stores `values`, the thread's `vector` points of the identity-mapped
/// `dest`, as one vector at `base` of the innermost group collapsed into
/// one dimension; with `conditions` (one per point) only the points whose
/// condition holds: the vector where all do, else point by point (unless
/// every point's condition is the same value, reading no buffer of
/// `written`).
void storeVector(OpBuilder &b, Location loc, ArrayRef<Value> values, Value dest,
                 ArrayRef<Value> chunk, Value base,
                 const ThreadChunking &chunking,
                 ArrayRef<Value> conditions = {}, ArrayRef<Value> written = {});

/// The select that yields init `i` of `op` where its condition holds and
/// the init's own element elsewhere (a destination kept where the result
/// is undefined: mx.gather_row_tiles' undefined_empty_tiles), or null: the
/// dispatch stores only where the condition holds, reading nothing.
arith::SelectOp getKeptDestinationSelect(linalg::LinalgOp op, int64_t i);

} // namespace mlir::mx::detail

#endif // MX_LIB_CONVERSION_LINALGTOGPU_THREADSTORES_H
