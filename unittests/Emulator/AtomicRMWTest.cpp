//===- AtomicRMWTest.cpp - memref.atomic_rmw on the wave emulator ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// memref.atomic_rmw on the wave emulator: the "last arriver" kernel of a
// split GEMM's epilogue (test/Integration/GFX950/Inputs/
// last-arriver-kernel.mlir, which last-arriver.mlir runs on the ISA
// executor) on one and on several host threads, checked against the values
// derived by hand in its header; each supported kind applied lane after lane
// (the returned values are the running fold, computed here in plain C++);
// and the errors for what is not modelled.
//
//===----------------------------------------------------------------------===//

#include "mx/Emulator/WaveEmulator.h"

#include "EmulatorTestUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::mx::emu;

namespace {

using mlir::mx::emu::test::findKernel;
using mlir::mx::emu::test::message;

bool contains(const std::string &text, StringRef part) {
  return text.find(part.str()) != std::string::npos;
}

/// Replaces every `from` in `text` by `to`.
std::string replaceAll(std::string text, StringRef from, StringRef to) {
  for (size_t at = text.find(from.str()); at != std::string::npos;
       at = text.find(from.str(), at + to.size()))
    text.replace(at, from.size(), to.str());
  return text;
}

class AtomicRMWTest : public ::testing::Test {
protected:
  AtomicRMWTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
                    scf::SCFDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Runs kernel @`name` of `text` on `args`; the error message or "".
  std::string run(StringRef text, StringRef name, ArrayRef<HostValue> args,
                  std::array<int64_t, 3> grid, std::array<int64_t, 3> block,
                  unsigned threads = 1) {
    OwningOpRef<ModuleOp> module = test::parseModule(ctx, text);
    if (!module)
      return "cannot parse";
    gpu::GPUFuncOp kernel = findKernel(*module, name);
    if (!kernel)
      return "no kernel @" + name.str();
    RunOptions options;
    options.threads = threads;
    return message(runKernel(kernel, args, grid, block, nullptr, options));
  }

  /// Runs the last-arriver kernel `text` (Inputs/last-arriver-kernel.mlir)
  /// on `threads` host threads and checks its results against the kernel
  /// header's hand-derived values: out[s][l] = 8000 s + 1456 + 8 l,
  /// counters = [8, 8, 8].
  void checkLastArriver(StringRef text, unsigned threads) {
    // Reads of values no workgroup stored yet, or an output left unwritten,
    // show: the buffers track which bytes were written.
    HostBuffer vals = HostBuffer::uninitialized(12 * 128 * 4);
    HostBuffer counters(3 * 4);
    HostBuffer out = HostBuffer::uninitialized(3 * 64 * 4);
    ASSERT_EQ(
        run(text, "last_arriver",
            {HostValue::memref(vals, {12, 128}),
             HostValue::memref(counters, {3}), HostValue::memref(out, {3, 64})},
            {3, 4, 1}, {128, 1, 1}, threads),
        "");
    EXPECT_EQ(counters.as<int32_t>(), (std::vector<int32_t>{8, 8, 8}));
    std::vector<float> expected;
    for (int s = 0; s < 3; ++s)
      for (int lane = 0; lane < 64; ++lane)
        expected.push_back(float(8000 * s + 1456 + 8 * lane));
    EXPECT_EQ(out.as<float>(), expected);
    EXPECT_EQ(out.initialized, std::vector<uint8_t>(out.size(), 1));
  }

  /// Runs kKindKernel with `kind` on 64 lanes of `T` from `initial` and
  /// checks that lane after lane, in lane order, got the running fold of
  /// `combine` and that memory holds the whole fold.
  template <typename T>
  void checkKind(StringRef kind, StringRef type, T initial,
                 const std::function<T(T, T)> &combine);

  MLIRContext ctx;
};

//===----------------------------------------------------------------------===//
// The last arriver
//===----------------------------------------------------------------------===//

/// The text of Inputs/last-arriver-kernel.mlir.
std::string readLastArriverKernel() {
  std::string path =
      std::string(MX_INTEGRATION_INPUTS_DIR) + "/last-arriver-kernel.mlir";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  return (*file)->getBuffer().str();
}

TEST_F(AtomicRMWTest, LastArriverKernel) {
  std::string text = readLastArriverKernel();
  ASSERT_FALSE(text.empty());
  // In order (each strip's last workgroup arrives last), then with the
  // workgroups racing on four host threads, several times.
  checkLastArriver(text, 1);
  for (int repeat = 0; repeat < 8; ++repeat)
    checkLastArriver(text, 4);
  // The broadcast of the first active lane (readfirstlane) instead of lane
  // 0's (readlane): the same.
  std::string firstActive =
      replaceAll(text, "specific_lane %c0_i32", "first_active_lane");
  ASSERT_NE(firstActive, text);
  checkLastArriver(firstActive, 4);
}

//===----------------------------------------------------------------------===//
// Kinds, lane order, types
//===----------------------------------------------------------------------===//

/// Every lane t applies KIND with vals[t] to mem[1] and stores the old value
/// at old[t]; TYPE is the element type.
constexpr const char *kKindKernel = R"mlir(
gpu.module @m {
  gpu.func @kind(%mem: memref<2xTYPE>, %vals: memref<64xTYPE>,
                 %old: memref<64xTYPE>) kernel {
    %c1 = arith.constant 1 : index
    %tid = gpu.thread_id x
    %v = memref.load %vals[%tid] : memref<64xTYPE>
    %o = memref.atomic_rmw KIND %v, %mem[%c1] : (TYPE, memref<2xTYPE>) -> TYPE
    memref.store %o, %old[%tid] : memref<64xTYPE>
    gpu.return
  }
}
)mlir";

template <typename T>
void AtomicRMWTest::checkKind(StringRef kind, StringRef type, T initial,
                              const std::function<T(T, T)> &combine) {
  SCOPED_TRACE(kind.str() + " on " + type.str());
  std::vector<T> values;
  for (int lane = 0; lane < 64; ++lane)
    // Positive and negative, small and large: signed and unsigned orders
    // differ, and bits of both halves change.
    values.push_back(T((lane % 3 == 0 ? -1 : 1) * T(lane * 0x01010101 + 7)));
  HostBuffer mem = HostBuffer::from<T>(std::vector<T>{T(42), initial});
  HostBuffer vals = HostBuffer::from<T>(values);
  HostBuffer old(64 * sizeof(T));
  std::string text =
      replaceAll(replaceAll(kKindKernel, "KIND", kind), "TYPE", type);
  ASSERT_EQ(run(text, "kind",
                {HostValue::memref(mem, {2}), HostValue::memref(vals, {64}),
                 HostValue::memref(old, {64})},
                {1, 1, 1}, {64, 1, 1}),
            "");
  std::vector<T> expected;
  T current = initial;
  for (T value : values) {
    expected.push_back(current);
    current = combine(current, value);
  }
  EXPECT_EQ(old.as<T>(), expected);
  EXPECT_EQ(mem.as<T>(), (std::vector<T>{T(42), current}));
}

TEST_F(AtomicRMWTest, KindsApplyLaneAfterLane) {
  using I = int32_t;
  using U = uint32_t;
  checkKind<I>("addi", "i32", 5, [](I a, I b) { return I(U(a) + U(b)); });
  checkKind<I>("andi", "i32", -1, [](I a, I b) { return a & b; });
  checkKind<I>("ori", "i32", 0, [](I a, I b) { return a | b; });
  checkKind<I>("xori", "i32", 3, [](I a, I b) { return a ^ b; });
  checkKind<I>("assign", "i32", 9, [](I, I b) { return b; });
  checkKind<I>("maxs", "i32", 0, [](I a, I b) { return std::max(a, b); });
  checkKind<I>("mins", "i32", 0, [](I a, I b) { return std::min(a, b); });
  checkKind<I>("maxu", "i32", 0,
               [](I a, I b) { return I(std::max(U(a), U(b))); });
  checkKind<I>("minu", "i32", -1,
               [](I a, I b) { return I(std::min(U(a), U(b))); });
  checkKind<int64_t>("addi", "i64", int64_t(1) << 40, [](int64_t a, int64_t b) {
    return int64_t(uint64_t(a) + uint64_t(b));
  });
  checkKind<int64_t>("maxs", "i64", -(int64_t(1) << 40),
                     [](int64_t a, int64_t b) { return std::max(a, b); });
}

/// Every thread of every workgroup adds 1 to count[0] 16 times and stores
/// what it got at its own elements of `old`.
constexpr const char *kCountKernel = R"mlir(
gpu.module @m {
  gpu.func @count(%count: memref<1xi32>, %old: memref<64x16x64xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %one = arith.constant 1 : i32
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %c16 step %c1 {
      %o = memref.atomic_rmw addi %one, %count[%c0]
          : (i32, memref<1xi32>) -> i32
      memref.store %o, %old[%bid, %i, %tid] : memref<64x16x64xi32>
    }
    gpu.return
  }
}
)mlir";

TEST_F(AtomicRMWTest, WorkgroupsOnHostThreadsEachGetADistinctCount) {
  // 64 workgroups of 64 threads, 16 atomics each, on 4 host threads: every
  // count from 0 to 65535 comes back exactly once, and the counter ends at
  // 65536.
  HostBuffer count(4);
  HostBuffer old(64 * 16 * 64 * 4);
  ASSERT_EQ(
      run(kCountKernel, "count",
          {HostValue::memref(count, {1}), HostValue::memref(old, {64, 16, 64})},
          {64, 1, 1}, {64, 1, 1}, /*threads=*/4),
      "");
  EXPECT_EQ(count.as<int32_t>(), (std::vector<int32_t>{65536}));
  std::vector<int32_t> counts = old.as<int32_t>();
  std::sort(counts.begin(), counts.end());
  std::vector<int32_t> all(65536);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(counts, all);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_F(AtomicRMWTest, UnsupportedKindOrTypeIsAnError) {
  auto fails = [&](StringRef kind, StringRef type, StringRef expected) {
    std::string text =
        replaceAll(replaceAll(kKindKernel, "KIND", kind), "TYPE", type);
    HostBuffer mem(2 * 8), vals(64 * 8), old(64 * 8);
    std::string error =
        run(text, "kind",
            {HostValue::memref(mem, {2}), HostValue::memref(vals, {64}),
             HostValue::memref(old, {64})},
            {1, 1, 1}, {64, 1, 1});
    EXPECT_TRUE(contains(error, expected)) << error;
    EXPECT_TRUE(contains(error, "'memref.atomic_rmw' at")) << error;
  };
  fails("addf", "f32",
        "memref.atomic_rmw addf on f32 is not supported (the emulator runs "
        "addi, andi, ori, xori, maxs, maxu, mins, minu and assign on i32 and "
        "i64)");
  fails("muli", "i32", "memref.atomic_rmw muli on i32 is not supported");
  fails("addi", "i16", "memref.atomic_rmw addi on i16 is not supported");
}

TEST_F(AtomicRMWTest, AtomicReadsItsBytes) {
  std::string text =
      replaceAll(replaceAll(kKindKernel, "KIND", "addi"), "TYPE", "i32");
  HostBuffer mem = HostBuffer::uninitialized(2 * 4);
  HostBuffer vals(64 * 4), old(64 * 4);
  std::string error =
      run(text, "kind",
          {HostValue::memref(mem, {2}), HostValue::memref(vals, {64}),
           HostValue::memref(old, {64})},
          {1, 1, 1}, {64, 1, 1});
  EXPECT_TRUE(contains(error, "thread 0 (0, 0, 0): memref.atomic_rmw at index "
                              "[1] of memref<2xi32> with shape [2]"))
      << error;
  EXPECT_TRUE(contains(error, "reads memory that was never written")) << error;
  // Once written, its bytes count as written (the kernel's loads of them
  // succeed).
  mem.initialized.assign(mem.size(), 1);
  EXPECT_EQ(run(text, "kind",
                {HostValue::memref(mem, {2}), HostValue::memref(vals, {64}),
                 HostValue::memref(old, {64})},
                {1, 1, 1}, {64, 1, 1}),
            "");
}

constexpr const char *kPlacesKernel = R"mlir(
gpu.module @m {
  gpu.func @out_of_bounds(%mem: memref<2xi32>) kernel {
    %c1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %o = memref.atomic_rmw addi %c1, %mem[%tid] : (i32, memref<2xi32>) -> i32
    gpu.return
  }
  gpu.func @workgroup(%mem: memref<2xi32>)
      workgroup(%lds: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    %o = memref.atomic_rmw addi %c1, %lds[%c0]
        : (i32, memref<4xi32, #gpu.address_space<workgroup>>) -> i32
    gpu.return
  }
}
)mlir";

TEST_F(AtomicRMWTest, OutOfBoundsAndWorkgroupMemoryAreErrors) {
  HostBuffer mem(2 * 4);
  std::string error = run(kPlacesKernel, "out_of_bounds",
                          {HostValue::memref(mem, {2})}, {1, 1, 1}, {4, 1, 1});
  EXPECT_TRUE(contains(error, "thread 2 (2, 0, 0): memref.atomic_rmw at index "
                              "[2] of memref<2xi32> with shape [2]"))
      << error;
  EXPECT_TRUE(contains(error, "is out of bounds")) << error;
  // Threads 0 and 1 updated their elements before thread 2 failed.
  EXPECT_EQ(mem.as<int32_t>(), (std::vector<int32_t>{1, 1}));
  error = run(kPlacesKernel, "workgroup", {HostValue::memref(mem, {2})},
              {1, 1, 1}, {64, 1, 1});
  EXPECT_TRUE(contains(error, "memref.atomic_rmw on workgroup memory is not "
                              "supported (only global memory)"))
      << error;
}

} // namespace
