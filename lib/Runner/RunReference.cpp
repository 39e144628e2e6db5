//===- RunReference.cpp - the reference a run is compared with ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/RunReference.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/Location.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::mx;

/// The prefix of the location names that tag contractions for
/// getKernelOrders.
static constexpr StringLiteral kContractionTag = "mx-run.contraction.";

LogicalResult
mlir::mx::getKernelOrders(ExecutionBackend &backend, ModuleOp module,
                          StringRef entry, ArrayRef<HostTensor> inputs,
                          function_ref<LogicalResult(ModuleOp)> preprocess,
                          DenseMap<Operation *, ContractionOrder> &orders) {
  auto contractionsOf = [&](ModuleOp m) {
    SmallVector<Operation *> ops;
    if (auto func = m.lookupSymbol<func::FuncOp>(entry))
      func.walk([&](Operation *op) {
        if (isa<ScaledContractionOp, GroupedScaledContractionOp,
                RoutedScaledContractionOp>(op))
          ops.push_back(op);
      });
    return ops;
  };
  SmallVector<Operation *> original = contractionsOf(module);
  if (original.empty())
    return success();
  OwningOpRef<ModuleOp> tagged = module.clone();
  for (auto [index, op] : llvm::enumerate(contractionsOf(*tagged)))
    op->setLoc(
        NameLoc::get(StringAttr::get(module.getContext(),
                                     kContractionTag + std::to_string(index)),
                     op->getLoc()));
  if (preprocess && failed(preprocess(*tagged)))
    return failure();
  FailureOr<SmallVector<LocatedContractionOrder>> located =
      backend.getContractionOrders(*tagged, entry, inputs);
  if (failed(located))
    return failure();
  // A contraction compiled twice with different orders has none.
  DenseMap<Operation *, std::optional<ContractionOrder>> found;
  for (const LocatedContractionOrder &item : *located) {
    item.loc->walk([&](Location loc) {
      auto name = dyn_cast<NameLoc>(loc);
      unsigned index;
      if (!name || !name.getName().strref().starts_with(kContractionTag) ||
          name.getName()
              .strref()
              .drop_front(kContractionTag.size())
              .getAsInteger(10, index) ||
          index >= original.size())
        return WalkResult::advance();
      auto [it, inserted] = found.try_emplace(original[index], item.order);
      if (!inserted && it->second &&
          (it->second->kStep != item.order.kStep ||
           it->second->kTile != item.order.kTile ||
           it->second->parts != item.order.parts))
        it->second.reset();
      return WalkResult::advance();
    });
  }
  for (auto [op, order] : found)
    if (order)
      orders[op] = *order;
  return success();
}

bool mlir::mx::roundsPerInstructionByDefault(StringRef backendName) {
  return backendName == "gfx950-emu" || backendName == "gfx950-isa" ||
         backendName == "hip";
}

FailureOr<ReferenceResults> mlir::mx::evaluateReferenceFor(
    ExecutionBackend &backend, ModuleOp module, StringRef entry,
    ArrayRef<HostTensor> inputs, ReferenceOptions options,
    function_ref<LogicalResult(ModuleOp)> preprocess) {
  if (options.perInstruction &&
      failed(getKernelOrders(backend, module, entry, inputs, preprocess,
                             options.orders)))
    return failure();
  return evaluateReference(module, entry, inputs, options);
}

bool mlir::mx::printReferenceComparison(llvm::raw_ostream &os, StringRef entry,
                                        StringRef backend,
                                        ArrayRef<HostTensor> results,
                                        const ReferenceResults &reference,
                                        const CompareOptions &options) {
  os << "comparing @" << entry << " on " << backend
     << " with the reference evaluator:\n";
  return compareAll(os, results, reference.values, options, &reference);
}
