//===- Pipelines.cpp - mx pass pipelines ----------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Pipelines/Pipelines.h"

#include "mx/Conversion/Passes.h"
#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Transforms/Passes.h"

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"
#include "mx/Target/GFX950/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// One-shot bufferization of a whole tensor program, functions included,
/// with identity-layout memrefs at function boundaries (what callers and
/// runners pass), then memref.copy as linalg.copy.
static void addBufferization(OpPassManager &pm) {
  pm.addPass(mx::createMXSplitEmptyTensors());
  bufferization::OneShotBufferizePassOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(mx::createMXMemRefCopyToLinalg());
}

/// The legality check of a pipeline's input, after the raises: ops below
/// the tensor level and computations on MX element values that no raise
/// turned into mx ops are errors naming the op.
/// \p unsupported names the mx ops the pipeline does not compile.
static void addInputCheck(OpPassManager &pm, StringRef pipeline,
                          ArrayRef<std::string> unsupported = {}) {
  mx::MXCheckLegalityOptions check;
  check.pipeline = pipeline.str();
  check.stage = "input";
  check.illegalDialects = {"gpu",   "amdgpu", "rocdl", "nvvm",
                           "nvgpu", "llvm",   "spirv"};
  check.illegalOps = {"arith.scaling_extf", "arith.scaling_truncf"};
  llvm::append_range(check.illegalOps, unsupported);
  check.mxElementComputations = true;
  check.hint = "the mx pipelines take tensor-level programs in func.func: mx "
               "ops, and linalg, tensor, arith and math ops on f32, bf16 and "
               "f16; the upstream forms of MX matmuls, quantizations and "
               "dequantizations (arith.scaling_extf, arith.scaling_truncf) are "
               "raised to mx ops first, and a remark says why one was not "
               "(docs/guides/foreign-inputs.md)";
  pm.addPass(mx::createMXCheckLegality(check));
}

/// The legality check of a pipeline's output: only ops of \p legal dialects
/// and none named in \p illegal are left outside the ops named in \p skip.
static void addOutputCheck(OpPassManager &pm, StringRef pipeline,
                           ArrayRef<std::string> legal,
                           ArrayRef<std::string> skip = {},
                           ArrayRef<std::string> illegal = {},
                           StringRef hint = "") {
  mx::MXCheckLegalityOptions check;
  check.hint = hint.str();
  check.pipeline = pipeline.str();
  check.stage = "output";
  check.legalDialects = llvm::to_vector(legal);
  check.skip = llvm::to_vector(skip);
  check.illegalOps = llvm::to_vector(illegal);
  pm.addPass(mx::createMXCheckLegality(check));
}

void mx::buildCPUPipeline(OpPassManager &pm,
                          const CPUPipelineOptions &options) {
  // Upstream-form scaled matmuls to mx ops; elementwise ops on tensors
  // (e.g. arith.truncf of a result) as linalg.
  pm.addPass(mx::createMXRaiseScaledMatmul());
  pm.addPass(mx::createMXRaiseQuantize());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  addInputCheck(pm, "mx-cpu-pipeline");
  pm.addPass(mx::createConvertMXToLinalg());
  pm.addPass(mx::createMXLowerRelayouts());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  addBufferization(pm);
  // The program frees the buffers it allocates (intermediates; the results
  // go to the caller), as the sanitizer build's leak checker demands.
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (!options.lowerToLLVM) {
    addOutputCheck(pm, "mx-cpu-pipeline",
                   {"func", "arith", "math", "memref", "scf", "cf", "affine",
                    "vector", "index", "ub"});
    return;
  }

  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  addOutputCheck(pm, "mx-cpu-pipeline", {"llvm"});
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// The gfx950 target attribute (as text) with the pipeline's pins.
static std::string getTarget(const mx::GFX950PipelineOptions &options) {
  return mx::gfx950::TargetAttr::getAsText(
      options.intrinsic.hasValue() ? std::optional(options.intrinsic.getValue())
                                   : std::nullopt,
      options.intrinsicsM, options.intrinsicsN, options.intrinsicsK,
      options.subgroupsM, options.subgroupsN, options.splitK,
      options.configTable,
      /*requireUKernel=*/true);
}

void mx::buildGFX950DataTilingPipeline(OpPassManager &pm,
                                       const GFX950PipelineOptions &options) {
  // Upstream-form scaled matmuls to mx ops; elementwise ops on tensors
  // (e.g. arith.truncf of a result) as linalg; then data tiling, on tensors.
  pm.addPass(mx::createMXRaiseScaledMatmul());
  pm.addPass(mx::createMXRaiseQuantize());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  // A standalone dequantization has no gfx950 kernel (yet); the CPU path
  // runs it.
  addInputCheck(pm, "mx-gfx950-pipeline", {"mx.dequantize"});
  // A dynamic M gets a version per M bucket of the target (decode sizes).
  MXSpecializeDynamicMOptions specialize;
  specialize.target = getTarget(options);
  pm.addPass(mx::createMXSpecializeDynamicM(specialize));
  pm.addPass(mx::createMXSetEncodings());
  MXMaterializeEncodingsOptions materialize;
  materialize.target = getTarget(options);
  // The GEMM reads and writes the accumulator in place (no relayout).
  materialize.userLayoutResults = true;
  pm.addPass(mx::createMXMaterializeEncodings(materialize));
  // GEMMs with too few output tiles for the GPU run their K loop in parts.
  MXSplitKOptions splitK;
  splitK.target = getTarget(options);
  pm.addPass(mx::createMXSplitK(splitK));
  // Weight arguments marked mx.prepack: their relayouts (split-K's views
  // included) move into packing functions that run once per model load.
  pm.addPass(mx::createMXHoistArgumentRelayouts());
}

void mx::buildGFX950Pipeline(OpPassManager &pm,
                             const GFX950PipelineOptions &options) {
  buildGFX950DataTilingPipeline(pm, options);
  // A quantize writes its results in the layouts their relayouts produce.
  pm.addPass(mx::createMXFuseQuantizeRelayouts());
  pm.addPass(mx::createMXLowerRelayouts());
  pm.addPass(mx::createMXPackToBytes());
  pm.addPass(mx::createMXFuseRelayouts());
  // Elementwise consumers of a relayout (e.g. the arith.truncf of the
  // result) into its gather: one dispatch writes the converted result.
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The elementwise consumer of a GEMM's result (a bf16 conversion, a
  // bias, an activation) into the GEMM's epilogue, if the kernel can compute
  // its ops.
  MXFuseEpiloguesOptions epilogues;
  epilogues.target = getTarget(options);
  pm.addPass(mx::createMXFuseEpilogues(epilogues));
  // A small consumer that reads the result by columns (a mixture of experts'
  // weighted combine of its routed down GEMM) into the GEMM's kernel, run by
  // the last wave of each strip of N tiles.
  MXFuseColumnConsumersOptions columnConsumers;
  columnConsumers.target = getTarget(options);
  columnConsumers.maxStripElements = options.columnConsumerElements;
  if (options.columnConsumerElements > 0)
    pm.addPass(mx::createMXFuseColumnConsumers(columnConsumers));
  // Small-M GEMMs quantize their A tiles themselves.
  gfx950::MXGFX950QuantizeInGEMMOptions quantizeInGEMM;
  quantizeInGEMM.mode = options.quantizeInGEMM;
  pm.addNestedPass<func::FuncOp>(
      gfx950::createMXGFX950QuantizeInGEMM(quantizeInGEMM));

  // Buffers, then one dispatch per relayout op and per contraction.
  addBufferization(pm);
  gfx950::MXGFX950LowerQuantizeOptions quantize;
  quantize.workgroupSize = options.relayoutWorkgroupSize;
  pm.addNestedPass<func::FuncOp>(gfx950::createMXGFX950LowerQuantize(quantize));
  ConvertLinalgToGPUDispatchesOptions dispatches;
  dispatches.workgroupSize = options.relayoutWorkgroupSize;
  pm.addNestedPass<func::FuncOp>(
      mx::createConvertLinalgToGPUDispatches(dispatches));
  // The independent relayouts of the operands as one dispatch.
  pm.addNestedPass<func::FuncOp>(mx::createMXMergeGPULaunches());
  pm.addPass(gfx950::createMXGFX950LowerTiledMMA());
  // Math ops of the epilogues that gfx950 computes through others (tanh
  // through exp), so that no kernel calls a device library.
  math::MathExpandOpsPassOptions expand;
  expand.opMnemonics = gfx950::getExpandedMathOps();
  pm.addNestedPass<func::FuncOp>(math::createMathExpandOpsPass(expand));
  gfx950::MXGFX950SpecializeUKernelsOptions specialize;
  specialize.unrollK = options.unrollK;
  pm.addPass(gfx950::createMXGFX950SpecializeUKernels(specialize));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  GpuROCDLAttachTargetOptions target;
  target.chip = "gfx950";
  pm.addPass(createGpuROCDLAttachTarget(target));
  if (options.reserveAccumulatorAGPRs != AccumulatorAGPRs::Never) {
    gfx950::MXGFX950ReserveAccumulatorAGPRsOptions agprs;
    agprs.all = options.reserveAccumulatorAGPRs == AccumulatorAGPRs::Always;
    pm.addNestedPass<gpu::GPUModuleOp>(
        gfx950::createMXGFX950ReserveAccumulatorAGPRs(agprs));
  }
  buildGFX950KernelCodegenPipeline(pm, options);
  // The host code launches the kernels and manages their buffers; with a
  // binary output no kernel is left as IR.
  bool kernelsAsIR = options.output == GFX950Output::GPU ||
                     options.output == GFX950Output::ROCDL;
  addOutputCheck(
      pm, "mx-gfx950-pipeline",
      {"func", "arith", "index", "memref", "scf", "cf", "affine", "gpu", "ub"},
      {"gpu.binary", "gpu.module"},
      kernelsAsIR ? ArrayRef<std::string>()
                  : ArrayRef<std::string>{"gpu.module"},
      "mx-gfx950-pipeline compiles MX contractions and "
      "quantizations (mx ops and the upstream forms it raises) "
      "with the elementwise ops it fuses into them; other "
      "computations (e.g. a matmul of f32 or bf16 values) are not "
      "compiled for the GPU");
}

void mx::buildGFX950KernelCodegenPipeline(
    OpPassManager &pm, const GFX950PipelineOptions &options) {
  if (options.output == GFX950Output::GPU)
    return;
  // Kernels to ROCDL.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = "gfx950";
  kernels.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  kernels.addPass(createReconcileUnrealizedCastsPass());
  // The ukernels' K loops tell LLVM not to unroll them.
  kernels.addPass(mx::createMXAttachLoopAnnotations());
  // The ukernels order their LDS reads after their copies themselves.
  kernels.addPass(gfx950::createMXGFX950LDSCopyAliasScopes());
  if (options.output == GFX950Output::ROCDL)
    return;

  // The kernels' gpu.modules serialized in parallel (upstream's
  // gpu-module-to-binary serializes one after the other).
  MXGPUModulesToBinariesOptions binary;
  binary.format = "isa";
  pm.addPass(createMXGPUModulesToBinaries(binary));
  // LLVM 22 leaves some consumers of 16-pass MFMAs one wait state short.
  pm.addPass(gfx950::createMXGFX950PadXDLWaitStates());
  if (options.output == GFX950Output::HSACO) {
    gfx950::MXGFX950LinkCodeObjectsOptions link;
    link.lld = options.lld;
    pm.addPass(gfx950::createMXGFX950LinkCodeObjects(link));
  }
}

void mx::registerPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "mx-cpu-pipeline",
      "Lower a tensor-level mx program to the LLVM dialect for the host CPU "
      "(the executable reference path of mx-run)",
      buildCPUPipeline);
  PassPipelineRegistration<GFX950PipelineOptions>(
      "mx-gfx950-pipeline",
      "Compile a tensor-level mx program for gfx950: data tiling, packed "
      "sub-byte buffers, relayout and ukernel dispatches, kernel outlining, "
      "then ROCDL, ISA or a code object (see the output option)",
      buildGFX950Pipeline);
}
