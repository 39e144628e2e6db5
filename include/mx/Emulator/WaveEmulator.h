//===- WaveEmulator.h - gfx950 wave emulator for GPU kernels ----*- C++ -*-===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//
//
// Executes a `gpu.func` at the level right before conversion to ROCDL
// (`gpu`, `amdgpu`, `vector`, `memref`, `scf`, `arith`, `affine`, `func`) on
// host memory, as a gfx950 would: every workgroup of the grid, and within a
// workgroup all threads in lock step. Each SSA value holds one value per
// thread (uniform values are stored once). `amdgpu.scaled_mfma` gathers the
// 64 lanes of each wave (threads 64w .. 64w+63 of the linearized thread id),
// builds their register tuples and runs the instruction semantics of
// mx/Emulator/ScaledMFMA.h (ISA lane layouts, exact numerics).
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
// location and, for per-thread failures, the thread and workgroup; nothing
// aborts):
//  - every memory access is in bounds of the memref's shape (all indices,
//    including the vector extent of vector.load/store along the innermost
//    dimension) and of the storage (a kernel argument's buffer may be smaller
//    than its shape says; the access that leaves it fails);
//  - private (`memref.alloca`, private attributions) and workgroup memory is
//    never read before it is written;
//  - loop bounds and branch conditions are uniform across the workgroup (no
//    divergence support);
//  - integer division by zero, out-of-range dynamic vector positions;
//  - the launch matches the kernel's signature and `known_block_size`.
//
// Not modelled: divergent control flow, atomics, subgroup operations other
// than MFMA, unstructured control flow, memory ordering between threads
// (lock step makes gpu.barrier a no-op), timing.
//
//===----------------------------------------------------------------------===//

#ifndef MX_EMULATOR_WAVEEMULATOR_H
#define MX_EMULATOR_WAVEEMULATOR_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mlir::mx::emu {

/// Host memory for a memref kernel argument: a flat byte array holding the
/// elements row-major in their memref storage size (see the file header).
struct HostBuffer {
  std::vector<uint8_t> bytes;

  HostBuffer() = default;
  explicit HostBuffer(size_t numBytes, uint8_t fill = 0)
      : bytes(numBytes, fill) {}

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

/// One argument of a kernel launch.
class KernelArg {
public:
  enum class Kind { MemRef, Integer, Float };

  /// A memref argument: a row-major (identity layout) view of \p buffer with
  /// the full shape \p shape (static dimensions must match the argument's
  /// type, dynamic ones are taken from here). The kernel reads and writes
  /// \p buffer in place; it must outlive the launch.
  static KernelArg memref(HostBuffer &buffer, ArrayRef<int64_t> shape) {
    KernelArg arg(Kind::MemRef);
    arg.buffer = &buffer;
    arg.shape.assign(shape.begin(), shape.end());
    return arg;
  }
  /// An integer or index argument (truncated to the argument's width).
  static KernelArg integer(int64_t value) {
    KernelArg arg(Kind::Integer);
    arg.intValue = value;
    return arg;
  }
  /// A floating-point argument (rounded to the argument's type).
  static KernelArg floating(double value) {
    KernelArg arg(Kind::Float);
    arg.floatValue = value;
    return arg;
  }

  Kind getKind() const { return kind; }
  HostBuffer *getBuffer() const { return buffer; }
  ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getInteger() const { return intValue; }
  double getFloat() const { return floatValue; }

private:
  explicit KernelArg(Kind kind) : kind(kind) {}

  Kind kind;
  HostBuffer *buffer = nullptr;
  SmallVector<int64_t> shape;
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

/// Runs \p kernel over the grid \p gridSize (workgroups per dimension) with
/// workgroups of \p blockSize threads (x fastest; at most 1024 threads) on
/// the arguments \p args (one per function argument, in order). Workgroups
/// run one after the other; the threads of a workgroup run in lock step, the
/// waves being threads 64w .. 64w+63 of the linearized thread id. Returns an
/// error describing the first failure (see the file header); memory written
/// before the failure stays written. \p stats, when given, receives the
/// counters of the launch.
llvm::Error runKernel(gpu::GPUFuncOp kernel, ArrayRef<KernelArg> args,
                      std::array<int64_t, 3> gridSize,
                      std::array<int64_t, 3> blockSize,
                      RunStats *stats = nullptr);

} // namespace mlir::mx::emu

#endif // MX_EMULATOR_WAVEEMULATOR_H
