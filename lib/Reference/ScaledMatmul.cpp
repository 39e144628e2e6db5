//===- ScaledMatmul.cpp - MX scaled matmul and operand packing ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include <algorithm>
#include <array>
#include <cassert>

using namespace mx::ref;

/// Returns the decoded value of every 8-bit code of \p f.
static std::array<double, 256> makeDecodeTable(ElemFormat f) {
  std::array<double, 256> table;
  for (int code = 0; code < 256; ++code)
    table[code] = decode(f, static_cast<uint8_t>(code));
  return table;
}

std::vector<float> mx::ref::scaledMatmul(const uint8_t *a, const uint8_t *sa,
                                         ElemFormat fa, const uint8_t *b,
                                         const uint8_t *sb, ElemFormat fb,
                                         int64_t M, int64_t N, int64_t K,
                                         bool bTransposed, const float *acc) {
  constexpr int64_t kBlock = 32;
  assert(K % kBlock == 0 && "K must be a multiple of 32");
  int64_t numBlocks = K / kBlock;
  std::array<double, 256> decodeA = makeDecodeTable(fa);
  std::array<double, 256> decodeB = makeDecodeTable(fb);
  // B element (k, n) and its scale (block, n) in either layout.
  auto bIndex = [&](int64_t k, int64_t n) {
    return bTransposed ? n * K + k : k * N + n;
  };
  auto sbIndex = [&](int64_t blk, int64_t n) {
    return bTransposed ? n * numBlocks + blk : blk * N + n;
  };

  std::vector<float> result(M * N);
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      double total = 0.0;
      for (int64_t blk = 0; blk < numBlocks; ++blk) {
        double blockSum = 0.0;
        for (int64_t k = blk * kBlock; k < (blk + 1) * kBlock; ++k)
          blockSum += decodeA[a[m * K + k]] * decodeB[b[bIndex(k, n)]];
        double scaleA = decodeScale(sa[m * numBlocks + blk]);
        double scaleB = decodeScale(sb[sbIndex(blk, n)]);
        total += blockSum * scaleA * scaleB;
      }
      if (acc)
        total += static_cast<double>(acc[m * N + n]);
      result[m * N + n] = static_cast<float>(total);
    }
  }
  return result;
}

std::optional<std::vector<float>>
mx::ref::groupedScaledMatmul(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                             const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                             const int64_t *offsets, int64_t E, int64_t T,
                             int64_t N, int64_t K, const float *acc,
                             const InstructionOrder *order) {
  for (int64_t e = 0; e <= E; ++e)
    if (offsets[e] < (e == 0 ? 0 : offsets[e - 1]) || offsets[e] > T)
      return std::nullopt;
  int64_t numBlocks = K / 32;
  std::vector<float> result(acc, acc + T * N);
  for (int64_t e = 0; e < E; ++e) {
    int64_t first = offsets[e], rows = offsets[e + 1] - offsets[e];
    if (rows == 0)
      continue;
    std::vector<float> group =
        order ? scaledMatmulPerInstruction(
                    a + first * K, sa + first * numBlocks, fa, b + e * N * K,
                    sb + e * N * numBlocks, fb, rows, N, K,
                    /*bTransposed=*/true, acc + first * N, *order)
              : scaledMatmul(a + first * K, sa + first * numBlocks, fa,
                             b + e * N * K, sb + e * N * numBlocks, fb, rows, N,
                             K, /*bTransposed=*/true, acc + first * N);
    std::copy(group.begin(), group.end(), result.begin() + first * N);
  }
  return result;
}

std::optional<std::vector<float>> mx::ref::routedScaledMatmul(
    const uint8_t *a, const uint8_t *sa, ElemFormat fa, const uint8_t *b,
    const uint8_t *sb, ElemFormat fb, const int32_t *sortedIds, int64_t P,
    const int32_t *expertIds, int64_t NB, int64_t topK, int64_t E, int64_t T,
    int64_t N, int64_t K, const float *acc, const InstructionOrder *order) {
  if (NB == 0 ? P != 0 : P % NB != 0)
    return std::nullopt;
  int64_t numBlocks = K / 32, rows = T * topK;
  std::vector<float> result(acc, acc + rows * N);
  int64_t blockRows = NB == 0 ? 0 : P / NB;
  // A row named by two positions (of any blocks) is inconsistent routing.
  std::vector<bool> named(rows, false);
  for (int64_t i = 0; i < P; ++i) {
    int64_t r = sortedIds[i];
    if (r < 0 || r >= rows)
      continue;
    if (named[r])
      return std::nullopt;
    named[r] = true;
  }
  for (int64_t block = 0; block < NB; ++block) {
    int64_t e = expertIds[block];
    if (e < 0 || e >= E)
      continue;
    // The block's valid rows, gathered.
    std::vector<int64_t> routed;
    for (int64_t i = block * blockRows; i < (block + 1) * blockRows; ++i)
      if (sortedIds[i] >= 0 && sortedIds[i] < rows)
        routed.push_back(sortedIds[i]);
    if (routed.empty())
      continue;
    int64_t M = routed.size();
    std::vector<uint8_t> ga(M * K), gsa(M * numBlocks);
    std::vector<float> gacc(M * N);
    for (int64_t m = 0; m < M; ++m) {
      int64_t token = routed[m] / topK;
      std::copy(a + token * K, a + (token + 1) * K, ga.begin() + m * K);
      std::copy(sa + token * numBlocks, sa + (token + 1) * numBlocks,
                gsa.begin() + m * numBlocks);
      std::copy(acc + routed[m] * N, acc + (routed[m] + 1) * N,
                gacc.begin() + m * N);
    }
    std::vector<float> out =
        order
            ? scaledMatmulPerInstruction(ga.data(), gsa.data(), fa,
                                         b + e * N * K, sb + e * N * numBlocks,
                                         fb, M, N, K, /*bTransposed=*/true,
                                         gacc.data(), *order)
            : scaledMatmul(ga.data(), gsa.data(), fa, b + e * N * K,
                           sb + e * N * numBlocks, fb, M, N, K,
                           /*bTransposed=*/true, gacc.data());
    for (int64_t m = 0; m < M; ++m)
      std::copy(out.begin() + m * N, out.begin() + (m + 1) * N,
                result.begin() + routed[m] * N);
  }
  return result;
}

std::vector<uint8_t> mx::ref::pack(ElemFormat f, const uint8_t *codes,
                                   int64_t n) {
  int bits = getFormatInfo(f).bits;
  uint32_t mask = (1u << bits) - 1;
  std::vector<uint8_t> packed((n * bits + 7) / 8, 0);
  // Item t occupies bits [bits*t + bits-1 : bits*t] of a little-endian bit
  // stream; for 4 and 8 bits this is the nibble/byte layout of the ISA.
  for (int64_t t = 0; t < n; ++t) {
    uint32_t code = codes[t] & mask;
    for (int i = 0; i < bits; ++i) {
      int64_t bit = t * bits + i;
      if ((code >> i) & 1)
        packed[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
  return packed;
}

std::vector<uint8_t> mx::ref::unpack(ElemFormat f, const uint8_t *packed,
                                     int64_t n) {
  int bits = getFormatInfo(f).bits;
  std::vector<uint8_t> codes(n, 0);
  for (int64_t t = 0; t < n; ++t) {
    uint32_t code = 0;
    for (int i = 0; i < bits; ++i) {
      int64_t bit = t * bits + i;
      code |= ((packed[bit / 8] >> (bit % 8)) & 1u) << i;
    }
    codes[t] = static_cast<uint8_t>(code);
  }
  return codes;
}
