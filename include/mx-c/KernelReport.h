//===- KernelReport.h - C API of the gfx950 kernel report ---------*- C -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Static statistics of the gfx950 kernels in the gpu.binary ops of a module
// compiled by `mx-gfx950-pipeline` with output=isa (what the
// `mx-gfx950-kernel-report` pass prints).
//
//===----------------------------------------------------------------------===//

#ifndef MX_C_KERNELREPORT_H
#define MX_C_KERNELREPORT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Statistics of one kernel. Strings are valid during the callback only.
typedef struct MxGFX950KernelStats {
  /// The gpu.binary symbol holding the kernel, and the kernel's name.
  MlirStringRef binary;
  MlirStringRef name;
  int64_t vgprs, agprs, sgprs;
  int64_t ldsBytes, scratchBytes;
  int64_t vgprSpills, sgprSpills;
  int64_t maxWorkgroupSize;
  /// Bytes of machine code.
  int64_t codeBytes;
  /// Waves per SIMD the register and LDS use allow.
  int64_t wavesPerSIMD;
  /// MFMAs in the whole kernel and in its main loop (the loop with the most
  /// MFMAs; hasLoop false: none).
  int64_t mfmas;
  int64_t mainLoopMFMAs;
  bool hasLoop;
} MxGFX950KernelStats;

typedef void (*MxGFX950KernelStatsCallback)(const MxGFX950KernelStats *stats,
                                            void *userData);

/// Calls `callback` once per kernel of every gfx950 assembly object in the
/// gpu.binary ops under `root`. Fails (after emitting a diagnostic on the
/// binary) when an object cannot be analyzed; objects in another format get
/// a remark and are skipped. Fails at once when `root` or `callback` is
/// null.
MLIR_CAPI_EXPORTED MlirLogicalResult mxGFX950ForEachKernel(
    MlirOperation root, MxGFX950KernelStatsCallback callback, void *userData);

/// Prints the text report of `mx-gfx950-kernel-report` for the gpu.binary
/// ops under `root` through `callback`. Fails at once when `root` or
/// `callback` is null.
MLIR_CAPI_EXPORTED MlirLogicalResult mxGFX950PrintKernelReport(
    MlirOperation root, MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // MX_C_KERNELREPORT_H
