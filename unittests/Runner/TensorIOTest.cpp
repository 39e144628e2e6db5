//===- TensorIOTest.cpp - file format and .npy tests ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expected byte strings are typed by hand from the format definitions, never
// produced by the code under test.
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/TensorIO.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::mx;

namespace {

/// Returns the bytes of \p text (which may contain NULs) as a vector.
std::vector<uint8_t> bytesOf(const std::string &text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

/// Builds a version 1.0 .npy file with the header dict \p dict.
std::vector<uint8_t> makeNpy(const std::string &dict,
                             const std::vector<uint8_t> &data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::vector<uint8_t> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  bytes.push_back(header.size() & 0xFF);
  bytes.push_back(header.size() >> 8);
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

std::string errorOf(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(FileFormat, PacksFp4TwoPerByteLowNibbleFirst) {
  HostTensor tensor(HostTensorType(ElementKind::F4E2M1FN, {5}));
  tensor.data = {0x1, 0x2, 0x3, 0x4, 0xF};
  EXPECT_EQ(toFileFormat(tensor), (std::vector<uint8_t>{0x21, 0x43, 0x0F}));

  llvm::Expected<HostTensor> back =
      fromFileFormat(tensor.type, std::vector<uint8_t>{0x21, 0x43, 0x0F});
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_EQ(back->data, tensor.data);
}

TEST(FileFormat, PacksFp6AsDenseSixBitStream) {
  // 1 | 2 << 6 | 3 << 12 | 4 << 18 = 0x103081.
  HostTensor tensor(HostTensorType(ElementKind::F6E3M2FN, {2, 2}));
  tensor.data = {1, 2, 3, 4};
  EXPECT_EQ(toFileFormat(tensor), (std::vector<uint8_t>{0x81, 0x30, 0x10}));
  llvm::Expected<HostTensor> back =
      fromFileFormat(tensor.type, std::vector<uint8_t>{0x81, 0x30, 0x10});
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_EQ(back->data, tensor.data);
}

TEST(FileFormat, OtherTypesAreTheJITLayout) {
  HostTensor tensor(HostTensorType(ElementKind::BF16, {2}));
  tensor.data = {0x80, 0x3F, 0x00, 0xC0};
  EXPECT_EQ(toFileFormat(tensor), tensor.data);
  EXPECT_EQ(HostTensorType(ElementKind::F8E4M3FN, {3, 5}).getFileSize(), 15);
  EXPECT_EQ(HostTensorType(ElementKind::F4E2M1FN, {3, 5}).getFileSize(), 8);
  EXPECT_EQ(HostTensorType(ElementKind::F6E2M3FN, {64}).getFileSize(), 48);
}

TEST(FileFormat, RejectsWrongSize) {
  llvm::Expected<HostTensor> tensor = fromFileFormat(
      HostTensorType(ElementKind::F4E2M1FN, {4, 64}), std::vector<uint8_t>(64));
  ASSERT_FALSE(static_cast<bool>(tensor));
  EXPECT_EQ(errorOf(tensor.takeError()),
            "has 64 bytes, expected 128 for tensor<4x64xf4E2M1FN> in the file "
            "format");
}

TEST(Npy, RoundTripsEveryKind) {
  for (ElementKind kind : getAllElementKinds()) {
    HostTensor tensor(HostTensorType(kind, {3, 2}));
    for (int64_t i = 0; i < 6; ++i)
      tensor.setBits(i, kind == ElementKind::I1 ? i % 2 : i + 1);
    llvm::Expected<HostTensor> back = readNpy(tensor.type, writeNpy(tensor));
    ASSERT_TRUE(static_cast<bool>(back))
        << getElementKindName(kind).str() << ": " << errorOf(back.takeError());
    EXPECT_EQ(back->data, tensor.data) << getElementKindName(kind).str();
  }
}

TEST(Npy, WritesAlignedVersion1Header) {
  HostTensor tensor(HostTensorType(ElementKind::F32, {5}));
  std::vector<uint8_t> bytes = writeNpy(tensor);
  ASSERT_GE(bytes.size(), 10u);
  size_t headerLength = bytes[8] | (bytes[9] << 8);
  EXPECT_EQ((10 + headerLength) % 64, 0u);
  EXPECT_EQ(bytes.size(), 10 + headerLength + 20);
  std::string header(bytes.begin() + 10, bytes.begin() + 10 + headerLength);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': "
                         "(5,), }",
                         0),
            0u);
  EXPECT_EQ(header.back(), '\n');
}

TEST(Npy, ReadsScalarsAndVersion2) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (), }";
  std::string header = dict;
  while ((12 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::vector<uint8_t> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0};
  bytes.push_back(header.size() & 0xFF);
  bytes.push_back(header.size() >> 8);
  bytes.push_back(0);
  bytes.push_back(0);
  bytes.insert(bytes.end(), header.begin(), header.end());
  for (uint8_t byte : {0x00, 0x00, 0xC0, 0x3F}) // 1.5f
    bytes.push_back(byte);
  llvm::Expected<HostTensor> tensor =
      readNpy(HostTensorType(ElementKind::F32, {}), bytes);
  ASSERT_TRUE(static_cast<bool>(tensor)) << errorOf(tensor.takeError());
  EXPECT_EQ(tensor->getValue(0), 1.5);
}

TEST(Npy, AcceptsPackedCodes) {
  // Four f4 codes per row of 4: 2 bytes per row.
  std::vector<uint8_t> bytes =
      makeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2), }",
              {0x21, 0x43, 0x65, 0x07});
  llvm::Expected<HostTensor> tensor =
      readNpy(HostTensorType(ElementKind::F4E2M1FN, {2, 4}), bytes);
  ASSERT_TRUE(static_cast<bool>(tensor)) << errorOf(tensor.takeError());
  EXPECT_EQ(tensor->data, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 0}));

  // Flat packed bytes work too; other shapes of that size do not.
  std::vector<uint8_t> flat =
      makeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (4,), }",
              {0x21, 0x43, 0x65, 0x07});
  llvm::Expected<HostTensor> fromFlat =
      readNpy(HostTensorType(ElementKind::F4E2M1FN, {2, 4}), flat);
  ASSERT_TRUE(static_cast<bool>(fromFlat)) << errorOf(fromFlat.takeError());
  EXPECT_EQ(fromFlat->data, tensor->data);
  std::vector<uint8_t> odd =
      makeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 4), }",
              {0x21, 0x43, 0x65, 0x07});
  llvm::Expected<HostTensor> fromOdd =
      readNpy(HostTensorType(ElementKind::F4E2M1FN, {2, 4}), odd);
  ASSERT_FALSE(static_cast<bool>(fromOdd));
  llvm::consumeError(fromOdd.takeError());

  // f6: 64 codes per row are 48 bytes.
  std::vector<uint8_t> fp6 =
      makeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 48), }",
              std::vector<uint8_t>(48, 0));
  EXPECT_TRUE(static_cast<bool>(
      readNpy(HostTensorType(ElementKind::F6E2M3FN, {1, 64}), fp6)));
}

TEST(Npy, AcceptsBF16BitsAsUnsignedOrSigned) {
  for (const char *descr : {"<u2", "<i2"}) {
    std::vector<uint8_t> bytes =
        makeNpy(std::string("{'descr': '") + descr +
                    "', 'fortran_order': False, 'shape': (1,), }",
                {0x80, 0x3F});
    llvm::Expected<HostTensor> tensor =
        readNpy(HostTensorType(ElementKind::BF16, {1}), bytes);
    ASSERT_TRUE(static_cast<bool>(tensor)) << errorOf(tensor.takeError());
    EXPECT_EQ(tensor->getValue(0), 1.0);
  }
}

TEST(Npy, RejectsMalformedFiles) {
  HostTensorType f32x2(ElementKind::F32, {2});
  std::vector<uint8_t> eightBytes(8, 0);
  struct Case {
    std::vector<uint8_t> bytes;
    HostTensorType type;
    std::string error;
  } cases[] = {
      {bytesOf("not numpy at all"), f32x2,
       "not a .npy file (bad magic string)"},
      {makeNpy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
               eightBytes),
       f32x2, "big-endian dtype '>f4' is not supported"},
      {makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }",
               eightBytes),
       f32x2, "dtype '<f8' does not match tensor<2xf32> (expected '<f4')"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }",
               eightBytes),
       f32x2, "shape (2, 1) does not match tensor<2xf32> (expected (2,))"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
               eightBytes),
       f32x2, "data has 8 bytes, expected 12 for shape (3,) and dtype '<f4'"},
      {makeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }",
               eightBytes),
       HostTensorType(ElementKind::F32, {1, 2}),
       "Fortran-order arrays are not supported"},
      {makeNpy("{'descr': '<f4', 'shape': (2,), }", eightBytes), f32x2,
       "header lacks one of 'descr', 'fortran_order', 'shape'"},
      {makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,) ",
               eightBytes),
       f32x2, "malformed header: expected ',' or '}'"},
      {makeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }",
               {0x10, 0x01}),
       HostTensorType(ElementKind::F4E2M1FN, {2}),
       "code 0x10 at index [0] does not fit in 4 bits"},
      {makeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }",
               {1, 2, 3}),
       HostTensorType(ElementKind::F4E2M1FN, {2, 2}),
       "shape (3,) does not match tensor<2x2xf4E2M1FN> (expected (2, 2) "
       "with one code per element, or packed codes of shape (2, 1) or "
       "(2,))"},
  };
  for (Case &c : cases) {
    llvm::Expected<HostTensor> tensor = readNpy(c.type, c.bytes);
    ASSERT_FALSE(static_cast<bool>(tensor)) << c.error;
    EXPECT_EQ(errorOf(tensor.takeError()), c.error);
  }
}

} // namespace
