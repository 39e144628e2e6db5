//===- HostProgramTest.cpp - the wave emulator on whole host programs -----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The emulator running what the gfx950 pipeline produces right before the
// conversion to ROCDL: a host `func.func` with allocations, views and
// several `gpu.launch_func` of relayout kernels whose tail workgroup
// diverges, plus the pieces on their own: strided views and
// `memref.reinterpret_cast` in kernels, `memref.get_global`, divergent
// `scf.if` with results, and the errors for what is not modelled (divergent
// loop bounds, barriers and MFMAs under a partially active wave) or not
// allowed (out-of-bounds accesses through views, writes to constants, use
// after dealloc). All IR is hand-written; results are compared element by
// element with plain C++.
//
//===----------------------------------------------------------------------===//

#include "mx/Emulator/WaveEmulator.h"

#include "EmulatorTestUtils.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::mx::emu;

namespace {

using mlir::mx::emu::test::message;

/// Whether `text` contains `part` (for readable EXPECTs).
bool contains(const std::string &text, StringRef part) {
  return text.find(part.str()) != std::string::npos;
}

class HostProgramTest : public ::testing::Test {
protected:
  HostProgramTest() {
    DialectRegistry registry;
    registry
        .insert<affine::AffineDialect, amdgpu::AMDGPUDialect,
                arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                math::MathDialect, memref::MemRefDialect, ROCDL::ROCDLDialect,
                scf::SCFDialect, vector::VectorDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef text) {
    return mlir::mx::emu::test::parseModule(ctx, text);
  }

  static func::FuncOp findFunction(ModuleOp module, StringRef name) {
    return module.lookupSymbol<func::FuncOp>(name);
  }

  static gpu::GPUFuncOp findKernel(ModuleOp module, StringRef name) {
    return mlir::mx::emu::test::findKernel(module, name);
  }

  /// Runs @`name` of `module` on `args`; the error message or "".
  std::string run(ModuleOp module, StringRef name, ArrayRef<HostValue> args,
                  SmallVector<HostValue> *results = nullptr,
                  HostRunStats *stats = nullptr) {
    func::FuncOp function = findFunction(module, name);
    if (!function)
      return "no function @" + name.str();
    llvm::Expected<SmallVector<HostValue>> values =
        runHostFunction(function, args, stats);
    if (!values)
      return message(values.takeError());
    if (results)
      *results = std::move(*values);
    return "";
  }

  MLIRContext ctx;
};

//===----------------------------------------------------------------------===//
// A host program: allocations, views, three launches, a call
//===----------------------------------------------------------------------===//

/// Pads a 33x112 i8 matrix into a 64x128 allocation (fill with -1, then copy
/// into a subview), transposes the padded subview into a 112x33 allocation
/// (through a host call, XOR 0x5A) and copies the subview with memref.copy.
/// The copy and transpose grids (15 x 256 threads for 3696 elements) end in a
/// workgroup where only 112 threads pass the bounds check.
constexpr const char *kRelayoutProgram = R"mlir(
module attributes {gpu.container_module} {
  func.func @transpose_into(%src: memref<33x112xi8, strided<[128, 1]>>, %dst: memref<112x33xi8>) {
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @transpose::@transpose blocks in (%c15, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%src : memref<33x112xi8, strided<[128, 1]>>, %dst : memref<112x33xi8>)
    return
  }

  func.func @relayout(%arg0: memref<33x112xi8>)
      -> (memref<64x128xi8>, memref<2x32x128xi8>, memref<112x33xi8>, memref<33x112xi8>) {
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %pad = arith.constant -1 : i8
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<64x128xi8>
    %flat = memref.collapse_shape %alloc [[0, 1]] : memref<64x128xi8> into memref<8192xi8>
    gpu.launch_func @fill::@fill blocks in (%c32, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%flat : memref<8192xi8>, %pad : i8)
    %subview = memref.subview %alloc[0, 0] [33, 112] [1, 1]
        : memref<64x128xi8> to memref<33x112xi8, strided<[128, 1]>>
    gpu.launch_func @copy::@copy blocks in (%c15, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%arg0 : memref<33x112xi8>, %subview : memref<33x112xi8, strided<[128, 1]>>)
    %t = memref.alloc() : memref<112x33xi8>
    call @transpose_into(%subview, %t) : (memref<33x112xi8, strided<[128, 1]>>, memref<112x33xi8>) -> ()
    %e = memref.expand_shape %alloc [[0, 1], [2]] output_shape [2, 32, 128]
        : memref<64x128xi8> into memref<2x32x128xi8>
    %c = memref.alloc() : memref<33x112xi8>
    memref.copy %subview, %c : memref<33x112xi8, strided<[128, 1]>> to memref<33x112xi8>
    %tmp = memref.alloc() : memref<16xf32>
    memref.dealloc %tmp : memref<16xf32>
    return %alloc, %e, %t, %c : memref<64x128xi8>, memref<2x32x128xi8>, memref<112x33xi8>, memref<33x112xi8>
  }

  gpu.module @fill [#rocdl.target<chip = "gfx950">] {
    gpu.func @fill(%dst: memref<8192xi8>, %v: i8) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %base = arith.muli %bid, %c256 : index
      %id = arith.addi %base, %tid : index
      memref.store %v, %dst[%id] : memref<8192xi8>
      gpu.return
    }
  }

  gpu.module @copy [#rocdl.target<chip = "gfx950">] {
    gpu.func @copy(%src: memref<33x112xi8>, %dst: memref<33x112xi8, strided<[128, 1]>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %n = arith.constant 3696 : index
      %base = arith.muli %bid, %c256 : index
      %id = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %id, %n : index
      scf.if %in {
        %i:2 = affine.delinearize_index %id into (33, 112) : index, index
        %g = memref.memory_space_cast %src
            : memref<33x112xi8> to memref<33x112xi8, #gpu.address_space<global>>
        %v = memref.load %g[%i#0, %i#1] : memref<33x112xi8, #gpu.address_space<global>>
        memref.store %v, %dst[%i#0, %i#1] : memref<33x112xi8, strided<[128, 1]>>
      }
      gpu.return
    }
  }

  gpu.module @transpose [#rocdl.target<chip = "gfx950">] {
    gpu.func @transpose(%src: memref<33x112xi8, strided<[128, 1]>>, %dst: memref<112x33xi8>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %n = arith.constant 3696 : index
      %mask = arith.constant 90 : i8
      %base = arith.muli %bid, %c256 : index
      %id = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %id, %n : index
      scf.if %in {
        // dst[r, c] = src[c, r]; src is read as 33x7x16, dst written flat.
        %rc:2 = affine.delinearize_index %id into (112, 33) : index, index
        %hl:2 = affine.delinearize_index %rc#0 into (7, 16) : index, index
        %src3 = memref.expand_shape %src [[0], [1, 2]] output_shape [33, 7, 16]
            : memref<33x112xi8, strided<[128, 1]>> into memref<33x7x16xi8, strided<[128, 16, 1]>>
        %v = memref.load %src3[%rc#1, %hl#0, %hl#1] : memref<33x7x16xi8, strided<[128, 16, 1]>>
        %x = arith.xori %v, %mask : i8
        %lin = affine.linearize_index [%rc#0, %rc#1] by (112, 33) : index
        %flat = memref.collapse_shape %dst [[0, 1]] : memref<112x33xi8> into memref<3696xi8>
        memref.store %x, %flat[%lin] : memref<3696xi8>
      }
      gpu.return
    }
  }
}
)mlir";

TEST_F(HostProgramTest, RelayoutProgramMatchesCpp) {
  OwningOpRef<ModuleOp> module = parse(kRelayoutProgram);
  ASSERT_TRUE(module);
  const int64_t rows = 33, cols = 112;
  auto input = std::make_shared<HostBuffer>(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      input->bytes[r * cols + c] = uint8_t(r * 7 + c * 3 + 1);
  SmallVector<HostValue> results;
  HostRunStats stats;
  ASSERT_EQ(run(*module, "relayout", {HostValue::memref(input, {rows, cols})},
                &results, &stats),
            "");
  ASSERT_EQ(results.size(), 4u);

  auto in = [&](int64_t r, int64_t c) {
    return int8_t(input->bytes[r * cols + c]);
  };
  // The padded 64x128 allocation, also seen as 2x32x128.
  std::vector<int8_t> padded = results[0].read<int8_t>();
  std::vector<int8_t> expanded = results[1].read<int8_t>();
  ASSERT_EQ(padded.size(), 64u * 128u);
  ASSERT_EQ(expanded.size(), 64u * 128u);
  EXPECT_EQ(results[1].getLayout().sizes,
            (SmallVector<int64_t, 4>{2, 32, 128}));
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 128; ++c) {
      int8_t expected = r < rows && c < cols ? in(r, c) : int8_t(-1);
      ASSERT_EQ(padded[r * 128 + c], expected) << "padded " << r << ", " << c;
      ASSERT_EQ(expanded[r * 128 + c], expected)
          << "expanded " << r << ", " << c;
    }
  // The transpose, XOR 0x5A.
  std::vector<int8_t> transposed = results[2].read<int8_t>();
  ASSERT_EQ(transposed.size(), size_t(rows * cols));
  for (int64_t r = 0; r < cols; ++r)
    for (int64_t c = 0; c < rows; ++c)
      ASSERT_EQ(transposed[r * rows + c], int8_t(in(c, r) ^ 0x5A))
          << "transposed " << r << ", " << c;
  // memref.copy of the strided subview.
  std::vector<int8_t> copied = results[3].read<int8_t>();
  ASSERT_EQ(copied.size(), size_t(rows * cols));
  for (int64_t i = 0; i < rows * cols; ++i)
    ASSERT_EQ(copied[i], in(i / cols, i % cols)) << "copy " << i;

  // The results keep their allocations alive and are fully written.
  EXPECT_EQ(results[0].getBuffer(), results[1].getBuffer());
  for (uint8_t written : results[0].getBuffer()->initialized)
    ASSERT_EQ(written, 1);

  EXPECT_EQ(stats.launches, 3);
  EXPECT_EQ(stats.workgroups, 32 + 15 + 15);
  EXPECT_EQ(stats.mfmas, 0);
  EXPECT_GT(stats.hostOperations, 10);
  EXPECT_GT(stats.kernelOperations, stats.workgroups);
  EXPECT_EQ(stats.launchesPerKernel,
            (std::map<std::string, int64_t>{{"@copy::@copy", 1},
                                            {"@fill::@fill", 1},
                                            {"@transpose::@transpose", 1}}));
}

/// The same copy kernel without its bounds check: the tail workgroup writes
/// row 33 of the strided 33x112 subview, which is inside the 64x128
/// allocation but outside the view.
constexpr const char *kUnguardedProgram = R"mlir(
module attributes {gpu.container_module} {
  func.func @unguarded() -> memref<64x128xi8> {
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c256 = arith.constant 256 : index
    %alloc = memref.alloc() : memref<64x128xi8>
    %subview = memref.subview %alloc[0, 0] [33, 112] [1, 1]
        : memref<64x128xi8> to memref<33x112xi8, strided<[128, 1]>>
    gpu.launch_func @k::@iota blocks in (%c15, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%subview : memref<33x112xi8, strided<[128, 1]>>)
    return %alloc : memref<64x128xi8>
  }

  func.func @read_unwritten() -> memref<64x128xi8> {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %alloc = memref.alloc() : memref<64x128xi8>
    %out = memref.alloc() : memref<64x128xi8>
    gpu.launch_func @k::@copy_row blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%alloc : memref<64x128xi8>, %out : memref<64x128xi8>)
    return %out : memref<64x128xi8>
  }

  func.func @use_after_dealloc() {
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c256 = arith.constant 256 : index
    %alloc = memref.alloc() : memref<64x128xi8>
    memref.dealloc %alloc : memref<64x128xi8>
    %subview = memref.subview %alloc[0, 0] [33, 112] [1, 1]
        : memref<64x128xi8> to memref<33x112xi8, strided<[128, 1]>>
    gpu.launch_func @k::@iota blocks in (%c15, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%subview : memref<33x112xi8, strided<[128, 1]>>)
    return
  }

  func.func @device_op_on_host() -> index {
    %t = gpu.thread_id x
    return %t : index
  }

  gpu.module @k {
    gpu.func @iota(%dst: memref<33x112xi8, strided<[128, 1]>>) kernel {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %base = arith.muli %bid, %c256 : index
      %id = arith.addi %base, %tid : index
      %i:2 = affine.delinearize_index %id into (33, 112) : index, index
      %v = arith.index_cast %id : index to i8
      memref.store %v, %dst[%i#0, %i#1] : memref<33x112xi8, strided<[128, 1]>>
      gpu.return
    }
    gpu.func @copy_row(%src: memref<64x128xi8>, %dst: memref<64x128xi8>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %src[%c0, %tid] : memref<64x128xi8>
      memref.store %v, %dst[%c0, %tid] : memref<64x128xi8>
      gpu.return
    }
  }
}
)mlir";

TEST_F(HostProgramTest, OutOfBoundsThroughStridedViewNamesOpThreadAndIndex) {
  OwningOpRef<ModuleOp> module = parse(kUnguardedProgram);
  ASSERT_TRUE(module);
  HostRunStats stats;
  std::string error = run(*module, "unguarded", {}, nullptr, &stats);
  std::printf("[ info ] %s\n", error.c_str());
  EXPECT_TRUE(contains(error, "host function @unguarded: 'gpu.launch_func' "
                              "at loc("))
      << error;
  EXPECT_TRUE(contains(error, "launch of @k::@iota (grid [15, 1, 1], block "
                              "[256, 1, 1]) failed: kernel @iota: "
                              "'memref.store' at loc("))
      << error;
  EXPECT_TRUE(contains(error, "in workgroup (14, 0, 0): thread 112 (112, 0, "
                              "0): write at index [33, 0] of "
                              "memref<33x112xi8, strided<[128, 1]>> with "
                              "shape [33, 112]"))
      << error;
  EXPECT_TRUE(contains(error, "kernel argument #0, 'memref.alloc' at loc("))
      << error;
  EXPECT_TRUE(contains(error, "is out of bounds")) << error;
  // The failing launch is counted; the 14 complete workgroups ran.
  EXPECT_EQ(stats.launches, 1);
  EXPECT_EQ(stats.workgroups, 14);
}

TEST_F(HostProgramTest, HostMemoryErrors) {
  OwningOpRef<ModuleOp> module = parse(kUnguardedProgram);
  ASSERT_TRUE(module);
  std::string error = run(*module, "read_unwritten", {});
  EXPECT_TRUE(contains(error, "'memref.load'")) << error;
  EXPECT_TRUE(contains(error, "thread 0 ")) << error;
  EXPECT_TRUE(contains(error, "reads memory that was never written")) << error;

  error = run(*module, "use_after_dealloc", {});
  EXPECT_TRUE(contains(error, "'gpu.launch_func'")) << error;
  EXPECT_TRUE(contains(error, "after its memref.dealloc")) << error;

  error = run(*module, "device_op_on_host", {});
  EXPECT_TRUE(contains(error, "'gpu.thread_id'")) << error;
  EXPECT_TRUE(contains(error, "device operation in host code")) << error;
}

TEST_F(HostProgramTest, HostArgumentMustMatchItsType) {
  OwningOpRef<ModuleOp> module = parse(kRelayoutProgram);
  ASSERT_TRUE(module);
  auto input = std::make_shared<HostBuffer>(33 * 128);
  StridedLayout padded;
  padded.sizes = {33, 112};
  padded.strides = {128, 1};
  // An identity-layout argument cannot be a padded view.
  std::string error =
      run(*module, "relayout", {HostValue::memref(input, padded)});
  EXPECT_TRUE(contains(error, "argument #0 of @relayout")) << error;
  EXPECT_TRUE(contains(error, "stride of dimension 0")) << error;
  error = run(*module, "relayout", {HostValue::integer(3)});
  EXPECT_TRUE(contains(error, "is a memref")) << error;
}

//===----------------------------------------------------------------------===//
// Globals
//===----------------------------------------------------------------------===//

constexpr const char *kGlobalsProgram = R"mlir(
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<2x8xi8> =
      dense<[[0, 1, 2, 3, 4, 5, 6, 7], [-8, -7, -6, -5, -4, -3, -2, -1]]>
  memref.global "private" constant @scales : memref<4xf8E8M0FNU> = dense<[1.0, 2.0, 0.5, 4.0]>
  memref.global "private" constant @splat : memref<3xf32> = dense<1.5>
  memref.global "private" constant @halves : memref<2xbf16> = dense<[1.0, -2.5]>
  memref.global "private" constant @e4m3 : memref<2xf8E4M3FN> = dense<[1.0, -448.0]>
  memref.global "private" constant @words : memref<2xi32> = dense<[100000, -3]>

  func.func @globals() -> (memref<2x8xi8>, memref<4xf8E8M0FNU>, memref<3xf32>,
                           memref<2xbf16>, memref<2xf8E4M3FN>, memref<2xi32>, memref<2x8xi8>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t = memref.get_global @table : memref<2x8xi8>
    %s = memref.get_global @scales : memref<4xf8E8M0FNU>
    %f = memref.get_global @splat : memref<3xf32>
    %h = memref.get_global @halves : memref<2xbf16>
    %e = memref.get_global @e4m3 : memref<2xf8E4M3FN>
    %w = memref.get_global @words : memref<2xi32>
    %o = memref.alloc() : memref<2x8xi8>
    gpu.launch_func @k::@bias_minus blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%t : memref<2x8xi8>, %o : memref<2x8xi8>)
    return %t, %s, %f, %h, %e, %w, %o : memref<2x8xi8>, memref<4xf8E8M0FNU>, memref<3xf32>,
        memref<2xbf16>, memref<2xf8E4M3FN>, memref<2xi32>, memref<2x8xi8>
  }

  func.func @write_constant() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t = memref.get_global @table : memref<2x8xi8>
    %o = memref.alloc() : memref<2x8xi8>
    gpu.launch_func @k::@bias_minus blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%t : memref<2x8xi8>, %t : memref<2x8xi8>)
    return
  }

  gpu.module @k {
    memref.global "private" constant @bias : memref<8xi8> = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
    // dst[r, c] = bias[c] - src[r, c]
    gpu.func @bias_minus(%src: memref<2x8xi8>, %dst: memref<2x8xi8>) kernel {
      %tid = gpu.thread_id x
      %i:2 = affine.delinearize_index %tid into (2, 8) : index, index
      %bias = memref.get_global @bias : memref<8xi8>
      %b = memref.load %bias[%i#1] : memref<8xi8>
      %v = memref.load %src[%i#0, %i#1] : memref<2x8xi8>
      %d = arith.subi %b, %v : i8
      memref.store %d, %dst[%i#0, %i#1] : memref<2x8xi8>
      gpu.return
    }
  }
}
)mlir";

TEST_F(HostProgramTest, GetGlobalReadsInitializers) {
  OwningOpRef<ModuleOp> module = parse(kGlobalsProgram);
  ASSERT_TRUE(module);
  SmallVector<HostValue> results;
  ASSERT_EQ(run(*module, "globals", {}, &results), "");
  ASSERT_EQ(results.size(), 7u);
  std::vector<int8_t> table = results[0].read<int8_t>();
  std::vector<int8_t> expectedTable = {0,  1,  2,  3,  4,  5,  6,  7,
                                       -8, -7, -6, -5, -4, -3, -2, -1};
  EXPECT_EQ(table, expectedTable);
  // E8M0: 2^(e - 127).
  EXPECT_EQ(results[1].read<uint8_t>(),
            (std::vector<uint8_t>{127, 128, 126, 129}));
  EXPECT_EQ(results[2].read<float>(), (std::vector<float>{1.5f, 1.5f, 1.5f}));
  EXPECT_EQ(results[3].read<uint16_t>(),
            (std::vector<uint16_t>{0x3F80, 0xC020}));
  // E4M3FN: 1.0 = 0 0111 000, -448 = 1 1111 110.
  EXPECT_EQ(results[4].read<uint8_t>(), (std::vector<uint8_t>{0x38, 0xFE}));
  EXPECT_EQ(results[5].read<int32_t>(), (std::vector<int32_t>{100000, -3}));
  std::vector<int8_t> out = results[6].read<int8_t>();
  ASSERT_EQ(out.size(), 16u);
  for (int64_t i = 0; i < 16; ++i)
    EXPECT_EQ(out[i], int8_t(1 + i % 8 - expectedTable[i])) << "element " << i;
  EXPECT_TRUE(results[0].getBuffer()->readOnly);
}

TEST_F(HostProgramTest, WriteToConstantGlobalIsAnError) {
  OwningOpRef<ModuleOp> module = parse(kGlobalsProgram);
  ASSERT_TRUE(module);
  std::string error = run(*module, "write_constant", {});
  EXPECT_TRUE(contains(error, "'memref.store'")) << error;
  EXPECT_TRUE(contains(error, "write to the constant kernel argument #1, "
                              "memref.global @table"))
      << error;
}

//===----------------------------------------------------------------------===//
// Kernels: views, divergence
//===----------------------------------------------------------------------===//

constexpr const char *kKernels = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    // out[t] = buf[off + (t / 8) * 16 + t % 8]
    gpu.func @window(%buf: memref<?xf32>, %off: index, %out: memref<32xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.reinterpret_cast %buf to offset: [%off], sizes: [4, 8], strides: [16, 1]
          : memref<?xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
      %i:2 = affine.delinearize_index %tid into (4, 8) : index, index
      %x = memref.load %v[%i#0, %i#1] : memref<4x8xf32, strided<[16, 1], offset: ?>>
      memref.store %x, %out[%tid] : memref<32xf32>
      gpu.return
    }

    // Per-thread rows, chosen by a divergent branch:
    // out[t] = m[t < 16 ? t : 47 - t, 3].
    gpu.func @row_views(%m: memref<32x8xf32>, %out: memref<32xf32>) kernel {
      %tid = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %c47 = arith.constant 47 : index
      %lt = arith.cmpi ult, %tid, %c16 : index
      %row = scf.if %lt -> (memref<8xf32, strided<[1], offset: ?>>) {
        %a = memref.subview %m[%tid, 0] [1, 8] [1, 1]
            : memref<32x8xf32> to memref<8xf32, strided<[1], offset: ?>>
        scf.yield %a : memref<8xf32, strided<[1], offset: ?>>
      } else {
        %r = arith.subi %c47, %tid : index
        %b = memref.subview %m[%r, 0] [1, 8] [1, 1]
            : memref<32x8xf32> to memref<8xf32, strided<[1], offset: ?>>
        scf.yield %b : memref<8xf32, strided<[1], offset: ?>>
      }
      %x = memref.load %row[%c3] : memref<8xf32, strided<[1], offset: ?>>
      memref.store %x, %out[%tid] : memref<32xf32>
      gpu.return
    }

    gpu.func @strided_arg(%m: memref<4x8xf32, strided<[?, 1], offset: ?>>, %out: memref<4x8xf32>) kernel {
      %tid = gpu.thread_id x
      %i:2 = affine.delinearize_index %tid into (4, 8) : index, index
      %x = memref.load %m[%i#0, %i#1] : memref<4x8xf32, strided<[?, 1], offset: ?>>
      memref.store %x, %out[%i#0, %i#1] : memref<4x8xf32>
      gpu.return
    }

    // Threads below 70 load (in has 70 elements) and take a nested branch;
    // the others write `flag` and yield constants.
    gpu.func @divergent_if(%in: memref<70xf32>, %out: memref<128xf32>,
                           %ids: memref<128xi32>, %flag: memref<128xi32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c70 = arith.constant 70 : index
      %lt = arith.cmpi ult, %tid, %c70 : index
      %r:2 = scf.if %lt -> (f32, i32) {
        %v = memref.load %in[%tid] : memref<70xf32>
        %m = arith.remui %tid, %c3 : index
        %z = arith.cmpi eq, %m, %c0 : index
        %w = scf.if %z -> (f32) {
          %zero = arith.constant 0.0 : f32
          %mx = arith.maximumf %v, %zero : f32
          scf.yield %mx : f32
        } else {
          %two = arith.constant 2.0 : f32
          %d = arith.mulf %v, %two : f32
          scf.yield %d : f32
        }
        %one = arith.constant 1 : i32
        scf.yield %w, %one : f32, i32
      } else {
        %t = arith.index_cast %tid : index to i32
        %neg = arith.constant -1.0 : f32
        memref.store %t, %flag[%tid] : memref<128xi32>
        scf.yield %neg, %t : f32, i32
      }
      memref.store %r#0, %out[%tid] : memref<128xf32>
      memref.store %r#1, %ids[%tid] : memref<128xi32>
      gpu.return
    }

    // Under tid >= 64 the bound tid / 64 is 1 for every active thread.
    gpu.func @bound_uniform_when_active(%out: memref<128xi32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %z = arith.constant 0 : i32
      %c7 = arith.constant 7 : i32
      %hi = arith.cmpi uge, %tid, %c64 : index
      scf.if %hi {
        %n = arith.divui %tid, %c64 : index
        %s = scf.for %k = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
          %b = arith.addi %a, %c7 : i32
          scf.yield %b : i32
        }
        memref.store %s, %out[%tid] : memref<128xi32>
      }
      gpu.return
    }

    gpu.func @divergent_bound(%out: memref<128xi32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %z = arith.constant 0 : i32
      %n = arith.remui %tid, %c4 : index
      scf.for %k = %c0 to %n step %c1 {
        memref.store %z, %out[%k] : memref<128xi32>
      }
      gpu.return
    }

    gpu.func @divergent_barrier(%out: memref<128xi32>) kernel {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %lt = arith.cmpi ult, %tid, %c64 : index
      scf.if %lt {
        gpu.barrier
      }
      gpu.return
    }

    // One 16x16x128 fp4 MFMA (all ones, unit scales) under tid < LIMIT;
    // the other threads keep the accumulator -1.
    gpu.func @mfma_under_if(%out: memref<?x4xf32>, %limit: index) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %lt = arith.cmpi ult, %tid, %limit : index
      %acc = arith.constant dense<-1.0> : vector<4xf32>
      %r = scf.if %lt -> (vector<4xf32>) {
        %bytes = arith.constant dense<34> : vector<16xi8>
        %nibbles = vector.bitcast %bytes : vector<16xi8> to vector<32xi4>
        %a = arith.bitcast %nibbles : vector<32xi4> to vector<32xf4E2M1FN>
        %s = arith.constant 1.0 : f8E8M0FNU
        %zero = arith.constant dense<0.0> : vector<4xf32>
        %y = amdgpu.scaled_mfma 16x16x128 (%s[0] * %a) * (%s[0] * %a) + %zero
            : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
        scf.yield %y : vector<4xf32>
      } else {
        scf.yield %acc : vector<4xf32>
      }
      vector.store %r, %out[%tid, %c0] : memref<?x4xf32>, vector<4xf32>
      gpu.return
    }
  }
}
)mlir";

TEST_F(HostProgramTest, ReinterpretCastWithDynamicOffset) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "window");
  ASSERT_TRUE(kernel);
  std::vector<float> values(64);
  for (int64_t i = 0; i < 64; ++i)
    values[i] = float(i) * 0.5f - 3.0f;
  HostBuffer buf = HostBuffer::from<float>(values);
  HostBuffer out(32 * 4);
  const int64_t offset = 5;
  ASSERT_EQ(message(runKernel(kernel,
                              {HostValue::memref(buf, {64}),
                               HostValue::integer(offset),
                               HostValue::memref(out, {32})},
                              {1, 1, 1}, {32, 1, 1})),
            "");
  std::vector<float> got = out.as<float>();
  for (int64_t t = 0; t < 32; ++t)
    EXPECT_EQ(got[t], values[offset + (t / 8) * 16 + t % 8]) << "thread " << t;

  // Offset 20 makes rows 3.. leave the 64-element buffer: thread 24 reads
  // element 68.
  std::string error =
      message(runKernel(kernel,
                        {HostValue::memref(buf, {64}), HostValue::integer(20),
                         HostValue::memref(out, {32})},
                        {1, 1, 1}, {32, 1, 1}));
  EXPECT_TRUE(contains(error, "'memref.load' at loc(")) << error;
  EXPECT_TRUE(contains(error, "thread 24 (24, 0, 0): read at index [3, 0]"))
      << error;
  EXPECT_TRUE(contains(error, "touches bytes [272, 276) outside its storage "
                              "of 256 bytes"))
      << error;
}

TEST_F(HostProgramTest, PerThreadSubviewsMergedByDivergentIf) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  std::vector<float> values(32 * 8);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i) * 0.125f;
  HostBuffer m = HostBuffer::from<float>(values);
  HostBuffer out(32 * 4);
  ASSERT_EQ(message(runKernel(
                findKernel(*module, "row_views"),
                {HostValue::memref(m, {32, 8}), HostValue::memref(out, {32})},
                {1, 1, 1}, {32, 1, 1})),
            "");
  std::vector<float> got = out.as<float>();
  for (int64_t t = 0; t < 32; ++t)
    EXPECT_EQ(got[t], values[(t < 16 ? t : 47 - t) * 8 + 3]) << "thread " << t;
}

TEST_F(HostProgramTest, StridedKernelArgument) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "strided_arg");
  ASSERT_TRUE(kernel);
  std::vector<float> values(48);
  for (int64_t i = 0; i < 48; ++i)
    values[i] = float(i) + 0.25f;
  HostBuffer buf = HostBuffer::from<float>(values);
  HostBuffer out(32 * 4);
  StridedLayout layout;
  layout.offset = 3;
  layout.sizes = {4, 8};
  layout.strides = {10, 1};
  ASSERT_EQ(message(runKernel(
                kernel,
                {HostValue::view(buf, layout), HostValue::memref(out, {4, 8})},
                {1, 1, 1}, {32, 1, 1})),
            "");
  std::vector<float> got = out.as<float>();
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(got[r * 8 + c], values[3 + 10 * r + c]) << r << ", " << c;

  // The static unit stride of the type must hold.
  layout.strides = {10, 2};
  std::string error = message(runKernel(
      kernel, {HostValue::view(buf, layout), HostValue::memref(out, {4, 8})},
      {1, 1, 1}, {32, 1, 1}));
  EXPECT_TRUE(contains(error, "kernel argument #0")) << error;
  EXPECT_TRUE(contains(error, "stride of dimension 1")) << error;
}

TEST_F(HostProgramTest, DivergentIfMergesResultsPerThread) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "divergent_if");
  ASSERT_TRUE(kernel);
  std::vector<float> in(70);
  for (int64_t i = 0; i < 70; ++i)
    in[i] = float(i - 35) * 0.5f;
  HostBuffer input = HostBuffer::from<float>(in);
  HostBuffer out(128 * 4), ids(128 * 4);
  HostBuffer flag = HostBuffer::from<int32_t>(std::vector<int32_t>(128, 12345));
  ASSERT_EQ(message(runKernel(
                kernel,
                {HostValue::memref(input, {70}), HostValue::memref(out, {128}),
                 HostValue::memref(ids, {128}), HostValue::memref(flag, {128})},
                {1, 1, 1}, {128, 1, 1})),
            "");
  std::vector<float> gotOut = out.as<float>();
  std::vector<int32_t> gotIds = ids.as<int32_t>(), gotFlag = flag.as<int32_t>();
  for (int64_t t = 0; t < 128; ++t) {
    float expected = -1.0f;
    if (t < 70)
      expected = t % 3 == 0 ? std::max(in[t], 0.0f) : in[t] * 2.0f;
    EXPECT_EQ(gotOut[t], expected) << "thread " << t;
    EXPECT_EQ(gotIds[t], t < 70 ? 1 : int32_t(t)) << "thread " << t;
    // Only the else branch's threads stored.
    EXPECT_EQ(gotFlag[t], t < 70 ? 12345 : int32_t(t)) << "thread " << t;
  }
}

TEST_F(HostProgramTest, LoopBoundUniformOverActiveThreadsIsFine) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  HostBuffer out = HostBuffer::from<int32_t>(std::vector<int32_t>(128, -5));
  ASSERT_EQ(message(runKernel(findKernel(*module, "bound_uniform_when_active"),
                              {HostValue::memref(out, {128})}, {1, 1, 1},
                              {128, 1, 1})),
            "");
  std::vector<int32_t> got = out.as<int32_t>();
  for (int64_t t = 0; t < 128; ++t)
    EXPECT_EQ(got[t], t >= 64 ? 7 : -5) << "thread " << t;
}

TEST_F(HostProgramTest, DivergentLoopBoundIsAnError) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  HostBuffer out(128 * 4);
  std::string error = message(runKernel(findKernel(*module, "divergent_bound"),
                                        {HostValue::memref(out, {128})},
                                        {1, 1, 1}, {128, 1, 1}));
  EXPECT_TRUE(contains(error, "'scf.for' at loc(")) << error;
  EXPECT_TRUE(contains(error, "the upper bound is not uniform across the "
                              "workgroup (thread 0: 0, thread 1: 1"))
      << error;
}

TEST_F(HostProgramTest, BarrierUnderDivergenceIsAnError) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  HostBuffer out(128 * 4);
  std::string error = message(
      runKernel(findKernel(*module, "divergent_barrier"),
                {HostValue::memref(out, {128})}, {1, 1, 1}, {128, 1, 1}));
  EXPECT_TRUE(contains(error, "'gpu.barrier' at loc(")) << error;
  EXPECT_TRUE(contains(error, "barrier in divergent control flow (64 of 128 "
                              "threads active)"))
      << error;
}

TEST_F(HostProgramTest, MFMAOnWholeWavesUnderIf) {
  OwningOpRef<ModuleOp> module = parse(kKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "mfma_under_if");
  ASSERT_TRUE(kernel);
  // Wave 0 active, wave 1 not: one MFMA, merged per thread.
  HostBuffer out(128 * 16);
  RunStats stats;
  ASSERT_EQ(
      message(runKernel(
          kernel, {HostValue::memref(out, {128, 4}), HostValue::integer(64)},
          {1, 1, 1}, {128, 1, 1}, &stats)),
      "");
  std::vector<float> got = out.as<float>();
  for (int64_t t = 0; t < 128; ++t)
    for (int64_t j = 0; j < 4; ++j)
      EXPECT_EQ(got[t * 4 + j], t < 64 ? 128.0f : -1.0f)
          << "thread " << t << " element " << j;
  EXPECT_EQ(stats.mfmas, 1);

  // Half of wave 1 active: an error.
  std::string error = message(runKernel(
      kernel, {HostValue::memref(out, {128, 4}), HostValue::integer(96)},
      {1, 1, 1}, {128, 1, 1}));
  EXPECT_TRUE(contains(error, "'amdgpu.scaled_mfma' at loc(")) << error;
  EXPECT_TRUE(contains(error, "partially active wave (wave 1: 32 of 64 lanes "
                              "active)"))
      << error;
}

} // namespace

//===----------------------------------------------------------------------===//
// math dialect and amdgpu.fat_raw_buffer_cast
//===----------------------------------------------------------------------===//

namespace {

constexpr const char *kMathAndBufferKernels = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    // Row i of %out: math op i applied per thread t to a[t] (and b[t], c[t]).
    gpu.func @math_f32(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>,
                       %out: memref<12x8xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%t] : memref<8xf32>
      %y = memref.load %b[%t] : memref<8xf32>
      %z = memref.load %c[%t] : memref<8xf32>
      %r0 = math.absf %x : f32
      %r1 = math.copysign %x, %y : f32
      %r2 = math.fma %x, %y, %z : f32
      %r3 = math.sqrt %x : f32
      %r4 = math.floor %x : f32
      %r5 = math.ceil %x : f32
      %r6 = math.round %x : f32
      %r7 = math.roundeven %x : f32
      %r8 = math.trunc %x : f32
      %r9 = math.exp2 %x : f32
      %r10 = math.log2 %x : f32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      %i4 = arith.constant 4 : index
      %i5 = arith.constant 5 : index
      %i6 = arith.constant 6 : index
      %i7 = arith.constant 7 : index
      %i8 = arith.constant 8 : index
      %i9 = arith.constant 9 : index
      %i10 = arith.constant 10 : index
      %i11 = arith.constant 11 : index
      memref.store %r0, %out[%i0, %t] : memref<12x8xf32>
      memref.store %r1, %out[%i1, %t] : memref<12x8xf32>
      memref.store %r2, %out[%i2, %t] : memref<12x8xf32>
      memref.store %r3, %out[%i3, %t] : memref<12x8xf32>
      memref.store %r4, %out[%i4, %t] : memref<12x8xf32>
      memref.store %r5, %out[%i5, %t] : memref<12x8xf32>
      memref.store %r6, %out[%i6, %t] : memref<12x8xf32>
      memref.store %r7, %out[%i7, %t] : memref<12x8xf32>
      memref.store %r8, %out[%i8, %t] : memref<12x8xf32>
      memref.store %r9, %out[%i9, %t] : memref<12x8xf32>
      memref.store %r10, %out[%i10, %t] : memref<12x8xf32>
      // Vectors: the same per element (every thread stores the same row).
      %v = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
      %vr = math.roundeven %v : vector<8xf32>
      vector.store %vr, %out[%i11, %c0] : memref<12x8xf32>, vector<8xf32>
      gpu.return
    }

    // f16: sqrt and exp2 round once to f16.
    gpu.func @math_f16(%a: memref<2xf16>, %out: memref<2xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = memref.load %a[%c0] : memref<2xf16>
      %y = memref.load %a[%c1] : memref<2xf16>
      %s = math.sqrt %x : f16
      %e = math.exp2 %y : f16
      memref.store %s, %out[%c0] : memref<2xf16>
      memref.store %e, %out[%c1] : memref<2xf16>
      gpu.return
    }

    // The transcendentals of activations: out[t] = exp, log, tanh of a[t].
    gpu.func @math_activation(%a: memref<8xf32>, %out: memref<3x8xf32>) kernel {
      %t = gpu.thread_id x
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %x = memref.load %a[%t] : memref<8xf32>
      %e = math.exp %x : f32
      %l = math.log %x : f32
      %h = math.tanh %x : f32
      memref.store %e, %out[%i0, %t] : memref<3x8xf32>
      memref.store %l, %out[%i1, %t] : memref<3x8xf32>
      memref.store %h, %out[%i2, %t] : memref<3x8xf32>
      gpu.return
    }

    gpu.func @math_sin(%a: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<1xf32>
      %s = math.sin %x : f32
      memref.store %s, %a[%c0] : memref<1xf32>
      gpu.return
    }

    // 8 threads. %buf viewed as a buffer of 24 valid bytes (6 floats):
    // out[t] = fat[t], out[8 + t] = fat[t + 2], then fat[t + 4] = 100 + t.
    // Without validBytes (32 bytes): out[16 + t] = fat32[t + 4] and
    // vec = fat32[6 .. 9].
    gpu.func @fat(%buf: memref<8xf32>, %out: memref<24xf32>,
                  %vec: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %vb = arith.constant 24 : i64
      %fat = amdgpu.fat_raw_buffer_cast %buf validBytes(%vb)
          : memref<8xf32> to memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      %fat32 = amdgpu.fat_raw_buffer_cast %buf
          : memref<8xf32> to memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      %v0 = memref.load %fat[%t] : memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      memref.store %v0, %out[%t] : memref<24xf32>
      %t2 = arith.addi %t, %c2 : index
      %v1 = memref.load %fat[%t2] : memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      %o1 = arith.addi %t, %c8 : index
      memref.store %v1, %out[%o1] : memref<24xf32>
      %t4 = arith.addi %t, %c4 : index
      %v2 = memref.load %fat32[%t4] : memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      %o2 = arith.addi %t, %c16 : index
      memref.store %v2, %out[%o2] : memref<24xf32>
      %vv = vector.load %fat32[%c6] : memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
      vector.store %vv, %vec[%c0] : memref<4xf32>, vector<4xf32>
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %hundred = arith.constant 100.0 : f32
      %w = arith.addf %tf, %hundred : f32
      memref.store %w, %fat[%t4] : memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      gpu.return
    }

    // validBytes larger than the allocation: an in-range store past the
    // storage is an error, never a host write.
    gpu.func @fat_too_big(%buf: memref<8xf32>) kernel {
      %c10 = arith.constant 10 : index
      %vb = arith.constant 64 : i64
      %one = arith.constant 1.0 : f32
      %fat = amdgpu.fat_raw_buffer_cast %buf validBytes(%vb)
          : memref<8xf32> to memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      memref.store %one, %fat[%c10] : memref<8xf32, #amdgpu.address_space<fat_raw_buffer>>
      gpu.return
    }
  }
}
)mlir";

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

} // namespace

TEST_F(HostProgramTest, MathOpsOnF32) {
  OwningOpRef<ModuleOp> module = parse(kMathAndBufferKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "math_f32");
  ASSERT_TRUE(kernel);
  const float u = std::ldexp(1.0f, -12);
  std::vector<float> a = {2.5f,     -2.5f, 3.5f,  -0.5f,
                          1.0f + u, 4.0f,  0.25f, -7.75f};
  std::vector<float> b = {-0.0f,    1.0f, -2.0f, 0.0f,
                          1.0f + u, 0.5f, -1.0f, 3.0f};
  std::vector<float> c = {1.0f,  0.0f, 0.5f, 2.0f, -(1.0f + 2 * u),
                          -1.0f, 0.0f, 0.25f};
  HostBuffer bufA = HostBuffer::from<float>(a);
  HostBuffer bufB = HostBuffer::from<float>(b);
  HostBuffer bufC = HostBuffer::from<float>(c);
  HostBuffer out(12 * 8 * 4);
  ASSERT_EQ(message(runKernel(
                kernel,
                {HostValue::memref(bufA, {8}), HostValue::memref(bufB, {8}),
                 HostValue::memref(bufC, {8}), HostValue::memref(out, {12, 8})},
                {1, 1, 1}, {8, 1, 1})),
            "");
  std::vector<float> got = out.as<float>();
  auto row = [&](int r) {
    return std::vector<float>(got.begin() + 8 * r, got.begin() + 8 * r + 8);
  };
  auto rowBits = [&](int r) {
    std::vector<uint32_t> bits;
    for (float value : row(r))
      bits.push_back(bitsOf(value));
    return bits;
  };
  auto bitsOfAll = [](std::vector<float> values) {
    std::vector<uint32_t> bits;
    for (float value : values)
      bits.push_back(bitsOf(value));
    return bits;
  };
  // absf; copysign (a negative zero gives its sign).
  EXPECT_EQ(rowBits(0),
            bitsOfAll({2.5f, 2.5f, 3.5f, 0.5f, 1.0f + u, 4.0f, 0.25f, 7.75f}));
  EXPECT_EQ(rowBits(1), bitsOfAll({-2.5f, 2.5f, -3.5f, 0.5f, 1.0f + u, 4.0f,
                                   -0.25f, 7.75f}));
  // fma: one rounding. (1 + u)^2 = 1 + 2u + u^2 exactly; rounded to f32 it
  // would be 1 + 2u (u^2 = 2^-24 is half an ulp, a tie to even), and then
  // adding -(1 + 2u) would give 0. Fused: exactly 2^-24.
  std::vector<float> fma = row(2);
  EXPECT_EQ(fma[4], std::ldexp(1.0f, -24));
  volatile float product = a[4] * b[4];
  EXPECT_EQ(product + c[4], 0.0f); // what two roundings give
  EXPECT_EQ(fma[0], 1.0f);         // 2.5 * -0 + 1
  EXPECT_EQ(fma[2], -6.5f);
  EXPECT_EQ(fma[5], 1.0f);
  EXPECT_EQ(fma[7], -23.0f);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(bitsOf(fma[i]), bitsOf(std::fma(a[i], b[i], c[i]))) << i;
  // sqrt (NaN for negative operands).
  std::vector<float> sqrt = row(3);
  EXPECT_EQ(sqrt[0], std::sqrt(2.5f));
  EXPECT_TRUE(std::isnan(sqrt[1]));
  EXPECT_EQ(sqrt[5], 2.0f);
  EXPECT_EQ(sqrt[6], 0.5f);
  EXPECT_EQ(sqrt[4], std::sqrt(1.0f + u));
  // floor, ceil, round (ties away), roundeven (ties to even), trunc.
  EXPECT_EQ(rowBits(4), bitsOfAll({2, -3, 3, -1, 1, 4, 0, -8}));
  EXPECT_EQ(rowBits(5), bitsOfAll({3, -2, 4, -0.0f, 2, 4, 1, -7}));
  EXPECT_EQ(rowBits(6), bitsOfAll({3, -3, 4, -1, 1, 4, 0, -8}));
  EXPECT_EQ(rowBits(7), bitsOfAll({2, -2, 4, -0.0f, 1, 4, 0, -8}));
  EXPECT_EQ(rowBits(8), bitsOfAll({2, -2, 3, -0.0f, 1, 4, 0, -7}));
  // exp2, log2 (exact cases, and double rounded to f32 otherwise).
  std::vector<float> exp2 = row(9);
  EXPECT_EQ(exp2[5], 16.0f);
  EXPECT_EQ(exp2[6], float(std::exp2(0.25)));
  EXPECT_EQ(exp2[3], float(std::sqrt(0.5)));
  EXPECT_EQ(exp2[7], float(std::exp2(-7.75)));
  std::vector<float> log2 = row(10);
  EXPECT_EQ(log2[5], 2.0f);
  EXPECT_EQ(log2[6], -2.0f);
  EXPECT_EQ(log2[0], float(std::log2(2.5)));
  EXPECT_TRUE(std::isnan(log2[1]));
  // roundeven on a vector.
  EXPECT_EQ(rowBits(11), rowBits(7));
}

TEST_F(HostProgramTest, MathOpsRoundToF16) {
  OwningOpRef<ModuleOp> module = parse(kMathAndBufferKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "math_f16");
  ASSERT_TRUE(kernel);
  // 2.0 and 0.5 in f16; sqrt(2) and 2^0.5 round to 0x3DA8 (1.4140625).
  HostBuffer in = HostBuffer::from<uint16_t>({0x4000, 0x3800});
  HostBuffer out(4);
  ASSERT_EQ(
      message(runKernel(
          kernel, {HostValue::memref(in, {2}), HostValue::memref(out, {2})},
          {1, 1, 1}, {1, 1, 1})),
      "");
  EXPECT_EQ(out.as<uint16_t>(), (std::vector<uint16_t>{0x3DA8, 0x3DA8}));
}

TEST_F(HostProgramTest, MathTranscendentalsRoundOnceToF32) {
  OwningOpRef<ModuleOp> module = parse(kMathAndBufferKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "math_activation");
  ASSERT_TRUE(kernel);
  const float inf = std::numeric_limits<float>::infinity();
  HostBuffer in = HostBuffer::from<float>(
      {0.0f, 1.0f, 2.0f, -0.0f, 20.0f, -20.0f, inf, -inf});
  HostBuffer out(3 * 8 * 4);
  ASSERT_EQ(
      message(runKernel(
          kernel, {HostValue::memref(in, {8}), HostValue::memref(out, {3, 8})},
          {1, 1, 1}, {8, 1, 1})),
      "");
  std::vector<float> got = out.as<float>();
  auto bitsAt = [&](int row, int t) { return bitsOf(got[8 * row + t]); };
  // exp: e rounds to 0x402DF854 (2.71828175), e^2 (7.3890561) to 0x40EC7326;
  // exp(20) = 4.85165195e8 to 0x4DE75844; exp(-20) = 2.06115362e-9 to
  // 0x310DA433; exp(+-0) = 1, exp(inf) = inf, exp(-inf) = +0.
  EXPECT_EQ(bitsAt(0, 0), 0x3F800000u);
  EXPECT_EQ(bitsAt(0, 1), 0x402DF854u);
  EXPECT_EQ(bitsAt(0, 2), 0x40EC7326u);
  EXPECT_EQ(bitsAt(0, 3), 0x3F800000u);
  EXPECT_EQ(bitsAt(0, 4), 0x4DE75844u);
  EXPECT_EQ(bitsAt(0, 5), 0x310DA433u);
  EXPECT_EQ(bitsAt(0, 6), 0x7F800000u);
  EXPECT_EQ(bitsAt(0, 7), 0x00000000u);
  // log: log(0) = -inf, log(1) = +0, ln 2 rounds to 0x3F317218, ln 20
  // (2.99573227) to 0x403FBA14; log(-20) and log(-inf) are NaN.
  EXPECT_EQ(bitsAt(1, 0), 0xFF800000u);
  EXPECT_EQ(bitsAt(1, 1), 0x00000000u);
  EXPECT_EQ(bitsAt(1, 2), 0x3F317218u);
  EXPECT_EQ(bitsAt(1, 4), 0x403FBA14u);
  EXPECT_TRUE(std::isnan(got[8 + 5]));
  EXPECT_TRUE(std::isnan(got[8 + 7]));
  // tanh: odd, tanh(+-0) = +-0; tanh(1) (0.761594156) rounds to
  // 0x3F42F7D6, tanh(2) (0.964027580) to 0x3F76CA83; tanh(+-20) and
  // tanh(+-inf) round to +-1.
  EXPECT_EQ(bitsAt(2, 0), 0x00000000u);
  EXPECT_EQ(bitsAt(2, 1), 0x3F42F7D6u);
  EXPECT_EQ(bitsAt(2, 2), 0x3F76CA83u);
  EXPECT_EQ(bitsAt(2, 3), 0x80000000u);
  EXPECT_EQ(bitsAt(2, 4), 0x3F800000u);
  EXPECT_EQ(bitsAt(2, 5), 0xBF800000u);
  EXPECT_EQ(bitsAt(2, 6), 0x3F800000u);
  EXPECT_EQ(bitsAt(2, 7), 0xBF800000u);
}

TEST_F(HostProgramTest, UnsupportedMathOpIsAnError) {
  OwningOpRef<ModuleOp> module = parse(kMathAndBufferKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "math_sin");
  ASSERT_TRUE(kernel);
  HostBuffer buf = HostBuffer::from<float>({1.0f});
  std::string error = message(
      runKernel(kernel, {HostValue::memref(buf, {1})}, {1, 1, 1}, {1, 1, 1}));
  EXPECT_TRUE(contains(error, "unsupported operation")) << error;
  EXPECT_TRUE(contains(error, "math.sin")) << error;
}

TEST_F(HostProgramTest, FatRawBufferOutOfRangeReadsZeroAndDropsStores) {
  OwningOpRef<ModuleOp> module = parse(kMathAndBufferKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "fat");
  ASSERT_TRUE(kernel);
  std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  HostBuffer buf = HostBuffer::from<float>(values);
  HostBuffer out(24 * 4);
  HostBuffer vec(4 * 4);
  ASSERT_EQ(message(runKernel(kernel,
                              {HostValue::memref(buf, {8}),
                               HostValue::memref(out, {24}),
                               HostValue::memref(vec, {4})},
                              {1, 1, 1}, {8, 1, 1})),
            "");
  std::vector<float> got = out.as<float>();
  // 24 valid bytes: elements 0..5 read, 6.. read 0 (also past the shape).
  EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + 8),
            (std::vector<float>{1, 2, 3, 4, 5, 6, 0, 0}));
  EXPECT_EQ(std::vector<float>(got.begin() + 8, got.begin() + 16),
            (std::vector<float>{3, 4, 5, 6, 0, 0, 0, 0}));
  // The whole memref (32 bytes) without validBytes.
  EXPECT_EQ(std::vector<float>(got.begin() + 16, got.end()),
            (std::vector<float>{5, 6, 7, 8, 0, 0, 0, 0}));
  EXPECT_EQ(vec.as<float>(), (std::vector<float>{7, 8, 0, 0}));
  // Stores to elements 4..11: 4 and 5 land, the rest are dropped.
  EXPECT_EQ(buf.as<float>(), (std::vector<float>{1, 2, 3, 4, 100, 101, 7, 8}));
}

TEST_F(HostProgramTest, FatRawBufferNeverLeavesTheAllocation) {
  OwningOpRef<ModuleOp> module = parse(kMathAndBufferKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "fat_too_big");
  ASSERT_TRUE(kernel);
  HostBuffer buf(8 * 4);
  std::string error = message(
      runKernel(kernel, {HostValue::memref(buf, {8})}, {1, 1, 1}, {1, 1, 1}));
  EXPECT_TRUE(contains(error, "amdgpu.fat_raw_buffer_cast") ||
              contains(error, "fat raw buffer"))
      << error;
  EXPECT_TRUE(contains(error, "outside its storage of 32 bytes")) << error;
}
