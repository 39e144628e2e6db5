//===- InputSpec.h - argument specifications for mx-run ---------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An InputSpec says where the value of one function argument comes from:
//
//   file:PATH     raw bytes in the file format (TensorIO.h); size must match
//   npy:PATH      a .npy file (TensorIO.h); shape and dtype must match
//   zeros         all-zero bits
//   fill:VALUE    every element VALUE (rounded to nearest-even; integers and
//                 f8E8M0FNU must be exact), or fill:0xHEX for raw bits
//   random:KIND[,key=value...]  deterministic pseudo-random data:
//     uniform  lo=-1,hi=1   uniform in [lo, hi), rounded (floats, MX
//                           elements; integer types get integers in [lo, hi])
//     normal   mean=0,std=1 normal distribution (floats, MX elements)
//     int      lo=-4,hi=4   integers in [lo, hi], exactly representable; for
//                           MX elements: codes whose value is such an integer
//     codes                 uniformly random finite codes (MX elements,
//                           f8E8M0FNU; NaN and Inf codes excluded)
//     scales   lo=120,hi=134  f8E8M0FNU bytes in [lo, hi] (hi=255 admits the
//                           NaN scale), each different from its predecessor
//                           along every dimension, so that neighbouring
//                           blocks never share a scale
//     keys for every kind: seed=N (default: derived from --seed and the
//     argument index); for uniform, normal and int on f16/bf16/f32/f64:
//     specials=FRACTION replaces that fraction of the elements with NaN,
//     +-Inf, +-0, +-smallest/largest subnormal and +-largest finite values.
//
// The generator is a self-contained SplitMix64 stream, so data depend only on
// the seed, never on the C++ standard library.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_INPUTSPEC_H
#define MX_RUNNER_INPUTSPEC_H

#include "mx/Runner/HostTensor.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::mx {

/// A parsed argument specification.
struct InputSpec {
  enum class Kind { File, Npy, Zeros, Fill, Random };
  enum class RandomKind { Uniform, Normal, Int, Codes, Scales };

  Kind kind = Kind::Zeros;
  /// file: and npy:.
  std::string path;
  /// fill: either a value or raw bits (0x...).
  double fillValue = 0;
  std::optional<uint64_t> fillBits;
  /// random:.
  RandomKind randomKind = RandomKind::Uniform;
  std::optional<double> lo, hi, mean, stddev, specials;
  std::optional<uint64_t> seed;
};

/// Parses \p text (see the file comment).
llvm::Expected<InputSpec> parseInputSpec(StringRef text);

/// Returns the default seed of argument \p argIndex for the global seed
/// \p globalSeed (a SplitMix64 hash of both).
uint64_t deriveSeed(uint64_t globalSeed, unsigned argIndex);

/// Produces the value described by \p spec for the static type \p type;
/// random data use \p defaultSeed unless the spec has `seed=`.
llvm::Expected<HostTensor> materializeInput(const InputSpec &spec,
                                            const HostTensorType &type,
                                            uint64_t defaultSeed);

} // namespace mlir::mx

#endif // MX_RUNNER_INPUTSPEC_H
