//===- ControlFlow.cpp - control flow and masks in the wave emulator ------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// scf.for (bounds uniform over the active threads), scf.if (a divergent
// condition runs both regions, each under the mask of the threads that take
// it, and merges the results per thread) and func.call.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

void Interpreter::registerControlFlowHandlers(HandlerTable &table) {
  table.add<scf::ForOp>(
      [](Interpreter &self, scf::ForOp op) { return self.execFor(op); });
  table.add<scf::IfOp>(
      [](Interpreter &self, scf::IfOp op) { return self.execIf(op); });
  table.add<func::CallOp>(
      [](Interpreter &self, func::CallOp op) { return self.execCall(op); });
}

//===----------------------------------------------------------------------===//
// Control flow and calls
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execFor(scf::ForOp op) {
  FailureOr<int64_t> lb =
      getUniformInt(op, op.getLowerBound(), "the lower bound");
  if (failed(lb))
    return failure();
  FailureOr<int64_t> ub =
      getUniformInt(op, op.getUpperBound(), "the upper bound");
  if (failed(ub))
    return failure();
  FailureOr<int64_t> step = getUniformInt(op, op.getStep(), "the step");
  if (failed(step))
    return failure();
  Type ivType = op.getInductionVar().getType();
  unsigned width = getScalarBits(ivType);
  bool isUnsigned = op.getUnsignedCmp();
  if (isUnsigned ? (uint64_t(*step) & maskBits(width)) == 0 : *step <= 0)
    return fail(op, "the step " + Twine(*step) + " is not positive");
  SmallVector<RtValue> iterValues;
  for (Value init : op.getInitArgs()) {
    const RtValue *rt = lookup(op, init);
    if (!rt)
      return failure();
    iterValues.push_back(*rt);
  }
  SmallVector<RtValue> blockArgs, yielded;
  uint64_t mask = maskBits(width);
  auto less = [&](int64_t a, int64_t b) {
    return isUnsigned ? (uint64_t(a) & mask) < (uint64_t(b) & mask) : a < b;
  };
  for (int64_t iv = *lb; less(iv, *ub);) {
    blockArgs.clear();
    RtValue ivValue;
    ivValue.reg = uniformInt(ivType, iv);
    blockArgs.push_back(std::move(ivValue));
    llvm::append_range(blockArgs, iterValues);
    if (failed(runBlock(*op.getBody(), blockArgs, yielded)))
      return failure();
    iterValues = yielded;
    // Stop before the induction variable wraps around its type.
    int64_t next = int64_t(uint64_t(iv) + uint64_t(*step));
    if (isUnsigned ? (uint64_t(next) & mask) < (uint64_t(iv) & mask)
                   : signExtend(uint64_t(next) & mask, width) < iv)
      break;
    iv = isUnsigned ? int64_t(uint64_t(next) & mask)
                    : signExtend(uint64_t(next) & mask, width);
  }
  for (auto [result, value] : llvm::zip(op.getResults(), iterValues))
    values[result] = value;
  return success();
}

LogicalResult Interpreter::execIf(scf::IfOp op) {
  const Reg *conditionReg = getReg(op, op.getCondition());
  if (!conditionReg)
    return failure();
  // A copy: running the regions adds values, which may move the original.
  const Reg conditionCopy = *conditionReg;
  const Reg *condition = &conditionCopy;
  auto takes = [&](int64_t t) { return bool(condition->at(t)[0] & 1); };
  bool anyThen = false, anyElse = false;
  if (condition->uniform) {
    (takes(0) ? anyThen : anyElse) = true;
  } else {
    for (int64_t t = 0; t < numThreads; ++t)
      if (isActive(t))
        (takes(t) ? anyThen : anyElse) = true;
  }
  // All active threads agree: one region, under the current mask.
  if (!anyThen || !anyElse) {
    Region &region = anyThen ? op.getThenRegion() : op.getElseRegion();
    SmallVector<RtValue> yielded;
    if (!region.empty() && failed(runBlock(region.front(), {}, yielded)))
      return failure();
    for (auto [result, value] : llvm::zip(op.getResults(), yielded))
      values[result] = value;
    return success();
  }

  // Divergent: each region runs for the active threads that take it.
  SmallVector<uint8_t> outerMask = activeMask;
  SmallVector<uint8_t> thenMask(numThreads), elseMask(numThreads);
  for (int64_t t = 0; t < numThreads; ++t) {
    bool active = outerMask.empty() || outerMask[t];
    thenMask[t] = active && takes(t);
    elseMask[t] = active && !takes(t);
  }
  SmallVector<RtValue> thenValues, elseValues;
  activeMask = thenMask;
  LogicalResult result = runBlock(op.getThenRegion().front(), {}, thenValues);
  if (succeeded(result) && !op.getElseRegion().empty()) {
    activeMask = elseMask;
    result = runBlock(op.getElseRegion().front(), {}, elseValues);
  }
  activeMask = outerMask;
  if (failed(result))
    return failure();

  // Merge the results per thread by the condition.
  for (auto [i, opResult] : llvm::enumerate(op.getResults())) {
    const RtValue &a = thenValues[i], &b = elseValues[i];
    if (a.isMem || b.isMem) {
      // Views of one storage that differ only in their offsets merge into a
      // view with a per-thread offset.
      bool mergeable = a.isMem && b.isMem && a.mem.storage == b.mem.storage &&
                       a.mem.threadStride == b.mem.threadStride &&
                       a.mem.sizes == b.mem.sizes &&
                       a.mem.strides == b.mem.strides &&
                       a.mem.elemBytes == b.mem.elemBytes;
      if (!mergeable)
        return fail(op, "result #" + Twine(i) +
                            ": divergent branches yield views of different "
                            "memory or shapes (not supported)");
      RtValue merged = a;
      auto offsets = std::make_shared<std::vector<int64_t>>(numThreads, 0);
      for (int64_t t = 0; t < numThreads; ++t)
        (*offsets)[t] = (takes(t) ? a : b).mem.getOffset(t);
      merged.mem.offset = 0;
      merged.mem.baseOffset = 0;
      merged.mem.threadOffset = std::move(offsets);
      values[opResult] = std::move(merged);
      continue;
    }
    if (a.reg.bytes != b.reg.bytes)
      return fail(op, "result #" + Twine(i) + " has different sizes");
    RtValue merged;
    merged.reg = Reg(a.reg.bytes, /*uniform=*/false, numThreads);
    for (int64_t t = 0; t < numThreads; ++t)
      std::memcpy(merged.reg.at(t), (takes(t) ? a : b).reg.at(t), a.reg.bytes);
    values[opResult] = std::move(merged);
  }
  return success();
}

LogicalResult Interpreter::execCall(func::CallOp op) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, op.getCalleeAttr());
  if (!callee || callee.isExternal())
    return fail(op, "call to @" + op.getCallee() +
                        ", which is not a function defined in the module");
  if (!callee.getBody().hasOneBlock())
    return fail(op, "the callee has unstructured control flow");
  if (llvm::is_contained(callStack, callee.getOperation()))
    return fail(op, "recursive calls are not supported");
  if (int64_t(callStack.size()) >= kMaxCallDepth)
    return fail(op, "calls nested too deeply");
  SmallVector<RtValue> args, results;
  for (Value operand : op.getOperands()) {
    const RtValue *rt = lookup(op, operand);
    if (!rt)
      return failure();
    args.push_back(*rt);
  }
  callStack.push_back(callee);
  LogicalResult result = runBlock(callee.getBody().front(), args, results);
  callStack.pop_back();
  if (failed(result))
    return failure();
  for (auto [value, rt] : llvm::zip(op.getResults(), results))
    values[value] = rt;
  return success();
}
