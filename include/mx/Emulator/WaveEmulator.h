//===- WaveEmulator.h - gfx950 wave emulator for GPU kernels ----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Executes a `gpu.func` at the level right before conversion to ROCDL (`gpu`,
// `amdgpu`, `vector`, `memref`, `scf`, `arith`, `math`, `affine`, `func`) on
// host memory, as a gfx950 would: every workgroup of the grid, and within a
// workgroup all threads in lock step. Each SSA value holds one value per thread
// (uniform values are stored once). `amdgpu.scaled_mfma` gathers the 64 lanes
// of each wave (threads 64w .. 64w+63 of the linearized thread id), builds
// their register tuples and runs the instruction semantics of
// mx/Emulator/ScaledMFMA.h (ISA lane layouts; the arithmetic model of
// RunOptions::mfmaNumerics, exact by default).
//
// runHostFunction executes a whole lowered program: the host `func.func`
// (allocations, globals, views, copies, calls) runs once, and each
// `gpu.launch_func` runs its kernel as above on views of host memory.
// Both take and give HostValues: memref views of host buffers (shared or
// borrowed), integers and floats.
//
// The implementation (lib/Emulator) is one file per concern: arith/math,
// memory and views, vectors, control flow and masks, launches and host
// programs, amdgpu ops and the LDS protocol; each registers the handlers of
// its ops in the interpreter's dispatch table (lib/Emulator/Interpreter.h).
//
// Memrefs are strided views: (buffer, offset, sizes, strides) in elements,
// following the type's layout (identity or `strided<>`, static or dynamic).
// `memref.subview` / `expand_shape` / `collapse_shape` / `cast` /
// `reinterpret_cast` (offset relative to the allocation) / `memory_space_cast`
// / `assume_alignment` / `extract_strided_metadata` make new views of the
// same buffer, on host and in kernels; every new view is checked against the
// static sizes, strides and offset of its result type. In kernels a view's
// offset may differ per thread (a subview at a thread-dependent offset);
// sizes and strides must be uniform.
//
// Floating point (`arith`, `math`) is exact IEEE arithmetic in the result
// type with round-to-nearest-even (APFloat; no denormal flushing):
// math.absf, copysign, fma (fused, one rounding), floor, ceil, round (ties
// away), roundeven, trunc are exact for every float type. math.sqrt, exp2,
// log2, exp, log and tanh convert the operand exactly to double, evaluate
// there with the host libm and round once to the result type (types wider
// than double or without a NaN are unsupported): sqrt is correctly rounded
// for every type up to f64 (double is wide enough for f32 and narrower, and
// IEEE sqrt is exact for f64); exp2, log2, exp, log and tanh are correctly
// rounded only for f32 and narrower, where the double result is accurate
// enough (but for the rare double results within the libm's error of a
// rounding boundary), and carry the libm's error (not correctly rounded) for
// f64. Other math ops are unsupported. Real gfx950 code is less exact than
// this model: math.exp on f32 becomes llvm.exp.f32, which the AMDGPU backend
// expands around v_exp_f32 (an argument reduction in extended precision,
// then 2^x in hardware), not correctly rounded: a kernel's exp may differ
// from the emulator's in the last bit or so (there is no gfx950 here to
// measure it). mx-gfx950-pipeline expands math.tanh into exp and arith
// before the emulator sees it, so only exp carries that difference.
//
// `amdgpu.fat_raw_buffer_cast` (bounds checking on, the default) makes a view
// with buffer semantics, as the AMDGPU lowering builds the descriptor: the
// buffer starts at the memref's aligned pointer (the start of the view's
// storage) and holds `validBytes` bytes, or max_d(sizes[d] * strides[d])
// elements without it (the memref offset is not counted, as in the
// lowering). Accesses through it (and views of it) are not checked against
// the shape; each element is range-checked on its own (byte offset from the
// buffer start >= 0 and end <= num_records): an out-of-range element loads 0
// and its store is dropped, as the hardware does (the hardware checks whole
// dwords of multi-dword accesses; element granularity differs only for
// `validBytes` that is not a multiple of the element size). An in-range
// element must still lie in the storage (else an error: host memory outside
// the allocation is never touched). `boundsCheck(false)` gives a plain view
// (out-of-bounds accesses are errors); `resetOffset` is supported only for a
// zero offset; only global memory (not private or workgroup) can be cast.
// `amdgpu.gather_to_lds` reads its source through the same checks.
//
// Workgroup memory (workgroup attributions, LDS) is shared by the threads of
// a workgroup. `amdgpu.gather_to_lds` (global_load_lds_dword{,x3,x4}) is
// executed per wave: each lane reads its own transfer at its source indices
// and the wave writes them lane-major at the destination indices of its
// first active lane (the hardware takes the LDS base from M0), 16 bytes per
// lane for 12- and 16-byte transfers and 4 (zero-extended) for 1, 2 and 4
// bytes; the whole wave must be active or inactive. `gpu.subgroup_broadcast`
// gives each wave's lanes the value of its first active lane (or of a given
// lane), `vector.shuffle` concatenates/permutes, `amdgpu.sched_barrier` is a
// no-op.
//
// Lock-step execution makes every store visible at once, so a kernel that
// forgets a barrier or a wait still computes the right values here. The
// emulator therefore checks workgroup memory for what the hardware would get
// wrong: a copy by amdgpu.gather_to_lds stays pending (readable by nobody,
// its own wave included) until an `amdgpu.memory_counter_wait` of its wave
// with `load` or `store` (gfx9 counts both on vmcnt) at most the number of
// its newer copies completes it (or `mx_gfx950.wait_loads`, the same with a
// count computed at run time); a workgroup barrier (`gpu.barrier`,
// `amdgpu.lds_barrier`, `rocdl.s.barrier`, none of which completes copies)
// starts a new phase; a wave may read bytes another wave wrote only in a
// later phase than the write completed, and may write bytes only if no
// other wave read or wrote them in the current phase (nor a copy is still
// writing them). `rocdl.s.barrier` has no fence: a wave must not reach it
// with LDS reads or writes it has not waited for
// (`amdgpu.memory_counter_wait ds(0)`).
// Counting only copies on vmcnt keeps more of them pending than the hardware
// would (other vector memory operations complete at once here): the check
// errs on the safe side.
//
// `memref.atomic_rmw` (the integer kinds addi, andi, ori, xori, maxs, maxu,
// mins, minu and assign on i32 and i64; any other kind or type is an error)
// updates global memory (kernel arguments, host buffers, globals; not
// private or workgroup memory, nor through a fat raw buffer) for each active
// thread in thread order, each getting the value before its update. Every
// atomic of the process runs under one lock, so that workgroups on other host
// threads neither interleave with it nor miss the plain stores made before
// their atomics: the atomic is acquire-release at system scope, as
// MemRefToLLVM lowers it (`llvm.atomicrmw ... acq_rel`). It reads and writes
// its bytes (a never-written one is an error).
//
// Divergence: an `scf.if` whose condition differs between the active threads
// runs both regions, each with the threads that take it active; inactive
// threads do not load, store or compute (no errors from them), and the
// results are merged per thread (memref results only when they view the
// same memory with the same shape). Operations that need the whole
// workgroup or wave are errors under a partial mask: `gpu.barrier` and
// `amdgpu.lds_barrier`, and `amdgpu.scaled_mfma` and `amdgpu.gather_to_lds`
// on a partially active wave (wholly inactive waves skip them).
//
// Value representation (what bitcasts see): a scalar of w bits takes
// max(1, ceil(w / 8)) bytes; `index` is a 64-bit integer; a vector of n
// elements of w bits is packed densely little-endian like an LLVM vector
// (element i in bits [w*i + w-1 : w*i]; vector<32xi4> is 16 bytes, element
// 2i in the low nibble of byte i). Memref elements are stored in
// ceil(w / 8) bytes (i8: 1, f32: 4, index: 8) or, for vector elements, in
// the vector's dense size; sub-byte element types cannot be stored in
// memrefs (kernels address packed data through byte views).
//
// What is checked (every violation is an llvm::Error naming the op, its
// location and, for per-thread failures, the thread and workgroup; errors in
// a kernel launched by a host function are prefixed by the launch op; nothing
// aborts):
//  - every memory access (but through a fat raw buffer, see above) is in bounds
//    of the view's shape (all indices, including the vector extent of
//    vector.load/store along the innermost dimension) and of the underlying
//    buffer (a buffer may be smaller than a view says, or a reinterpret_cast
//    may leave it; the access fails);
//  - private (`memref.alloca`, private attributions), workgroup memory, host
//    `memref.alloc`/`alloca` and uninitialized globals are never read before
//    they are written (tracked per byte; `memref.copy` carries the state);
//  - workgroup memory is free of races between waves and of reads of
//    unfinished copies (see above); a copy's destination lies in its view;
//  - writes to constant globals, use after `memref.dealloc`, double or
//    partial deallocation;
//  - loop bounds, view sizes/strides, launch sizes are uniform across the
//    active threads (per-thread `scf.for` bounds are not supported);
//  - integer division by zero, out-of-range dynamic vector positions and
//    float-to-int conversions;
//  - the launch matches the kernel's signature (memref views against the
//    argument types) and `known_block_size`; host ops do not appear in
//    kernels nor device ops on the host.
//
// Not modelled: divergent loops, atomics other than the integer
// memref.atomic_rmw above, subgroup operations other than MFMA, direct-to-LDS
// copies and broadcasts, unstructured control flow, memory ordering between
// threads beyond the workgroup-memory race checks and the atomics' lock
// (lock step makes barriers no-ops), asynchronous launches and `gpu.wait`,
// dynamic shared memory, mutable globals shared between launches (a
// kernel-side global lives for one launch), timing.
//
//===----------------------------------------------------------------------===//

#ifndef MX_EMULATOR_WAVEEMULATOR_H
#define MX_EMULATOR_WAVEEMULATOR_H

#include "mx/Emulator/ScaledMFMA.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::mx::emu {

/// Host memory: a flat byte array holding memref elements in their storage
/// size (see the file header). Views (StridedLayout) address it in elements.
struct HostBuffer {
  std::vector<uint8_t> bytes;
  /// Per byte: written yet? Empty when not tracked (every byte counts as
  /// written). `memref.alloc` and uninitialized globals track it; a read of a
  /// never-written byte is an error.
  std::vector<uint8_t> initialized;
  /// Writes fail (constant `memref.global`s).
  bool readOnly = false;

  HostBuffer() = default;
  explicit HostBuffer(size_t numBytes, uint8_t fill = 0)
      : bytes(numBytes, fill) {}

  /// A buffer of \p numBytes bytes none of which counts as written yet.
  static HostBuffer uninitialized(size_t numBytes) {
    HostBuffer buffer(numBytes);
    buffer.initialized.assign(numBytes, 0);
    return buffer;
  }
  /// A buffer holding the bytes of \p values (e.g. floats).
  template <typename T> static HostBuffer from(ArrayRef<T> values) {
    HostBuffer buffer(values.size() * sizeof(T));
    if (!values.empty())
      std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
    return buffer;
  }
  /// The contents reinterpreted as elements of type \p T (size must divide).
  template <typename T> std::vector<T> as() const {
    std::vector<T> values(bytes.size() / sizeof(T));
    if (!values.empty())
      std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
  }
  size_t size() const { return bytes.size(); }
};

/// A strided view of a buffer, in elements: element (i_0, .., i_{r-1}) is
/// element `offset + sum_d i_d * strides[d]` of the buffer, for
/// 0 <= i_d < sizes[d]. This is the run-time form of a memref descriptor.
struct StridedLayout {
  int64_t offset = 0;
  SmallVector<int64_t, 4> sizes;
  SmallVector<int64_t, 4> strides;

  /// The row-major (identity) layout of shape \p sizes.
  static StridedLayout rowMajor(ArrayRef<int64_t> sizes, int64_t offset = 0) {
    StridedLayout layout;
    layout.offset = offset;
    layout.sizes.assign(sizes.begin(), sizes.end());
    layout.strides.assign(sizes.size(), 1);
    for (int64_t d = int64_t(sizes.size()) - 2; d >= 0; --d)
      layout.strides[d] = layout.strides[d + 1] * sizes[d + 1];
    return layout;
  }
  int64_t getNumElements() const {
    int64_t n = 1;
    for (int64_t size : sizes)
      n *= size;
    return n;
  }
  /// The buffer element of the \p linear-th element in row-major order of
  /// the view's shape.
  int64_t getPosition(int64_t linear) const {
    int64_t position = offset;
    for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
      position += (linear % sizes[d]) * strides[d];
      linear /= sizes[d];
    }
    return position;
  }
};

/// A value passed to or returned by the emulator: an argument of runKernel,
/// an argument or result of runHostFunction. A memref is a strided view of a
/// host buffer, which it either shares (memref with a std::shared_ptr) or
/// only points to (memref or view with a HostBuffer &: the buffer must
/// outlive the value and every run using it); integers and floats are
/// converted to the type of the argument they are passed for.
class HostValue {
public:
  enum class Kind { MemRef, Integer, Float };

  /// A memref viewing \p buffer, which it keeps alive, through \p layout (in
  /// elements of the memref's element type). The static sizes, strides and
  /// offset of the argument's type must match \p layout; its dynamic ones are
  /// taken from it. The emulator reads and writes \p buffer in place. \p
  /// name, when given, names the buffer in error messages.
  static HostValue memref(std::shared_ptr<HostBuffer> buffer,
                          StridedLayout layout, StringRef name = {}) {
    HostValue value(Kind::MemRef);
    value.buffer = std::move(buffer);
    value.layout = std::move(layout);
    value.name = name.str();
    return value;
  }
  /// A row-major (identity layout) memref of shape \p shape starting at
  /// element 0 of \p buffer, which it keeps alive.
  static HostValue memref(std::shared_ptr<HostBuffer> buffer,
                          ArrayRef<int64_t> shape) {
    return memref(std::move(buffer), StridedLayout::rowMajor(shape));
  }
  /// A row-major memref of shape \p shape viewing \p buffer, which it does
  /// not own.
  static HostValue memref(HostBuffer &buffer, ArrayRef<int64_t> shape) {
    return view(buffer, StridedLayout::rowMajor(shape));
  }
  /// A memref viewing \p buffer, which it does not own, through \p layout
  /// (see the shared memref above).
  static HostValue view(HostBuffer &buffer, StridedLayout layout,
                        StringRef name = {}) {
    // An aliasing pointer without a control block: shares nothing.
    return memref(std::shared_ptr<HostBuffer>(std::shared_ptr<void>(), &buffer),
                  std::move(layout), name);
  }
  /// An integer or index (truncated to the argument's width).
  static HostValue integer(int64_t value) {
    HostValue result(Kind::Integer);
    result.intValue = value;
    return result;
  }
  /// A floating-point value (rounded to the argument's type).
  static HostValue floating(double value) {
    HostValue result(Kind::Float);
    result.floatValue = value;
    return result;
  }

  /// What the value is.
  Kind getKind() const { return kind; }
  /// The viewed buffer of a memref (null otherwise); owning or not.
  const std::shared_ptr<HostBuffer> &getBuffer() const { return buffer; }
  /// The sizes of a memref's view.
  ArrayRef<int64_t> getShape() const { return layout.sizes; }
  /// A memref's view of its buffer.
  const StridedLayout &getLayout() const { return layout; }
  /// The name of a memref's buffer in error messages (may be empty).
  StringRef getName() const { return name; }
  /// An integer's value.
  int64_t getInteger() const { return intValue; }
  /// A float's value.
  double getFloat() const { return floatValue; }

  /// The elements of a memref value in row-major order of its shape, each
  /// read as a `T` (whose size must be the memref's element size). Empty if
  /// this is not a memref or the view leaves its buffer.
  template <typename T> std::vector<T> read() const {
    if (kind != Kind::MemRef || !buffer)
      return {};
    int64_t n = layout.getNumElements();
    std::vector<T> values(n);
    for (int64_t i = 0; i < n; ++i) {
      int64_t position = layout.getPosition(i);
      if (position < 0 ||
          uint64_t(position + 1) * sizeof(T) > buffer->bytes.size())
        return {};
      std::memcpy(&values[i], buffer->bytes.data() + position * sizeof(T),
                  sizeof(T));
    }
    return values;
  }

private:
  explicit HostValue(Kind kind) : kind(kind) {}

  Kind kind;
  std::shared_ptr<HostBuffer> buffer;
  StridedLayout layout;
  std::string name;
  int64_t intValue = 0;
  double floatValue = 0;
};

/// Counters of one launch.
struct RunStats {
  /// Workgroups executed.
  int64_t workgroups = 0;
  /// Operations executed (each once per workgroup, for all its threads).
  int64_t operations = 0;
  /// Wave-level scaled MFMA instructions executed (one per wave per op).
  int64_t mfmas = 0;
};

/// One `gpu.launch_func` of a host function, as runHostFunction reaches it:
/// the kernel, the grid and block sizes and the arguments it passes (memrefs
/// as views of host buffers, scalars as values), evaluated by the host
/// interpreter. This is the one description of a host program's launches:
/// the emulator runs it, other executors (a GPU runtime, a launch plan
/// printer) receive the same through RunOptions.
struct LaunchInfo {
  gpu::LaunchFuncOp op;
  gpu::GPUFuncOp kernel;
  /// "@module::@kernel".
  std::string symbol;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// One per kernel operand.
  SmallVector<HostValue> args;
  /// The launch's number in the run (0 for the first).
  int64_t index = 0;
};

/// How the emulator runs launches.
/// The default launch budget (RunOptions::maxWorkgroups): 2^24 workgroups,
/// far more than any mx program's launch needs (a 65536 x 65536 GEMM has
/// 16384 output tiles of 256 x 256) and minutes of emulation at the least.
inline constexpr int64_t kDefaultMaxWorkgroups = int64_t(1) << 24;

/// Checks a launch of \p symbol with grid \p grid and workgroups of
/// \p block against the launch budget \p maxWorkgroups (the most workgroups,
/// the product of the grid): returns the error naming the kernel, grid,
/// block and workgroup count when it exceeds the budget. Every executor of
/// launches asks it (runHostFunction, runKernel, mx-isa --run).
std::optional<std::string> checkLaunchBudget(StringRef symbol,
                                             std::array<int64_t, 3> grid,
                                             std::array<int64_t, 3> block,
                                             int64_t maxWorkgroups);

struct RunOptions {
  /// The launch budget: a launch of more workgroups (the product of its
  /// grid) is refused with an error naming the kernel and the grid, before
  /// it runs on the emulator or elsewhere (executeLaunch).
  int64_t maxWorkgroups = kDefaultMaxWorkgroups;
  /// Host threads that run the workgroups of a launch: 1 runs them one after
  /// the other in order (x fastest, then y, then z); N > 1 runs up to N at a
  /// time, each workgroup still in lock step on one thread with its own
  /// workgroup memory and LDS/barrier checks. Workgroups of a correct kernel
  /// write disjoint global memory or combine through memref.atomic_rmw (in
  /// an order that varies, but that a correct kernel's results do not
  /// depend on), so the results are the same for every N;
  /// a failure reports the lowest-numbered failing workgroup, as with 1
  /// (later workgroups may have run and written memory too). Kernels that
  /// use a mutable memref.global run on one thread. 0 means one per
  /// hardware thread.
  unsigned threads = 1;
  /// Called after each workgroup with the launch's kernel symbol
  /// ("@module::@kernel", or "@kernel" for runKernel), the workgroups done
  /// and their total; never concurrently.
  std::function<void(StringRef kernel, int64_t done, int64_t total)> progress;
  /// The arithmetic of amdgpu.scaled_mfma: how each output element is
  /// computed from its logical inputs (see ScaledMFMA.h; exactScaledDot, the
  /// default, or e.g. getScaledDotFn(MFMAArithmetic::CDNA3Grouped)).
  ScaledDotFn mfmaNumerics = exactScaledDot;
  /// runHostFunction: called before each launch with what it launches; an
  /// error aborts the run with that message.
  std::function<llvm::Error(const LaunchInfo &)> onLaunch;
  /// runHostFunction: when set, executes each launch instead of the
  /// emulator (e.g. on a GPU, or not at all for a launch plan). When it
  /// returns, the host buffers of the memref arguments must hold what the
  /// kernel left in them; every byte of a writable argument buffer then
  /// counts as written. The launch counts in HostRunStats (launches,
  /// workgroups), its operations and MFMAs do not.
  std::function<llvm::Error(const LaunchInfo &)> executeLaunch;
};

/// Runs \p kernel over the grid \p gridSize (workgroups per dimension) with
/// workgroups of \p blockSize threads (x fastest; at most 1024 threads) on
/// the arguments \p args (one per function argument, in order). Workgroups
/// run as \p options says (by default one after the other); the threads of
/// a workgroup run in lock step, the waves being threads 64w .. 64w+63 of
/// the linearized thread id. Returns an error describing the first failure
/// (see the file header); memory written before the failure stays written.
/// \p stats, when given, receives the counters of the launch.
llvm::Error runKernel(gpu::GPUFuncOp kernel, ArrayRef<HostValue> args,
                      std::array<int64_t, 3> gridSize,
                      std::array<int64_t, 3> blockSize,
                      RunStats *stats = nullptr,
                      const RunOptions &options = {});

/// Counters of one host function run.
struct HostRunStats {
  /// `gpu.launch_func` executed.
  int64_t launches = 0;
  /// Workgroups, kernel operations and wave-level MFMAs over all launches.
  int64_t workgroups = 0;
  int64_t kernelOperations = 0;
  int64_t mfmas = 0;
  /// Host operations executed.
  int64_t hostOperations = 0;
  /// Launches per kernel, keyed by its symbol ("@module::@kernel").
  std::map<std::string, int64_t> launchesPerKernel;
  /// Wall-clock seconds of the launches that executed MFMAs (for
  /// throughput figures: mfmas / mfmaLaunchSeconds).
  double mfmaLaunchSeconds = 0;
};

/// Interprets the host function \p function (a `func.func` of a module with
/// `gpu.container_module`) on \p args (one per function argument): host
/// `arith`/`affine`/`scf`/`memref`/`func` operations run once, each
/// `gpu.launch_func` runs its kernel with runKernel on views of host memory.
/// Returns the values of `func.return` (memrefs are views of buffers that
/// the results keep alive: arguments' buffers, allocations or globals), or
/// an error describing the first failure (see the file header); memory
/// written before the failure stays written. \p stats, when given, receives
/// the counters of the run (also on failure).
llvm::Expected<SmallVector<HostValue>>
runHostFunction(func::FuncOp function, ArrayRef<HostValue> args,
                HostRunStats *stats = nullptr, const RunOptions &options = {});

} // namespace mlir::mx::emu

#endif // MX_EMULATOR_WAVEEMULATOR_H
