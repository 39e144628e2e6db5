//===- TestTarget.td - a target-independent test target ----*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TEST_TESTTARGET_TD
#define MX_TEST_TESTTARGET_TD

include "mx/Dialect/MX/IR/MXInterfaces.td"
include "mx/Dialect/MX/IR/MXTargetInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"

def MXTest_Dialect : Dialect {
  let name = "mx_test";
  let cppNamespace = "::mlir::mx::test";
  let summary = "A made-up target for tests of target-independent passes";
  let description = [{
    Lets the materialization tests that are not about gfx950 run without
    it: `#mx_test.resolver` resolves every encoding to a fixed
    `#mx_test.layout`, a simple data-tiled layout that is no hardware's;
    `#mx_test.data_tiled_resolver` resolves it to an `#mx.data_tiled_layout`
    of `#mx_test.mma`, a made-up scaled MMA intrinsic, to show that the
    core's data-tiled layouts take any target's intrinsic. Linked into the
    tools only for tests (MX_BUILD_TESTS).
  }];
  let dependentDialects = ["::mlir::mx::MXDialect"];
  let useDefaultAttributePrinterParser = 1;
}

def MXTest_LayoutAttr
    : AttrDef<MXTest_Dialect, "Layout",
              [DeclareAttrInterfaceMethods<MX_TiledLayoutAttrInterface>]> {
  let mnemonic = "layout";
  let summary = "a made-up data-tiled layout";
  let description = [{
    Tiles of `m` x `n` x `k` (`k` a multiple of 32, `m` even, `n` a multiple
    of 4), swizzled as no hardware would: lhs/rhs tiles [R, K] become
    [K/32, R, 32], scale tiles [R, K/32] become [R/2, K/32, 2], the result
    tile [M, N] becomes [N/4, M, 4].

    Example: `#mx_test.layout<16, 16, 64, f4E2M1FN, f8E4M3FN>`
  }];
  let parameters = (ins "int64_t":$m, "int64_t":$n, "int64_t":$k,
                        "::mlir::Type":$lhs_type, "::mlir::Type":$rhs_type);
  let assemblyFormat = "`<` $m `,` $n `,` $k `,` $lhs_type `,` $rhs_type `>`";
  let genVerifyDecl = 1;
}

def MXTest_ResolverAttr
    : AttrDef<MXTest_Dialect, "Resolver",
              [DeclareAttrInterfaceMethods<MX_LayoutResolverAttrInterface>]> {
  let mnemonic = "resolver";
  let summary = "resolves every encoding to one #mx_test.layout";
  let description = [{
    Resolves every encoding to `#mx_test.layout<m, n, k, lhs, rhs>` with the
    encoding's element types; when `ukernel` is given, that ukernel serves
    every layout, else none does.

    Example: `#mx_test.resolver<16, 16, 64>`
  }];
  let parameters = (ins "int64_t":$m, "int64_t":$n, "int64_t":$k,
                        OptionalParameter<"::mlir::StringAttr">:$ukernel);
  let assemblyFormat = "`<` $m `,` $n `,` $k (`,` $ukernel^)? `>`";
}

def MXTest_MMAAttr
    : AttrDef<MXTest_Dialect, "MMA",
              [DeclareAttrInterfaceMethods<MX_ScaledMMAIntrinsicAttrInterface>]> {
  let mnemonic = "mma";
  let summary = "a made-up scaled MMA intrinsic: 8x16x64 over 32 lanes";
  let description = [{
    An intrinsic that no hardware has, for `#mx.data_tiled_layout`: M = 8,
    N = 16, K = 64, a subgroup of 32 lanes, for every element type:

    * lhs [8, 64]: lane 4 r + g holds A[r][16 g + t], t < 16;
    * rhs [16, 64]: lane 16 g + r holds B[r][32 g + t], t < 32;
    * lhs_scales [8, 2]: lane r holds both scales of row r (value b: block
      b);
    * rhs_scales [16, 2]: lane 16 g + r holds the scale of row r, block g;
    * result [8, 16]: lane 8 q + c holds D[4 h + q][2 c + v] as value
      2 h + v (h, v < 2).

    Example:

    ```mlir
    #mx.data_tiled_layout<intrinsic = #mx_test.mma, lhs_type = f4E2M1FN,
                          rhs_type = f8E4M3FN, intrinsics_m = 2>
    ```
  }];
}

def MXTest_DataTiledResolverAttr
    : AttrDef<MXTest_Dialect, "DataTiledResolver",
              [DeclareAttrInterfaceMethods<MX_LayoutResolverAttrInterface>]> {
  let mnemonic = "data_tiled_resolver";
  let summary = "resolves every encoding to one #mx.data_tiled_layout";
  let description = [{
    Resolves every encoding to `layout` with the encoding's lhs and rhs
    element types (whatever types `layout` names); no ukernel serves a
    layout.

    Example:

    ```mlir
    module attributes {mx.target = #mx_test.data_tiled_resolver<
        #mx.data_tiled_layout<intrinsic = #mx_test.mma, lhs_type = f4E2M1FN,
                              rhs_type = f4E2M1FN, subgroups_n = 2>>} {
      ...
    }
    ```
  }];
  let parameters = (ins "::mlir::mx::DataTiledLayoutAttr":$layout);
  let assemblyFormat = "`<` qualified($layout) `>`";
}

#endif // MX_TEST_TESTTARGET_TD
