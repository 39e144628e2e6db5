//===- Dialects.h - C API of the mx dialects ----------------------*- C -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Dialect registration for C clients, following the upstream mlir-c
// conventions (mlir-c/IR.h dialect handles).
//
//===----------------------------------------------------------------------===//

#ifndef MX_C_DIALECTS_H
#define MX_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The handle of the mx dialect alone (`mlirGetDialectHandle__mx__`). The
/// handle inserts only the dialect; use mxRegisterDialects for the dialect
/// together with its targets and interface models.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MX, mx);

/// Inserts the mx dialect, the gfx950 target dialect (`mx_gfx950`) and the
/// interface models of the mx ops (what `mx-opt` registers for mx itself).
MLIR_CAPI_EXPORTED void mxRegisterDialects(MlirDialectRegistry registry);

/// Inserts the upstream dialects the mx pipelines consume or produce (func,
/// arith, tensor, linalg, memref, bufferization, scf, vector, gpu, amdgpu,
/// rocdl, llvm, ...) with the interface models and translations the
/// pipelines rely on.
MLIR_CAPI_EXPORTED void
mxRegisterPipelineDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // MX_C_DIALECTS_H
