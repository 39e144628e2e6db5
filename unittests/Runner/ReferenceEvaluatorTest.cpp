//===- ReferenceEvaluatorTest.cpp - op-by-op reference evaluation ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks the operand permutations of the reference evaluator against the
// defining formula of mx.scaled_contraction, evaluated naively here element
// by element (no lowering, no canonical layouts).
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/ReferenceEvaluator.h"
#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/InitMX.h"
#include "mx/Runner/InputSpec.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mx;

namespace {

class ReferenceEvaluatorTest : public ::testing::Test {
protected:
  ReferenceEvaluatorTest() {
    DialectRegistry registry;
    registerMXDialects(registry);
    registerPipelineDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  HostTensor random(StringRef spec, const HostTensorType &type, uint64_t seed) {
    llvm::Expected<InputSpec> parsed = parseInputSpec(spec);
    EXPECT_TRUE(static_cast<bool>(parsed));
    llvm::Expected<HostTensor> tensor = materializeInput(*parsed, type, seed);
    EXPECT_TRUE(static_cast<bool>(tensor));
    return std::move(*tensor);
  }

  MLIRContext context;
};

TEST_F(ReferenceEvaluatorTest, PermutedBatchedContractionMatchesFormula) {
  // lhs[k, b, m], rhs[b, n, k], acc[n, b, m].
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%lhs: tensor<64x2x3xf4E2M1FN>, %rhs: tensor<2x4x64xf8E4M3FN>,
                 %ls: tensor<2x2x3xf8E8M0FNU>, %rs: tensor<2x4x2xf8E8M0FNU>,
                 %acc: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
      %r = mx.scaled_contraction
          indexing_maps = [affine_map<(b, m, n, k) -> (k, b, m)>,
                           affine_map<(b, m, n, k) -> (b, n, k)>,
                           affine_map<(b, m, n, k) -> (n, b, m)>]
          ins(%lhs, %rhs, %ls, %rs : tensor<64x2x3xf4E2M1FN>, tensor<2x4x64xf8E4M3FN>,
                                     tensor<2x2x3xf8E8M0FNU>, tensor<2x4x2xf8E8M0FNU>)
          outs(%acc : tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
      return %r : tensor<4x2x3xf32>
    })mlir");
  ASSERT_TRUE(module);
  SmallVector<HostTensor> inputs = {
      random("random:int,lo=-4,hi=4",
             HostTensorType(ElementKind::F4E2M1FN, {64, 2, 3}), 1),
      random("random:int,lo=-8,hi=8",
             HostTensorType(ElementKind::F8E4M3FN, {2, 4, 64}), 2),
      random("random:scales", HostTensorType(ElementKind::F8E8M0FNU, {2, 2, 3}),
             3),
      random("random:scales", HostTensorType(ElementKind::F8E8M0FNU, {2, 4, 2}),
             4),
      random("random:int,lo=-16,hi=16",
             HostTensorType(ElementKind::F32, {4, 2, 3}), 5),
  };
  FailureOr<SmallVector<HostTensor>> results =
      evaluateReference(*module, "f", inputs);
  ASSERT_TRUE(succeeded(results));
  ASSERT_EQ(results->size(), 1u);
  const HostTensor &result = results->front();
  ASSERT_EQ(result.type, HostTensorType(ElementKind::F32, {4, 2, 3}));

  const HostTensor &lhs = inputs[0], &rhs = inputs[1], &ls = inputs[2],
                   &rs = inputs[3], &acc = inputs[4];
  for (int64_t n = 0; n < 4; ++n) {
    for (int64_t b = 0; b < 2; ++b) {
      for (int64_t m = 0; m < 3; ++m) {
        double sum = acc.getValue((n * 2 + b) * 3 + m);
        for (int64_t k = 0; k < 64; ++k)
          sum += lhs.getValue((k * 2 + b) * 3 + m) *
                 ls.getValue(((k / 32) * 2 + b) * 3 + m) *
                 rhs.getValue((b * 4 + n) * 64 + k) *
                 rs.getValue((b * 4 + n) * 2 + k / 32);
        EXPECT_EQ(result.getValue((n * 2 + b) * 3 + m),
                  static_cast<double>(static_cast<float>(sum)))
            << "n=" << n << " b=" << b << " m=" << m;
      }
    }
  }
}

TEST_F(ReferenceEvaluatorTest, QuantizeAlongMiddleAxis) {
  // Every element of the block at [o, :, i] is o * 3 + i + 1 (times a sign),
  // so the scale of a block follows from its own value only.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%x: tensor<2x32x3xf32>) -> (tensor<2x32x3xf8E4M3FN>, tensor<2x1x3xf8E8M0FNU>) {
      %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
          : tensor<2x32x3xf32> -> tensor<2x32x3xf8E4M3FN>, tensor<2x1x3xf8E8M0FNU>
      return %e, %s : tensor<2x32x3xf8E4M3FN>, tensor<2x1x3xf8E8M0FNU>
    })mlir");
  ASSERT_TRUE(module);
  HostTensor x(HostTensorType(ElementKind::F32, {2, 32, 3}));
  for (int64_t o = 0; o < 2; ++o)
    for (int64_t a = 0; a < 32; ++a)
      for (int64_t i = 0; i < 3; ++i)
        x.setBits((o * 32 + a) * 3 + i,
                  *encodeElement(ElementKind::F32,
                                 (a % 2 ? -1.0 : 1.0) * (o * 3 + i + 1)));
  FailureOr<SmallVector<HostTensor>> results =
      evaluateReference(*module, "f", {x});
  ASSERT_TRUE(succeeded(results));
  const HostTensor &scales = (*results)[1];
  // E4M3: emax = 8. amax = v gives s = floor(log2(v)) - 8.
  for (int64_t o = 0; o < 2; ++o) {
    for (int64_t i = 0; i < 3; ++i) {
      double v = o * 3 + i + 1;
      EXPECT_EQ(scales.getBits(o * 3 + i),
                static_cast<uint64_t>(std::floor(std::log2(v)) - 8 + 127));
      // Each element is v / 2^s, exact in E4M3.
      double scale = std::ldexp(1.0, std::floor(std::log2(v)) - 8);
      EXPECT_EQ((*results)[0].getValue((o * 32 + 1) * 3 + i), -v / scale);
    }
  }
}

TEST_F(ReferenceEvaluatorTest, RejectsUnsupportedOps) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r = math.sin %x : tensor<4xf32>
      return %r : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  FailureOr<SmallVector<HostTensor>> results = evaluateReference(
      *module, "", {HostTensor(HostTensorType(ElementKind::F32, {4}))});
  EXPECT_TRUE(failed(results));
  EXPECT_EQ(message, "reference evaluator does not support 'math.sin' as an "
                     "elementwise op (in a linalg.generic body or on tensors)");
}

/// Elementwise ops on tensors are evaluated per element like a
/// linalg.generic body: f32 arithmetic, math.exp and math.tanh from libm in
/// double rounded once to f32, arith.truncf rounded to nearest-even.
TEST_F(ReferenceEvaluatorTest, ElementwiseOpsOnTensors) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xbf16>) {
      %e = math.exp %x : tensor<4xf32>
      %t = math.tanh %x : tensor<4xf32>
      %s = arith.addf %e, %t : tensor<4xf32>
      %b = arith.truncf %s : tensor<4xf32> to tensor<4xbf16>
      return %s, %b : tensor<4xf32>, tensor<4xbf16>
    })mlir");
  ASSERT_TRUE(module);
  HostTensor x(HostTensorType(ElementKind::F32, {4}));
  const float values[] = {0.0f, 1.0f, -1.0f, 20.0f};
  for (auto [i, value] : llvm::enumerate(values))
    x.setBits(i, *encodeElement(ElementKind::F32, value));
  FailureOr<SmallVector<HostTensor>> results =
      evaluateReference(*module, "", {x});
  ASSERT_TRUE(succeeded(results));
  // e^0 + tanh 0 = 1; RN(e) + RN(tanh 1) = 2.71828175 + 0.761594176 (f32),
  // rounded: 3.47987604; RN(1/e) + RN(-tanh 1) = 0.36787945 - 0.761594176
  // = -0.393714726 (exact: the exponents are close); RN(e^20) + 1 =
  // 485165184 + 1, rounded back to 485165184 (ulp 32).
  EXPECT_EQ((*results)[0].getValue(0), 1.0);
  EXPECT_EQ((*results)[0].getValue(1), double(2.71828175f + 0.761594176f));
  EXPECT_EQ((*results)[0].getValue(2), double(0.36787945f - 0.761594176f));
  EXPECT_EQ((*results)[0].getValue(3), 485165184.0);
  // bf16 of 3.47987604: 3.484375 (0x405F), the nearest of 3.46875 and
  // 3.484375.
  EXPECT_EQ((*results)[1].getBits(1), 0x405Fu);
}

/// Per-instruction mode: a contraction with a kernel order is rounded after
/// every instruction; one without gets the exact result rounded once and a
/// bound of getUnorderedErrorBound times |acc| + sum |a*b|.
TEST_F(ReferenceEvaluatorTest, PerInstructionRoundingAndBounds) {
  // A 1 x 1 x 96 fp4 product: 2^24 from K-block 0 (1 * 1 * 2^24), then 1
  // from each of K-blocks 1 and 2 (codes 1.0 at k = 32 and 64).
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%lhs: tensor<1x96xf4E2M1FN>, %rhs: tensor<1x96xf4E2M1FN>,
                 %ls: tensor<1x3xf8E8M0FNU>, %rs: tensor<1x3xf8E8M0FNU>,
                 %acc: tensor<1x1xf32>) -> tensor<1x1xf32> {
      %r = mx.scaled_contraction
          indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                           affine_map<(m, n, k) -> (n, k)>,
                           affine_map<(m, n, k) -> (m, n)>]
          ins(%lhs, %rhs, %ls, %rs : tensor<1x96xf4E2M1FN>, tensor<1x96xf4E2M1FN>,
                                     tensor<1x3xf8E8M0FNU>, tensor<1x3xf8E8M0FNU>)
          outs(%acc : tensor<1x1xf32>) -> tensor<1x1xf32>
      return %r : tensor<1x1xf32>
    })mlir");
  ASSERT_TRUE(module);
  HostTensor lhs(HostTensorType(ElementKind::F4E2M1FN, {1, 96}));
  HostTensor rhs(HostTensorType(ElementKind::F4E2M1FN, {1, 96}));
  for (int64_t k : {0, 32, 64}) {
    lhs.setBits(k, 0x2); // 1.0
    rhs.setBits(k, 0x2);
  }
  HostTensor ls(HostTensorType(ElementKind::F8E8M0FNU, {1, 3}));
  HostTensor rs(HostTensorType(ElementKind::F8E8M0FNU, {1, 3}));
  for (int64_t b = 0; b < 3; ++b) {
    ls.setBits(b, b == 0 ? 127 + 24 : 127);
    rs.setBits(b, 127);
  }
  HostTensor acc(HostTensorType(ElementKind::F32, {1, 1}));
  SmallVector<HostTensor> inputs = {lhs, rhs, ls, rs, acc};
  Operation *contraction = nullptr;
  module->walk([&](ScaledContractionOp op) { contraction = op; });

  // Once: 2^24 + 2. Per instruction of 32 K values: 2^24 + 1 is a tie that
  // rounds to the even 2^24, twice. With 64: [2^24 + 1], then + 1: 2^24.
  auto evaluate = [&](const ReferenceOptions &options) {
    FailureOr<ReferenceResults> results =
        evaluateReference(*module, "f", inputs, options);
    EXPECT_TRUE(succeeded(results));
    return std::move(*results);
  };
  ReferenceOptions once;
  ReferenceResults onceResults = evaluate(once);
  EXPECT_EQ(onceResults.values[0].getValue(0), 16777218.0);
  ASSERT_EQ(onceResults.absSums[0].size(), 1u);
  EXPECT_EQ(onceResults.absSums[0][0], 16777218.0);
  EXPECT_TRUE(onceResults.bounds[0].empty());

  for (int64_t kStep : {32, 64}) {
    ReferenceOptions perInstruction;
    perInstruction.perInstruction = true;
    perInstruction.orders[contraction] = ContractionOrder{kStep, 128};
    ReferenceResults results = evaluate(perInstruction);
    EXPECT_EQ(results.values[0].getValue(0), 16777216.0) << kStep;
    EXPECT_TRUE(results.bounds[0].empty());
  }

  ReferenceOptions unknown;
  unknown.perInstruction = true;
  ReferenceResults unknownResults = evaluate(unknown);
  EXPECT_EQ(unknownResults.values[0].getValue(0), 16777218.0);
  ASSERT_EQ(unknownResults.bounds[0].size(), 1u);
  // 96 / 32 + 1 = 4 roundings: gamma_4 + u, times 2^24 + 2.
  double u = std::ldexp(1.0, -24);
  EXPECT_DOUBLE_EQ(unknownResults.bounds[0][0],
                   (4 * u / (1 - 4 * u) + u) * 16777218.0);
}

} // namespace
