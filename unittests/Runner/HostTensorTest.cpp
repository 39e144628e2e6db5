//===- HostTensorTest.cpp - element kinds and conversions -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mx;

namespace {

TEST(HostTensor, KindsMapToMLIRTypesAndBack) {
  MLIRContext context;
  for (ElementKind kind : getAllElementKinds()) {
    Type type = getMLIRType(kind, &context);
    EXPECT_EQ(getElementKind(type), kind);
    std::string printed;
    llvm::raw_string_ostream os(printed);
    type.print(os);
    EXPECT_EQ(printed, getElementKindName(kind).str());
    EXPECT_EQ(parseElementKind(printed), kind);
  }
  EXPECT_FALSE(getElementKind(IndexType::get(&context)).has_value());
  EXPECT_FALSE(
      getElementKind(IntegerType::get(&context, 8, IntegerType::Unsigned))
          .has_value());
}

TEST(HostTensor, StorageSizes) {
  EXPECT_EQ(getStorageBytes(ElementKind::F4E2M1FN), 1u);
  EXPECT_EQ(getStorageBytes(ElementKind::F6E3M2FN), 1u);
  EXPECT_EQ(getStorageBytes(ElementKind::BF16), 2u);
  EXPECT_EQ(getStorageBytes(ElementKind::F64), 8u);
  EXPECT_EQ(HostTensorType(ElementKind::F32, {3, 4}).getStorageSize(), 48);
  EXPECT_EQ(HostTensorType(ElementKind::F32, {}).getNumElements(), 1);
  EXPECT_EQ(HostTensorType(ElementKind::F32, {3, -1}).str(), "tensor<3x?xf32>");
  EXPECT_EQ(HostTensorType(ElementKind::I1, {}).str(), "tensor<i1>");
}

TEST(HostTensor, DecodesAndEncodes) {
  EXPECT_EQ(decodeElement(ElementKind::F4E2M1FN, 0x7), 6.0);
  EXPECT_EQ(decodeElement(ElementKind::F4E2M1FN, 0xF), -6.0);
  EXPECT_EQ(decodeElement(ElementKind::F8E8M0FNU, 127), 1.0);
  EXPECT_TRUE(std::isnan(decodeElement(ElementKind::F8E8M0FNU, 0xFF)));
  EXPECT_EQ(decodeElement(ElementKind::BF16, 0x3FC0), 1.5);
  EXPECT_EQ(decodeElement(ElementKind::I8, 0xFF), -1.0);
  EXPECT_EQ(decodeElement(ElementKind::I1, 1), 1.0);

  EXPECT_EQ(encodeElement(ElementKind::BF16, 1.5), 0x3FC0u);
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7 in bf16: even is 1.
  EXPECT_EQ(encodeElement(ElementKind::BF16, 1.00390625), 0x3F80u);
  EXPECT_FALSE(encodeElement(ElementKind::BF16, 1.00390625, /*exact=*/true));
  EXPECT_EQ(encodeElement(ElementKind::F4E2M1FN, 100.0), 0x7u); // saturates
  EXPECT_FALSE(encodeElement(ElementKind::F4E2M1FN, NAN).has_value());
  EXPECT_EQ(encodeElement(ElementKind::F8E8M0FNU, 0.5), 126u);
  EXPECT_FALSE(encodeElement(ElementKind::F8E8M0FNU, 0.75).has_value());
  EXPECT_EQ(encodeElement(ElementKind::I16, -2.0), 0xFFFEu);
  EXPECT_FALSE(encodeElement(ElementKind::I8, 128.0).has_value());
  EXPECT_FALSE(encodeElement(ElementKind::I1, 2.0).has_value());
}

TEST(HostTensor, BitsAreLittleEndianAndMasked) {
  HostTensor tensor(HostTensorType(ElementKind::I16, {2}));
  tensor.setBits(1, 0x12345);
  EXPECT_EQ(tensor.data, (std::vector<uint8_t>{0, 0, 0x45, 0x23}));
  EXPECT_EQ(tensor.getBits(1), 0x2345u);
  HostTensor codes(HostTensorType(ElementKind::F6E2M3FN, {1}));
  codes.setBits(0, 0xFF);
  EXPECT_EQ(codes.data[0], 0x3F);
  EXPECT_EQ(formatIndex({2, 3, 4}, 23), "[1, 2, 3]");
}

} // namespace
