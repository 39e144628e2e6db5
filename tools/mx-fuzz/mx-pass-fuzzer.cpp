//===- mx-pass-fuzzer.cpp - mx passes and pipelines on mutated programs ---===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libFuzzer target: parses the input and runs what its header line asks for
// (an input without one gets an action chosen from a hash of its text):
//
//   //! pass PASS          one mx pass (its options allowed, e.g.
//                          mx-materialize-encodings{target=...}), or a
//                          function pass as func.func(PASS)
//   //! cpu                mx-cpu-pipeline
//   //! gfx950 OPTIONS     mx-gfx950-pipeline{OPTIONS}, output=gpu (the
//                          default here) or output=isa
//
// The IR is verified after every pass that succeeds; IR that does not verify
// after a successful pass, a crash, or output that does not parse again is a
// bug. A pass failing with a diagnostic is a normal outcome.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mx::fuzz;

llvm::ArrayRef<llvm::StringRef> mlir::mx::fuzz::getHeaderActions() {
  static const llvm::StringRef actions[] = {
      "pass mx-raise-scaled-matmul",
      "pass mx-raise-quantize",
      "pass mx-check-legality{illegal-dialects=gpu "
      "illegal-ops=arith.scaling_truncf mx-element-computations=true}",
      "pass mx-set-encodings",
      "pass mx-set-encodings{only-static=true}",
      "pass mx-materialize-encodings{target=#mx_gfx950.target}",
      "pass mx-materialize-encodings{target=#mx_gfx950.target<intrinsic = "
      "mfma_scale_32x32x64, intrinsics_m = 2>}",
      "pass mx-materialize-encodings{target=#mx_gfx950.target<intrinsics_m = "
      "4, intrinsics_n = 4, intrinsics_k = 2, subgroups_m = 2, subgroups_n = "
      "2, require_ukernel = true>}",
      "pass mx-materialize-encodings{target=#mx_test.resolver<16, 16, 64>}",
      "pass mx-specialize-dynamic-m{target=#mx_gfx950.target}",
      "pass mx-split-k{target=#mx_gfx950.target}",
      "pass mx-split-k{target=#mx_gfx950.target<split_k = 4>}",
      "pass mx-lower-relayouts",
      "pass mx-pack-to-bytes",
      "pass mx-fuse-relayouts",
      "pass mx-memref-copy-to-linalg",
      "pass func.func(mx-merge-gpu-launches)",
      "pass convert-mx-to-linalg",
      "pass func.func(convert-linalg-to-gpu-dispatches)",
      "pass func.func(convert-linalg-to-gpu-dispatches{workgroup-size=64})",
      "pass mx-gfx950-lower-tiled-mma",
      "pass mx-gfx950-specialize-ukernels",
      "cpu",
      "gfx950 output=gpu",
      "gfx950 output=isa",
      "gfx950 output=gpu intrinsic=32x32x64",
      "gfx950 output=gpu intrinsics-m=2 intrinsics-n=2 intrinsics-k=2",
      "gfx950 output=isa intrinsics-m=4 intrinsics-n=4 subgroups-m=2 "
      "subgroups-n=2",
      "gfx950 output=gpu subgroups-m=1 subgroups-n=4 "
      "relayout-workgroup-size=64",
      "gfx950 output=gpu split-k=4",
      "gfx950 output=gpu config-table=none split-k=1",
  };
  return actions;
}

/// The passes `//! pass` may name: mx's own.
static bool isMXPass(llvm::StringRef name) {
  static const llvm::StringSet<> passes = {"mx-raise-scaled-matmul",
                                           "mx-raise-quantize",
                                           "mx-check-legality",
                                           "mx-set-encodings",
                                           "mx-materialize-encodings",
                                           "mx-lower-relayouts",
                                           "mx-split-k",
                                           "mx-specialize-dynamic-m",
                                           "mx-pack-to-bytes",
                                           "mx-fuse-relayouts",
                                           "mx-memref-copy-to-linalg",
                                           "mx-merge-gpu-launches",
                                           "convert-mx-to-linalg",
                                           "convert-linalg-to-gpu-dispatches",
                                           "mx-gfx950-lower-tiled-mma",
                                           "mx-gfx950-specialize-ukernels"};
  return passes.contains(name);
}

/// The textual pipeline of \p input's action, or "" when the header is not
/// one this target runs.
static std::string getPipeline(const FuzzInput &input) {
  llvm::StringRef action = input.action;
  llvm::StringRef options = input.options;
  if (action == "pass") {
    llvm::StringRef pass = options;
    bool nested = pass.consume_front("func.func(");
    if (nested && !pass.consume_back(")"))
      return "";
    if (!isMXPass(pass.take_until([](char c) { return c == '{'; })))
      return "";
    return ("builtin.module(" + options + ")").str();
  }
  if (action == "cpu")
    return "builtin.module(mx-cpu-pipeline)";
  if (action == "gfx950") {
    // output=gpu or isa only: rocdl adds nothing isa does not run, hsaco
    // needs ld.lld.
    if (options.contains("output=hsaco") || options.contains("output=rocdl") ||
        options.contains("lld=") || options.contains('}'))
      return "";
    std::string all = options.contains("output=")
                          ? options.str()
                          : ("output=gpu " + options).str();
    return "builtin.module(mx-gfx950-pipeline{" + all + "})";
  }
  return "";
}

namespace {
/// Verifies the IR after every pass that succeeded.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (failed(verify(op)))
      fuzzerBug("'" + pass->getArgument() +
                "' succeeded but left IR that does not verify");
  }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return -1;
  std::string text(reinterpret_cast<const char *>(data), size);
  FuzzInput input = splitInput(text);
  chooseDefaultAction(input);
  std::string pipeline = getPipeline(input);
  if (pipeline.empty())
    return -1;

  MLIRContext &context = getContext();
  OwningOpRef<ModuleOp> module = parseModule(input.text);
  if (!module)
    return 0;
  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return -1;
  if (failed(pm.run(*module)))
    return 0;
  checkRoundTrip(*module, pipeline);
  return 0;
}
