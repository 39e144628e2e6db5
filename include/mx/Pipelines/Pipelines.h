//===- Pipelines.h - mx pass pipelines --------------------------*- C++ -*-===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#ifndef MX_PIPELINES_PIPELINES_H
#define MX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace mx {

/// Options of the host CPU pipeline (`mx-cpu-pipeline`).
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> lowerToLLVM{
      *this, "lower-to-llvm",
      llvm::cl::desc("Continue past bufferization down to the LLVM dialect "
                     "(off: stop at loops on memrefs, for inspection)"),
      llvm::cl::init(true)};
};

/// Builds the pipeline that takes a tensor-level mx program (mx ops, linalg,
/// tensor, arith on tensors, func) to the LLVM dialect for the host, as run by
/// `mx-run --backend=cpu`: convert-mx-to-linalg, one-shot bufferization with
/// identity-layout function boundaries, linalg to loops, then everything to
/// LLVM. Functions keep their names; memref arguments use MLIR's standard
/// descriptor calling convention.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Registers the mx pipelines (`mx-cpu-pipeline`) for textual use.
void registerPipelines();

} // namespace mx
} // namespace mlir

#endif // MX_PIPELINES_PIPELINES_H
