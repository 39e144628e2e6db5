//===- Interpreter.cpp - dispatch and values of the wave emulator ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The interpreter's dispatch (the HandlerTable filled by the files of each
// concern), the execution of blocks, and the value helpers all files share.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

static_assert(llvm::endianness::native == llvm::endianness::little,
              "the emulator stores values in host byte order");

std::optional<std::string> mlir::mx::emu::detail::verifyOp(Operation *op) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag.str() << "\n";
    return success();
  });
  if (succeeded(mlir::verify(op)))
    return std::nullopt;
  return diagnostics;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

std::string Interpreter::scalarArgument(Type type, const HostValue &arg,
                                        Reg &reg) {
  if (type.isIntOrIndex()) {
    if (arg.getKind() != HostValue::Kind::Integer)
      return " is an integer; pass HostValue::integer";
    reg = uniformInt(type, arg.getInteger());
    return "";
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (arg.getKind() != HostValue::Kind::Float)
      return " is a float; pass HostValue::floating";
    llvm::APFloat value(arg.getFloat());
    bool losesInfo;
    value.convert(floatType.getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    reg = uniformInt(IntegerType::get(type.getContext(), floatType.getWidth()),
                     int64_t(value.bitcastToAPInt().getZExtValue()));
    return "";
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << " has unsupported type " << type;
  return text;
}

std::optional<HostValue> Interpreter::getScalarValue(Type type,
                                                     const Reg &reg) {
  unsigned bits = getScalarBits(type);
  if (!bits || isa<VectorType>(type))
    return std::nullopt;
  uint64_t raw = readBits(reg.at(0), 0, bits);
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return HostValue::integer(signExtend(raw, bits));
  llvm::APFloat value(floatType.getFloatSemantics(), llvm::APInt(bits, raw));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return HostValue::floating(value.convertToDouble());
}

FailureOr<int64_t> Interpreter::getUniformInt(Operation *op, Value value,
                                              StringRef what) {
  const Reg *reg = getReg(op, value);
  if (!reg)
    return failure();
  unsigned bits = getScalarBits(value.getType());
  auto read = [&](int64_t t) {
    return signExtend(readBits(reg->at(t), 0, bits), bits);
  };
  if (reg->uniform)
    return read(0);
  // A per-thread value is fine when all active threads agree.
  int64_t first = firstActive();
  int64_t result = read(first);
  for (int64_t t = first + 1; t < numThreads; ++t)
    if (isActive(t) && read(t) != result)
      return fail(op, what + " is not uniform across the " +
                          (isPartial() ? "active threads of the " : "") +
                          "workgroup (thread " + Twine(first) + ": " +
                          Twine(result) + ", thread " + Twine(t) + ": " +
                          Twine(read(t)) + "; divergence is not supported)");
  return result;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// The handlers of every supported op, built on first use.
static const HandlerTable &getHandlerTable() {
  static const HandlerTable table = [] {
    HandlerTable table;
    Interpreter::registerArithHandlers(table);
    Interpreter::registerMemoryHandlers(table);
    Interpreter::registerVectorHandlers(table);
    Interpreter::registerControlFlowHandlers(table);
    Interpreter::registerGPUHandlers(table);
    Interpreter::registerAMDGPUHandlers(table);
    return table;
  }();
  return table;
}

Interpreter::DecodedOp Interpreter::decodeOp(Operation *op) const {
  if (op->hasTrait<OpTrait::IsTerminator>()) {
    if (!isa<scf::YieldOp, func::ReturnOp, gpu::ReturnOp>(op))
      return {op, nullptr, "unsupported terminator"};
    return {op, nullptr, nullptr};
  }
  Dialect *dialect = op->getDialect();
  if (isHost() && dialect &&
      isa<gpu::GPUDialect, amdgpu::AMDGPUDialect>(dialect) &&
      !isa<gpu::LaunchFuncOp>(op))
    return {op, nullptr, "device operation in host code"};
  if (!isHost() && isa<gpu::LaunchFuncOp, memref::AllocOp, memref::DeallocOp,
                       memref::CopyOp>(op))
    return {op, nullptr, "host operation in a kernel (not supported)"};
  if (const OpHandler *handler = getHandlerTable().lookup(op))
    return {op, handler, nullptr};
  return {op, nullptr, "unsupported operation"};
}

const std::vector<Interpreter::DecodedOp> &
Interpreter::getDecodedBlock(Block &block) {
  std::unique_ptr<std::vector<DecodedOp>> &decoded = decodedBlocks[&block];
  if (!decoded) {
    decoded = std::make_unique<std::vector<DecodedOp>>();
    for (Operation &op : block)
      decoded->push_back(decodeOp(&op));
  }
  return *decoded;
}

LogicalResult Interpreter::runBlock(Block &block, ArrayRef<RtValue> blockArgs,
                                    SmallVectorImpl<RtValue> &yielded) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), blockArgs))
    values[arg] = value;
  for (const DecodedOp &step : getDecodedBlock(block)) {
    ++stats.operations;
    if (step.error)
      return fail(step.op, step.error);
    if (step.handler) {
      if (failed((*step.handler)(*this, step.op)))
        return failure();
      continue;
    }
    // The terminator.
    yielded.clear();
    for (Value operand : step.op->getOperands()) {
      const RtValue *rt = lookup(step.op, operand);
      if (!rt)
        return failure();
      yielded.push_back(*rt);
    }
    return success();
  }
  return fail(block.getParentOp(), "block without terminator");
}
