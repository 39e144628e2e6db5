//===- KernelText.h - kernels from instruction text for the ISA tests -----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_UNITTESTS_ISA_KERNELTEXT_H
#define MX_UNITTESTS_ISA_KERNELTEXT_H

#include "mx/Target/GFX950/ISA/Executor.h"

#include "gtest/gtest.h"

namespace mlir::mx::gfx950::isa {

/// Appends the instructions of `texts` to `kernel`, 8 bytes apart from pc
/// 0 (a test failure for one that does not parse).
template <typename Text>
void appendInstructions(Kernel &kernel, llvm::ArrayRef<Text> texts) {
  uint64_t pc = 0;
  for (const Text &text : texts) {
    llvm::Expected<Instruction> inst = parseInstruction(text, pc, 8, 0);
    if (!inst) {
      ADD_FAILURE() << llvm::toString(inst.takeError());
      continue;
    }
    kernel.indexOfPc[pc] = kernel.instructions.size();
    kernel.instructions.push_back(std::move(*inst));
    pc += 8;
  }
}

} // namespace mlir::mx::gfx950::isa

#endif // MX_UNITTESTS_ISA_KERNELTEXT_H
