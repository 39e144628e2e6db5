//===- MXDialect.cpp - mx dialect -----------------------------------------===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/Dialect/MX/IR/MXOps.h"

using namespace mlir;
using namespace mlir::mx;

#include "mx/Dialect/MX/IR/MXOpsDialect.cpp.inc"

void MXDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "mx/Dialect/MX/IR/MXOps.cpp.inc"
      >();
}
