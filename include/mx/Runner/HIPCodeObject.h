//===- HIPCodeObject.h - AMDGPU code objects for the HIP backend -*- C++
//-*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What `mx-run --backend=hip` needs to know about a gfx950 code object
// (HSACO) to launch its kernels: the kernel descriptors' metadata, read from
// the AMDGPU metadata note of the ELF (NT_AMDGPU_METADATA, a MessagePack map
// with `amdhsa.kernels`, code object v3 and later), and the layout of the
// explicit kernel arguments that the host packs into the kernarg segment.
//
// The argument layout is derived from the kernel at the level the emulator
// runs (`gpu.func` with memref and scalar arguments) by the calling
// convention of MLIR's GPU-to-ROCDL lowering (each memref becomes its
// descriptor: allocated pointer, aligned pointer, offset, sizes, strides),
// and placed as the AMDGPU ABI places kernel arguments (each at the next
// offset aligned to its natural alignment). checkKernargLayout compares it
// with the code object's own `.args` (offset and size of each explicit
// argument), `.kernarg_segment_size` and `.kernarg_segment_align`, so a
// launch never passes a layout the kernel was not compiled for.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_HIPCODEOBJECT_H
#define MX_RUNNER_HIPCODEOBJECT_H

#include "mx/Emulator/WaveEmulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::mx::hip {

/// One kernel argument of a kernel's metadata (`.args` entry).
struct KernelArgMetadata {
  /// `.offset` and `.size`, in bytes, in the kernarg segment.
  uint64_t offset = 0;
  uint64_t size = 0;
  /// `.value_kind`: `global_buffer`, `by_value`, `hidden_*`, ...
  std::string valueKind;

  /// Hidden arguments are the runtime's (grid sizes, implicit buffers); the
  /// host passes only the explicit ones.
  bool isHidden() const { return StringRef(valueKind).starts_with("hidden_"); }
};

/// The metadata of one kernel of a code object (`amdhsa.kernels` entry).
struct KernelMetadata {
  /// `.name` (the function name) and `.symbol` (the kernel descriptor,
  /// `<name>.kd`).
  std::string name;
  std::string symbol;
  uint64_t kernargSegmentSize = 0;
  uint64_t kernargSegmentAlign = 0;
  /// Static LDS (`.group_segment_fixed_size`) and scratch per work-item
  /// (`.private_segment_fixed_size`), in bytes.
  uint64_t groupSegmentFixedSize = 0;
  uint64_t privateSegmentFixedSize = 0;
  uint64_t sgprCount = 0;
  uint64_t vgprCount = 0;
  uint64_t agprCount = 0;
  uint64_t wavefrontSize = 0;
  uint64_t maxFlatWorkgroupSize = 0;
  SmallVector<KernelArgMetadata> args;

  /// The bytes of the explicit arguments: the end of the last non-hidden
  /// argument.
  uint64_t getExplicitKernargBytes() const;
};

/// Reads the kernels' metadata from the AMDGPU metadata note of the code
/// object \p elf (a 64-bit little-endian ELF). Fails with a message on
/// anything else: not an ELF, no note, malformed MessagePack or a missing
/// field.
llvm::Expected<SmallVector<KernelMetadata>>
readCodeObjectMetadata(StringRef elf);

/// One explicit kernel argument as the host packs it.
struct KernargSlot {
  enum class Kind {
    /// A device pointer to (the start of) the buffer of memref operand
    /// `operand`: its allocated and its aligned pointer.
    AllocatedPointer,
    AlignedPointer,
    /// Element offset, size `dim` or stride `dim` of memref operand
    /// `operand`.
    Offset,
    Size,
    Stride,
    /// Scalar operand `operand`, `bytes` bytes (integers and floats,
    /// little-endian).
    Scalar,
  };
  Kind kind = Kind::Scalar;
  /// The launch operand (kernel argument of the gpu.func) it comes from.
  unsigned operand = 0;
  /// For sizes and strides: the dimension.
  unsigned dim = 0;
  /// Its size in bytes; its alignment is the same (the natural alignment
  /// of 1, 2, 4 and 8-byte arguments).
  unsigned bytes = 8;
  /// Where it goes in the kernarg segment (layoutKernargs).
  uint64_t offset = 0;

  /// e.g. "arg #2 stride[1]".
  std::string describe() const;
};

/// The explicit kernel arguments of \p kernel in the order and sizes of
/// the ROCDL lowering's calling convention, placed at their offsets; fails
/// on an argument type it does not know.
llvm::Expected<SmallVector<KernargSlot>> getKernargSlots(gpu::GPUFuncOp kernel);

/// Places \p slots in order, each at the next offset aligned to its size
/// (KernargSlot::offset), and returns the bytes they take.
uint64_t layoutKernargs(MutableArrayRef<KernargSlot> slots);

/// Checks the layout of \p slots against the code object's metadata of the
/// kernel: as many explicit arguments, each at the same offset with the
/// same size; the explicit bytes within `.kernarg_segment_size`; a segment
/// alignment that is a power of two at least as large as every argument's.
/// The error names the first difference.
llvm::Error checkKernargLayout(ArrayRef<KernargSlot> slots,
                               const KernelMetadata &metadata);

/// The value of the non-pointer slot \p slot for a launch of \p kernel with
/// \p args (the emulator's launch arguments): a memref's offset, size or
/// stride, or a scalar (integers as they are, floats converted to the
/// argument's type), as the little-endian bytes of the slot's size. Fails
/// when the argument does not match the slot.
llvm::Expected<uint64_t> getKernargValue(const KernargSlot &slot,
                                         gpu::GPUFuncOp kernel,
                                         ArrayRef<emu::HostValue> args);

/// Packs the explicit kernel arguments of a launch of \p kernel with \p args
/// at the offsets of \p slots (zero padding between them); the device address
/// of each memref's buffer comes from \p pointerOf.
llvm::Expected<std::vector<uint8_t>>
packKernargs(ArrayRef<KernargSlot> slots, gpu::GPUFuncOp kernel,
             ArrayRef<emu::HostValue> args,
             function_ref<uint64_t(const emu::HostBuffer *)> pointerOf);

} // namespace mlir::mx::hip

#endif // MX_RUNNER_HIPCODEOBJECT_H
