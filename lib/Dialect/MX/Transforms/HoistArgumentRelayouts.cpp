//===- HoistArgumentRelayouts.cpp - mx-hoist-argument-relayouts -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A weight passed as an argument is relaid out into the GEMM's data-tiled
// layout on every call unless it is packed once, at load time. An argument
// marked `mx.prepack` gets its relayout (what mx-materialize-encodings and
// mx-split-k built from it) outlined into a function of its own; the
// function then takes the packed tensor. See Prepack.h.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Prepack.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXHOISTARGUMENTRELAYOUTS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
/// The relayout of one argument: the ops, in block order, and the one
/// relaid-out tensor the rest of the function uses.
struct ArgumentRelayout {
  SmallVector<Operation *> ops;
  /// The side-effect-free ops (from no argument) that compute the other
  /// operands of `ops` (padding values, destinations), in block order.
  SmallVector<Operation *> inputs;
  Value packed;
};
} // namespace

/// Whether \p use moves its tensor into another layout: the source (operand
/// #0) of a one-result relayout op.
static bool isRelayoutUse(OpOperand &use) {
  Operation *op = use.getOwner();
  return use.getOperandNumber() == 0 && op->getNumResults() == 1 &&
         isa<linalg::PackOp, linalg::UnPackOp, linalg::TransposeOp,
             tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::PadOp,
             tensor::CastOp>(op);
}

static void sortInBlockOrder(SmallVectorImpl<Operation *> &ops) {
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

/// "argument #<n> of @<f> (marked 'mx.prepack') " for diagnostics.
static InFlightDiagnostic emitArgumentError(func::FuncOp func,
                                            BlockArgument arg) {
  return func.emitError() << "argument #" << arg.getArgNumber() << " of @"
                          << func.getName() << " (marked '" << kPrepackAttrName
                          << "') ";
}

/// Adds to \p inputs the ops computing \p value and what they use; fails
/// (with an error about \p arg) when one of them reads a block argument or
/// has side effects: it cannot run without the function's other inputs.
static LogicalResult collectInputs(func::FuncOp func, BlockArgument arg,
                                   Value value,
                                   llvm::SetVector<Operation *> &inputs) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return emitArgumentError(func, arg)
           << "cannot be packed on its own: its relayout reads another "
              "block argument";
  if (inputs.contains(def))
    return success();
  if (!isMemoryEffectFree(def))
    return emitArgumentError(func, arg).attachNote(def->getLoc())
           << "its relayout reads the result of '" << def->getName()
           << "', which has side effects";
  llvm::SetVector<Value> used(llvm::from_range, def->getOperands());
  getUsedValuesDefinedAbove(def->getRegions(), used);
  for (Value operand : used)
    if (failed(collectInputs(func, arg, operand, inputs)))
      return failure();
  inputs.insert(def);
  return success();
}

/// The relayout of \p arg in \p func; emits an error and fails when the
/// argument is not only relaid out, or into more than one tensor.
static FailureOr<ArgumentRelayout> getArgumentRelayout(func::FuncOp func,
                                                       BlockArgument arg) {
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> leaves, worklist{arg};
  Block &body = func.front();
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    bool usedElsewhere = false;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isRelayoutUse(use) && user->getBlock() == &body) {
        if (ops.insert(user))
          worklist.push_back(user->getResult(0));
        continue;
      }
      if (value == arg) {
        InFlightDiagnostic diag = emitArgumentError(func, arg);
        if (isRelayoutUse(use))
          diag << "is relaid out inside '" << user->getParentOp()->getName()
               << "' (e.g. once per M bucket of mx-specialize-dynamic-m, "
                  "each bucket with its own layout): it can be packed once "
                  "only where the function's body relays it out";
        else
          diag << "is used by '" << user->getName()
               << "', which is not a relayout: only an argument whose uses "
                  "are all its data-tiling relayout (linalg.pack, "
                  "tensor.expand_shape, linalg.transpose, ...) can be packed "
                  "once, outside the function";
        diag.attachNote(user->getLoc()) << "used here";
        return diag;
      }
      usedElsewhere = true;
    }
    if (usedElsewhere)
      leaves.push_back(value);
  }
  if (leaves.empty())
    return emitArgumentError(func, arg)
           << "has no relayout that the function uses: nothing to pack (is "
              "it an operand of an encoded contraction, after "
              "mx-materialize-encodings?)";
  if (leaves.size() > 1 ||
      llvm::any_of(leaves.front().getUsers(),
                   [&](Operation *user) { return ops.contains(user); }))
    return emitArgumentError(func, arg)
           << "is relaid out into " << std::max<size_t>(leaves.size(), 2)
           << " tensors that the function uses (e.g. two layouts); it can "
              "be packed once only into one";

  ArgumentRelayout relayout;
  relayout.ops = ops.takeVector();
  sortInBlockOrder(relayout.ops);
  relayout.packed = leaves.front();
  llvm::SetVector<Operation *> inputs;
  llvm::SmallPtrSet<Operation *, 8> inChain(llvm::from_range, relayout.ops);
  for (Operation *op : relayout.ops) {
    llvm::SetVector<Value> used(llvm::from_range, op->getOperands());
    getUsedValuesDefinedAbove(op->getRegions(), used);
    for (Value operand : used) {
      Operation *def = operand.getDefiningOp();
      if (operand == arg || (def && inChain.contains(def)))
        continue;
      if (failed(collectInputs(func, arg, operand, inputs)))
        return failure();
    }
  }
  relayout.inputs = inputs.takeVector();
  sortInBlockOrder(relayout.inputs);
  return relayout;
}

/// Moves \p relayout of \p arg into a new function inserted after \p after
/// into \p symbols and returns it; \p arg takes the packed tensor.
static func::FuncOp outlineRelayout(RewriterBase &rewriter, func::FuncOp func,
                                    BlockArgument arg,
                                    const ArgumentRelayout &relayout,
                                    SymbolTable &symbols, Operation *after) {
  unsigned index = arg.getArgNumber();
  Location loc = arg.getLoc();
  auto type = FunctionType::get(rewriter.getContext(), {arg.getType()},
                                {relayout.packed.getType()});
  auto prepack = func::FuncOp::create(
      loc, (func.getName() + "_prepack_" + Twine(index)).str(), type);
  // Renamed (with a suffix) if the name is taken.
  symbols.insert(prepack, std::next(Block::iterator(after)));

  OpBuilder::InsertionGuard guard(rewriter);
  Block *body = prepack.addEntryBlock();
  rewriter.setInsertionPointToStart(body);
  IRMapping mapping;
  mapping.map(arg, body->getArgument(0));
  for (Operation *op : relayout.inputs)
    rewriter.clone(*op, mapping);
  for (Operation *op : relayout.ops)
    rewriter.clone(*op, mapping);
  func::ReturnOp::create(rewriter, loc, mapping.lookup(relayout.packed));

  // The function takes the packed tensor; the relayout is gone from it (its
  // inputs are left to the canonicalizer, other ops may use them).
  arg.setType(relayout.packed.getType());
  rewriter.replaceAllUsesWith(relayout.packed, arg);
  for (Operation *op : llvm::reverse(relayout.ops))
    rewriter.eraseOp(op);
  func.removeArgAttr(index, kPrepackAttrName);
  func.setArgAttr(index, kPrepackedByAttrName,
                  FlatSymbolRefAttr::get(prepack.getSymNameAttr()));
  return prepack;
}

FailureOr<SmallVector<func::FuncOp>>
mlir::mx::hoistArgumentRelayouts(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<BlockArgument> marked;
  for (unsigned index = 0, e = func.getNumArguments(); index < e; ++index) {
    Attribute attr = func.getArgAttr(index, kPrepackAttrName);
    if (!attr)
      continue;
    if (!isa<UnitAttr>(attr))
      return func.emitError()
             << "'" << kPrepackAttrName << "' of argument #" << index
             << " must be a unit attribute, got " << attr;
    if (func.isDeclaration())
      return func.emitError() << "'" << kPrepackAttrName
                              << "' on an argument of a declaration: only "
                                 "a function's own relayouts can be hoisted";
    marked.push_back(func.getArgument(index));
  }
  if (marked.empty())
    return SmallVector<func::FuncOp>();
  Operation *symbolTableOp = func->getParentWithTrait<OpTrait::SymbolTable>();
  if (!symbolTableOp || !SymbolTable::symbolKnownUseEmpty(func, symbolTableOp))
    return func.emitError()
           << "@" << func.getName() << " has arguments marked '"
           << kPrepackAttrName
           << "' but is called in the module: its callers would have to pass "
              "the packed tensors; mark the arguments of the entry function "
              "instead";
  for (BlockArgument arg : marked)
    if (!isa<RankedTensorType>(arg.getType()))
      return emitArgumentError(func, arg)
             << "has type " << arg.getType() << "; only ranked tensors are "
             << "relaid out";

  SymbolTable symbols(symbolTableOp);
  SmallVector<func::FuncOp> prepacks;
  for (BlockArgument arg : marked) {
    FailureOr<ArgumentRelayout> relayout = getArgumentRelayout(func, arg);
    if (failed(relayout))
      return failure();
    // After @func and the packing functions before, in argument order.
    Operation *after = prepacks.empty() ? func : prepacks.back();
    prepacks.push_back(
        outlineRelayout(rewriter, func, arg, *relayout, symbols, after));
  }
  SmallVector<Type> inputs(func.getArgumentTypes());
  for (BlockArgument arg : marked)
    inputs[arg.getArgNumber()] = arg.getType();
  func.setFunctionType(
      FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
  return prepacks;
}

namespace {
struct MXHoistArgumentRelayoutsPass
    : mx::impl::MXHoistArgumentRelayoutsBase<MXHoistArgumentRelayoutsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto func : llvm::to_vector(getOperation().getOps<func::FuncOp>()))
      if (failed(hoistArgumentRelayouts(rewriter, func)))
        return signalPassFailure();
  }
};
} // namespace
