//===- mx-opt.cpp - mx optimizer driver -----------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Behaves like mlir-opt, with the mx dialect, its passes and pipelines, and
// the upstream dialects and passes the mx pipelines are made of. Two
// differences: the input is read with mx::readUserFile (a regular file or
// standard input, bounded), and an error emitted while processing it makes
// the exit code 1 even where the pass manager succeeded.
//
//===----------------------------------------------------------------------===//

#include "mx/InitMX.h"
#include "mx/Support/ErrorTracker.h"
#include "mx/Support/FileIO.h"
#include "mx/Support/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#ifdef MX_INCLUDE_TESTS
#include "TestTarget.h"
#endif
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

static constexpr llvm::StringLiteral kHelpHeader =
    "mx optimizer driver\n\n"
    "To see which wave, lane and register hold each element of a "
    "#mx.data_tiled_layout\n(tables, SVG pictures, where-is queries), run "
    "mx-layout --help.\n";

/// Prints "mx-opt: error: <message>" and returns the exit code of an error.
static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "mx-opt") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::mx::setVersionPrinter("mx-opt");
  mlir::DialectRegistry registry;
  mlir::mx::registerMXDialects(registry);
  mlir::mx::registerPipelineDialects(registry);
#ifdef MX_INCLUDE_TESTS
  mlir::mx::test::registerTestTarget(registry);
#endif
  mlir::mx::registerMXPasses();
  mlir::mx::registerPipelineUpstreamPasses();
  auto [inputFilename, outputFilename] =
      mlir::registerAndParseCLIOptions(argc, argv, kHelpHeader, registry);

  // Each input chunk gets its own context; the pass pipeline's setup is the
  // hook that sees it. Under -verify-diagnostics the errors are expected and
  // the verifier decides.
  const mlir::MlirOptMainConfig cliConfig =
      mlir::MlirOptMainConfig::createFromCLOptions();
  mlir::MlirOptMainConfig config = cliConfig;
  mlir::mx::ErrorTracker errors;
  if (!cliConfig.shouldVerifyDiagnostics())
    config.setPassPipelineSetupFn([&](mlir::PassManager &pm) {
      errors.watch(pm.getContext());
      return cliConfig.setupPassPipeline(pm);
    });
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        llvm::outs(), llvm::MemoryBuffer::getMemBuffer(""), registry, config));

  mlir::mx::UserFileLimits limits;
  limits.allowStdin = true;
  limits.requiresNullTerminator = true;
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> input =
      mlir::mx::readUserFile(inputFilename, limits, "the input");
  if (!input)
    return fail(llvm::toString(input.takeError()));
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return fail(errorMessage);
  if (failed(
          mlir::MlirOptMain(output->os(), std::move(*input), registry, config)))
    return 1;
  if (errors.hadError())
    return fail("errors were emitted above (the pass manager succeeded)");
  output->keep();
  return 0;
}
