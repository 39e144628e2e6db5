//===- WaveEmulator.cpp - gfx950 wave emulator for GPU kernels ------------===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//
//
// A lock-step interpreter: the ops of a workgroup run one at a time, each for
// all threads of the workgroup. Run-time values are either registers (one
// byte string per thread, or one for all threads when uniform) or memref
// views (storage + offset/sizes/strides, with a per-thread stride for
// private memory). Structured control flow needs uniform bounds and
// conditions; everything else fails with an error naming the op.
//
//===----------------------------------------------------------------------===//

#include "mx/Emulator/WaveEmulator.h"

#include "mx/Emulator/ScaledMFMA.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <memory>
#include <string>

using namespace mlir;
using namespace mlir::mx::emu;
namespace hw = ::mx::emu;

static_assert(llvm::endianness::native == llvm::endianness::little,
              "the emulator stores values in host byte order");

namespace {

//===----------------------------------------------------------------------===//
// Run-time values
//===----------------------------------------------------------------------===//

/// Most threads in a workgroup (the hardware limit).
constexpr int64_t kMaxThreads = 1024;
/// Most bytes of private and workgroup memory per workgroup.
constexpr int64_t kMaxLocalBytes = int64_t(1) << 30;
/// Deepest func.call nesting.
constexpr int kMaxCallDepth = 64;

/// One memory object: a kernel argument's buffer, or memory the emulator
/// allocated (private / workgroup), which tracks initialization per byte.
struct Storage {
  uint8_t *data = nullptr;
  int64_t size = 0;
  /// For messages: "kernel argument #0", "memref.alloca at loc(...)".
  std::string name;
  /// Backing store of emulator-allocated memory.
  std::vector<uint8_t> owned;
  /// Per byte: written yet? Empty when not tracked (kernel arguments).
  std::vector<uint8_t> initialized;
};

/// A memref value: elements at `offset + sum(index_d * strides_d)` (in
/// elements of `elemBytes` bytes) of the storage, shifted by
/// `threadStride * thread` bytes for per-thread (private) memory.
struct MemView {
  Storage *storage = nullptr;
  int64_t threadStride = 0;
  int64_t offset = 0;
  SmallVector<int64_t, 6> sizes;
  SmallVector<int64_t, 6> strides;
  int64_t elemBytes = 0;
};

/// A non-memref value: `bytes` bytes per thread, stored once when uniform.
struct Reg {
  uint32_t bytes = 0;
  bool uniform = true;
  std::vector<uint8_t> data;

  Reg() = default;
  Reg(uint32_t bytes, bool uniform, int64_t numThreads)
      : bytes(bytes), uniform(uniform),
        data(size_t(bytes) * (uniform ? 1 : numThreads), 0) {}
  const uint8_t *at(int64_t thread) const {
    return data.data() + (uniform ? 0 : thread * int64_t(bytes));
  }
  uint8_t *at(int64_t thread) {
    return data.data() + (uniform ? 0 : thread * int64_t(bytes));
  }
};

/// The run-time value of one SSA value.
struct RtValue {
  bool isMem = false;
  Reg reg;
  MemView mem;
};

//===----------------------------------------------------------------------===//
// Types and bits
//===----------------------------------------------------------------------===//

/// Bit width of a scalar integer, index (64) or float type; 0 otherwise.
unsigned getScalarBits(Type type) {
  if (type.isIndex())
    return 64;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth();
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatType.getWidth();
  return 0;
}

/// How a scalar or vector type is held in a register.
struct TypeInfo {
  Type elemType;
  unsigned elemBits = 0;
  int64_t numElements = 1;
  bool isVector = false;
  uint32_t bytes = 0;
  SmallVector<int64_t, 4> shape;
};

/// The register layout of `type`, or nullopt if the emulator cannot hold it.
std::optional<TypeInfo> getTypeInfo(Type type) {
  TypeInfo info;
  info.elemType = type;
  if (auto vectorType = dyn_cast<VectorType>(type)) {
    if (vectorType.isScalable())
      return std::nullopt;
    info.elemType = vectorType.getElementType();
    info.numElements = vectorType.getNumElements();
    info.isVector = true;
    info.shape.assign(vectorType.getShape().begin(),
                      vectorType.getShape().end());
  }
  info.elemBits = getScalarBits(info.elemType);
  if (info.elemBits == 0 || info.elemBits > 64)
    return std::nullopt;
  uint64_t bits = uint64_t(info.elemBits) * info.numElements;
  if (bits > (uint64_t(1) << 20))
    return std::nullopt;
  info.bytes = info.isVector ? uint32_t((bits + 7) / 8)
                             : std::max(1u, (info.elemBits + 7) / 8);
  return info;
}

/// Bytes of one memref element of type `type`; 0 when it cannot be stored
/// (sub-byte and odd-width scalars).
int64_t getMemElemBytes(Type type) {
  if (auto vectorType = dyn_cast<VectorType>(type)) {
    std::optional<TypeInfo> info = getTypeInfo(vectorType);
    if (!info || (uint64_t(info->elemBits) * info->numElements) % 8 != 0)
      return 0;
    return info->bytes;
  }
  unsigned bits = getScalarBits(type);
  if (bits == 0 || bits > 64 || bits % 8 != 0)
    return 0;
  return bits / 8;
}

uint64_t maskBits(unsigned width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

int64_t signExtend(uint64_t value, unsigned width) {
  if (width >= 64)
    return int64_t(value);
  return int64_t(value << (64 - width)) >> (64 - width);
}

/// Reads `width` bits at bit offset `bit` of `data` (little-endian stream).
uint64_t readBits(const uint8_t *data, uint64_t bit, unsigned width) {
  uint64_t value = 0;
  if (width % 8 == 0 && bit % 8 == 0) {
    std::memcpy(&value, data + bit / 8, width / 8);
    return value;
  }
  for (unsigned i = 0; i < width; ++i) {
    uint64_t b = bit + i;
    value |= uint64_t((data[b / 8] >> (b % 8)) & 1) << i;
  }
  return value;
}

/// Writes the low `width` bits of `value` at bit offset `bit` of `data`.
void writeBits(uint8_t *data, uint64_t bit, unsigned width, uint64_t value) {
  if (width % 8 == 0 && bit % 8 == 0) {
    std::memcpy(data + bit / 8, &value, width / 8);
    return;
  }
  for (unsigned i = 0; i < width; ++i) {
    uint64_t b = bit + i;
    uint8_t m = uint8_t(1u << (b % 8));
    if ((value >> i) & 1)
      data[b / 8] |= m;
    else
      data[b / 8] &= uint8_t(~m);
  }
}

/// Copies `numBits` bits from `src` at `srcBit` to `dst` at `dstBit`.
void copyBits(uint8_t *dst, uint64_t dstBit, const uint8_t *src,
              uint64_t srcBit, uint64_t numBits) {
  if (dstBit % 8 == 0 && srcBit % 8 == 0 && numBits % 8 == 0) {
    std::memcpy(dst + dstBit / 8, src + srcBit / 8, numBits / 8);
    return;
  }
  for (uint64_t done = 0; done < numBits;) {
    unsigned chunk = unsigned(std::min<uint64_t>(64, numBits - done));
    writeBits(dst, dstBit + done, chunk, readBits(src, srcBit + done, chunk));
    done += chunk;
  }
}

std::string formatList(ArrayRef<int64_t> values) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(values, os);
  os << "]";
  return text;
}

/// The gfx950 source format of a scaled MFMA operand element type.
std::optional<hw::SourceFormat> getSourceFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return hw::SourceFormat::E4M3;
  if (isa<Float8E5M2Type>(type))
    return hw::SourceFormat::E5M2;
  if (isa<Float6E2M3FNType>(type))
    return hw::SourceFormat::E2M3;
  if (isa<Float6E3M2FNType>(type))
    return hw::SourceFormat::E3M2;
  if (isa<Float4E2M1FNType>(type))
    return hw::SourceFormat::E2M1;
  return std::nullopt;
}

/// The result of one element of an elementwise op: bits or an error.
struct ElemResult {
  uint64_t bits = 0;
  const char *error = nullptr;
};

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

class Interpreter {
public:
  Interpreter(gpu::GPUFuncOp kernel, std::array<int64_t, 3> gridSize,
              std::array<int64_t, 3> blockSize, RunStats &stats)
      : kernel(kernel), gridSize(gridSize), blockSize(blockSize), stats(stats) {
  }

  /// Runs the whole launch.
  LogicalResult run(ArrayRef<KernelArg> args);

  const std::string &getError() const { return error; }

private:
  //===--- Errors ---------------------------------------------------------===//

  LogicalResult failLaunch(const Twine &message) {
    error = ("kernel @" + kernel.getName() + ": " + message).str();
    return failure();
  }
  /// An error at `op` (not specific to one thread).
  LogicalResult fail(Operation *op, const Twine &message) {
    std::string where;
    llvm::raw_string_ostream os(where);
    os << "'" << op->getName() << "' at " << op->getLoc();
    if (anyWorkgroup)
      os << " in workgroup (" << blockId[0] << ", " << blockId[1] << ", "
         << blockId[2] << ")";
    return failLaunch(where + ": " + message);
  }
  /// An error at `op` for thread `thread` (all threads when `uniform`).
  LogicalResult failThread(Operation *op, int64_t thread, bool uniform,
                           const Twine &message) {
    if (uniform)
      return fail(op, "(all threads) " + message);
    int64_t x = thread % blockSize[0];
    int64_t y = (thread / blockSize[0]) % blockSize[1];
    int64_t z = thread / (blockSize[0] * blockSize[1]);
    return fail(op, "thread " + Twine(thread) + " (" + Twine(x) + ", " +
                        Twine(y) + ", " + Twine(z) + "): " + message);
  }
  LogicalResult unsupportedType(Operation *op, Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return fail(op, "unsupported type " + text);
  }

  //===--- Values ---------------------------------------------------------===//

  const RtValue *lookup(Operation *op, Value value) {
    auto it = values.find(value);
    if (it == values.end()) {
      (void)fail(op, "operand has no run-time value");
      return nullptr;
    }
    return &it->second;
  }
  const Reg *getReg(Operation *op, Value value) {
    const RtValue *rt = lookup(op, value);
    if (!rt)
      return nullptr;
    if (rt->isMem) {
      (void)fail(op, "expected a non-memref operand");
      return nullptr;
    }
    return &rt->reg;
  }
  const MemView *getMem(Operation *op, Value value) {
    const RtValue *rt = lookup(op, value);
    if (!rt)
      return nullptr;
    if (!rt->isMem) {
      (void)fail(op, "expected a memref operand");
      return nullptr;
    }
    return &rt->mem;
  }
  void setReg(Value value, Reg reg) {
    RtValue &rt = values[value];
    rt.isMem = false;
    rt.reg = std::move(reg);
  }
  void setMem(Value value, MemView mem) {
    RtValue &rt = values[value];
    rt.isMem = true;
    rt.mem = std::move(mem);
  }
  Reg uniformInt(Type type, int64_t value) {
    std::optional<TypeInfo> info = getTypeInfo(type);
    Reg reg(info ? info->bytes : 8, /*uniform=*/true, numThreads);
    writeBits(reg.at(0), 0, info ? info->elemBits : 64,
              uint64_t(value) & maskBits(info ? info->elemBits : 64));
    return reg;
  }
  static int64_t readIndex(const Reg &reg, int64_t thread) {
    int64_t value = 0;
    std::memcpy(&value, reg.at(thread), std::min<uint32_t>(8, reg.bytes));
    return value;
  }
  /// The value of a uniform integer or index operand.
  FailureOr<int64_t> getUniformInt(Operation *op, Value value, StringRef what) {
    const Reg *reg = getReg(op, value);
    if (!reg)
      return failure();
    if (!reg->uniform)
      return fail(op, what + " is not uniform across the workgroup "
                             "(divergence is not supported)");
    unsigned bits = getScalarBits(value.getType());
    return signExtend(readBits(reg->at(0), 0, bits), bits);
  }

  //===--- Execution ------------------------------------------------------===//

  LogicalResult runWorkgroup();
  LogicalResult runBlock(Block &block, ArrayRef<RtValue> blockArgs,
                         SmallVectorImpl<RtValue> &yielded);
  LogicalResult execute(Operation *op);

  LogicalResult elementwise(Operation *op,
                            function_ref<ElemResult(ArrayRef<uint64_t>)> fn);
  LogicalResult
  intBinary(Operation *op,
            function_ref<ElemResult(uint64_t, uint64_t, unsigned)> fn);
  LogicalResult
  floatBinary(Operation *op,
              function_ref<void(llvm::APFloat &, const llvm::APFloat &)> fn);
  LogicalResult execConstant(arith::ConstantOp op);
  LogicalResult execCmpI(arith::CmpIOp op);
  LogicalResult execCast(Operation *op, bool isSigned);
  LogicalResult execBitcast(Operation *op);
  LogicalResult execFloatCast(Operation *op);
  LogicalResult execAffine(Operation *op, AffineMap map, ValueRange operands,
                           int kind);
  LogicalResult execThreadValue(Operation *op,
                                function_ref<int64_t(int64_t)> fn,
                                bool uniform);

  FailureOr<MemView> createLocal(Operation *op, MemRefType type,
                                 ValueRange dynamicSizes, bool perThread);
  LogicalResult access(Operation *op, Value memref, ValueRange indices,
                       int64_t count, bool isWrite, Reg *loaded,
                       const Reg *stored);
  LogicalResult execVectorLoadStore(Operation *op, Value memref,
                                    ValueRange indices, VectorType vectorType,
                                    bool isWrite, Value stored);
  LogicalResult execSubView(memref::SubViewOp op);
  LogicalResult execExtractInsert(Operation *op, Value vector,
                                  ArrayRef<OpFoldResult> position,
                                  Value inserted);
  LogicalResult execBroadcast(vector::BroadcastOp op);
  LogicalResult execStridedSlice(vector::ExtractStridedSliceOp op);

  LogicalResult execFor(scf::ForOp op);
  LogicalResult execIf(scf::IfOp op);
  LogicalResult execCall(func::CallOp op);
  LogicalResult execScaledMFMA(amdgpu::ScaledMFMAOp op);

  gpu::GPUFuncOp kernel;
  std::array<int64_t, 3> gridSize, blockSize;
  RunStats &stats;
  int64_t numThreads = 0;
  std::array<int64_t, 3> blockId = {0, 0, 0};
  bool anyWorkgroup = false;
  std::string error;

  DenseMap<Value, RtValue> values;
  /// Kernel argument values, bound again in every workgroup.
  SmallVector<std::pair<Value, RtValue>> argValues;
  std::vector<std::unique_ptr<Storage>> argStorages;
  /// Private and workgroup memory of the current workgroup.
  std::vector<std::unique_ptr<Storage>> localStorages;
  int64_t localBytes = 0;
  SmallVector<Operation *> callStack;
};

} // namespace

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::run(ArrayRef<KernelArg> args) {
  // Verify first: the interpreter relies on verified IR.
  {
    std::string diagnostics;
    ScopedDiagnosticHandler handler(
        kernel->getContext(), [&](Diagnostic &diag) {
          llvm::raw_string_ostream os(diagnostics);
          os << diag.getLocation() << ": " << diag.str() << "\n";
          return success();
        });
    if (failed(mlir::verify(kernel)))
      return failLaunch("the kernel does not verify:\n" + diagnostics);
  }
  if (kernel.isExternal())
    return failLaunch("the kernel has no body");
  if (!kernel.getBody().hasOneBlock())
    return failLaunch("unstructured control flow (several blocks) is not "
                      "supported");

  for (unsigned d = 0; d < 3; ++d) {
    if (gridSize[d] < 1 || blockSize[d] < 1 || blockSize[d] > kMaxThreads)
      return failLaunch("grid and block sizes must be positive (a workgroup "
                        "has at most " +
                        Twine(kMaxThreads) + " threads), got grid " +
                        formatList(gridSize) + " and block " +
                        formatList(blockSize));
  }
  if (blockSize[0] * blockSize[1] > kMaxThreads ||
      blockSize[0] * blockSize[1] * blockSize[2] > kMaxThreads)
    return failLaunch("a workgroup has at most " + Twine(kMaxThreads) +
                      " threads, got block " + formatList(blockSize));
  numThreads = blockSize[0] * blockSize[1] * blockSize[2];
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
    ArrayRef<int32_t> sizes = *known;
    for (unsigned d = 0; d < sizes.size() && d < 3; ++d)
      if (sizes[d] != blockSize[d])
        return failLaunch(
            "known_block_size " +
            formatList(SmallVector<int64_t>(sizes.begin(), sizes.end())) +
            " does not match the launch block " + formatList(blockSize));
  }
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownGridSize()) {
    ArrayRef<int32_t> sizes = *known;
    for (unsigned d = 0; d < sizes.size() && d < 3; ++d)
      if (sizes[d] != gridSize[d])
        return failLaunch("known_grid_size does not match the launch grid " +
                          formatList(gridSize));
  }

  // Bind the arguments.
  FunctionType type = kernel.getFunctionType();
  if (args.size() != type.getNumInputs())
    return failLaunch("expects " + Twine(type.getNumInputs()) +
                      " arguments, got " + Twine(args.size()));
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type argType = type.getInput(i);
    BlockArgument blockArg = kernel.getArgument(i);
    std::string name = "kernel argument #" + std::to_string(i);
    RtValue rt;
    if (auto memrefType = dyn_cast<MemRefType>(argType)) {
      if (arg.getKind() != KernelArg::Kind::MemRef || !arg.getBuffer())
        return failLaunch(name + " is a memref; pass KernelArg::memref");
      if (!memrefType.getLayout().isIdentity())
        return failLaunch(name + ": only identity-layout memrefs are "
                                 "supported");
      int64_t elemBytes = getMemElemBytes(memrefType.getElementType());
      if (!elemBytes)
        return failLaunch(name + ": unsupported memref element type (sub-byte "
                                 "and odd-width types cannot be stored)");
      ArrayRef<int64_t> shape = arg.getShape();
      if (int64_t(shape.size()) != memrefType.getRank())
        return failLaunch(name + " has rank " + Twine(memrefType.getRank()) +
                          ", got shape " + formatList(shape));
      int64_t numBytes = elemBytes;
      for (auto [d, size] : llvm::enumerate(shape)) {
        if (size < 0 || llvm::MulOverflow(numBytes, size, numBytes))
          return failLaunch(name + ": invalid shape " + formatList(shape));
        if (!memrefType.isDynamicDim(d) && memrefType.getDimSize(d) != size)
          return failLaunch(name + ": shape " + formatList(shape) +
                            " does not match the static sizes of the type");
      }
      auto storage = std::make_unique<Storage>();
      storage->data = arg.getBuffer()->bytes.data();
      storage->size = int64_t(arg.getBuffer()->bytes.size());
      storage->name = name;
      rt.isMem = true;
      rt.mem.storage = storage.get();
      rt.mem.elemBytes = elemBytes;
      rt.mem.sizes.assign(shape.begin(), shape.end());
      rt.mem.strides.resize(shape.size());
      int64_t stride = 1;
      for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
        rt.mem.strides[d] = stride;
        stride *= shape[d];
      }
      argStorages.push_back(std::move(storage));
    } else if (argType.isIntOrIndex()) {
      if (arg.getKind() != KernelArg::Kind::Integer)
        return failLaunch(name + " is an integer; pass KernelArg::integer");
      rt.reg = uniformInt(argType, arg.getInteger());
    } else if (auto floatType = dyn_cast<FloatType>(argType)) {
      if (arg.getKind() != KernelArg::Kind::Float)
        return failLaunch(name + " is a float; pass KernelArg::floating");
      llvm::APFloat value(arg.getFloat());
      bool losesInfo;
      value.convert(floatType.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      rt.reg = uniformInt(
          IntegerType::get(kernel->getContext(), floatType.getWidth()),
          int64_t(value.bitcastToAPInt().getZExtValue()));
    } else {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << argType;
      return failLaunch(name + " has unsupported type " + text);
    }
    argValues.push_back({blockArg, std::move(rt)});
  }

  for (blockId[2] = 0; blockId[2] < gridSize[2]; ++blockId[2])
    for (blockId[1] = 0; blockId[1] < gridSize[1]; ++blockId[1])
      for (blockId[0] = 0; blockId[0] < gridSize[0]; ++blockId[0]) {
        anyWorkgroup = true;
        if (failed(runWorkgroup()))
          return failure();
        ++stats.workgroups;
      }
  return success();
}

LogicalResult Interpreter::runWorkgroup() {
  values.clear();
  localStorages.clear();
  localBytes = 0;
  callStack.clear();
  for (auto &[value, rt] : argValues)
    values[value] = rt;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
    FailureOr<MemView> view =
        createLocal(kernel, cast<MemRefType>(attribution.getType()), {},
                    /*perThread=*/false);
    if (failed(view))
      return failure();
    setMem(attribution, *view);
  }
  for (BlockArgument attribution : kernel.getPrivateAttributions()) {
    FailureOr<MemView> view =
        createLocal(kernel, cast<MemRefType>(attribution.getType()), {},
                    /*perThread=*/true);
    if (failed(view))
      return failure();
    setMem(attribution, *view);
  }
  SmallVector<RtValue> results;
  return runBlock(kernel.getBody().front(), {}, results);
}

LogicalResult Interpreter::runBlock(Block &block, ArrayRef<RtValue> blockArgs,
                                    SmallVectorImpl<RtValue> &yielded) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), blockArgs))
    values[arg] = value;
  for (Operation &op : block) {
    ++stats.operations;
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      if (!isa<scf::YieldOp, func::ReturnOp, gpu::ReturnOp>(op))
        return fail(&op, "unsupported terminator");
      yielded.clear();
      for (Value operand : op.getOperands()) {
        const RtValue *rt = lookup(&op, operand);
        if (!rt)
          return failure();
        yielded.push_back(*rt);
      }
      return success();
    }
    if (failed(execute(&op)))
      return failure();
  }
  return fail(block.getParentOp(), "block without terminator");
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execute(Operation *op) {
  using APFloat = llvm::APFloat;
  constexpr auto rne = APFloat::rmNearestTiesToEven;
  auto dimOf = [](gpu::Dimension dim) { return unsigned(dim); };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      // arith: constants, integer arithmetic, comparisons, casts.
      .Case<arith::ConstantOp>([&](auto c) { return execConstant(c); })
      .Case<arith::AddIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{a + b};
        });
      })
      .Case<arith::SubIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{a - b};
        });
      })
      .Case<arith::MulIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{a * b};
        });
      })
      .Case<arith::DivUIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          if (b == 0)
            return ElemResult{0, "division by zero"};
          return ElemResult{a / b};
        });
      })
      .Case<arith::RemUIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          if (b == 0)
            return ElemResult{0, "remainder by zero"};
          return ElemResult{a % b};
        });
      })
      .Case<arith::CeilDivUIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          if (b == 0)
            return ElemResult{0, "division by zero"};
          return ElemResult{a / b + (a % b != 0)};
        });
      })
      .Case<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp>([&](auto) {
        bool isRem = isa<arith::RemSIOp>(op);
        bool isFloor = isa<arith::FloorDivSIOp>(op);
        bool isCeil = isa<arith::CeilDivSIOp>(op);
        return intBinary(op, [&](uint64_t ua, uint64_t ub, unsigned w) {
          int64_t a = signExtend(ua, w), b = signExtend(ub, w);
          if (b == 0)
            return ElemResult{0, "division by zero"};
          int64_t minValue = signExtend(uint64_t(1) << (w - 1), w);
          if (a == minValue && b == -1)
            return ElemResult{0, "signed division overflow"};
          if (isRem)
            return ElemResult{uint64_t(a % b)};
          if (isFloor)
            return ElemResult{uint64_t(llvm::divideFloorSigned(a, b))};
          if (isCeil)
            return ElemResult{uint64_t(llvm::divideCeilSigned(a, b))};
          return ElemResult{uint64_t(a / b)};
        });
      })
      .Case<arith::AndIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{a & b};
        });
      })
      .Case<arith::OrIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{a | b};
        });
      })
      .Case<arith::XOrIOp>([&](auto) {
        return intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{a ^ b};
        });
      })
      .Case<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>([&](auto) {
        bool left = isa<arith::ShLIOp>(op);
        bool arithmetic = isa<arith::ShRSIOp>(op);
        return intBinary(op, [&](uint64_t a, uint64_t b, unsigned w) {
          if (b >= w)
            return ElemResult{0, "shift amount >= bit width (poison)"};
          if (left)
            return ElemResult{a << b};
          if (arithmetic)
            return ElemResult{uint64_t(signExtend(a, w) >> b)};
          return ElemResult{a >> b};
        });
      })
      .Case<arith::MaxSIOp, arith::MinSIOp>([&](auto) {
        bool isMax = isa<arith::MaxSIOp>(op);
        return intBinary(op, [&](uint64_t a, uint64_t b, unsigned w) {
          bool less = signExtend(a, w) < signExtend(b, w);
          return ElemResult{(less == isMax) ? b : a};
        });
      })
      .Case<arith::MaxUIOp, arith::MinUIOp>([&](auto) {
        bool isMax = isa<arith::MaxUIOp>(op);
        return intBinary(op, [&](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{((a < b) == isMax) ? b : a};
        });
      })
      .Case<arith::CmpIOp>([&](auto cmp) { return execCmpI(cmp); })
      .Case<arith::SelectOp>([&](auto) {
        return elementwise(op, [](ArrayRef<uint64_t> in) {
          return ElemResult{(in[0] & 1) ? in[1] : in[2]};
        });
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp>(
          [&](auto) { return execCast(op, /*isSigned=*/true); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp, arith::TruncIOp>(
          [&](auto) { return execCast(op, /*isSigned=*/false); })
      .Case<arith::BitcastOp>([&](auto) { return execBitcast(op); })
      // arith: floating point (APFloat, round to nearest even).
      .Case<arith::AddFOp>([&](auto) {
        return floatBinary(
            op, [&](APFloat &a, const APFloat &b) { a.add(b, rne); });
      })
      .Case<arith::SubFOp>([&](auto) {
        return floatBinary(
            op, [&](APFloat &a, const APFloat &b) { a.subtract(b, rne); });
      })
      .Case<arith::MulFOp>([&](auto) {
        return floatBinary(
            op, [&](APFloat &a, const APFloat &b) { a.multiply(b, rne); });
      })
      .Case<arith::DivFOp>([&](auto) {
        return floatBinary(
            op, [&](APFloat &a, const APFloat &b) { a.divide(b, rne); });
      })
      .Case<arith::NegFOp>([&](auto) {
        unsigned bits = getScalarBits(getElementTypeOrSelf(op->getResult(0)));
        return elementwise(op, [bits](ArrayRef<uint64_t> in) {
          return ElemResult{in[0] ^ (uint64_t(1) << (bits - 1))};
        });
      })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(
          [&](auto) { return execFloatCast(op); })
      // affine
      .Case<affine::AffineApplyOp>([&](auto apply) {
        return execAffine(op, apply.getAffineMap(), apply.getMapOperands(), 0);
      })
      .Case<affine::AffineMinOp>([&](auto min) {
        return execAffine(op, min.getMap(), min.getMapOperands(), -1);
      })
      .Case<affine::AffineMaxOp>([&](auto max) {
        return execAffine(op, max.getMap(), max.getMapOperands(), 1);
      })
      // gpu
      .Case<gpu::ThreadIdOp>([&](auto tid) {
        unsigned d = dimOf(tid.getDimension());
        return execThreadValue(
            op,
            [&](int64_t t) {
              int64_t id[3] = {t % blockSize[0],
                               (t / blockSize[0]) % blockSize[1],
                               t / (blockSize[0] * blockSize[1])};
              return id[d];
            },
            /*uniform=*/false);
      })
      .Case<gpu::BlockIdOp>([&](auto bid) {
        unsigned d = dimOf(bid.getDimension());
        return execThreadValue(
            op, [&](int64_t) { return blockId[d]; }, true);
      })
      .Case<gpu::BlockDimOp>([&](auto dim) {
        unsigned d = dimOf(dim.getDimension());
        return execThreadValue(
            op, [&](int64_t) { return blockSize[d]; }, true);
      })
      .Case<gpu::GridDimOp>([&](auto dim) {
        unsigned d = dimOf(dim.getDimension());
        return execThreadValue(
            op, [&](int64_t) { return gridSize[d]; }, true);
      })
      .Case<gpu::LaneIdOp>([&](auto) {
        return execThreadValue(
            op, [](int64_t t) { return t % hw::kWaveSize; }, false);
      })
      .Case<gpu::SubgroupIdOp>([&](auto) {
        return execThreadValue(
            op, [](int64_t t) { return t / hw::kWaveSize; }, false);
      })
      .Case<gpu::NumSubgroupsOp>([&](auto) {
        return execThreadValue(
            op,
            [&](int64_t) {
              return (numThreads + hw::kWaveSize - 1) / hw::kWaveSize;
            },
            true);
      })
      .Case<gpu::SubgroupSizeOp>([&](auto) {
        return execThreadValue(
            op, [](int64_t) { return int64_t(hw::kWaveSize); }, true);
      })
      // All threads run in lock step: a barrier has nothing to wait for.
      .Case<gpu::BarrierOp>([&](auto) { return success(); })
      // memref
      .Case<memref::AllocaOp>([&](auto alloca) -> LogicalResult {
        FailureOr<MemView> view =
            createLocal(op, alloca.getType(), alloca.getDynamicSizes(), true);
        if (failed(view))
          return failure();
        setMem(alloca.getResult(), *view);
        return success();
      })
      .Case<memref::DimOp>([&](auto dim) -> LogicalResult {
        const MemView *view = getMem(op, dim.getSource());
        if (!view)
          return failure();
        FailureOr<int64_t> index =
            getUniformInt(op, dim.getIndex(), "the dimension index");
        if (failed(index))
          return failure();
        if (*index < 0 || *index >= int64_t(view->sizes.size()))
          return fail(op, "dimension index " + Twine(*index) +
                              " out of range for rank " +
                              Twine(view->sizes.size()));
        setReg(dim.getResult(), uniformInt(dim.getType(), view->sizes[*index]));
        return success();
      })
      .Case<memref::CastOp>([&](auto cast) -> LogicalResult {
        const MemView *view = getMem(op, cast.getSource());
        if (!view)
          return failure();
        auto type = dyn_cast<MemRefType>(cast.getType());
        if (!type || !type.getLayout().isIdentity())
          return fail(op, "only casts to identity-layout memrefs are "
                          "supported");
        MemView result = *view;
        for (auto [d, size] : llvm::enumerate(type.getShape()))
          if (!ShapedType::isDynamic(size) && size != result.sizes[d])
            return fail(op, "static size " + Twine(size) + " of dimension " +
                                Twine(d) +
                                " does not match the run-time "
                                "size " +
                                Twine(result.sizes[d]));
        setMem(cast.getResult(), std::move(result));
        return success();
      })
      .Case<memref::SubViewOp>([&](auto sv) { return execSubView(sv); })
      .Case<memref::LoadOp>([&](auto load) -> LogicalResult {
        std::optional<TypeInfo> info = getTypeInfo(load.getType());
        if (!info)
          return unsupportedType(op, load.getType());
        Reg loaded;
        if (failed(access(op, load.getMemRef(), load.getIndices(), 1,
                          /*isWrite=*/false, &loaded, nullptr)))
          return failure();
        setReg(load.getResult(), std::move(loaded));
        return success();
      })
      .Case<memref::StoreOp>([&](auto store) -> LogicalResult {
        const Reg *value = getReg(op, store.getValueToStore());
        if (!value)
          return failure();
        return access(op, store.getMemRef(), store.getIndices(), 1,
                      /*isWrite=*/true, nullptr, value);
      })
      // vector
      .Case<vector::LoadOp>([&](auto load) {
        return execVectorLoadStore(op, load.getBase(), load.getIndices(),
                                   load.getVectorType(), false, Value());
      })
      .Case<vector::StoreOp>([&](auto store) {
        return execVectorLoadStore(op, store.getBase(), store.getIndices(),
                                   store.getVectorType(), true,
                                   store.getValueToStore());
      })
      .Case<vector::BitCastOp, vector::ShapeCastOp>(
          [&](auto) { return execBitcast(op); })
      .Case<vector::ExtractOp>([&](auto extract) {
        return execExtractInsert(op, extract.getSource(),
                                 extract.getMixedPosition(), Value());
      })
      .Case<vector::InsertOp>([&](auto insert) {
        return execExtractInsert(op, insert.getDest(),
                                 insert.getMixedPosition(),
                                 insert.getValueToStore());
      })
      .Case<vector::BroadcastOp>([&](auto b) { return execBroadcast(b); })
      .Case<vector::ExtractStridedSliceOp>(
          [&](auto slice) { return execStridedSlice(slice); })
      .Case<vector::FromElementsOp>([&](auto fromElements) -> LogicalResult {
        std::optional<TypeInfo> info = getTypeInfo(fromElements.getType());
        if (!info)
          return unsupportedType(op, fromElements.getType());
        SmallVector<const Reg *> in;
        bool uniform = true;
        for (Value element : fromElements.getElements()) {
          const Reg *reg = getReg(op, element);
          if (!reg)
            return failure();
          in.push_back(reg);
          uniform &= reg->uniform;
        }
        Reg out(info->bytes, uniform, numThreads);
        for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t)
          for (auto [i, reg] : llvm::enumerate(in))
            copyBits(out.at(t), i * info->elemBits, reg->at(t), 0,
                     info->elemBits);
        setReg(fromElements.getResult(), std::move(out));
        return success();
      })
      // control flow, calls
      .Case<scf::ForOp>([&](auto loop) { return execFor(loop); })
      .Case<scf::IfOp>([&](auto ifOp) { return execIf(ifOp); })
      .Case<func::CallOp>([&](auto call) { return execCall(call); })
      // amdgpu
      .Case<amdgpu::ScaledMFMAOp>(
          [&](auto mfma) { return execScaledMFMA(mfma); })
      .Default([&](Operation *) { return fail(op, "unsupported operation"); });
}

//===----------------------------------------------------------------------===//
// Elementwise operations
//===----------------------------------------------------------------------===//

LogicalResult
Interpreter::elementwise(Operation *op,
                         function_ref<ElemResult(ArrayRef<uint64_t>)> fn) {
  Type resultType = op->getResult(0).getType();
  std::optional<TypeInfo> info = getTypeInfo(resultType);
  if (!info)
    return unsupportedType(op, resultType);
  SmallVector<const Reg *, 3> in;
  SmallVector<unsigned, 3> widths;
  SmallVector<bool, 3> isVector;
  bool uniform = true;
  for (Value operand : op->getOperands()) {
    std::optional<TypeInfo> operandInfo = getTypeInfo(operand.getType());
    if (!operandInfo)
      return unsupportedType(op, operand.getType());
    const Reg *reg = getReg(op, operand);
    if (!reg)
      return failure();
    in.push_back(reg);
    widths.push_back(operandInfo->elemBits);
    isVector.push_back(operandInfo->isVector);
    uniform &= reg->uniform;
  }
  Reg out(info->bytes, uniform, numThreads);
  SmallVector<uint64_t, 3> operands(in.size());
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    for (int64_t i = 0; i < info->numElements; ++i) {
      for (size_t j = 0; j < in.size(); ++j)
        operands[j] =
            readBits(in[j]->at(t), isVector[j] ? i * widths[j] : 0, widths[j]);
      ElemResult result = fn(operands);
      if (result.error)
        return failThread(op, t, uniform, result.error);
      writeBits(out.at(t), i * info->elemBits, info->elemBits,
                result.bits & maskBits(info->elemBits));
    }
  }
  setReg(op->getResult(0), std::move(out));
  return success();
}

LogicalResult Interpreter::intBinary(
    Operation *op, function_ref<ElemResult(uint64_t, uint64_t, unsigned)> fn) {
  unsigned width = getScalarBits(getElementTypeOrSelf(op->getResult(0)));
  if (!width || width > 64)
    return unsupportedType(op, op->getResult(0).getType());
  return elementwise(
      op, [&](ArrayRef<uint64_t> in) { return fn(in[0], in[1], width); });
}

LogicalResult Interpreter::floatBinary(
    Operation *op,
    function_ref<void(llvm::APFloat &, const llvm::APFloat &)> fn) {
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  if (!type)
    return unsupportedType(op, op->getResult(0).getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  unsigned width = type.getWidth();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat a(semantics, llvm::APInt(width, in[0]));
    llvm::APFloat b(semantics, llvm::APInt(width, in[1]));
    fn(a, b);
    return ElemResult{a.bitcastToAPInt().getZExtValue()};
  });
}

LogicalResult Interpreter::execConstant(arith::ConstantOp op) {
  Type type = op.getType();
  std::optional<TypeInfo> info = getTypeInfo(type);
  if (!info)
    return unsupportedType(op, type);
  Reg reg(info->bytes, /*uniform=*/true, numThreads);
  auto toBits = [&](Attribute attr) -> std::optional<uint64_t> {
    if (auto intAttr = dyn_cast<IntegerAttr>(attr))
      return intAttr.getValue().getZExtValue() & maskBits(info->elemBits);
    if (auto floatAttr = dyn_cast<FloatAttr>(attr))
      return floatAttr.getValue().bitcastToAPInt().getZExtValue();
    return std::nullopt;
  };
  Attribute value = op.getValue();
  if (!info->isVector) {
    std::optional<uint64_t> bits = toBits(value);
    if (!bits)
      return fail(op, "unsupported constant attribute");
    writeBits(reg.at(0), 0, info->elemBits, *bits);
  } else {
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!dense)
      return fail(op, "unsupported vector constant attribute (expected dense "
                      "elements)");
    int64_t i = 0;
    if (isa<FloatType>(info->elemType)) {
      for (const llvm::APFloat &element : dense.getValues<llvm::APFloat>())
        writeBits(reg.at(0), uint64_t(i++) * info->elemBits, info->elemBits,
                  element.bitcastToAPInt().getZExtValue());
    } else {
      for (const llvm::APInt &element : dense.getValues<llvm::APInt>())
        writeBits(reg.at(0), uint64_t(i++) * info->elemBits, info->elemBits,
                  element.getZExtValue() & maskBits(info->elemBits));
    }
  }
  setReg(op.getResult(), std::move(reg));
  return success();
}

LogicalResult Interpreter::execCmpI(arith::CmpIOp op) {
  unsigned width = getScalarBits(getElementTypeOrSelf(op.getLhs()));
  arith::CmpIPredicate predicate = op.getPredicate();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    uint64_t a = in[0], b = in[1];
    int64_t sa = signExtend(a, width), sb = signExtend(b, width);
    bool result = false;
    switch (predicate) {
    case arith::CmpIPredicate::eq:
      result = a == b;
      break;
    case arith::CmpIPredicate::ne:
      result = a != b;
      break;
    case arith::CmpIPredicate::slt:
      result = sa < sb;
      break;
    case arith::CmpIPredicate::sle:
      result = sa <= sb;
      break;
    case arith::CmpIPredicate::sgt:
      result = sa > sb;
      break;
    case arith::CmpIPredicate::sge:
      result = sa >= sb;
      break;
    case arith::CmpIPredicate::ult:
      result = a < b;
      break;
    case arith::CmpIPredicate::ule:
      result = a <= b;
      break;
    case arith::CmpIPredicate::ugt:
      result = a > b;
      break;
    case arith::CmpIPredicate::uge:
      result = a >= b;
      break;
    }
    return ElemResult{uint64_t(result)};
  });
}

LogicalResult Interpreter::execCast(Operation *op, bool isSigned) {
  unsigned width = getScalarBits(getElementTypeOrSelf(op->getOperand(0)));
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    return ElemResult{isSigned ? uint64_t(signExtend(in[0], width)) : in[0]};
  });
}

LogicalResult Interpreter::execBitcast(Operation *op) {
  std::optional<TypeInfo> in = getTypeInfo(op->getOperand(0).getType());
  std::optional<TypeInfo> out = getTypeInfo(op->getResult(0).getType());
  if (!in)
    return unsupportedType(op, op->getOperand(0).getType());
  if (!out)
    return unsupportedType(op, op->getResult(0).getType());
  if (uint64_t(in->elemBits) * in->numElements !=
      uint64_t(out->elemBits) * out->numElements)
    return fail(op, "source and result have different bit sizes");
  const Reg *source = getReg(op, op->getOperand(0));
  if (!source)
    return failure();
  // Same bits, same dense packing: a copy of the bytes.
  Reg result = *source;
  result.bytes = out->bytes;
  setReg(op->getResult(0), std::move(result));
  return success();
}

LogicalResult Interpreter::execFloatCast(Operation *op) {
  Type inType = getElementTypeOrSelf(op->getOperand(0));
  auto outType = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  if (!outType)
    return unsupportedType(op, op->getResult(0).getType());
  unsigned inWidth = getScalarBits(inType);
  llvm::RoundingMode mode = llvm::APFloat::rmNearestTiesToEven;
  if (auto truncf = dyn_cast<arith::TruncFOp>(op)) {
    if (std::optional<arith::RoundingMode> rounding =
            truncf.getRoundingmode()) {
      switch (*rounding) {
      case arith::RoundingMode::to_nearest_even:
        mode = llvm::APFloat::rmNearestTiesToEven;
        break;
      case arith::RoundingMode::downward:
        mode = llvm::APFloat::rmTowardNegative;
        break;
      case arith::RoundingMode::upward:
        mode = llvm::APFloat::rmTowardPositive;
        break;
      case arith::RoundingMode::toward_zero:
        mode = llvm::APFloat::rmTowardZero;
        break;
      case arith::RoundingMode::to_nearest_away:
        mode = llvm::APFloat::rmNearestTiesToAway;
        break;
      }
    }
  }
  bool fromSigned = isa<arith::SIToFPOp>(op);
  bool fromInt = fromSigned || isa<arith::UIToFPOp>(op);
  auto inFloat = dyn_cast<FloatType>(inType);
  if (!fromInt && !inFloat)
    return unsupportedType(op, op->getOperand(0).getType());
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat value(outType.getFloatSemantics());
    if (fromInt) {
      value.convertFromAPInt(llvm::APInt(inWidth, in[0]), fromSigned, mode);
    } else {
      value = llvm::APFloat(inFloat.getFloatSemantics(),
                            llvm::APInt(inWidth, in[0]));
      bool losesInfo;
      value.convert(outType.getFloatSemantics(), mode, &losesInfo);
    }
    return ElemResult{value.bitcastToAPInt().getZExtValue()};
  });
}

/// Evaluates `expr` on integer dimension and symbol values.
static ElemResult evalAffine(AffineExpr expr, ArrayRef<int64_t> dims,
                             ArrayRef<int64_t> symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return {uint64_t(constant.getValue())};
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return {uint64_t(dims[dim.getPosition()])};
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return {uint64_t(symbols[symbol.getPosition()])};
  auto binary = cast<AffineBinaryOpExpr>(expr);
  ElemResult lhs = evalAffine(binary.getLHS(), dims, symbols);
  if (lhs.error)
    return lhs;
  ElemResult rhs = evalAffine(binary.getRHS(), dims, symbols);
  if (rhs.error)
    return rhs;
  int64_t a = int64_t(lhs.bits), b = int64_t(rhs.bits);
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return {uint64_t(a) + uint64_t(b)};
  case AffineExprKind::Mul:
    return {uint64_t(a) * uint64_t(b)};
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod:
    if (b == 0)
      return {0, "affine division by zero"};
    if (binary.getKind() == AffineExprKind::FloorDiv)
      return {uint64_t(llvm::divideFloorSigned(a, b))};
    if (binary.getKind() == AffineExprKind::CeilDiv)
      return {uint64_t(llvm::divideCeilSigned(a, b))};
    return {uint64_t(a - b * llvm::divideFloorSigned(a, b))};
  default:
    return {0, "unsupported affine expression"};
  }
}

LogicalResult Interpreter::execAffine(Operation *op, AffineMap map,
                                      ValueRange operands, int kind) {
  SmallVector<const Reg *> in;
  bool uniform = true;
  for (Value operand : operands) {
    const Reg *reg = getReg(op, operand);
    if (!reg)
      return failure();
    in.push_back(reg);
    uniform &= reg->uniform;
  }
  if (map.getNumResults() == 0)
    return fail(op, "affine map without results");
  Reg out(8, uniform, numThreads);
  SmallVector<int64_t> dims(map.getNumDims()), symbols(map.getNumSymbols());
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    for (auto [i, reg] : llvm::enumerate(in)) {
      if (i < dims.size())
        dims[i] = readIndex(*reg, t);
      else
        symbols[i - dims.size()] = readIndex(*reg, t);
    }
    int64_t result = 0;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      ElemResult value = evalAffine(expr, dims, symbols);
      if (value.error)
        return failThread(op, t, uniform, value.error);
      int64_t v = int64_t(value.bits);
      if (i == 0 || (kind < 0 && v < result) || (kind > 0 && v > result))
        result = v;
    }
    std::memcpy(out.at(t), &result, 8);
  }
  setReg(op->getResult(0), std::move(out));
  return success();
}

LogicalResult Interpreter::execThreadValue(Operation *op,
                                           function_ref<int64_t(int64_t)> fn,
                                           bool uniform) {
  std::optional<TypeInfo> info = getTypeInfo(op->getResult(0).getType());
  if (!info || info->isVector)
    return unsupportedType(op, op->getResult(0).getType());
  Reg out(info->bytes, uniform, numThreads);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t)
    writeBits(out.at(t), 0, info->elemBits,
              uint64_t(fn(t)) & maskBits(info->elemBits));
  setReg(op->getResult(0), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

FailureOr<MemView> Interpreter::createLocal(Operation *op, MemRefType type,
                                            ValueRange dynamicSizes,
                                            bool perThread) {
  if (!type.getLayout().isIdentity())
    return fail(op, "only identity-layout memrefs can be allocated");
  int64_t elemBytes = getMemElemBytes(type.getElementType());
  if (!elemBytes)
    return unsupportedType(op, type);
  MemView view;
  view.elemBytes = elemBytes;
  unsigned next = 0;
  int64_t numElements = 1;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      if (next >= dynamicSizes.size())
        return fail(op, "missing dynamic size");
      FailureOr<int64_t> value =
          getUniformInt(op, dynamicSizes[next++], "a dynamic size");
      if (failed(value))
        return failure();
      size = *value;
    }
    if (size < 0)
      return fail(op, "negative size " + Twine(size));
    if (size > 0 && numElements > kMaxLocalBytes / size)
      return fail(op, "allocation too large");
    numElements *= size;
    view.sizes.push_back(size);
  }
  view.strides.resize(view.sizes.size());
  int64_t stride = 1;
  for (int64_t d = int64_t(view.sizes.size()) - 1; d >= 0; --d) {
    view.strides[d] = stride;
    stride *= view.sizes[d];
  }
  int64_t bytes = numElements * elemBytes;
  int64_t copies = perThread ? numThreads : 1;
  if (bytes > (kMaxLocalBytes - localBytes) / copies)
    return fail(op, "private/workgroup memory exceeds " +
                        Twine(kMaxLocalBytes) + " bytes");
  localBytes += bytes * copies;
  auto storage = std::make_unique<Storage>();
  storage->owned.assign(size_t(bytes * copies), 0);
  storage->initialized.assign(size_t(bytes * copies), 0);
  storage->data = storage->owned.data();
  storage->size = bytes * copies;
  {
    llvm::raw_string_ostream os(storage->name);
    os << "'" << op->getName() << "' at " << op->getLoc();
  }
  view.storage = storage.get();
  view.threadStride = perThread ? bytes : 0;
  localStorages.push_back(std::move(storage));
  return view;
}

LogicalResult Interpreter::access(Operation *op, Value memref,
                                  ValueRange indices, int64_t count,
                                  bool isWrite, Reg *loaded,
                                  const Reg *stored) {
  const MemView *viewPtr = getMem(op, memref);
  if (!viewPtr)
    return failure();
  const MemView &view = *viewPtr;
  int64_t rank = int64_t(view.sizes.size());
  if (int64_t(indices.size()) != rank)
    return fail(op, "expected " + Twine(rank) + " indices");
  if (count > 1 && rank > 0 && view.strides.back() != 1)
    return fail(op, "vector access along a non-contiguous innermost "
                    "dimension is not supported");
  if (count > 1 && rank == 0)
    return fail(op, "vector access to a rank-0 memref");
  SmallVector<const Reg *, 6> indexRegs;
  bool uniform = view.threadStride == 0;
  for (Value index : indices) {
    const Reg *reg = getReg(op, index);
    if (!reg)
      return failure();
    indexRegs.push_back(reg);
    uniform &= reg->uniform;
  }
  if (stored)
    uniform &= stored->uniform;
  int64_t numBytes = count * view.elemBytes;
  if (loaded)
    *loaded = Reg(uint32_t(numBytes), uniform, numThreads);
  Storage &storage = *view.storage;
  SmallVector<int64_t, 6> idx(rank);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    int64_t linear = view.offset;
    bool inBounds = true;
    for (int64_t d = 0; d < rank; ++d) {
      idx[d] = readIndex(*indexRegs[d], t);
      int64_t extent = d == rank - 1 ? count : 1;
      if (idx[d] < 0 || idx[d] > view.sizes[d] - extent)
        inBounds = false;
      linear += idx[d] * view.strides[d];
    }
    auto describe = [&]() {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "index " << formatList(idx);
      if (count > 1)
        os << " (+" << count << " elements)";
      os << " of " << memref.getType() << " with shape "
         << formatList(view.sizes) << " (" << storage.name << ")";
      return text;
    };
    if (!inBounds)
      return failThread(op, t, uniform,
                        (isWrite ? "write at " : "read at ") + describe() +
                            " is out of bounds");
    int64_t base = view.threadStride * t;
    int64_t limit = view.threadStride ? base + view.threadStride : storage.size;
    int64_t begin = base + linear * view.elemBytes;
    if (begin < base || begin + numBytes > limit)
      return failThread(op, t, uniform,
                        (isWrite ? "write at " : "read at ") + describe() +
                            " touches bytes [" + Twine(begin - base) + ", " +
                            Twine(begin - base + numBytes) +
                            ") outside its storage of " + Twine(limit - base) +
                            " bytes");
    if (isWrite) {
      std::memcpy(storage.data + begin, stored->at(t), size_t(numBytes));
      if (!storage.initialized.empty())
        std::memset(storage.initialized.data() + begin, 1, size_t(numBytes));
    } else {
      if (!storage.initialized.empty())
        for (int64_t b = 0; b < numBytes; ++b)
          if (!storage.initialized[begin + b])
            return failThread(op, t, uniform,
                              "read at " + describe() +
                                  " reads memory that was never written");
      std::memcpy(loaded->at(t), storage.data + begin, size_t(numBytes));
    }
  }
  return success();
}

LogicalResult Interpreter::execVectorLoadStore(Operation *op, Value memref,
                                               ValueRange indices,
                                               VectorType vectorType,
                                               bool isWrite, Value stored) {
  auto memrefType = cast<MemRefType>(memref.getType());
  Type elemType = memrefType.getElementType();
  int64_t count = 1;
  if (isa<VectorType>(elemType)) {
    if (elemType != vectorType)
      return fail(op, "vector type differs from the memref's vector element "
                      "type");
  } else {
    if (vectorType.getRank() != 1 || vectorType.isScalable())
      return fail(op, "only 1-D vector accesses are supported");
    if (vectorType.getElementType() != elemType)
      return fail(op, "vector and memref element types differ");
    count = vectorType.getNumElements();
  }
  if (isWrite) {
    const Reg *value = getReg(op, stored);
    if (!value)
      return failure();
    return access(op, memref, indices, count, true, nullptr, value);
  }
  Reg loaded;
  if (failed(access(op, memref, indices, count, false, &loaded, nullptr)))
    return failure();
  setReg(op->getResult(0), std::move(loaded));
  return success();
}

LogicalResult Interpreter::execSubView(memref::SubViewOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  auto resolve = [&](ArrayRef<OpFoldResult> mixed,
                     SmallVectorImpl<int64_t> &out) -> LogicalResult {
    for (OpFoldResult ofr : mixed) {
      if (auto attr = dyn_cast<Attribute>(ofr)) {
        out.push_back(cast<IntegerAttr>(attr).getInt());
        continue;
      }
      FailureOr<int64_t> value =
          getUniformInt(op, cast<Value>(ofr), "a subview operand");
      if (failed(value))
        return failure();
      out.push_back(*value);
    }
    return success();
  };
  SmallVector<int64_t> offsets, sizes, strides;
  if (failed(resolve(op.getMixedOffsets(), offsets)) ||
      failed(resolve(op.getMixedSizes(), sizes)) ||
      failed(resolve(op.getMixedStrides(), strides)))
    return failure();
  if (offsets.size() != source->sizes.size())
    return fail(op, "rank mismatch");
  MemView result = *source;
  result.sizes.clear();
  result.strides.clear();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  for (size_t d = 0; d < offsets.size(); ++d) {
    if (offsets[d] < 0 || sizes[d] < 0 ||
        (sizes[d] > 0 &&
         offsets[d] + (sizes[d] - 1) * strides[d] >= source->sizes[d]) ||
        (sizes[d] == 0 && offsets[d] > source->sizes[d]))
      return fail(op, "subview offsets " + formatList(offsets) + ", sizes " +
                          formatList(sizes) + ", strides " +
                          formatList(strides) + " exceed the source shape " +
                          formatList(source->sizes));
    result.offset += offsets[d] * source->strides[d];
    if (dropped.test(d))
      continue;
    result.sizes.push_back(sizes[d]);
    result.strides.push_back(source->strides[d] * strides[d]);
  }
  setMem(op.getResult(), std::move(result));
  return success();
}

//===----------------------------------------------------------------------===//
// Vectors
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execExtractInsert(Operation *op, Value vector,
                                             ArrayRef<OpFoldResult> position,
                                             Value inserted) {
  std::optional<TypeInfo> info = getTypeInfo(vector.getType());
  if (!info)
    return unsupportedType(op, vector.getType());
  const Reg *source = getReg(op, vector);
  if (!source)
    return failure();
  const Reg *insertedReg = inserted ? getReg(op, inserted) : nullptr;
  if (inserted && !insertedReg)
    return failure();
  // Elements per position step of each dimension (row-major).
  SmallVector<int64_t> strides(info->shape.size(), 1);
  for (int64_t d = int64_t(info->shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * info->shape[d + 1];
  int64_t span =
      position.empty() ? info->numElements : strides[position.size() - 1];
  SmallVector<const Reg *> dynamic(position.size(), nullptr);
  SmallVector<int64_t> fixed(position.size(), 0);
  bool uniform = source->uniform && (!insertedReg || insertedReg->uniform);
  for (auto [i, ofr] : llvm::enumerate(position)) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      fixed[i] = cast<IntegerAttr>(attr).getInt();
      continue;
    }
    dynamic[i] = getReg(op, cast<Value>(ofr));
    if (!dynamic[i])
      return failure();
    uniform &= dynamic[i]->uniform;
  }
  Type resultType = op->getResult(0).getType();
  std::optional<TypeInfo> resultInfo = getTypeInfo(resultType);
  if (!resultInfo)
    return unsupportedType(op, resultType);
  Reg out(resultInfo->bytes, uniform, numThreads);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    int64_t linear = 0;
    for (size_t i = 0; i < position.size(); ++i) {
      int64_t p = dynamic[i] ? readIndex(*dynamic[i], t) : fixed[i];
      if (p < 0 || p >= info->shape[i])
        return failThread(op, t, uniform,
                          "position " + Twine(p) + " out of range [0, " +
                              Twine(info->shape[i]) + ") (poison)");
      linear += p * strides[i];
    }
    uint64_t bit = uint64_t(linear) * info->elemBits;
    uint64_t numBits = uint64_t(span) * info->elemBits;
    if (!inserted) {
      copyBits(out.at(t), 0, source->at(t), bit, numBits);
    } else {
      std::memcpy(out.at(t), source->at(t), info->bytes);
      copyBits(out.at(t), bit, insertedReg->at(t), 0, numBits);
    }
  }
  setReg(op->getResult(0), std::move(out));
  return success();
}

LogicalResult Interpreter::execBroadcast(vector::BroadcastOp op) {
  std::optional<TypeInfo> out = getTypeInfo(op.getType());
  std::optional<TypeInfo> in = getTypeInfo(op.getSource().getType());
  if (!out)
    return unsupportedType(op, op.getType());
  if (!in)
    return unsupportedType(op, op.getSource().getType());
  const Reg *source = getReg(op, op.getSource());
  if (!source)
    return failure();
  // Source dimensions align with the trailing result dimensions; a source
  // dimension of size one is stretched.
  int64_t rank = int64_t(out->shape.size());
  int64_t offset = rank - int64_t(in->shape.size());
  Reg result(out->bytes, source->uniform, numThreads);
  SmallVector<int64_t> index(rank);
  for (int64_t i = 0; i < out->numElements; ++i) {
    int64_t rest = i;
    for (int64_t d = rank - 1; d >= 0; --d) {
      index[d] = rest % out->shape[d];
      rest /= out->shape[d];
    }
    int64_t sourceLinear = 0;
    for (int64_t d = 0; d < int64_t(in->shape.size()); ++d) {
      int64_t size = in->shape[d];
      sourceLinear = sourceLinear * size + (size == 1 ? 0 : index[d + offset]);
    }
    for (int64_t t = 0, e = source->uniform ? 1 : numThreads; t < e; ++t)
      copyBits(result.at(t), uint64_t(i) * out->elemBits, source->at(t),
               uint64_t(sourceLinear) * in->elemBits, out->elemBits);
  }
  setReg(op.getResult(), std::move(result));
  return success();
}

LogicalResult Interpreter::execStridedSlice(vector::ExtractStridedSliceOp op) {
  std::optional<TypeInfo> in = getTypeInfo(op.getSource().getType());
  std::optional<TypeInfo> out = getTypeInfo(op.getType());
  if (!in || !out || in->shape.size() != 1)
    return fail(op, "only 1-D vector slices are supported");
  const Reg *source = getReg(op, op.getSource());
  if (!source)
    return failure();
  int64_t offset = cast<IntegerAttr>(op.getOffsets()[0]).getInt();
  int64_t stride = cast<IntegerAttr>(op.getStrides()[0]).getInt();
  Reg result(out->bytes, source->uniform, numThreads);
  for (int64_t t = 0, e = source->uniform ? 1 : numThreads; t < e; ++t)
    for (int64_t i = 0; i < out->numElements; ++i)
      copyBits(result.at(t), uint64_t(i) * out->elemBits, source->at(t),
               uint64_t(offset + i * stride) * in->elemBits, in->elemBits);
  setReg(op.getResult(), std::move(result));
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow and calls
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execFor(scf::ForOp op) {
  FailureOr<int64_t> lb =
      getUniformInt(op, op.getLowerBound(), "the lower bound");
  if (failed(lb))
    return failure();
  FailureOr<int64_t> ub =
      getUniformInt(op, op.getUpperBound(), "the upper bound");
  if (failed(ub))
    return failure();
  FailureOr<int64_t> step = getUniformInt(op, op.getStep(), "the step");
  if (failed(step))
    return failure();
  Type ivType = op.getInductionVar().getType();
  unsigned width = getScalarBits(ivType);
  bool isUnsigned = op.getUnsignedCmp();
  if (isUnsigned ? (uint64_t(*step) & maskBits(width)) == 0 : *step <= 0)
    return fail(op, "the step " + Twine(*step) + " is not positive");
  SmallVector<RtValue> iterValues;
  for (Value init : op.getInitArgs()) {
    const RtValue *rt = lookup(op, init);
    if (!rt)
      return failure();
    iterValues.push_back(*rt);
  }
  SmallVector<RtValue> blockArgs, yielded;
  uint64_t mask = maskBits(width);
  auto less = [&](int64_t a, int64_t b) {
    return isUnsigned ? (uint64_t(a) & mask) < (uint64_t(b) & mask) : a < b;
  };
  for (int64_t iv = *lb; less(iv, *ub);) {
    blockArgs.clear();
    RtValue ivValue;
    ivValue.reg = uniformInt(ivType, iv);
    blockArgs.push_back(std::move(ivValue));
    llvm::append_range(blockArgs, iterValues);
    if (failed(runBlock(*op.getBody(), blockArgs, yielded)))
      return failure();
    iterValues = yielded;
    // Stop before the induction variable wraps around its type.
    int64_t next = int64_t(uint64_t(iv) + uint64_t(*step));
    if (isUnsigned ? (uint64_t(next) & mask) < (uint64_t(iv) & mask)
                   : signExtend(uint64_t(next) & mask, width) < iv)
      break;
    iv = isUnsigned ? int64_t(uint64_t(next) & mask)
                    : signExtend(uint64_t(next) & mask, width);
  }
  for (auto [result, value] : llvm::zip(op.getResults(), iterValues))
    values[result] = value;
  return success();
}

LogicalResult Interpreter::execIf(scf::IfOp op) {
  const Reg *condition = getReg(op, op.getCondition());
  if (!condition)
    return failure();
  if (!condition->uniform) {
    bool first = condition->at(0)[0] & 1;
    for (int64_t t = 1; t < numThreads; ++t)
      if (bool(condition->at(t)[0] & 1) != first)
        return fail(op, "the condition is not uniform across the workgroup "
                        "(divergence is not supported)");
  }
  bool taken = condition->at(0)[0] & 1;
  Region &region = taken ? op.getThenRegion() : op.getElseRegion();
  SmallVector<RtValue> yielded;
  if (!region.empty() && failed(runBlock(region.front(), {}, yielded)))
    return failure();
  for (auto [result, value] : llvm::zip(op.getResults(), yielded))
    values[result] = value;
  return success();
}

LogicalResult Interpreter::execCall(func::CallOp op) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, op.getCalleeAttr());
  if (!callee || callee.isExternal())
    return fail(op, "call to @" + op.getCallee() +
                        ", which is not a function defined in the module");
  if (!callee.getBody().hasOneBlock())
    return fail(op, "the callee has unstructured control flow");
  if (llvm::is_contained(callStack, callee.getOperation()))
    return fail(op, "recursive calls are not supported");
  if (int64_t(callStack.size()) >= kMaxCallDepth)
    return fail(op, "calls nested too deeply");
  SmallVector<RtValue> args, results;
  for (Value operand : op.getOperands()) {
    const RtValue *rt = lookup(op, operand);
    if (!rt)
      return failure();
    args.push_back(*rt);
  }
  callStack.push_back(callee);
  LogicalResult result = runBlock(callee.getBody().front(), args, results);
  callStack.pop_back();
  if (failed(result))
    return failure();
  for (auto [value, rt] : llvm::zip(op.getResults(), results))
    values[value] = rt;
  return success();
}

//===----------------------------------------------------------------------===//
// amdgpu.scaled_mfma
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execScaledMFMA(amdgpu::ScaledMFMAOp op) {
  hw::MFMAShape shape;
  if (op.getM() == 16 && op.getN() == 16 && op.getK() == 128)
    shape = hw::MFMAShape::M16N16K128;
  else if (op.getM() == 32 && op.getN() == 32 && op.getK() == 64)
    shape = hw::MFMAShape::M32N32K64;
  else
    return fail(op, "unsupported shape " + Twine(op.getM()) + "x" +
                        Twine(op.getN()) + "x" + Twine(op.getK()));
  auto sourceFormat =
      [&](Value source) -> FailureOr<std::pair<hw::SourceFormat, int>> {
    auto type = dyn_cast<VectorType>(source.getType());
    std::optional<hw::SourceFormat> format =
        type ? getSourceFormat(type.getElementType()) : std::nullopt;
    if (!format || type.getNumElements() != hw::kItemsPerLane)
      return unsupportedType(op, source.getType());
    return std::make_pair(*format, hw::wordsPerLane(*format));
  };
  auto formatA = sourceFormat(op.getSourceA());
  if (failed(formatA))
    return failure();
  auto formatB = sourceFormat(op.getSourceB());
  if (failed(formatB))
    return failure();
  int accumulators = hw::accumulatorsPerLane(shape);
  auto accType = cast<VectorType>(op.getDestC().getType());
  if (accType.getNumElements() != accumulators ||
      !accType.getElementType().isF32())
    return fail(op, "the accumulator type does not match the shape");
  if (numThreads % hw::kWaveSize != 0)
    return fail(op, "the workgroup of " + Twine(numThreads) +
                        " threads is not a whole number of 64-lane waves");

  const Reg *a = getReg(op, op.getSourceA());
  const Reg *b = getReg(op, op.getSourceB());
  const Reg *c = getReg(op, op.getDestC());
  const Reg *scaleA = getReg(op, op.getScalesA());
  const Reg *scaleB = getReg(op, op.getScalesB());
  if (!a || !b || !c || !scaleA || !scaleB)
    return failure();
  int wordsA = formatA->second, wordsB = formatB->second;
  if (a->bytes != uint32_t(4 * wordsA) || b->bytes != uint32_t(4 * wordsB) ||
      c->bytes != uint32_t(4 * accumulators) || scaleA->bytes > 4 ||
      scaleB->bytes > 4)
    return fail(op, "unexpected operand register sizes");

  constexpr int64_t lanes = hw::kWaveSize;
  std::vector<uint32_t> wa(lanes * wordsA), wb(lanes * wordsB);
  std::vector<uint32_t> sa(lanes), sb(lanes);
  std::vector<float> wc(lanes * accumulators), wd(lanes * accumulators);
  Reg d(uint32_t(4 * accumulators), /*uniform=*/false, numThreads);
  for (int64_t wave = 0, e = numThreads / lanes; wave < e; ++wave) {
    for (int64_t lane = 0; lane < lanes; ++lane) {
      int64_t t = wave * lanes + lane;
      std::memcpy(&wa[lane * wordsA], a->at(t), 4 * wordsA);
      std::memcpy(&wb[lane * wordsB], b->at(t), 4 * wordsB);
      std::memcpy(&wc[lane * accumulators], c->at(t), 4 * accumulators);
      // Scales: vector<4xf8E8M0FNU> is the 32-bit word (byte i = element
      // i); a scalar scale is byte 0.
      sa[lane] = 0;
      sb[lane] = 0;
      std::memcpy(&sa[lane], scaleA->at(t), scaleA->bytes);
      std::memcpy(&sb[lane], scaleB->at(t), scaleB->bytes);
    }
    hw::ScaledMFMAOperands operands;
    operands.shape = shape;
    operands.fmtA = formatA->first;
    operands.fmtB = formatB->first;
    operands.a = wa.data();
    operands.b = wb.data();
    operands.c = wc.data();
    operands.scaleA = sa.data();
    operands.opselA = op.getScalesIdxA();
    operands.scaleB = sb.data();
    operands.opselB = op.getScalesIdxB();
    hw::scaledMFMA(operands, wd.data());
    for (int64_t lane = 0; lane < lanes; ++lane)
      std::memcpy(d.at(wave * lanes + lane), &wd[lane * accumulators],
                  4 * accumulators);
    ++stats.mfmas;
  }
  setReg(op.getResult(), std::move(d));
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

llvm::Error mlir::mx::emu::runKernel(gpu::GPUFuncOp kernel,
                                     ArrayRef<KernelArg> args,
                                     std::array<int64_t, 3> gridSize,
                                     std::array<int64_t, 3> blockSize,
                                     RunStats *stats) {
  if (!kernel)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "runKernel: null kernel");
  RunStats counters;
  Interpreter interpreter(kernel, gridSize, blockSize, counters);
  LogicalResult result = interpreter.run(args);
  if (stats)
    *stats = counters;
  if (failed(result))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   interpreter.getError());
  return llvm::Error::success();
}
