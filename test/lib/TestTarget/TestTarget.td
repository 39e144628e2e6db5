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
    `#mx_test.layout`, a simple data-tiled layout that is no hardware's.
    Linked into the tools only for tests (MX_BUILD_TESTS).
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

#endif // MX_TEST_TESTTARGET_TD
