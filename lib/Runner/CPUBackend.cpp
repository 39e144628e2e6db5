//===- CPUBackend.cpp - JIT execution on the host CPU ---------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Calling convention. After buildCPUPipeline every tensor argument is a
// memref with the identity layout, which the LLVM lowering passes as the
// flattened descriptor
//   allocated ptr, aligned ptr, offset, sizes[rank], strides[rank]
// (3 + 2 * rank scalars), and the tensor results come back as one descriptor
// each, packed into the returned struct. ExecutionEngine's packed wrapper
// `_mlir_<name>(void **)` takes one pointer per scalar argument followed by a
// pointer to storage for the returned struct, whose fields are all 8 bytes
// wide on a 64-bit host.
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/ExecutionBackend.h"

#include "mx/Conversion/MXToLinalg/MXToLinalg.h"
#include "mx/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::mx;

/// The `allocated` pointer of descriptors that point at constant globals.
static constexpr uintptr_t kGlobalAllocatedPtr = 0xdeadbeef;

/// Alignment of the argument buffers.
static constexpr size_t kBufferAlignment = 64;

static void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

//===----------------------------------------------------------------------===//
// Runtime support
//===----------------------------------------------------------------------===//

// LLVM lowers some conversions between f64/f32 and bf16/f16 to calls into
// the compiler runtime (compiler-rt builtins or libgcc), which the host
// process may lack: Debian's libgcc 12 has no `__truncdfbf2`, for instance.
// These fallbacks are registered with the JIT for the names the process does
// not provide. They round to nearest-even through llvm::APFloat
// (mx::encodeElement) and use the natural ABI of __bf16/_Float16 values.

#if defined(__x86_64__) || defined(__aarch64__)
#define MX_RUNNER_HAS_HALF_ABI 1

static __bf16 truncToBF16(double value) {
  return llvm::bit_cast<__bf16>(
      static_cast<uint16_t>(*encodeElement(ElementKind::BF16, value)));
}
static _Float16 truncToF16(double value) {
  return llvm::bit_cast<_Float16>(
      static_cast<uint16_t>(*encodeElement(ElementKind::F16, value)));
}
static __bf16 mxTruncDFBF2(double value) { return truncToBF16(value); }
static __bf16 mxTruncSFBF2(float value) { return truncToBF16(value); }
static _Float16 mxTruncDFHF2(double value) { return truncToF16(value); }
static _Float16 mxTruncSFHF2(float value) { return truncToF16(value); }
static float mxExtendBFSF2(__bf16 value) {
  return static_cast<float>(
      decodeElement(ElementKind::BF16, llvm::bit_cast<uint16_t>(value)));
}
static float mxExtendHFSF2(_Float16 value) {
  return static_cast<float>(
      decodeElement(ElementKind::F16, llvm::bit_cast<uint16_t>(value)));
}
static double mxExtendHFDF2(_Float16 value) {
  return decodeElement(ElementKind::F16, llvm::bit_cast<uint16_t>(value));
}
#endif

/// The InvalidRouting codes the running program reported through
/// kInvalidRoutingReporter (the host lowerings of grouped and routed
/// contractions call it on inconsistent routing), one bit per code.
static thread_local uint32_t invalidRoutingReports = 0;
static void mxReportInvalidRouting(int32_t code) {
  if (code >= 0 && code < 32)
    invalidRoutingReports |= 1u << code;
}

/// The program's `malloc`: zeroed memory, so that what a program reads of a
/// buffer it never wrote (the contents of a `tensor.empty`, which are
/// undefined) is the same on every run and equals the reference evaluator's
/// (which materializes `tensor.empty` as zeros). The runner frees results with
/// std::free.
static void *mxZeroedMalloc(size_t size) { return std::calloc(1, size); }

/// Defines the runtime error reporters and the zeroing allocator in
/// \p engine.
static void registerRuntimeReporters(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner(kInvalidRoutingReporter)] =
        llvm::orc::ExecutorSymbolDef::fromPtr(&mxReportInvalidRouting,
                                              llvm::JITSymbolFlags::Exported);
    symbols[interner("malloc")] = llvm::orc::ExecutorSymbolDef::fromPtr(
        &mxZeroedMalloc, llvm::JITSymbolFlags::Exported);
    return symbols;
  });
}

/// Defines the runtime fallbacks the process lacks in \p engine.
static void registerRuntimeFallbacks(ExecutionEngine &engine) {
#ifdef MX_RUNNER_HAS_HALF_ABI
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](const char *name, auto *function) {
      if (!llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name))
        symbols[interner(name)] = llvm::orc::ExecutorSymbolDef::fromPtr(
            function, llvm::JITSymbolFlags::Exported);
    };
    add("__truncdfbf2", &mxTruncDFBF2);
    add("__truncsfbf2", &mxTruncSFBF2);
    add("__truncdfhf2", &mxTruncDFHF2);
    add("__truncsfhf2", &mxTruncSFHF2);
    add("__extendbfsf2", &mxExtendBFSF2);
    add("__extendhfsf2", &mxExtendHFSF2);
    add("__extendhfdf2", &mxExtendHFDF2);
    return symbols;
  });
#else
  (void)engine;
#endif
}

/// Returns the number of 8-byte scalars of the memref descriptor of a
/// rank-\p rank memref.
static int64_t getDescriptorWords(int64_t rank) { return 3 + 2 * rank; }

/// Counts the scalar leaves of an LLVM type (ptr and i64 count 1, arrays and
/// structs the sum of their elements); returns -1 for anything that is not a
/// pointer or a 64-bit integer.
static int64_t countWords(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return 1;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() == 64 ? 1 : -1;
  if (auto arrayType = dyn_cast<LLVM::LLVMArrayType>(type)) {
    int64_t element = countWords(arrayType.getElementType());
    return element < 0 ? -1 : element * arrayType.getNumElements();
  }
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    int64_t total = 0;
    for (Type body : structType.getBody()) {
      int64_t words = countWords(body);
      if (words < 0)
        return -1;
      total += words;
    }
    return total;
  }
  return -1;
}

/// Checks that the lowered entry has the descriptor calling convention the
/// packed call below assumes.
static LogicalResult verifyLoweredSignature(ModuleOp lowered,
                                            const EntrySignature &signature) {
  func::FuncOp entry = signature.func;
  StringRef name = entry.getName();
  auto func = lowered.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!func)
    return entry.emitError()
           << "the CPU pipeline did not produce an llvm.func named @" << name;
  int64_t argWords = 0, resultWords = 0;
  for (const HostTensorType &type : signature.arguments)
    argWords += getDescriptorWords(type.shape.size());
  for (const HostTensorType &type : signature.results)
    resultWords += getDescriptorWords(type.shape.size());

  LLVM::LLVMFunctionType funcType = func.getFunctionType();
  bool argsMatch = static_cast<int64_t>(funcType.getNumParams()) == argWords &&
                   llvm::all_of(funcType.getParams(), [](Type type) {
                     return countWords(type) == 1;
                   });
  Type resultType = funcType.getReturnType();
  bool resultsMatch = resultWords == 0 ? isa<LLVM::LLVMVoidType>(resultType)
                                       : countWords(resultType) == resultWords;
  if (!argsMatch || !resultsMatch)
    return entry.emitError()
           << "the lowered @" << name << " has the signature " << funcType
           << ", expected " << argWords << " descriptor scalars and "
           << resultWords
           << " returned descriptor words (identity-layout memrefs)";
  return success();
}

namespace {
/// Aligned host buffers owned for the duration of one call.
class ArgumentBuffers {
public:
  ~ArgumentBuffers() {
    for (auto [ptr, size] : buffers)
      llvm::deallocate_buffer(ptr, size, kBufferAlignment);
  }

  void *allocate(ArrayRef<uint8_t> data) {
    size_t size = std::max<size_t>(data.size(), 1);
    void *ptr = llvm::allocate_buffer(size, kBufferAlignment);
    if (!data.empty())
      std::memcpy(ptr, data.data(), data.size());
    buffers.push_back({ptr, size});
    return ptr;
  }

  bool contains(const void *ptr) const {
    return llvm::any_of(buffers,
                        [&](auto entry) { return entry.first == ptr; });
  }

private:
  SmallVector<std::pair<void *, size_t>> buffers;
};
} // namespace

/// Copies a strided memref described by \p words into a HostTensor.
static FailureOr<HostTensor> readResult(func::FuncOp func, unsigned index,
                                        const HostTensorType &declared,
                                        const int64_t *words) {
  int64_t rank = declared.shape.size();
  const char *aligned = reinterpret_cast<const char *>(words[1]);
  int64_t offset = words[2];
  ArrayRef<int64_t> sizes(words + 3, rank);
  ArrayRef<int64_t> strides(words + 3 + rank, rank);
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    int64_t want = declared.shape[dim];
    if (size < 0 || (want >= 0 && size != want))
      return func.emitError()
             << "result #" << index << " came back with size " << size
             << " in dimension " << dim << ", expected " << declared.str();
  }
  int64_t numElements = 1;
  for (int64_t size : sizes) {
    if (size != 0 && numElements > (int64_t(1) << 40) / size)
      return func.emitError()
             << "result #" << index << " came back with an implausible shape";
    numElements *= size;
  }
  HostTensor tensor(HostTensorType(declared.elementKind, sizes));
  int64_t n = tensor.getNumElements();
  if (n == 0)
    return tensor;
  if (!aligned)
    return func.emitError()
           << "result #" << index << " came back as a null pointer";
  unsigned bytes = getStorageBytes(declared.elementKind);
  SmallVector<int64_t> rowMajor = getRowMajorStrides(sizes);
  bool contiguous = llvm::all_of(llvm::seq<int64_t>(0, rank), [&](int64_t d) {
    return sizes[d] == 1 || strides[d] == rowMajor[d];
  });
  if (contiguous) {
    std::memcpy(tensor.data.data(), aligned + offset * bytes, n * bytes);
    return tensor;
  }
  SmallVector<int64_t> position(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t element = offset;
    for (int64_t d = 0; d < rank; ++d)
      element += position[d] * strides[d];
    std::memcpy(tensor.data.data() + i * bytes, aligned + element * bytes,
                bytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++position[d] < sizes[d])
        break;
      position[d] = 0;
    }
  }
  return tensor;
}

/// Checks that only the llvm dialect is left in \p lowered, which is what
/// can be JIT-compiled.
static LogicalResult verifyOnlyLLVMDialect(ModuleOp lowered) {
  WalkResult leftover = lowered->walk([](Operation *op) {
    if (isa<ModuleOp>(op) || op->getName().getDialectNamespace() == "llvm")
      return WalkResult::advance();
    op->emitError() << "'" << op->getName()
                    << "' is left after the CPU pipeline (mx-cpu-pipeline); "
                       "only the llvm dialect can be JIT-compiled";
    return WalkResult::interrupt();
  });
  return failure(leftover.wasInterrupted());
}

/// JIT-compiles \p lowered at \p optLevel (at most 3) with the runtime
/// fallbacks and reporters defined, and initializes it.
static FailureOr<std::unique_ptr<ExecutionEngine>>
createEngine(ModuleOp lowered, func::FuncOp func, unsigned optLevel) {
  initializeNativeTarget();
  optLevel = std::min(optLevel, 3u);
  auto transformer = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(optLevel);
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(lowered, engineOptions);
  if (!engine)
    return func.emitError() << "cannot JIT-compile @" << func.getName() << ": "
                            << llvm::toString(engine.takeError());
  registerRuntimeFallbacks(**engine);
  registerRuntimeReporters(**engine);
  (*engine)->initialize();
  return std::move(*engine);
}

namespace {
/// The arguments of a packed call of an entry: one pointer per descriptor
/// scalar of its arguments (copied into buffers the call owns), then a
/// pointer to the storage of the returned struct. Not copyable: the
/// pointers point into it.
struct PackedCall {
  PackedCall(const EntrySignature &signature, ArrayRef<HostTensor> inputs) {
    int64_t argWords = 0, resultWords = 0;
    for (const HostTensorType &type : signature.arguments)
      argWords += getDescriptorWords(type.shape.size());
    for (const HostTensorType &type : signature.results)
      resultWords += getDescriptorWords(type.shape.size());
    scalars.reserve(argWords);
    for (const HostTensor &input : inputs) {
      auto ptr = reinterpret_cast<intptr_t>(buffers.allocate(input.data));
      scalars.push_back(ptr); // allocated
      scalars.push_back(ptr); // aligned
      scalars.push_back(0);   // offset
      llvm::append_range(scalars, input.type.shape);
      llvm::append_range(scalars, getRowMajorStrides(input.type.shape));
    }
    resultStorage.assign(std::max<int64_t>(resultWords, 1), 0);
    for (int64_t &scalar : scalars)
      pointers.push_back(&scalar);
    if (resultWords > 0)
      pointers.push_back(resultStorage.data());
  }
  PackedCall(const PackedCall &) = delete;
  PackedCall &operator=(const PackedCall &) = delete;

  ArgumentBuffers buffers;
  SmallVector<int64_t> scalars;
  SmallVector<int64_t> resultStorage;
  SmallVector<void *> pointers;
};
} // namespace

/// Copies every result of \p call (of the entry \p signature) out of the
/// descriptors it returned; fails at the first one that cannot be read.
static FailureOr<SmallVector<HostTensor>>
readResults(const EntrySignature &signature, const PackedCall &call) {
  SmallVector<HostTensor> results;
  int64_t position = 0;
  for (auto [index, type] : llvm::enumerate(signature.results)) {
    const int64_t *words = call.resultStorage.data() + position;
    position += getDescriptorWords(type.shape.size());
    FailureOr<HostTensor> result =
        readResult(signature.func, index, type, words);
    if (failed(result))
      return failure();
    results.push_back(std::move(*result));
  }
  return results;
}

/// Frees what the program allocated for the results of \p call, each
/// allocation once (not the arguments, which it may return in place, nor
/// constant globals).
static void freeResults(const EntrySignature &signature,
                        const PackedCall &call) {
  llvm::DenseSet<void *> freed;
  int64_t position = 0;
  for (const HostTensorType &type : signature.results) {
    auto *allocated = reinterpret_cast<void *>(call.resultStorage[position]);
    position += getDescriptorWords(type.shape.size());
    if (allocated &&
        reinterpret_cast<uintptr_t>(allocated) != kGlobalAllocatedPtr &&
        !call.buffers.contains(allocated) && freed.insert(allocated).second)
      std::free(allocated);
  }
}

/// Fails with an error on \p func for the invalid routing that the program
/// reported (invalidRoutingReports), if any.
static LogicalResult checkRoutingReports(func::FuncOp func) {
  // The first reported code, in this order, names the error.
  static constexpr std::pair<InvalidRouting, const char *> kMessages[] = {
      {InvalidRouting::Offsets,
       "inconsistent expert offsets in mx.grouped_scaled_contraction (they "
       "must be non-decreasing within [0, T]); the groups were not computed"},
      {InvalidRouting::RepeatedRows,
       "sorted_ids of mx.routed_scaled_contraction name a routed row more "
       "than once; the experts were not computed"},
      {InvalidRouting::UnnamedRows,
       "sorted_ids of mx.routed_scaled_contraction name no position for some "
       "routed row, against its all_rows_named; the experts were not "
       "computed"},
  };
  for (auto [code, message] : kMessages)
    if ((invalidRoutingReports >> static_cast<int32_t>(code)) & 1)
      return func.emitError() << "@" << func.getName() << ": " << message;
  return success();
}

/// Calls the compiled function of \p signature (whose argument types are
/// those of the function itself) on \p inputs and returns its results.
static FailureOr<SmallVector<HostTensor>>
invoke(ExecutionEngine &engine, ModuleOp lowered,
       const EntrySignature &signature, ArrayRef<HostTensor> inputs) {
  func::FuncOp func = signature.func;
  std::string name = func.getName().str();
  if (failed(verifyLoweredSignature(lowered, signature)))
    return failure();
  PackedCall call(signature, inputs);
  invalidRoutingReports = 0;
  if (llvm::Error error = engine.invokePacked(name, call.pointers))
    return func.emitError() << "cannot call @" << name << ": "
                            << llvm::toString(std::move(error));

  // Copy every result out before freeing anything: results may share an
  // allocation.
  FailureOr<SmallVector<HostTensor>> results = readResults(signature, call);
  freeResults(signature, call);
  if (failed(checkRoutingReports(func)))
    return failure();
  return results;
}

FailureOr<SmallVector<HostTensor>>
CPUBackend::run(ModuleOp module, StringRef entry, ArrayRef<HostTensor> inputs) {
  // Lower a copy to the LLVM dialect.
  Lowering lowering;
  lowering.configurePassManager = options.configurePassManager;
  lowering.buildPipeline = [](PassManager &pm, func::FuncOp) {
    buildCPUPipeline(pm, CPUPipelineOptions());
    return success();
  };
  lowering.pipelineFailure = "the CPU pipeline (mx-cpu-pipeline) failed to "
                             "lower";
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  FailureOr<LoweredEntry> loweredEntry =
      lowerEntry(module, entry, inputs, lowering);
  if (failed(loweredEntry))
    return failure();
  const EntrySignature *signature = &loweredEntry->signature;
  OwningOpRef<ModuleOp> &lowered = loweredEntry->module;
  func::FuncOp func = signature->func;
  if (failed(verifyOnlyLLVMDialect(*lowered)))
    return failure();

  FailureOr<std::unique_ptr<ExecutionEngine>> engine =
      createEngine(*lowered, func, options.optLevel);
  if (failed(engine))
    return failure();
  // The weights packed once (mx.prepacked_by), then the entry on them.
  SmallVector<HostTensor> callInputs(inputs.begin(), inputs.end());
  for (const PrepackedArgument &prepacked : signature->prepacked) {
    EntrySignature packer;
    packer.func = module.lookupSymbol<func::FuncOp>(prepacked.function);
    packer.arguments = {signature->arguments[prepacked.argument]};
    packer.results = {prepacked.packed};
    FailureOr<SmallVector<HostTensor>> packed =
        invoke(**engine, *lowered, packer, inputs[prepacked.argument]);
    if (failed(packed))
      return failure();
    callInputs[prepacked.argument] = std::move((*packed)[0]);
  }
  EntrySignature callee = *signature;
  callee.arguments = signature->getCalleeArguments();
  return invoke(**engine, *lowered, callee, callInputs);
}
