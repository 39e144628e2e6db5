//===- BufferizableOpInterfaceImpl.h - mx bufferization ---------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define MX_DIALECT_MX_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace mx {
/// Makes mx.tiled_scaled_mma bufferizable by one-shot bufferization: all
/// operands are read, acc is written in place and is the result's buffer.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace mx
} // namespace mlir

#endif // MX_DIALECT_MX_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
