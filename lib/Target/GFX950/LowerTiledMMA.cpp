//===- LowerTiledMMA.cpp - mx-gfx950-lower-tiled-mma ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One workgroup per output tile; its waves call the selected ukernel on views
// of the workgroup's tiles and on the workgroup's LDS staging buffer.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Passes.h"
#include "mx/Target/GFX950/UKernels.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950LOWERTILEDMMA
#include "mx/Target/GFX950/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

/// The global address space the ukernels read and write.
static constexpr int64_t kGlobalAddressSpace = 1;

namespace {
/// Builds the launch of one mx.tiled_scaled_mma.
class TiledMMALowering {
public:
  TiledMMALowering(TiledScaledMMAOp op, DataTiledLayoutAttr layout)
      : op(op), layout(layout), b(op), loc(op.getLoc()) {}

  LogicalResult run(ModuleOp module, StringRef ukernel, StringRef kernelName);

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The size of dimension `d` of `memref` (a constant if static).
  Value dim(Value memref, int64_t d) {
    int64_t size = cast<MemRefType>(memref.getType()).getDimSize(d);
    if (ShapedType::isStatic(size))
      return index(size);
    return memref::DimOp::create(b, loc, memref, d);
  }
  /// A view of the workgroup's tile of `memref` in the ukernel's shape:
  /// the outer indices `outer` select the tile, `withKo` keeps the K tile
  /// dimension in front.
  Value tileView(Value memref, OperandRole role, ValueRange outer, bool withKo);

  TiledScaledMMAOp op;
  DataTiledLayoutAttr layout;
  OpBuilder b;
  Location loc;
};
} // namespace

Value TiledMMALowering::tileView(Value memref, OperandRole role,
                                 ValueRange outer, bool withKo) {
  auto type = cast<MemRefType>(memref.getType());
  // Everything after the outer indices is contiguous: [Ko?, tile...].
  SmallVector<int64_t> tileShape = getUKernelTileShape(layout, role);
  int64_t tileSize = 1;
  for (int64_t size : tileShape)
    tileSize *= size;

  // Element offset of the tile: row-major linearization of `outer` over the
  // leading dimensions, times everything behind them.
  int64_t numOuter = outer.size();
  Value inner = index(tileSize);
  Value ko;
  if (withKo) {
    ko = dim(memref, numOuter);
    inner = arith::MulIOp::create(b, loc, inner, ko);
  }
  Value linear = index(0);
  for (int64_t d = 0; d < numOuter; ++d)
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, dim(memref, d)),
        outer[d]);
  Value offset = arith::MulIOp::create(b, loc, linear, inner);

  auto global = MemRefType::get(type.getShape(), type.getElementType(),
                                MemRefLayoutAttrInterface(),
                                b.getI64IntegerAttr(kGlobalAddressSpace));
  Value globalMemRef =
      memref::MemorySpaceCastOp::create(b, loc, global, memref);

  SmallVector<int64_t> shape = tileShape;
  SmallVector<OpFoldResult> sizes;
  if (withKo)
    shape.insert(shape.begin(), type.getDimSize(numOuter));
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  for (auto [d, size] : llvm::enumerate(shape))
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(ko)
                                                : b.getIndexAttr(size));
  SmallVector<OpFoldResult> strideFolds = llvm::map_to_vector(
      strides, [&](int64_t s) -> OpFoldResult { return b.getIndexAttr(s); });
  auto viewType = MemRefType::get(
      shape, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides),
      b.getI64IntegerAttr(kGlobalAddressSpace));
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, globalMemRef, OpFoldResult(offset), sizes, strideFolds);
}

LogicalResult TiledMMALowering::run(ModuleOp module, StringRef ukernel,
                                    StringRef kernelName) {
  SmallVector<Value> operands = {op.getLhs(), op.getRhs(), op.getLhsScales(),
                                 op.getRhsScales(), op.getAcc()};
  const OperandRole roles[] = {OperandRole::lhs, OperandRole::rhs,
                               OperandRole::lhs_scales, OperandRole::rhs_scales,
                               OperandRole::result};
  unsigned numBatch = op.getNumBatchDims();
  for (auto [value, role] : llvm::zip_equal(operands, roles)) {
    auto type = cast<MemRefType>(value.getType());
    if (!type.getLayout().isIdentity())
      return op.emitOpError()
             << stringifyOperandRole(role)
             << " must have an identity layout to be lowered to a gfx950 "
                "ukernel call, got "
             << type;
    if (role != OperandRole::result && !type.getElementType().isInteger(8))
      return op.emitOpError()
             << stringifyOperandRole(role) << " holds " << type.getElementType()
             << "; run mx-pack-to-bytes before bufferization so the "
                "ukernel gets (packed) bytes";
    // The tile in memory must be exactly the ukernel's view of it.
    int64_t expected = 1, actual = 1;
    for (int64_t size : getUKernelTileShape(layout, role))
      expected *= size;
    for (int64_t size : type.getShape().drop_front(numBatch + 2))
      actual *= size;
    if (expected != actual)
      return op.emitOpError()
             << stringifyOperandRole(role) << " tiles hold " << actual
             << " elements, the ukernel views " << expected;
  }
  FailureOr<FunctionType> ukernelType =
      getUKernelFunctionType(op.getContext(), ukernel);
  if (failed(ukernelType))
    return op.emitOpError() << "cannot load ukernel '" << ukernel << "'";
  bool hasTypeParameters = hasUKernelTypeParameters(op.getContext(), ukernel);

  // The ukernels stage one K step of the workgroup's A and B tiles through
  // LDS, double-buffered (the scales go to registers).
  int64_t stageBytes = getUKernelStageBytes(layout);
  int64_t ldsBytes = 2 * stageBytes;
  if (ldsBytes > kLDSBytes)
    return op.emitOpError()
           << "the layout " << layout << " stages " << stageBytes
           << " bytes of A and B per K step through LDS, double-buffered "
           << ldsBytes << " bytes: more than the " << kLDSBytes
           << " bytes of LDS of a gfx950 workgroup; pick a smaller tile "
              "(intrinsics_m/n/k, subgroups_m/n)";
  if (ldsBytes > getLayoutCost(layout).ldsBytes)
    return op.emitOpError()
           << "the layout " << layout << " stages " << ldsBytes
           << " bytes through LDS, more than the "
           << getLayoutCost(layout).ldsBytes
           << " bytes the layout resolver budgets for it (getLayoutCost)";

  // Grid (No, Mo, batch), one thread per lane of each subgroup.
  Value lhs = op.getLhs(), acc = op.getAcc();
  Value one = index(1);
  Value batch = one;
  for (unsigned d = 0; d < numBatch; ++d)
    batch = arith::MulIOp::create(b, loc, batch, dim(acc, d));
  Value mo = dim(acc, numBatch), no = dim(acc, numBatch + 1);
  int64_t subgroupsN = layout.getSubgroupsN();
  int64_t threads = kWaveSize * layout.getSubgroupsM() * subgroupsN;
  auto ldsType = MemRefType::get(
      {ldsBytes}, b.getI8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::GPUDialect::getWorkgroupAddressSpace()));
  auto launch = gpu::LaunchOp::create(
      b, loc, no, mo, batch, index(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, /*workgroupAttributions=*/TypeRange{ldsType});
  launch.setFunctionAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  launch.setModuleAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  b.setInsertionPointToStart(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&launch.getBody().front());

  // Workgroup indices: batch (delinearized), Mo, No.
  SmallVector<Value> batchIndices;
  if (numBatch == 1) {
    batchIndices.push_back(launch.getBlockIds().z);
  } else if (numBatch > 1) {
    SmallVector<OpFoldResult> basis;
    for (unsigned d = 0; d < numBatch; ++d)
      basis.push_back(dim(acc, d));
    auto delinearize = affine::AffineDelinearizeIndexOp::create(
        b, loc, launch.getBlockIds().z, basis);
    batchIndices.assign(delinearize.getResults().begin(),
                        delinearize.getResults().end());
  }
  Value mIndex = launch.getBlockIds().y, nIndex = launch.getBlockIds().x;
  auto outer = [&](Value tileIndex) {
    SmallVector<Value> indices = batchIndices;
    indices.push_back(tileIndex);
    return indices;
  };
  SmallVector<Value> accOuter = outer(mIndex);
  accOuter.push_back(nIndex);

  SmallVector<Value> args = {
      tileView(lhs, OperandRole::lhs, outer(mIndex), true),
      tileView(op.getRhs(), OperandRole::rhs, outer(nIndex), true),
      tileView(op.getLhsScales(), OperandRole::lhs_scales, outer(mIndex), true),
      tileView(op.getRhsScales(), OperandRole::rhs_scales, outer(nIndex), true),
      tileView(acc, OperandRole::result, accOuter, false),
      launch.getWorkgroupAttributions().front()};
  if (ukernelType->getNumInputs() != args.size() + 7)
    return op.emitOpError() << "ukernel '" << ukernel
                            << "' has an unexpected signature " << *ukernelType;
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type expected = ukernelType->getInput(i);
    if (!memref::CastOp::areCastCompatible(arg.getType(), expected))
      return op.emitOpError()
             << "the "
             << (i < std::size(roles) ? stringifyOperandRole(roles[i])
                                      : StringRef("LDS staging"))
             << " view " << arg.getType() << " does not cast to the ukernel's "
             << expected;
    arg = memref::CastOp::create(b, loc, expected, arg);
  }

  Value wave =
      arith::DivUIOp::create(b, loc, launch.getThreadIds().x, index(kWaveSize));
  Value lane =
      arith::RemUIOp::create(b, loc, launch.getThreadIds().x, index(kWaveSize));
  args.push_back(arith::DivUIOp::create(b, loc, wave, index(subgroupsN)));
  args.push_back(arith::RemUIOp::create(b, loc, wave, index(subgroupsN)));
  args.push_back(lane);
  args.push_back(index(layout.getIntrinsicsM()));
  args.push_back(index(layout.getIntrinsicsN()));
  args.push_back(index(layout.getIntrinsicsK()));
  args.push_back(index(op.getZeroAcc() ? 1 : 0));

  // A private declaration of the ukernel, for the call to verify until
  // mx-gfx950-specialize-ukernels replaces it.
  if (!module.lookupSymbol(ukernel)) {
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
    auto declaration =
        func::FuncOp::create(moduleBuilder, loc, ukernel, *ukernelType);
    declaration.setPrivate();
  }
  auto call = func::CallOp::create(b, loc, ukernel, TypeRange(), args);
  if (hasTypeParameters)
    call->setAttr(kUKernelTypeParameters, getUKernelTypeParameters(layout));
  op.erase();
  return success();
}

namespace {
struct LowerTiledMMAPass
    : public mx::gfx950::impl::MXGFX950LowerTiledMMABase<LowerTiledMMAPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<TiledScaledMMAOp> ops;
    module.walk([&](TiledScaledMMAOp op) {
      if (!op->getParentOfType<gpu::GPUModuleOp>())
        ops.push_back(op);
    });
    // Contractions are numbered per function: @f_mma0, @f_mma1, @g_mma0.
    llvm::StringMap<unsigned> counts;
    for (TiledScaledMMAOp op : ops) {
      if (!op.getResults().empty()) {
        op.emitOpError() << "must be bufferized before the gfx950 lowering "
                            "(it is on tensors)";
        return signalPassFailure();
      }
      auto layout = dyn_cast<DataTiledLayoutAttr>(op.getLayout());
      if (!layout) {
        op.emitOpError() << "needs a #mx.data_tiled_layout for gfx950, got "
                         << op.getLayout();
        return signalPassFailure();
      }
      UKernelSelection selection = selectUKernel(layout);
      if (!selection.name) {
        InFlightDiagnostic diag =
            op.emitOpError()
            << "no gfx950 ukernel serves the layout " << layout
            << "; pick another layout (mx.layout or mx-materialize-encodings "
               "options)";
        diag.attachNote() << "ukernels rejected it:\n" << selection.rejections;
        return signalPassFailure();
      }
      auto func = op->getParentOfType<FunctionOpInterface>();
      StringRef funcName = func ? func.getName() : StringRef("mx");
      std::string name = (funcName + "_mma" + Twine(counts[funcName]++)).str();
      if (failed(
              TiledMMALowering(op, layout).run(module, *selection.name, name)))
        return signalPassFailure();
    }
  }
};
} // namespace
