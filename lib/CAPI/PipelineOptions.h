//===- PipelineOptions.h - C pipeline options to C++ ------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CAPI: the one conversion of the C pipeline options struct
// to the C++ options, shared by the pipeline builder and the runner.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_CAPI_PIPELINEOPTIONS_H
#define MX_LIB_CAPI_PIPELINEOPTIONS_H

#include "mx-c/Pipelines.h"
#include "mx/Pipelines/Pipelines.h"

namespace mlir::mx::capi {

/// Sets \p cxx from \p options; returns false, leaving \p cxx partly set,
/// when an option is out of range (see mxBuildGFX950Pipeline).
bool convertGFX950PipelineOptions(const MxGFX950PipelineOptions &options,
                                  GFX950PipelineOptions &cxx);

} // namespace mlir::mx::capi

#endif // MX_LIB_CAPI_PIPELINEOPTIONS_H
