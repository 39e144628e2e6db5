//===- Compare.cpp - comparing and printing tensors for mx-run ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/Compare.h"

#include "mx/Runner/ReferenceEvaluator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mx;

/// Returns the position of the IEEE value \p bits of \p kind on a line where
/// consecutive representable values are consecutive integers (-0 and +0
/// both 0).
static int64_t orderedBits(ElementKind kind, uint64_t bits) {
  unsigned width = getBitWidth(kind);
  uint64_t sign = uint64_t(1) << (width - 1);
  int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude : magnitude;
}

CompareResult mlir::mx::compareTensors(const HostTensor &got,
                                       const HostTensor &want,
                                       const CompareOptions &options,
                                       ArrayRef<double> absSums,
                                       ArrayRef<double> bounds) {
  CompareResult result;
  if (got.type != want.type) {
    result.typeError =
        "got " + got.type.str() + " but expected " + want.type.str();
    result.bitExact = false;
    return result;
  }
  ElementKind kind = got.getElementKind();
  result.numElements = got.getNumElements();
  result.hasAbsSums = int64_t(absSums.size()) == result.numElements;
  result.hasBounds = int64_t(bounds.size()) == result.numElements;
  bool exact =
      !isIEEEFloat(kind) ||
      (options.rtol == 0 && options.atol == 0 &&
       (options.sumTol == 0 || !result.hasAbsSums) && !result.hasBounds);
  for (int64_t i = 0; i < result.numElements; ++i) {
    uint64_t gotBits = got.getBits(i), wantBits = want.getBits(i);
    double gotValue = decodeElement(kind, gotBits);
    double wantValue = decodeElement(kind, wantBits);
    bool bothNaN = std::isnan(gotValue) && std::isnan(wantValue);
    // NaN codes of the code types must match exactly; IEEE NaNs match any
    // NaN.
    bool sameBits = gotBits == wantBits || (bothNaN && isIEEEFloat(kind));
    if (!sameBits)
      result.bitExact = false;

    if (std::isfinite(gotValue) && std::isfinite(wantValue)) {
      double absErr = std::fabs(gotValue - wantValue);
      double relErr = absErr == 0      ? 0
                      : wantValue == 0 ? INFINITY
                                       : absErr / std::fabs(wantValue);
      result.maxAbsErr = std::max(result.maxAbsErr, absErr);
      result.maxRelErr = std::max(result.maxRelErr, relErr);
      if (isIEEEFloat(kind)) {
        int64_t distance =
            orderedBits(kind, gotBits) - orderedBits(kind, wantBits);
        uint64_t ulps = distance < 0 ? -uint64_t(distance) : distance;
        if (ulps > result.maxUlp) {
          result.maxUlp = ulps;
          result.maxUlpIndex = i;
          result.maxUlpAbsSum = result.hasAbsSums ? absSums[i] : 0;
        }
      }
      if (result.hasAbsSums && absErr != 0)
        result.maxErrPerAbsSum =
            std::max(result.maxErrPerAbsSum,
                     absSums[i] == 0 ? double(INFINITY) : absErr / absSums[i]);
    }

    bool matches;
    double allowed = -1;
    if (exact) {
      matches = sameBits;
    } else {
      allowed = options.atol + options.rtol * std::fabs(wantValue);
      if (result.hasAbsSums)
        allowed += options.sumTol * absSums[i];
      if (result.hasBounds)
        allowed += bounds[i];
      matches = bothNaN || gotValue == wantValue ||
                std::fabs(gotValue - wantValue) <= allowed;
    }
    if (!matches) {
      ++result.numMismatches;
      if (result.mismatches.size() < options.maxReported)
        result.mismatches.push_back({i, gotBits, wantBits, allowed});
    }
  }
  return result;
}

/// Formats a double compactly ("0", "1.5", "3.0518e-05", "inf", "nan").
static std::string formatDouble(double value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (std::isnan(value))
    os << "nan";
  else if (std::isinf(value))
    os << (value < 0 ? "-inf" : "inf");
  else
    os << llvm::format("%.9g", value);
  return text;
}

std::string mlir::mx::formatElement(ElementKind kind, uint64_t bits) {
  std::string text = formatDouble(decodeElement(kind, bits));
  if (isCodeType(kind))
    text += " (0x" + llvm::utohexstr(bits, /*LowerCase=*/true) + ")";
  else if (isIEEEFloat(kind) && std::isnan(decodeElement(kind, bits)))
    text += " (0x" + llvm::utohexstr(bits, /*LowerCase=*/true) + ")";
  return text;
}

void mlir::mx::printCompareResult(llvm::raw_ostream &os, unsigned resultIndex,
                                  const HostTensor &got, const HostTensor &want,
                                  const CompareResult &result,
                                  const CompareOptions &options) {
  os << "result #" << resultIndex << " " << got.type.str() << ": ";
  if (!result.typeError.empty()) {
    os << result.typeError << ": FAIL\n";
    return;
  }
  ElementKind kind = got.getElementKind();
  os << "max_abs_err=" << formatDouble(result.maxAbsErr)
     << " max_rel_err=" << formatDouble(result.maxRelErr)
     << " mismatches=" << result.numMismatches << "/" << result.numElements;
  if (isIEEEFloat(kind))
    os << " (rtol=" << formatDouble(options.rtol)
       << ", atol=" << formatDouble(options.atol) << ")";
  else
    os << " (exact)";
  if (!result.passed())
    os << ": FAIL\n";
  else if (result.bitExact)
    os << ": bit-exact\n";
  else
    os << ": within tolerance\n";
  if (result.hasAbsSums && !result.bitExact) {
    int64_t at = result.maxUlpIndex;
    os << "  max_err/sum|a*b|=" << formatDouble(result.maxErrPerAbsSum)
       << " max_ulp=" << result.maxUlp << " at "
       << formatIndex(got.type.shape, at) << " (got "
       << formatElement(kind, got.getBits(at)) << ", want "
       << formatElement(kind, want.getBits(at)) << ", sum|a*b| "
       << formatDouble(result.maxUlpAbsSum)
       << ") (sum_tol=" << formatDouble(options.sumTol);
    if (result.hasBounds)
      os << ", plus the bound of an unknown K order";
    os << ")\n";
  }
  for (const Mismatch &mismatch : result.mismatches) {
    os << "  at " << formatIndex(got.type.shape, mismatch.index) << ": got "
       << formatElement(kind, mismatch.gotBits) << ", want "
       << formatElement(kind, mismatch.wantBits);
    // Where a tolerance applied: the error and what it allowed there.
    if (mismatch.allowed >= 0)
      os << " (|got - want| "
         << formatDouble(std::fabs(decodeElement(kind, mismatch.gotBits) -
                                   decodeElement(kind, mismatch.wantBits)))
         << " > allowed " << formatDouble(mismatch.allowed) << ")";
    os << "\n";
  }
  if (result.numMismatches > static_cast<int64_t>(result.mismatches.size()))
    os << "  ... and "
       << result.numMismatches - static_cast<int64_t>(result.mismatches.size())
       << " more\n";
}

bool mlir::mx::compareAll(llvm::raw_ostream &os, ArrayRef<HostTensor> got,
                          ArrayRef<HostTensor> want,
                          const CompareOptions &options,
                          const ReferenceResults *reference) {
  bool passed = true;
  for (auto [index, pair] : llvm::enumerate(llvm::zip_equal(got, want))) {
    auto [gotTensor, wantTensor] = pair;
    ArrayRef<double> absSums, bounds;
    if (reference) {
      if (!reference->notes[index].empty())
        os << "note: result #" << index << ": " << reference->notes[index]
           << "\n";
      absSums = reference->absSums[index];
      bounds = reference->bounds[index];
    }
    CompareResult result =
        compareTensors(gotTensor, wantTensor, options, absSums, bounds);
    printCompareResult(os, index, gotTensor, wantTensor, result, options);
    passed &= result.passed();
  }
  return passed;
}

void mlir::mx::printTensor(llvm::raw_ostream &os, StringRef label,
                           const HostTensor &tensor, unsigned limit) {
  os << label << " " << tensor.type.str() << " = [";
  int64_t n = tensor.getNumElements();
  int64_t shown = limit == 0 ? n : std::min<int64_t>(n, limit);
  for (int64_t i = 0; i < shown; ++i) {
    if (i)
      os << ", ";
    os << formatDouble(tensor.getValue(i));
  }
  if (shown < n)
    os << ", ... (" << n - shown << " more)";
  os << "]\n";
}
