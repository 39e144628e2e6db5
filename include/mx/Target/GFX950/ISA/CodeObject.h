//===- CodeObject.h - the kernels of a gfx950 code object -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Loads an AMDHSA code object (an ELF of LLVM's AMDGPU backend, or anybody's
// hand-written one) for the ISA executor: each kernel's descriptor
// (`<name>.kd`, read through llvm::object) and its machine code, decoded by
// LLVM's AMDGPU MCDisassembler for gfx950 and printed by its MCInstPrinter.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_ISA_CODEOBJECT_H
#define MX_TARGET_GFX950_ISA_CODEOBJECT_H

#include "mx/Target/GFX950/ISA/Instruction.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::mx::gfx950::isa {

/// The fields of an AMDHSA kernel descriptor (64 bytes, code object v5/v6)
/// that the executor uses.
struct KernelDescriptor {
  uint32_t groupSegmentFixedSize = 0;   ///< Static LDS bytes.
  uint32_t privateSegmentFixedSize = 0; ///< Scratch bytes per work-item.
  uint32_t kernargSize = 0;
  int64_t kernelCodeEntryByteOffset = 0;
  uint32_t computePgmRsrc1 = 0, computePgmRsrc2 = 0, computePgmRsrc3 = 0;
  uint16_t kernelCodeProperties = 0;
  /// KERNARG_PRELOAD_SPEC: dwords of the kernarg segment preloaded into
  /// user SGPRs after the ones kernelCodeProperties enables, and from which
  /// dword offset.
  uint16_t kernargPreloadLength = 0, kernargPreloadOffset = 0;

  /// COMPUTE_PGM_RSRC2.USER_SGPR_COUNT.
  unsigned getUserSGPRCount() const { return (computePgmRsrc2 >> 1) & 0x1f; }
  /// COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_ID_{X,Y,Z} (dim 0..2).
  bool hasWorkgroupId(unsigned dim) const {
    return (computePgmRsrc2 >> (7 + dim)) & 1;
  }
  bool hasWorkgroupInfo() const { return (computePgmRsrc2 >> 10) & 1; }
  bool hasPrivateSegmentWaveOffset() const { return computePgmRsrc2 & 1; }
  /// COMPUTE_PGM_RSRC2.ENABLE_VGPR_WORKITEM_ID: 0 (x), 1 (x, y), 2 (x, y, z).
  unsigned getWorkItemIdDims() const { return (computePgmRsrc2 >> 11) & 3; }
  /// Architected VGPRs (COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT,
  /// unified VGPR+AGPR file in granules of 8 on gfx90a and later).
  unsigned getVGPRBlocks() const { return computePgmRsrc1 & 0x3f; }
  /// COMPUTE_PGM_RSRC3.ACCUM_OFFSET: the first AGPR in the unified file.
  unsigned getAccumOffset() const { return ((computePgmRsrc3 & 0x3f) + 1) * 4; }
  /// KERNEL_CODE_PROPERTIES.ENABLE_SGPR_*: bit 0 private segment buffer,
  /// 1 dispatch ptr, 2 queue ptr, 3 kernarg segment ptr, 4 dispatch id,
  /// 5 flat scratch init, 6 private segment size.
  bool hasUserSGPR(unsigned bit) const {
    return (kernelCodeProperties >> bit) & 1;
  }
};

/// One kernel: its descriptor and its decoded instructions in address
/// order, with the index of each instruction by address.
struct Kernel {
  std::string name;
  KernelDescriptor descriptor;
  std::vector<Instruction> instructions;
  llvm::DenseMap<uint64_t, unsigned> indexOfPc;
};

/// A code object's kernels.
struct CodeObject {
  std::vector<Kernel> kernels;

  /// The kernel named \p name, or null.
  const Kernel *lookup(llvm::StringRef name) const;
};

/// Loads the kernels of the ELF image \p image: every `<name>.kd` symbol
/// with its function `<name>`. A corrupt or truncated image, a descriptor
/// out of the image, or bytes the disassembler cannot decode are errors.
llvm::Expected<CodeObject> loadCodeObject(llvm::StringRef image);

/// gfx950's limits that a kernel descriptor is checked against.
constexpr unsigned kMaxLDSBytes = 160 * 1024;
constexpr unsigned kNumVGPRs = 512; ///< Unified VGPR + AGPR file per lane.
constexpr unsigned kNumSGPRs = 108; ///< s0..s101 plus VCC, kept in one array.

} // namespace mlir::mx::gfx950::isa

#endif // MX_TARGET_GFX950_ISA_CODEOBJECT_H
