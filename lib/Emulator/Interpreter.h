//===- Interpreter.h - the wave emulator's interpreter ----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to MXWaveEmulator. A lock-step interpreter: the ops of a workgroup
// run one at a time, each for the active threads of the workgroup. Run-time
// values are either registers (one byte string per thread, or one for all
// threads when uniform) or memref views (storage + offset/sizes/strides, with
// a per-thread stride for private memory and an optional per-thread offset).
// A divergent scf.if narrows the active mask for each region and merges the
// results; loop bounds must be uniform over the active threads; everything
// else fails with an error naming the op. The same interpreter runs host
// functions with one thread: host buffers are shared (results keep them
// alive), and gpu.launch_func starts a nested kernel-mode interpreter on
// views of them.
//
// Ops are dispatched through a HandlerTable (op TypeID -> handler) that the
// files of each concern fill:
//   Interpreter.cpp  dispatch, blocks, values shared by all files;
//   ArithOps.cpp     arith, math and affine;
//   MemoryOps.cpp    memref ops: host and local memory, access checks;
//   MemoryViews.cpp  memref views (subview, reshapes, casts, buffers);
//   VectorOps.cpp    vector ops;
//   ControlFlow.cpp  scf.for, scf.if (divergence, masks), func.call;
//   Launch.cpp       gpu ids, kernel launches, host programs, entry points;
//   AMDGPUOps.cpp    amdgpu.scaled_mfma, the LDS protocol (gather_to_lds,
//                    memory_counter_wait, barriers) and its race checks.
// Adding an op is adding one handler to the file of its concern.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_EMULATOR_INTERPRETER_H
#define MX_LIB_EMULATOR_INTERPRETER_H

#include "Values.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::mx::gfx950 {
class WaitLoadsOp;
class WaitLDSOp;
} // namespace mlir::mx::gfx950

namespace mlir::mx::emu::detail {

class Interpreter;

/// What the interpreter does for one op: executes it for the active threads.
using OpHandler = std::function<LogicalResult(Interpreter &, Operation *)>;

/// The handlers of the supported ops, by op (TypeID of the registered op).
class HandlerTable {
public:
  /// Registers \p fn for each op class of \p OpTys; \p fn is called with
  /// the interpreter and the op cast to its class. An op is registered once.
  template <typename... OpTys, typename Fn> void add(Fn fn) {
    (addOne<OpTys>(fn), ...);
  }
  /// The handler of \p op, or null if its op is not supported.
  const OpHandler *lookup(Operation *op) const {
    std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
    if (!name)
      return nullptr;
    auto it = handlers.find(name->getTypeID());
    return it == handlers.end() ? nullptr : &it->second;
  }

private:
  /// Registers \p fn for \p OpTy.
  template <typename OpTy, typename Fn> void addOne(Fn fn) {
    [[maybe_unused]] bool inserted =
        handlers
            .try_emplace(TypeID::get<OpTy>(),
                         [fn](Interpreter &self, Operation *op) {
                           return fn(self, cast<OpTy>(op));
                         })
            .second;
    assert(inserted && "an op is registered twice");
  }

  DenseMap<TypeID, OpHandler> handlers;
};

/// Verifies \p op; on failure returns the diagnostics, one per line.
std::optional<std::string> verifyOp(Operation *op);

/// Executes one kernel launch or one host function (see the file header).
class Interpreter {
public:
  /// Kernel mode: one launch of `kernel`, named `symbol` in progress reports.
  Interpreter(gpu::GPUFuncOp kernel, std::array<int64_t, 3> gridSize,
              std::array<int64_t, 3> blockSize, RunStats &stats,
              const RunOptions &options, std::string symbol)
      : kernel(kernel), gridSize(gridSize), blockSize(blockSize), stats(stats),
        options(options), symbol(std::move(symbol)) {}
  /// Host mode: one run of the host function `function` (one thread).
  Interpreter(func::FuncOp function, RunStats &stats, HostRunStats &hostStats,
              const RunOptions &options)
      : hostFunction(function), gridSize({1, 1, 1}), blockSize({1, 1, 1}),
        stats(stats), hostStats(&hostStats), options(options) {}

  /// Runs the whole launch. `verify`: verify the kernel first.
  LogicalResult run(ArrayRef<HostValue> args, bool verify);
  /// Runs the host function.
  LogicalResult runHost(ArrayRef<HostValue> args,
                        SmallVectorImpl<HostValue> &results);

  /// The error of the failed run (empty before a failure).
  const std::string &getError() const { return error; }

  /// Registers the handlers of the ops of one concern (see HandlerTable);
  /// each is defined in the file of that concern. Static members, so that
  /// the handlers may use the interpreter's private helpers.
  static void registerArithHandlers(HandlerTable &table);
  static void registerMemoryHandlers(HandlerTable &table);
  static void registerVectorHandlers(HandlerTable &table);
  static void registerControlFlowHandlers(HandlerTable &table);
  static void registerGPUHandlers(HandlerTable &table);
  static void registerAMDGPUHandlers(HandlerTable &table);

private:
  /// The parts of registerArithHandlers: integer arith (constants and
  /// arithmetic; bitwise logic, shifts, min/max, comparisons, select and
  /// casts), floating-point arith, math, affine.
  static void registerIntegerHandlers(HandlerTable &table);
  static void registerIntegerLogicHandlers(HandlerTable &table);
  static void registerFloatHandlers(HandlerTable &table);
  static void registerMathHandlers(HandlerTable &table);
  static void registerAffineHandlers(HandlerTable &table);
  /// The part of registerMemoryHandlers for views of memory
  /// (MemoryViews.cpp).
  static void registerViewHandlers(HandlerTable &table);

  /// Whether this runs a host function (else a kernel launch).
  bool isHost() const { return hostStats != nullptr; }

  //===--- Errors ---------------------------------------------------------===//

  /// Records the error \p message of the whole launch or host run.
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
  /// An error at `op`: `type` is not supported.
  LogicalResult unsupportedType(Operation *op, Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return fail(op, "unsupported type " + text);
  }

  //===--- Values ---------------------------------------------------------===//

  /// The run-time value of \p value (an operand of \p op); null and an
  /// error if it has none.
  const RtValue *lookup(Operation *op, Value value) {
    auto it = values.find(value);
    if (it == values.end()) {
      (void)fail(op, "operand has no run-time value");
      return nullptr;
    }
    return &it->second;
  }
  /// The register of the non-memref operand \p value of \p op.
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
  /// The registers of the non-memref operands \p values of \p op (e.g. an
  /// access's indices) into \p regs; fails as getReg does.
  LogicalResult getRegs(Operation *op, ValueRange values,
                        SmallVectorImpl<const Reg *> &regs) {
    for (Value value : values) {
      const Reg *reg = getReg(op, value);
      if (!reg)
        return failure();
      regs.push_back(reg);
    }
    return success();
  }
  /// The view of the memref operand \p value of \p op.
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
  /// Binds the register \p reg to \p value.
  void setReg(Value value, Reg reg) {
    RtValue &rt = values[value];
    rt.isMem = false;
    rt.reg = std::move(reg);
  }
  /// Binds the view \p mem to \p value (unchecked; see setView).
  void setMem(Value value, MemView mem) {
    RtValue &rt = values[value];
    rt.isMem = true;
    rt.mem = std::move(mem);
  }
  /// A uniform register holding \p value in the integer or index \p type.
  Reg uniformInt(Type type, int64_t value) {
    std::optional<TypeInfo> info = getTypeInfo(type);
    Reg reg(info ? info->bytes : 8, /*uniform=*/true, numThreads);
    writeBits(reg.at(0), 0, info ? info->elemBits : 64,
              uint64_t(value) & maskBits(info ? info->elemBits : 64));
    return reg;
  }
  /// The register of the scalar launch or host argument \p arg of type
  /// \p type (an integer, or a float rounded to \p type). Returns an empty
  /// string on success, else what is wrong.
  std::string scalarArgument(Type type, const HostValue &arg, Reg &reg);
  /// The uniform scalar register \p reg of type \p type as a HostValue (a
  /// float widened to double); nullopt if \p type is not a scalar.
  static std::optional<HostValue> getScalarValue(Type type, const Reg &reg);
  /// The (up to 64-bit) integer of thread \p thread in \p reg.
  static int64_t readIndex(const Reg &reg, int64_t thread) {
    int64_t value = 0;
    if (reg.bytes >= 8) // index and i64: a fixed-size, inlined copy.
      std::memcpy(&value, reg.at(thread), 8);
    else
      std::memcpy(&value, reg.at(thread), reg.bytes);
    return value;
  }
  /// The value of a uniform integer or index operand (all active threads
  /// agree); \p what names it in the error otherwise.
  FailureOr<int64_t> getUniformInt(Operation *op, Value value, StringRef what);

  //===--- Active threads -------------------------------------------------===//

  /// Whether thread `t` executes the current operation (divergent scf.if).
  bool isActive(int64_t t) const { return activeMask.empty() || activeMask[t]; }
  /// Whether some threads of the workgroup are inactive.
  bool isPartial() const { return !activeMask.empty(); }
  /// The first active thread (0 when none is).
  int64_t firstActive() const {
    for (int64_t t = 0; t < numThreads; ++t)
      if (isActive(t))
        return t;
    return 0;
  }
  /// The number of active threads.
  int64_t countActive() const {
    int64_t n = 0;
    for (int64_t t = 0; t < numThreads; ++t)
      n += isActive(t);
    return n;
  }

  //===--- Execution (Interpreter.cpp) ------------------------------------===//

  /// One op of a block, decoded once per interpreter: its handler, or for
  /// the terminator none, or the error it gives when it is reached.
  struct DecodedOp {
    Operation *op;
    const OpHandler *handler;
    const char *error;
  };
  /// Decodes \p op: its handler in the HandlerTable, after checking that it
  /// may run in the current mode (host or kernel).
  DecodedOp decodeOp(Operation *op) const;
  /// The decoded ops of \p block (decoded on first use).
  const std::vector<DecodedOp> &getDecodedBlock(Block &block);
  /// Runs the ops of \p block with \p blockArgs bound to its arguments and
  /// returns the operands of its terminator in \p yielded.
  LogicalResult runBlock(Block &block, ArrayRef<RtValue> blockArgs,
                         SmallVectorImpl<RtValue> &yielded);

  //===--- arith, math, affine (ArithOps.cpp) -----------------------------===//

  /// Computes the result of \p op element by element (per active thread) from
  /// the bits of its operands' elements (a scalar operand is repeated).
  LogicalResult elementwise(Operation *op,
                            function_ref<ElemResult(ArrayRef<uint64_t>)> fn);
  /// An integer binary op: \p fn gets both operands and the bit width.
  LogicalResult
  intBinary(Operation *op,
            function_ref<ElemResult(uint64_t, uint64_t, unsigned)> fn);
  /// A float binary op: \p fn updates the first operand (result type).
  LogicalResult
  floatBinary(Operation *op,
              function_ref<void(llvm::APFloat &, const llvm::APFloat &)> fn);
  /// A float op whose operands and result all have one element type.
  LogicalResult
  floatNary(Operation *op,
            function_ref<llvm::APFloat(ArrayRef<llvm::APFloat>)> fn);
  /// A unary float op evaluated in double by \p fn and rounded once.
  LogicalResult floatViaDouble(Operation *op, double (*fn)(double));
  /// arith.constant (scalars and dense vectors).
  LogicalResult execConstant(arith::ConstantOp op);
  /// arith.cmpi.
  LogicalResult execCmpI(arith::CmpIOp op);
  /// arith.cmpf.
  LogicalResult execCmpF(arith::CmpFOp op);
  /// Integer extensions, truncations and index casts.
  LogicalResult execCast(Operation *op, bool isSigned);
  /// Bit casts (arith, vector) and vector.shape_cast: the same bits.
  LogicalResult execBitcast(Operation *op);
  /// arith.extf / truncf / sitofp / uitofp.
  LogicalResult execFloatCast(Operation *op);
  /// arith.fptosi / fptoui (out-of-range values are errors).
  LogicalResult execFloatToInt(Operation *op, bool isSigned);
  /// affine.apply (\p kind 0), affine.min (-1) and affine.max (1).
  LogicalResult execAffine(Operation *op, AffineMap map, ValueRange operands,
                           int kind);
  /// affine.delinearize_index.
  LogicalResult execDelinearize(affine::AffineDelinearizeIndexOp op);
  /// affine.linearize_index.
  LogicalResult execLinearize(affine::AffineLinearizeIndexOp op);

  //===--- Memory and views (MemoryOps.cpp) -------------------------------===//

  /// The size of one dimension of an allocation: \p size, or for a dynamic
  /// one the next (\p next) of \p dynamicSizes, uniform across threads;
  /// negative sizes are errors.
  FailureOr<int64_t> getAllocSize(Operation *op, int64_t size,
                                  ValueRange dynamicSizes, unsigned &next);
  /// Allocates private (\p perThread) or workgroup memory of \p type for the
  /// current workgroup.
  FailureOr<MemView> createLocal(Operation *op, MemRefType type,
                                 ValueRange dynamicSizes, bool perThread);
  /// Loads (\p loaded) or stores (\p stored) \p count consecutive elements
  /// of \p memref at \p indices for every active thread, with all checks
  /// (bounds, storage, initialization, races, fat raw buffers).
  LogicalResult access(Operation *op, Value memref, ValueRange indices,
                       int64_t count, bool isWrite, Reg *loaded,
                       const Reg *stored);
  /// access's fast path for private memory that every active thread
  /// accesses at byte \p begin of its own storage; false (nothing written)
  /// when the general path must run: out of bounds, or a read of unwritten
  /// bytes, which it reports.
  bool accessPrivateAtUniformIndices(const MemView &view, int64_t begin,
                                     int64_t numBytes, bool isWrite,
                                     Reg *loaded, const Reg *stored);
  /// The race of an access by thread \p t (every active wave when
  /// \p uniform) to workgroup memory, or "" (checkLDSAccess).
  std::string checkLDSAccessOfThreads(Storage &storage, int64_t t, bool uniform,
                                      int64_t begin, int64_t numBytes,
                                      bool isWrite);
  /// access for thread \p t through a fat raw buffer view at element
  /// \p linear: elements outside the buffer read 0 / are dropped.
  LogicalResult accessBuffer(Operation *op, const MemView &view, int64_t t,
                             bool uniform, int64_t linear, int64_t count,
                             bool isWrite, Reg *loaded, const Reg *stored,
                             function_ref<std::string()> describe);
  /// access for thread \p t to private, workgroup or global memory (not a
  /// fat raw buffer) at element \p linear, \p numBytes bytes, where
  /// \p inBounds tells whether the indices lie within the view's shape:
  /// bounds, storage, races and initialization checked.
  LogicalResult accessStorage(Operation *op, const MemView &view, int64_t t,
                              bool uniform, bool inBounds, int64_t linear,
                              int64_t numBytes, bool isWrite, Reg *loaded,
                              const Reg *stored,
                              function_ref<std::string()> describe);
  /// memref.atomic_rmw (integer kinds on i32 and i64, global memory): one
  /// active thread after the other in thread order, each returning the value
  /// before its update, under a lock shared by all host threads.
  LogicalResult execAtomicRMW(memref::AtomicRMWOp op);
  /// Fails unless \p view, the memory of \p op, is global memory an atomic
  /// may update (not private, workgroup, a fat raw buffer, freed or
  /// constant).
  LogicalResult checkAtomicMemory(memref::AtomicRMWOp op, const MemView &view);
  /// vector.load / vector.store.
  LogicalResult execVectorLoadStore(Operation *op, Value memref,
                                    ValueRange indices, VectorType vectorType,
                                    bool isWrite, Value stored);
  /// memref.subview (offsets may be per thread).
  LogicalResult execSubView(memref::SubViewOp op);
  /// amdgpu.fat_raw_buffer_cast (a view with buffer semantics).
  LogicalResult execFatRawBufferCast(amdgpu::FatRawBufferCastOp op);
  /// memref.reinterpret_cast (offset relative to the allocation).
  LogicalResult execReinterpretCast(memref::ReinterpretCastOp op);
  /// memref.expand_shape.
  LogicalResult execExpandShape(memref::ExpandShapeOp op);
  /// memref.collapse_shape (the collapsed dimensions must be contiguous).
  LogicalResult execCollapseShape(memref::CollapseShapeOp op);
  /// memref.extract_strided_metadata.
  LogicalResult execExtractStridedMetadata(memref::ExtractStridedMetadataOp op);
  /// memref.get_global (the global's storage is created on first use).
  LogicalResult execGetGlobal(memref::GetGlobalOp op);
  /// Host memref.alloc / alloca.
  LogicalResult execAlloc(Operation *op, MemRefType type,
                          ValueRange dynamicSizes);
  /// memref.dealloc.
  LogicalResult execDealloc(memref::DeallocOp op);
  /// memref.copy (initialization travels with the bytes).
  LogicalResult execCopy(memref::CopyOp op);
  /// Binds `view` to `result` after checking it against the result type.
  LogicalResult setView(Operation *op, Value result, MemView view);
  /// Resolves mixed static/dynamic index values (uniform) of `op`.
  LogicalResult resolveMixed(Operation *op, ArrayRef<OpFoldResult> mixed,
                             SmallVectorImpl<int64_t> &out, StringRef what);
  /// The storage of a host buffer, created on first use.
  Storage *getHostStorage(std::shared_ptr<HostBuffer> buffer,
                          const Twine &name);

  //===--- Vectors (VectorOps.cpp) ----------------------------------------===//

  /// vector.extract (\p inserted null) and vector.insert.
  LogicalResult execExtractInsert(Operation *op, Value vector,
                                  ArrayRef<OpFoldResult> position,
                                  Value inserted);
  /// vector.broadcast.
  LogicalResult execBroadcast(vector::BroadcastOp op);
  /// vector.extract_strided_slice (1-D).
  LogicalResult execStridedSlice(vector::ExtractStridedSliceOp op);
  /// vector.shuffle.
  LogicalResult execShuffle(vector::ShuffleOp op);

  //===--- Control flow and masks (ControlFlow.cpp) -----------------------===//

  /// scf.for (uniform bounds).
  LogicalResult execFor(scf::ForOp op);
  /// scf.if (divergent conditions run both regions under masks).
  LogicalResult execIf(scf::IfOp op);
  /// func.call.
  LogicalResult execCall(func::CallOp op);

  //===--- Kernels, launches, host programs (Launch.cpp) ------------------===//

  /// Checks the launch and binds the kernel arguments (kernel mode).
  LogicalResult bindArguments(ArrayRef<HostValue> args);
  /// Runs every workgroup, on up to options.threads host threads, each with
  /// its own interpreter (a copy of this one's bound arguments).
  LogicalResult runWorkgroups(ArrayRef<HostValue> args);
  /// Runs the kernel for the workgroup `blockId`.
  LogicalResult runWorkgroup();
  /// A value of every thread computed by \p fn from the thread id (gpu id
  /// and size ops).
  LogicalResult execThreadValue(Operation *op,
                                function_ref<int64_t(int64_t)> fn,
                                bool uniform);
  /// gpu.subgroup_broadcast.
  LogicalResult execSubgroupBroadcast(gpu::SubgroupBroadcastOp op);
  /// gpu.launch_func (host mode): runs the kernel in a nested interpreter,
  /// or hands it to RunOptions::executeLaunch.
  LogicalResult execLaunch(gpu::LaunchFuncOp op);
  /// The parts of execLaunch: checks that \p op is a launch the emulator
  /// runs (synchronous, no clusters, no dynamic shared memory).
  LogicalResult checkLaunchSupported(gpu::LaunchFuncOp op);
  /// The grid and block sizes of \p op (uniform).
  LogicalResult getLaunchSizes(gpu::LaunchFuncOp op,
                               std::array<int64_t, 3> &grid,
                               std::array<int64_t, 3> &block);
  /// The kernel operands of \p op (of kernel \p symbol) as host values:
  /// host memory or scalars.
  FailureOr<SmallVector<HostValue>> getLaunchArguments(gpu::LaunchFuncOp op,
                                                       StringRef symbol);
  /// Runs \p launch through RunOptions::executeLaunch and counts it.
  LogicalResult executeLaunchElsewhere(const LaunchInfo &launch);
  /// Runs \p launch in a nested kernel-mode interpreter and counts it.
  LogicalResult emulateLaunch(const LaunchInfo &launch);

  //===--- amdgpu and workgroup memory (AMDGPUOps.cpp) --------------------===//

  /// Whether wave \p wave takes part in a whole-wave instruction: false when
  /// none of its lanes is active, true when all are; an error when only some
  /// are (a wave must not be split).
  FailureOr<bool> isWholeWaveActive(Operation *op, int64_t wave);
  /// amdgpu.scaled_mfma, per wave, with the semantics of ScaledMFMA.h.
  LogicalResult execScaledMFMA(amdgpu::ScaledMFMAOp op);
  /// Waves of the workgroup (the last one may be partial).
  int64_t getNumWaves() const {
    return (numThreads + kWaveSize - 1) / kWaveSize;
  }
  /// Whether some thread of wave `wave` is active.
  bool isWaveActive(int64_t wave) const {
    for (int64_t t = wave * kWaveSize,
                 e = std::min<int64_t>(numThreads, t + kWaveSize);
         t < e; ++t)
      if (isActive(t))
        return true;
    return false;
  }
  /// Checks an access of wave `wave` to bytes [begin, begin + numBytes) of
  /// the workgroup memory `storage` against the accesses of the other waves
  /// since the last barrier and against unfinished copies (see LDSByte),
  /// then records it (`async`: a write by amdgpu.gather_to_lds, pending
  /// until a wait completes it). Returns the race found, or "" (after a race
  /// the bytes before it are recorded: a race ends the run).
  std::string checkLDSAccess(Storage &storage, int64_t wave, int64_t begin,
                             int64_t numBytes, bool isWrite, bool async);
  /// Completes the copies of wave `wave` but its `keep` most recent ones.
  void completeCopies(int64_t wave, size_t keep);
  /// gpu.barrier, amdgpu.lds_barrier and rocdl.s.barrier: a new phase for
  /// the race checks.
  /// amdgpu.packed_scaled_trunc to fp4 (v_cvt_scalef32_pk_fp4_*).
  LogicalResult execPackedScaledTrunc(amdgpu::PackedScaledTruncOp op);
  LogicalResult execBarrier(Operation *op);
  /// amdgpu.gather_to_lds, per wave (pending until a wait).
  LogicalResult execGatherToLDS(amdgpu::GatherToLDSOp op);
  /// amdgpu.memory_counter_wait: completes copies.
  LogicalResult execMemoryCounterWait(amdgpu::MemoryCounterWaitOp op);
  /// mx_gfx950.wait_loads: amdgpu.memory_counter_wait load(count) with a
  /// count computed at run time.
  LogicalResult execWaitLoads(gfx950::WaitLoadsOp op);
  FailureOr<int64_t> getWaitCount(Operation *op, Value count, int64_t max,
                                  StringRef counter);
  /// mx_gfx950.wait_lds: amdgpu.memory_counter_wait ds(count) with a count
  /// computed at run time.
  LogicalResult execWaitLDS(gfx950::WaitLDSOp op);
  /// Completes the copies of every active wave but its `keep` most recent.
  void waitForLoads(size_t keep);

  //===--- State ----------------------------------------------------------===//

  gpu::GPUFuncOp kernel;
  func::FuncOp hostFunction;
  std::array<int64_t, 3> gridSize, blockSize;
  RunStats &stats;
  /// Set in host mode.
  HostRunStats *hostStats = nullptr;
  const RunOptions &options;
  /// Kernel mode: "@module::@kernel", for progress reports.
  std::string symbol;
  int64_t numThreads = 0;
  std::array<int64_t, 3> blockId = {0, 0, 0};
  bool anyWorkgroup = false;
  std::string error;

  DenseMap<Value, RtValue> values;
  /// The blocks run so far, decoded (stable addresses: blocks nest).
  DenseMap<Block *, std::unique_ptr<std::vector<DecodedOp>>> decodedBlocks;
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
  /// The registers of gpu.thread_id x, y, z (empty until first used).
  std::array<Reg, 3> threadIds;
  /// Workgroup barriers executed so far in the current workgroup.
  int32_t barrierPhase = 0;
  /// Bytes [begin, begin + size) of a workgroup memory (for a read in
  /// flight: of the op execution `serial`, stats.operations when it ran).
  struct LDSRange {
    Storage *storage;
    int64_t begin, size;
    int64_t serial = 0;
  };
  /// One amdgpu.gather_to_lds of one wave not completed yet: its bytes.
  using PendingCopy = LDSRange;
  /// Per wave of the current workgroup, its pending copies, oldest first.
  SmallVector<std::deque<PendingCopy>> pendingCopies;
  /// Per wave of the current workgroup: has it written workgroup memory
  /// since its last wait for its LDS accesses (amdgpu.memory_counter_wait
  /// ds(0), or a barrier with a fence)? A barrier without one
  /// (rocdl.s.barrier) must not be reached then.
  SmallVector<uint8_t> ldsWritesInFlight;
  /// Per wave of the current workgroup: the workgroup memory it read since
  /// that wait. A barrier without a fence may be reached with reads in
  /// flight (e.g. of a stage the next K step reads), but no other wave may
  /// write their bytes until the wave waits for them (LDSByte).
  SmallVector<SmallVector<LDSRange>> ldsReadsInFlight;
  /// Completes the LDS reads and writes of wave `wave`
  /// (amdgpu.memory_counter_wait ds(0), a barrier with a fence); with
  /// `keep` (ds(keep), mx_gfx950.wait_lds), all but its reads of the `keep`
  /// most recent ops that read LDS, and no write.
  void completeLDSAccesses(int64_t wave, int64_t keep = 0);
};

} // namespace mlir::mx::emu::detail

#endif // MX_LIB_EMULATOR_INTERPRETER_H
