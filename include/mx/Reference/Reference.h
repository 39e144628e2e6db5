//===- Reference.h - Independent MX numeric reference -----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An independent, dependency-free (standard C++17 only) model of the OCP MX
// number formats and of the gfx950 scaled matrix multiplication. It is written
// from the format specification (OCP MX v1.0, CDNA4 ISA) and is the oracle
// that the compiler's lowerings are checked against; it must not share code
// with them.
//
// Element formats (sign bit is always the most significant bit of the code):
//
//   format  MLIR type  bits  E  M  bias  max finite  Inf           NaN
//   E4M3    f8E4M3FN    8    4  3   7    448         none          0x7F, 0xFF
//   E5M2    f8E5M2      8    5  2  15    57344       0x7C, 0xFC    0x7D-7F,
//                                                                  0xFD-FF
//   E2M3    f6E2M3FN    6    2  3   1    7.5         none          none
//   E3M2    f6E3M2FN    6    3  2   3    28          none          none
//   E2M1    f4E2M1FN    4    2  1   1    6           none          none
//
// The value of a code with sign s, exponent field E and mantissa field M is
//   E == 0: (-1)^s * M / 2^m * 2^(1 - bias)      (subnormal, never flushed)
//   E != 0: (-1)^s * (1 + M / 2^m) * 2^(E - bias)
// except for the Inf/NaN codes listed above.
//
// The E8M0 scale byte s encodes 2^(s - 127) for s in 0..254; 0xFF is NaN.
//
//===----------------------------------------------------------------------===//

#ifndef MX_REFERENCE_REFERENCE_H
#define MX_REFERENCE_REFERENCE_H

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mx::ref {

/// The MX element formats. The comment gives the MLIR builtin type name.
enum class ElemFormat {
  E4M3, ///< f8E4M3FN (OCP FP8, "fp8" on AMD).
  E5M2, ///< f8E5M2 (OCP BF8, "bf8" on AMD).
  E2M3, ///< f6E2M3FN ("fp6").
  E3M2, ///< f6E3M2FN ("bf6").
  E2M1, ///< f4E2M1FN ("fp4").
};

/// How the shared block exponent is chosen from amax = max |x| over the
/// block (amax is an f32). emax = FormatInfo::emaxElem. In every rule:
///   - a block that contains a NaN or an Inf gets scale byte 0xFF (NaN);
///   - amax == 0 gives s = -127 (byte 0x00);
///   - the exponent s is finally clamped to [-127, 127] and stored as s + 127,
///     so 0xFF is never produced for finite input.
enum class ScaleRule {
  /// OCP MX v1.0: s = floor(log2(amax)) - emax. log2 is the exact base-2
  /// logarithm, also for a subnormal f32 amax (unlike extracting the biased
  /// exponent field, which would give -127 - emax for every subnormal).
  Floor,
  /// s = ceil(log2(amax)) - emax. Guarantees no saturation.
  Ceil,
  /// The AITER/Triton "0x200000" trick (seed 000):
  ///   amax' = f32FromBits((bits(amax) + (1 << (22 - manBits))) & 0xFF800000)
  ///   s = floor(log2(amax')) - emax   (amax' == 0 gives s = -127).
  /// For E2M1 the exponent is bumped iff amax >= 1.75 * 2^floor(log2(amax)).
  /// If amax' overflows to the bits of +Inf (0x7F800000; amax in the top
  /// binade of f32/bf16 at or above the rounding threshold) its log2 is
  /// +Inf as in seed 000's `floor(log2(amax')) - emax`, so s = 127 after the
  /// clamp (byte 254) for every format, not 128 - emax.
  Even,
  /// NVIDIA/torchao "RCEIL": q = fl32(amax / maxFinite) (one f32 rounding),
  /// s = ceil(log2(q)) with the exact logarithm, also for a subnormal q
  /// (q == 0 gives s = -127). This differs from the bit-twiddled form (biased
  /// exponent plus "mantissa != 0") only for subnormal q.
  RCeil,
};

/// How a (scaled) value is rounded to the element grid.
enum class ElemRounding {
  NearestEven, ///< Round to nearest, ties to the even code (OCP, hardware).
  TiesAway,    ///< Round to nearest, ties away from zero (seed 000).
};

/// Parameters and limits of an element format. All values are derived from
/// (bits, expBits, manBits, bias) and the format's special-value convention.
struct FormatInfo {
  const char *name;    ///< MLIR builtin type name, e.g. "f4E2M1FN".
  int bits;            ///< Total code width (4, 6 or 8).
  int expBits;         ///< Exponent field width.
  int manBits;         ///< Mantissa field width.
  int bias;            ///< Exponent bias.
  double maxFinite;    ///< Largest finite magnitude.
  double minNormal;    ///< 2^(1 - bias).
  double minSubnormal; ///< 2^(1 - bias - manBits).
  bool hasInf;         ///< Only E5M2.
  bool hasNaN;         ///< E4M3 and E5M2.
  int emaxElem; ///< floor(log2(maxFinite)): exponent of the largest normal.
};

/// Returns the parameters of \p f.
const FormatInfo &getFormatInfo(ElemFormat f);

/// Parses a format name, case-insensitively. Accepted spellings, e.g. for
/// E2M1: "e2m1", "fp4", "mxfp4", "f4E2M1FN", "float4_e2m1fn". Likewise
/// "e4m3"/"fp8"/"f8E4M3FN"/"float8_e4m3fn", "e5m2"/"bf8"/"f8E5M2"/
/// "float8_e5m2", "e2m3"/"fp6"/"f6E2M3FN"/"float6_e2m3fn" and
/// "e3m2"/"bf6"/"f6E3M2FN"/"float6_e3m2fn".
std::optional<ElemFormat> parseElemFormat(std::string_view name);

/// Returns the exact value of the element code \p code (only the low `bits`
/// bits are used). The negative-zero code decodes to -0.0, E5M2 Inf codes to
/// +-infinity, NaN codes to a quiet NaN.
double decode(ElemFormat f, uint8_t code);

/// Rounds \p v to the nearest element code using \p r. Rules:
///   - the sign bit is the sign bit of v: -0.0 encodes as the negative-zero
///     code (0x80 for fp8, 0x20 for fp6, 0x8 for fp4), as torchao does, and
///     so does a negative value that rounds to zero;
///   - |v| is rounded on the format's grid, subnormals included, in exact
///     arithmetic;
///   - a magnitude above maxFinite after rounding saturates to +-maxFinite
///     (also for E4M3/E5M2: "satfinite"); +-Inf saturates to +-maxFinite;
///   - NaN encodes as the canonical NaN code 0x7F for E4M3/E5M2 and as +0
///     (code 0) for the formats without NaN.
uint8_t encode(ElemFormat f, double v, ElemRounding r);

/// Returns 2^(s - 127) for the E8M0 byte \p s; NaN for 0xFF.
double decodeScale(uint8_t e8m0);

/// Returns the E8M0 scale byte of the \p n values at \p block for elements of
/// format \p f, following \p rule (see ScaleRule).
uint8_t computeScale(const float *block, int64_t n, ElemFormat f,
                     ScaleRule rule);

/// The result of quantize(): one element code per byte (unpacked) and one
/// E8M0 byte per block.
struct QuantizeResult {
  std::vector<uint8_t> codes;
  std::vector<uint8_t> scales;
};

/// Quantizes the row-major [rows, cols] f32 matrix \p x to MX format.
///   axis == 1: a block is `blockSize` consecutive elements of a row; scales
///              are row-major [rows, cols / blockSize].
///   axis == 0: a block is `blockSize` consecutive elements of a column;
///              scales are row-major [rows / blockSize, cols].
/// The blocked dimension must be a multiple of blockSize. Codes are row-major
/// [rows, cols]. Per block the scale byte comes from computeScale(); then each
/// element is encode(x * 2^-s, r) with x * 2^-s computed exactly (in double).
/// A block whose scale is NaN (it contains NaN or Inf) gets all codes 0.
QuantizeResult quantize(const float *x, int64_t rows, int64_t cols, int axis,
                        ElemFormat f, ScaleRule rule, ElemRounding r,
                        int64_t blockSize = 32);

/// Inverse of quantize(): element i becomes fl32(decode(code) * scale), i.e.
/// the exact product rounded once to f32 (it can only round when it leaves
/// the f32 normal range). Layout conventions are those of quantize().
std::vector<float> dequantize(const uint8_t *codes, const uint8_t *scales,
                              int64_t rows, int64_t cols, int axis,
                              ElemFormat f, int64_t blockSize = 32);

/// The gfx950 scaled matrix multiplication, block size 32 along K:
///   C[m,n] = acc[m,n] + sum_b 2^(sa[m,b]-127) * 2^(sb[b,n]-127)
///                            * sum_{k in block b} decode(A[m,k]) *
///                            decode(B[k,n])
/// Layouts: A codes are [M, K] row-major with scales sa [M, K/32]. When
/// \p bTransposed is false, B codes are [K, N] with scales sb [K/32, N]; when
/// true ("NT" layout, the usual weight layout) B codes are [N, K] with scales
/// [N, K/32]. Codes are unpacked (one per byte). \p acc ([M, N]) may be null
/// (zeros). K must be a multiple of 32.
///
/// Arithmetic: each block sums its 32 element products in double (every
/// product is exact in double); the block sum is multiplied by both scales
/// (powers of two: exact, and a NaN scale gives NaN); the block results and
/// acc are summed in double in increasing K order; the total is rounded once
/// to f32 (RNE, subnormals kept, overflow to Inf). Block sums are exact for
/// fp4 and fp6 operands and for fp8 unless a block's products span more than
/// 53 binades; the cross-block summation error is at most
/// (K/32 - 1) * 2^-53 * sum |block terms| before the final f32 rounding.
/// Inf/NaN element codes propagate by IEEE double arithmetic.
std::vector<float> scaledMatmul(const uint8_t *a, const uint8_t *sa,
                                ElemFormat fa, const uint8_t *b,
                                const uint8_t *sb, ElemFormat fb, int64_t M,
                                int64_t N, int64_t K, bool bTransposed,
                                const float *acc);

/// The grouped (mixture-of-experts) scaled matmul: A is T x K (codes) with
/// T x K/32 scales, B holds E row-major N x K matrices (E x N x K codes,
/// E x N x K/32 scales), acc and the result are T x N. Rows offsets[e] to
/// offsets[e + 1] - 1 are row r of scaledMatmul of those rows of A with
/// matrix e of B (bTransposed, same arithmetic); every other row is acc.
/// Returns std::nullopt, reading no row, unless the E + 1 offsets are
/// non-decreasing within [0, T]. With `order`, each expert's rows are
/// scaledMatmulPerInstruction's (rounded per instruction in that K order).
struct InstructionOrder;
std::optional<std::vector<float>>
groupedScaledMatmul(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                    const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                    const int64_t *offsets, int64_t E, int64_t T, int64_t N,
                    int64_t K, const float *acc,
                    const InstructionOrder *order = nullptr);

/// The routed (mixture-of-experts, sorted-token-ids form) scaled matmul of
/// mx.routed_scaled_contraction: A is T x K (codes, T x K/32 scales), B
/// holds E row-major N x K matrices, acc and the result are (T * topK) x N.
/// Position i of the P sorted ids, in block i / (P / NB) of expert
/// expertIds[block], names routed row r = sortedIds[i]; where r is in
/// [0, T * topK) and the expert in [0, E), result row r is row r / topK of
/// A times matrix e of B (bTransposed) plus acc row r, each block's rows
/// computed as one scaledMatmul (or, with `order`, scaledMatmulPerInstruction).
/// Rows no valid position names are acc. Returns std::nullopt unless NB
/// divides P and no row is named by more than one position (of any block).
std::optional<std::vector<float>>
routedScaledMatmul(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                   const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                   const int32_t *sortedIds, int64_t P,
                   const int32_t *expertIds, int64_t NB, int64_t topK,
                   int64_t E, int64_t T, int64_t N, int64_t K, const float *acc,
                   const InstructionOrder *order = nullptr);

/// The arithmetic of one matrix instruction of scaledMatmulPerInstruction.
enum class InstructionArithmetic {
  /// The instruction's exact dot product plus the accumulator, rounded once
  /// to f32 (RNE, subnormals kept, overflow to +-Inf).
  Exact,
  /// The CDNA3 fp8 MFMA as MMA-Sim (arXiv 2511.10909) describes it, for
  /// every format pair: the instruction's products in groups of 16
  /// consecutive K values, each group added to the accumulator acc with one
  /// rounding to f32, in increasing K:
  ///   - a nonzero product p gets the exponent e_p = e(a) + e(b) + sA + sB,
  ///     e(x) = max(floor(log2 |x|), 1 - bias) of an element and sA, sB the
  ///     unbiased scale exponents; zero products take no part;
  ///   - the products at even and at odd positions of the group are two
  ///     halves; in each, E_h = max e_p, and every product is truncated
  ///     (toward zero) to a multiple of 2^(E_h - 24), then summed;
  ///   - each half's sum is rounded down (toward -inf) to a multiple of
  ///     2^(E - 24), E = max E_h, and both are added: s;
  ///   - T = max(E, e(acc)) (e(acc) = max(floor(log2 |acc|), -126); a zero
  ///     acc takes no part); s is rounded down to a multiple of 2^(T - 31),
  ///     acc to a multiple of 2^(T - 24), or to 0 when e(acc) < T - 25;
  ///   - their sum, rounded to nearest-even f32, is the new acc (+0 when
  ///     zero). A group without nonzero products leaves acc as it is.
  /// NaN and Inf as IEEE arithmetic on the group's products and acc.
  CDNA3Grouped,
};

/// The order in which a kernel accumulates one scaled matrix product.
struct InstructionOrder {
  /// K values per instruction: a multiple of 32 (64 or 128 on gfx950).
  int64_t kStep = 128;
  /// K padded with zero products (the kernel's K tile): at least K.
  int64_t paddedK = 0;
  InstructionArithmetic arithmetic = InstructionArithmetic::Exact;
  /// K split into this many equal parts of the padded K (each whole
  /// instructions): each part accumulates from +0 in the order above, and
  /// the parts are added to acc in increasing K, one f32 rounding each
  /// (((acc + P0) + P1) + ...; a split-K GEMM's ordered reduction).
  int64_t parts = 1;
};

/// scaledMatmul as a kernel of matrix instructions computes it: the f32
/// accumulator starts at acc[m,n] (+0 when acc is null; with order.parts,
/// each part's at +0); instruction
/// t = 0, 1, ... adds the scaled products of K in [t kStep, (t+1) kStep),
/// +0 beyond K up to paddedK (rounded up to a multiple of kStep), with
/// \p order's arithmetic, rounding to f32 each time. With Exact arithmetic
/// an exact zero is -0 only when the accumulator and every product of the
/// instruction are -0. Operand layouts as scaledMatmul. \p absSums, when
/// given, receives the values of scaledMatmulAbsSum (with Exact arithmetic
/// from the same pass).
std::vector<float>
scaledMatmulPerInstruction(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                           const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                           int64_t M, int64_t N, int64_t K, bool bTransposed,
                           const float *acc, const InstructionOrder &order,
                           std::vector<double> *absSums = nullptr);

/// Returns, per output of scaledMatmul, |acc[m,n]| + sum_k |scaled product|
/// (in double; NaN where a scale or code is NaN, Inf where one is Inf): the
/// magnitude that rounding error bounds of any summation order scale with.
std::vector<double> scaledMatmulAbsSum(const uint8_t *a, const uint8_t *sa,
                                       ElemFormat fa, const uint8_t *b,
                                       const uint8_t *sb, ElemFormat fb,
                                       int64_t M, int64_t N, int64_t K,
                                       bool bTransposed, const float *acc);

/// An exact sum of f32 accumulators and scaled products, rounded once to
/// f32: the value of `acc + sum of terms` in exact arithmetic whatever the
/// order of the additions. Finite values are held in a fixed-point integer
/// of 32-bit digits in 64-bit integers (carries resolved only when the sum
/// is read), so every finite nonzero value added must lie in
/// [2^-338, 2^296): f32 values, and products of two MX elements and two
/// E8M0 scales (at least 2^-286 with significands of at most 4 bits, below
/// 2^296 for up to 128 E5M2 products).
class ExactSum {
public:
  /// Adds \p value (NaN, +-Inf and signed zeros included).
  void add(double value);
  /// Returns the sum rounded to nearest-even f32 (subnormals kept, +-Inf
  /// from 2^128 - 2^103 on). NaN if a NaN or both infinities were added,
  /// else the infinity added; an exact zero is -0 if every value added was
  /// -0 (at least one), +0 otherwise (as IEEE addition in any order).
  float round() const;

private:
  static constexpr int kLsb = -352;
  static constexpr int kDigits = 21; // Up to 2^320.
  std::array<int64_t, kDigits> digits = {};
  bool anyNaN = false, posInf = false, negInf = false;
  bool anyAdded = false, allNegativeZero = true;
};

/// Packs \p n unpacked codes into the memory/register layout of the ISA:
///   - FP4: two per byte, element 2i in the low nibble, 2i+1 in the high
///     nibble (an odd n leaves the last high nibble 0);
///   - FP6: dense little-endian 6-bit stream, item t in bits [6t+5 : 6t], so
///     4 items per 3 bytes (ceil(6n / 8) bytes; unused high bits are 0);
///   - FP8: one per byte (a copy).
/// Bits of a code above the format width are ignored.
std::vector<uint8_t> pack(ElemFormat f, const uint8_t *codes, int64_t n);

/// Inverse of pack(): extracts \p n codes from \p packed.
std::vector<uint8_t> unpack(ElemFormat f, const uint8_t *packed, int64_t n);

/// Returns the value of the bfloat16 bit pattern \p bits (exact).
float bf16ToFloat(uint16_t bits);

/// Returns the value of the IEEE binary16 bit pattern \p bits (exact).
float halfToFloat(uint16_t bits);

} // namespace mx::ref

#endif // MX_REFERENCE_REFERENCE_H
