//===- Configs.cpp - gfx950 tuned configuration tables -------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A configuration table is data next to the ukernels
// (ukernels/gfx950/configs/table.mlir, embedded at build time; or a file
// given by #mx_gfx950.target<config_table = "...">): a module attribute
// `mx_gfx950.configs`, an array of entries that map a shape bucket to the
// pins of a #mx_gfx950.target. bench/mx_tune.py writes them.
//
//===----------------------------------------------------------------------===//

#include "mx/Support/FileIO.h"
#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

// Generated from ukernels/gfx950/configs/table.mlir by
// lib/Target/GFX950/CMakeLists.txt: kEmbeddedConfigTable.
#include "ConfigTable.inc"

/// Checks `attr` as a table and appends its entries to `entries` (if given).
static LogicalResult
parseConfigTable(Attribute attr, function_ref<InFlightDiagnostic()> emitError,
                 SmallVectorImpl<ConfigEntry> *entries) {
  auto array = dyn_cast<ArrayAttr>(attr);
  if (!array)
    return emitError() << "'" << GFX950Dialect::kConfigsAttrName
                       << "' must be an array of dictionaries";
  for (auto [i, element] : llvm::enumerate(array)) {
    auto entry = dyn_cast<DictionaryAttr>(element);
    size_t index = i;
    auto fail = [&](StringRef what) {
      return emitError() << "configuration " << index << ": " << what;
    };
    if (!entry)
      return fail("must be a dictionary");
    ConfigEntry parsed;
    auto lhs = entry.getAs<TypeAttr>("lhs_type");
    auto rhs = entry.getAs<TypeAttr>("rhs_type");
    if (!lhs || !rhs)
      return fail("needs 'lhs_type' and 'rhs_type' (types)");
    parsed.lhsType = lhs.getValue();
    parsed.rhsType = rhs.getValue();
    auto m = entry.getAs<DenseI64ArrayAttr>("m");
    if (!m || m.size() != 2 || m[0] < 1 || m[1] < m[0])
      return fail("needs 'm' = array<i64: lo, hi> with 1 <= lo <= hi");
    parsed.mMin = m[0];
    parsed.mMax = m[1];
    auto n = entry.getAs<IntegerAttr>("n");
    auto k = entry.getAs<IntegerAttr>("k");
    if (!n || !k || n.getInt() < 1 || k.getInt() < 1)
      return fail("needs positive integers 'n' and 'k'");
    parsed.n = n.getInt();
    parsed.k = k.getInt();
    auto pins = entry.getAs<TargetAttr>("pins");
    if (!pins)
      return fail("needs 'pins', a #mx_gfx950.target");
    if (!pins.getConfigTable().empty() || pins.getRequireUkernel())
      return fail("'pins' may not name a table or require_ukernel");
    parsed.pins = pins;
    for (NamedAttribute named : entry)
      if (!llvm::is_contained({"lhs_type", "rhs_type", "m", "n", "k", "pins"},
                              named.getName().strref()))
        return fail(("unknown key '" + named.getName().strref() + "'").str());
    if (entries)
      entries->push_back(parsed);
  }
  return success();
}

LogicalResult GFX950Dialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() != kConfigsAttrName)
    return op->emitError() << "unknown attribute '" << attr.getName()
                           << "' of the mx_gfx950 dialect";
  return parseConfigTable(
      attr.getValue(), [&] { return op->emitError(); }, nullptr);
}

FailureOr<ArrayRef<ConfigEntry>>
GFX950Dialect::getConfigTable(StringRef path, std::string &error) {
  std::lock_guard<std::mutex> lock(configTablesMutex);
  auto it = configTables.find(path);
  if (it != configTables.end())
    return ArrayRef<ConfigEntry>(it->second);

  MLIRContext *ctx = getContext();
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (path.empty()) {
    buffer = llvm::MemoryBuffer::getMemBuffer(kEmbeddedConfigTable,
                                              "embedded configuration table");
  } else {
    UserFileLimits limits;
    limits.requiresNullTerminator = true;
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        readUserFile(path, limits, "the configuration table");
    if (!file) {
      error = llvm::toString(file.takeError());
      return failure();
    }
    buffer = std::move(*file);
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  // The table's own diagnostics go into `error`, not to the context's
  // handlers (which may be verifying the program's).
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diagnostic) {
    if (auto file = dyn_cast<FileLineColLoc>(diagnostic.getLocation()))
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn() << ": ";
    os << diagnostic << "\n";
    return success();
  });
  ParserConfig config(ctx);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  Attribute table = module ? (*module)->getAttr(kConfigsAttrName) : nullptr;
  SmallVector<ConfigEntry> entries;
  if (!module || !table ||
      failed(parseConfigTable(
          table, [&] { return (*module)->emitError(); }, &entries))) {
    error = "the configuration table '" +
            (path.empty() ? std::string("<embedded>") : path.str()) +
            "' is not a module with a valid '" + kConfigsAttrName.str() +
            "' attribute";
    if (!diagnostics.empty())
      error += ":\n" + diagnostics;
    return failure();
  }
  return ArrayRef<ConfigEntry>(
      configTables.try_emplace(path, std::move(entries)).first->second);
}

FailureOr<const ConfigEntry *>
gfx950::lookupConfig(TargetAttr target, Type lhsType, Type rhsType, int64_t m,
                     int64_t n, int64_t k, std::string &error) {
  StringRef path = target.getConfigTable();
  if (path == "none")
    return static_cast<const ConfigEntry *>(nullptr);
  auto *dialect = target.getContext()->getOrLoadDialect<GFX950Dialect>();
  FailureOr<ArrayRef<ConfigEntry>> table = dialect->getConfigTable(path, error);
  if (failed(table))
    return failure();
  for (const ConfigEntry &entry : *table) {
    // An entry's tile sizes count its own intrinsic's shapes: under another
    // pinned intrinsic they would make another tile than the one measured
    // (8 x 8 intrinsics of 32x32x64: a 256 x 1024 wave tile that spills).
    auto pins = cast<TargetAttr>(entry.pins);
    if (target.getIntrinsic() && pins.getIntrinsic() &&
        target.getIntrinsic() != pins.getIntrinsic())
      continue;
    if (entry.lhsType == lhsType && entry.rhsType == rhsType &&
        !ShapedType::isDynamic(m) && m >= entry.mMin && m <= entry.mMax &&
        n == entry.n && k == entry.k)
      return &entry;
  }
  return static_cast<const ConfigEntry *>(nullptr);
}

TargetAttr gfx950::applyConfig(TargetAttr target, const ConfigEntry &entry) {
  auto pins = cast<TargetAttr>(entry.pins);
  auto pick = [](int64_t mine, int64_t theirs) { return mine ? mine : theirs; };
  return TargetAttr::get(target.getContext(),
                         target.getIntrinsic() ? target.getIntrinsic()
                                               : pins.getIntrinsic(),
                         pick(target.getIntrinsicsM(), pins.getIntrinsicsM()),
                         pick(target.getIntrinsicsN(), pins.getIntrinsicsN()),
                         pick(target.getIntrinsicsK(), pins.getIntrinsicsK()),
                         pick(target.getSubgroupsM(), pins.getSubgroupsM()),
                         pick(target.getSubgroupsN(), pins.getSubgroupsN()),
                         pick(target.getSplitK(), pins.getSplitK()),
                         target.getConfigTable(), target.getRequireUkernel());
}
