//===- LaunchPlan.cpp - printing a host program's launches ----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/LaunchPlan.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mx;

unsigned LaunchPlanPrinter::getBufferId(const emu::HostBuffer *buffer) {
  auto [it, inserted] = bufferIds.try_emplace(buffer, bufferIds.size());
  return it->second;
}

static void printDims(llvm::raw_ostream &os, ArrayRef<int64_t> dims) {
  llvm::interleave(dims, os, "x");
}

void LaunchPlanPrinter::print(const emu::LaunchInfo &launch) {
  os << "launch #" << launch.index << " " << launch.symbol << " grid ";
  printDims(os, launch.grid);
  os << " block ";
  printDims(os, launch.block);
  os << "\n";
  TypeRange types = gpu::GPUFuncOp(launch.kernel).getArgumentTypes();
  for (auto [index, arg] : llvm::enumerate(launch.args)) {
    os << "  arg #" << index;
    if (index < types.size())
      os << " " << types[index];
    os << ": ";
    switch (arg.getKind()) {
    case emu::HostValue::Kind::MemRef: {
      const emu::StridedLayout &layout = arg.getLayout();
      const emu::HostBuffer *buffer = arg.getBuffer().get();
      if (buffer && !bufferIds.count(buffer))
        numbered.push_back(arg.getBuffer());
      os << "buffer #" << getBufferId(buffer) << " ("
         << (buffer ? buffer->size() : 0) << " bytes";
      if (!arg.getName().empty())
        os << ", " << arg.getName();
      os << "), offset " << layout.offset << ", sizes [";
      llvm::interleaveComma(layout.sizes, os);
      os << "], strides [";
      llvm::interleaveComma(layout.strides, os);
      os << "]\n";
      break;
    }
    case emu::HostValue::Kind::Integer:
      os << arg.getInteger() << "\n";
      break;
    case emu::HostValue::Kind::Float:
      os << arg.getFloat() << "\n";
      break;
    }
  }
}

int64_t mlir::mx::getViewBytes(const emu::LaunchInfo &launch,
                               unsigned operand) {
  const emu::HostValue &arg = launch.args[operand];
  if (arg.getKind() != emu::HostValue::Kind::MemRef)
    return 0;
  auto type = dyn_cast<MemRefType>(
      gpu::GPUFuncOp(launch.kernel).getArgumentTypes()[operand]);
  if (!type)
    return 0;
  const emu::StridedLayout &layout = arg.getLayout();
  int64_t last = 0;
  for (auto [size, stride] : llvm::zip(layout.sizes, layout.strides)) {
    if (size == 0)
      return 0;
    last += (size - 1) * std::abs(stride);
  }
  Type elementType = type.getElementType();
  int64_t elementBytes =
      elementType.isIndex() ? 8
      : elementType.isIntOrFloat()
          ? (int64_t(elementType.getIntOrFloatBitWidth()) + 7) / 8
          : 0;
  return (last + 1) * elementBytes;
}
