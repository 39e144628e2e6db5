//===- HIPCodeObjectTest.cpp - kernel arguments against code objects ------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The HIP backend packs kernel arguments by the ROCDL lowering's calling
// convention (mx/Runner/HIPCodeObject.h); these tests compile kernels to real
// gfx950 code objects with the LLVM AMDGPU backend and compare the packing
// with what the code object's AMDGPU metadata note says: each explicit
// argument's offset and size, the kernarg segment's size and alignment.
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/HIPCodeObject.h"
#include "mx/InitMX.h"
#include "mx/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::hip;

namespace {

class HIPCodeObjectTest : public ::testing::Test {
protected:
  HIPCodeObjectTest() {
    DialectRegistry registry;
    registerMXDialects(registry);
    registerPipelineDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Runs \p build on \p module; returns whether it succeeded.
  bool runPipeline(
      ModuleOp module,
      function_ref<void(PassManager &, const GFX950PipelineOptions &)> build,
      GFX950Output output) {
    PassManager pm(&context, ModuleOp::getOperationName());
    GFX950PipelineOptions options;
    options.output = output;
    build(pm, options);
    return succeeded(pm.run(module));
  }

  /// The code object of gpu.binary \p name in \p module.
  std::string getCodeObject(ModuleOp module, StringRef name) {
    auto binary = module.lookupSymbol<gpu::BinaryOp>(name);
    if (!binary || binary.getObjects().empty())
      return {};
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    return object.getObject().getValue().str();
  }

  /// The metadata of kernel \p kernel in \p elf; fails the test if absent.
  std::optional<KernelMetadata> getMetadata(StringRef elf, StringRef kernel) {
    llvm::Expected<SmallVector<KernelMetadata>> kernels =
        readCodeObjectMetadata(elf);
    if (!kernels) {
      ADD_FAILURE() << llvm::toString(kernels.takeError());
      return std::nullopt;
    }
    for (KernelMetadata &metadata : *kernels)
      if (metadata.name == kernel)
        return metadata;
    ADD_FAILURE() << "no kernel " << kernel.str();
    return std::nullopt;
  }

  MLIRContext context;
};

/// A kernel whose arguments need padding: i32, a strided memref, i8, f16,
/// i64 and a 1-d memref.
constexpr StringLiteral kMixedKernel = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @mixed [#rocdl.target<chip = "gfx950">] {
    gpu.func @mixed(%a: i32, %b: memref<4x8xf32, strided<[8, 1], offset: ?>>,
                    %c: i8, %d: f16, %e: i64, %f: memref<16xi8>) kernel {
      %0 = arith.index_cast %a : i32 to index
      %1 = arith.extsi %c : i8 to i32
      %2 = arith.extf %d : f16 to f32
      %3 = arith.sitofp %1 : i32 to f32
      %4 = arith.addf %2, %3 : f32
      %5 = arith.sitofp %e : i64 to f32
      %6 = arith.addf %4, %5 : f32
      memref.store %6, %b[%0, %0] : memref<4x8xf32, strided<[8, 1], offset: ?>>
      %7 = arith.trunci %a : i32 to i8
      memref.store %7, %f[%0] : memref<16xi8>
      gpu.return
    }
  }
}
)mlir";

TEST_F(HIPCodeObjectTest, MixedArgumentsMatchTheMetadata) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kMixedKernel, &context);
  ASSERT_TRUE(module);
  auto gpuModule = module->lookupSymbol<gpu::GPUModuleOp>("mixed");
  ASSERT_TRUE(gpuModule);
  auto kernel = gpuModule.lookupSymbol<gpu::GPUFuncOp>("mixed");
  ASSERT_TRUE(kernel);
  llvm::Expected<SmallVector<KernargSlot>> slots = getKernargSlots(kernel);
  ASSERT_TRUE(bool(slots)) << llvm::toString(slots.takeError());
  // i32; memref (2 pointers, offset, 2 sizes, 2 strides); i8; f16; i64;
  // memref (2 pointers, offset, size, stride).
  ASSERT_EQ(slots->size(), 1u + 7u + 1u + 1u + 1u + 5u);

  // The kernel stays in `module`; its copy becomes a code object.
  OwningOpRef<ModuleOp> codegen = module->clone();
  ASSERT_TRUE(runPipeline(*codegen, buildGFX950KernelCodegenPipeline,
                          GFX950Output::HSACO));
  std::string elf = getCodeObject(*codegen, "mixed");
  ASSERT_FALSE(elf.empty());
  std::optional<KernelMetadata> metadata = getMetadata(elf, "mixed");
  ASSERT_TRUE(metadata);
  EXPECT_EQ(metadata->symbol, "mixed.kd");

  // The layout: the metadata's offsets and sizes, argument by argument.
  llvm::Error error = checkKernargLayout(*slots, *metadata);
  EXPECT_FALSE(bool(error)) << llvm::toString(std::move(error));
  SmallVector<const KernelArgMetadata *> explicitArgs;
  for (const KernelArgMetadata &arg : metadata->args)
    if (!arg.isHidden())
      explicitArgs.push_back(&arg);
  ASSERT_EQ(explicitArgs.size(), slots->size());
  for (auto [slot, arg] : llvm::zip(*slots, explicitArgs)) {
    EXPECT_EQ(slot.offset, arg->offset) << slot.describe();
    EXPECT_EQ(slot.bytes, arg->size) << slot.describe();
  }
  // The padding the ABI needs: the pointer after the i32 at 8, the f16
  // after the i8 at an even offset, the i64 after it at a multiple of 8.
  EXPECT_EQ((*slots)[1].offset, 8u);
  EXPECT_EQ((*slots)[8].bytes, 1u);
  EXPECT_EQ((*slots)[9].offset % 2, 0u);
  EXPECT_EQ((*slots)[10].offset % 8, 0u);
  uint64_t explicitBytes = metadata->getExplicitKernargBytes();
  EXPECT_EQ(explicitBytes, (*slots).back().offset + 8);
  EXPECT_LE(explicitBytes, metadata->kernargSegmentSize);
  EXPECT_GE(metadata->kernargSegmentAlign, 8u);

  // The packed bytes, read back at the metadata's offsets.
  auto buffer = std::make_shared<emu::HostBuffer>(4096);
  auto bytes = std::make_shared<emu::HostBuffer>(16);
  emu::StridedLayout view;
  view.offset = 3;
  view.sizes = {4, 8};
  view.strides = {8, 1};
  SmallVector<emu::HostValue> args = {
      emu::HostValue::integer(7),
      emu::HostValue::memref(buffer, view),
      emu::HostValue::integer(-2),
      emu::HostValue::floating(1.5),
      emu::HostValue::integer(0x123456789),
      emu::HostValue::memref(bytes, ArrayRef<int64_t>{16})};
  llvm::Expected<std::vector<uint8_t>> packed = packKernargs(
      *slots, kernel, args, [&](const emu::HostBuffer *host) -> uint64_t {
        return host == buffer.get() ? 0x7f0000001000 : 0x7f0000002000;
      });
  ASSERT_TRUE(bool(packed)) << llvm::toString(packed.takeError());
  ASSERT_EQ(packed->size(), explicitBytes);
  auto read = [&](unsigned index) {
    uint64_t value = 0;
    std::memcpy(&value, packed->data() + explicitArgs[index]->offset,
                explicitArgs[index]->size);
    return value;
  };
  EXPECT_EQ(read(0), 7u);
  EXPECT_EQ(read(1), 0x7f0000001000u); // allocated
  EXPECT_EQ(read(2), 0x7f0000001000u); // aligned
  EXPECT_EQ(read(3), 3u);              // offset
  EXPECT_EQ(read(4), 4u);              // sizes
  EXPECT_EQ(read(5), 8u);
  EXPECT_EQ(read(6), 8u); // strides
  EXPECT_EQ(read(7), 1u);
  EXPECT_EQ(read(8), 0xfeu);   // i8 -2
  EXPECT_EQ(read(9), 0x3e00u); // f16 1.5
  EXPECT_EQ(read(10), 0x123456789u);
  EXPECT_EQ(read(11), 0x7f0000002000u);
  EXPECT_EQ(read(14), 16u);
  EXPECT_EQ(read(15), 1u);
}

/// The seed000 GEMM through the whole pipeline: every kernel's packing
/// matches its code object.
TEST_F(HIPCodeObjectTest, Seed000KernelsMatchTheMetadata) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
func.func @gemm(%a: tensor<128x512xbf16>, %b: tensor<96x512xbf16>,
                %acc: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  %qb, %sb = mx.quantize %b axis(1) scale(even) rounding(ties_away)
      : tensor<96x512xbf16> -> tensor<96x512xf4E2M1FN>, tensor<96x16xf8E8M0FNU>
  %c = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %qb, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                              tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%acc : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %c : tensor<128x96xf32>
}
)mlir",
                                                             &context);
  ASSERT_TRUE(module);
  ASSERT_TRUE(runPipeline(*module, buildGFX950Pipeline, GFX950Output::GPU));
  OwningOpRef<ModuleOp> codegen = module->clone();
  ASSERT_TRUE(runPipeline(*codegen, buildGFX950KernelCodegenPipeline,
                          GFX950Output::HSACO));
  int kernels = 0;
  for (auto gpuModule : module->getOps<gpu::GPUModuleOp>()) {
    std::string elf = getCodeObject(*codegen, gpuModule.getName());
    ASSERT_FALSE(elf.empty()) << gpuModule.getName().str();
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
      std::optional<KernelMetadata> metadata =
          getMetadata(elf, kernel.getName());
      ASSERT_TRUE(metadata);
      llvm::Expected<SmallVector<KernargSlot>> slots = getKernargSlots(kernel);
      ASSERT_TRUE(bool(slots)) << llvm::toString(slots.takeError());
      llvm::Error error = checkKernargLayout(*slots, *metadata);
      EXPECT_FALSE(bool(error)) << llvm::toString(std::move(error));
      EXPECT_EQ(layoutKernargs(*slots), metadata->getExplicitKernargBytes());
      ++kernels;
    }
  }
  EXPECT_EQ(kernels, 2); // the two operands' quantize, the GEMM
}

TEST(HIPKernargLayout, MismatchesAreNamed) {
  SmallVector<KernargSlot> slots(2);
  slots[0].kind = KernargSlot::Kind::Scalar;
  slots[0].bytes = 4;
  slots[1].kind = KernargSlot::Kind::AllocatedPointer;
  slots[1].operand = 1;
  slots[1].bytes = 8;
  EXPECT_EQ(layoutKernargs(slots), 16u);
  EXPECT_EQ(slots[1].offset, 8u);

  KernelMetadata metadata;
  metadata.name = "k";
  metadata.kernargSegmentSize = 16;
  metadata.kernargSegmentAlign = 8;
  metadata.args = {{0, 4, "by_value"},
                   {8, 8, "global_buffer"},
                   {16, 8, "hidden_block_count_x"}};
  metadata.kernargSegmentSize = 24;
  EXPECT_FALSE(bool(checkKernargLayout(slots, metadata)));

  metadata.args[1].offset = 4; // packed without padding
  llvm::Error error = checkKernargLayout(slots, metadata);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("arg #1 allocated pointer"),
            std::string::npos);

  metadata.args[1].offset = 8;
  metadata.args.erase(metadata.args.begin());
  error = checkKernargLayout(slots, metadata);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error))
                .find("1 explicit kernel "
                      "arguments"),
            std::string::npos);
}

TEST(HIPCodeObject, RejectsWhatIsNotACodeObject) {
  llvm::Expected<SmallVector<KernelMetadata>> none =
      readCodeObjectMetadata("not an ELF file");
  ASSERT_FALSE(bool(none));
  EXPECT_NE(llvm::toString(none.takeError()).find("not a 64-bit"),
            std::string::npos);
}

} // namespace
