//===- MXDialect.td - mx dialect definition ----------------*- tablegen -*-===//
//
// Part of the mx project: MX (microscaling) scaled matrix multiplication for
// a target's matrix instructions (e.g. AMD gfx950's).
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXDIALECT_TD
#define MX_DIALECT_MX_IR_MXDIALECT_TD

include "mlir/IR/OpBase.td"

def MX_Dialect : Dialect {
  let name = "mx";
  let cppNamespace = "::mlir::mx";
  let summary = "MX (microscaling) quantization and scaled contractions";
  let description = [{
    The `mx` dialect models OCP microscaling ("MX") arithmetic at the tensor
    level: values stored in a narrow element format (`f4E2M1FN`, `f6E2M3FN`,
    `f6E3M2FN`, `f8E4M3FN`, `f8E5M2`) with one `f8E8M0FNU` power-of-two scale
    per block of 32 consecutive elements along one dimension.

    The value of an element `e` with block scale byte `s` is
    `decode(e) * 2^(s - 127)`; the scale byte `0xFF` is NaN.

    Ops:
    * `mx.quantize` turns a bf16/f16/f32 tensor into (elements, scales) with an
      explicit scale rule and element rounding;
    * `mx.dequantize` is its inverse;
    * `mx.scaled_contraction` is a destination-style, f32-accumulating
      contraction of two MX operands whose scales are indexed by the 32-block
      of the reduction dimension.

    All element types are MLIR's builtin float types; the dialect defines no
    types of its own.

    The dialect never names a target. A target is an attribute implementing
    `LayoutResolverAttrInterface` (e.g. `#mx_gfx950.target<...>`, defined in
    the target's own folder), carried by the discardable attribute
    `mx.target` on an enclosing op (module or function), which is verified to
    be such a resolver:

    ```mlir
    module attributes {mx.target = #mx_gfx950.target<require_ukernel = true>} {
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::tensor::TensorDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();

    /// The discardable attribute that carries a layout resolver (a target).
    static constexpr ::llvm::StringLiteral kTargetAttrName = "mx.target";
    /// The discardable attribute that pins the data-tiled layout of an
    /// `mx.scaled_contraction` (copied into its encodings by
    /// `mx-set-encodings`).
    static constexpr ::llvm::StringLiteral kLayoutAttrName = "mx.layout";
    /// The discardable attribute of an `mx.tiled_scaled_mma` whose leading
    /// batch dimension is the parts of a split K loop (`mx-split-k`).
    static constexpr ::llvm::StringLiteral kSplitKAttrName = "mx.split_k";
    /// The discardable attribute of an elementwise `linalg.generic` that
    /// reads the result of the `mx.tiled_scaled_mma` before it only by
    /// columns and runs in that GEMM's kernel; its last input is the GEMM's
    /// +0 counters, one per N tile, and with an integer value k (rows per
    /// output row) one per output row and N tile after them
    /// (`mx-fuse-column-consumers`).
    static constexpr ::llvm::StringLiteral kColumnConsumerAttrName =
        "mx.column_consumer";
    /// The discardable attribute of an `mx.scaled_contraction` (and of the
    /// `mx.tiled_scaled_mma` made of it) whose dynamic M is known to be at
    /// most this bound (`mx-specialize-dynamic-m`).
    static constexpr ::llvm::StringLiteral kMBoundAttrName = "mx.m_bound";

    /// Registers `example`, the spelling of a target attribute (e.g. one a
    /// target's registration adds), for the diagnostics that ask for a
    /// target; the core itself names none.
    void addTargetExample(::llvm::StringRef example) {
      targetExamples.push_back(example.str());
    }
    /// The first registered target example, or a generic phrase when no
    /// target is registered.
    ::llvm::StringRef getTargetExample() const {
      return targetExamples.empty() ? ::llvm::StringRef("<a target attribute>")
                                    : ::llvm::StringRef(targetExamples.front());
    }

  private:
    ::llvm::SmallVector<std::string> targetExamples;

  public:
  }];
}

#endif // MX_DIALECT_MX_IR_MXDIALECT_TD
