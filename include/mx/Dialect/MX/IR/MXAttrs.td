//===- MXAttrs.td - mx dialect enums and attributes --------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXATTRS_TD
#define MX_DIALECT_MX_IR_MXATTRS_TD

include "mx/Dialect/MX/IR/MXDialect.td"
include "mx/Dialect/MX/IR/MXInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"

def MX_ScaleRule_Floor : I32EnumAttrCase<"floor", 0>;
def MX_ScaleRule_Ceil : I32EnumAttrCase<"ceil", 1>;
def MX_ScaleRule_Even : I32EnumAttrCase<"even", 2>;
def MX_ScaleRule_RCeil : I32EnumAttrCase<"rceil", 3>;

def MX_ScaleRuleAttr : I32EnumAttr<"ScaleRule",
    "how the shared E8M0 exponent of a block is chosen from its amax", [
      MX_ScaleRule_Floor, MX_ScaleRule_Ceil, MX_ScaleRule_Even,
      MX_ScaleRule_RCeil]> {
  let cppNamespace = "::mlir::mx";
  let description = [{
    With `amax` the largest magnitude of the block and `emax` the exponent of
    the element format's largest normal value:
    * `floor` (OCP MX v1.0): `s = floor(log2(amax)) - emax`;
    * `ceil`: `s = ceil(log2(amax)) - emax`;
    * `even` (AITER/Triton MXFP4 quantizers): round amax's mantissa to the
      element's mantissa width (add half an element ulp to the f32 bits, clear
      the mantissa), then `floor(log2(.)) - emax`;
    * `rceil` (NVIDIA/torchao): `s = ceil(log2(f32(amax / max_elem)))`, so no
      element saturates.
    `s` is clamped to [-127, 127]; an all-zero block gets -127.
  }];
}

def MX_Rounding_NearestEven : I32EnumAttrCase<"nearest_even", 0>;
def MX_Rounding_TiesAway : I32EnumAttrCase<"ties_away", 1>;

def MX_RoundingAttr : I32EnumAttr<"Rounding",
    "rounding of a scaled value to the element format", [
      MX_Rounding_NearestEven, MX_Rounding_TiesAway]> {
  let cppNamespace = "::mlir::mx";
  let description = [{
    `nearest_even` is IEEE round-to-nearest-even (OCP; e.g. gfx950's
    `v_cvt_scalef32_*`); `ties_away` rounds ties away from zero (the seed 000
    PyTorch/AITER reference quantizer).
  }];
}

def MX_Role_Lhs : I32EnumAttrCase<"lhs", 0>;
def MX_Role_Rhs : I32EnumAttrCase<"rhs", 1>;
def MX_Role_LhsScales : I32EnumAttrCase<"lhs_scales", 2>;
def MX_Role_RhsScales : I32EnumAttrCase<"rhs_scales", 3>;
def MX_Role_Result : I32EnumAttrCase<"result", 4>;

def MX_OperandRole : I32EnumAttr<"OperandRole",
    "operand of a scaled contraction", [
      MX_Role_Lhs, MX_Role_Rhs, MX_Role_LhsScales, MX_Role_RhsScales,
      MX_Role_Result]> {
  let cppNamespace = "::mlir::mx";
  let genSpecializedAttr = 0;
}

class MX_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<MX_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def MX_EncodingAttr : MX_Attr<"Encoding", "encoding"> {
  let summary = "the role of a tensor in a scaled contraction, for data tiling";
  let description = [{
    Put on the type of a tensor that feeds (or is produced by) an
    `mx.scaled_contraction` by `mx-set-encodings`. It records everything a
    target needs to choose a data-tiled layout for the tensor, without
    choosing one: the operand `role`, the element types of the five operands
    (lhs, rhs, lhs_scales, rhs_scales, result), the contraction's three
    `indexing_maps` (lhs, rhs, acc) and its `iteration_sizes` (`?` where
    dynamic). An encoded tensor keeps its logical shape.

    `layout`, when present, pins the data-tiled layout (a
    `#mx.data_tiled_layout`) that materialization must use, e.g. from a
    per-op override.

    Example:

    ```mlir
    #enc = #mx.encoding<role = lhs,
        element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32],
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                         affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iteration_sizes = [255, 513, ?]>
    %e = mx.set_encoding %a : tensor<255x4064xf4E2M1FN> -> tensor<255x4064xf4E2M1FN, #enc>
    ```
  }];
  let parameters = (ins
    EnumParameter<MX_OperandRole>:$role,
    ArrayRefParameter<"::mlir::Type">:$element_types,
    "::mlir::ArrayAttr":$indexing_maps,
    ArrayRefParameter<"int64_t">:$iteration_sizes,
    OptionalParameter<"::mlir::Attribute">:$layout
  );
  let assemblyFormat = [{
    `<` `role` `=` $role `,` `element_types` `=` `[` $element_types `]` `,`
    `indexing_maps` `=` $indexing_maps `,`
    `iteration_sizes` `=` `[` custom<DynamicSizes>($iteration_sizes) `]`
    (`,` `layout` `=` $layout^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The indexing map of this tensor's role; scale roles use the map of
    /// their data operand (their k index counts 32-blocks).
    AffineMap getRoleMap() const;
  }];
}

def MX_DataTiledLayoutAttr
    : MX_Attr<"DataTiledLayout", "data_tiled_layout",
              [DeclareAttrInterfaceMethods<MX_TiledLayoutAttrInterface>]> {
  let summary = "a resolved data-tiled layout for a target's scaled MMA";
  let description = [{
    Fully describes how the operands of a scaled contraction are laid out in
    tiles that a target's scaled matrix-multiply `intrinsic` consumes
    directly. The intrinsic is an attribute of the target implementing
    `ScaledMMAIntrinsicAttrInterface`: its M x N x K shape, its subgroup
    size and the distribution of one intrinsic tile over lanes and values
    are data to this attribute; which instruction it is, only the target
    knows (e.g. `#mx_gfx950.scaled_mfma<16x16x128>`).

    * one workgroup tile covers `subgroups_m * intrinsics_m` intrinsic rows
      (M), `subgroups_n * intrinsics_n` intrinsic columns (N) and
      `intrinsics_k` intrinsic depths (K);
    * each of the `subgroups_m * subgroups_n` subgroups (of the intrinsic's
      lanes each) computes `intrinsics_m x intrinsics_n` intrinsics, each
      over `intrinsics_k` K steps;
    * `interleave_m` (`interleave_n`, `interleave_k`) lists the operands whose
      M (N, K) intrinsic-unroll dimension is moved to the innermost position
      of the tile, so that a lane's values for its unrolled intrinsics are
      contiguous (the default interleaves M/N and K into the scales: one lane
      then reads all the scale bytes of its intrinsics with one wide load).

    The swizzle (expand shape + permutation) of every operand is computed
    from this attribute by one function (its `TiledLayoutAttrInterface`
    `getSwizzle`): the intrinsic's swizzle of the role, each tile dimension
    prefixed with its subgroup and unroll dimensions; in the swizzled tile
    the subgroup dimensions come first, then the unroll dimensions that are
    not interleaved (M or N, then K), then the intrinsic's lane dimensions,
    the interleaved unroll dimensions, and the values of a lane last.
    Dimensions of size one are left out.

    Example:

    ```mlir
    #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>,
        lhs_type = f4E2M1FN, rhs_type = f4E2M1FN,
        intrinsics_m = 4, intrinsics_n = 2, intrinsics_k = 1,
        subgroups_m = 2, subgroups_n = 2,
        interleave_m = [lhs_scales], interleave_n = [rhs_scales],
        interleave_k = [lhs_scales, rhs_scales]>
    ```
  }];
  let parameters = (ins
    "::mlir::mx::ScaledMMAIntrinsicAttrInterface":$intrinsic,
    "::mlir::Type":$lhs_type,
    "::mlir::Type":$rhs_type,
    DefaultValuedParameter<"int64_t", "1">:$intrinsics_m,
    DefaultValuedParameter<"int64_t", "1">:$intrinsics_n,
    DefaultValuedParameter<"int64_t", "1">:$intrinsics_k,
    DefaultValuedParameter<"int64_t", "1">:$subgroups_m,
    DefaultValuedParameter<"int64_t", "1">:$subgroups_n,
    OptionalArrayRefParameter<"::mlir::mx::OperandRole">:$interleave_m,
    OptionalArrayRefParameter<"::mlir::mx::OperandRole">:$interleave_n,
    OptionalArrayRefParameter<"::mlir::mx::OperandRole">:$interleave_k
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Subgroups per workgroup (subgroups_m * subgroups_n), of
    /// `getIntrinsic().getSubgroupSize()` lanes each.
    int64_t getNumSubgroups() const;
    /// The workgroup tile: M, N and K (elements).
    ::std::tuple<int64_t, int64_t, int64_t> getTileSizes() const;
    /// Whether `role`'s unroll dimension of `dim` (0 = M, 1 = N, 2 = K) is
    /// interleaved innermost.
    bool isInterleaved(OperandRole role, unsigned dim) const;
  }];
}

#endif // MX_DIALECT_MX_IR_MXATTRS_TD
