//===- Seed000Test.cpp - MXFP4 known-answer vectors of seed 000 -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The vectors in MX_TESTDATA_DIR/mxfp4-seed000 were produced by the PyTorch
// port of the AITER/Triton MXFP4 quantizer (seed 000): EVEN scale rule,
// element rounding ties-away-from-zero, blocks of 32 along K, fp4 packed two
// per byte. The packed codes and scales must be reproduced bit for bit. C_f32
// (dequant(A) @ dequant(B)^T in f32 by PyTorch) depends on summation order and
// is compared with the tolerance |c - ref| <= 1e-5 * sum_k |a_mk * b_nk|.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#ifndef MX_TESTDATA_DIR
#error "MX_TESTDATA_DIR must name the test data directory"
#endif

using namespace mx::ref;

namespace {

struct SeedCase {
  const char *name;
  int64_t M, N, K;
};

/// Names the case in gtest output instead of dumping its bytes.
void PrintTo(const SeedCase &c, std::ostream *os) { *os << c.name; }

std::vector<uint8_t> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return {};
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>());
}

/// Converts little-endian bf16 bit patterns to f32.
std::vector<float> bf16BytesToFloats(const std::vector<uint8_t> &bytes) {
  std::vector<float> result(bytes.size() / 2);
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = bf16ToFloat(
        static_cast<uint16_t>(bytes[2 * i] | (bytes[2 * i + 1] << 8)));
  return result;
}

/// Converts little-endian f32 bytes to floats.
std::vector<float> f32BytesToFloats(const std::vector<uint8_t> &bytes) {
  std::vector<float> result(bytes.size() / 4);
  for (size_t i = 0; i < result.size(); ++i) {
    uint32_t bits = 0;
    for (int j = 0; j < 4; ++j)
      bits |= static_cast<uint32_t>(bytes[4 * i + j]) << (8 * j);
    std::memcpy(&result[i], &bits, sizeof(float));
  }
  return result;
}

class Seed000 : public ::testing::TestWithParam<SeedCase> {
protected:
  std::vector<uint8_t> load(const char *file, size_t expectedSize) {
    std::string path = std::string(MX_TESTDATA_DIR) + "/mxfp4-seed000/" +
                       GetParam().name + "/" + file;
    std::vector<uint8_t> bytes = readFile(path);
    EXPECT_EQ(bytes.size(), expectedSize) << path;
    return bytes;
  }

  /// Quantizes the bf16 operand \p rows x K and compares with the vectors.
  void checkQuantize(const char *operand, int64_t rows) {
    int64_t K = GetParam().K;
    std::string prefix(operand);
    std::vector<uint8_t> input =
        load((prefix + "_bf16.bin").c_str(), rows * K * 2);
    std::vector<uint8_t> expectedCodes =
        load((prefix + "_fp4.bin").c_str(), rows * K / 2);
    std::vector<uint8_t> expectedScales =
        load((prefix + "_e8m0.bin").c_str(), rows * K / 32);
    if (HasFailure())
      return;

    std::vector<float> x = bf16BytesToFloats(input);
    QuantizeResult q = quantize(x.data(), rows, K, /*axis=*/1, ElemFormat::E2M1,
                                ScaleRule::Even, ElemRounding::TiesAway);
    std::vector<uint8_t> packed =
        pack(ElemFormat::E2M1, q.codes.data(), rows * K);
    ASSERT_EQ(packed.size(), expectedCodes.size());
    ASSERT_EQ(q.scales.size(), expectedScales.size());
    int64_t codeMismatches = 0, scaleMismatches = 0;
    for (size_t i = 0; i < packed.size(); ++i) {
      if (packed[i] != expectedCodes[i] && ++codeMismatches <= 5)
        ADD_FAILURE() << operand << " packed byte " << i << ": got 0x"
                      << std::hex << int(packed[i]) << ", want 0x"
                      << int(expectedCodes[i]);
    }
    for (size_t i = 0; i < q.scales.size(); ++i) {
      if (q.scales[i] != expectedScales[i] && ++scaleMismatches <= 5)
        ADD_FAILURE() << operand << " scale " << i << ": got "
                      << int(q.scales[i]) << ", want "
                      << int(expectedScales[i]);
    }
    EXPECT_EQ(codeMismatches, 0);
    EXPECT_EQ(scaleMismatches, 0);
  }
};

TEST_P(Seed000, QuantizeA) { checkQuantize("A", GetParam().M); }

TEST_P(Seed000, QuantizeB) { checkQuantize("B", GetParam().N); }

TEST_P(Seed000, DataCoversEdgeCases) {
  // README: row 0's first block is all zeros (scale byte 0); row 2 holds
  // exact +-6.0 values.
  const SeedCase &c = GetParam();
  std::vector<uint8_t> scales = load("A_e8m0.bin", c.M * c.K / 32);
  std::vector<uint8_t> input = load("A_bf16.bin", c.M * c.K * 2);
  if (HasFailure())
    return;
  EXPECT_EQ(scales[0], 0);
  std::vector<float> x = bf16BytesToFloats(input);
  bool hasSix = false;
  for (int64_t k = 0; k < c.K; ++k)
    hasSix |= std::fabs(x[2 * c.K + k]) == 6.0f;
  EXPECT_TRUE(hasSix);
}

TEST_P(Seed000, ScaledMatmulMatchesC) {
  const SeedCase &c = GetParam();
  std::vector<uint8_t> aPacked = load("A_fp4.bin", c.M * c.K / 2);
  std::vector<uint8_t> sa = load("A_e8m0.bin", c.M * c.K / 32);
  std::vector<uint8_t> bPacked = load("B_fp4.bin", c.N * c.K / 2);
  std::vector<uint8_t> sb = load("B_e8m0.bin", c.N * c.K / 32);
  std::vector<uint8_t> cBytes = load("C_f32.bin", c.M * c.N * 4);
  if (HasFailure())
    return;
  std::vector<uint8_t> a = unpack(ElemFormat::E2M1, aPacked.data(), c.M * c.K);
  std::vector<uint8_t> b = unpack(ElemFormat::E2M1, bPacked.data(), c.N * c.K);
  std::vector<float> expected = f32BytesToFloats(cBytes);

  // B is N x K: the NT layout, scales [N, K/32].
  std::vector<float> got = scaledMatmul(
      a.data(), sa.data(), ElemFormat::E2M1, b.data(), sb.data(),
      ElemFormat::E2M1, c.M, c.N, c.K, /*bTransposed=*/true, nullptr);
  ASSERT_EQ(got.size(), expected.size());

  // The tolerance scale: the absolute dot product of the dequantized rows.
  std::vector<float> aValues =
      dequantize(a.data(), sa.data(), c.M, c.K, 1, ElemFormat::E2M1);
  std::vector<float> bValues =
      dequantize(b.data(), sb.data(), c.N, c.K, 1, ElemFormat::E2M1);
  int64_t failures = 0;
  int64_t nonzero = 0;
  for (int64_t m = 0; m < c.M; ++m) {
    for (int64_t n = 0; n < c.N; ++n) {
      double absDot = 0;
      for (int64_t k = 0; k < c.K; ++k)
        absDot += std::fabs(static_cast<double>(aValues[m * c.K + k]) *
                            bValues[n * c.K + k]);
      double want = expected[m * c.N + n];
      double have = got[m * c.N + n];
      nonzero += want != 0;
      if (!(std::fabs(have - want) <= 1e-5 * absDot) && ++failures <= 5)
        ADD_FAILURE() << "C[" << m << "][" << n << "] = " << have
                      << ", reference " << want << ", |a||b| " << absDot;
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(nonzero, c.M * c.N / 2); // The comparison is not vacuous.
}

INSTANTIATE_TEST_SUITE_P(Vectors, Seed000,
                         ::testing::Values(SeedCase{"m64n64k256", 64, 64, 256},
                                           SeedCase{"m128n96k512", 128, 96,
                                                    512}),
                         [](const ::testing::TestParamInfo<SeedCase> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
