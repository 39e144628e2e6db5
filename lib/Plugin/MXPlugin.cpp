//===- MXPlugin.cpp - mx as a plugin of upstream mlir-opt -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One shared library that is both a dialect plugin and a pass plugin of
// upstream `mlir-opt` (as upstream's standalone example does):
//
//   mlir-opt --load-dialect-plugin=MXPlugin.so --load-pass-plugin=MXPlugin.so
//     --pass-pipeline='builtin.module(mx-gfx950-pipeline{output=gpu})'
//
// A single library keeps one copy of the mx dialects in the process, so the
// passes see the very dialect classes the dialect plugin registered.
// mlir-opt registers the upstream dialects, extensions and passes itself.
//
//===----------------------------------------------------------------------===//

#include "mx/InitMX.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

/// The dialect plugin entry point: the mx dialects and their models.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MX", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::mx::registerMXDialects(*registry);
          }};
}

/// The pass plugin entry point: the mx passes and pipelines.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MX", LLVM_VERSION_STRING,
          []() { mlir::mx::registerMXPasses(); }};
}
