//===- CodeObjects.h - C API of compiled kernels ------------------*- C -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compiled kernels of a module after mx-gfx950-pipeline, as bytes a
// client hands to its own runtime (e.g. hipModuleLoadData).
//
//===----------------------------------------------------------------------===//

#ifndef MX_C_CODEOBJECTS_H
#define MX_C_CODEOBJECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One object of a gpu.binary: its bytes stay owned by the module (valid
/// until the module changes or is destroyed).
typedef struct MxGFX950CodeObject {
  /// The gpu.binary's symbol (the kernel's gpu.module, e.g. "gemm_mma0").
  MlirStringRef binary;
  /// The object's bytes: an ELF code object (output=hsaco) or gfx950
  /// assembly text (output=isa).
  MlirStringRef bytes;
  /// Whether `bytes` is an ELF code object (else assembly).
  bool isCodeObject;
} MxGFX950CodeObject;

typedef void (*MxGFX950CodeObjectCallback)(const MxGFX950CodeObject *object,
                                           void *userData);

/// Calls `callback` with every object of every gpu.binary under `root`, in
/// the module's order. Fails when `root` is null, `callback` is null, or
/// there is no gpu.binary (the pipeline did not run to output=isa or
/// output=hsaco).
MLIR_CAPI_EXPORTED MlirLogicalResult mxGFX950ForEachCodeObject(
    MlirOperation root, MxGFX950CodeObjectCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // MX_C_CODEOBJECTS_H
