//===- WaveEmulatorTest.cpp - the gfx950 wave emulator on GPU kernels -----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Two groups of tests:
//  - WaveEmulatorTest: the interpreter itself on small kernels (thread and
//    block ids, loops, vectors, private memory, direct-to-LDS copies) and
//    its errors;
//  - MXFP4UKernelTest: end to end, the MXFP4 ukernel specialized by
//    mx-gfx950-specialize-ukernels for the 4x4x2 (2x2 waves) and 16x4x2 (1x4
//    waves) tiles (and 1 and 3 waves), fed with operands laid out by the
//    compiler's swizzle (mx::gfx950::getSwizzle), executed in the emulator
//    (ISA lane layouts of the scaled MFMA; the ukernel stages A and B
//    through two or three LDS stages with amdgpu.gather_to_lds, 1 to 4 K steps)
//    and compared with the independent reference (mx::ref::scaledMatmul):
//    bit-exactly on data whose sums are exact in f32, within a stated bound
//    on random data; and the emulator's race checks catching a missing
//    barrier, a missing wait and wrong LDS stages in edited ukernels;
//  - MXFP8UKernelTest: the same harness on the MXFP8 (E4M3) ukernel, whose
//    lanes hold two 16-value K chunks, and a check that the contiguous-32 K
//    order (the fp4 one) would give a different result;
//  - MixedFp8Fp4UKernelTest: the mixed E4M3 (lhs) x E2M1 (rhs) ukernel;
//  - MXFP4x32UKernelTest: the MXFP4 ukernel on 32x32x64 (2 lane groups of
//    32 rows, 16 accumulators per lane).
//
//===----------------------------------------------------------------------===//

#include "mx/Emulator/WaveEmulator.h"

#include "EmulatorTestUtils.h"

#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/InitMX.h"
#include "mx/Reference/Reference.h"
#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>

using namespace mlir;
using namespace mlir::mx;
using mlir::mx::emu::HostBuffer;
using mlir::mx::emu::HostValue;
using mlir::mx::emu::runKernel;
using mlir::mx::emu::RunOptions;
using mlir::mx::emu::RunStats;
namespace ref = ::mx::ref;

namespace {

/// Replaces every occurrence of `from` in `text` by `to`.
std::string replaceAll(std::string text, StringRef from, StringRef to) {
  for (size_t pos = text.find(from.str()); pos != std::string::npos;
       pos = text.find(from.str(), pos + to.size()))
    text.replace(pos, from.size(), to.str());
  return text;
}

using mlir::mx::emu::test::message;

class WaveEmulatorTest : public ::testing::Test {
protected:
  WaveEmulatorTest() {
    DialectRegistry registry;
    registerMXDialects(registry);
    registerPipelineDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef text) {
    return mlir::mx::emu::test::parseModule(ctx, text);
  }

  static gpu::GPUFuncOp findKernel(ModuleOp module, StringRef name) {
    return mlir::mx::emu::test::findKernel(module, name);
  }

  MLIRContext ctx;
};

//===----------------------------------------------------------------------===//
// The interpreter on small kernels
//===----------------------------------------------------------------------===//

constexpr const char *kSmallKernels = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @iota(%out: memref<?xi32, 1>, %n: index) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %c3 = arith.constant 3 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = arith.muli %i, %c3 : index
      %v = arith.index_cast %x : index to i32
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %v) -> (i32) {
        %ki = arith.index_cast %k : index to i32
        %s = arith.addi %a, %ki : i32
        scf.yield %s : i32
      }
      memref.store %sum, %out[%i] : memref<?xi32, 1>
      gpu.return
    }

    gpu.func @vectors(%in: memref<?x4xf32, 1>, %out: memref<?x4xf32, 1>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %v = vector.load %in[%tid, %c0] : memref<?x4xf32, 1>, vector<4xf32>
      %p = arith.remui %tid, %c4 : index
      %e = vector.extract %v[%p] : f32 from vector<4xf32>
      %b = vector.broadcast %e : f32 to vector<4xf32>
      %s = arith.addf %v, %b : vector<4xf32>
      %priv = memref.alloca() : memref<2xvector<4xf32>, 5>
      memref.store %s, %priv[%c0] : memref<2xvector<4xf32>, 5>
      %r = memref.load %priv[%c0] : memref<2xvector<4xf32>, 5>
      %bits = vector.bitcast %r : vector<4xf32> to vector<16xi8>
      %back = vector.bitcast %bits : vector<16xi8> to vector<4xf32>
      vector.store %back, %out[%tid, %c0] : memref<?x4xf32, 1>, vector<4xf32>
      gpu.return
    }

    gpu.func @unwritten(%out: memref<?xf32, 1>) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %priv = memref.alloca() : memref<2xf32, 5>
      %v = memref.load %priv[%c1] : memref<2xf32, 5>
      memref.store %v, %out[%tid] : memref<?xf32, 1>
      gpu.return
    }

    gpu.func @divergent(%out: memref<?xi32, 1>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      scf.for %k = %c0 to %tid step %c1 {
        memref.store %z, %out[%k] : memref<?xi32, 1>
      }
      gpu.return
    }

    gpu.func @shuffle(%out: memref<?xi32, 1>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c64 : i32
      memref.store %s, %out[%tid] : memref<?xi32, 1>
      gpu.return
    }

    gpu.func @fixed(%out: memref<?xi32, 1>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}
)mlir";

TEST_F(WaveEmulatorTest, ThreadAndBlockIdsLoopsAndStores) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "iota");
  ASSERT_TRUE(kernel);
  const int64_t blocks = 3, threads = 32, n = 5;
  HostBuffer out(blocks * threads * 4);
  RunStats stats;
  ASSERT_EQ(message(runKernel(kernel,
                              {HostValue::memref(out, {blocks * threads}),
                               HostValue::integer(n)},
                              {blocks, 1, 1}, {threads, 1, 1}, &stats)),
            "");
  std::vector<int32_t> values = out.as<int32_t>();
  for (int64_t i = 0; i < blocks * threads; ++i)
    EXPECT_EQ(values[i], 3 * i + n * (n - 1) / 2) << "element " << i;
  EXPECT_EQ(stats.workgroups, blocks);
}

/// Runs the @iota kernel of \p module (kSmallKernels: out[i] = 3 i +
/// n (n - 1) / 2 for thread i of the grid) on \p blocks workgroups of
/// \p threads threads into \p out (of \p outElements elements) with
/// \p options; returns the error message ("" on success).
std::string runIota(ModuleOp module, HostBuffer &out, int64_t outElements,
                    int64_t blocks, int64_t threads, int64_t n,
                    const RunOptions &options, RunStats *stats = nullptr) {
  gpu::GPUFuncOp kernel = mlir::mx::emu::test::findKernel(module, "iota");
  if (!kernel)
    return "no kernel";
  return message(runKernel(
      kernel, {HostValue::memref(out, {outElements}), HostValue::integer(n)},
      {blocks, 1, 1}, {threads, 1, 1}, stats, options));
}

/// Workgroups on several host threads: the same memory, counters and
/// progress reports (every workgroup once, the last one total/total) as on
/// one.
TEST_F(WaveEmulatorTest, ParallelWorkgroupsMatchSequential) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  const int64_t blocks = 37, threads = 64, n = 4;
  std::vector<std::vector<int32_t>> results;
  for (unsigned hostThreads : {1u, 4u}) {
    HostBuffer out(blocks * threads * 4);
    RunStats stats;
    RunOptions options;
    options.threads = hostThreads;
    int64_t calls = 0, lastDone = 0;
    options.progress = [&](StringRef name, int64_t done, int64_t total) {
      EXPECT_EQ(name, "@iota");
      EXPECT_EQ(total, blocks);
      EXPECT_EQ(done, lastDone + 1);
      lastDone = done;
      ++calls;
    };
    ASSERT_EQ(runIota(*module, out, blocks * threads, blocks, threads, n,
                      options, &stats),
              "");
    EXPECT_EQ(stats.workgroups, blocks);
    EXPECT_EQ(calls, blocks);
    results.push_back(out.as<int32_t>());
  }
  for (int64_t i = 0; i < blocks * threads; ++i)
    ASSERT_EQ(results[1][i], 3 * i + n * (n - 1) / 2) << "element " << i;
  EXPECT_EQ(results[0], results[1]);
}

/// A failure on several host threads is the one of the lowest-numbered
/// failing workgroup, word for word as on one thread.
TEST_F(WaveEmulatorTest, ParallelFailureNamesTheLowestFailingWorkgroup) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  // Workgroups 0-16 fit the buffer, 17-39 store out of bounds.
  const int64_t blocks = 40, threads = 64, fitting = 17;
  std::vector<std::string> errors;
  for (unsigned hostThreads : {1u, 3u}) {
    HostBuffer out(fitting * threads * 4);
    RunOptions options;
    options.threads = hostThreads;
    errors.push_back(
        runIota(*module, out, fitting * threads, blocks, threads, 1, options));
  }
  EXPECT_NE(errors[0].find("in workgroup (17, 0, 0)"), std::string::npos)
      << errors[0];
  EXPECT_EQ(errors[1], errors[0]);
}

TEST_F(WaveEmulatorTest, VectorsPrivateMemoryAndFloats) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "vectors");
  ASSERT_TRUE(kernel);
  const int64_t threads = 96;
  std::vector<float> in(threads * 4);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(i) * 0.25f - 7.0f;
  HostBuffer input = HostBuffer::from<float>(in);
  HostBuffer out(in.size() * 4);
  ASSERT_EQ(message(runKernel(kernel,
                              {HostValue::memref(input, {threads, 4}),
                               HostValue::memref(out, {threads, 4})},
                              {1, 1, 1}, {threads, 1, 1})),
            "");
  std::vector<float> values = out.as<float>();
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t j = 0; j < 4; ++j)
      EXPECT_EQ(values[t * 4 + j], in[t * 4 + j] + in[t * 4 + t % 4])
          << "thread " << t << " element " << j;
}

/// One v_cvt_scalef32_pk_fp4_f32 per thread: a pair of inputs and a scale
/// byte in, the low byte of the packed word (index 0: two codes) out.
constexpr const char *kPackedScaledTrunc = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @cvt(%in: memref<?x2xf32, 1>, %scales: memref<?xi32, 1>,
                  %out: memref<?xi32, 1>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %in[%t, %c0] : memref<?x2xf32, 1>
      %b = memref.load %in[%t, %c1] : memref<?x2xf32, 1>
      %pair = vector.from_elements %a, %b : vector<2xf32>
      %byte = memref.load %scales[%t] : memref<?xi32, 1>
      %c23 = arith.constant 23 : i32
      %bits = arith.shli %byte, %c23 : i32
      %scale = arith.bitcast %bits : i32 to f32
      %w = amdgpu.packed_scaled_trunc %pair into undef[0], %scale : vector<2xf32> to vector<8xf4E2M1FN>
      %word = vector.bitcast %w : vector<8xf4E2M1FN> to vector<1xi32>
      %v = vector.extract %word[0] : i32 from vector<1xi32>
      %c255 = arith.constant 255 : i32
      %low = arith.andi %v, %c255 : i32
      memref.store %low, %out[%t] : memref<?xi32, 1>
      gpu.return
    }
  }
}
)mlir";

TEST_F(WaveEmulatorTest, PackedScaledTruncToFP4) {
  OwningOpRef<ModuleOp> module = parse(kPackedScaledTrunc);
  ASSERT_TRUE(module);
  // (first, second, scale byte) -> codes, derived by hand from the ISA's
  // definition: divide by 2^(byte - 127), round to the nearest FP4 value
  // (0, 0.5, 1, 1.5, 2, 3, 4, 6) with ties to the even code, saturate at 6,
  // keep the sign (bit 3). The first element is the low nibble.
  struct Case {
    float first, second;
    int32_t scaleByte;
    int32_t low, high;
  };
  const Case cases[] = {
      {1.25f, 2.5f, 127, 0x2, 0x4},    // ties: 1.0 (code 2), 2.0 (code 4)
      {0.75f, 5.0f, 127, 0x2, 0x6},    // ties: 1.0, 4.0
      {0.25f, 7.0f, 127, 0x0, 0x7},    // tie to 0; 7 saturates to 6
      {-0.2f, -1.6f, 127, 0x8, 0xB},   // -0 keeps its sign; -1.5
      {3.0f, 12.0f, 128, 0x3, 0x7},    // / 2: 1.5, 6
      {0.375f, 100.0f, 125, 0x3, 0x7}, // * 4: 1.5, 400 -> 6
      {1.0f, 0.0f, 0, 0x7, 0x0},       // / 2^-127: saturates; 0
  };
  const int64_t n = std::size(cases);
  std::vector<float> in;
  std::vector<int32_t> scales;
  for (const Case &c : cases) {
    in.push_back(c.first);
    in.push_back(c.second);
    scales.push_back(c.scaleByte);
  }
  HostBuffer input = HostBuffer::from<float>(in);
  HostBuffer scaleBuffer = HostBuffer::from<int32_t>(scales);
  HostBuffer out(n * 4);
  ASSERT_EQ(message(runKernel(findKernel(*module, "cvt"),
                              {HostValue::memref(input, {n, 2}),
                               HostValue::memref(scaleBuffer, {n}),
                               HostValue::memref(out, {n})},
                              {1, 1, 1}, {n, 1, 1})),
            "");
  std::vector<int32_t> codes = out.as<int32_t>();
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(codes[i], cases[i].low | cases[i].high << 4) << "case " << i;
}

TEST_F(WaveEmulatorTest, ReadOfUnwrittenPrivateMemoryIsAnError) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  HostBuffer out(64 * 4);
  std::string error =
      message(runKernel(findKernel(*module, "unwritten"),
                        {HostValue::memref(out, {64})}, {1, 1, 1}, {64, 1, 1}));
  EXPECT_NE(error.find("'memref.load'"), std::string::npos) << error;
  EXPECT_NE(error.find("never written"), std::string::npos) << error;
}

TEST_F(WaveEmulatorTest, DivergentLoopBoundIsAnError) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  HostBuffer out(64 * 4);
  std::string error =
      message(runKernel(findKernel(*module, "divergent"),
                        {HostValue::memref(out, {64})}, {1, 1, 1}, {64, 1, 1}));
  EXPECT_NE(error.find("'scf.for'"), std::string::npos) << error;
  EXPECT_NE(error.find("upper bound is not uniform"), std::string::npos)
      << error;
}

TEST_F(WaveEmulatorTest, UnsupportedOpIsAnError) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  HostBuffer out(64 * 4);
  std::string error =
      message(runKernel(findKernel(*module, "shuffle"),
                        {HostValue::memref(out, {64})}, {1, 1, 1}, {64, 1, 1}));
  EXPECT_NE(error.find("'gpu.shuffle'"), std::string::npos) << error;
  EXPECT_NE(error.find("unsupported operation"), std::string::npos) << error;
  // The location of the op is part of the message.
  EXPECT_NE(error.find("loc("), std::string::npos) << error;
}

TEST_F(WaveEmulatorTest, LaunchMismatchesAreErrors) {
  OwningOpRef<ModuleOp> module = parse(kSmallKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp fixed = findKernel(*module, "fixed");
  HostBuffer out(64 * 4);
  std::string error = message(
      runKernel(fixed, {HostValue::memref(out, {64})}, {1, 1, 1}, {128, 1, 1}));
  EXPECT_NE(error.find("known_block_size"), std::string::npos) << error;
  error = message(runKernel(fixed, {}, {1, 1, 1}, {64, 1, 1}));
  EXPECT_NE(error.find("expects 1 arguments"), std::string::npos) << error;
  error =
      message(runKernel(fixed, {HostValue::integer(3)}, {1, 1, 1}, {64, 1, 1}));
  EXPECT_NE(error.find("is a memref"), std::string::npos) << error;
  error = message(runKernel(fixed, {HostValue::memref(out, {64, 1})}, {1, 1, 1},
                            {64, 1, 1}));
  EXPECT_NE(error.find("has rank 1"), std::string::npos) << error;
  error = message(
      runKernel(fixed, {HostValue::memref(out, {64})}, {1, 1, 1}, {64, 32, 1}));
  EXPECT_NE(error.find("at most 1024 threads"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// Workgroup memory: direct-to-LDS copies, waits, barriers
//===----------------------------------------------------------------------===//

/// Two waves copy into LDS with amdgpu.gather_to_lds and read it back:
///  - 16 bytes per lane: lane l of wave w reads row 127 - (64 w + l) of src;
///    the destination indices differ per lane, but only the wave's first
///    lane's count (LDS base w * 1024), lane l lands at base + 16 l;
///  - 1 byte per lane, zero-extended to 4 (LDS base w * 256, lane stride 4);
/// then each thread reads its 16 (4) bytes back, and concatenates halves
/// with vector.shuffle; `wave0` gets the first active lane's thread id
/// (gpu.subgroup_broadcast).
constexpr const char *kLDSKernels = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copies(%src: memref<128x16xi8, 1>, %bytes: memref<128xi8, 1>,
                     %out: memref<128x16xi8, 1>, %out4: memref<512xi8, 1>,
                     %swapped: memref<128x16xi8, 1>, %wave0: memref<128xindex, 1>)
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>,
                  %lds4 : memref<512xi8, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c127 = arith.constant 127 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %row = arith.subi %c127, %tid : index
      %base = arith.muli %wave, %c1024 : index
      %junk = arith.muli %lane, %c7 : index
      %dst = arith.addi %base, %junk : index
      amdgpu.gather_to_lds %src[%row, %c0], %lds[%dst]
          : vector<16xi8>, memref<128x16xi8, 1>, memref<2048xi8, #gpu.address_space<workgroup>>
      %base4 = arith.muli %wave, %c256 : index
      amdgpu.gather_to_lds %bytes[%tid], %lds4[%base4]
          : i8, memref<128xi8, 1>, memref<512xi8, #gpu.address_space<workgroup>>
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
      %o = arith.muli %tid, %c16 : index
      %v = vector.load %lds[%o] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<16xi8>
      vector.store %v, %out[%tid, %c0] : memref<128x16xi8, 1>, vector<16xi8>
      %o4 = arith.muli %tid, %c4 : index
      %u = vector.load %lds4[%o4] : memref<512xi8, #gpu.address_space<workgroup>>, vector<4xi8>
      vector.store %u, %out4[%o4] : memref<512xi8, 1>, vector<4xi8>
      %lo = vector.extract_strided_slice %v {offsets = [0], sizes = [8], strides = [1]} : vector<16xi8> to vector<8xi8>
      %hi = vector.extract_strided_slice %v {offsets = [8], sizes = [8], strides = [1]} : vector<16xi8> to vector<8xi8>
      %sw = vector.shuffle %hi, %lo [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
      vector.store %sw, %swapped[%tid, %c0] : memref<128x16xi8, 1>, vector<16xi8>
      %first = gpu.subgroup_broadcast %tid, first_active_lane : index
      memref.store %first, %wave0[%tid] : memref<128xindex, 1>
      gpu.return
    }

    // Half of each wave copies: the hardware would write half a fragment.
    gpu.func @partial(%src: memref<128x16xi8, 1>)
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %lane = arith.remui %tid, %c64 : index
      %low = arith.cmpi ult, %lane, %c32 : index
      scf.if %low {
        amdgpu.gather_to_lds %src[%tid, %c0], %lds[%c0]
            : vector<16xi8>, memref<128x16xi8, 1>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      gpu.return
    }

    // Wave 1's copy lands past the end of the 1 KiB LDS buffer.
    gpu.func @overflow(%src: memref<128x16xi8, 1>)
        workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %wave = arith.divui %tid, %c64 : index
      %dst = arith.muli %wave, %c512 : index
      amdgpu.gather_to_lds %src[%tid, %c0], %lds[%dst]
          : vector<16xi8>, memref<128x16xi8, 1>, memref<1024xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
)mlir";

TEST_F(WaveEmulatorTest, GatherToLDSWritesLaneMajorFromTheFirstLanesBase) {
  OwningOpRef<ModuleOp> module = parse(kLDSKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp kernel = findKernel(*module, "copies");
  ASSERT_TRUE(kernel);
  HostBuffer src(128 * 16), bytes(128), out(128 * 16), out4(512),
      swapped(128 * 16), wave0(128 * 8);
  for (int i = 0; i < 128 * 16; ++i)
    src.bytes[i] = uint8_t(i * 7 + 3);
  for (int i = 0; i < 128; ++i)
    bytes.bytes[i] = uint8_t(200 + i);
  ASSERT_EQ(
      message(runKernel(
          kernel,
          {HostValue::memref(src, {128, 16}), HostValue::memref(bytes, {128}),
           HostValue::memref(out, {128, 16}), HostValue::memref(out4, {512}),
           HostValue::memref(swapped, {128, 16}),
           HostValue::memref(wave0, {128})},
          {1, 1, 1}, {128, 1, 1})),
      "");
  std::vector<int64_t> firsts = wave0.as<int64_t>();
  for (int t = 0; t < 128; ++t) {
    for (int b = 0; b < 16; ++b) {
      EXPECT_EQ(out.bytes[t * 16 + b], src.bytes[(127 - t) * 16 + b])
          << "thread " << t << " byte " << b;
      EXPECT_EQ(swapped.bytes[t * 16 + b],
                src.bytes[(127 - t) * 16 + (b + 8) % 16])
          << "thread " << t << " byte " << b;
    }
    EXPECT_EQ(out4.bytes[4 * t], bytes.bytes[t]) << "thread " << t;
    for (int b = 1; b < 4; ++b)
      EXPECT_EQ(out4.bytes[4 * t + b], 0) << "thread " << t;
    EXPECT_EQ(firsts[t], t / 64 * 64) << "thread " << t;
  }
}

TEST_F(WaveEmulatorTest, GatherToLDSErrors) {
  OwningOpRef<ModuleOp> module = parse(kLDSKernels);
  ASSERT_TRUE(module);
  HostBuffer src(128 * 16);
  std::string error = message(runKernel(findKernel(*module, "partial"),
                                        {HostValue::memref(src, {128, 16})},
                                        {1, 1, 1}, {128, 1, 1}));
  EXPECT_NE(error.find("partially active wave (wave 0: 32 of 64"),
            std::string::npos)
      << error;
  error = message(runKernel(findKernel(*module, "overflow"),
                            {HostValue::memref(src, {128, 16})}, {1, 1, 1},
                            {128, 1, 1}));
  EXPECT_NE(error.find("wave 1: the destination index [512]"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("leaves the view (bytes [512, 1536) of 1024)"),
            std::string::npos)
      << error;
}

/// Two waves and rocdl.s.barrier (no fence): each wave writes, then (after a
/// barrier with a fence) reads its own 1 KiB of LDS (wave w: bytes [1024 w,
/// 1024 w + 1024)), then, after the barrier without one,
/// writes the 16 bytes of lane `lane` at OFFSET (wave 0 into wave 1's
/// half with OFFSET 1024: the bytes wave 1 read), with the reads waited
/// for (amdgpu.memory_counter_wait ds(0)) before the barrier where WAIT is
/// 1. Then a wave that stores to LDS and meets the others at the barrier
/// without waiting for the store.
constexpr const char *kBarrierKernels = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @reads(%out: memref<128x16xi8, 1>, %offset: index, %wait: index)
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %mine = arith.muli %tid, %c16 : index
      %one = arith.constant dense<1> : vector<16xi8>
      vector.store %one, %lds[%mine] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<16xi8>
      gpu.barrier
      %v = vector.load %lds[%mine] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<16xi8>
      vector.store %v, %out[%tid, %c0] : memref<128x16xi8, 1>, vector<16xi8>
      %waits = arith.cmpi eq, %wait, %c1 : index
      scf.if %waits {
        amdgpu.memory_counter_wait ds(0)
      }
      rocdl.s.barrier
      %first = arith.cmpi eq, %wave, %c0 : index
      scf.if %first {
        %at = arith.muli %lane, %c16 : index
        %o = arith.addi %offset, %at : index
        %z = arith.constant dense<7> : vector<16xi8>
        vector.store %z, %lds[%o] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<16xi8>
      }
      gpu.return
    }

    // Each wave reads its 1 KiB in two ops (bytes [0, 512) of it, then
    // [512, 1024)) and waits with ds(1): the first op's reads complete.
    gpu.func @two_reads(%out: memref<128x16xi8, 1>, %offset: index)
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %mine = arith.muli %tid, %c16 : index
      %one = arith.constant dense<1> : vector<16xi8>
      vector.store %one, %lds[%mine] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<16xi8>
      gpu.barrier
      %base = arith.muli %wave, %c1024 : index
      %at = arith.muli %lane, %c8 : index
      %o1 = arith.addi %base, %at : index
      %o2 = arith.addi %o1, %c512 : index
      %v1 = vector.load %lds[%o1] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<8xi8>
      %v2 = vector.load %lds[%o2] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<8xi8>
      vector.store %v1, %out[%tid, %c0] : memref<128x16xi8, 1>, vector<8xi8>
      vector.store %v2, %out[%tid, %c8] : memref<128x16xi8, 1>, vector<8xi8>
      amdgpu.memory_counter_wait ds(1)
      rocdl.s.barrier
      %first = arith.cmpi eq, %wave, %c0 : index
      scf.if %first {
        %w = arith.addi %offset, %at : index
        %z = arith.constant dense<7> : vector<8xi8>
        vector.store %z, %lds[%w] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<8xi8>
      }
      gpu.return
    }

    gpu.func @store(%offset: index)
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %o = arith.muli %tid, %c16 : index
      %z = arith.constant dense<7> : vector<16xi8>
      vector.store %z, %lds[%o] : memref<2048xi8, #gpu.address_space<workgroup>>, vector<16xi8>
      rocdl.s.barrier
      gpu.return
    }
  }
}
)mlir";

/// An LDS read may cross a barrier without a fence (the next K step's
/// fragments read ahead of the barrier), but until its wave waits for it
/// (ds(N) completes all but the reads of the N most recent ops), another
/// wave may not write its bytes; an LDS write may not cross one.
TEST_F(WaveEmulatorTest, LDSReadsInFlightAcrossABarrier) {
  OwningOpRef<ModuleOp> module = parse(kBarrierKernels);
  ASSERT_TRUE(module);
  gpu::GPUFuncOp reads = findKernel(*module, "reads");
  ASSERT_TRUE(reads);
  auto run = [&](int64_t offset, int64_t wait) {
    HostBuffer out(128 * 16);
    return message(
        runKernel(reads,
                  {HostValue::memref(out, {128, 16}),
                   HostValue::integer(offset), HostValue::integer(wait)},
                  {1, 1, 1}, {128, 1, 1}));
  };
  // Wave 0 writes the bytes it read itself, or wave 1's once wave 1 waited.
  EXPECT_EQ(run(0, 0), "");
  EXPECT_EQ(run(1024, 1), "");
  // Wave 1's reads still in flight.
  std::string error = run(1024, 0);
  EXPECT_NE(error.find("'vector.store'"), std::string::npos) << error;
  EXPECT_NE(error.find("overwrites byte 1024 of workgroup attribution #0 of "
                       "@reads, which wave 1 still reads (no "
                       "amdgpu.memory_counter_wait ds(0) of that wave since "
                       "its read)"),
            std::string::npos)
      << error;
  // ds(1) completes all but the most recent op's reads: wave 1's first
  // half may be written, its second not.
  gpu::GPUFuncOp twoReads = findKernel(*module, "two_reads");
  ASSERT_TRUE(twoReads);
  auto runTwo = [&](int64_t offset) {
    HostBuffer out(128 * 16);
    return message(runKernel(
        twoReads,
        {HostValue::memref(out, {128, 16}), HostValue::integer(offset)},
        {1, 1, 1}, {128, 1, 1}));
  };
  EXPECT_EQ(runTwo(1024), "");
  error = runTwo(1536);
  EXPECT_NE(error.find("overwrites byte 1536 of workgroup attribution #0 of "
                       "@two_reads, which wave 1 still reads"),
            std::string::npos)
      << error;
  gpu::GPUFuncOp store = findKernel(*module, "store");
  ASSERT_TRUE(store);
  error = message(
      runKernel(store, {HostValue::integer(0)}, {1, 1, 1}, {128, 1, 1}));
  EXPECT_NE(error.find("'rocdl.s.barrier'"), std::string::npos) << error;
  EXPECT_NE(error.find("barrier without a fence while wave 0 has workgroup "
                       "memory writes in flight"),
            std::string::npos)
      << error;
}

//===----------------------------------------------------------------------===//
// The MXFP4 and MXFP8 ukernels, end to end
//===----------------------------------------------------------------------===//

using gfx950::kScaledMMAUKernel;

/// The kernels of test/Target/GFX950/Transforms/specialize-ukernels.mlir: one
/// workgroup of subgroups_m x subgroups_n waves calls the ukernel UKERNEL on
/// static tile views (the ukernel takes the subgroup counts from them), with
/// LHS_BYTES / RHS_BYTES bytes per lane fragment, ACC_VALUES accumulators
/// per lane and intrinsic, and an LDS staging buffer of LDS_BYTES bytes.
constexpr const char *kMatmulKernel = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func private @UKERNEL(
        memref<?x?x?x?x64xLHS_BYTESxi8, 1>, memref<?x?x?x?x64xRHS_BYTESxi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>,
        index, index, index, index, index, index, index)
    gpu.func @matmul(%lhs: memref<?xSUBGROUPS_MxINTRINSICS_MxINTRINSICS_Kx64xLHS_BYTESxi8, 1>,
                     %rhs: memref<?xSUBGROUPS_NxINTRINSICS_NxINTRINSICS_Kx64xRHS_BYTESxi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?x?x64xACC_VALUESxf32, 1>)
        workgroup(%lds : memref<LDS_BYTESxi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: BLOCK, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant SUBGROUPS_N : index
      %im = arith.constant INTRINSICS_M : index
      %in = arith.constant INTRINSICS_N : index
      %ik = arith.constant INTRINSICS_K : index
      %c0 = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?xSUBGROUPS_MxINTRINSICS_MxINTRINSICS_Kx64xLHS_BYTESxi8, 1>
          to memref<?x?x?x?x64xLHS_BYTESxi8, 1>
      %b = memref.cast %rhs : memref<?xSUBGROUPS_NxINTRINSICS_NxINTRINSICS_Kx64xRHS_BYTESxi8, 1>
          to memref<?x?x?x?x64xRHS_BYTESxi8, 1>
      %l = memref.cast %lds : memref<LDS_BYTESxi8, #gpu.address_space<workgroup>>
          to memref<?xi8, #gpu.address_space<workgroup>>
      // The lane's accumulators, loaded before and stored after the call
      // (what mx-gfx950-lower-tiled-mma emits for a data-tiled acc).
      %c1 = arith.constant 1 : index
      %accs = memref.alloca() : memref<INTRINSICS_MxINTRINSICS_NxACC_VALUESxf32, 5>
      %accs_d = memref.cast %accs : memref<INTRINSICS_MxINTRINSICS_NxACC_VALUESxf32, 5> to memref<?x?x?xf32, 5>
      scf.for %i = %c0 to %im step %c1 {
        scf.for %j = %c0 to %in step %c1 {
          %v = vector.load %acc[%wm, %wn, %i, %j, %lane, %c0] : memref<?x?x?x?x64xACC_VALUESxf32, 1>, vector<ACC_VALUESxf32>
          vector.store %v, %accs[%i, %j, %c0] : memref<INTRINSICS_MxINTRINSICS_NxACC_VALUESxf32, 5>, vector<ACC_VALUESxf32>
        }
      }
      func.call @UKERNEL(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %c0)
          {mx.ukernel.type_parameters = TYPE_PARAMETERS}
          : (memref<?x?x?x?x64xLHS_BYTESxi8, 1>, memref<?x?x?x?x64xRHS_BYTESxi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>,
             index, index, index, index, index, index, index) -> ()
      scf.for %i = %c0 to %im step %c1 {
        scf.for %j = %c0 to %in step %c1 {
          %v = vector.load %accs[%i, %j, %c0] : memref<INTRINSICS_MxINTRINSICS_NxACC_VALUESxf32, 5>, vector<ACC_VALUESxf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %c0] : memref<?x?x?x?x64xACC_VALUESxf32, 1>, vector<ACC_VALUESxf32>
        }
      }
      gpu.return
    }
  }
}
)mlir";

/// Tile parameters of the data-tiled layout (the fixture's intrinsic).
struct Config {
  int64_t intrinsicsM, intrinsicsN, intrinsicsK, subgroupsM, subgroupsN;
  int64_t waves() const { return subgroupsM * subgroupsN; }
};
constexpr Config k4x4x2{4, 4, 2, 2, 2};
constexpr Config k16x4x2{16, 4, 2, 1, 4};
/// For 32x32x64: 2 x 2 waves of 2 x 2 intrinsics, 4 K steps (256 wide).
constexpr Config k2x2x4{2, 2, 4, 2, 2};
/// One wave.
constexpr Config kOneWave2x2x2{2, 2, 2, 1, 1};
/// 1 x 3 waves: 8 A fragments per K step do not split evenly over 3 waves.
constexpr Config kUneven4x2x2{4, 2, 2, 1, 3};

/// Logical MXFP4/MXFP8 operands of one workgroup tile: codes one per byte.
struct Problem {
  int64_t m = 0, n = 0, k = 0;
  std::vector<uint8_t> a, b;   ///< [m x k], [n x k] (B transposed).
  std::vector<uint8_t> sa, sb; ///< [m x k/32], [n x k/32].
  std::vector<float> c;        ///< [m x n].
};

/// The ukernel's byte views of one problem (see the ukernel header).
struct Buffers {
  HostBuffer lhs, rhs, lhsScales, rhsScales, acc;
  SmallVector<int64_t> lhsShape, rhsShape, lhsScalesShape, rhsScalesShape,
      accShape;
};

/// Deliberate layout bugs, to show the comparison catches them.
/// ContiguousLhsK (fp8): lane group g of the lhs gets k = 32 g + t, the fp4
/// order, instead of its two 16-value chunks.
enum class LayoutBug { None, SwapLhsLaneGroups, ContiguousLhsK };

class MXFP4UKernelTest : public WaveEmulatorTest {
protected:
  /// E2M1 (fp4) unless a derived fixture sets E4M3 (fp8).
  /// The lhs format, and the rhs one unless rhsFormatOverride sets it.
  ref::ElemFormat format = ref::ElemFormat::E2M1;
  std::optional<ref::ElemFormat> rhsFormatOverride;
  gfx950::ScaledMMAIntrinsic intrinsic =
      gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128;

  ref::ElemFormat formatOf(bool lhs) const {
    return lhs ? format : rhsFormatOverride.value_or(format);
  }
  static bool isFp8(ref::ElemFormat f) { return f == ref::ElemFormat::E4M3; }
  gfx950::IntrinsicInfo info() const {
    return gfx950::getIntrinsicInfo(intrinsic);
  }
  Type typeOf(bool lhs) {
    return isFp8(formatOf(lhs)) ? Type(Float8E4M3FNType::get(&ctx))
                                : Type(Float4E2M1FNType::get(&ctx));
  }
  std::string ukernelName() { return kScaledMMAUKernel.str(); }
  /// The call's type parameters (the layout's intrinsic and element types).
  std::string typeParameters() {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << gfx950::getUKernelTypeParameters(makeLayout(k4x4x2));
    return text;
  }
  /// Bytes of one lane's fragment of one intrinsic (lhs or rhs).
  int64_t fragmentBytes(bool lhs) const {
    return isFp8(formatOf(lhs)) ? 32 : 16;
  }

  DataTiledLayoutAttr makeLayout(const Config &config) {
    return DataTiledLayoutAttr::get(
        &ctx, gfx950::ScaledMFMAAttr::get(&ctx, intrinsic), typeOf(true),
        typeOf(false), config.intrinsicsM, config.intrinsicsN,
        config.intrinsicsK, config.subgroupsM, config.subgroupsN,
        {OperandRole::lhs_scales}, {OperandRole::rhs_scales},
        {OperandRole::lhs_scales, OperandRole::rhs_scales});
  }

  /// Bytes of the ukernel's LDS staging buffer: two K steps of the
  /// workgroup's A and B tiles, or with `launchLDS` what
  /// mx-gfx950-lower-tiled-mma gives the launch (getUKernelLDSBytes).
  int64_t ldsBytes(const Config &config) {
    if (launchLDS)
      return gfx950::getUKernelLDSBytes(makeLayout(config));
    return 2 * gfx950::getUKernelStageBytes(makeLayout(config));
  }
  /// Size the LDS as the launch does (getUKernelLDSBytes: with 1 x 4 waves
  /// four stages of A and the A scales' ring) instead of two K steps of A
  /// and B.
  bool launchLDS = false;

  /// The kernel module for `config`, specialized (ukernel call replaced by
  /// straight-line MFMA code) or with the ukernel source linked in as a
  /// function that the kernel calls; `mutate`, when given, edits the linked
  /// ukernel source first (to show that the emulator catches a bug).
  OwningOpRef<ModuleOp>
  buildKernel(const Config &config, bool specialize,
              function_ref<std::string(std::string)> mutate = nullptr) {
    std::string text = kMatmulKernel;
    text = replaceAll(text, "UKERNEL", ukernelName());
    text = replaceAll(text, "TYPE_PARAMETERS", typeParameters());
    text = replaceAll(text, "LHS_BYTES", std::to_string(fragmentBytes(true)));
    text = replaceAll(text, "RHS_BYTES", std::to_string(fragmentBytes(false)));
    text = replaceAll(text, "ACC_VALUES", std::to_string(info().accPerLane));
    text = replaceAll(text, "LDS_BYTES", std::to_string(ldsBytes(config)));
    text = replaceAll(text, "BLOCK", std::to_string(64 * config.waves()));
    text = replaceAll(text, "SUBGROUPS_M", std::to_string(config.subgroupsM));
    text = replaceAll(text, "SUBGROUPS_N", std::to_string(config.subgroupsN));
    text = replaceAll(text, "INTRINSICS_M", std::to_string(config.intrinsicsM));
    text = replaceAll(text, "INTRINSICS_N", std::to_string(config.intrinsicsN));
    text = replaceAll(text, "INTRINSICS_K", std::to_string(config.intrinsicsK));
    OwningOpRef<ModuleOp> module = parse(text);
    if (!module)
      return nullptr;
    if (specialize) {
      PassManager pm(&ctx);
      pm.addPass(gfx950::createMXGFX950SpecializeUKernels());
      if (failed(pm.run(*module))) {
        ADD_FAILURE() << "mx-gfx950-specialize-ukernels failed";
        return nullptr;
      }
      return module;
    }
    // Link the ukernel body, its types bound, in place of its declaration.
    std::string kUKernel = ukernelName();
    std::optional<StringRef> source = gfx950::getUKernelSource(kUKernel);
    if (!source) {
      ADD_FAILURE() << "no embedded ukernel " << kUKernel;
      return nullptr;
    }
    std::string sourceText = mutate ? mutate(source->str()) : source->str();
    FailureOr<OwningOpRef<ModuleOp>> library = gfx950::instantiateUKernelSource(
        &ctx, kUKernel, sourceText,
        gfx950::getUKernelTypeParameters(makeLayout(config)),
        [&] { return emitError(UnknownLoc::get(&ctx)); });
    if (failed(library)) {
      ADD_FAILURE() << "cannot bind the ukernel's types";
      return nullptr;
    }
    auto body = (*library)->lookupSymbol<func::FuncOp>(kUKernel);
    func::FuncOp declaration;
    module->walk([&](func::FuncOp func) {
      if (func.getName() == kUKernel)
        declaration = func;
    });
    if (!body || !declaration) {
      ADD_FAILURE() << "cannot link the ukernel";
      return nullptr;
    }
    OpBuilder builder(declaration);
    builder.clone(*body);
    declaration.erase();
    return module;
  }

  /// Random operands for one workgroup tile of `config` with `kTiles` K tiles.
  /// exact: values in {0, +-0.5, +-1, +-1.5, +-2} (fp4 or fp8 codes),
  /// scales 2^-2 .. 2^2, integer accumulators: every partial sum is a
  /// multiple of 2^-6 below 2^16 in magnitude, exact in f32 whatever the
  /// summation order.
  /// Otherwise: any fp4 code / any non-NaN fp8 code, scales 2^-9 .. 2^9, real
  /// accumulators.
  /// Scales always differ between neighbouring K blocks of a row.
  Problem makeProblem(const Config &config, int64_t kTiles, bool exact,
                      unsigned seed) {
    gfx950::TileSizes tile = gfx950::getTileSizes(makeLayout(config));
    Problem p;
    p.m = tile.m;
    p.n = tile.n;
    p.k = kTiles * tile.k;
    std::mt19937 rng(seed);
    static const uint8_t exactCodes[] = {0, 1, 2, 3, 4, 8, 9, 10, 11, 12};
    // E4M3: 0, 0.5, 1, 1.5, 2 and their negatives.
    static const uint8_t exactFp8Codes[] = {0x00, 0x30, 0x38, 0x3C, 0x40,
                                            0x80, 0xB0, 0xB8, 0xBC, 0xC0};
    auto code = [&](bool fp8) -> uint8_t {
      if (exact)
        return (fp8 ? exactFp8Codes
                    : exactCodes)[rng() % std::size(exactCodes)];
      if (!fp8)
        return uint8_t(rng() % 16);
      uint8_t c = uint8_t(rng() % 256);
      return (c & 0x7F) == 0x7F ? uint8_t(c & 0xF0) : c; // No NaN.
    };
    int lo = exact ? 125 : 118, span = exact ? 5 : 19;
    auto scales = [&](int64_t rows) {
      int64_t blocks = p.k / 32;
      std::vector<uint8_t> s(rows * blocks);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t kb = 0; kb < blocks; ++kb) {
          uint8_t v = uint8_t(lo + rng() % span);
          if (kb > 0 && v == s[r * blocks + kb - 1])
            v = uint8_t(lo + (v - lo + 1) % span);
          s[r * blocks + kb] = v;
        }
      return s;
    };
    p.a.resize(p.m * p.k);
    p.b.resize(p.n * p.k);
    for (uint8_t &v : p.a)
      v = code(isFp8(formatOf(true)));
    for (uint8_t &v : p.b)
      v = code(isFp8(formatOf(false)));
    p.sa = scales(p.m);
    p.sb = scales(p.n);
    p.c.resize(p.m * p.n);
    for (float &v : p.c)
      v = exact ? float(int(rng() % 17) - 8)
                : std::ldexp(float(int(rng() % 2001) - 1000), -3);
    return p;
  }

  /// Calls fn(full position, tile coordinates) for every element of the
  /// swizzled tile of `role`. `fullShape` is the swizzled shape the ukernel
  /// views assume, with every dimension present (getSwizzle drops the unit
  /// ones: they are dropped here before asking getTileCoords).
  static void
  forEachElement(const TileSwizzle &swizzle, ArrayRef<int64_t> fullShape,
                 function_ref<void(ArrayRef<int64_t>, ArrayRef<int64_t>)> fn) {
    SmallVector<int64_t> dropped;
    for (int64_t size : fullShape)
      if (size != 1)
        dropped.push_back(size);
    ASSERT_EQ(swizzle.getSwizzledShape(), dropped)
        << "the swizzle does not have the shape the ukernel expects";
    SmallVector<int64_t> position(fullShape.size(), 0), swizzled;
    while (true) {
      swizzled.clear();
      for (auto [index, size] : llvm::zip(position, fullShape))
        if (size != 1)
          swizzled.push_back(index);
      fn(position, swizzle.getTileCoords(swizzled));
      int64_t d = int64_t(fullShape.size()) - 1;
      for (; d >= 0; --d) {
        if (++position[d] < fullShape[d])
          break;
        position[d] = 0;
      }
      if (d < 0)
        return;
    }
  }

  /// Lays the problem out into the ukernel's byte views:
  ///   lhs [Ko, sg, i, i_k, 64, 16 B] from the swizzled tile
  ///       [sg, i, i_k, g = 4, r = 16, 32 items], lane = 16 g + r,
  ///       item 2j / 2j+1 in the low / high nibble of byte j (fp4);
  ///   lhs [Ko, sg, i, i_k, 64, 32 B] from the swizzled tile
  ///       [sg, i, i_k, g = 4, r = 16, chunk = 2, 16 items], byte
  ///       16 chunk + item (fp8);
  ///   scales [Ko, sg, 64, i * i_k] from [sg, g, r, i, i_k];
  ///   acc [sg_m, sg_n, i_m, i_n, 64, 4] from [sg_m, sg_n, i_m, i_n, g, r, 4].
  Buffers layOut(const Config &config, const Problem &p, LayoutBug bug) {
    DataTiledLayoutAttr layout = makeLayout(config);
    gfx950::TileSizes tile = gfx950::getTileSizes(layout);
    const int64_t kTiles = p.k / tile.k, ik = config.intrinsicsK;
    const int64_t kBlocks = p.k / 32, tileBlocks = tile.k / 32;
    // Lane groups and rows (lane = rows * g + r) of the intrinsic.
    const int64_t groups = info().kGroups, rows = info().m;
    Buffers buf;

    auto data = [&](OperandRole role, int64_t sg, int64_t unroll,
                    const std::vector<uint8_t> &codes, HostBuffer &out,
                    SmallVector<int64_t> &shape) {
      TileSwizzle swizzle = gfx950::getSwizzle(layout, role);
      const bool isLhs = role == OperandRole::lhs;
      const bool fp8 = isFp8(formatOf(isLhs));
      const int64_t bytes = fragmentBytes(isLhs);
      shape = {kTiles, sg, unroll, ik, 64, bytes};
      out = HostBuffer(kTiles * sg * unroll * ik * 64 * bytes);
      SmallVector<int64_t> full = {sg, unroll, ik, groups, rows, 32};
      if (fp8)
        full = {sg, unroll, ik, groups, rows, 2, 16};
      for (int64_t ko = 0; ko < kTiles; ++ko)
        forEachElement(
            swizzle, full,
            [&](ArrayRef<int64_t> pos, ArrayRef<int64_t> coords) {
              int64_t g = pos[3], r = pos[4];
              // Position of the value in the lane's fragment.
              int64_t item = fp8 ? 16 * pos[5] + pos[6] : pos[5];
              int64_t k = coords[1];
              if (bug == LayoutBug::SwapLhsLaneGroups &&
                  role == OperandRole::lhs)
                g ^= 1;
              if (bug == LayoutBug::ContiguousLhsK && role == OperandRole::lhs)
                k = k / 128 * 128 + 32 * g + item;
              int64_t lane = rows * g + r;
              int64_t fragment =
                  (((ko * sg + pos[0]) * unroll + pos[1]) * ik + pos[2]) * 64 +
                  lane;
              uint8_t value = codes[coords[0] * p.k + ko * tile.k + k];
              if (fp8)
                out.bytes[fragment * bytes + item] = value;
              else
                out.bytes[fragment * bytes + item / 2] |=
                    uint8_t((value & 0xF) << (4 * (item % 2)));
            });
    };
    data(OperandRole::lhs, config.subgroupsM, config.intrinsicsM, p.a, buf.lhs,
         buf.lhsShape);
    data(OperandRole::rhs, config.subgroupsN, config.intrinsicsN, p.b, buf.rhs,
         buf.rhsShape);

    auto scales = [&](OperandRole role, int64_t sg, int64_t unroll,
                      const std::vector<uint8_t> &values, HostBuffer &out,
                      SmallVector<int64_t> &shape) {
      TileSwizzle swizzle = gfx950::getSwizzle(layout, role);
      shape = {kTiles, sg, 64, unroll * ik};
      out = HostBuffer(kTiles * sg * 64 * unroll * ik);
      for (int64_t ko = 0; ko < kTiles; ++ko)
        forEachElement(
            swizzle, {sg, groups, rows, unroll, ik},
            [&](ArrayRef<int64_t> pos, ArrayRef<int64_t> coords) {
              int64_t lane = rows * pos[1] + pos[2];
              int64_t byte = ((ko * sg + pos[0]) * 64 + lane) * (unroll * ik) +
                             pos[3] * ik + pos[4];
              out.bytes[byte] =
                  values[coords[0] * kBlocks + ko * tileBlocks + coords[1]];
            });
    };
    scales(OperandRole::lhs_scales, config.subgroupsM, config.intrinsicsM, p.sa,
           buf.lhsScales, buf.lhsScalesShape);
    scales(OperandRole::rhs_scales, config.subgroupsN, config.intrinsicsN, p.sb,
           buf.rhsScales, buf.rhsScalesShape);

    buf.accShape = {config.subgroupsM,
                    config.subgroupsN,
                    config.intrinsicsM,
                    config.intrinsicsN,
                    64,
                    info().accPerLane};
    std::vector<float> acc(p.m * p.n);
    forEachAcc(config, [&](int64_t index, int64_t row, int64_t col) {
      acc[index] = p.c[row * p.n + col];
    });
    buf.acc = HostBuffer::from<float>(acc);
    return buf;
  }

  /// Calls fn(index in the acc view, row, column) for every accumulator.
  void forEachAcc(const Config &config,
                  function_ref<void(int64_t, int64_t, int64_t)> fn) {
    TileSwizzle swizzle =
        gfx950::getSwizzle(makeLayout(config), OperandRole::result);
    SmallVector<int64_t> full = {config.subgroupsM,     config.subgroupsN,
                                 config.intrinsicsM,    config.intrinsicsN,
                                 info().kGroups,        info().n,
                                 info().accPerLane / 4, 4};
    int64_t index = 0;
    forEachElement(swizzle, full,
                   [&](ArrayRef<int64_t>, ArrayRef<int64_t> coords) {
                     // Full positions are visited in row-major order, which
                     // is the order of the acc view.
                     fn(index++, coords[0], coords[1]);
                   });
  }

  /// The acc view in logical [m x n] order.
  std::vector<float> unswizzleAcc(const Config &config, const Problem &p,
                                  const HostBuffer &acc) {
    std::vector<float> view = acc.as<float>(), result(p.m * p.n);
    forEachAcc(config, [&](int64_t index, int64_t row, int64_t col) {
      result[row * p.n + col] = view[index];
    });
    return result;
  }

  /// Runs the kernel on `buf`; returns the error message ("" on success).
  std::string run(ModuleOp module, const Config &config, Buffers &buf,
                  RunStats *stats = nullptr) {
    gpu::GPUFuncOp kernel = findKernel(module, "matmul");
    if (!kernel)
      return "no kernel";
    return message(
        runKernel(kernel,
                  {HostValue::memref(buf.lhs, buf.lhsShape),
                   HostValue::memref(buf.rhs, buf.rhsShape),
                   HostValue::memref(buf.lhsScales, buf.lhsScalesShape),
                   HostValue::memref(buf.rhsScales, buf.rhsScalesShape),
                   HostValue::memref(buf.acc, buf.accShape)},
                  {1, 1, 1}, {64 * config.waves(), 1, 1}, stats));
  }

  std::vector<float> reference(const Problem &p) {
    return ref::scaledMatmul(p.a.data(), p.sa.data(), formatOf(true),
                             p.b.data(), p.sb.data(), formatOf(false), p.m, p.n,
                             p.k,
                             /*bTransposed=*/true, p.c.data());
  }

  /// Number of elements whose bits differ; reports the first few.
  static int64_t countBitDifferences(const std::vector<float> &got,
                                     const std::vector<float> &want, int64_t n,
                                     bool report) {
    int64_t differences = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      uint32_t g, w;
      std::memcpy(&g, &got[i], 4);
      std::memcpy(&w, &want[i], 4);
      if (g == w)
        continue;
      if (report && differences < 5)
        ADD_FAILURE() << "C[" << i / n << "][" << i % n << "] = " << got[i]
                      << ", reference " << want[i];
      ++differences;
    }
    return differences;
  }

  /// The exact-data test: emulated result == reference, bit for bit.
  void checkExact(const Config &config, int64_t kTiles, unsigned seed) {
    OwningOpRef<ModuleOp> module = buildKernel(config, /*specialize=*/true);
    ASSERT_TRUE(module);
    Problem p = makeProblem(config, kTiles, /*exact=*/true, seed);
    Buffers buf = layOut(config, p, LayoutBug::None);
    RunStats stats;
    ASSERT_EQ(run(*module, config, buf, &stats), "");
    EXPECT_EQ(stats.mfmas, config.waves() * config.intrinsicsM *
                               config.intrinsicsN * config.intrinsicsK *
                               kTiles);
    std::vector<float> got = unswizzleAcc(config, p, buf.acc);
    std::vector<float> want = reference(p);
    EXPECT_EQ(countBitDifferences(got, want, p.n, /*report=*/true), 0);
    // Not vacuous: the products changed the accumulators.
    int64_t changed = 0;
    for (size_t i = 0; i < want.size(); ++i)
      changed += want[i] != p.c[i];
    EXPECT_GT(changed, int64_t(want.size()) / 2);
  }

  /// The random-data test. The emulator rounds to f32 once per MFMA
  /// (Ko * intrinsics_k roundings per output), the reference once, so
  ///   |emulated - reference| <= (Ko * intrinsics_k + 1) * 2^-24
  ///                             * (sum_k |scaled products| + |C|).
  void checkRandom(const Config &config, int64_t kTiles, unsigned seed) {
    OwningOpRef<ModuleOp> module = buildKernel(config, /*specialize=*/true);
    ASSERT_TRUE(module);
    Problem p = makeProblem(config, kTiles, /*exact=*/false, seed);
    Buffers buf = layOut(config, p, LayoutBug::None);
    ASSERT_EQ(run(*module, config, buf), "");
    std::vector<float> got = unswizzleAcc(config, p, buf.acc);
    std::vector<float> want = reference(p);
    double roundings = double(kTiles * config.intrinsicsK + 1);
    // |A| and |B| scaled, from the reference's decoders.
    auto scaledAbs = [&](const std::vector<uint8_t> &codes,
                         const std::vector<uint8_t> &scales, int64_t rows,
                         ref::ElemFormat format) {
      std::vector<double> values(rows * p.k);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < p.k; ++k)
          values[r * p.k + k] =
              std::fabs(ref::decode(format, codes[r * p.k + k]) *
                        ref::decodeScale(scales[r * (p.k / 32) + k / 32]));
      return values;
    };
    std::vector<double> absA = scaledAbs(p.a, p.sa, p.m, formatOf(true));
    std::vector<double> absB = scaledAbs(p.b, p.sb, p.n, formatOf(false));
    double worst = 0;
    int64_t failures = 0;
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j) {
        double magnitude = std::fabs(p.c[i * p.n + j]);
        for (int64_t k = 0; k < p.k; ++k)
          magnitude += absA[i * p.k + k] * absB[j * p.k + k];
        double bound = roundings * std::ldexp(magnitude, -24);
        double error =
            std::fabs(double(got[i * p.n + j]) - double(want[i * p.n + j]));
        if (!(error <= bound) && failures++ < 5)
          ADD_FAILURE() << "C[" << i << "][" << j << "] = " << got[i * p.n + j]
                        << ", reference " << want[i * p.n + j] << ", bound "
                        << bound;
        if (magnitude > 0)
          worst = std::max(worst, error / std::ldexp(magnitude, -24));
      }
    EXPECT_EQ(failures, 0);
    std::printf("[ info ] worst error %.3f x 2^-24 * sum|terms| (bound %.0f)\n",
                worst, roundings);
  }

  /// The ukernel called as a function computes the same bits as its
  /// specialized copy.
  void checkCalledMatchesSpecialized(const Config &config, unsigned seed) {
    OwningOpRef<ModuleOp> specialized = buildKernel(config, true);
    OwningOpRef<ModuleOp> called = buildKernel(config, false);
    ASSERT_TRUE(specialized && called);
    Problem p = makeProblem(config, 2, /*exact=*/false, seed);
    Buffers first = layOut(config, p, LayoutBug::None);
    Buffers second = layOut(config, p, LayoutBug::None);
    ASSERT_EQ(run(*specialized, config, first), "");
    ASSERT_EQ(run(*called, config, second), "");
    EXPECT_EQ(first.acc.bytes, second.acc.bytes);
  }

  /// Runs the ukernel, called as a function, on exact data with its source
  /// edited: the `count` occurrences of `from` replaced by `to`. Returns the
  /// emulator's error ("" if none).
  std::string runMutated(const Config &config, int64_t kTiles, StringRef from,
                         StringRef to, size_t count) {
    return runEdited(config, kTiles, {{from, to, count}});
  }

  /// One edit of the linked ukernel source: `count` occurrences of `from`,
  /// each replaced by `to`.
  struct Edit {
    StringRef from, to;
    size_t count;
  };
  /// runMutated with several edits; when `exact`, the result must also equal
  /// the reference bit for bit (on exact data).
  std::string runEdited(const Config &config, int64_t kTiles,
                        ArrayRef<Edit> edits, bool exact = false) {
    auto mutate = [&](std::string text) {
      for (const Edit &edit : edits) {
        size_t found = 0;
        for (size_t pos = text.find(edit.from.str()); pos != std::string::npos;
             pos = text.find(edit.from.str(), pos + edit.from.size()))
          ++found;
        EXPECT_EQ(found, edit.count) << "occurrences of:\n" << edit.from.str();
        text = replaceAll(text, edit.from, edit.to);
      }
      return text;
    };
    OwningOpRef<ModuleOp> module =
        buildKernel(config, /*specialize=*/false, mutate);
    if (!module)
      return "no module";
    Problem p = makeProblem(config, kTiles, /*exact=*/true, 51);
    Buffers buf = layOut(config, p, LayoutBug::None);
    std::string error = run(*module, config, buf);
    std::printf("[ info ] %s\n", error.c_str());
    if (error.empty() && exact)
      EXPECT_EQ(countBitDifferences(unswizzleAcc(config, p, buf.acc),
                                    reference(p), p.n, /*report=*/true),
                0);
    return error;
  }

  /// Laying the operands out with `bug` changes more than half of the
  /// results on exact data: the comparison would catch that layout bug.
  void checkLayoutBugDetected(const Config &config, LayoutBug bug,
                              unsigned seed) {
    OwningOpRef<ModuleOp> module = buildKernel(config, true);
    ASSERT_TRUE(module);
    Problem p = makeProblem(config, 2, /*exact=*/true, seed);
    Buffers buf = layOut(config, p, bug);
    ASSERT_EQ(run(*module, config, buf), "");
    std::vector<float> got = unswizzleAcc(config, p, buf.acc);
    int64_t differences =
        countBitDifferences(got, reference(p), p.n, /*report=*/false);
    EXPECT_GT(differences, int64_t(got.size()) / 2);
  }
};

TEST_F(MXFP4UKernelTest, UKernelName) {
  EXPECT_EQ(ukernelName(), kScaledMMAUKernel);
  EXPECT_NE(typeParameters().find("lhs_type = f4E2M1FN"), std::string::npos);
}
// Ko = 1: the prologue's copy and the peeled last step only (no loop
// iteration); Ko >= 2: both LDS stages, in turn.
TEST_F(MXFP4UKernelTest, Exact4x4x2Waves2x2Ko1) { checkExact(k4x4x2, 1, 12); }
TEST_F(MXFP4UKernelTest, Exact4x4x2Waves2x2Ko2) { checkExact(k4x4x2, 2, 1); }
TEST_F(MXFP4UKernelTest, Exact4x4x2Waves2x2Ko3) { checkExact(k4x4x2, 3, 2); }
TEST_F(MXFP4UKernelTest, Exact4x4x2Waves2x2Ko4) { checkExact(k4x4x2, 4, 13); }
TEST_F(MXFP4UKernelTest, Exact16x4x2Waves1x4Ko1) { checkExact(k16x4x2, 1, 14); }
TEST_F(MXFP4UKernelTest, Exact16x4x2Waves1x4Ko2) { checkExact(k16x4x2, 2, 3); }
TEST_F(MXFP4UKernelTest, Exact16x4x2Waves1x4Ko3) { checkExact(k16x4x2, 3, 4); }
/// One wave copies every fragment itself.
TEST_F(MXFP4UKernelTest, Exact2x2x2OneWaveKo3) {
  checkExact(kOneWave2x2x2, 3, 15);
}
/// 3 waves share 8 A fragments: 2 each, and a third for waves 0 and 1.
TEST_F(MXFP4UKernelTest, Exact4x2x2Waves1x3UnevenCopiesKo3) {
  checkExact(kUneven4x2x2, 3, 16);
}
TEST_F(MXFP4UKernelTest, Random4x4x2Waves2x2WithinBound) {
  checkRandom(k4x4x2, 3, 5);
}
TEST_F(MXFP4UKernelTest, Random16x4x2Waves1x4WithinBound) {
  checkRandom(k16x4x2, 2, 6);
}

/// The ukernel run as a called function (loops, affine.apply, dynamic
/// alloca, scalar scales) gives the same bits as its specialization.
TEST_F(MXFP4UKernelTest, UnspecializedUKernelMatchesSpecialization) {
  for (const Config &config : {k4x4x2, k16x4x2})
    checkCalledMatchesSpecialized(config, 7);
}

/// A wrong lane mapping in the test data changes the result: the comparison
/// would catch layout bugs.
TEST_F(MXFP4UKernelTest, WrongLhsSwizzleIsDetected) {
  for (const Config &config : {k4x4x2, k16x4x2}) {
    OwningOpRef<ModuleOp> module = buildKernel(config, true);
    ASSERT_TRUE(module);
    Problem p = makeProblem(config, 2, /*exact=*/true, 8);
    Buffers buf = layOut(config, p, LayoutBug::SwapLhsLaneGroups);
    ASSERT_EQ(run(*module, config, buf), "");
    std::vector<float> got = unswizzleAcc(config, p, buf.acc);
    int64_t differences =
        countBitDifferences(got, reference(p), p.n, /*report=*/false);
    EXPECT_GT(differences, int64_t(got.size()) / 2);
  }
}

/// An rhs with fewer K tiles than the lhs (whose size sets the loop count):
/// the view of K step 1 past its end is reported with the op and the
/// offsets.
TEST_F(MXFP4UKernelTest, OutOfBoundsIndexNamesTheOp) {
  OwningOpRef<ModuleOp> module = buildKernel(k4x4x2, true);
  ASSERT_TRUE(module);
  Problem p = makeProblem(k4x4x2, 2, /*exact=*/true, 9);
  Buffers buf = layOut(k4x4x2, p, LayoutBug::None);
  buf.rhsShape[0] = 1;
  buf.rhs.bytes.resize(buf.rhs.size() / 2);
  std::string error = run(*module, k4x4x2, buf);
  std::printf("[ info ] %s\n", error.c_str());
  // The copies read the rhs one K step at a time, a subview of its [Ko,
  // bytes] view: the view of step 1 leaves the one-step buffer.
  EXPECT_NE(error.find("'memref.subview' at loc("), std::string::npos) << error;
  EXPECT_NE(error.find("subview offsets [1, 0], sizes [1, 16384]"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("exceed the source shape [1, 16384]"), std::string::npos)
      << error;
}

/// A buffer smaller than its declared shape: the access that leaves it fails.
TEST_F(MXFP4UKernelTest, TooSmallBufferNamesTheOp) {
  OwningOpRef<ModuleOp> module = buildKernel(k4x4x2, true);
  ASSERT_TRUE(module);
  Problem p = makeProblem(k4x4x2, 2, /*exact=*/true, 10);
  Buffers buf = layOut(k4x4x2, p, LayoutBug::None);
  buf.acc.bytes.resize(buf.acc.size() - 4);
  std::string error = run(*module, k4x4x2, buf);
  std::printf("[ info ] %s\n", error.c_str());
  EXPECT_NE(error.find("'vector.load' at loc("), std::string::npos) << error;
  EXPECT_NE(error.find("thread 255 "), std::string::npos) << error;
  EXPECT_NE(error.find("outside its storage"), std::string::npos) << error;
  EXPECT_NE(error.find("kernel argument #4"), std::string::npos) << error;
}

/// The emulator catches synchronization bugs of the LDS staging that
/// lock-step execution would hide (every store is visible at once there):
/// each run edits the ukernel and expects the error that names the race.

/// The fp4 x fp4 kernels run the pipelined schedule (see the ukernel's
/// header): a wait and a barrier at the top of each K iteration (the wait
/// leaves the last step's copies in flight with four stages), a barrier
/// before the copies in the middle with two.

/// Without the barrier at the top of the K loop, a wave reads the next
/// step's fragments while other waves' copies of them are not known to be
/// done.
TEST_F(MXFP4UKernelTest, MissingBarrierIsDetected) {
  std::string error = runMutated(k4x4x2, 3,
                                 "      mx_gfx950.wait_lds %reads_left\n"
                                 "      rocdl.s.barrier\n"
                                 "      // The stages of steps k",
                                 "      mx_gfx950.wait_lds %reads_left\n"
                                 "      // The stages of steps k",
                                 1);
  EXPECT_NE(error.find("'vector.load'"), std::string::npos) << error;
  EXPECT_NE(error.find("after the last barrier (a barrier is missing"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("of workgroup attribution #0 of @matmul"),
            std::string::npos)
      << error;
}

/// Without the wait for the wave's own copies, the next iteration reads LDS
/// that the copies may not have written yet.
TEST_F(MXFP4UKernelTest, MissingCopyWaitIsDetected) {
  for (const Config &config : {k4x4x2, k16x4x2}) {
    std::string error =
        runMutated(config, 3,
                   "      // wait for every copy in flight.\n"
                   "      mx_gfx950.wait_loads %in_flight\n",
                   "      // wait for every copy in flight.\n", 1);
    EXPECT_NE(error.find("'vector.load'"), std::string::npos) << error;
    EXPECT_NE(error.find("which an amdgpu.gather_to_lds of wave"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("is still writing"), std::string::npos) << error;
  }
}

/// Four stages (1 x 4 waves, B private): the wait at the top of an
/// iteration leaves exactly the copies of the previous one in flight; one
/// more, and the next step's fragments are read while a copy still writes
/// them. The same in the prologue, with 3 waves sharing 8 fragments unevenly
/// (the waves with a third copy wait for one of the last step's too).
TEST_F(MXFP4UKernelTest, WaitingForTooFewCopiesIsDetected) {
  for (const Config &config : {k16x4x2, kUneven4x2x2}) {
    std::string error = runMutated(
        config, 4, "%in_flight = arith.muli %ahead_2, %copies : index",
        "%in_flight = affine.apply affine_map<()[a, c] -> "
        "(a * c + 1)>()[%ahead_2, %copies]",
        1);
    EXPECT_NE(error.find("'vector.load'"), std::string::npos) << error;
    EXPECT_NE(error.find("is still writing"), std::string::npos) << error;
  }
}

/// rocdl.s.barrier has no fence: without the wait for its LDS reads, a wave
/// could meet the others while its reads of a stage that their next copies
/// overwrite are still in flight (here the A scales' LDS ring: read in row
/// mid, overwritten by the next iteration's copies).
TEST_F(MXFP4UKernelTest, BarrierWithoutLDSWaitIsDetected) {
  std::string error = runMutated(k16x4x2, 3,
                                 "      mx_gfx950.wait_lds %reads_left\n"
                                 "      rocdl.s.barrier\n"
                                 "      // The stages of steps k",
                                 "      rocdl.s.barrier\n"
                                 "      // The stages of steps k",
                                 1);
  EXPECT_NE(error.find("'amdgpu.gather_to_lds'"), std::string::npos) << error;
  EXPECT_NE(error.find("still reads (no amdgpu.memory_counter_wait ds(0) of "
                       "that wave since its read)"),
            std::string::npos)
      << error;
}

/// fp4 A reading the next step's first-half rows late (a register
/// schedule's late_next_rows, bound here by editing the ukernel's rule),
/// with the launch's LDS (four stages of A and the A scales' ring): the wait
/// before the top barrier leaves the late reads after the ring's read in
/// flight, and the result is exact over stages + 2 K steps. Leaving one more
/// read in flight keeps the ring's read in flight too, which the next
/// iteration's copies overwrite.
TEST_F(MXFP4UKernelTest, LateReadsLeftInFlightAtTheBarrier) {
  launchLDS = true;
  Edit late = {"%late_rule = arith.constant {mx.late_next_rows} false",
               "%late_rule = arith.constant {mx.late_next_rows} true", 1};
  EXPECT_EQ(runEdited(k16x4x2, 6, {late}, /*exact=*/true), "");
  std::string error =
      runEdited(k16x4x2, 6,
                {late,
                 {"%late_rows = arith.subi %h, %c1 : index",
                  "%late_rows = arith.addi %h, %c0 : index", 1}});
  EXPECT_NE(error.find("'amdgpu.gather_to_lds'"), std::string::npos) << error;
  EXPECT_NE(error.find("still reads (no amdgpu.memory_counter_wait ds(0) of "
                       "that wave since its read)"),
            std::string::npos)
      << error;
}

/// Two stages (2 x 2 waves: B is staged too, three stages do not fit):
/// without the barrier in the middle of the iteration, the copies of step
/// k + 2 overwrite step k's stage while other waves may still read it.
TEST_F(MXFP4UKernelTest, CopyIntoTheStageBeingReadIsDetected) {
  std::string error = runMutated(k4x4x2, 3,
                                 "          scf.if %two_stages {\n"
                                 "            amdgpu.lds_barrier\n"
                                 "          }\n",
                                 "", 1);
  EXPECT_NE(error.find("'amdgpu.gather_to_lds'"), std::string::npos) << error;
  EXPECT_NE(error.find("the copy overwrites byte"), std::string::npos) << error;
  EXPECT_NE(error.find("read after the last barrier"), std::string::npos)
      << error;
}

/// Four stages (1 x 4 waves, B private): the copies of step k + 3 may go
/// without a barrier only into step k - 1's stage; into step k's, whose
/// second-half fragments the waves read since the barrier at the top of the
/// iteration, they race with those reads.
TEST_F(MXFP4UKernelTest, CopyIntoTheCurrentStageIsDetected) {
  std::string error = runMutated(k16x4x2, 3, "[%stage_copy, %frag_lds_a]",
                                 "[%stage_k, %frag_lds_a]", 2);
  EXPECT_NE(error.find("'amdgpu.gather_to_lds'"), std::string::npos) << error;
  EXPECT_NE(error.find("the copy overwrites byte"), std::string::npos) << error;
  EXPECT_NE(error.find("read after the last barrier"), std::string::npos)
      << error;
}

/// Four stages: the copies of step k + 2 into that step's stage, which the
/// previous iteration's copies (left in flight by the wait) still write.
TEST_F(MXFP4UKernelTest, CopyIntoTheStageOfTheCopiesInFlightIsDetected) {
  std::string error = runMutated(k16x4x2, 4, "%k2_slot = arith.addi %k, %ahead",
                                 "%k2_slot = arith.addi %k, %c2", 1);
  EXPECT_NE(error.find("'amdgpu.gather_to_lds'"), std::string::npos) << error;
  EXPECT_NE(error.find("is still writing"), std::string::npos) << error;
}

/// The last step reading the stage after its own reads what the last
/// iteration's copies are still writing, with two stages and with three.
TEST_F(MXFP4UKernelTest, ReadingTheWrongStageIsDetected) {
  for (const Config &config : {k4x4x2, k16x4x2}) {
    std::string error =
        runMutated(config, 3, "%slot_last = arith.remui %k_last, %stages",
                   "%slot_last = arith.remui %k_tiles, %stages", 1);
    EXPECT_NE(error.find("'vector.load'"), std::string::npos) << error;
    EXPECT_NE(error.find("is still writing"), std::string::npos) << error;
  }
}

/// Emulator speed on the seed's tile (printed, not asserted).
TEST_F(MXFP4UKernelTest, Throughput16x4x2) {
  OwningOpRef<ModuleOp> module = buildKernel(k16x4x2, true);
  ASSERT_TRUE(module);
  const int64_t kTiles = 8;
  Problem p = makeProblem(k16x4x2, kTiles, /*exact=*/false, 11);
  Buffers buf = layOut(k16x4x2, p, LayoutBug::None);
  RunStats stats;
  // Wall time, and the CPU time of this thread (what the run costs when
  // other processes share the cores).
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpuStart = std::clock();
  ASSERT_EQ(run(*module, k16x4x2, buf, &stats), "");
  double cpuSeconds = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("[ perf ] 16x4x2 tile, 4 waves, Ko = %lld: %lld MFMAs, %lld ops "
              "in %.3f s: %.0f MFMAs/s (CPU time %.3f s: %.0f MFMAs/s)\n",
              (long long)kTiles, (long long)stats.mfmas,
              (long long)stats.operations, seconds,
              double(stats.mfmas) / seconds, cpuSeconds,
              double(stats.mfmas) / std::max(cpuSeconds, 1e-9));
  EXPECT_EQ(stats.mfmas, 4 * 16 * 4 * 2 * kTiles);
}

//===----------------------------------------------------------------------===//
// MXFP8: the same harness with E4M3 operands and the fp8 ukernel
//===----------------------------------------------------------------------===//

class MXFP8UKernelTest : public MXFP4UKernelTest {
protected:
  MXFP8UKernelTest() { format = ref::ElemFormat::E4M3; }
};

TEST_F(MXFP8UKernelTest, Exact4x4x2Waves2x2Ko2) { checkExact(k4x4x2, 2, 21); }
TEST_F(MXFP8UKernelTest, Exact4x4x2Waves2x2Ko3) { checkExact(k4x4x2, 3, 22); }
TEST_F(MXFP8UKernelTest, Exact16x4x2Waves1x4Ko2) { checkExact(k16x4x2, 2, 23); }
TEST_F(MXFP8UKernelTest, Exact4x4x2Waves2x2Ko1) { checkExact(k4x4x2, 1, 28); }
TEST_F(MXFP8UKernelTest, Exact4x2x2Waves1x3UnevenCopiesKo3) {
  checkExact(kUneven4x2x2, 3, 29);
}
TEST_F(MXFP8UKernelTest, Random4x4x2Waves2x2WithinBound) {
  checkRandom(k4x4x2, 2, 24);
}

TEST_F(MXFP8UKernelTest, UnspecializedUKernelMatchesSpecialization) {
  checkCalledMatchesSpecialized(k4x4x2, 25);
}

/// The K order inside a lane matters: the lhs laid out with k = 32 g + t per
/// lane group (the fp4 order) instead of the swizzle's two 16-value chunks
/// (k = 16 g + u and 64 + 16 g + u) gives a different result, on exact data
/// with distinct scales for neighbouring K blocks. Together with the exact
/// test this checks the fp8 chunk order end to end.
TEST_F(MXFP8UKernelTest, ContiguousLhsKOrderIsDetected) {
  checkLayoutBugDetected(k4x4x2, LayoutBug::ContiguousLhsK, 26);
}

TEST_F(MXFP8UKernelTest, WrongLhsSwizzleIsDetected) {
  checkLayoutBugDetected(k4x4x2, LayoutBug::SwapLhsLaneGroups, 27);
}

/// The fp8 kernels run the simple schedule: a wait and a barrier at the end
/// of each K iteration.

/// Without the barrier at the end of the K loop, a wave reads the next
/// stage while other waves' copies into it are not known to be done.
TEST_F(MXFP8UKernelTest, MissingBarrierIsDetected) {
  std::string error = runMutated(k4x4x2, 3,
                                 "      amdgpu.memory_counter_wait load(0)\n"
                                 "      amdgpu.lds_barrier\n    }\n",
                                 "      amdgpu.memory_counter_wait load(0)\n"
                                 "    }\n",
                                 1);
  EXPECT_NE(error.find("'vector.load'"), std::string::npos) << error;
  EXPECT_NE(error.find("after the last barrier (a barrier is missing"),
            std::string::npos)
      << error;
}

/// Wide A (fp8, one wave along M, B private: the pipelined schedule with A
/// read rows ahead) on 8 x 4 x 1 intrinsics reads 3 rows ahead; the wait
/// before the top barrier leaves the 3 fragment reads of the next step's
/// first rows in flight, and the run is exact. Leaving 15 reads in flight
/// keeps reads of the stage the next copies overwrite in flight too.
TEST_F(MXFP8UKernelTest, WideAReadsLeftInFlightAtTheBarrier) {
  constexpr Config kWide8x4x1{8, 4, 1, 1, 2};
  checkExact(kWide8x4x1, 4, 31);
  std::string error = runMutated(
      kWide8x4x1, 4,
      "%reads_left = arith.select %wide_staged, %wide_reads_15, %late_left "
      ": index",
      "%reads_left = arith.select %wide_staged, %c15, %late_left : index", 1);
  EXPECT_NE(error.find("'amdgpu.gather_to_lds'"), std::string::npos) << error;
  EXPECT_NE(error.find("still reads (no amdgpu.memory_counter_wait ds(0) of "
                       "that wave since its read)"),
            std::string::npos)
      << error;
}

/// Without the wait for the wave's own copies, the next iteration reads LDS
/// that the copies may not have written yet.
TEST_F(MXFP8UKernelTest, MissingCopyWaitIsDetected) {
  std::string error =
      runMutated(k4x4x2, 3,
                 "      amdgpu.sched_barrier allow = <none>\n"
                 "      amdgpu.memory_counter_wait load(0)\n",
                 "      amdgpu.sched_barrier allow = <none>\n", 1);
  EXPECT_NE(error.find("'vector.load'"), std::string::npos) << error;
  EXPECT_NE(error.find("is still writing"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// Mixed MXFP8 (E4M3, lhs) x MXFP4 (E2M1, rhs) on 16x16x128
//===----------------------------------------------------------------------===//

class MixedFp8Fp4UKernelTest : public MXFP4UKernelTest {
protected:
  MixedFp8Fp4UKernelTest() {
    format = ref::ElemFormat::E4M3;
    rhsFormatOverride = ref::ElemFormat::E2M1;
  }
};

TEST_F(MixedFp8Fp4UKernelTest, Exact4x4x2Waves2x2Ko2) {
  checkExact(k4x4x2, 2, 31);
}
TEST_F(MixedFp8Fp4UKernelTest, Exact4x4x2Waves2x2Ko3) {
  checkExact(k4x4x2, 3, 34);
}
TEST_F(MixedFp8Fp4UKernelTest, UnspecializedUKernelMatchesSpecialization) {
  checkCalledMatchesSpecialized(k4x4x2, 35);
}
TEST_F(MixedFp8Fp4UKernelTest, Random4x4x2Waves2x2WithinBound) {
  checkRandom(k4x4x2, 2, 32);
}
TEST_F(MixedFp8Fp4UKernelTest, ContiguousLhsKOrderIsDetected) {
  checkLayoutBugDetected(k4x4x2, LayoutBug::ContiguousLhsK, 33);
}

//===----------------------------------------------------------------------===//
// MXFP4 on 32x32x64: 2 lane groups of 32 rows, 16 accumulators per lane
//===----------------------------------------------------------------------===//

class MXFP4x32UKernelTest : public MXFP4UKernelTest {
protected:
  MXFP4x32UKernelTest() {
    intrinsic = gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64;
  }
};

TEST_F(MXFP4x32UKernelTest, Exact2x2x4Waves2x2Ko2) {
  checkExact(k2x2x4, 2, 41);
}
TEST_F(MXFP4x32UKernelTest, Exact2x2x4Waves2x2Ko3) {
  checkExact(k2x2x4, 3, 45);
}
TEST_F(MXFP4x32UKernelTest, Random2x2x4Waves2x2WithinBound) {
  checkRandom(k2x2x4, 2, 42);
}
TEST_F(MXFP4x32UKernelTest, UnspecializedUKernelMatchesSpecialization) {
  checkCalledMatchesSpecialized(k2x2x4, 43);
}
TEST_F(MXFP4x32UKernelTest, WrongLhsSwizzleIsDetected) {
  checkLayoutBugDetected(k2x2x4, LayoutBug::SwapLhsLaneGroups, 44);
}

} // namespace
