//===- InputSpecTest.cpp - argument spec parsing and generators -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/InputSpec.h"

#include "gtest/gtest.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::mx;

namespace {

std::string parseError(StringRef text) {
  llvm::Expected<InputSpec> spec = parseInputSpec(text);
  if (spec)
    return "<parsed>";
  return llvm::toString(spec.takeError());
}

HostTensor generate(StringRef text, const HostTensorType &type,
                    uint64_t seed = 1) {
  llvm::Expected<InputSpec> spec = parseInputSpec(text);
  EXPECT_TRUE(static_cast<bool>(spec)) << text.str();
  if (!spec) {
    llvm::consumeError(spec.takeError());
    return HostTensor();
  }
  llvm::Expected<HostTensor> tensor = materializeInput(*spec, type, seed);
  EXPECT_TRUE(static_cast<bool>(tensor)) << text.str();
  if (!tensor) {
    llvm::consumeError(tensor.takeError());
    return HostTensor();
  }
  return std::move(*tensor);
}

std::string generateError(StringRef text, const HostTensorType &type) {
  llvm::Expected<InputSpec> spec = parseInputSpec(text);
  if (!spec)
    return "parse: " + llvm::toString(spec.takeError());
  llvm::Expected<HostTensor> tensor = materializeInput(*spec, type, 1);
  if (tensor)
    return "<generated>";
  return llvm::toString(tensor.takeError());
}

TEST(InputSpec, ParsesEveryForm) {
  llvm::Expected<InputSpec> file = parseInputSpec("file:a/b.bin");
  ASSERT_TRUE(static_cast<bool>(file));
  EXPECT_EQ(file->kind, InputSpec::Kind::File);
  EXPECT_EQ(file->path, "a/b.bin");

  llvm::Expected<InputSpec> npy = parseInputSpec("npy:x:y.npy");
  ASSERT_TRUE(static_cast<bool>(npy));
  EXPECT_EQ(npy->kind, InputSpec::Kind::Npy);
  EXPECT_EQ(npy->path, "x:y.npy");

  llvm::Expected<InputSpec> fill = parseInputSpec("fill:-2.5e1");
  ASSERT_TRUE(static_cast<bool>(fill));
  EXPECT_EQ(fill->fillValue, -25.0);
  EXPECT_FALSE(fill->fillBits.has_value());

  llvm::Expected<InputSpec> bits = parseInputSpec("fill:0x7FC00000");
  ASSERT_TRUE(static_cast<bool>(bits));
  EXPECT_EQ(bits->fillBits, 0x7FC00000u);

  llvm::Expected<InputSpec> random =
      parseInputSpec("random:normal,mean=1,std=0.5,specials=0.25,seed=0x10");
  ASSERT_TRUE(static_cast<bool>(random));
  EXPECT_EQ(random->kind, InputSpec::Kind::Random);
  EXPECT_EQ(random->randomKind, InputSpec::RandomKind::Normal);
  EXPECT_EQ(random->mean, 1.0);
  EXPECT_EQ(random->stddev, 0.5);
  EXPECT_EQ(random->specials, 0.25);
  EXPECT_EQ(random->seed, 16u);

  llvm::Expected<InputSpec> zeros = parseInputSpec("zeros");
  ASSERT_TRUE(static_cast<bool>(zeros));
  EXPECT_EQ(zeros->kind, InputSpec::Kind::Zeros);
}

TEST(InputSpec, RejectsMalformedSpecs) {
  EXPECT_EQ(parseError(""),
            "malformed argument spec '' (expected file:PATH, npy:PATH, "
            "random:KIND[,key=value...], zeros or fill:VALUE)");
  EXPECT_EQ(parseError("ones"),
            "malformed argument spec 'ones' (expected file:PATH, npy:PATH, "
            "random:KIND[,key=value...], zeros or fill:VALUE)");
  EXPECT_EQ(parseError("bin:x"),
            "unknown argument spec kind 'bin' in 'bin:x' (expected file:PATH, "
            "npy:PATH, random:KIND[,key=value...], zeros or fill:VALUE)");
  EXPECT_EQ(parseError("file:"), "missing path in 'file:'");
  EXPECT_EQ(parseError("random:"),
            "missing random kind in 'random:' (expected uniform, normal, int, "
            "codes or scales)");
  EXPECT_EQ(parseError("random:gauss"),
            "unknown random kind 'gauss' in 'random:gauss' (expected uniform, "
            "normal, int, codes or scales)");
  EXPECT_EQ(parseError("random:uniform,lo"),
            "malformed option 'lo' in 'random:uniform,lo' (expected "
            "key=value)");
  EXPECT_EQ(parseError("random:uniform,mean=1"),
            "unknown key 'mean' for random:uniform in 'random:uniform,mean=1' "
            "(expected lo, hi, specials, seed)");
  EXPECT_EQ(parseError("random:codes,lo=1"),
            "unknown key 'lo' for random:codes in 'random:codes,lo=1' "
            "(expected seed)");
  EXPECT_EQ(parseError("random:int,lo=x"),
            "malformed number 'x' for 'lo' in 'random:int,lo=x'");
  EXPECT_EQ(parseError("random:int,lo=1,lo=2"),
            "duplicate key 'lo' in 'random:int,lo=1,lo=2'");
  EXPECT_EQ(parseError("random:uniform,lo=2,hi=1"),
            "lo (2) is greater than hi (1) in 'random:uniform,lo=2,hi=1'");
  EXPECT_EQ(parseError("random:uniform,seed=-1"),
            "malformed seed '-1' in 'random:uniform,seed=-1' (expected a "
            "non-negative integer)");
  EXPECT_EQ(parseError("random:normal,specials=1.5"),
            "specials must be a fraction in [0, 1] in "
            "'random:normal,specials=1.5'");
  EXPECT_EQ(parseError("random:normal,std=-1"),
            "std must be finite and non-negative in 'random:normal,std=-1'");
  EXPECT_EQ(parseError("fill:abc"),
            "malformed fill value 'abc' in 'fill:abc' (expected a number "
            "within the range of f64, or 0xHEX bits)");
  // A number past the range of f64 is not infinity; "inf" is.
  EXPECT_EQ(parseError("fill:1e400"),
            "malformed fill value '1e400' in 'fill:1e400' (expected a number "
            "within the range of f64, or 0xHEX bits)");
  EXPECT_EQ(parseError("fill:0xZZ"), "malformed bit pattern '0xZZ' in "
                                     "'fill:0xZZ'");
}

TEST(InputSpec, RandomDataIsDeterministic) {
  HostTensorType type(ElementKind::F32, {16, 16});
  for (StringRef spec : {"random:uniform", "random:normal,specials=0.1",
                         "random:int,lo=-3,hi=3"}) {
    HostTensor a = generate(spec, type, 42);
    HostTensor b = generate(spec, type, 42);
    HostTensor c = generate(spec, type, 43);
    EXPECT_EQ(a.data, b.data) << spec.str();
    EXPECT_NE(a.data, c.data) << spec.str();
  }
  // seed= overrides the default seed.
  EXPECT_EQ(generate("random:uniform,seed=7", type, 1).data,
            generate("random:uniform,seed=7", type, 2).data);
  // Distinct arguments get distinct default seeds.
  EXPECT_NE(deriveSeed(0, 0), deriveSeed(0, 1));
  EXPECT_NE(deriveSeed(0, 0), deriveSeed(1, 0));
  EXPECT_EQ(deriveSeed(5, 3), deriveSeed(5, 3));
}

TEST(InputSpec, UniformStaysInRange) {
  HostTensor tensor = generate("random:uniform,lo=2,hi=3",
                               HostTensorType(ElementKind::F32, {1000}));
  for (int64_t i = 0; i < tensor.getNumElements(); ++i) {
    EXPECT_GE(tensor.getValue(i), 2.0);
    EXPECT_LE(tensor.getValue(i), 3.0);
  }
}

TEST(InputSpec, ScalesDifferFromEveryNeighbour) {
  const std::vector<std::vector<int64_t>> shapes = {{64}, {16, 8}, {4, 6, 5}};
  for (ArrayRef<int64_t> shape : shapes) {
    HostTensor tensor = generate("random:scales",
                                 HostTensorType(ElementKind::F8E8M0FNU, shape));
    SmallVector<int64_t> strides = getRowMajorStrides(shape);
    std::set<uint64_t> seen;
    for (int64_t i = 0; i < tensor.getNumElements(); ++i) {
      uint64_t value = tensor.getBits(i);
      seen.insert(value);
      EXPECT_GE(value, 120u);
      EXPECT_LE(value, 134u);
      // Compare with the next element along every dimension.
      int64_t rest = i;
      for (size_t d = 0; d < shape.size(); ++d) {
        int64_t index = (rest / strides[d]) % shape[d];
        if (index + 1 < shape[d])
          EXPECT_NE(value, tensor.getBits(i + strides[d]))
              << "element " << formatIndex(shape, i) << " dimension " << d;
      }
    }
    EXPECT_GT(seen.size(), 5u);
  }
  // Two values cannot keep a 2-D tensor's neighbours distinct.
  EXPECT_EQ(generateError("random:scales,lo=1,hi=2",
                          HostTensorType(ElementKind::F8E8M0FNU, {4, 4})),
            "random:scales range [1, 2] has 2 values, too few to keep the "
            "neighbours of every element of a rank-2 tensor distinct");
  HostTensor narrow = generate("random:scales,lo=1,hi=2",
                               HostTensorType(ElementKind::F8E8M0FNU, {8}));
  for (int64_t i = 0; i + 1 < 8; ++i)
    EXPECT_NE(narrow.getBits(i), narrow.getBits(i + 1));
}

TEST(InputSpec, IntOnFp4GivesIntegerCodes) {
  HostTensor tensor = generate("random:int,lo=-3,hi=4",
                               HostTensorType(ElementKind::F4E2M1FN, {4096}));
  std::set<double> values;
  for (int64_t i = 0; i < tensor.getNumElements(); ++i) {
    uint64_t code = tensor.getBits(i);
    ASSERT_LT(code, 16u);
    double value = tensor.getValue(i);
    EXPECT_EQ(value, std::trunc(value));
    EXPECT_GE(value, -3.0);
    EXPECT_LE(value, 4.0);
    values.insert(value);
  }
  // The integers of E2M1 in [-3, 4]: -3 -2 -1 0 1 2 3 4.
  EXPECT_EQ(values, (std::set<double>{-3, -2, -1, 0, 1, 2, 3, 4}));
  EXPECT_EQ(generateError("random:int,lo=5,hi=5",
                          HostTensorType(ElementKind::F4E2M1FN, {4})),
            "random:int: no f4E2M1FN value is an integer in [5, 5]");
}

TEST(InputSpec, IntIsExactOrRejected) {
  HostTensor tensor = generate("random:int,lo=-256,hi=256",
                               HostTensorType(ElementKind::BF16, {512}));
  for (int64_t i = 0; i < tensor.getNumElements(); ++i)
    EXPECT_EQ(tensor.getValue(i), std::trunc(tensor.getValue(i)));
  EXPECT_EQ(generateError("random:int,lo=0,hi=300",
                          HostTensorType(ElementKind::BF16, {4})),
            "random:int range [0, 300] is not exactly representable in bf16 "
            "(integers up to 256)");
  EXPECT_EQ(generateError("random:int,lo=0,hi=300",
                          HostTensorType(ElementKind::I8, {4})),
            "random range [0, 300] does not fit in i8");
  EXPECT_EQ(
      generateError("random:int,lo=0.5", HostTensorType(ElementKind::F32, {4})),
      "random:int needs integer bounds, got [0.5, 4]");
}

TEST(InputSpec, CodesAreFinite) {
  for (ElementKind kind : {ElementKind::F8E4M3FN, ElementKind::F8E5M2,
                           ElementKind::F8E8M0FNU, ElementKind::F6E2M3FN}) {
    HostTensor tensor = generate("random:codes", HostTensorType(kind, {2048}));
    for (int64_t i = 0; i < tensor.getNumElements(); ++i)
      EXPECT_TRUE(std::isfinite(tensor.getValue(i)))
          << getElementKindName(kind).str() << " code " << tensor.getBits(i);
  }
}

TEST(InputSpec, SpecialsReplaceTheRequestedFraction) {
  HostTensor tensor = generate("random:uniform,lo=1,hi=2,specials=0.25",
                               HostTensorType(ElementKind::F32, {400}));
  int64_t specials = 0;
  for (int64_t i = 0; i < tensor.getNumElements(); ++i) {
    double value = tensor.getValue(i);
    if (!(value >= 1 && value <= 2))
      ++specials;
  }
  EXPECT_EQ(specials, 100);
}

TEST(InputSpec, FillAndErrors) {
  HostTensor scale =
      generate("fill:0.25", HostTensorType(ElementKind::F8E8M0FNU, {2}));
  EXPECT_EQ(scale.getBits(1), 125u);
  HostTensor nan =
      generate("fill:0x7fc0", HostTensorType(ElementKind::BF16, {1}));
  EXPECT_TRUE(std::isnan(nan.getValue(0)));
  HostTensor fp4 =
      generate("fill:-6", HostTensorType(ElementKind::F4E2M1FN, {1}));
  EXPECT_EQ(fp4.getBits(0), 0xFu);

  HostTensorType f32(ElementKind::F32, {4});
  EXPECT_EQ(
      generateError("fill:3", HostTensorType(ElementKind::F8E8M0FNU, {1})),
      "fill value 3 is not representable in f8E8M0FNU");
  EXPECT_EQ(
      generateError("fill:0x1F", HostTensorType(ElementKind::F4E2M1FN, {1})),
      "fill bits 0x1F do not fit in the 4 bits of f4E2M1FN");
  EXPECT_EQ(generateError("fill:1.5", HostTensorType(ElementKind::I32, {1})),
            "fill value 1.5 is not representable in i32");
  EXPECT_EQ(generateError("random:codes", f32),
            "random:codes needs an MX element type or f8E8M0FNU, not "
            "tensor<4xf32>");
  EXPECT_EQ(generateError("random:scales", f32),
            "random:scales needs element type f8E8M0FNU, not tensor<4xf32>");
  EXPECT_EQ(
      generateError("random:normal", HostTensorType(ElementKind::I32, {4})),
      "random:normal is not supported for tensor<4xi32> (use "
      "random:int)");
  EXPECT_EQ(generateError("random:uniform,specials=0.1",
                          HostTensorType(ElementKind::F4E2M1FN, {4})),
            "specials= is only supported for f16, bf16, f32 and f64 tensors, "
            "not tensor<4xf4E2M1FN>");
  EXPECT_EQ(generateError("file:/nonexistent/x.bin", f32),
            "cannot read the file '/nonexistent/x.bin': No such file or "
            "directory");
  EXPECT_EQ(generateError("npy:/dev/zero", f32),
            "cannot read the file '/dev/zero': not a regular file (a device, "
            "a FIFO or a directory has no size to check before reading)");
}

} // namespace
