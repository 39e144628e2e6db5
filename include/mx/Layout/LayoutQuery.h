//===- LayoutQuery.h - where each element of a data-tiled tile lives -*- C++
//-*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Answers, for one workgroup tile of a data-tiled layout, which wave, lane,
// register and bits hold each logical element of each operand, and draws it
// (plain-text table, SVG). Everything is read off the layout's swizzle
// (TiledLayoutAttrInterface::getSwizzle, getInnerTileSizes, getElementType):
// no layout formula is repeated here. What this file adds is the reading of
// a swizzled tile, which is the same for every target:
//
//  * the swizzled tile is stored densely in row-major order of its swizzled
//    shape, element i at bits [w i, w i + w) of the tile seen as one
//    little-endian integer (w = element width; so fp4 packs two values a
//    byte, the lower index in the low nibble, and fp6 packs densely);
//  * the Lane dimensions, linearized in swizzled order, number the lane; the
//    dimensions after the last Lane dimension are what one lane holds,
//    contiguously ("the lane's values"): bit b of them is bit b % 32 of the
//    lane's register b / 32 (registers counted from the lane's first one);
//  * the Internal dimensions, linearized in swizzled order, number the item
//    of the element within one instruction's operand;
//  * the Intrinsic dimensions of the row group (inner tile dimension 0) and
//    of the column group (dimension 1) give the intrinsic (MFMA) unroll
//    indices: M (lhs, lhs_scales, result rows), N (rhs, rhs_scales, result
//    columns) and K (lhs, rhs and scale columns);
//  * the waves of a workgroup are the Subgroup dimensions of the result,
//    linearized in swizzled order (M subgroups outermost); an A (B) element
//    is held by every wave whose M (N) subgroup coordinates equal those of
//    the element's Subgroup dimensions.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LAYOUT_LAYOUTQUERY_H
#define MX_LAYOUT_LAYOUTQUERY_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::mx::layout {

/// Where one element of an operand's workgroup tile lives.
struct ElementPlace {
  /// Coordinates in the unswizzled inner tile: (row, column) as
  /// getInnerTileSizes orders them ([M, K], [N, K], [M, K/32], [N, K/32],
  /// [M, N]).
  int64_t row = 0, col = 0;
  /// Waves of the workgroup that hold the element (ascending).
  SmallVector<int64_t, 4> waves;
  /// Intrinsic unroll indices; -1 where the operand has no such dimension.
  int64_t intrinsicM = -1, intrinsicN = -1, intrinsicK = -1;
  /// Lane of the wave (0..63).
  int64_t lane = 0;
  /// Index of the element within one intrinsic's operand of the lane (the
  /// Internal dimensions); 0 for an operand with none (scales).
  int64_t item = 0;
  /// Bit offset of the element within the lane's values.
  int64_t laneBit = 0;
  /// Bit offset of the element within the swizzled tile.
  int64_t tileBit = 0;
};

/// The places of every element of one operand's workgroup tile.
class OperandPlaces {
public:
  /// The largest tile (in elements) that get() tabulates.
  static constexpr int64_t kMaxElements = int64_t(1) << 22;

  /// Computes the places of `role` under `layout`; on a layout whose swizzle
  /// cannot be read as above (no Lane dimensions, subgroup dimensions that
  /// do not match the result's) or a tile of more than kMaxElements, returns
  /// failure with a message in `error`. `layout` must have its interface model
  /// registered.
  static FailureOr<OperandPlaces> get(TiledLayoutAttrInterface layout,
                                      OperandRole role, std::string &error);

  OperandRole getRole() const { return role; }
  Type getElementType() const { return elementType; }
  /// Element width in bits.
  int64_t getBits() const { return bits; }
  /// The inner tile sizes: rows, columns.
  int64_t getRows() const { return rows; }
  int64_t getCols() const { return cols; }
  /// Waves of a workgroup.
  int64_t getNumWaves() const { return numWaves; }
  /// Bits of one lane's values.
  int64_t getLaneBits() const { return laneBits; }
  /// Names of the row and column coordinates ("m", "k", "kb", "n").
  StringRef getRowName() const;
  StringRef getColName() const;

  /// The place of element (row, col) of the tile; both must be in range.
  const ElementPlace &at(int64_t row, int64_t col) const {
    return places[row * cols + col];
  }
  /// The elements whose bits overlap register `reg` of lane `lane` of wave
  /// `wave`, in tile bit order.
  SmallVector<const ElementPlace *> getHeldBy(int64_t wave, int64_t lane,
                                              int64_t reg) const;

private:
  OperandRole role = OperandRole::lhs;
  Type elementType;
  int64_t bits = 0, rows = 0, cols = 0, numWaves = 0, laneBits = 0;
  std::vector<ElementPlace> places;
};

/// The K extent of one instruction of `layout`, when every instruction takes
/// consecutive K values: instruction q of a K step (the K intrinsic index of
/// ElementPlace) takes K in [q * kStep, (q + 1) * kStep) of the workgroup
/// tile. That holds when the Intrinsic dimensions of the lhs tile's K group
/// come before its other dimensions in the expansion and keep their order in
/// the swizzle; otherwise returns nullopt.
std::optional<int64_t> getInstructionKStep(TiledLayoutAttrInterface layout);

/// Prints `place` of `operand` on one line: its tile coordinates, waves,
/// intrinsic, lane, item, and register and bytes (bits when not
/// byte-aligned) within the lane's values.
void printPlace(llvm::raw_ostream &os, const OperandPlaces &operand,
                const ElementPlace &place);

/// How many elements one drawn cell covers: runs of consecutive columns of a
/// row with the same waves, intrinsic and lane whose bits are contiguous in
/// the lane's values, cut at every element, every register boundary, or only
/// where the lane changes.
enum class CellSize { Element, Register, Lane };

/// A window of the tile to draw: rows [rowBegin, rowEnd), columns
/// [colBegin, colEnd); an end of -1 means the tile's size.
struct Window {
  int64_t rowBegin = 0, rowEnd = -1, colBegin = 0, colEnd = -1;
};

/// Prints the cells of `operand` within `window`, one line each, after a
/// header saying what the tile and columns are.
void printTable(llvm::raw_ostream &os, const OperandPlaces &operand,
                CellSize cells, Window window);

/// Draws the operands as one SVG document: per operand a grid of the
/// logical positions within `window`, one rectangle per cell coloured by
/// wave (shade alternating with the intrinsic), labelled with the lane and
/// the registers (data, accumulator) or bytes (scales) within the lane's
/// values.
void printSVG(llvm::raw_ostream &os, ArrayRef<const OperandPlaces *> operands,
              CellSize cells, Window window, StringRef title);

} // namespace mlir::mx::layout

#endif // MX_LAYOUT_LAYOUTQUERY_H
