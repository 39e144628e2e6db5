//===- Pipelines.h - mx pass pipelines --------------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_PIPELINES_PIPELINES_H
#define MX_PIPELINES_PIPELINES_H

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"

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
/// identity-layout function boundaries, buffer deallocation (the program
/// frees its intermediates; results belong to the caller), linalg to loops,
/// then everything to LLVM. Functions keep their names; memref arguments use
/// MLIR's standard descriptor calling convention.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Where `mx-gfx950-pipeline` stops.
enum class GFX950Output { GPU, ROCDL, ISA, HSACO };

/// Which GEMM kernels keep their accumulators in AGPRs
/// (mx-gfx950-reserve-accumulator-agprs).
enum class AccumulatorAGPRs { Auto, Always, Never };

/// Options of the gfx950 pipeline (`mx-gfx950-pipeline`).
struct GFX950PipelineOptions
    : public PassPipelineOptions<GFX950PipelineOptions> {
  // The layout pins. They become one #mx_gfx950.target attribute (the one
  // carrier of the pins, whose verifier validates them), which the pipeline
  // hands to mx-materialize-encodings.
  PassOptions::Option<gfx950::ScaledMMAIntrinsic> intrinsic{
      *this, "intrinsic",
      llvm::cl::desc("Pin the scaled MFMA (default: the resolver's choice)"),
      llvm::cl::values(
          clEnumValN(gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128,
                     "16x16x128", "v_mfma_scale_f32_16x16x128_f8f6f4"),
          clEnumValN(gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64,
                     "32x32x64", "v_mfma_scale_f32_32x32x64_f8f6f4"))};
  PassOptions::Option<int64_t> intrinsicsM{
      *this, "intrinsics-m", llvm::cl::desc("Pin intrinsics_m (0: resolver)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> intrinsicsN{
      *this, "intrinsics-n", llvm::cl::desc("Pin intrinsics_n (0: resolver)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> intrinsicsK{
      *this, "intrinsics-k", llvm::cl::desc("Pin intrinsics_k (0: resolver)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> subgroupsM{
      *this, "subgroups-m", llvm::cl::desc("Pin subgroups_m (0: resolver)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> subgroupsN{
      *this, "subgroups-n", llvm::cl::desc("Pin subgroups_n (0: resolver)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> splitK{
      *this, "split-k",
      llvm::cl::desc("Pin the number of parts of each GEMM's K loop "
                     "(mx-split-k; 1: never split; 0: the resolver's choice, "
                     "which splits GEMMs with fewer output tiles than CUs)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> configTable{
      *this, "config-table",
      llvm::cl::desc("The tuned configuration table the resolver consults "
                     "before its heuristic: empty for the embedded one "
                     "(ukernels/gfx950/configs/), 'none' for none, or a "
                     "table file's path (see bench/mx_tune.py)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> quantizeInGEMM{
      *this, "quantize-in-gemm",
      llvm::cl::desc("Where a quantized activation's A tiles are quantized "
                     "(mx-gfx950-quantize-in-gemm): auto (in the GEMM for "
                     "small M), always (in the GEMM wherever it can), never "
                     "(a quantize dispatch)"),
      llvm::cl::init("auto")};
  PassOptions::Option<int64_t> columnConsumerElements{
      *this, "column-consumer-elements",
      llvm::cl::desc("The most output elements per strip of N tiles of a "
                     "consumer that reads a GEMM's result by columns (a MoE "
                     "layer's weighted combine) for the GEMM's kernel to "
                     "compute (mx-fuse-column-consumers); 0: none, each "
                     "stays a dispatch"),
      llvm::cl::init(4096)};
  PassOptions::Option<int64_t> unrollK{
      *this, "unroll-k",
      llvm::cl::desc("Unroll factor of the software-pipelined ukernel K loop "
                     "(mx-gfx950-specialize-ukernels; 0, the default: the "
                     "ukernel's register schedule for the configuration; 1: "
                     "none)"),
      llvm::cl::init(0)};
  PassOptions::Option<AccumulatorAGPRs> reserveAccumulatorAGPRs{
      *this, "reserve-accumulator-agprs",
      llvm::cl::desc("Which GEMM kernels keep their accumulators in AGPRs "
                     "(mx-gfx950-reserve-accumulator-agprs; default: auto)"),
      llvm::cl::init(AccumulatorAGPRs::Auto),
      llvm::cl::values(
          clEnumValN(AccumulatorAGPRs::Auto, "auto",
                     "those whose ukernel register schedule says so"),
          clEnumValN(AccumulatorAGPRs::Always, "always",
                     "every GEMM kernel (some configurations spill)"),
          clEnumValN(AccumulatorAGPRs::Never, "never",
                     "none: LLVM's choice of registers"))};
  PassOptions::Option<int64_t> relayoutWorkgroupSize{
      *this, "relayout-workgroup-size",
      llvm::cl::desc("Threads per workgroup of the relayout dispatches"),
      llvm::cl::init(256)};
  PassOptions::Option<GFX950Output> output{
      *this, "output",
      llvm::cl::desc("Where the pipeline stops (default: hsaco)"),
      llvm::cl::init(GFX950Output::HSACO),
      llvm::cl::values(
          clEnumValN(GFX950Output::GPU, "gpu",
                     "host function with gpu.launch_func, kernels in "
                     "gpu.modules at the gpu/amdgpu/vector/memref level with "
                     "specialized ukernels (what the wave emulator runs)"),
          clEnumValN(GFX950Output::ROCDL, "rocdl",
                     "kernels converted to the LLVM and ROCDL dialects"),
          clEnumValN(GFX950Output::ISA, "isa",
                     "gpu.binary ops holding gfx950 assembly"),
          clEnumValN(GFX950Output::HSACO, "hsaco",
                     "gpu.binary ops holding gfx950 code objects"))};
  PassOptions::Option<std::string> lld{
      *this, "lld",
      llvm::cl::desc("For output=hsaco: the path of ld.lld, which links the "
                     "code objects (default: looked up when the pipeline "
                     "runs, next to the LLVM tools, then on PATH)"),
      llvm::cl::init("")};
};

/// Builds the pipeline from a tensor-level program of mx.scaled_contraction
/// ops to gfx950 kernels: encodings and the resolver's data-tiled layouts
/// (restricted to layouts a ukernel serves), relayouts lowered and sub-byte
/// data packed, one-shot bufferization, one GPU dispatch per relayout op and
/// per contraction (the ukernel call), ukernel specialization, kernel
/// outlining into `gpu.module`s targeting gfx950, then, depending on
/// `output`, conversion to ROCDL and serialization.
void buildGFX950Pipeline(OpPassManager &pm,
                         const GFX950PipelineOptions &options);

/// Builds the last stage of buildGFX950Pipeline, from `output=gpu` to
/// `options.output`: the kernels of every `gpu.module` converted to ROCDL,
/// then serialized to gfx950 assembly or linked code objects (`gpu.binary`
/// ops of the same names); the host functions are left as they are. Adds
/// nothing for output=gpu.
void buildGFX950KernelCodegenPipeline(OpPassManager &pm,
                                      const GFX950PipelineOptions &options);

/// Builds the first stage of buildGFX950Pipeline, data tiling on tensors:
/// upstream-form scaled matmuls raised to mx ops, encodings set, and each
/// mx.scaled_contraction materialized as an mx.tiled_scaled_mma with the
/// data-tiled layout that the whole pipeline compiles it with.
void buildGFX950DataTilingPipeline(OpPassManager &pm,
                                   const GFX950PipelineOptions &options);

/// Registers the mx pipelines (`mx-cpu-pipeline`, `mx-gfx950-pipeline`) for
/// textual use.
void registerPipelines();

} // namespace mx
} // namespace mlir

#endif // MX_PIPELINES_PIPELINES_H
