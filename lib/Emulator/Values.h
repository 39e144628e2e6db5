//===- Values.h - run-time values of the wave emulator ----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to MXWaveEmulator. How the interpreter holds run-time values:
// registers (Reg: bytes per thread, once when uniform), memory objects
// (Storage: host buffers and emulator-allocated private / workgroup memory,
// with per-byte initialization and LDS race state) and strided views of them
// (MemView); plus the type and bit helpers every op file uses.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_EMULATOR_VALUES_H
#define MX_LIB_EMULATOR_VALUES_H

#include "mx/Emulator/ScaledMFMA.h"
#include "mx/Emulator/WaveEmulator.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mx::emu::detail {

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
  /// Waves (bit w) whose reads of the byte are still in flight: not waited
  /// for since (amdgpu.memory_counter_wait ds(0), or a barrier with a
  /// fence). Another wave may not write it, in any phase.
  uint16_t inFlightReaders = 0;
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
  /// Elements the view's base lies past the storage's start
  /// (amdgpu.fat_raw_buffer_cast with resetOffset moves the base to the
  /// view's offset, which becomes 0): addresses are baseOffset + offset + ...
  int64_t baseOffset = 0;
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

  /// The offset of the view for thread \p thread.
  int64_t getOffset(int64_t thread) const {
    return baseOffset + offset + (threadOffset ? (*threadOffset)[thread] : 0);
  }
  /// The view as a StridedLayout (the uniform offset).
  StridedLayout getLayout() const {
    StridedLayout layout;
    layout.offset = baseOffset + offset;
    layout.sizes.assign(sizes.begin(), sizes.end());
    layout.strides.assign(strides.begin(), strides.end());
    return layout;
  }
};

/// A non-memref value: `bytes` bytes per thread, stored once when uniform.
struct Reg {
  uint32_t bytes = 0;
  bool uniform = true;
  std::vector<uint8_t> data;

  Reg() = default;
  /// A zeroed register of \p bytes bytes, once or per thread of
  /// \p numThreads.
  Reg(uint32_t bytes, bool uniform, int64_t numThreads)
      : bytes(bytes), uniform(uniform),
        data(size_t(bytes) * (uniform ? 1 : numThreads), 0) {}
  /// The bytes of thread \p thread (the only ones when uniform).
  const uint8_t *at(int64_t thread) const {
    return data.data() + (uniform ? 0 : thread * int64_t(bytes));
  }
  /// The bytes of thread \p thread (the only ones when uniform).
  uint8_t *at(int64_t thread) {
    return data.data() + (uniform ? 0 : thread * int64_t(bytes));
  }
};

/// The run-time value of one SSA value.
struct RtValue {
  /// A memref (`mem`) or not (`reg`).
  bool isMem = false;
  Reg reg;
  MemView mem;
};

//===----------------------------------------------------------------------===//
// Types and bits
//===----------------------------------------------------------------------===//

/// Bit width of a scalar integer, index (64) or float type; 0 otherwise.
unsigned getScalarBits(Type type);

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
std::optional<TypeInfo> getTypeInfo(Type type);

/// Bytes of one memref element of type `type`; 0 when it cannot be stored
/// (sub-byte and odd-width scalars).
int64_t getMemElemBytes(Type type);

/// The mask of the low `width` bits (all bits for 64 and more).
inline uint64_t maskBits(unsigned width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

/// Sign-extends the low `width` bits of `value`.
inline int64_t signExtend(uint64_t value, unsigned width) {
  if (width >= 64)
    return int64_t(value);
  return int64_t(value << (64 - width)) >> (64 - width);
}

/// readBits and writeBits for fields that are not whole aligned bytes.
uint64_t readUnalignedBits(const uint8_t *data, uint64_t bit, unsigned width);
void writeUnalignedBits(uint8_t *data, uint64_t bit, unsigned width,
                        uint64_t value);

/// Reads `width` bits at bit offset `bit` of `data` (little-endian stream).
/// Inline: whole aligned bytes (every integer and float of 8 bits or more)
/// are read on every element of every elementwise op.
inline uint64_t readBits(const uint8_t *data, uint64_t bit, unsigned width) {
  if (width % 8 != 0 || bit % 8 != 0)
    return readUnalignedBits(data, bit, width);
  uint64_t value = 0;
  std::memcpy(&value, data + bit / 8, width / 8);
  return value;
}

/// Writes the low `width` bits of `value` at bit offset `bit` of `data`.
inline void writeBits(uint8_t *data, uint64_t bit, unsigned width,
                      uint64_t value) {
  if (width % 8 != 0 || bit % 8 != 0)
    return writeUnalignedBits(data, bit, width, value);
  std::memcpy(data + bit / 8, &value, width / 8);
}

/// Copies `numBits` bits from `src` at `srcBit` to `dst` at `dstBit`.
void copyBits(uint8_t *dst, uint64_t dstBit, const uint8_t *src,
              uint64_t srcBit, uint64_t numBits);

/// "[1, 2, 3]".
std::string formatList(ArrayRef<int64_t> values);

/// The gfx950 source format of a scaled MFMA operand element type.
std::optional<SourceFormat> getSourceFormat(Type type);

/// Checks a run-time view against the static parts of `type`: rank, sizes,
/// strides (of dimensions of size > 1) and offset; an identity layout also
/// needs the row-major strides of the run-time sizes and offset 0. A per-thread
/// offset (nullopt) is not checked. Returns a description of the first
/// mismatch, or "" if the view fits.
std::string checkViewAgainstType(MemRefType type, std::optional<int64_t> offset,
                                 ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> strides);

/// The result of one element of an elementwise op: bits or an error.
struct ElemResult {
  uint64_t bits = 0;
  const char *error = nullptr;
};

} // namespace mlir::mx::emu::detail

#endif // MX_LIB_EMULATOR_VALUES_H
