//===- TestTarget.h - a target-independent test target ----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TEST_TESTTARGET_H
#define MX_TEST_TESTTARGET_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/Dialect.h"

#include "TestTargetDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TestTargetAttrs.h.inc"

namespace mlir {
class DialectRegistry;
namespace mx::test {
/// Registers the `mx_test` dialect.
void registerTestTarget(DialectRegistry &registry);
} // namespace mx::test
} // namespace mlir

#endif // MX_TEST_TESTTARGET_H
