//===- CheckedArith.h - products of user numbers that cannot wrap -*- C++ -*-=//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rule (docs/guides/robustness.md, "Checked arithmetic"): a
// product, sum or shift of numbers that come from a user (shapes, attribute
// values, map constants, option values) is computed with llvm::checkedMul,
// llvm::checkedAdd (llvm/Support/CheckedArithmetic.h) or the helpers here,
// and an overflow is a diagnostic, never a wrapped value.
//
//===----------------------------------------------------------------------===//

#ifndef MX_SUPPORT_CHECKEDARITH_H
#define MX_SUPPORT_CHECKEDARITH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <optional>

namespace mlir::mx {

/// The product of \p sizes, or nullopt when it overflows int64_t or a size
/// is negative (e.g. ShapedType::kDynamic: the product is then unknown).
inline std::optional<int64_t> getCheckedProduct(llvm::ArrayRef<int64_t> sizes) {
  int64_t product = 1;
  for (int64_t size : sizes) {
    if (size < 0)
      return std::nullopt;
    std::optional<int64_t> next = llvm::checkedMul(product, size);
    if (!next)
      return std::nullopt;
    product = *next;
  }
  return product;
}

} // namespace mlir::mx

#endif // MX_SUPPORT_CHECKEDARITH_H
