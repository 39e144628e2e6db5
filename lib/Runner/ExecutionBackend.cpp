//===- ExecutionBackend.cpp - executing mx programs on the host -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/ExecutionBackend.h"
#include "mx/Dialect/MX/Transforms/Prepack.h"
#include "mx/Runner/GFX950ISABackend.h"
#include "mx/Runner/HIPBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace mlir;
using namespace mlir::mx;

ExecutionBackend::~ExecutionBackend() = default;

/// Returns "@a, @b" for the function definitions of \p module.
static std::string listFunctions(ArrayRef<func::FuncOp> functions) {
  if (functions.empty())
    return "none";
  std::string list;
  llvm::raw_string_ostream os(list);
  llvm::interleaveComma(
      functions, os, [&](func::FuncOp func) { os << "@" << func.getName(); });
  return list;
}

/// Returns the list of supported element types for diagnostics.
static std::string listElementKinds() {
  std::string list;
  llvm::raw_string_ostream os(list);
  llvm::interleaveComma(getAllElementKinds(), os, [&](ElementKind kind) {
    os << getElementKindName(kind);
  });
  return list;
}

/// The largest tensor, in bytes, mx-run moves between host and program (the
/// default memory budget; a larger --max-memory does not raise it).
static constexpr int64_t kMaxTensorBytes = kDefaultMemoryBudget;

/// Converts \p type, the type of \p what, to a HostTensorType.
static FailureOr<HostTensorType> convertType(func::FuncOp func, Type type,
                                             const Twine &what,
                                             bool requireStatic) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return func.emitError() << what << " of @" << func.getName() << " has type "
                            << type << "; only ranked tensors are supported";
  std::optional<ElementKind> kind = getElementKind(tensorType.getElementType());
  if (!kind)
    return func.emitError() << what << " of @" << func.getName() << " (" << type
                            << ") has an unsupported element type "
                            << tensorType.getElementType()
                            << " (supported: " << listElementKinds() << ")";
  if (requireStatic && !tensorType.hasStaticShape())
    return func.emitError()
           << what << " of @" << func.getName() << " has the dynamic shape "
           << type << "; arguments must have static shapes";
  // Keep host buffers to a size that can be allocated (and the element
  // count far from overflowing).
  int64_t bytes = getStorageBytes(*kind);
  for (int64_t size : tensorType.getShape()) {
    if (ShapedType::isDynamic(size) || size == 0)
      continue;
    if (bytes > kMaxTensorBytes / size)
      return func.emitError()
             << what << " of @" << func.getName() << " (" << type
             << ") is too large: mx-run handles at most " << kMaxTensorBytes
             << " bytes per tensor";
    bytes *= size;
  }
  return HostTensorType(*kind, tensorType.getShape());
}

FailureOr<EntrySignature> mlir::mx::getEntrySignature(ModuleOp module,
                                                      StringRef entry) {
  SmallVector<func::FuncOp> definitions;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isDeclaration())
      definitions.push_back(func);

  // Errors about the module as a whole point at it (FILE:0:0 for an
  // implicit module).
  Location moduleLoc = module.getLoc();
  func::FuncOp func;
  if (entry.empty()) {
    if (definitions.size() != 1)
      return emitError(moduleLoc)
             << "the module has " << definitions.size()
             << " function definitions; choose the entry function with "
                "--entry=NAME (available: "
             << listFunctions(definitions) << ")";
    func = definitions.front();
  } else {
    func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isDeclaration())
      return emitError(moduleLoc)
             << "no function definition named '" << entry
             << "' in the module (available: " << listFunctions(definitions)
             << ")";
  }

  EntrySignature signature;
  signature.func = func;
  FailureOr<SmallVector<std::pair<unsigned, func::FuncOp>>> prepacks =
      getPrepackFunctions(func);
  if (failed(prepacks))
    return failure();
  SmallVector<Type> logical(func.getArgumentTypes());
  for (auto [index, prepack] : *prepacks) {
    Type packed = func.getArgumentTypes()[index];
    if (prepack.getResultTypes()[0] != packed)
      return func.emitError()
             << "argument #" << index << " of @" << func.getName() << " ("
             << packed << ") is packed by @" << prepack.getName()
             << ", which returns " << prepack.getResultTypes()[0];
    FailureOr<HostTensorType> converted =
        convertType(func, packed, "argument #" + Twine(index) + " (packed)",
                    /*requireStatic=*/true);
    if (failed(converted))
      return failure();
    signature.prepacked.push_back({index, prepack.getName().str(), *converted});
    logical[index] = prepack.getArgumentTypes()[0];
  }
  for (auto [index, type] : llvm::enumerate(logical)) {
    FailureOr<HostTensorType> converted = convertType(
        func, type, "argument #" + Twine(index), /*requireStatic=*/true);
    if (failed(converted))
      return failure();
    signature.arguments.push_back(*converted);
  }
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<HostTensorType> converted = convertType(
        func, type, "result #" + Twine(index), /*requireStatic=*/false);
    if (failed(converted))
      return failure();
    signature.results.push_back(*converted);
  }
  return signature;
}

SmallVector<HostTensorType> EntrySignature::getCalleeArguments() const {
  SmallVector<HostTensorType> types(arguments);
  for (const PrepackedArgument &prepacked : this->prepacked)
    types[prepacked.argument] = prepacked.packed;
  return types;
}

FailureOr<SmallVector<std::pair<unsigned, func::FuncOp>>>
mlir::mx::getPrepackFunctions(func::FuncOp func) {
  SmallVector<std::pair<unsigned, func::FuncOp>> prepacks;
  for (unsigned index = 0, e = func.getNumArguments(); index < e; ++index) {
    Attribute attr = func.getArgAttr(index, kPrepackedByAttrName);
    if (!attr)
      continue;
    auto name = dyn_cast<FlatSymbolRefAttr>(attr);
    auto prepack =
        name ? SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(func, name)
             : func::FuncOp();
    if (!prepack || prepack.isDeclaration() || prepack.getNumArguments() != 1 ||
        prepack.getNumResults() != 1)
      return func.emitError()
             << "'" << kPrepackedByAttrName << "' of argument #" << index
             << " of @" << func.getName() << " (" << attr
             << ") must name a function definition of the module taking the "
                "logical tensor and returning the packed one";
    prepacks.push_back({index, prepack});
  }
  return prepacks;
}

LogicalResult mlir::mx::verifyInputs(const EntrySignature &signature,
                                     ArrayRef<HostTensor> inputs) {
  func::FuncOp func = signature.func;
  if (inputs.size() != signature.arguments.size())
    return func.emitError()
           << "@" << func.getName() << " takes " << signature.arguments.size()
           << " arguments, got " << inputs.size();
  for (auto [index, input, type] :
       llvm::enumerate(inputs, signature.arguments)) {
    if (input.type != type)
      return func.emitError()
             << "argument #" << index << " of @" << func.getName()
             << " has type " << type.str() << ", got a " << input.type.str();
    if (static_cast<int64_t>(input.data.size()) != type.getStorageSize())
      return func.emitError()
             << "argument #" << index << " holds " << input.data.size()
             << " bytes, expected " << type.getStorageSize();
  }
  return success();
}

/// The bytes of a value of static shaped type \p type (sub-byte elements
/// packed), or nullopt when they overflow uint64_t or the elements have no
/// fixed size.
static std::optional<uint64_t> getStaticBytes(ShapedType type) {
  Type elementType = type.getElementType();
  uint64_t bits = 1;
  if (auto vector = dyn_cast<VectorType>(elementType)) {
    if (vector.isScalable())
      return std::nullopt;
    bits = vector.getNumElements();
    elementType = vector.getElementType();
  }
  if (elementType.isIndex())
    bits *= 64;
  else if (elementType.isIntOrFloat())
    bits *= elementType.getIntOrFloatBitWidth();
  else
    return std::nullopt;
  std::optional<uint64_t> total = bits;
  for (int64_t size : type.getShape()) {
    total = llvm::checkedMulUnsigned(*total, uint64_t(size));
    if (!total)
      return std::nullopt;
  }
  return *total / 8 + (*total % 8 != 0);
}

LogicalResult mlir::mx::checkMemoryBudget(Operation *root, uint64_t budget) {
  auto check = [&](Value value) -> LogicalResult {
    auto type = dyn_cast<ShapedType>(value.getType());
    if (!type || !isa<TensorType, MemRefType>(type) || !type.hasStaticShape())
      return success();
    std::optional<uint64_t> bytes = getStaticBytes(type);
    if (bytes && *bytes <= budget)
      return success();
    std::string size = bytes ? std::to_string(*bytes) + " bytes"
                             : std::string("more than 2^64 bytes");
    if (auto result = dyn_cast<OpResult>(value))
      return result.getOwner()->emitError()
             << "'" << result.getOwner()->getName() << "' result #"
             << result.getResultNumber() << " (" << type << ") needs " << size
             << ": over the memory budget of " << budget
             << " bytes per buffer (mx-run --max-memory)";
    auto argument = cast<BlockArgument>(value);
    Operation *parent = argument.getOwner()->getParentOp();
    InFlightDiagnostic diag = parent->emitError();
    if (auto func = dyn_cast<FunctionOpInterface>(parent))
      diag << "argument #" << argument.getArgNumber() << " of @"
           << func.getName();
    else
      diag << "block argument #" << argument.getArgNumber() << " of '"
           << parent->getName() << "'";
    return diag << " (" << type << ") needs " << size
                << ": over the memory budget of " << budget
                << " bytes per buffer (mx-run --max-memory)";
  };
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (failed(check(argument)))
            return WalkResult::interrupt();
    for (Value result : op->getResults())
      if (failed(check(result)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult mlir::mx::checkNoRecursion(ModuleOp module) {
  llvm::StringMap<SmallVector<func::CallOp>> calls;
  module.walk([&](func::CallOp call) {
    if (auto caller = call->getParentOfType<func::FuncOp>())
      calls[caller.getName()].push_back(call);
  });
  // Depth-first over the call graph; 1: on the current path, 2: done.
  llvm::StringMap<int> state;
  SmallVector<StringRef> path;
  std::function<func::CallOp(StringRef)> visit =
      [&](StringRef name) -> func::CallOp {
    state[name] = 1;
    path.push_back(name);
    for (func::CallOp call : calls.lookup(name)) {
      int mark = state.lookup(call.getCallee());
      if (mark == 1)
        return call;
      if (mark == 0)
        if (func::CallOp cycle = visit(call.getCallee()))
          return cycle;
    }
    path.pop_back();
    state[name] = 2;
    return nullptr;
  };
  for (auto func : module.getOps<func::FuncOp>()) {
    if (state.lookup(func.getName()))
      continue;
    path.clear();
    func::CallOp cycle = visit(func.getName());
    if (!cycle)
      continue;
    std::string chain;
    auto start = llvm::find(path, cycle.getCallee());
    for (StringRef name : llvm::make_range(start, path.end()))
      chain += "@" + name.str() + " -> ";
    return cycle.emitError()
           << "recursive call: " << chain << "@" << cycle.getCallee()
           << "; mx-run runs programs whose call graph has no cycle";
  }
  return success();
}

FailureOr<ExecutionBackend::LoweredEntry>
ExecutionBackend::lowerEntry(ModuleOp module, StringRef entry,
                             ArrayRef<HostTensor> inputs,
                             const Lowering &lowering) const {
  FailureOr<EntrySignature> signature = getEntrySignature(module, entry);
  if (failed(signature) || failed(verifyInputs(*signature, inputs)) ||
      failed(checkNoRecursion(module)))
    return failure();
  func::FuncOp func = signature->func;
  StringRef name = func.getName();

  OwningOpRef<ModuleOp> lowered = module.clone();
  if (lowering.onlyEntry) {
    // The entry's packing functions are run too.
    llvm::StringSet<> kept;
    kept.insert(name);
    for (const PrepackedArgument &prepacked : signature->prepacked)
      kept.insert(prepacked.function);
    for (auto other :
         llvm::make_early_inc_range(lowered->getOps<func::FuncOp>()))
      if (!kept.contains(other.getName()) &&
          SymbolTable::symbolKnownUseEmpty(other, *lowered))
        other.erase();
  }
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  if (lowering.configurePassManager &&
      failed(lowering.configurePassManager(pm)))
    return failure();
  if (failed(lowering.buildPipeline(pm, func)))
    return failure();
  if (failed(pm.run(*lowered)))
    return func.emitError()
           << lowering.pipelineFailure << " the module containing @" << name;
  // The buffers the compiled program allocates (the emulator's memrefs; the
  // CPU path's are checked at the tensor level before it runs).
  if (failed(checkMemoryBudget(*lowered, memoryBudget)))
    return failure();
  return LoweredEntry{std::move(*signature), std::move(lowered)};
}

ArrayRef<StringRef> mlir::mx::getExecutionBackendNames() {
  static const StringRef names[] = {"cpu", "gfx950-emu", "gfx950-isa", "hip",
                                    "reference"};
  return names;
}

std::unique_ptr<ExecutionBackend>
mlir::mx::createExecutionBackend(StringRef name) {
  if (name == "cpu")
    return std::make_unique<CPUBackend>();
  if (name == "gfx950-emu")
    return std::make_unique<GFX950EmulatorBackend>();
  if (name == "gfx950-isa")
    return std::make_unique<GFX950ISABackend>(GFX950EmulatorBackend::Options(),
                                              GFX950ISABackend::ISAOptions());
  if (name == "hip")
    return std::make_unique<HIPBackend>(GFX950EmulatorBackend::Options(),
                                        HIPBackend::HIPOptions());
  if (name == "reference")
    return std::make_unique<ReferenceBackend>();
  return nullptr;
}
