//===- CompareTest.cpp - result comparison tests --------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/Compare.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace mlir;
using namespace mlir::mx;

namespace {

HostTensor makeF32(std::initializer_list<double> values) {
  HostTensor tensor(
      HostTensorType(ElementKind::F32, {static_cast<int64_t>(values.size())}));
  int64_t i = 0;
  for (double value : values)
    tensor.setBits(i++, *encodeElement(ElementKind::F32, value));
  return tensor;
}

std::string report(const HostTensor &got, const HostTensor &want,
                   const CompareOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printCompareResult(os, 0, got, want, compareTensors(got, want, options),
                     options);
  return text;
}

TEST(Compare, BitExactByDefault) {
  HostTensor a = makeF32({1, 2, NAN, -0.0});
  HostTensor b = makeF32({1, 2, NAN, -0.0});
  CompareResult result = compareTensors(a, b, {});
  EXPECT_TRUE(result.passed());
  EXPECT_TRUE(result.bitExact);
  EXPECT_EQ(report(a, b, {}),
            "result #0 tensor<4xf32>: max_abs_err=0 max_rel_err=0 "
            "mismatches=0/4 (rtol=0, atol=0): bit-exact\n");
}

TEST(Compare, SignedZerosDifferWithoutTolerance) {
  HostTensor a = makeF32({0.0, 1});
  HostTensor b = makeF32({-0.0, 1});
  EXPECT_FALSE(compareTensors(a, b, {}).passed());
  CompareOptions loose;
  loose.atol = 1e-30;
  CompareResult result = compareTensors(a, b, loose);
  EXPECT_TRUE(result.passed());
  EXPECT_FALSE(result.bitExact);
}

TEST(Compare, ToleranceAndReport) {
  HostTensor got = makeF32({1.0, 2.5, 3, INFINITY, 5});
  HostTensor want = makeF32({1.0, 2.0, 3.25, INFINITY, NAN});
  CompareOptions options;
  options.rtol = 0.1;
  options.maxReported = 1;
  CompareResult result = compareTensors(got, want, options);
  // 2.5 vs 2: |0.5| > 0.2 fails; 3 vs 3.25: 0.25 <= 0.325 passes; 5 vs NaN
  // fails.
  EXPECT_EQ(result.numMismatches, 2);
  EXPECT_EQ(result.maxAbsErr, 0.5);
  EXPECT_EQ(result.maxRelErr, 0.25);
  EXPECT_EQ(report(got, want, options),
            "result #0 tensor<5xf32>: max_abs_err=0.5 max_rel_err=0.25 "
            "mismatches=2/5 (rtol=0.1, atol=0): FAIL\n"
            "  at [1]: got 2.5, want 2 (|got - want| 0.5 > allowed 0.2)\n"
            "  ... and 1 more\n");
}

/// Tolerances relative to |acc| + sum |a*b| and per-element bounds: an
/// element matches within atol + rtol |want| + sumTol * absSum + bound.
TEST(Compare, SumToleranceAndBounds) {
  float one = 1.0f;
  float twoUlps = std::nextafter(std::nextafter(one, 2.0f), 2.0f);
  HostTensor got = makeF32({twoUlps, 4});
  HostTensor want = makeF32({1, 4});
  double diff = double(twoUlps) - 1.0; // 2^-22.
  std::vector<double> absSums = {100, 100};

  CompareResult exact = compareTensors(got, want, {});
  EXPECT_EQ(exact.numMismatches, 1);
  EXPECT_EQ(exact.maxUlp, 2u);
  EXPECT_FALSE(exact.hasAbsSums);

  CompareOptions sumTol;
  sumTol.sumTol = diff / 100;
  CompareResult within = compareTensors(got, want, sumTol, absSums);
  EXPECT_TRUE(within.passed());
  EXPECT_FALSE(within.bitExact);
  EXPECT_DOUBLE_EQ(within.maxErrPerAbsSum, diff / 100);
  sumTol.sumTol = diff / 200;
  EXPECT_FALSE(compareTensors(got, want, sumTol, absSums).passed());

  std::vector<double> bounds = {diff, 0};
  EXPECT_TRUE(compareTensors(got, want, {}, absSums, bounds).passed());
  bounds[0] = diff / 2;
  EXPECT_FALSE(compareTensors(got, want, {}, absSums, bounds).passed());

  std::string text;
  llvm::raw_string_ostream os(text);
  sumTol.sumTol = 1e-6;
  printCompareResult(os, 0, got, want,
                     compareTensors(got, want, sumTol, absSums), sumTol);
  EXPECT_NE(text.find("max_err/sum|a*b|=2.38418579e-09 max_ulp=2 at [0] "
                      "(got 1.00000024, want 1, sum|a*b| 100) "
                      "(sum_tol=1e-06)"),
            std::string::npos)
      << text;
}

TEST(Compare, CodeTypesCompareExactlyWhateverTheTolerance) {
  HostTensor got(HostTensorType(ElementKind::F4E2M1FN, {2}));
  HostTensor want(HostTensorType(ElementKind::F4E2M1FN, {2}));
  got.data = {0x2, 0x3};
  want.data = {0x2, 0x4};
  CompareOptions options;
  options.atol = 10;
  EXPECT_EQ(report(got, want, options),
            "result #0 tensor<2xf4E2M1FN>: max_abs_err=0.5 max_rel_err=0.25 "
            "mismatches=1/2 (exact): FAIL\n"
            "  at [1]: got 1.5 (0x3), want 2 (0x4)\n");
}

TEST(Compare, TypeMismatch) {
  HostTensor got = makeF32({1, 2});
  HostTensor want = makeF32({1, 2, 3});
  CompareResult result = compareTensors(got, want, {});
  EXPECT_FALSE(result.passed());
  EXPECT_EQ(result.typeError, "got tensor<2xf32> but expected tensor<3xf32>");
}

TEST(Compare, PrintTensor) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printTensor(os, "result #1", makeF32({1, 0.5, -2, 3}), 3);
  EXPECT_EQ(text, "result #1 tensor<4xf32> = [1, 0.5, -2, ... (1 more)]\n");
}

} // namespace
