//===- KernelReport.h - static statistics of gfx950 kernels -----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reads gfx950 assembly as produced by the LLVM AMDGPU backend (e.g. the ISA
// text of a gpu.binary): the AMDHSA metadata of every kernel (registers, LDS,
// scratch, spills), its instructions (MFMAs and loads, overall and in the
// main loop), its exact code size (by assembling the text with LLVM's MC
// layer) and the occupancy these imply.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_CODEGEN_KERNELREPORT_H
#define MX_TARGET_GFX950_CODEGEN_KERNELREPORT_H

// gpu::BinaryOp is complete here: a caller of analyzeGPUBinaries receives
// one by value.
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::mx::gfx950 {

/// Instruction counts of a range of instructions.
struct InstructionCounts {
  int64_t instructions = 0;
  /// MFMAs by mnemonic (e.g. v_mfma_scale_f32_16x16x128_f8f6f4).
  llvm::StringMap<int64_t> mfmas;
  int64_t globalLoads = 0;
  /// Loads from LDS (ds_read*, ds_load*).
  int64_t ldsLoads = 0;
  /// Global-to-LDS direct loads (global_load_lds*, buffer_load* ... lds).
  int64_t directToLDSLoads = 0;
  /// Stores to global memory (global_store*, buffer_store*) by mnemonic, so
  /// their widths show (e.g. buffer_store_dwordx4).
  llvm::StringMap<int64_t> globalStores;
  int64_t getNumMFMAs() const;
  int64_t getNumGlobalStores() const;
};

/// Static statistics of one kernel.
struct KernelStats {
  std::string name;
  int64_t vgprs = 0, agprs = 0, sgprs = 0;
  int64_t ldsBytes = 0, scratchBytes = 0;
  int64_t vgprSpills = 0, sgprSpills = 0;
  int64_t maxWorkgroupSize = 0;
  /// Bytes of machine code (the kernel symbol's size once assembled).
  int64_t codeBytes = 0;
  /// Waves per SIMD the register and LDS use allow (at most 8).
  int64_t wavesPerSIMD = 0;
  InstructionCounts total;
  /// The loop (backward branch) with the most MFMAs; empty without loops.
  InstructionCounts mainLoop;
  bool hasLoop = false;
};

/// Analyzes gfx950 assembly text holding one or more kernels.
llvm::Expected<SmallVector<KernelStats, 1>> analyzeAssembly(StringRef assembly);

/// Prints one block of `key: value` lines per kernel.
void printReport(llvm::raw_ostream &os, ArrayRef<KernelStats> kernels);

/// Analyzes every assembly object (gpu-module-to-binary{format=isa}) of the
/// gpu.binary ops under `root` and calls `fn` with its binary and kernels.
/// Objects in another format get a remark and are skipped; an object that
/// cannot be analyzed is an error on its binary (failure). Returns the number
/// of objects analyzed.
FailureOr<int64_t>
analyzeGPUBinaries(Operation *root,
                   function_ref<void(gpu::BinaryOp, ArrayRef<KernelStats>)> fn);

/// Prints the report of every assembly object under `root`: a
/// `gpu.binary @name` line, then printReport's block per kernel. Remarks on
/// `root` when there is none.
LogicalResult printGPUBinariesReport(Operation *root, llvm::raw_ostream &os);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_CODEGEN_KERNELREPORT_H
