//===- SpecializeUKernels.cpp - mx-gfx950-specialize-ukernels -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/Transforms/Transforms.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950SPECIALIZEUKERNELS
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using mlir::mx::gfx950::kLateNextRows;
using mlir::mx::gfx950::kLookaheadRows;
using mlir::mx::gfx950::kMaxUKernelUnrollK;
using mlir::mx::gfx950::kUKernelLateNextRows;
using mlir::mx::gfx950::kUKernelLookaheadRows;
using mlir::mx::gfx950::kUKernelPeelFirstK;
using mlir::mx::gfx950::kUKernelUnrollK;
using mlir::mx::gfx950::kUKernelUnrollWholeK;
using mlir::mx::gfx950::kUnroll;
using mlir::mx::gfx950::kUnrollK;
using mlir::mx::gfx950::WaitLDSOp;
using mlir::mx::gfx950::WaitLoadsOp;

static constexpr StringLiteral kUKernelPrefix = "mx_uk_";
static constexpr StringLiteral kNumParameters = "mx.ukernel.num_parameters";
/// The most operations that unrolling one mx.unroll loop may produce: 8 times
/// the 8192 instructions (of at least 4 bytes) that fill the 32 KiB
/// instruction cache a specialized kernel must fit. Tile parameters past it
/// (e.g. a huge constant unroll count at a hand-written call) are an error,
/// not an unbounded unroll.
static constexpr uint64_t kMaxUnrolledOps = 1 << 16;

/// Moves every memref.alloca of static shape in `root` to the start of the
/// entry block of its allocation scope (in their order): LLVM promotes only
/// the static allocas of a function's entry block to registers, and a
/// ukernel's private arrays come after whatever the caller does before the
/// call, which may branch (an scf.if splits the block when lowered). An
/// array allocated inside a loop holds nothing from one iteration to the
/// next, so allocating it once is the same program.
static void hoistStaticAllocas(Operation *root) {
  SmallVector<memref::AllocaOp> allocas;
  root->walk([&](memref::AllocaOp alloca) {
    if (alloca->getNumOperands() == 0)
      allocas.push_back(alloca);
  });
  // Per entry block, the last alloca moved to its start.
  DenseMap<Block *, Operation *> last;
  for (memref::AllocaOp alloca : allocas) {
    Operation *scope =
        alloca->getParentWithTrait<OpTrait::AutomaticAllocationScope>();
    if (!scope || scope->getRegion(0).empty())
      continue;
    Block &entry = scope->getRegion(0).front();
    auto [it, first] = last.try_emplace(&entry, nullptr);
    if (first)
      alloca->moveBefore(&entry, entry.begin());
    else
      alloca->moveAfter(it->second);
    it->second = alloca;
  }
}

namespace {
/// Feeds a scale byte taken out of a 4-byte scale vector through the MFMA's
/// byte selector instead of a separate register:
///   %s = vector.extract %v[2] : f8E8M0FNU from vector<4xf8E8M0FNU>
///   amdgpu.scaled_mfma ... (%s[0] * %a) ...
/// becomes
///   amdgpu.scaled_mfma ... (%v[2] * %a) ...
/// so that one 32-bit register of a lane's scales serves four MFMAs.
struct ScalesThroughIndex : public OpRewritePattern<amdgpu::ScaledMFMAOp> {
  using OpRewritePattern::OpRewritePattern;

  static std::optional<std::pair<Value, int32_t>> getByte(Value scale) {
    auto extract = scale.getDefiningOp<vector::ExtractOp>();
    if (!extract || !isa<Float8E8M0FNUType>(scale.getType()))
      return std::nullopt;
    auto sourceType = dyn_cast<VectorType>(extract.getSource().getType());
    ArrayRef<int64_t> position = extract.getStaticPosition();
    if (!sourceType || sourceType.getRank() != 1 ||
        sourceType.getNumElements() != 4 || position.size() != 1 ||
        ShapedType::isDynamic(position[0]))
      return std::nullopt;
    return std::make_pair(extract.getSource(), int32_t(position[0]));
  }

  LogicalResult matchAndRewrite(amdgpu::ScaledMFMAOp op,
                                PatternRewriter &rewriter) const override {
    auto a = op.getScalesIdxA() == 0 ? getByte(op.getScalesA()) : std::nullopt;
    auto b = op.getScalesIdxB() == 0 ? getByte(op.getScalesB()) : std::nullopt;
    if (!a && !b)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      if (a) {
        op.getScalesAMutable().assign(a->first);
        op.setScalesIdxA(a->second);
      }
      if (b) {
        op.getScalesBMutable().assign(b->first);
        op.setScalesIdxB(b->second);
      }
    });
    return success();
  }
};

/// Folds unsigned comparisons with zero that upstream's folders leave:
///   arith.cmpi ult, %x, 0 -> false      arith.cmpi uge, %x, 0 -> true
/// The ukernels guard a remainder of work with `wave < rest`; when the
/// specialization makes `rest` zero, the guarded code disappears.
struct UnsignedCompareWithZero : public OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::CmpIOp op,
                                PatternRewriter &rewriter) const override {
    bool value;
    if (op.getPredicate() == arith::CmpIPredicate::ult)
      value = false;
    else if (op.getPredicate() == arith::CmpIPredicate::uge)
      value = true;
    else
      return failure();
    if (!op.getType().isInteger(1) || !matchPattern(op.getRhs(), m_Zero()))
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getIntegerAttr(rewriter.getI1Type(), value));
    return success();
  }
};

} // namespace

void mlir::mx::gfx950::populateSpecializeUKernelsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ScalesThroughIndex, UnsignedCompareWithZero>(
      patterns.getContext());
}

namespace {
/// Ukernels with their type parameters bound, by function name and type
/// parameters.
using ParsedUKernels = llvm::StringMap<OwningOpRef<ModuleOp>>;

/// The call each cloned mx.unroll loop comes from (for diagnostics).
struct CallSite {
  Location loc;
  std::string callee;
};
using CallSites = DenseMap<Operation *, CallSite>;

/// Marks a K loop (kUnrollK) whose call asked for its first iteration
/// peeled (kUKernelPeelFirstK), until unrollKLoops peels it.
static constexpr llvm::StringLiteral kPeelFirst = "mx.peel_first_k";
/// Marks a K loop that is unrolled only where the factor divides its static
/// trip count (kUKernelUnrollWholeK), until unrollKLoops unrolls it.
static constexpr llvm::StringLiteral kUnrollWhole = "mx.unroll_whole_k";
} // namespace

/// The ukernel function `name` from the embedded library, its type
/// parameters bound to those of `call`.
static FailureOr<func::FuncOp> getUKernel(ParsedUKernels &parsed,
                                          Operation *call, StringRef name) {
  auto typeParameters =
      call->getAttrOfType<DictionaryAttr>(mx::gfx950::kUKernelTypeParameters);
  std::string key = name.str();
  if (typeParameters) {
    llvm::raw_string_ostream os(key);
    os << typeParameters;
  }
  auto it = parsed.find(key);
  if (it == parsed.end()) {
    FailureOr<OwningOpRef<ModuleOp>> instance =
        mx::gfx950::instantiateUKernel(call->getContext(), name, typeParameters,
                                       [&] { return call->emitOpError(); });
    if (failed(instance))
      return failure();
    it = parsed.try_emplace(key, std::move(*instance)).first;
  }
  return it->second->lookupSymbol<func::FuncOp>(name);
}

/// Reports `problem` with `op`, an op of a specialized ukernel body, at
/// the ukernel call it came from, saying where the `what` is in the
/// ukernel's source, then `hint`; reports `fallback` at `op` itself when
/// it did not come from a call.
static void emitAtCall(Operation *op, const CallSites &callSites,
                       StringRef what, StringRef problem, StringRef fallback,
                       StringRef hint = "") {
  auto site = callSites.find(op);
  if (site == callSites.end()) {
    op->emitOpError() << fallback;
    return;
  }
  std::string where;
  llvm::raw_string_ostream os(where);
  os << op->getLoc();
  InFlightDiagnostic diag = emitError(site->second.loc)
                            << "ukernel '" << site->second.callee
                            << "': " << problem << " (the " << what << " at "
                            << where << ")";
  if (!hint.empty())
    diag << "; " << hint;
}

namespace {
/// One of a ukernel's own choices that a call may replace: the op the
/// ukernel marks `marker` (one result of type `type`) gets the call's
/// `value` (from its attribute `callAttr`) in its place, if the call gives
/// one.
struct Binding {
  StringRef marker, callAttr;
  Type type;
  TypedAttr value;
  bool bound = false;
};
} // namespace

/// The bindings `call` asks for: its count of rows of A read ahead
/// (kUKernelLookaheadRows) and its late reads of the next step's rows
/// (kUKernelLateNextRows).
static SmallVector<Binding, 2> getBindings(func::CallOp call) {
  Builder b(call.getContext());
  auto lookaheadRows = call->getAttrOfType<IntegerAttr>(kUKernelLookaheadRows);
  return {
      {kLookaheadRows, kUKernelLookaheadRows, b.getIndexType(),
       lookaheadRows ? b.getIndexAttr(lookaheadRows.getInt()) : TypedAttr()},
      {kLateNextRows, kUKernelLateNextRows, b.getI1Type(),
       call->hasAttr(kUKernelLateNextRows) ? TypedAttr(b.getBoolAttr(true))
                                           : TypedAttr()}};
}

/// Binds the marked ops in `clone` (the copy of the ukernel's `op` in place
/// of `call`) to the call's values: each marked op's result is replaced by
/// a constant (and `mapping` follows for `op` itself), and its marker
/// removed. Fails, with an error on `call`, on a marked op without one
/// result of the binding's type.
static LogicalResult bindMarkedOps(func::CallOp call, Operation &op,
                                   Operation *clone, IRMapping &mapping,
                                   MutableArrayRef<Binding> bindings) {
  OpBuilder builder(call);
  WalkResult marked = clone->walk([&](Operation *nested) {
    for (Binding &binding : bindings) {
      if (!nested->hasAttr(binding.marker))
        continue;
      nested->removeAttr(binding.marker);
      if (nested->getNumResults() != 1 ||
          nested->getResult(0).getType() != binding.type) {
        call.emitOpError() << "ukernel '" << call.getCallee()
                           << "' marks an op with " << binding.marker
                           << " that does not have one " << binding.type
                           << " result";
        return WalkResult::interrupt();
      }
      if (!binding.value)
        continue;
      builder.setInsertionPoint(nested);
      Value value =
          arith::ConstantOp::create(builder, nested->getLoc(), binding.value);
      nested->getResult(0).replaceAllUsesWith(value);
      if (nested == clone)
        mapping.map(op.getResult(0), value);
      binding.bound = true;
    }
    return WalkResult::advance();
  });
  return failure(marked.wasInterrupted());
}

/// Replaces `call` by a copy of its ukernel's body (type parameters bound,
/// operands cast to the ukernel's types), recording where its mx.unroll
/// loops and waits come from in `callSites`.
static LogicalResult specialize(ParsedUKernels &parsed, func::CallOp call,
                                CallSites &callSites) {
  FailureOr<func::FuncOp> ukernel = getUKernel(parsed, call, call.getCallee());
  if (failed(ukernel))
    return failure();
  auto numParameters = (*ukernel)->getAttrOfType<IntegerAttr>(kNumParameters);
  if (!numParameters)
    return call.emitOpError()
           << "ukernel '" << call.getCallee() << "' lacks the "
           << kNumParameters << " attribute";
  if (call.getNumOperands() != ukernel->getNumArguments() ||
      call.getResultTypes() != ukernel->getResultTypes())
    return call.emitOpError()
           << "does not match the signature of ukernel '" << call.getCallee()
           << "' " << ukernel->getFunctionType();
  unsigned firstParameter =
      call.getNumOperands() - numParameters.getValue().getZExtValue();
  for (unsigned i = firstParameter; i < call.getNumOperands(); ++i) {
    if (call.getOperand(i).getType() != ukernel->getArgument(i).getType())
      return call.emitOpError()
             << "operand #" << i << " has type " << call.getOperand(i).getType()
             << ", the ukernel expects " << ukernel->getArgument(i).getType();
    if (!matchPattern(call.getOperand(i), m_Constant()))
      return call.emitOpError()
             << "ukernel parameter #" << i - firstParameter << " of '"
             << call.getCallee() << "' must be a constant";
  }
  // Other operands have the ukernel's types, or memref types that cast to
  // them (e.g. static shapes and strides for the ukernel's dynamic ones).
  OpBuilder builder(call);
  IRMapping mapping;
  for (unsigned i = 0; i < call.getNumOperands(); ++i) {
    Value operand = call.getOperand(i);
    Type expected = ukernel->getArgument(i).getType();
    if (operand.getType() != expected) {
      if (!isa<MemRefType>(operand.getType()) ||
          !memref::CastOp::areCastCompatible(operand.getType(), expected))
        return call.emitOpError()
               << "operand #" << i << " has type " << operand.getType()
               << ", the ukernel expects " << expected;
      operand =
          memref::CastOp::create(builder, call.getLoc(), expected, operand);
    }
    mapping.map(ukernel->getArgument(i), operand);
  }

  // Clone the body in place of the call; its K loops take the unroll
  // factor and the peel the call asks for.
  bool peelFirst = call->hasAttr(kUKernelPeelFirstK);
  bool unrollWhole = call->hasAttr(kUKernelUnrollWholeK);
  auto unrollFactor = call->getAttrOfType<IntegerAttr>(kUKernelUnrollK);
  if (unrollFactor &&
      (unrollFactor.getInt() < 1 || unrollFactor.getInt() > kMaxUKernelUnrollK))
    return call.emitOpError()
           << "asks for a K loop unroll factor (" << kUKernelUnrollK << ") of "
           << unrollFactor.getInt() << "; it must be in [1, "
           << kMaxUKernelUnrollK << "]";
  auto lookaheadRows = call->getAttrOfType<IntegerAttr>(kUKernelLookaheadRows);
  if (lookaheadRows && lookaheadRows.getInt() < 1)
    return call.emitOpError()
           << "asks for " << lookaheadRows.getInt() << " rows of A read ahead ("
           << kUKernelLookaheadRows << "); it must be at least 1";
  SmallVector<Binding, 2> bindings = getBindings(call);
  Block &body = ukernel->getBody().front();
  for (Operation &op : body.without_terminator()) {
    Operation *clone = builder.clone(op, mapping);
    if (failed(bindMarkedOps(call, op, clone, mapping, bindings)))
      return failure();
    clone->walk([&](Operation *nested) {
      if (isa<WaitLoadsOp, WaitLDSOp>(nested))
        callSites.try_emplace(nested,
                              CallSite{call.getLoc(), call.getCallee().str()});
      auto loop = dyn_cast<scf::ForOp>(nested);
      if (!loop)
        return;
      if (loop->hasAttr(kUnroll))
        callSites.try_emplace(loop,
                              CallSite{call.getLoc(), call.getCallee().str()});
      if (loop->hasAttr(kUnrollK) && unrollFactor)
        loop->setAttr(kUnrollK, unrollFactor);
      if (loop->hasAttr(kUnrollK) && peelFirst)
        loop->setAttr(kPeelFirst, UnitAttr::get(loop.getContext()));
      if (loop->hasAttr(kUnrollK) && unrollWhole)
        loop->setAttr(kUnrollWhole, UnitAttr::get(loop.getContext()));
    });
  }
  for (const Binding &binding : bindings)
    if (binding.value && !binding.bound)
      return call.emitOpError()
             << "asks for " << binding.callAttr << ", but ukernel '"
             << call.getCallee() << "' has no op marked " << binding.marker;
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [result, value] :
       llvm::zip_equal(call.getResults(), ret.getOperands()))
    result.replaceAllUsesWith(mapping.lookup(value));
  call.erase();
  return success();
}

/// Reports the call of a mx_gfx950.wait_loads or mx_gfx950.wait_lds in
/// `caller` that canonicalization did not replace: its count is not a
/// constant in its counter's range after specialization.
static LogicalResult checkWaits(Operation *caller, const CallSites &callSites) {
  Operation *left = nullptr;
  caller->walk([&](Operation *op) {
    if (!isa<WaitLoadsOp, WaitLDSOp>(op))
      return WalkResult::advance();
    left = op;
    return WalkResult::interrupt();
  });
  if (!left)
    return success();
  bool loads = isa<WaitLoadsOp>(left);
  Value countValue = loads ? cast<WaitLoadsOp>(left).getCount()
                           : cast<WaitLDSOp>(left).getCount();
  std::string problem;
  llvm::raw_string_ostream os(problem);
  os << "the count of a " << left->getName() << " is ";
  if (std::optional<int64_t> count = getConstantIntValue(countValue))
    os << *count << ", not in [0, "
       << (loads ? mx::gfx950::kMaxLoadCount : mx::gfx950::kMaxLDSCount) << "]";
  else
    os << "not constant after specialization";
  emitAtCall(left, callSites, "wait", problem, problem);
  return failure();
}

/// Reports at the call a loop marked mx.unroll comes from that cannot be
/// unrolled: the loop itself is in the ukernel source.
static void reportUnrollAtCall(scf::ForOp loop, const CallSites &callSites,
                               StringRef problem, StringRef hint) {
  std::string marked = ("marked " + kUnroll + " " + problem).str();
  emitAtCall(loop, callSites, "loop", "a loop " + marked, marked, hint);
}

/// Fully unrolls `loop`, marked mx.unroll, if its bounds are constant and the
/// result stays within kMaxUnrolledOps operations.
static LogicalResult unrollMarkedLoop(scf::ForOp loop,
                                      const CallSites &callSites) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step) {
    reportUnrollAtCall(loop, callSites,
                       "has bounds that are not constant after specialization",
                       "its tile parameters and the operand sizes it reads "
                       "(e.g. the subgroup counts) must be static at the call");
    return failure();
  }
  // Trip count and unrolled size without overflow: ub - lb fits in
  // uint64_t when ub > lb.
  uint64_t trips = 0;
  if (*ub > *lb && *step > 0) {
    uint64_t span = uint64_t(*ub) - uint64_t(*lb);
    trips = span / uint64_t(*step) + (span % uint64_t(*step) != 0);
  }
  uint64_t bodyOps = 0;
  loop.getBody()->walk([&](Operation *) { ++bodyOps; });
  if (*step <= 0 || (trips != 0 && bodyOps > kMaxUnrolledOps / trips)) {
    std::string problem;
    llvm::raw_string_ostream os(problem);
    if (*step <= 0)
      os << "has the non-positive step " << *step;
    else
      os << "runs " << trips << " times over " << bodyOps
         << " operations: unrolled, more than " << kMaxUnrolledOps
         << " operations";
    reportUnrollAtCall(loop, callSites, problem,
                       "its tile parameters (intrinsics_m/n/k, the subgroup "
                       "counts) are too large for a kernel that fits the "
                       "32 KiB instruction cache");
    return failure();
  }
  if (failed(loopUnrollFull(loop)))
    return loop.emitOpError("cannot be fully unrolled");
  return success();
}

/// Runs the first iteration of `loop` in front of it, under an scf.if that
/// folds away when the bounds are constants, and the rest in `loop`. (Not
/// upstream's scf::peelForLoopFirstIteration: its first iteration is a loop
/// that runs even when `loop` runs none, with dynamic bounds; a loop left
/// with a dynamic trip count of at most one would also carry its values into
/// LLVM as phis, as the unpeeled loop does.)
static LogicalResult peelFirstIteration(scf::ForOp loop) {
  if (loop.getNumResults() != 0)
    return loop.emitOpError(
        "cannot peel the first iteration of a loop with results");
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound();
  auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt;
  Value any =
      b.createOrFold<arith::CmpIOp>(loc, predicate, lb, loop.getUpperBound());
  auto first = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), lb);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, mapping);
  b.setInsertionPoint(loop);
  loop.getLowerBoundMutable().assign(
      b.createOrFold<arith::AddIOp>(loc, lb, loop.getStep()));
  return success();
}

/// Unrolls the K loops marked mx.unroll_k under `caller` by `unrollK` when
/// it is set, else by the factor their call asked for (the mark removed
/// either way), after peeling their first iteration where the call asked
/// for it (kPeelFirst); not where the call asked for whole unrolls only
/// (kUnrollWhole) and the factor does not divide the static trip count.
/// Sets `unrolled` when some loop was changed.
static LogicalResult unrollKLoops(Operation *caller, int64_t unrollK,
                                  bool &unrolled) {
  SmallVector<std::pair<scf::ForOp, int64_t>> kLoops;
  caller->walk([&](scf::ForOp loop) {
    Attribute mark = loop->getAttr(kUnrollK);
    if (!mark)
      return;
    // A call's factor was checked when its body was cloned; a loop
    // without one (a unit mark) is not unrolled.
    auto asked = dyn_cast<IntegerAttr>(mark);
    int64_t factor = unrollK != 0 ? unrollK : (asked ? asked.getInt() : 1);
    kLoops.emplace_back(loop, factor);
  });
  for (auto [loop, factor] : kLoops) {
    loop->removeAttr(kUnrollK);
    if (loop->removeAttr(kPeelFirst)) {
      if (failed(peelFirstIteration(loop)))
        return failure();
      unrolled = true;
    }
    // Its remainder would run after it as straight-line code, where LLVM
    // assigned the accumulators other registers than in the loop: from
    // zero the seed tile (fp4 x fp4, peeled) spilled 56 VGPRs at 17, 21,
    // 25, ... K steps.
    bool whole = loop->removeAttr(kUnrollWhole) != nullptr;
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (whole && trips && trips->getZExtValue() % factor != 0)
      continue;
    if (factor == 1)
      continue;
    if (failed(loopUnrollByFactor(loop, factor)))
      return loop.emitOpError("cannot be unrolled by ") << factor;
    unrolled = true;
  }
  return success();
}

/// The canonicalization patterns of every registered op and
/// populateSpecializeUKernelsPatterns'.
static FrozenRewritePatternSet getFoldPatterns(MLIRContext *ctx) {
  RewritePatternSet patterns(ctx);
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    name.getCanonicalizationPatterns(patterns, ctx);
  mx::gfx950::populateSpecializeUKernelsPatterns(patterns);
  return FrozenRewritePatternSet(std::move(patterns));
}

/// Folds the parameters of the specialized ukernel bodies in `caller` into
/// the loop bounds, unrolls and cleans up.
static LogicalResult foldAndUnroll(Operation *caller,
                                   const FrozenRewritePatternSet &patterns,
                                   const CallSites &callSites,
                                   int64_t unrollK) {
  // No region simplification: it only walks the large blocks of
  // structured control flow to find nothing to merge.
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  // After the full unroll, top-down, so that the constants of the unrolled
  // bodies fold before their users are visited (the seed's affine.apply
  // ops then fold instead of being composed and re-simplified one by one).
  // Only there: top-down before the unroll meets a crash in upstream's
  // affine.linearize_index canonicalization (the 32x32x64 probe kernel of
  // test/Integration/GFX950/mfma-probes.mlir). Seed GEMM: 1.53 -> 1.03 G
  // instructions for this pass (callgrind), the same ISA.
  GreedyRewriteConfig unrolledConfig = config;
  unrolledConfig.setUseTopDownTraversal(true);
  if (failed(applyPatternsGreedily(caller, patterns, config)))
    return failure();
  SmallVector<scf::ForOp> loops;
  caller->walk([&](scf::ForOp loop) {
    if (loop->hasAttr(kUnroll))
      loops.push_back(loop);
  });
  // The walk is post-order: inner loops come first.
  for (scf::ForOp loop : loops)
    if (failed(unrollMarkedLoop(loop, callSites)))
      return failure();
  if (failed(applyPatternsGreedily(caller, patterns, unrolledConfig)))
    return failure();
  if (failed(checkWaits(caller, callSites)))
    return failure();
  // K loops marked for it, then folded again.
  bool unrolled = false;
  if (failed(unrollKLoops(caller, unrollK, unrolled)))
    return failure();
  if (unrolled && failed(applyPatternsGreedily(caller, patterns, config)))
    return failure();
  hoistStaticAllocas(caller);
  return success();
}

/// Erases the ukernel declarations under `root` that have no uses left.
static void eraseUnusedDeclarations(Operation *root) {
  SmallVector<func::FuncOp> declarations;
  root->walk([&](func::FuncOp func) {
    if (func.getName().starts_with(kUKernelPrefix) && func.isExternal())
      declarations.push_back(func);
  });
  for (func::FuncOp func : declarations)
    if (SymbolTable::symbolKnownUseEmpty(func, func->getParentOp()))
      func.erase();
}

LogicalResult
mlir::mx::gfx950::specializeUKernels(Operation *root,
                                     const SpecializeUKernelsOptions &options) {
  if (options.unrollK < 0 || options.unrollK > kMaxUKernelUnrollK)
    return root->emitError()
           << "mx-gfx950-specialize-ukernels: unroll-k must be in [0, "
           << kMaxUKernelUnrollK
           << "] (0: the factor each ukernel call asks for), got "
           << options.unrollK;
  SmallVector<func::CallOp> calls;
  root->walk([&](func::CallOp call) {
    if (call.getCallee().starts_with(kUKernelPrefix))
      calls.push_back(call);
  });
  if (calls.empty())
    return success();
  SmallVector<Operation *> callers;
  ParsedUKernels parsed;
  CallSites callSites;
  for (func::CallOp call : calls) {
    Operation *caller =
        call->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
    if (failed(specialize(parsed, call, callSites)))
      return failure();
    if (!llvm::is_contained(callers, caller))
      callers.push_back(caller);
  }
  FrozenRewritePatternSet patterns = getFoldPatterns(root->getContext());
  for (Operation *caller : callers)
    if (failed(foldAndUnroll(caller, patterns, callSites, options.unrollK)))
      return failure();
  eraseUnusedDeclarations(root);
  return success();
}

namespace {
struct SpecializeUKernelsPass
    : public mx::gfx950::impl::MXGFX950SpecializeUKernelsBase<
          SpecializeUKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(mx::gfx950::specializeUKernels(getOperation(), {unrollK})))
      return signalPassFailure();
  }
};
} // namespace
