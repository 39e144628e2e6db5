//===- LayoutQuery.cpp - where each element of a data-tiled tile lives ----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Layout/LayoutQuery.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::layout;

using Kind = TileSwizzle::Kind;

namespace {
/// One dimension of a swizzled tile, with the inner tile dimension (group)
/// it was expanded from.
struct SwizzledDim {
  Kind kind;
  int64_t size;
  unsigned group;
};
} // namespace

/// The dimensions of `swizzle`'s swizzled tile, in swizzled order.
static SmallVector<SwizzledDim> getSwizzledDims(const TileSwizzle &swizzle) {
  SmallVector<SwizzledDim> expanded;
  for (auto [group, dims] : llvm::enumerate(swizzle.expandShape))
    for (const TileSwizzle::Dim &dim : dims)
      expanded.push_back({dim.kind, dim.size, unsigned(group)});
  SmallVector<SwizzledDim> result;
  for (int64_t e : swizzle.permutation)
    result.push_back(expanded[e]);
  return result;
}

/// Linearizes the coordinates `position` of the dimensions of `dims` that
/// `pred` selects, in their order.
template <typename Pred>
static int64_t linearize(ArrayRef<SwizzledDim> dims, ArrayRef<int64_t> position,
                         Pred pred) {
  int64_t value = 0;
  for (auto [dim, p] : llvm::zip_equal(dims, position))
    if (pred(dim))
      value = value * dim.size + p;
  return value;
}

/// The product of the sizes of the dimensions `pred` selects.
template <typename Pred>
static int64_t product(ArrayRef<SwizzledDim> dims, Pred pred) {
  int64_t value = 1;
  for (const SwizzledDim &dim : dims)
    if (pred(dim))
      value *= dim.size;
  return value;
}

/// The inner tile group of `role` whose subgroups are the result's group
/// `resultGroup` (0: M, 1: N), or -1 when none is.
static int getSubgroupGroup(OperandRole role, unsigned resultGroup) {
  switch (role) {
  case OperandRole::lhs:
  case OperandRole::lhs_scales:
    return resultGroup == 0 ? 0 : -1;
  case OperandRole::rhs:
  case OperandRole::rhs_scales:
    return resultGroup == 1 ? 0 : -1;
  case OperandRole::result:
    return resultGroup;
  }
  llvm_unreachable("unknown role");
}

namespace {
/// The waves of a workgroup: the result's Subgroup dimensions, in swizzled
/// order, and per wave its linear M and N subgroup indices.
struct Waves {
  SmallVector<SwizzledDim> dims;
  SmallVector<std::array<int64_t, 2>> subgroups;
};
} // namespace

/// The waves of the workgroup of `layout`.
static Waves getWaves(TiledLayoutAttrInterface layout) {
  Waves waves;
  SmallVector<SwizzledDim> resultDims =
      getSwizzledDims(layout.getSwizzle(OperandRole::result));
  llvm::copy_if(resultDims, std::back_inserter(waves.dims),
                [](const SwizzledDim &d) { return d.kind == Kind::Subgroup; });
  int64_t numWaves =
      product(waves.dims, [](const SwizzledDim &) { return true; });
  for (int64_t w = 0; w < numWaves; ++w) {
    SmallVector<int64_t> coords(waves.dims.size());
    int64_t rest = w;
    for (int64_t d = int64_t(waves.dims.size()) - 1; d >= 0; --d) {
      coords[d] = rest % waves.dims[d].size;
      rest /= waves.dims[d].size;
    }
    std::array<int64_t, 2> index;
    for (unsigned g = 0; g < 2; ++g)
      index[g] = linearize(waves.dims, coords,
                           [g](const SwizzledDim &d) { return d.group == g; });
    waves.subgroups.push_back(index);
  }
  return waves;
}

/// Checks the tile of `role` against `layout`'s limits: elements with a bit
/// width, a two-dimensional inner tile (returned as rows, columns) of at
/// most `maxElements` elements.
static FailureOr<std::pair<int64_t, int64_t>>
getTileSizes(TiledLayoutAttrInterface layout, OperandRole role,
             int64_t maxElements, std::string &error) {
  if (layout.getElementType(role).getIntOrFloatBitWidth() < 1) {
    error = "the elements of " + stringifyOperandRole(role).str() +
            " have no bit width";
    return failure();
  }
  SmallVector<int64_t> sizes = layout.getInnerTileSizes(role);
  if (sizes.size() != 2) {
    error = "the inner tile of " + stringifyOperandRole(role).str() +
            " is not two-dimensional";
    return failure();
  }
  if (sizes[0] * sizes[1] > maxElements) {
    error = "the " + stringifyOperandRole(role).str() + " tile has " +
            std::to_string(sizes[0] * sizes[1]) + " elements, more than the " +
            std::to_string(maxElements) + " this tool tabulates";
    return failure();
  }
  return std::make_pair(sizes[0], sizes[1]);
}

/// The position of the last Lane dimension of `dims` (the swizzled
/// dimensions of `role`): those after it are the values of one lane.
static FailureOr<size_t> getLastLaneDim(ArrayRef<SwizzledDim> dims,
                                        OperandRole role, std::string &error) {
  std::optional<size_t> lastLane;
  for (auto [j, dim] : llvm::enumerate(dims))
    if (dim.kind == Kind::Lane)
      lastLane = j;
  if (!lastLane) {
    error = "the swizzle of " + stringifyOperandRole(role).str() +
            " has no lane dimensions";
    return failure();
  }
  return *lastLane;
}

/// Checks that the swizzle of `role` (its dimensions `dims`) distributes it
/// over the result's M or N subgroups (`waveDims`), not its reduction
/// dimension, and covers its inner tile of `total` elements.
static LogicalResult checkSwizzle(ArrayRef<SwizzledDim> dims,
                                  ArrayRef<SwizzledDim> waveDims,
                                  OperandRole role, int64_t total,
                                  std::string &error) {
  for (unsigned g = 0; g < 2; ++g) {
    int64_t resultCount =
        product(waveDims, [g](const SwizzledDim &d) { return d.group == g; });
    int group = getSubgroupGroup(role, g);
    int64_t count =
        group < 0 ? 1 : product(dims, [group](const SwizzledDim &d) {
          return d.kind == Kind::Subgroup && d.group == unsigned(group);
        });
    if (group >= 0 && count != resultCount) {
      error = "the subgroups of " + stringifyOperandRole(role).str() +
              " do not match those of the result";
      return failure();
    }
  }
  if (role != OperandRole::result && product(dims, [](const SwizzledDim &d) {
                                       return d.kind == Kind::Subgroup &&
                                              d.group != 0;
                                     }) != 1) {
    error = "the swizzle of " + stringifyOperandRole(role).str() +
            " splits its reduction dimension over subgroups";
    return failure();
  }
  if (product(dims, [](const SwizzledDim &) { return true; }) != total) {
    error = "the swizzle of " + stringifyOperandRole(role).str() +
            " does not cover its inner tile";
    return failure();
  }
  return success();
}

/// Sets the place of the element at the swizzled `position` of `role`'s
/// tile (dimensions `dims`, the lane's values after `lastLane`, elements of
/// `bits` bits) but its coordinates and tile bit: its lane, item, lane bit,
/// intrinsic unroll indices and the waves holding it.
static void placeElement(ArrayRef<SwizzledDim> dims, ArrayRef<int64_t> position,
                         size_t lastLane, int64_t bits, OperandRole role,
                         const Waves &waves, ElementPlace &place) {
  place.lane = linearize(dims, position, [](const SwizzledDim &d) {
    return d.kind == Kind::Lane;
  });
  place.item = linearize(dims, position, [](const SwizzledDim &d) {
    return d.kind == Kind::Internal;
  });
  int64_t laneValue = 0;
  for (size_t j = lastLane + 1; j < dims.size(); ++j)
    laneValue = laneValue * dims[j].size + position[j];
  place.laneBit = laneValue * bits;
  // Intrinsic unroll indices by group.
  int64_t intrinsic[2];
  for (unsigned g = 0; g < 2; ++g)
    intrinsic[g] = linearize(dims, position, [g](const SwizzledDim &d) {
      return d.kind == Kind::Intrinsic && d.group == g;
    });
  switch (role) {
  case OperandRole::lhs:
  case OperandRole::lhs_scales:
    place.intrinsicM = intrinsic[0];
    place.intrinsicK = intrinsic[1];
    break;
  case OperandRole::rhs:
  case OperandRole::rhs_scales:
    place.intrinsicN = intrinsic[0];
    place.intrinsicK = intrinsic[1];
    break;
  case OperandRole::result:
    place.intrinsicM = intrinsic[0];
    place.intrinsicN = intrinsic[1];
    break;
  }
  // Waves: those whose subgroups along this operand's groups match.
  std::array<int64_t, 2> subgroup = {-1, -1};
  for (unsigned g = 0; g < 2; ++g) {
    int group = getSubgroupGroup(role, g);
    if (group >= 0)
      subgroup[g] = linearize(dims, position, [group](const SwizzledDim &d) {
        return d.kind == Kind::Subgroup && d.group == unsigned(group);
      });
  }
  for (auto [w, index] : llvm::enumerate(waves.subgroups))
    if ((subgroup[0] < 0 || subgroup[0] == index[0]) &&
        (subgroup[1] < 0 || subgroup[1] == index[1]))
      place.waves.push_back(w);
}

FailureOr<OperandPlaces> OperandPlaces::get(TiledLayoutAttrInterface layout,
                                            OperandRole role,
                                            std::string &error) {
  FailureOr<std::pair<int64_t, int64_t>> tileSizes =
      getTileSizes(layout, role, kMaxElements, error);
  if (failed(tileSizes))
    return failure();
  OperandPlaces result;
  result.role = role;
  result.elementType = layout.getElementType(role);
  result.bits = result.elementType.getIntOrFloatBitWidth();
  std::tie(result.rows, result.cols) = *tileSizes;

  TileSwizzle swizzle = layout.getSwizzle(role);
  SmallVector<SwizzledDim> dims = getSwizzledDims(swizzle);
  SmallVector<int64_t> shape = swizzle.getSwizzledShape();
  FailureOr<size_t> lastLane = getLastLaneDim(dims, role, error);
  if (failed(lastLane))
    return failure();
  int64_t laneValues = 1;
  for (size_t j = *lastLane + 1; j < dims.size(); ++j)
    laneValues *= dims[j].size;
  result.laneBits = laneValues * result.bits;
  Waves waves = getWaves(layout);
  result.numWaves = waves.subgroups.size();
  int64_t total = result.rows * result.cols;
  if (failed(checkSwizzle(dims, waves.dims, role, total, error)))
    return failure();

  result.places.assign(total, ElementPlace());
  std::vector<bool> seen(total, false);
  SmallVector<int64_t> position(dims.size(), 0);
  for (int64_t p = 0; p < total; ++p) {
    SmallVector<int64_t> coords = swizzle.getTileCoords(position);
    int64_t index = coords[0] * result.cols + coords[1];
    if (coords[0] >= result.rows || coords[1] >= result.cols || seen[index]) {
      error = "the swizzle of " + stringifyOperandRole(role).str() +
              " is not a permutation of its inner tile";
      return failure();
    }
    seen[index] = true;
    ElementPlace &place = result.places[index];
    place.row = coords[0];
    place.col = coords[1];
    place.tileBit = p * result.bits;
    placeElement(dims, position, *lastLane, result.bits, role, waves, place);
    // Next swizzled position, row-major.
    for (int64_t d = int64_t(dims.size()) - 1; d >= 0; --d) {
      if (++position[d] < shape[d])
        break;
      position[d] = 0;
    }
  }
  return result;
}

StringRef OperandPlaces::getRowName() const {
  return role == OperandRole::rhs || role == OperandRole::rhs_scales ? "n"
                                                                     : "m";
}

StringRef OperandPlaces::getColName() const {
  switch (role) {
  case OperandRole::lhs:
  case OperandRole::rhs:
    return "k";
  case OperandRole::lhs_scales:
  case OperandRole::rhs_scales:
    return "kb";
  case OperandRole::result:
    return "n";
  }
  llvm_unreachable("unknown role");
}

SmallVector<const ElementPlace *>
OperandPlaces::getHeldBy(int64_t wave, int64_t lane, int64_t reg) const {
  SmallVector<const ElementPlace *> held;
  for (const ElementPlace &place : places) {
    if (place.lane != lane || !llvm::is_contained(place.waves, wave))
      continue;
    if (place.laneBit < 32 * (reg + 1) && place.laneBit + bits > 32 * reg)
      held.push_back(&place);
  }
  llvm::sort(held, [](const ElementPlace *a, const ElementPlace *b) {
    return a->tileBit < b->tileBit;
  });
  return held;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// Prints `first..last`, or `first` when they are equal.
static void printRange(llvm::raw_ostream &os, int64_t first, int64_t last) {
  os << first;
  if (last != first)
    os << ".." << last;
}

/// Prints a sorted list of waves compactly: `0..3`, `0,2`.
static void printWaves(llvm::raw_ostream &os, ArrayRef<int64_t> waves) {
  if (waves.empty())
    return;
  bool contiguous = waves.back() - waves.front() + 1 == int64_t(waves.size());
  if (contiguous) {
    printRange(os, waves.front(), waves.back());
    return;
  }
  llvm::interleave(waves, os, ",");
}

/// Prints the intrinsic unroll indices of `place`: `(m0,k1)`.
static void printIntrinsic(llvm::raw_ostream &os, const ElementPlace &place) {
  SmallVector<std::string> parts;
  if (place.intrinsicM >= 0)
    parts.push_back("m" + std::to_string(place.intrinsicM));
  if (place.intrinsicN >= 0)
    parts.push_back("n" + std::to_string(place.intrinsicN));
  if (place.intrinsicK >= 0)
    parts.push_back("k" + std::to_string(place.intrinsicK));
  os << "(" << llvm::join(parts, ",") << ")";
}

/// Prints the registers and bytes (or bits when not byte-aligned) of the
/// lane bit range [begin, end).
static void printLaneBits(llvm::raw_ostream &os, int64_t begin, int64_t end) {
  os << "vgpr=";
  printRange(os, begin / 32, (end - 1) / 32);
  if (begin % 8 == 0 && end % 8 == 0) {
    os << " bytes=";
    printRange(os, begin / 8, end / 8 - 1);
  } else {
    os << " bits=";
    printRange(os, begin, end - 1);
  }
}

void layout::printPlace(llvm::raw_ostream &os, const OperandPlaces &operand,
                        const ElementPlace &place) {
  os << operand.getRowName() << "=" << place.row << " " << operand.getColName()
     << "=" << place.col << ": waves=";
  printWaves(os, place.waves);
  os << " mfma=";
  printIntrinsic(os, place);
  os << " lane=" << place.lane << " item=" << place.item << " ";
  printLaneBits(os, place.laneBit, place.laneBit + operand.getBits());
}

namespace {
/// A run of consecutive columns of one row drawn as one cell.
struct Cell {
  int64_t row, colBegin, colEnd;
  const ElementPlace *first;
  int64_t laneBitEnd;
};
} // namespace

/// Resolves the -1 ends of `window` and clamps it to `operand`'s tile.
static Window clampWindow(const OperandPlaces &operand, Window window) {
  auto clamp = [](int64_t v, int64_t size) {
    return std::max<int64_t>(0, std::min(v < 0 ? size : v, size));
  };
  window.rowEnd = clamp(window.rowEnd, operand.getRows());
  window.colEnd = clamp(window.colEnd, operand.getCols());
  window.rowBegin =
      std::min(clamp(window.rowBegin, operand.getRows()), window.rowEnd);
  window.colBegin =
      std::min(clamp(window.colBegin, operand.getCols()), window.colEnd);
  return window;
}

/// The cells of `operand` within `window`, row by row.
static std::vector<Cell> getCells(const OperandPlaces &operand, CellSize size,
                                  Window window) {
  std::vector<Cell> cells;
  int64_t bits = operand.getBits();
  for (int64_t r = window.rowBegin; r < window.rowEnd; ++r) {
    for (int64_t c = window.colBegin; c < window.colEnd; ++c) {
      const ElementPlace &place = operand.at(r, c);
      if (!cells.empty() && size != CellSize::Element) {
        Cell &last = cells.back();
        const ElementPlace &prev = *last.first;
        bool joins = last.row == r && last.colEnd == c &&
                     place.waves == prev.waves && place.lane == prev.lane &&
                     place.intrinsicM == prev.intrinsicM &&
                     place.intrinsicN == prev.intrinsicN &&
                     place.intrinsicK == prev.intrinsicK &&
                     place.laneBit == last.laneBitEnd;
        if (joins && size == CellSize::Register)
          joins = place.laneBit / 32 == prev.laneBit / 32;
        if (joins) {
          last.colEnd = c + 1;
          last.laneBitEnd = place.laneBit + bits;
          continue;
        }
      }
      cells.push_back({r, c, c + 1, &place, place.laneBit + bits});
    }
  }
  return cells;
}

/// What `role` is in the MFMA, for headings.
static StringRef getRoleMeaning(OperandRole role) {
  switch (role) {
  case OperandRole::lhs:
    return "A";
  case OperandRole::rhs:
    return "B";
  case OperandRole::lhs_scales:
    return "A's scales";
  case OperandRole::rhs_scales:
    return "B's scales";
  case OperandRole::result:
    return "accumulator C / result D";
  }
  llvm_unreachable("unknown operand role");
}

/// A one-line description of `operand`'s tile.
static std::string describe(const OperandPlaces &operand) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << stringifyOperandRole(operand.getRole()) << " ("
     << getRoleMeaning(operand.getRole()) << "): " << operand.getElementType()
     << " (" << operand.getBits() << " bits), tile " << operand.getRows()
     << " x " << operand.getCols() << " (" << operand.getRowName() << " x "
     << operand.getColName() << "), " << operand.getNumWaves() << " wave(s), "
     << operand.getLaneBits() / 8 << " bytes per lane per intrinsic";
  return text;
}

void layout::printTable(llvm::raw_ostream &os, const OperandPlaces &operand,
                        CellSize size, Window window) {
  window = clampWindow(operand, window);
  os << "# " << describe(operand) << "\n";
  for (const Cell &cell : getCells(operand, size, window)) {
    os << operand.getRowName() << "=" << cell.row << " " << operand.getColName()
       << "=";
    printRange(os, cell.colBegin, cell.colEnd - 1);
    os << " waves=";
    printWaves(os, cell.first->waves);
    os << " mfma=";
    printIntrinsic(os, *cell.first);
    os << " lane=" << cell.first->lane << " ";
    printLaneBits(os, cell.first->laneBit, cell.laneBitEnd);
    os << "\n";
  }
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

/// Escapes `text` for SVG character data and attribute values.
static std::string escapeXML(StringRef text) {
  std::string result;
  for (char c : text) {
    switch (c) {
    case '&':
      result += "&amp;";
      break;
    case '<':
      result += "&lt;";
      break;
    case '>':
      result += "&gt;";
      break;
    case '"':
      result += "&quot;";
      break;
    default:
      result += c;
    }
  }
  return result;
}

namespace {
/// One operand's panel of an SVG picture: its window and the geometry of
/// its grid.
struct Panel {
  const OperandPlaces *operand;
  Window window;
  int64_t cellWidth, rowHeight, top;
};
} // namespace

/// The SVG picture's margin, title height and widest grid, in pixels.
static constexpr int64_t kMargin = 48, kTitle = 36, kMaxGridWidth = 1200;
/// The most cells of one panel that get tooltips.
static constexpr size_t kMaxTooltips = 4096;

/// `title` wrapped after commas at about 140 characters (continuation lines
/// indented).
static SmallVector<std::string> wrapTitle(StringRef title) {
  SmallVector<std::string> titleLines(1);
  for (StringRef rest = title; !rest.empty();) {
    auto [part, tail] = rest.split(", ");
    std::string piece = part.str() + (tail.empty() ? "" : ",");
    if (!titleLines.back().empty() &&
        titleLines.back().size() + piece.size() > 140)
      titleLines.emplace_back("    ");
    else if (!titleLines.back().empty())
      titleLines.back() += " ";
    titleLines.back() += piece;
    rest = tail;
  }
  return titleLines;
}

/// Where the colour key of `operand`'s panel heading starts and ends.
static int64_t getKeyBegin() { return kMargin + 240; }
static int64_t getKeyEnd(const OperandPlaces &operand) {
  return getKeyBegin() + 72 + 56 * operand.getNumWaves();
}

/// The hue of the cells wave `wave` of `numWaves` holds.
static int64_t getWaveHue(int64_t wave, int64_t numWaves) {
  return (wave * 360 / numWaves + 200) % 360;
}

/// Lays out the panels of `operands` (the `requested` window of each) one
/// below the other from `y`; sets `width` and `height` to those of the
/// picture.
static SmallVector<Panel> layOutPanels(ArrayRef<const OperandPlaces *> operands,
                                       Window requested, int64_t y,
                                       int64_t &width, int64_t &height) {
  SmallVector<Panel> panels;
  width = 600;
  for (const OperandPlaces *operand : operands) {
    Panel panel{operand, clampWindow(*operand, requested), 0, 0, 0};
    int64_t cols =
        std::max<int64_t>(1, panel.window.colEnd - panel.window.colBegin);
    int64_t rows = panel.window.rowEnd - panel.window.rowBegin;
    panel.cellWidth = std::clamp<int64_t>(kMaxGridWidth / cols, 1, 48);
    panel.rowHeight = rows > 128 ? 5 : 14;
    panel.top = y + 48;
    y = panel.top + rows * panel.rowHeight + 24;
    width = std::max(width, 2 * kMargin + cols * panel.cellWidth);
    // The heading's colour key and the note after it.
    width = std::max(width, getKeyEnd(*operand) + 360);
    panels.push_back(panel);
  }
  height = y;
  return panels;
}

/// Prints the heading of `panel` (the operand and its window) and the ticks

/// of its columns and rows.
static void printPanelHeading(llvm::raw_ostream &os, const Panel &panel) {
  const OperandPlaces &operand = *panel.operand;
  const Window &w = panel.window;
  os << "<text x=\"" << kMargin << "\" y=\"" << panel.top - 30
     << "\" font-size=\"12\" font-weight=\"bold\">"
     << escapeXML(describe(operand)) << "</text>\n";
  os << "<text x=\"" << kMargin << "\" y=\"" << panel.top - 14
     << "\" font-size=\"10\">" << operand.getRowName() << " " << w.rowBegin
     << ".." << w.rowEnd - 1 << " down, " << operand.getColName() << " "
     << w.colBegin << ".." << w.colEnd - 1 << " across</text>\n";
  // The colour key: each wave's hue (a cell several waves hold has its
  // first wave's).
  int64_t x = getKeyBegin();
  os << "<text x=\"" << x << "\" y=\"" << panel.top - 14
     << "\" font-size=\"10\">colour key:</text>\n";
  x += 72;
  os << "<g class=\"key\">\n";
  for (int64_t wave = 0; wave < operand.getNumWaves(); ++wave, x += 56)
    os << "<rect x=\"" << x << "\" y=\"" << panel.top - 23
       << "\" width=\"10\" height=\"10\" fill=\"hsl("
       << getWaveHue(wave, operand.getNumWaves())
       << ",60%,78%)\" stroke=\"#666\" stroke-width=\"0.3\"/>\n<text x=\""
       << x + 13 << "\" y=\"" << panel.top - 14 << "\" font-size=\"10\">wave "
       << wave << "</text>\n";
  os << "</g>\n";
  // Column ticks: at least 40 pixels apart, at multiples of a power of
  // two.
  int64_t colStep = 1;
  while (colStep * panel.cellWidth < 40)
    colStep *= 2;
  for (int64_t c = w.colBegin; c < w.colEnd; ++c)
    if (c % colStep == 0)
      os << "<text x=\"" << kMargin + (c - w.colBegin) * panel.cellWidth
         << "\" y=\"" << panel.top - 2 << "\" font-size=\"8\" fill=\"#444\">"
         << c << "</text>\n";
  // Row ticks.
  int64_t rowStep = panel.rowHeight >= 12 ? 4 : 16;
  for (int64_t r = w.rowBegin; r < w.rowEnd; r += rowStep)
    os << "<text x=\"" << kMargin - 4 << "\" y=\""
       << panel.top + (r - w.rowBegin) * panel.rowHeight +
              std::min<int64_t>(panel.rowHeight, 10)
       << "\" font-size=\"" << std::min<int64_t>(panel.rowHeight, 10)
       << "\" text-anchor=\"end\">" << r << "</text>\n";
}

/// The label of `cell`: its lane and registers (bytes for scales, where
/// `isScale`) within the lane's values.
static std::string getCellLabel(const Cell &cell, bool isScale) {
  const ElementPlace &place = *cell.first;
  std::string label = "L" + std::to_string(place.lane);
  int64_t firstByte = place.laneBit / 8, lastByte = (cell.laneBitEnd - 1) / 8;
  int64_t firstReg = place.laneBit / 32, lastReg = (cell.laneBitEnd - 1) / 32;
  if (isScale)
    label += " b" + std::to_string(firstByte) +
             (lastByte != firstByte ? "-" + std::to_string(lastByte) : "");
  else
    label += " v" + std::to_string(firstReg) +
             (lastReg != firstReg ? "-" + std::to_string(lastReg) : "");
  return label;
}

/// Prints `cell` of `panel`: a rectangle coloured by wave and intrinsic,
/// with a tooltip when `tooltips`, and its label when it fits.
static void printCell(llvm::raw_ostream &os, const Panel &panel,
                      const Cell &cell, bool tooltips) {
  const OperandPlaces &operand = *panel.operand;
  const Window &w = panel.window;
  const ElementPlace &place = *cell.first;
  int64_t x = kMargin + (cell.colBegin - w.colBegin) * panel.cellWidth;
  int64_t top = panel.top + (cell.row - w.rowBegin) * panel.rowHeight;
  int64_t cw = (cell.colEnd - cell.colBegin) * panel.cellWidth;
  int64_t hue = place.waves.empty()
                    ? 0
                    : getWaveHue(place.waves.front(), operand.getNumWaves());
  int64_t parity = std::max<int64_t>(place.intrinsicM, 0) +
                   std::max<int64_t>(place.intrinsicN, 0) +
                   std::max<int64_t>(place.intrinsicK, 0);
  int64_t light = parity % 2 ? 72 : 84;
  os << "<rect x=\"" << x << "\" y=\"" << top << "\" width=\"" << cw
     << "\" height=\"" << panel.rowHeight << "\" fill=\"hsl(" << hue << ",60%,"
     << light << "%)\" stroke=\"#666\" stroke-width=\"0.3\"";
  if (!tooltips) {
    os << "/>\n";
  } else {
    os << "><title>" << operand.getRowName() << "=" << cell.row << " "
       << operand.getColName() << "=" << cell.colBegin;
    if (cell.colEnd - 1 != cell.colBegin)
      os << ".." << cell.colEnd - 1;
    os << " waves=";
    printWaves(os, place.waves);
    os << " mfma=";
    printIntrinsic(os, place);
    os << " lane=" << place.lane << " ";
    printLaneBits(os, place.laneBit, cell.laneBitEnd);
    os << "</title></rect>\n";
  }
  // The label, when it fits.
  bool isScale = operand.getRole() == OperandRole::lhs_scales ||
                 operand.getRole() == OperandRole::rhs_scales;
  std::string label = getCellLabel(cell, isScale);
  int64_t fontSize = std::min<int64_t>(panel.rowHeight - 4, 9);
  if (fontSize >= 6 && int64_t(label.size()) * fontSize * 6 / 10 + 2 <= cw)
    os << "<text x=\"" << x + cw / 2 << "\" y=\"" << top + panel.rowHeight - 4
       << "\" font-size=\"" << fontSize << "\" text-anchor=\"middle\">" << label
       << "</text>\n";
}

/// Prints `panel` as one SVG group: its heading and its cells of `size`.
static void printPanel(llvm::raw_ostream &os, const Panel &panel,
                       CellSize size) {
  os << "<g>\n";
  printPanelHeading(os, panel);
  std::vector<Cell> panelCells = getCells(*panel.operand, size, panel.window);
  // Tooltips make a cell about three times larger: only on small panels.
  bool tooltips = panelCells.size() <= kMaxTooltips;
  if (!tooltips)
    os << "<text x=\"" << getKeyEnd(*panel.operand) + 8 << "\" y=\""
       << panel.top - 14 << "\" font-size=\"10\" fill=\"#a00\">("
       << panelCells.size()
       << " cells: no tooltips; draw fewer with --rows/--cols)</text>\n";
  for (const Cell &cell : panelCells)
    printCell(os, panel, cell, tooltips);
  os << "</g>\n";
}

void layout::printSVG(llvm::raw_ostream &os,
                      ArrayRef<const OperandPlaces *> operands, CellSize size,
                      Window requested, StringRef title) {
  SmallVector<std::string> titleLines = wrapTitle(title);
  int64_t width, height;
  SmallVector<Panel> panels =
      layOutPanels(operands, requested,
                   kTitle + 14 * int64_t(titleLines.size() - 1), width, height);
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " "
     << height << "\" font-family=\"monospace\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (auto [i, line] : llvm::enumerate(titleLines))
    os << "<text x=\"8\" y=\"" << 16 + 14 * i
       << "\" font-size=\"12\" xml:space=\"preserve\">" << escapeXML(line)
       << "</text>\n";
  os << "<text x=\"8\" y=\"" << 16 + 14 * titleLines.size()
     << "\" font-size=\"10\" fill=\"#444\">colour: "
        "wave(s) holding the cell, shade alternating per intrinsic (MFMA); "
        "label: lane L, registers v (bytes b for scales) within the lane's "
        "values; hover a cell for all of it</text>\n";
  for (const Panel &panel : panels)
    printPanel(os, panel, size);
  os << "</svg>\n";
}

std::optional<int64_t>
mlir::mx::layout::getInstructionKStep(TiledLayoutAttrInterface layout) {
  TileSwizzle swizzle = layout.getSwizzle(OperandRole::lhs);
  if (swizzle.expandShape.size() != 2)
    return std::nullopt;
  // Expanded dimensions are numbered group by group.
  int64_t first = swizzle.expandShape[0].size();
  int64_t kStep = 1;
  SmallVector<int64_t> intrinsics;
  for (auto [i, dim] : llvm::enumerate(swizzle.expandShape[1])) {
    if (dim.kind != Kind::Intrinsic) {
      kStep *= dim.size;
      continue;
    }
    if (kStep != 1)
      return std::nullopt; // An Intrinsic dimension inside one instruction.
    intrinsics.push_back(first + int64_t(i));
  }
  // The Intrinsic dimensions, in swizzled order, must linearize as in the
  // expansion.
  SmallVector<int64_t> swizzled;
  for (int64_t e : swizzle.permutation)
    if (llvm::is_contained(intrinsics, e))
      swizzled.push_back(e);
  if (swizzled != intrinsics)
    return std::nullopt;
  return kStep;
}
