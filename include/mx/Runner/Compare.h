//===- Compare.h - comparing and printing tensors for mx-run ----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_COMPARE_H
#define MX_RUNNER_COMPARE_H

#include "mx/Runner/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::mx {

struct ReferenceResults;

/// Tolerances of a comparison. They apply to f16, bf16, f32 and f64 results
/// only: an element matches if both are NaN, or if
/// |got - want| <= atol + rtol * |want|. With rtol == atol == 0 (the default)
/// the bits must be equal (so +0 and -0 differ), NaN still matching any NaN.
/// Integer, MX element and f8E8M0FNU results always compare bit for bit.
///
/// Results of scaled contractions can also be compared relative to the sum of
/// the magnitudes of their terms, absSum = |acc| + sum |a*b| per element
/// (ReferenceResults::absSums): |got - want| <= ... + sumTol * absSum, and
/// within a per-element bound (ReferenceResults::bounds).
struct CompareOptions {
  double rtol = 0;
  double atol = 0;
  double sumTol = 0;
  /// How many mismatching elements a report lists.
  unsigned maxReported = 5;
};

/// One mismatching element.
struct Mismatch {
  int64_t index;
  uint64_t gotBits, wantBits;
  /// The largest |got - want| the tolerances allowed there; negative where
  /// the bits had to be equal.
  double allowed = -1;
};

/// The outcome of comparing two tensors.
struct CompareResult {
  /// Set when the types differ; nothing else is filled in then.
  std::string typeError;
  int64_t numElements = 0;
  int64_t numMismatches = 0;
  /// Over the elements where both values are finite.
  double maxAbsErr = 0;
  double maxRelErr = 0;
  /// Every element has identical bits (NaN payloads aside).
  bool bitExact = true;
  /// Largest distance in units in the last place (f16/bf16/f32/f64) between
  /// finite values of the same sign convention: the number of representable
  /// values from one to the other.
  uint64_t maxUlp = 0;
  /// The first element at that distance, and its absSum (with absSums).
  int64_t maxUlpIndex = 0;
  double maxUlpAbsSum = 0;
  /// With absSums: the largest |got - want| / absSum over finite elements
  /// (0 where absSum is 0 and the values are equal).
  double maxErrPerAbsSum = 0;
  /// The comparison had absSums / bounds.
  bool hasAbsSums = false, hasBounds = false;
  /// The first mismatches, at most CompareOptions::maxReported.
  SmallVector<Mismatch> mismatches;

  bool passed() const { return typeError.empty() && numMismatches == 0; }
};

/// Compares \p got with the known-good \p want; \p absSums and \p bounds
/// are empty or have one value per element (see CompareOptions).
CompareResult compareTensors(const HostTensor &got, const HostTensor &want,
                             const CompareOptions &options,
                             ArrayRef<double> absSums = {},
                             ArrayRef<double> bounds = {});

/// Prints the report of result \p resultIndex, e.g.
///   result #0 tensor<64x64xf32>: max_abs_err=0 max_rel_err=0
///   mismatches=0/4096 (rtol=0, atol=0): bit-exact
/// then, for a result that is not bit-exact and has absSums, e.g.
///   max_err/sum|a*b|=1.2e-07 max_ulp=2 at [3, 1] (got 0.25, want 0.5,
///   sum|a*b| 1e+06) (sum_tol=1e-06)
/// followed by one indented line per listed mismatch.
void printCompareResult(llvm::raw_ostream &os, unsigned resultIndex,
                        const HostTensor &got, const HostTensor &want,
                        const CompareResult &result,
                        const CompareOptions &options);

/// Compares the results \p got with \p want one by one and prints each
/// report (printCompareResult); with \p reference (the evaluation that gave
/// \p want), within its absSums and bounds, each result's note first
/// ("note: result #0: ..."). Returns true if all match.
bool compareAll(llvm::raw_ostream &os, ArrayRef<HostTensor> got,
                ArrayRef<HostTensor> want, const CompareOptions &options,
                const ReferenceResults *reference = nullptr);

/// Formats one element for humans: the decoded value, plus the code in hex
/// for MX element and f8E8M0FNU types.
std::string formatElement(ElementKind kind, uint64_t bits);

/// Prints `result #i tensor<...> = [v0, v1, ...]` with at most \p limit
/// values (all of them when limit is 0).
void printTensor(llvm::raw_ostream &os, StringRef label,
                 const HostTensor &tensor, unsigned limit);

} // namespace mlir::mx

#endif // MX_RUNNER_COMPARE_H
