//===- WaveEmulator.cpp - gfx950 wave emulator for GPU kernels ------------===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//
//
// A lock-step interpreter: the ops of a workgroup run one at a time, each for
// the active threads of the workgroup. Run-time values are either registers
// (one byte string per thread, or one for all threads when uniform) or memref
// views (storage + offset/sizes/strides, with a per-thread stride for private
// memory and an optional per-thread offset). A divergent scf.if narrows the
// active mask for each region and merges the results; loop bounds must be
// uniform over the active threads; everything else fails with an error
// naming the op. The same interpreter runs host functions with one thread:
// host buffers are shared (results keep them alive), and gpu.launch_func
// starts a nested kernel-mode interpreter on views of them.
//
//===----------------------------------------------------------------------===//

#include "mx/Emulator/WaveEmulator.h"

#include "mx/Emulator/ScaledMFMA.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <deque>
#include <memory>
#include <string>
#include <tuple>

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
/// Most bytes of host memory (allocations and globals) of a host run.
constexpr int64_t kMaxHostBytes = int64_t(1) << 34;

/// What the race checks of workgroup memory know about one byte. Time is
/// counted in barrier phases (the number of workgroup barriers executed so
/// far); waves are those of the workgroup.
struct LDSByte {
  /// Phase in which the last write became visible to its own wave (a plain
  /// store: when it ran; an amdgpu.gather_to_lds: at the wait that completed
  /// it). Other waves see it from the next phase on.
  int32_t writePhase = -1;
  /// Phase of the reads in `readers`.
  int32_t readPhase = -1;
  /// Waves that read the byte in `readPhase` (bit w: wave w).
  uint16_t readers = 0;
  /// Wave of the last write; -1 before the first.
  int8_t writer = -1;
  /// The last write is an amdgpu.gather_to_lds not completed yet by an
  /// amdgpu.memory_counter_wait of its wave.
  bool pending = false;
};

/// One memory object: a host buffer (kernel argument, host allocation,
/// global) or memory the emulator allocated for a workgroup (private /
/// workgroup). Initialization is tracked per byte where `initialized` is set.
struct Storage {
  uint8_t *data = nullptr;
  int64_t size = 0;
  /// For messages: "kernel argument #0", "'memref.alloca' at loc(...)".
  std::string name;
  /// Per byte: written yet? Null when not tracked.
  uint8_t *initialized = nullptr;
  /// Writes fail (constant globals).
  bool readOnly = false;
  /// A `memref.alloc` (may be deallocated), and whether it was.
  bool isHeap = false;
  bool freed = false;
  /// Host mode: the buffer (kept alive by results that view it).
  std::shared_ptr<HostBuffer> host;
  /// Backing store of emulator-allocated workgroup memory.
  std::vector<uint8_t> owned, ownedInitialized;
  /// Workgroup memory (LDS): per byte, who wrote and read it when (see
  /// LDSByte); empty for other storage.
  std::vector<LDSByte> lds;
};

/// A memref value: elements at `offset + threadOffset[thread] +
/// sum(index_d * strides_d)` (in elements of `elemBytes` bytes) of the
/// storage, shifted by `threadStride * thread` bytes for per-thread (private)
/// memory. `threadOffset` is null for views whose offset is uniform; sizes
/// and strides are always uniform.
struct MemView {
  Storage *storage = nullptr;
  int64_t threadStride = 0;
  int64_t offset = 0;
  std::shared_ptr<const std::vector<int64_t>> threadOffset;
  SmallVector<int64_t, 6> sizes;
  SmallVector<int64_t, 6> strides;
  int64_t elemBytes = 0;
  /// A view made by amdgpu.fat_raw_buffer_cast with bounds checking: an
  /// access is range-checked per element against the buffer's
  /// `numRecords` bytes from byte `bufferBase` of the storage instead of
  /// against the view's shape; out-of-range loads read 0, stores are dropped.
  bool isBuffer = false;
  int64_t bufferBase = 0;
  int64_t numRecords = 0;

  int64_t getOffset(int64_t thread) const {
    return offset + (threadOffset ? (*threadOffset)[thread] : 0);
  }
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

/// Checks a run-time view against the static parts of `type`: rank, sizes,
/// strides (of dimensions of size > 1) and offset; an identity layout also
/// needs the row-major strides of the run-time sizes and offset 0. A per-thread
/// offset (nullopt) is not checked. Returns a description of the first
/// mismatch, or "" if the view fits.
std::string checkViewAgainstType(MemRefType type, std::optional<int64_t> offset,
                                 ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> strides) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto describe = [&]() {
    os << "the view (offset ";
    if (offset)
      os << *offset;
    else
      os << "per thread";
    os << ", sizes " << formatList(sizes) << ", strides " << formatList(strides)
       << ") does not match " << type;
  };
  if (int64_t(sizes.size()) != type.getRank()) {
    describe();
    os << " (rank)";
    return text;
  }
  SmallVector<int64_t> typeStrides;
  int64_t typeOffset;
  if (failed(type.getStridesAndOffset(typeStrides, typeOffset))) {
    os << "unsupported layout (not strided): " << type;
    return text;
  }
  StridedLayout rowMajor = StridedLayout::rowMajor(sizes);
  bool identity = type.getLayout().isIdentity();
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d) && type.getDimSize(d) != sizes[d]) {
      describe();
      os << " (size of dimension " << d << ")";
      return text;
    }
    if (sizes[d] <= 1)
      continue;
    if ((!ShapedType::isDynamic(typeStrides[d]) &&
         typeStrides[d] != strides[d]) ||
        (identity && strides[d] != rowMajor.strides[d])) {
      describe();
      os << " (stride of dimension " << d << ")";
      return text;
    }
  }
  if (offset && !ShapedType::isDynamic(typeOffset) && typeOffset != *offset) {
    describe();
    os << " (offset)";
    return text;
  }
  return "";
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
  /// Kernel mode: one launch of `kernel`.
  Interpreter(gpu::GPUFuncOp kernel, std::array<int64_t, 3> gridSize,
              std::array<int64_t, 3> blockSize, RunStats &stats)
      : kernel(kernel), gridSize(gridSize), blockSize(blockSize), stats(stats) {
  }
  /// Host mode: one run of the host function `function` (one thread).
  Interpreter(func::FuncOp function, RunStats &stats, HostRunStats &hostStats)
      : hostFunction(function), gridSize({1, 1, 1}), blockSize({1, 1, 1}),
        stats(stats), hostStats(&hostStats) {}

  /// Runs the whole launch. `verify`: verify the kernel first.
  LogicalResult run(ArrayRef<KernelArg> args, bool verify);
  /// Runs the host function.
  LogicalResult runHost(ArrayRef<HostValue> args,
                        SmallVectorImpl<HostValue> &results);

  const std::string &getError() const { return error; }

private:
  bool isHost() const { return hostStats != nullptr; }

  //===--- Errors ---------------------------------------------------------===//

  LogicalResult failLaunch(const Twine &message) {
    if (isHost())
      error =
          ("host function @" + hostFunction.getName() + ": " + message).str();
    else
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
    if (isHost())
      return fail(op, message);
    if (uniform)
      return fail(op,
                  (isPartial() ? "(all active threads) " : "(all threads) ") +
                      message);
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
  /// The register of a scalar launch or host argument of type \p type,
  /// given as an integer (\p isInteger) or a float (rounded to \p type).
  /// Returns an empty string on success, else what is wrong (\p api names
  /// the argument class, e.g. "KernelArg").
  std::string scalarArgument(Type type, bool isInteger, int64_t intValue,
                             bool isFloat, double floatValue, StringRef api,
                             Reg &reg) {
    if (type.isIntOrIndex()) {
      if (!isInteger)
        return (" is an integer; pass " + api + "::integer").str();
      reg = uniformInt(type, intValue);
      return "";
    }
    if (auto floatType = dyn_cast<FloatType>(type)) {
      if (!isFloat)
        return (" is a float; pass " + api + "::floating").str();
      llvm::APFloat value(floatValue);
      bool losesInfo;
      value.convert(floatType.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      reg =
          uniformInt(IntegerType::get(type.getContext(), floatType.getWidth()),
                     int64_t(value.bitcastToAPInt().getZExtValue()));
      return "";
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << " has unsupported type " << type;
    return text;
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
    unsigned bits = getScalarBits(value.getType());
    auto read = [&](int64_t t) {
      return signExtend(readBits(reg->at(t), 0, bits), bits);
    };
    if (reg->uniform)
      return read(0);
    // A per-thread value is fine when all active threads agree.
    int64_t first = firstActive();
    int64_t result = read(first);
    for (int64_t t = first + 1; t < numThreads; ++t)
      if (isActive(t) && read(t) != result)
        return fail(op, what + " is not uniform across the " +
                            (isPartial() ? "active threads of the " : "") +
                            "workgroup (thread " + Twine(first) + ": " +
                            Twine(result) + ", thread " + Twine(t) + ": " +
                            Twine(read(t)) + "; divergence is not supported)");
    return result;
  }

  //===--- Active threads -------------------------------------------------===//

  /// Whether thread `t` executes the current operation (divergent scf.if).
  bool isActive(int64_t t) const { return activeMask.empty() || activeMask[t]; }
  /// Whether some threads of the workgroup are inactive.
  bool isPartial() const { return !activeMask.empty(); }
  int64_t firstActive() const {
    for (int64_t t = 0; t < numThreads; ++t)
      if (isActive(t))
        return t;
    return 0;
  }
  int64_t countActive() const {
    int64_t n = 0;
    for (int64_t t = 0; t < numThreads; ++t)
      n += isActive(t);
    return n;
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
  LogicalResult
  floatNary(Operation *op,
            function_ref<llvm::APFloat(ArrayRef<llvm::APFloat>)> fn);
  LogicalResult floatViaDouble(Operation *op, double (*fn)(double));
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
  LogicalResult execFatRawBufferCast(amdgpu::FatRawBufferCastOp op);
  LogicalResult execReinterpretCast(memref::ReinterpretCastOp op);
  LogicalResult execExpandShape(memref::ExpandShapeOp op);
  LogicalResult execCollapseShape(memref::CollapseShapeOp op);
  LogicalResult execExtractStridedMetadata(memref::ExtractStridedMetadataOp op);
  LogicalResult execGetGlobal(memref::GetGlobalOp op);
  LogicalResult execAlloc(Operation *op, MemRefType type,
                          ValueRange dynamicSizes);
  LogicalResult execDealloc(memref::DeallocOp op);
  LogicalResult execCopy(memref::CopyOp op);
  /// Binds `view` to `result` after checking it against the result type.
  LogicalResult setView(Operation *op, Value result, MemView view);
  /// Resolves mixed static/dynamic index values (uniform) of `op`.
  LogicalResult resolveMixed(Operation *op, ArrayRef<OpFoldResult> mixed,
                             SmallVectorImpl<int64_t> &out, StringRef what);
  /// The storage of a host buffer, created on first use.
  Storage *getHostStorage(std::shared_ptr<HostBuffer> buffer,
                          const Twine &name);
  LogicalResult execDelinearize(affine::AffineDelinearizeIndexOp op);
  LogicalResult execLinearize(affine::AffineLinearizeIndexOp op);
  LogicalResult execCmpF(arith::CmpFOp op);
  LogicalResult execFloatToInt(Operation *op, bool isSigned);
  LogicalResult execExtractInsert(Operation *op, Value vector,
                                  ArrayRef<OpFoldResult> position,
                                  Value inserted);
  LogicalResult execBroadcast(vector::BroadcastOp op);
  LogicalResult execStridedSlice(vector::ExtractStridedSliceOp op);

  LogicalResult execFor(scf::ForOp op);
  LogicalResult execIf(scf::IfOp op);
  LogicalResult execCall(func::CallOp op);
  LogicalResult execScaledMFMA(amdgpu::ScaledMFMAOp op);
  LogicalResult execLaunch(gpu::LaunchFuncOp op);
  LogicalResult execShuffle(vector::ShuffleOp op);
  LogicalResult execSubgroupBroadcast(gpu::SubgroupBroadcastOp op);

  //===--- Workgroup memory: copies, waits, barriers, races ---------------===//

  /// Waves of the workgroup (the last one may be partial).
  int64_t getNumWaves() const {
    return (numThreads + hw::kWaveSize - 1) / hw::kWaveSize;
  }
  /// Whether some thread of wave `wave` is active.
  bool isWaveActive(int64_t wave) const {
    for (int64_t t = wave * hw::kWaveSize,
                 e = std::min<int64_t>(numThreads, t + hw::kWaveSize);
         t < e; ++t)
      if (isActive(t))
        return true;
    return false;
  }
  /// Checks an access of wave `wave` to bytes [begin, begin + numBytes) of
  /// the workgroup memory `storage` against the accesses of the other waves
  /// since the last barrier and against unfinished copies (see LDSByte),
  /// then records it (`async`: a write by amdgpu.gather_to_lds, pending
  /// until a wait completes it). Returns the race found, or "".
  std::string checkLDSAccess(Storage &storage, int64_t wave, int64_t begin,
                             int64_t numBytes, bool isWrite, bool async);
  /// Completes the copies of wave `wave` but its `keep` most recent ones.
  void completeCopies(int64_t wave, size_t keep);
  LogicalResult execBarrier(Operation *op);
  LogicalResult execGatherToLDS(amdgpu::GatherToLDSOp op);
  LogicalResult execMemoryCounterWait(amdgpu::MemoryCounterWaitOp op);

  gpu::GPUFuncOp kernel;
  func::FuncOp hostFunction;
  std::array<int64_t, 3> gridSize, blockSize;
  RunStats &stats;
  /// Set in host mode.
  HostRunStats *hostStats = nullptr;
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
  /// Per thread: active in the current region? Empty when all threads are.
  SmallVector<uint8_t> activeMask;
  /// Storages that live for the whole launch or host run: globals (by op)
  /// and, in host mode, host buffers (by buffer).
  DenseMap<Operation *, Storage *> globalStorages;
  DenseMap<HostBuffer *, Storage *> hostStorages;
  std::vector<std::unique_ptr<Storage>> longLivedStorages;
  int64_t hostBytes = 0;
  /// Workgroup barriers executed so far in the current workgroup.
  int32_t barrierPhase = 0;
  /// One amdgpu.gather_to_lds of one wave not completed yet: its bytes.
  struct PendingCopy {
    Storage *storage;
    int64_t begin, size;
  };
  /// Per wave of the current workgroup, its pending copies, oldest first.
  SmallVector<std::deque<PendingCopy>> pendingCopies;
};

} // namespace

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

/// Verifies \p op; on failure returns the diagnostics, one per line.
static std::optional<std::string> verifyOp(Operation *op) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag.str() << "\n";
    return success();
  });
  if (succeeded(mlir::verify(op)))
    return std::nullopt;
  return diagnostics;
}

LogicalResult Interpreter::run(ArrayRef<KernelArg> args, bool verify) {
  // Verify first: the interpreter relies on verified IR.
  if (verify)
    if (std::optional<std::string> diagnostics = verifyOp(kernel))
      return failLaunch("the kernel does not verify:\n" + *diagnostics);
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
      int64_t elemBytes = getMemElemBytes(memrefType.getElementType());
      if (!elemBytes)
        return failLaunch(name + ": unsupported memref element type (sub-byte "
                                 "and odd-width types cannot be stored)");
      const StridedLayout &layout = arg.getLayout();
      ArrayRef<int64_t> shape = layout.sizes;
      if (int64_t(shape.size()) != memrefType.getRank())
        return failLaunch(name + " has rank " + Twine(memrefType.getRank()) +
                          ", got shape " + formatList(shape));
      if (layout.strides.size() != shape.size())
        return failLaunch(name + ": the layout has " +
                          Twine(layout.strides.size()) + " strides for " +
                          Twine(shape.size()) + " sizes");
      int64_t numBytes = elemBytes;
      for (int64_t size : shape)
        if (size < 0 || llvm::MulOverflow(numBytes, size, numBytes))
          return failLaunch(name + ": invalid shape " + formatList(shape));
      std::string mismatch = checkViewAgainstType(memrefType, layout.offset,
                                                  shape, layout.strides);
      if (!mismatch.empty())
        return failLaunch(name + ": " + mismatch);
      HostBuffer &buffer = *arg.getBuffer();
      auto storage = std::make_unique<Storage>();
      storage->data = buffer.bytes.data();
      storage->size = int64_t(buffer.bytes.size());
      storage->name = name;
      if (!arg.getName().empty())
        storage->name += ", " + arg.getName().str();
      if (!buffer.initialized.empty()) {
        if (buffer.initialized.size() != buffer.bytes.size())
          return failLaunch(name + ": the buffer's initialization mask has " +
                            Twine(buffer.initialized.size()) + " entries for " +
                            Twine(buffer.bytes.size()) + " bytes");
        storage->initialized = buffer.initialized.data();
      }
      storage->readOnly = buffer.readOnly;
      rt.isMem = true;
      rt.mem.storage = storage.get();
      rt.mem.elemBytes = elemBytes;
      rt.mem.offset = layout.offset;
      rt.mem.sizes.assign(shape.begin(), shape.end());
      rt.mem.strides.assign(layout.strides.begin(), layout.strides.end());
      argStorages.push_back(std::move(storage));
    } else {
      std::string error = scalarArgument(
          argType, arg.getKind() == KernelArg::Kind::Integer, arg.getInteger(),
          arg.getKind() == KernelArg::Kind::Float, arg.getFloat(), "KernelArg",
          rt.reg);
      if (!error.empty())
        return failLaunch(name + error);
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
  activeMask.clear();
  barrierPhase = 0;
  pendingCopies.assign(getNumWaves(), {});
  for (auto &[value, rt] : argValues)
    values[value] = rt;
  for (auto [i, attribution] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    FailureOr<MemView> view =
        createLocal(kernel, cast<MemRefType>(attribution.getType()), {},
                    /*perThread=*/false);
    if (failed(view))
      return failure();
    view->storage->name =
        ("workgroup attribution #" + Twine(i) + " of @" + kernel.getName())
            .str();
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
  Dialect *dialect = op->getDialect();
  if (isHost() && dialect &&
      isa<gpu::GPUDialect, amdgpu::AMDGPUDialect>(dialect) &&
      !isa<gpu::LaunchFuncOp>(op))
    return fail(op, "device operation in host code");
  if (!isHost() && isa<gpu::LaunchFuncOp, memref::AllocOp, memref::DeallocOp,
                       memref::CopyOp>(op))
    return fail(op, "host operation in a kernel (not supported)");
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
      .Case<arith::FPToSIOp>(
          [&](auto) { return execFloatToInt(op, /*isSigned=*/true); })
      .Case<arith::FPToUIOp>(
          [&](auto) { return execFloatToInt(op, /*isSigned=*/false); })
      .Case<arith::CmpFOp>([&](auto cmp) { return execCmpF(cmp); })
      .Case<arith::MaximumFOp>([&](auto) {
        return floatBinary(
            op, [](APFloat &a, const APFloat &b) { a = llvm::maximum(a, b); });
      })
      .Case<arith::MinimumFOp>([&](auto) {
        return floatBinary(
            op, [](APFloat &a, const APFloat &b) { a = llvm::minimum(a, b); });
      })
      .Case<arith::MaxNumFOp>([&](auto) {
        return floatBinary(
            op, [](APFloat &a, const APFloat &b) { a = llvm::maxnum(a, b); });
      })
      .Case<arith::MinNumFOp>([&](auto) {
        return floatBinary(
            op, [](APFloat &a, const APFloat &b) { a = llvm::minnum(a, b); });
      })
      // math: floating point, per element in the result type.
      .Case<math::AbsFOp>([&](auto) {
        return floatNary(op, [](ArrayRef<APFloat> in) {
          APFloat r = in[0];
          r.clearSign();
          return r;
        });
      })
      .Case<math::CopySignOp>([&](auto) {
        return floatNary(op, [](ArrayRef<APFloat> in) {
          APFloat r = in[0];
          r.copySign(in[1]);
          return r;
        });
      })
      .Case<math::FmaOp>([&](auto) {
        return floatNary(op, [&](ArrayRef<APFloat> in) {
          APFloat r = in[0];
          r.fusedMultiplyAdd(in[1], in[2], rne);
          return r;
        });
      })
      .Case<math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
            math::TruncOp>([&](auto) {
        APFloat::roundingMode mode =
            isa<math::FloorOp>(op)       ? APFloat::rmTowardNegative
            : isa<math::CeilOp>(op)      ? APFloat::rmTowardPositive
            : isa<math::RoundOp>(op)     ? APFloat::rmNearestTiesToAway
            : isa<math::RoundEvenOp>(op) ? APFloat::rmNearestTiesToEven
                                         : APFloat::rmTowardZero;
        return floatNary(op, [mode](ArrayRef<APFloat> in) {
          APFloat r = in[0];
          r.roundToIntegral(mode);
          return r;
        });
      })
      .Case<math::SqrtOp>([&](auto) {
        return floatViaDouble(op, [](double x) { return std::sqrt(x); });
      })
      .Case<math::Exp2Op>([&](auto) {
        return floatViaDouble(op, [](double x) { return std::exp2(x); });
      })
      .Case<math::Log2Op>([&](auto) {
        return floatViaDouble(op, [](double x) { return std::log2(x); });
      })
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
      .Case<affine::AffineDelinearizeIndexOp>(
          [&](auto d) { return execDelinearize(d); })
      .Case<affine::AffineLinearizeIndexOp>(
          [&](auto l) { return execLinearize(l); })
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
      .Case<gpu::BarrierOp, amdgpu::LDSBarrierOp>(
          [&](auto) { return execBarrier(op); })
      .Case<gpu::SubgroupBroadcastOp>(
          [&](auto broadcast) { return execSubgroupBroadcast(broadcast); })
      // Scheduling hints have no semantics.
      .Case<amdgpu::SchedBarrierOp>([&](auto) { return success(); })
      // memref
      .Case<memref::AllocaOp>([&](auto alloca) -> LogicalResult {
        if (isHost())
          return execAlloc(op, alloca.getType(), alloca.getDynamicSizes());
        FailureOr<MemView> view =
            createLocal(op, alloca.getType(), alloca.getDynamicSizes(), true);
        if (failed(view))
          return failure();
        setMem(alloca.getResult(), *view);
        return success();
      })
      .Case<memref::AllocOp>([&](auto alloc) {
        return execAlloc(op, alloc.getType(), alloc.getDynamicSizes());
      })
      .Case<memref::DeallocOp>([&](auto d) { return execDealloc(d); })
      .Case<memref::CopyOp>([&](auto copy) { return execCopy(copy); })
      .Case<memref::GetGlobalOp>([&](auto g) { return execGetGlobal(g); })
      .Case<memref::ReinterpretCastOp>(
          [&](auto cast) { return execReinterpretCast(cast); })
      .Case<memref::ExpandShapeOp>(
          [&](auto expand) { return execExpandShape(expand); })
      .Case<memref::CollapseShapeOp>(
          [&](auto collapse) { return execCollapseShape(collapse); })
      .Case<memref::ExtractStridedMetadataOp>(
          [&](auto e) { return execExtractStridedMetadata(e); })
      // Casts that keep the view (address spaces, alignment, layouts).
      .Case<memref::CastOp, memref::MemorySpaceCastOp,
            memref::AssumeAlignmentOp>([&](auto cast) -> LogicalResult {
        if (!isa<MemRefType>(cast->getResult(0).getType()))
          return unsupportedType(op, cast->getResult(0).getType());
        const MemView *view = getMem(op, op->getOperand(0));
        if (!view)
          return failure();
        return setView(op, op->getResult(0), *view);
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
      .Case<memref::SubViewOp>([&](auto sv) { return execSubView(sv); })
      .Case<amdgpu::FatRawBufferCastOp>(
          [&](auto cast) { return execFatRawBufferCast(cast); })
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
      .Case<vector::ShuffleOp>(
          [&](auto shuffle) { return execShuffle(shuffle); })
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
      .Case<gpu::LaunchFuncOp>([&](auto launch) { return execLaunch(launch); })
      // amdgpu
      .Case<amdgpu::ScaledMFMAOp>(
          [&](auto mfma) { return execScaledMFMA(mfma); })
      .Case<amdgpu::GatherToLDSOp>(
          [&](auto gather) { return execGatherToLDS(gather); })
      .Case<amdgpu::MemoryCounterWaitOp>(
          [&](auto wait) { return execMemoryCounterWait(wait); })
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
    if (!uniform && !isActive(t))
      continue;
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

LogicalResult Interpreter::floatNary(
    Operation *op, function_ref<llvm::APFloat(ArrayRef<llvm::APFloat>)> fn) {
  Type elemType = getElementTypeOrSelf(op->getResult(0));
  auto type = dyn_cast<FloatType>(elemType);
  if (!type)
    return unsupportedType(op, op->getResult(0).getType());
  for (Value operand : op->getOperands())
    if (getElementTypeOrSelf(operand.getType()) != elemType)
      return unsupportedType(op, operand.getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  unsigned width = type.getWidth();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    SmallVector<llvm::APFloat, 3> args;
    for (uint64_t bits : in)
      args.emplace_back(semantics, llvm::APInt(width, bits));
    return ElemResult{fn(args).bitcastToAPInt().getZExtValue()};
  });
}

/// Exact conversions to double and one rounding back: for types that fit in
/// double (precision, exponent range) and have a NaN (the result may be one).
LogicalResult Interpreter::floatViaDouble(Operation *op, double (*fn)(double)) {
  using APFloat = llvm::APFloat;
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  if (!type)
    return unsupportedType(op, op->getResult(0).getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  const llvm::fltSemantics &dbl = APFloat::IEEEdouble();
  if (APFloat::semanticsPrecision(semantics) >
          APFloat::semanticsPrecision(dbl) ||
      APFloat::semanticsMaxExponent(semantics) >
          APFloat::semanticsMaxExponent(dbl) ||
      APFloat::semanticsMinExponent(semantics) <
          APFloat::semanticsMinExponent(dbl) ||
      !APFloat::semanticsHasNaN(semantics))
    return unsupportedType(op, op->getResult(0).getType());
  return floatNary(op, [&](ArrayRef<APFloat> in) {
    bool lost = false;
    APFloat x = in[0];
    x.convert(dbl, APFloat::rmNearestTiesToEven, &lost);
    APFloat r(fn(x.convertToDouble()));
    r.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    return r;
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
    if (!uniform && !isActive(t))
      continue;
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
  storage->ownedInitialized.assign(size_t(bytes * copies), 0);
  storage->data = storage->owned.data();
  storage->initialized = storage->ownedInitialized.data();
  storage->size = bytes * copies;
  {
    llvm::raw_string_ostream os(storage->name);
    os << "'" << op->getName() << "' at " << op->getLoc();
  }
  // Workgroup memory is shared by the workgroup's waves: check for races.
  if (!perThread)
    storage->lds.assign(size_t(bytes), LDSByte());
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
  bool uniform = view.threadStride == 0 && !view.threadOffset;
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
  if (storage.freed)
    return fail(op, Twine(isWrite ? "write to " : "read of ") + storage.name +
                        " after its memref.dealloc");
  if (isWrite && storage.readOnly)
    return fail(op, "write to the constant " + storage.name);
  SmallVector<int64_t, 6> idx(rank);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    int64_t linear = view.getOffset(t);
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
    if (view.isBuffer) {
      // Buffer semantics: the shape is not checked, each element is
      // range-checked against the buffer (offsets are unsigned on the
      // hardware: below the base is out of range). In-range elements must
      // still lie in the storage.
      for (int64_t k = 0; k < count; ++k) {
        int64_t begin = (linear + k) * view.elemBytes;
        int64_t relative = begin - view.bufferBase;
        if (relative < 0 || relative + view.elemBytes > view.numRecords)
          continue; // Loads read 0 (the register starts zeroed); stores drop.
        if (begin < 0 || begin + view.elemBytes > storage.size)
          return failThread(
              op, t, uniform,
              (isWrite ? "write at " : "read at ") + describe() +
                  " through a fat raw buffer touches bytes [" + Twine(begin) +
                  ", " + Twine(begin + view.elemBytes) +
                  ") outside its storage of " + Twine(storage.size) + " bytes");
        uint8_t *data = storage.data + begin;
        if (isWrite) {
          std::memcpy(data, stored->at(t) + k * view.elemBytes,
                      size_t(view.elemBytes));
          if (storage.initialized)
            std::memset(storage.initialized + begin, 1, size_t(view.elemBytes));
          continue;
        }
        if (storage.initialized)
          for (int64_t b = 0; b < view.elemBytes; ++b)
            if (!storage.initialized[begin + b])
              return failThread(op, t, uniform,
                                "read at " + describe() +
                                    " reads memory that was never written");
        std::memcpy(loaded->at(t) + k * view.elemBytes, data,
                    size_t(view.elemBytes));
      }
      continue;
    }
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
    if (!storage.lds.empty()) {
      // Workgroup memory: races between the waves.
      std::string race;
      if (!uniform)
        race = checkLDSAccess(storage, t / hw::kWaveSize, begin, numBytes,
                              isWrite, /*async=*/false);
      for (int64_t w = 0; uniform && race.empty() && w < getNumWaves(); ++w)
        if (isWaveActive(w))
          race = checkLDSAccess(storage, w, begin, numBytes, isWrite,
                                /*async=*/false);
      if (!race.empty())
        return failThread(op, t, uniform,
                          (isWrite ? "write at " : "read at ") + describe() +
                              ": " + race);
    }
    if (isWrite) {
      std::memcpy(storage.data + begin, stored->at(t), size_t(numBytes));
      if (storage.initialized)
        std::memset(storage.initialized + begin, 1, size_t(numBytes));
    } else {
      if (storage.initialized)
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

LogicalResult Interpreter::resolveMixed(Operation *op,
                                        ArrayRef<OpFoldResult> mixed,
                                        SmallVectorImpl<int64_t> &out,
                                        StringRef what) {
  for (OpFoldResult ofr : mixed) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      out.push_back(cast<IntegerAttr>(attr).getInt());
      continue;
    }
    FailureOr<int64_t> value = getUniformInt(op, cast<Value>(ofr), what);
    if (failed(value))
      return failure();
    out.push_back(*value);
  }
  return success();
}

LogicalResult Interpreter::setView(Operation *op, Value result, MemView view) {
  auto type = dyn_cast<MemRefType>(result.getType());
  if (!type)
    return unsupportedType(op, result.getType());
  for (int64_t size : view.sizes)
    if (size < 0)
      return fail(op, "negative size in the result shape " +
                          formatList(view.sizes));
  std::optional<int64_t> offset;
  if (!view.threadOffset)
    offset = view.offset;
  std::string mismatch =
      checkViewAgainstType(type, offset, view.sizes, view.strides);
  if (!mismatch.empty())
    return fail(op, "run-time " + mismatch);
  setMem(result, std::move(view));
  return success();
}

LogicalResult Interpreter::execSubView(memref::SubViewOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  SmallVector<int64_t> sizes, strides;
  if (failed(resolveMixed(op, op.getMixedSizes(), sizes, "a subview size")) ||
      failed(
          resolveMixed(op, op.getMixedStrides(), strides, "a subview stride")))
    return failure();
  SmallVector<OpFoldResult> mixedOffsets = op.getMixedOffsets();
  size_t rank = source->sizes.size();
  if (mixedOffsets.size() != rank || sizes.size() != rank ||
      strides.size() != rank)
    return fail(op, "rank mismatch");
  // Offsets may differ per thread (e.g. a tile per thread).
  SmallVector<int64_t> staticOffsets(rank, 0);
  SmallVector<const Reg *> offsetRegs(rank, nullptr);
  bool uniform = true;
  for (auto [d, ofr] : llvm::enumerate(mixedOffsets)) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      staticOffsets[d] = cast<IntegerAttr>(attr).getInt();
      continue;
    }
    offsetRegs[d] = getReg(op, cast<Value>(ofr));
    if (!offsetRegs[d])
      return failure();
    uniform &= offsetRegs[d]->uniform;
  }
  MemView result = *source;
  result.sizes.clear();
  result.strides.clear();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  for (size_t d = 0; d < rank; ++d) {
    if (dropped.test(d))
      continue;
    result.sizes.push_back(sizes[d]);
    result.strides.push_back(source->strides[d] * strides[d]);
  }
  std::shared_ptr<std::vector<int64_t>> perThread;
  if (!uniform)
    perThread = std::make_shared<std::vector<int64_t>>(numThreads, 0);
  SmallVector<int64_t> offsets(rank);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    int64_t delta = 0;
    for (size_t d = 0; d < rank; ++d) {
      offsets[d] =
          offsetRegs[d] ? readIndex(*offsetRegs[d], t) : staticOffsets[d];
      if (offsets[d] < 0 || sizes[d] < 0 ||
          (sizes[d] > 0 &&
           offsets[d] + (sizes[d] - 1) * strides[d] >= source->sizes[d]) ||
          (sizes[d] == 0 && offsets[d] > source->sizes[d]))
        return failThread(
            op, t, uniform,
            "subview offsets " + formatList(offsets) + ", sizes " +
                formatList(sizes) + ", strides " + formatList(strides) +
                " exceed the source shape " + formatList(source->sizes));
      delta += offsets[d] * source->strides[d];
    }
    if (uniform)
      result.offset += delta;
    else
      (*perThread)[t] =
          delta + (source->threadOffset ? (*source->threadOffset)[t] : 0);
  }
  if (perThread)
    result.threadOffset = std::move(perThread);
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult Interpreter::execFatRawBufferCast(amdgpu::FatRawBufferCastOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  MemView view = *source;
  if (view.threadStride != 0 || !view.storage->lds.empty())
    return fail(op, "only global memory can be viewed as a fat raw buffer "
                    "(not " +
                        view.storage->name + ")");
  if (op.getResetOffset() && (view.threadOffset || view.offset != 0))
    return fail(op, "resetOffset with a nonzero memref offset is not "
                    "supported");
  // Without bounds checking the result is a plain view (an access outside
  // the view's shape is an error, not a buffer-unchecked access).
  if (!op.getBoundsCheck())
    return setView(op, op.getResult(), view);
  int64_t numRecords = 0;
  if (Value validBytes = op.getValidBytes()) {
    FailureOr<int64_t> value = getUniformInt(op, validBytes, "validBytes");
    if (failed(value))
      return failure();
    numRecords = *value;
  } else {
    // As the lowering computes num_records: one element past the greatest
    // valid index, max_d(sizes[d] * strides[d]) elements.
    numRecords = view.sizes.empty() ? 1 : 0;
    for (auto [size, stride] : llvm::zip(view.sizes, view.strides))
      numRecords = std::max(numRecords, size * stride);
    numRecords *= view.elemBytes;
  }
  if (numRecords < 0 || numRecords > int64_t(UINT32_MAX))
    return fail(op, "buffer size " + Twine(numRecords) +
                        " bytes does not fit in num_records (32 bits)");
  view.isBuffer = true;
  view.bufferBase = 0;
  view.numRecords = numRecords;
  return setView(op, op.getResult(), view);
}

LogicalResult Interpreter::execReinterpretCast(memref::ReinterpretCastOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  SmallVector<int64_t> sizes, strides;
  if (failed(resolveMixed(op, op.getMixedSizes(), sizes, "a size")) ||
      failed(resolveMixed(op, op.getMixedStrides(), strides, "a stride")))
    return failure();
  // The offset is relative to the source's base (its allocation), not to
  // the source view; it may differ per thread.
  MemView result = *source;
  result.threadOffset.reset();
  result.sizes.assign(sizes.begin(), sizes.end());
  result.strides.assign(strides.begin(), strides.end());
  OpFoldResult offset = op.getMixedOffsets()[0];
  if (auto attr = dyn_cast<Attribute>(offset)) {
    result.offset = cast<IntegerAttr>(attr).getInt();
  } else {
    const Reg *reg = getReg(op, cast<Value>(offset));
    if (!reg)
      return failure();
    if (reg->uniform) {
      result.offset = readIndex(*reg, 0);
    } else {
      auto perThread = std::make_shared<std::vector<int64_t>>(numThreads, 0);
      for (int64_t t = 0; t < numThreads; ++t)
        if (isActive(t))
          (*perThread)[t] = readIndex(*reg, t);
      result.offset = 0;
      result.threadOffset = std::move(perThread);
    }
  }
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult Interpreter::execExpandShape(memref::ExpandShapeOp op) {
  const MemView *source = getMem(op, op.getSrc());
  if (!source)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(
          resolveMixed(op, op.getMixedOutputShape(), shape, "an output size")))
    return failure();
  MemView result = *source;
  result.sizes.assign(shape.begin(), shape.end());
  result.strides.assign(shape.size(), 0);
  for (auto [sourceDim, group] :
       llvm::enumerate(op.getReassociationIndices())) {
    if (sourceDim >= source->sizes.size())
      return fail(op, "rank mismatch");
    int64_t stride = source->strides[sourceDim];
    int64_t product = 1;
    for (int64_t d : llvm::reverse(group)) {
      result.strides[d] = stride;
      stride *= shape[d];
      product *= shape[d];
    }
    if (product != source->sizes[sourceDim])
      return fail(op, "output sizes " + formatList(shape) +
                          " do not multiply to the size " +
                          Twine(source->sizes[sourceDim]) +
                          " of source dimension " + Twine(sourceDim));
  }
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult Interpreter::execCollapseShape(memref::CollapseShapeOp op) {
  const MemView *source = getMem(op, op.getSrc());
  if (!source)
    return failure();
  MemView result = *source;
  result.sizes.clear();
  result.strides.clear();
  for (const ReassociationIndices &group : op.getReassociationIndices()) {
    int64_t size = 1;
    for (int64_t d : group)
      size *= source->sizes[d];
    // Walking inward to outward over the dimensions larger than one, each
    // stride must be the next inner one times its size.
    std::optional<int64_t> innerStride;
    int64_t expected = 0;
    for (int64_t d : llvm::reverse(group)) {
      if (source->sizes[d] == 1 || size == 0)
        continue;
      if (innerStride && source->strides[d] != expected)
        return fail(op, "cannot collapse the dimensions " + formatList(group) +
                            " of the view with sizes " +
                            formatList(source->sizes) + " and strides " +
                            formatList(source->strides) +
                            ": they are not contiguous");
      if (!innerStride)
        innerStride = source->strides[d];
      expected = source->strides[d] * source->sizes[d];
    }
    result.sizes.push_back(size);
    result.strides.push_back(innerStride     ? *innerStride
                             : group.empty() ? 1
                                             : source->strides[group.back()]);
  }
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult
Interpreter::execExtractStridedMetadata(memref::ExtractStridedMetadataOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  MemView base = *source;
  base.offset = 0;
  base.threadOffset.reset();
  base.sizes.clear();
  base.strides.clear();
  setMem(op.getBaseBuffer(), std::move(base));
  Type indexType = IndexType::get(op.getContext());
  if (!source->threadOffset) {
    setReg(op.getOffset(), uniformInt(indexType, source->offset));
  } else {
    Reg offset(8, /*uniform=*/false, numThreads);
    for (int64_t t = 0; t < numThreads; ++t) {
      int64_t value = source->getOffset(t);
      std::memcpy(offset.at(t), &value, 8);
    }
    setReg(op.getOffset(), std::move(offset));
  }
  for (auto [value, size] : llvm::zip(op.getSizes(), source->sizes))
    setReg(value, uniformInt(indexType, size));
  for (auto [value, stride] : llvm::zip(op.getStrides(), source->strides))
    setReg(value, uniformInt(indexType, stride));
  return success();
}

//===--- Host memory ----------------------------------------------------===//

Storage *Interpreter::getHostStorage(std::shared_ptr<HostBuffer> buffer,
                                     const Twine &name) {
  auto it = hostStorages.find(buffer.get());
  if (it != hostStorages.end())
    return it->second;
  auto storage = std::make_unique<Storage>();
  storage->data = buffer->bytes.data();
  storage->size = int64_t(buffer->bytes.size());
  storage->name = name.str();
  if (buffer->initialized.size() == buffer->bytes.size() &&
      !buffer->initialized.empty())
    storage->initialized = buffer->initialized.data();
  storage->readOnly = buffer->readOnly;
  storage->host = std::move(buffer);
  Storage *result = storage.get();
  hostStorages[result->host.get()] = result;
  longLivedStorages.push_back(std::move(storage));
  return result;
}

LogicalResult Interpreter::execGetGlobal(memref::GetGlobalOp op) {
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      op, op.getNameAttr());
  if (!global)
    return fail(op, "no memref.global @" + op.getName());
  MemRefType type = global.getType();
  Type elemType = type.getElementType();
  int64_t elemBytes = getMemElemBytes(elemType);
  if (!elemBytes || !(isa<FloatType>(elemType) || elemType.isIntOrIndex()))
    return unsupportedType(op, type);
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return fail(op, "the global @" + op.getName() +
                        " needs a static shape and an identity layout");
  Storage *storage = globalStorages.lookup(global);
  if (!storage) {
    int64_t numElements = type.getNumElements();
    if (numElements > kMaxHostBytes / elemBytes)
      return fail(op, "the global @" + op.getName() + " is too large");
    int64_t bytes = numElements * elemBytes;
    auto buffer = std::make_shared<HostBuffer>(size_t(bytes));
    if (global.isExternal())
      return fail(op, "the global @" + op.getName() +
                          " is external (no initial value)");
    if (global.isUninitialized()) {
      buffer->initialized.assign(size_t(bytes), 0);
    } else {
      auto dense = dyn_cast<DenseElementsAttr>(*global.getInitialValue());
      if (!dense || dense.getElementType() != elemType)
        return fail(op, "the initial value of @" + op.getName() +
                            " is not a dense elements attribute of its "
                            "element type");
      unsigned bits = elemBytes * 8;
      int64_t i = 0;
      if (isa<FloatType>(elemType)) {
        for (const llvm::APFloat &value : dense.getValues<llvm::APFloat>())
          writeBits(buffer->bytes.data(), uint64_t(i++) * bits, bits,
                    value.bitcastToAPInt().getZExtValue());
      } else {
        for (const llvm::APInt &value : dense.getValues<llvm::APInt>())
          writeBits(buffer->bytes.data(), uint64_t(i++) * bits, bits,
                    value.getZExtValue() & maskBits(bits));
      }
      if (i != numElements)
        return fail(op, "the initial value of @" + op.getName() + " has " +
                            Twine(i) + " elements, expected " +
                            Twine(numElements));
    }
    buffer->readOnly = global.getConstant();
    storage =
        getHostStorage(std::move(buffer), "memref.global @" + op.getName());
    globalStorages[global] = storage;
  }
  MemView view;
  view.storage = storage;
  view.elemBytes = elemBytes;
  StridedLayout layout = StridedLayout::rowMajor(type.getShape());
  view.sizes.assign(layout.sizes.begin(), layout.sizes.end());
  view.strides.assign(layout.strides.begin(), layout.strides.end());
  return setView(op, op.getResult(), std::move(view));
}

LogicalResult Interpreter::execAlloc(Operation *op, MemRefType type,
                                     ValueRange dynamicSizes) {
  if (!type.getLayout().isIdentity())
    return fail(op, "only identity-layout memrefs can be allocated");
  int64_t elemBytes = getMemElemBytes(type.getElementType());
  if (!elemBytes)
    return unsupportedType(op, type);
  SmallVector<int64_t> sizes;
  unsigned next = 0;
  int64_t bytes = elemBytes;
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
    if (llvm::MulOverflow(bytes, size, bytes) || bytes > kMaxHostBytes)
      return fail(op, "allocation too large");
    sizes.push_back(size);
  }
  if (bytes > kMaxHostBytes - hostBytes)
    return fail(op,
                "host allocations exceed " + Twine(kMaxHostBytes) + " bytes");
  hostBytes += bytes;
  auto buffer =
      std::make_shared<HostBuffer>(HostBuffer::uninitialized(size_t(bytes)));
  std::string name;
  {
    llvm::raw_string_ostream os(name);
    os << "'" << op->getName() << "' at " << op->getLoc();
  }
  Storage *storage = getHostStorage(std::move(buffer), name);
  storage->isHeap = isa<memref::AllocOp>(op);
  MemView view;
  view.storage = storage;
  view.elemBytes = elemBytes;
  StridedLayout layout = StridedLayout::rowMajor(sizes);
  view.sizes.assign(layout.sizes.begin(), layout.sizes.end());
  view.strides.assign(layout.strides.begin(), layout.strides.end());
  return setView(op, op->getResult(0), std::move(view));
}

LogicalResult Interpreter::execDealloc(memref::DeallocOp op) {
  const MemView *view = getMem(op, op.getMemref());
  if (!view)
    return failure();
  Storage &storage = *view->storage;
  if (!storage.isHeap)
    return fail(op, "deallocates " + storage.name +
                        ", which is not a memref.alloc");
  if (storage.freed)
    return fail(op, "deallocates " + storage.name + " twice");
  if (view->offset != 0 || view->threadOffset)
    return fail(op, "deallocates a view at offset " + Twine(view->offset) +
                        " of " + storage.name + ", not the allocation");
  storage.freed = true;
  return success();
}

LogicalResult Interpreter::execCopy(memref::CopyOp op) {
  const MemView *source = getMem(op, op.getSource());
  const MemView *target = getMem(op, op.getTarget());
  if (!source || !target)
    return failure();
  if (source->sizes != target->sizes || source->elemBytes != target->elemBytes)
    return fail(op, "the source shape " + formatList(source->sizes) +
                        " differs from the target shape " +
                        formatList(target->sizes));
  Storage &from = *source->storage, &to = *target->storage;
  for (Storage *storage : {&from, &to})
    if (storage->freed)
      return fail(op, "use of " + storage->name + " after its memref.dealloc");
  if (to.readOnly)
    return fail(op, "write to the constant " + to.name);
  StridedLayout fromLayout, toLayout;
  fromLayout.offset = source->offset;
  fromLayout.sizes.assign(source->sizes.begin(), source->sizes.end());
  fromLayout.strides.assign(source->strides.begin(), source->strides.end());
  toLayout.offset = target->offset;
  toLayout.sizes = fromLayout.sizes;
  toLayout.strides.assign(target->strides.begin(), target->strides.end());
  int64_t elemBytes = source->elemBytes;
  for (int64_t i = 0, e = fromLayout.getNumElements(); i < e; ++i) {
    int64_t begin = fromLayout.getPosition(i) * elemBytes;
    int64_t end = toLayout.getPosition(i) * elemBytes;
    for (auto [storage, position, what] :
         {std::make_tuple(&from, begin, "reads"),
          std::make_tuple(&to, end, "writes")})
      if (position < 0 || position + elemBytes > storage->size)
        return fail(op, Twine(what) + " element " + Twine(i) +
                            " (row-major) at bytes [" + Twine(position) + ", " +
                            Twine(position + elemBytes) + ") outside " +
                            storage->name + " of " + Twine(storage->size) +
                            " bytes");
    std::memmove(to.data + end, from.data + begin, size_t(elemBytes));
    // Initialization travels with the bytes.
    if (to.initialized) {
      for (int64_t b = 0; b < elemBytes; ++b)
        to.initialized[end + b] =
            from.initialized ? from.initialized[begin + b] : 1;
    }
  }
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
    if (!uniform && !isActive(t))
      continue;
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
  auto takes = [&](int64_t t) { return bool(condition->at(t)[0] & 1); };
  bool anyThen = false, anyElse = false;
  if (condition->uniform) {
    (takes(0) ? anyThen : anyElse) = true;
  } else {
    for (int64_t t = 0; t < numThreads; ++t)
      if (isActive(t))
        (takes(t) ? anyThen : anyElse) = true;
  }
  // All active threads agree: one region, under the current mask.
  if (!anyThen || !anyElse) {
    Region &region = anyThen ? op.getThenRegion() : op.getElseRegion();
    SmallVector<RtValue> yielded;
    if (!region.empty() && failed(runBlock(region.front(), {}, yielded)))
      return failure();
    for (auto [result, value] : llvm::zip(op.getResults(), yielded))
      values[result] = value;
    return success();
  }

  // Divergent: each region runs for the active threads that take it.
  SmallVector<uint8_t> outerMask = activeMask;
  SmallVector<uint8_t> thenMask(numThreads), elseMask(numThreads);
  for (int64_t t = 0; t < numThreads; ++t) {
    bool active = outerMask.empty() || outerMask[t];
    thenMask[t] = active && takes(t);
    elseMask[t] = active && !takes(t);
  }
  SmallVector<RtValue> thenValues, elseValues;
  activeMask = thenMask;
  LogicalResult result = runBlock(op.getThenRegion().front(), {}, thenValues);
  if (succeeded(result) && !op.getElseRegion().empty()) {
    activeMask = elseMask;
    result = runBlock(op.getElseRegion().front(), {}, elseValues);
  }
  activeMask = outerMask;
  if (failed(result))
    return failure();

  // Merge the results per thread by the condition.
  for (auto [i, opResult] : llvm::enumerate(op.getResults())) {
    const RtValue &a = thenValues[i], &b = elseValues[i];
    if (a.isMem || b.isMem) {
      // Views of one storage that differ only in their offsets merge into a
      // view with a per-thread offset.
      bool mergeable = a.isMem && b.isMem && a.mem.storage == b.mem.storage &&
                       a.mem.threadStride == b.mem.threadStride &&
                       a.mem.sizes == b.mem.sizes &&
                       a.mem.strides == b.mem.strides &&
                       a.mem.elemBytes == b.mem.elemBytes;
      if (!mergeable)
        return fail(op, "result #" + Twine(i) +
                            ": divergent branches yield views of different "
                            "memory or shapes (not supported)");
      RtValue merged = a;
      auto offsets = std::make_shared<std::vector<int64_t>>(numThreads, 0);
      for (int64_t t = 0; t < numThreads; ++t)
        (*offsets)[t] = (takes(t) ? a : b).mem.getOffset(t);
      merged.mem.offset = 0;
      merged.mem.threadOffset = std::move(offsets);
      values[opResult] = std::move(merged);
      continue;
    }
    if (a.reg.bytes != b.reg.bytes)
      return fail(op, "result #" + Twine(i) + " has different sizes");
    RtValue merged;
    merged.reg = Reg(a.reg.bytes, /*uniform=*/false, numThreads);
    for (int64_t t = 0; t < numThreads; ++t)
      std::memcpy(merged.reg.at(t), (takes(t) ? a : b).reg.at(t), a.reg.bytes);
    values[opResult] = std::move(merged);
  }
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
    // Inactive waves skip the instruction; a wave must not be split.
    int64_t active = 0;
    for (int64_t lane = 0; lane < lanes; ++lane)
      active += isActive(wave * lanes + lane);
    if (active == 0)
      continue;
    if (active != lanes)
      return fail(op, "executed by a partially active wave (wave " +
                          Twine(wave) + ": " + Twine(active) + " of " +
                          Twine(lanes) + " lanes active)");
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
// Workgroup memory: direct-to-LDS copies, waits, barriers and races
//===----------------------------------------------------------------------===//
//
// Lock-step execution makes every store visible at once, so a kernel that
// forgets a barrier or a wait still computes the right values here. The
// race checks catch what the hardware would get wrong: per byte of
// workgroup memory they remember the wave and barrier phase of the last
// write and the waves that read it in the current phase, and an
// amdgpu.gather_to_lds stays pending (invisible, even to its own wave) until
// an amdgpu.memory_counter_wait of its wave completes it.

std::string Interpreter::checkLDSAccess(Storage &storage, int64_t wave,
                                        int64_t begin, int64_t numBytes,
                                        bool isWrite, bool async) {
  uint16_t self = uint16_t(1u << wave);
  for (int64_t b = begin; b < begin + numBytes; ++b) {
    const LDSByte &state = storage.lds[b];
    std::string where = "byte " + std::to_string(b) + " of " + storage.name;
    std::string writer = "wave " + std::to_string(state.writer);
    if (!isWrite) {
      if (state.pending)
        return "reads " + where + ", which an amdgpu.gather_to_lds of " +
               writer +
               " is still writing (no amdgpu.memory_counter_wait of that "
               "wave completed it)";
      if (state.writer >= 0 && state.writer != wave &&
          state.writePhase >= barrierPhase)
        return "reads " + where + ", which " + writer +
               " wrote after the last barrier (a barrier is missing between "
               "the write and the read)";
      continue;
    }
    uint16_t others = state.readPhase == barrierPhase
                          ? uint16_t(state.readers & ~self)
                          : uint16_t(0);
    if (others)
      return "overwrites " + where + ", which wave " +
             std::to_string(llvm::countr_zero(others)) +
             " read after the last barrier (a barrier is missing between the "
             "read and the write)";
    if (state.pending)
      return "overwrites " + where + ", which an amdgpu.gather_to_lds of " +
             writer + " is still writing";
    if (state.writer >= 0 && state.writer != wave &&
        state.writePhase >= barrierPhase)
      return "overwrites " + where + ", which " + writer +
             " wrote after the last barrier (a barrier is missing between "
             "the writes)";
  }
  for (int64_t b = begin; b < begin + numBytes; ++b) {
    LDSByte &state = storage.lds[b];
    if (!isWrite) {
      if (state.readPhase != barrierPhase) {
        state.readPhase = barrierPhase;
        state.readers = 0;
      }
      state.readers |= self;
      continue;
    }
    state.writer = int8_t(wave);
    state.pending = async;
    state.writePhase = async ? -1 : barrierPhase;
  }
  return "";
}

void Interpreter::completeCopies(int64_t wave, size_t keep) {
  std::deque<PendingCopy> &copies = pendingCopies[wave];
  while (copies.size() > keep) {
    PendingCopy copy = copies.front();
    copies.pop_front();
    for (int64_t b = copy.begin; b < copy.begin + copy.size; ++b) {
      LDSByte &state = copy.storage->lds[b];
      if (state.pending && state.writer == wave) {
        state.pending = false;
        state.writePhase = barrierPhase;
      }
    }
  }
}

// Every thread of the workgroup must reach a barrier; in lock step it has
// nothing to wait for, but it starts a new phase for the race checks. It
// does not complete copies (amdgpu.lds_barrier waits for LDS operations,
// not for the vector memory counter that amdgpu.gather_to_lds counts on).
LogicalResult Interpreter::execBarrier(Operation *op) {
  if (isPartial())
    return fail(op, "barrier in divergent control flow (" +
                        Twine(countActive()) + " of " + Twine(numThreads) +
                        " threads active)");
  ++barrierPhase;
  return success();
}

// gfx9 counts loads and stores on one vector memory counter (vmcnt): a wait
// for either leaves at most that many of the wave's copies pending. Other
// vector memory operations complete at once in the emulator, so counting
// only copies keeps more of them pending than the hardware would: never
// fewer.
LogicalResult
Interpreter::execMemoryCounterWait(amdgpu::MemoryCounterWaitOp op) {
  std::optional<uint32_t> load = op.getLoad(), store = op.getStore();
  if (!load && !store)
    return success();
  uint32_t keep =
      std::min(load.value_or(UINT32_MAX), store.value_or(UINT32_MAX));
  for (int64_t wave = 0; wave < getNumWaves(); ++wave)
    if (isWaveActive(wave))
      completeCopies(wave, keep);
  return success();
}

// global_load_lds_dword{,x3,x4} (CDNA4 ISA, "LDS DMA"): lane l of a wave
// reads its own `transfer` bytes at its source indices and writes them to
// workgroup memory at base + l * max(4, transfer) (12-byte transfers take 16
// bytes, 1- and 2-byte ones 4, zero-extended), base being the destination
// indices of the wave's first active lane (what the hardware takes from
// M0). The write is pending until an amdgpu.memory_counter_wait of the wave
// completes it.
LogicalResult Interpreter::execGatherToLDS(amdgpu::GatherToLDSOp op) {
  Type transfer = op.getTransferType();
  int64_t bits = 0;
  if (auto vectorType = dyn_cast<VectorType>(transfer))
    bits = vectorType.getNumElements() * vectorType.getElementTypeBitWidth();
  else if (transfer.isIntOrFloat())
    bits = transfer.getIntOrFloatBitWidth();
  if (!llvm::is_contained({8, 16, 32, 96, 128}, bits))
    return unsupportedType(op, transfer);
  int64_t bytes = bits / 8;
  int64_t laneBytes = bytes <= 4 ? 4 : 16;
  auto srcType = cast<MemRefType>(op.getSrc().getType());
  int64_t elemBytes = getMemElemBytes(srcType.getElementType());
  if (!elemBytes || bytes % elemBytes != 0)
    return fail(op, "the transfer type must be a whole number of source "
                    "elements");
  if (numThreads % hw::kWaveSize != 0)
    return fail(op, "the workgroup of " + Twine(numThreads) +
                        " threads is not a whole number of 64-lane waves");

  // Every active lane reads its transfer (checked like a vector.load).
  Reg loaded;
  if (failed(access(op, op.getSrc(), op.getSrcIndices(), bytes / elemBytes,
                    /*isWrite=*/false, &loaded, nullptr)))
    return failure();

  const MemView *dst = getMem(op, op.getDst());
  if (!dst)
    return failure();
  Storage &storage = *dst->storage;
  if (storage.lds.empty())
    return fail(op, "the destination is not workgroup memory of the kernel");
  int64_t rank = int64_t(dst->sizes.size());
  int64_t numElements = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (dst->strides[d] != numElements)
      return fail(op, "the destination view must be contiguous (row-major)");
    numElements *= dst->sizes[d];
  }
  SmallVector<const Reg *, 4> indexRegs;
  for (Value index : op.getDstIndices()) {
    const Reg *reg = getReg(op, index);
    if (!reg)
      return failure();
    indexRegs.push_back(reg);
  }
  if (int64_t(indexRegs.size()) != rank)
    return fail(op, "expected " + Twine(rank) + " destination indices");

  constexpr int64_t lanes = hw::kWaveSize;
  int64_t total = lanes * laneBytes;
  for (int64_t wave = 0, e = numThreads / lanes; wave < e; ++wave) {
    int64_t active = 0;
    for (int64_t lane = 0; lane < lanes; ++lane)
      active += isActive(wave * lanes + lane);
    if (active == 0)
      continue;
    if (active != lanes)
      return fail(op, "executed by a partially active wave (wave " +
                          Twine(wave) + ": " + Twine(active) + " of " +
                          Twine(lanes) + " lanes active)");
    int64_t first = wave * lanes;
    int64_t linear = 0;
    SmallVector<int64_t, 4> idx;
    bool inBounds = true;
    for (int64_t d = 0; d < rank; ++d) {
      idx.push_back(readIndex(*indexRegs[d], first));
      inBounds &= idx[d] >= 0 && idx[d] < dst->sizes[d];
      linear += idx[d] * dst->strides[d];
    }
    // The wave's bytes, relative to the view's first element.
    int64_t begin = linear * dst->elemBytes;
    int64_t viewBytes = numElements * dst->elemBytes;
    int64_t viewBegin = dst->getOffset(first) * dst->elemBytes;
    if (!inBounds || begin + total > viewBytes || viewBegin < 0 ||
        viewBegin + viewBytes > storage.size) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "wave " << wave << ": the destination index " << formatList(idx)
         << " of " << op.getDst().getType() << " with shape "
         << formatList(dst->sizes) << " (" << storage.name << ") plus " << lanes
         << " lanes x " << laneBytes << " bytes leaves the view (bytes ["
         << begin << ", " << begin + total << ") of " << viewBytes << ")";
      return fail(op, text);
    }
    begin += viewBegin;
    std::string race = checkLDSAccess(storage, wave, begin, total,
                                      /*isWrite=*/true, /*async=*/true);
    if (!race.empty())
      return fail(op, "wave " + Twine(wave) + ": the copy " + race);
    for (int64_t lane = 0; lane < lanes; ++lane) {
      uint8_t *to = storage.data + begin + lane * laneBytes;
      std::memcpy(to, loaded.at(first + lane), size_t(bytes));
      std::memset(to + bytes, 0, size_t(laneBytes - bytes));
    }
    if (storage.initialized)
      std::memset(storage.initialized + begin, 1, size_t(total));
    pendingCopies[wave].push_back({&storage, begin, total});
  }
  return success();
}

// Each wave's lanes get the value of its first active lane, or of lane
// `lane` (which must be active, else the result is poison).
LogicalResult Interpreter::execSubgroupBroadcast(gpu::SubgroupBroadcastOp op) {
  const Reg *source = getReg(op, op.getSrc());
  if (!source)
    return failure();
  if (source->uniform) {
    setReg(op.getResult(), *source);
    return success();
  }
  std::optional<int64_t> lane;
  if (op.getBroadcastType() == gpu::BroadcastType::specific_lane) {
    FailureOr<int64_t> value = getUniformInt(op, op.getLane(), "the lane");
    if (failed(value))
      return failure();
    if (*value < 0 || *value >= hw::kWaveSize)
      return fail(op, "lane " + Twine(*value) + " out of range (poison)");
    lane = *value;
  }
  Reg result(source->bytes, /*uniform=*/false, numThreads);
  for (int64_t wave = 0; wave < getNumWaves(); ++wave) {
    int64_t first = wave * hw::kWaveSize;
    int64_t end = std::min<int64_t>(numThreads, first + hw::kWaveSize);
    int64_t from = -1;
    if (lane)
      from =
          first + *lane < end && isActive(first + *lane) ? first + *lane : -1;
    else
      for (int64_t t = first; t < end && from < 0; ++t)
        if (isActive(t))
          from = t;
    if (from < 0) {
      if (lane && isWaveActive(wave))
        return fail(op, "wave " + Twine(wave) + ": lane " + Twine(*lane) +
                            " is not active (poison)");
      continue;
    }
    for (int64_t t = first; t < end; ++t)
      std::memcpy(result.at(t), source->at(from), source->bytes);
  }
  setReg(op.getResult(), std::move(result));
  return success();
}

LogicalResult Interpreter::execShuffle(vector::ShuffleOp op) {
  std::optional<TypeInfo> v1 = getTypeInfo(op.getV1().getType());
  std::optional<TypeInfo> v2 = getTypeInfo(op.getV2().getType());
  std::optional<TypeInfo> out = getTypeInfo(op.getType());
  if (!v1 || !v2 || !out)
    return unsupportedType(op, op.getType());
  const Reg *a = getReg(op, op.getV1());
  const Reg *b = getReg(op, op.getV2());
  if (!a || !b)
    return failure();
  // The mask picks slices along the leading dimension (elements of 0-D and
  // 1-D vectors) of the concatenation of v1 and v2.
  auto leading = [](const TypeInfo &info) {
    return info.shape.empty() ? int64_t(1) : info.shape.front();
  };
  int64_t n1 = leading(*v1), n2 = leading(*v2);
  uint64_t sliceBits = uint64_t(v1->numElements / n1) * v1->elemBits;
  bool uniform = a->uniform && b->uniform;
  Reg result(out->bytes, uniform, numThreads);
  for (auto [i, index] : llvm::enumerate(op.getMask())) {
    if (index == vector::ShuffleOp::kPoisonIndex)
      continue; // Poison: zeros.
    if (index < 0 || index >= n1 + n2)
      return fail(op, "mask index " + Twine(index) + " out of range");
    const Reg *from = index < n1 ? a : b;
    int64_t slice = index < n1 ? index : index - n1;
    for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t)
      copyBits(result.at(t), uint64_t(i) * sliceBits, from->at(t),
               uint64_t(slice) * sliceBits, sliceBits);
  }
  setReg(op.getResult(), std::move(result));
  return success();
}

//===----------------------------------------------------------------------===//
// Index and float operations
//===----------------------------------------------------------------------===//

LogicalResult
Interpreter::execDelinearize(affine::AffineDelinearizeIndexOp op) {
  const Reg *linear = getReg(op, op.getLinearIndex());
  if (!linear)
    return failure();
  ArrayRef<int64_t> staticBasis = op.getStaticBasis();
  SmallVector<const Reg *> dynamicBasis;
  bool uniform = linear->uniform;
  for (Value value : op.getDynamicBasis()) {
    const Reg *reg = getReg(op, value);
    if (!reg)
      return failure();
    dynamicBasis.push_back(reg);
    uniform &= reg->uniform;
  }
  int64_t numResults = op.getNumResults();
  // Basis element of result r (r >= 1): basis[r] with an outer bound,
  // basis[r - 1] without.
  int64_t shift = op.hasOuterBound() ? 0 : 1;
  SmallVector<Reg> results(numResults, Reg(8, uniform, numThreads));
  SmallVector<int64_t> basis(staticBasis.size());
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    for (size_t i = 0, next = 0; i < staticBasis.size(); ++i)
      basis[i] = ShapedType::isDynamic(staticBasis[i])
                     ? readIndex(*dynamicBasis[next++], t)
                     : staticBasis[i];
    int64_t x = readIndex(*linear, t);
    for (int64_t r = numResults - 1; r >= 0; --r) {
      int64_t value = x;
      if (r > 0) {
        int64_t b = basis[r - shift];
        if (b <= 0)
          return failThread(op, t, uniform,
                            "basis element " + Twine(b) + " is not positive");
        value = x - b * llvm::divideFloorSigned(x, b);
        x = llvm::divideFloorSigned(x, b);
      }
      std::memcpy(results[r].at(t), &value, 8);
    }
  }
  for (auto [result, reg] : llvm::zip(op.getResults(), results))
    setReg(result, std::move(reg));
  return success();
}

LogicalResult Interpreter::execLinearize(affine::AffineLinearizeIndexOp op) {
  SmallVector<const Reg *> indices, dynamicBasis;
  bool uniform = true;
  for (Value value : op.getMultiIndex()) {
    indices.push_back(getReg(op, value));
    if (!indices.back())
      return failure();
    uniform &= indices.back()->uniform;
  }
  for (Value value : op.getDynamicBasis()) {
    dynamicBasis.push_back(getReg(op, value));
    if (!dynamicBasis.back())
      return failure();
    uniform &= dynamicBasis.back()->uniform;
  }
  ArrayRef<int64_t> staticBasis = op.getStaticBasis();
  int64_t shift = op.hasOuterBound() ? 0 : 1;
  Reg out(8, uniform, numThreads);
  SmallVector<int64_t> basis(staticBasis.size());
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    for (size_t i = 0, next = 0; i < staticBasis.size(); ++i)
      basis[i] = ShapedType::isDynamic(staticBasis[i])
                     ? readIndex(*dynamicBasis[next++], t)
                     : staticBasis[i];
    uint64_t result = 0;
    for (size_t i = 0; i < indices.size(); ++i) {
      uint64_t index = uint64_t(readIndex(*indices[i], t));
      result = i == 0 ? index : result * uint64_t(basis[i - shift]) + index;
    }
    std::memcpy(out.at(t), &result, 8);
  }
  setReg(op.getResult(), std::move(out));
  return success();
}

LogicalResult Interpreter::execCmpF(arith::CmpFOp op) {
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(op.getLhs()));
  if (!type)
    return unsupportedType(op, op.getLhs().getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  unsigned width = type.getWidth();
  arith::CmpFPredicate predicate = op.getPredicate();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat a(semantics, llvm::APInt(width, in[0]));
    llvm::APFloat b(semantics, llvm::APInt(width, in[1]));
    llvm::APFloat::cmpResult c = a.compare(b);
    bool unordered = c == llvm::APFloat::cmpUnordered;
    bool lt = c == llvm::APFloat::cmpLessThan;
    bool eq = c == llvm::APFloat::cmpEqual;
    bool gt = c == llvm::APFloat::cmpGreaterThan;
    bool result = false;
    switch (predicate) {
    case arith::CmpFPredicate::AlwaysFalse:
      result = false;
      break;
    case arith::CmpFPredicate::OEQ:
      result = eq;
      break;
    case arith::CmpFPredicate::OGT:
      result = gt;
      break;
    case arith::CmpFPredicate::OGE:
      result = gt || eq;
      break;
    case arith::CmpFPredicate::OLT:
      result = lt;
      break;
    case arith::CmpFPredicate::OLE:
      result = lt || eq;
      break;
    case arith::CmpFPredicate::ONE:
      result = lt || gt;
      break;
    case arith::CmpFPredicate::ORD:
      result = !unordered;
      break;
    case arith::CmpFPredicate::UEQ:
      result = unordered || eq;
      break;
    case arith::CmpFPredicate::UGT:
      result = unordered || gt;
      break;
    case arith::CmpFPredicate::UGE:
      result = unordered || gt || eq;
      break;
    case arith::CmpFPredicate::ULT:
      result = unordered || lt;
      break;
    case arith::CmpFPredicate::ULE:
      result = unordered || lt || eq;
      break;
    case arith::CmpFPredicate::UNE:
      result = !eq;
      break;
    case arith::CmpFPredicate::UNO:
      result = unordered;
      break;
    case arith::CmpFPredicate::AlwaysTrue:
      result = true;
      break;
    }
    return ElemResult{uint64_t(result)};
  });
}

LogicalResult Interpreter::execFloatToInt(Operation *op, bool isSigned) {
  auto inType = dyn_cast<FloatType>(getElementTypeOrSelf(op->getOperand(0)));
  unsigned outWidth = getScalarBits(getElementTypeOrSelf(op->getResult(0)));
  if (!inType || !outWidth)
    return unsupportedType(op, op->getOperand(0).getType());
  const llvm::fltSemantics &semantics = inType.getFloatSemantics();
  unsigned inWidth = inType.getWidth();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat value(semantics, llvm::APInt(inWidth, in[0]));
    llvm::APSInt result(outWidth, /*isUnsigned=*/!isSigned);
    bool isExact;
    if (value.convertToInteger(result, llvm::APFloat::rmTowardZero, &isExact) &
        llvm::APFloat::opInvalidOp)
      return ElemResult{0, "the value does not fit the integer type (poison)"};
    return ElemResult{result.getZExtValue()};
  });
}

//===----------------------------------------------------------------------===//
// gpu.launch_func
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execLaunch(gpu::LaunchFuncOp op) {
  std::string symbol = ("@" + op.getKernelModuleName().getValue() + "::@" +
                        op.getKernelName().getValue())
                           .str();
  if (!op.getAsyncDependencies().empty() || op.getAsyncToken())
    return fail(op, "asynchronous launches are not supported");
  if (op.hasClusterSize())
    return fail(op, "cluster launches are not supported");
  if (Value dynamicShared = op.getDynamicSharedMemorySize()) {
    FailureOr<int64_t> bytes =
        getUniformInt(op, dynamicShared, "the dynamic shared memory size");
    if (failed(bytes))
      return failure();
    if (*bytes != 0)
      return fail(op, "dynamic shared memory is not supported");
  }
  auto kernelFunc =
      SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(op, op.getKernel());
  if (!kernelFunc || !kernelFunc.isKernel())
    return fail(op, "no gpu.func kernel " + symbol);
  std::array<int64_t, 3> grid, block;
  gpu::KernelDim3 gridValues = op.getGridSizeOperandValues();
  gpu::KernelDim3 blockValues = op.getBlockSizeOperandValues();
  Value gridOperands[] = {gridValues.x, gridValues.y, gridValues.z};
  Value blockOperands[] = {blockValues.x, blockValues.y, blockValues.z};
  for (int d = 0; d < 3; ++d) {
    FailureOr<int64_t> g = getUniformInt(op, gridOperands[d], "a grid size");
    FailureOr<int64_t> b = getUniformInt(op, blockOperands[d], "a block size");
    if (failed(g) || failed(b))
      return failure();
    grid[d] = *g;
    block[d] = *b;
  }
  SmallVector<KernelArg> args;
  for (Value operand : op.getKernelOperands()) {
    const RtValue *rt = lookup(op, operand);
    if (!rt)
      return failure();
    if (rt->isMem) {
      const MemView &view = rt->mem;
      Storage &storage = *view.storage;
      if (storage.freed)
        return fail(op, "passes " + storage.name +
                            " after its memref.dealloc to " + symbol);
      if (!storage.host || view.threadStride || view.threadOffset)
        return fail(op, "passes a memref that is not host memory");
      StridedLayout layout;
      layout.offset = view.offset;
      layout.sizes.assign(view.sizes.begin(), view.sizes.end());
      layout.strides.assign(view.strides.begin(), view.strides.end());
      args.push_back(
          KernelArg::view(*storage.host, std::move(layout), storage.name));
      continue;
    }
    Type type = operand.getType();
    unsigned bits = getScalarBits(type);
    if (!bits || isa<VectorType>(type))
      return unsupportedType(op, type);
    uint64_t raw = readBits(rt->reg.at(0), 0, bits);
    if (auto floatType = dyn_cast<FloatType>(type)) {
      llvm::APFloat value(floatType.getFloatSemantics(),
                          llvm::APInt(bits, raw));
      bool losesInfo;
      value.convert(llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      args.push_back(KernelArg::floating(value.convertToDouble()));
    } else {
      args.push_back(KernelArg::integer(signExtend(raw, bits)));
    }
  }

  RunStats kernelStats;
  Interpreter launch(kernelFunc, grid, block, kernelStats);
  LogicalResult result = launch.run(args, /*verify=*/false);
  ++hostStats->launches;
  ++hostStats->launchesPerKernel[symbol];
  hostStats->workgroups += kernelStats.workgroups;
  hostStats->kernelOperations += kernelStats.operations;
  hostStats->mfmas += kernelStats.mfmas;
  if (failed(result))
    return fail(op, "launch of " + symbol + " (grid " + formatList(grid) +
                        ", block " + formatList(block) +
                        ") failed: " + launch.getError());
  return success();
}

//===----------------------------------------------------------------------===//
// Host functions
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::runHost(ArrayRef<HostValue> args,
                                   SmallVectorImpl<HostValue> &results) {
  // Verify the whole module first (host function and kernels).
  {
    Operation *top = hostFunction;
    while (top->getParentOp())
      top = top->getParentOp();
    if (std::optional<std::string> diagnostics = verifyOp(top))
      return failLaunch("the module does not verify:\n" + *diagnostics);
  }
  if (hostFunction.isExternal())
    return failLaunch("the function has no body");
  if (!hostFunction.getBody().hasOneBlock())
    return failLaunch("unstructured control flow (several blocks) is not "
                      "supported");
  numThreads = 1;

  FunctionType type = hostFunction.getFunctionType();
  if (args.size() != type.getNumInputs())
    return failLaunch("expects " + Twine(type.getNumInputs()) +
                      " arguments, got " + Twine(args.size()));
  SmallVector<RtValue> argValues;
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type argType = type.getInput(i);
    std::string name = "argument #" + std::to_string(i) + " of @" +
                       hostFunction.getName().str();
    RtValue rt;
    if (auto memrefType = dyn_cast<MemRefType>(argType)) {
      if (arg.getKind() != HostValue::Kind::MemRef || !arg.getBuffer())
        return failLaunch(name + " is a memref; pass HostValue::memref");
      int64_t elemBytes = getMemElemBytes(memrefType.getElementType());
      if (!elemBytes)
        return failLaunch(name + ": unsupported memref element type");
      const StridedLayout &layout = arg.getLayout();
      if (layout.strides.size() != layout.sizes.size())
        return failLaunch(name + ": the layout has " +
                          Twine(layout.strides.size()) + " strides for " +
                          Twine(layout.sizes.size()) + " sizes");
      for (int64_t size : layout.sizes)
        if (size < 0)
          return failLaunch(name + ": negative size in " +
                            formatList(layout.sizes));
      std::string mismatch = checkViewAgainstType(memrefType, layout.offset,
                                                  layout.sizes, layout.strides);
      if (!mismatch.empty())
        return failLaunch(name + ": " + mismatch);
      if (!arg.getBuffer()->initialized.empty() &&
          arg.getBuffer()->initialized.size() != arg.getBuffer()->size())
        return failLaunch(name + ": the initialization mask has the wrong "
                                 "size");
      rt.isMem = true;
      rt.mem.storage = getHostStorage(arg.getBuffer(), name);
      rt.mem.elemBytes = elemBytes;
      rt.mem.offset = layout.offset;
      rt.mem.sizes.assign(layout.sizes.begin(), layout.sizes.end());
      rt.mem.strides.assign(layout.strides.begin(), layout.strides.end());
    } else {
      std::string error = scalarArgument(
          argType, arg.getKind() == HostValue::Kind::Integer, arg.getInteger(),
          arg.getKind() == HostValue::Kind::Float, arg.getFloat(), "HostValue",
          rt.reg);
      if (!error.empty())
        return failLaunch(name + error);
    }
    argValues.push_back(std::move(rt));
  }

  callStack.push_back(hostFunction);
  SmallVector<RtValue> yielded;
  if (failed(runBlock(hostFunction.getBody().front(), argValues, yielded)))
    return failure();
  callStack.pop_back();

  for (auto [value, resultType] : llvm::zip(yielded, type.getResults())) {
    if (value.isMem) {
      StridedLayout layout;
      layout.offset = value.mem.offset;
      layout.sizes.assign(value.mem.sizes.begin(), value.mem.sizes.end());
      layout.strides.assign(value.mem.strides.begin(), value.mem.strides.end());
      results.push_back(
          HostValue::memref(value.mem.storage->host, std::move(layout)));
      continue;
    }
    unsigned bits = getScalarBits(resultType);
    if (!bits || isa<VectorType>(resultType))
      return failLaunch("unsupported result type");
    uint64_t raw = readBits(value.reg.at(0), 0, bits);
    if (auto floatType = dyn_cast<FloatType>(resultType)) {
      llvm::APFloat result(floatType.getFloatSemantics(),
                           llvm::APInt(bits, raw));
      bool losesInfo;
      result.convert(llvm::APFloat::IEEEdouble(),
                     llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      results.push_back(HostValue::floating(result.convertToDouble()));
    } else {
      results.push_back(HostValue::integer(signExtend(raw, bits)));
    }
  }
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
  LogicalResult result = interpreter.run(args, /*verify=*/true);
  if (stats)
    *stats = counters;
  if (failed(result))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   interpreter.getError());
  return llvm::Error::success();
}

llvm::Expected<SmallVector<HostValue>>
mlir::mx::emu::runHostFunction(func::FuncOp function, ArrayRef<HostValue> args,
                               HostRunStats *stats) {
  if (!function)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "runHostFunction: null function");
  RunStats hostCounters;
  HostRunStats counters;
  Interpreter interpreter(function, hostCounters, counters);
  SmallVector<HostValue> results;
  LogicalResult result = interpreter.runHost(args, results);
  counters.hostOperations = hostCounters.operations;
  if (stats)
    *stats = counters;
  if (failed(result))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   interpreter.getError());
  return results;
}
