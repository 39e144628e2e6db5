//===- mx-layout.cpp - draw and query data-tiled layouts ------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shows which wave, lane, register and bits of a gfx950 workgroup hold each
// element of each operand of a data-tiled scaled contraction, as a text
// table or an SVG picture, and answers the two questions kernel engineers
// ask: where does element (m, k) of A live, and what does lane L of wave W
// hold in register R. The layout is given as a `#mx.data_tiled_layout`, or
// resolved from the gfx950 target (its attribute or the pipeline's layout
// options), the element types and the problem size, as mx-gfx950-pipeline
// resolves it. Everything is read off the layout's swizzle (see
// mx/Layout/LayoutQuery.h). Exit codes: 0 success, 2 bad usage or input.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Layout/LayoutQuery.h"
#include "mx/Support/ErrorTracker.h"
#include "mx/Support/Version.h"
#include "mx/Target/GFX950/GFX950.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mx;
namespace cl = llvm::cl;

static constexpr int kExitError = 2;
/// The most tile positions one SVG draws.
static constexpr int64_t kMaxPicturePositions = int64_t(1) << 20;

static cl::OptionCategory layoutCategory("mx-layout options");

static cl::opt<std::string>
    layoutText("layout", cl::desc("The layout: a #mx.data_tiled_layout<...>"),
               cl::value_desc("ATTR"), cl::cat(layoutCategory));

static cl::opt<std::string> targetText(
    "target",
    cl::desc("Resolve the layout with this #mx_gfx950.target<...> (instead "
             "of --layout and of the pipeline options below)"),
    cl::value_desc("ATTR"), cl::cat(layoutCategory));

// The layout options of mx-gfx950-pipeline, with its defaults.
static cl::opt<std::string>
    intrinsic("intrinsic",
              cl::desc("Pin the scaled MFMA: 16x16x128 or 32x32x64 "
                       "(default: the resolver's choice)"),
              cl::cat(layoutCategory));
static cl::opt<int64_t> intrinsicsM("intrinsics-m",
                                    cl::desc("Pin intrinsics_m (0: resolver)"),
                                    cl::init(0), cl::cat(layoutCategory));
static cl::opt<int64_t> intrinsicsN("intrinsics-n",
                                    cl::desc("Pin intrinsics_n (0: resolver)"),
                                    cl::init(0), cl::cat(layoutCategory));
static cl::opt<int64_t> intrinsicsK("intrinsics-k",
                                    cl::desc("Pin intrinsics_k (0: resolver)"),
                                    cl::init(0), cl::cat(layoutCategory));
static cl::opt<int64_t> subgroupsM("subgroups-m",
                                   cl::desc("Pin subgroups_m (0: resolver)"),
                                   cl::init(0), cl::cat(layoutCategory));
static cl::opt<int64_t> subgroupsN("subgroups-n",
                                   cl::desc("Pin subgroups_n (0: resolver)"),
                                   cl::init(0), cl::cat(layoutCategory));
static cl::opt<std::string>
    lhsTypeText("lhs-type",
                cl::desc("Element type of A when resolving (default "
                         "f4E2M1FN)"),
                cl::init("f4E2M1FN"), cl::cat(layoutCategory));
static cl::opt<std::string>
    rhsTypeText("rhs-type",
                cl::desc("Element type of B when resolving (default "
                         "f4E2M1FN)"),
                cl::init("f4E2M1FN"), cl::cat(layoutCategory));
static cl::opt<int64_t>
    problemM("m", cl::desc("Problem size M (resolving; bounds --where)"),
             cl::init(0), cl::cat(layoutCategory));
static cl::opt<int64_t>
    problemN("n", cl::desc("Problem size N (resolving; bounds --where)"),
             cl::init(0), cl::cat(layoutCategory));
static cl::opt<int64_t> problemK("k",
                                 cl::desc("Problem size K (bounds --where)"),
                                 cl::init(0), cl::cat(layoutCategory));

static cl::opt<std::string> operandNames(
    "operand",
    cl::desc("Operands to show, comma-separated: lhs, rhs, lhs_scales, "
             "rhs_scales, result, or all (default all; lhs for queries)"),
    cl::init(""), cl::cat(layoutCategory));
static cl::opt<std::string>
    format("format", cl::desc("Output: text (a table, default) or svg"),
           cl::init("text"), cl::cat(layoutCategory));
static cl::opt<std::string> cells(
    "cells",
    cl::desc("What one table line / SVG cell covers: element, register "
             "(default: consecutive elements in one register of one lane) "
             "or lane (consecutive elements of one lane)"),
    cl::init("register"), cl::cat(layoutCategory));
static cl::opt<std::string>
    rows("rows",
         cl::desc("Rows of the tile to show: BEGIN:END (end excluded; "
                  "clipped to each operand's tile)"),
         cl::value_desc("B:E"), cl::cat(layoutCategory));
static cl::opt<std::string>
    cols("cols",
         cl::desc("Columns of the tile to show: BEGIN:END (end excluded)"),
         cl::value_desc("B:E"), cl::cat(layoutCategory));
static cl::opt<std::string>
    where("where",
          cl::desc("Where does element (ROW, COL) of the operand live "
                   "(problem coordinates: m,k for lhs; n,k for rhs; m,kb "
                   "or n,kb for scales; m,n for result)"),
          cl::value_desc("ROW,COL"), cl::cat(layoutCategory));
static cl::opt<int64_t> lane("lane",
                             cl::desc("What does lane L (of --wave, "
                                      "--register) hold"),
                             cl::init(-1), cl::cat(layoutCategory));
static cl::opt<int64_t> wave("wave", cl::desc("Wave of --lane (default 0)"),
                             cl::init(0), cl::cat(layoutCategory));
static cl::opt<int64_t>
    reg("register",
        cl::desc("Register of --lane within the lane's values "
                 "(default 0)"),
        cl::init(0), cl::cat(layoutCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("PATH"),
                                           cl::init("-"),
                                           cl::cat(layoutCategory));

/// Prints `message` as an error and returns the error exit code.
static int fail(const Twine &message) {
  llvm::WithColor::error(llvm::errs(), "mx-layout") << message << "\n";
  return kExitError;
}

/// Parses `B:E` into `[begin, end)`.
static LogicalResult parseRange(StringRef text, int64_t &begin, int64_t &end) {
  auto [first, second] = text.split(':');
  if (second.empty() && !text.contains(':'))
    return failure();
  if (first.trim().getAsInteger(10, begin) ||
      second.trim().getAsInteger(10, end) || begin < 0 || end <= begin)
    return failure();
  return success();
}

/// Parses an MX element type.
static Type parseElementType(MLIRContext &ctx, StringRef text, StringRef what) {
  Type type = parseType(text, &ctx);
  if (type && !isMXElementType(type)) {
    emitError(UnknownLoc::get(&ctx))
        << what << " must be an MX element type (f4E2M1FN, f6E2M3FN, "
        << "f6E3M2FN, f8E4M3FN, f8E5M2), got " << type;
    return {};
  }
  return type;
}

/// The layout from the command line: --layout, or resolved from --target or
/// the pipeline options.
static DataTiledLayoutAttr getLayout(MLIRContext &ctx) {
  if (!layoutText.empty()) {
    Attribute attr = parseAttribute(layoutText, &ctx);
    if (!attr)
      return {};
    DataTiledLayoutAttr layout = gfx950::getDataTiledLayout(attr);
    if (!layout)
      emitError(UnknownLoc::get(&ctx))
          << "--layout must be a #mx.data_tiled_layout, got " << attr;
    return layout;
  }
  std::string text = targetText;
  if (text.empty()) {
    std::optional<gfx950::ScaledMMAIntrinsic> pinned;
    if (intrinsic == "16x16x128")
      pinned = gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128;
    else if (intrinsic == "32x32x64")
      pinned = gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64;
    else if (!intrinsic.empty()) {
      emitError(UnknownLoc::get(&ctx))
          << "--intrinsic must be 16x16x128 or 32x32x64, got '" << intrinsic
          << "'";
      return {};
    }
    text = gfx950::TargetAttr::getAsText(pinned, intrinsicsM, intrinsicsN,
                                         intrinsicsK, subgroupsM, subgroupsN,
                                         /*splitK=*/0, /*configTable=*/"",
                                         /*requireUKernel=*/true);
  }
  Attribute attr = parseAttribute(text, &ctx);
  if (!attr)
    return {};
  auto target = dyn_cast<gfx950::TargetAttr>(attr);
  if (!target) {
    emitError(UnknownLoc::get(&ctx))
        << "--target must be a #mx_gfx950.target, got " << attr;
    return {};
  }
  Type lhsType = parseElementType(ctx, lhsTypeText, "--lhs-type");
  Type rhsType = parseElementType(ctx, rhsTypeText, "--rhs-type");
  if (!lhsType || !rhsType)
    return {};
  if (problemM < 0 || problemN < 0) {
    emitError(UnknownLoc::get(&ctx)) << "--m and --n must not be negative";
    return {};
  }
  auto size = [](int64_t v) { return v ? v : ShapedType::kDynamic; };
  return gfx950::resolveLayout(&ctx, lhsType, rhsType, size(problemM),
                               size(problemN), size(problemK), target);
}

/// Parses --operand.
static FailureOr<SmallVector<OperandRole>> getRoles(bool query) {
  SmallVector<OperandRole> roles;
  StringRef text = operandNames;
  if (text.empty())
    text = query ? "lhs" : "all";
  SmallVector<StringRef> names;
  text.split(names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    name = name.trim();
    if (name == "all") {
      roles.append({OperandRole::lhs, OperandRole::rhs, OperandRole::lhs_scales,
                    OperandRole::rhs_scales, OperandRole::result});
      continue;
    }
    std::optional<OperandRole> role = symbolizeOperandRole(name);
    if (!role) {
      fail("unknown operand '" + name +
           "' (expected lhs, rhs, lhs_scales, rhs_scales, result or all)");
      return failure();
    }
    roles.push_back(*role);
  }
  if (roles.empty()) {
    fail("--operand names no operand");
    return failure();
  }
  return roles;
}

/// Answers --where for `operand`: the workgroup tile and the place within
/// it, and for A and B the place of the element's scale.
static int printWhere(llvm::raw_ostream &os, TiledLayoutAttrInterface layout,
                      const layout::OperandPlaces &operand) {
  SmallVector<StringRef> parts;
  StringRef(where).split(parts, ',');
  int64_t coords[2];
  if (parts.size() != 2 || parts[0].trim().getAsInteger(10, coords[0]) ||
      parts[1].trim().getAsInteger(10, coords[1]))
    return fail("--where must be ROW,COL (two integers), got '" + where + "'");
  // Bounds: the problem sizes, where given.
  OperandRole role = operand.getRole();
  bool isScale =
      role == OperandRole::lhs_scales || role == OperandRole::rhs_scales;
  int64_t rowBound = role == OperandRole::rhs || role == OperandRole::rhs_scales
                         ? problemN
                         : problemM;
  int64_t colBound = role == OperandRole::result ? problemN
                     : isScale ? llvm::divideCeil(int64_t(problemK), 32)
                               : int64_t(problemK);
  for (int d = 0; d < 2; ++d) {
    StringRef name = d ? operand.getColName() : operand.getRowName();
    int64_t bound = d ? colBound : rowBound;
    if (coords[d] < 0 || (bound > 0 && coords[d] >= bound))
      return fail("--where: " + name + " = " + Twine(coords[d]) +
                  " is out of range" +
                  (bound > 0 ? " [0, " + Twine(bound) + ")" : Twine("")));
  }
  int64_t tileRow = coords[0] / operand.getRows();
  int64_t tileCol = coords[1] / operand.getCols();
  const layout::ElementPlace &place =
      operand.at(coords[0] % operand.getRows(), coords[1] % operand.getCols());
  os << stringifyOperandRole(role) << " " << operand.getRowName() << "="
     << coords[0] << " " << operand.getColName() << "=" << coords[1]
     << ": workgroup tile (" << tileRow << ", " << tileCol << "), at ";
  layout::printPlace(os, operand, place);
  os << "\n";
  if (role == OperandRole::lhs || role == OperandRole::rhs) {
    std::string error;
    OperandRole scaleRole = role == OperandRole::lhs ? OperandRole::lhs_scales
                                                     : OperandRole::rhs_scales;
    FailureOr<layout::OperandPlaces> scales =
        layout::OperandPlaces::get(layout, scaleRole, error);
    if (failed(scales))
      return fail(error);
    os << "  its scale: " << stringifyOperandRole(scaleRole) << " ";
    layout::printPlace(os, *scales, scales->at(place.row, place.col / 32));
    os << "\n";
  }
  return 0;
}

/// Answers --lane/--wave/--register for `operand`.
static int printHeld(llvm::raw_ostream &os,
                     const layout::OperandPlaces &operand) {
  int64_t registers = llvm::divideCeil(operand.getLaneBits(), 32);
  if (lane < 0 || lane >= gfx950::kWaveSize)
    return fail("--lane = " + Twine(lane) + " is out of range [0, " +
                Twine(gfx950::kWaveSize) + ")");
  if (wave < 0 || wave >= operand.getNumWaves())
    return fail("--wave = " + Twine(wave) + " is out of range [0, " +
                Twine(operand.getNumWaves()) + ")");
  if (reg < 0 || reg >= registers)
    return fail("--register = " + Twine(reg) + " is out of range [0, " +
                Twine(registers) + "): a lane holds " +
                Twine(operand.getLaneBits() / 8) + " bytes of " +
                stringifyOperandRole(operand.getRole()));
  os << stringifyOperandRole(operand.getRole()) << " wave " << wave << " lane "
     << lane << " register " << reg << " holds:\n";
  for (const layout::ElementPlace *place : operand.getHeldBy(wave, lane, reg)) {
    os << "  " << stringifyOperandRole(operand.getRole()) << " ";
    layout::printPlace(os, operand, *place);
    os << "\n";
  }
  return 0;
}

static int run(MLIRContext &ctx) {
  DataTiledLayoutAttr layout = getLayout(ctx);
  if (!layout)
    return kExitError;
  bool isWhere = !where.empty(), isLane = lane.getNumOccurrences() > 0;
  if (isWhere && isLane)
    return fail("--where and --lane are separate queries");
  if (!isLane && (wave.getNumOccurrences() || reg.getNumOccurrences()))
    return fail("--wave and --register go with --lane");
  bool query = isWhere || isLane;
  FailureOr<SmallVector<OperandRole>> roles = getRoles(query);
  if (failed(roles))
    return kExitError;
  if (query && roles->size() != 1)
    return fail("a query takes one --operand");
  layout::CellSize cellSize;
  if (cells == "element")
    cellSize = layout::CellSize::Element;
  else if (cells == "register")
    cellSize = layout::CellSize::Register;
  else if (cells == "lane")
    cellSize = layout::CellSize::Lane;
  else
    return fail("--cells must be element, register or lane, got '" + cells +
                "'");
  if (format != "text" && format != "svg")
    return fail("--format must be text or svg, got '" + format + "'");
  layout::Window window;
  if (!rows.empty() && failed(parseRange(rows, window.rowBegin, window.rowEnd)))
    return fail("--rows must be BEGIN:END with 0 <= BEGIN < END, got '" + rows +
                "'");
  if (!cols.empty() && failed(parseRange(cols, window.colBegin, window.colEnd)))
    return fail("--cols must be BEGIN:END with 0 <= BEGIN < END, got '" + cols +
                "'");

  auto tiled = cast<TiledLayoutAttrInterface>(Attribute(layout));
  SmallVector<layout::OperandPlaces> operands;
  for (OperandRole role : *roles) {
    std::string error;
    FailureOr<layout::OperandPlaces> places =
        layout::OperandPlaces::get(tiled, role, error);
    if (failed(places))
      return fail(error);
    operands.push_back(std::move(*places));
  }

  // An SVG of millions of positions is of no use and very large: ask for a
  // window instead.
  if (format == "svg" && !query) {
    int64_t positions = 0;
    for (const layout::OperandPlaces &operand : operands) {
      auto extent = [](int64_t begin, int64_t end, int64_t size) {
        end = end < 0 ? size : std::min(end, size);
        return std::max<int64_t>(0, end - std::min(begin, end));
      };
      positions += extent(window.rowBegin, window.rowEnd, operand.getRows()) *
                   extent(window.colBegin, window.colEnd, operand.getCols());
    }
    if (positions > kMaxPicturePositions)
      return fail("the picture would have " + Twine(positions) +
                  " positions (at most " + Twine(kMaxPicturePositions) +
                  "): draw fewer operands or a window with --rows/--cols");
  }

  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return fail(errorMessage);
  llvm::raw_ostream &os = output->os();
  std::string layoutString;
  llvm::raw_string_ostream(layoutString) << Attribute(layout);
  int status = 0;
  if (isWhere) {
    status = printWhere(os, tiled, operands.front());
  } else if (isLane) {
    status = printHeld(os, operands.front());
  } else if (format == "svg") {
    SmallVector<const layout::OperandPlaces *> pointers;
    for (const layout::OperandPlaces &operand : operands)
      pointers.push_back(&operand);
    layout::printSVG(os, pointers, cellSize, window, layoutString);
  } else {
    os << "# layout: " << layoutString << "\n";
    for (const layout::OperandPlaces &operand : operands)
      layout::printTable(os, operand, cellSize, window);
  }
  if (status == 0)
    output->keep();
  return status;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::mx::setVersionPrinter("mx-layout");
  cl::HideUnrelatedOptions(layoutCategory);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "mx-layout: draw and query gfx950 data-tiled layouts\n\n"
          "  mx-layout --layout='#mx.data_tiled_layout<...>' [--operand=lhs]\n"
          "            [--format=text|svg] [--cells=element|register|lane]\n"
          "            [--rows=B:E] [--cols=B:E] [-o FILE]\n"
          "  mx-layout --lhs-type=T --rhs-type=T --m=M --n=N "
          "[--intrinsic=... --intrinsics-m=... | --target=ATTR]\n"
          "  mx-layout ... --operand=lhs --where=M,K\n"
          "  mx-layout ... --operand=lhs --lane=L --wave=W --register=R\n\n"
          "Shows which wave, lane and register of one workgroup tile hold "
          "each element\nof each operand, read off the layout's swizzle. Exit "
          "codes: 0 success, 2 error.\n",
          &llvm::errs()))
    return kExitError;

  DialectRegistry registry;
  registry.insert<MXDialect>();
  gfx950::registerTarget(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // Diagnostics (bad attribute or type text) go to stderr as errors.
  ScopedDiagnosticHandler handler(&ctx, [](Diagnostic &diag) {
    llvm::WithColor::error(llvm::errs(), "mx-layout") << diag << "\n";
    return success();
  });
  // Whatever run returns, an error it printed makes the exit code 2.
  ErrorTracker errors;
  errors.watch(&ctx);
  int status = run(ctx);
  if (status == 0 && errors.hadError())
    return kExitError;
  return status;
}
