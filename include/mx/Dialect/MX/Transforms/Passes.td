//===- Passes.td - mx dialect transformation passes --------*- tablegen -*-===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_PASSES_TD
#define MX_DIALECT_MX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MXSetEncodings : Pass<"mx-set-encodings"> {
  let summary = "Put #mx.encoding on the operands and results of scaled contractions";
  let description = [{
    Wraps every operand of each `mx.scaled_contraction` in `mx.set_encoding`
    and its result in `mx.unset_encoding`, with an `#mx.encoding` that records
    the operand role, the element types, the indexing maps and the iteration
    sizes. The contraction itself now works on encoded tensors; a later
    `mx-materialize-encodings` picks the data-tiled layout.

    A `mx.layout` attribute on the contraction (a resolved layout such as
    `#mx.data_tiled_layout<...>`) is copied into the encodings, so tests and
    tuners can force a layout per op.

    Example:

    ```mlir
    %r = mx.scaled_contraction indexing_maps = [...] ins(%a, %b, %sa, %sb : ...) outs(%c : ...)
    ```

    becomes

    ```mlir
    %ea = mx.set_encoding %a : tensor<64x256xf4E2M1FN> -> tensor<64x256xf4E2M1FN, #lhs>
    ...
    %er = mx.scaled_contraction indexing_maps = [...] ins(%ea, %eb, %esa, %esb : ...) outs(%ec : ...)
    %r = mx.unset_encoding %er : tensor<64x64xf32, #result> -> tensor<64x64xf32>
    ```
  }];
  let options = [
    Option<"onlyStatic", "only-static", "bool", "false",
           "Only encode contractions whose iteration sizes are all static">
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def MXMaterializeEncodings : Pass<"mx-materialize-encodings"> {
  let summary = "Resolve encodings to a target's data-tiled layouts";
  let description = [{
    For every encoded `mx.scaled_contraction`, chooses a data-tiled layout
    (the encoding's pinned `layout`, else the target resolver's choice, with
    the pass options pinning any parameter) and rewrites:

    * `mx.set_encoding` into `linalg.pack` (padding: zero data, scale byte
      0x7F = 1.0 so that padding can never produce NaN) followed by
      `tensor.expand_shape` and `linalg.transpose` to the swizzled tile; a
      constant (e.g. weights) is relaid out at compile time instead;
    * the contraction into `mx.tiled_scaled_mma` on the packed tiles;
    * `mx.unset_encoding` into `linalg.transpose`, `tensor.collapse_shape`
      and `linalg.unpack`.

    Contractions that cannot be data tiled (not all five tensors encoded, or
    more than one M or N dimension) get their encodings dropped, with a
    remark.

    Example (gfx950, fp4, 1 wave, one 16x16x128 intrinsic per tile):

    ```mlir
    %p = linalg.pack %a padding_value(%zero : f4E2M1FN) outer_dims_perm = [0, 1]
        inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %empty
        : tensor<64x256xf4E2M1FN> -> tensor<4x2x16x128xf4E2M1FN>
    %x = tensor.expand_shape %p [[0], [1], [2], [3, 4]] output_shape [4, 2, 16, 4, 32]
        : tensor<4x2x16x128xf4E2M1FN> into tensor<4x2x16x4x32xf4E2M1FN>
    %t = linalg.transpose ins(%x : tensor<4x2x16x4x32xf4E2M1FN>)
        outs(%e : tensor<4x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", "\"gfx950\"",
           "Target whose layouts to use (gfx950)">,
    Option<"intrinsic", "intrinsic", "std::string", "\"\"",
           "Pin the intrinsic: 16x16x128 or 32x32x64">,
    Option<"intrinsicsM", "intrinsics-m", "int64_t", "0",
           "Pin intrinsics_m (0: heuristic)">,
    Option<"intrinsicsN", "intrinsics-n", "int64_t", "0",
           "Pin intrinsics_n (0: heuristic)">,
    Option<"intrinsicsK", "intrinsics-k", "int64_t", "0",
           "Pin intrinsics_k (0: heuristic)">,
    Option<"subgroupsM", "subgroups-m", "int64_t", "0",
           "Pin subgroups_m (0: heuristic)">,
    Option<"subgroupsN", "subgroups-n", "int64_t", "0",
           "Pin subgroups_n (0: heuristic)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MXLowerRelayouts : Pass<"mx-lower-relayouts"> {
  let summary = "Lower linalg.pack/unpack to pad, reshapes and transposes";
  let description = [{
    Rewrites `linalg.pack` into `tensor.pad` + `tensor.expand_shape` +
    `linalg.transpose` and `linalg.unpack` into `linalg.transpose` +
    `tensor.collapse_shape` + `tensor.extract_slice`, which bufferize and run
    on the host. Part of the CPU pipeline.

    Example:

    ```mlir
    %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %e
        : tensor<64x256xf4E2M1FN> -> tensor<4x2x16x128xf4E2M1FN>
    ```

    becomes an `expand_shape` to `4x16x2x128` and a transpose to `4x2x16x128`.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def MXMemRefCopyToLinalg : Pass<"mx-memref-copy-to-linalg"> {
  let summary = "Rewrite memref.copy as linalg.copy";
  let description = [{
    `memref.copy` between non-contiguous buffers lowers to a call into
    MLIR's C runner-utils library (`memrefCopy`); as `linalg.copy` it lowers
    to plain loops instead, so host code needs no runtime library. Part of
    the CPU pipeline, after bufferization.

    Example:

    ```mlir
    memref.copy %a, %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
    ```

    becomes

    ```mlir
    linalg.copy ins(%a : memref<4x8xf32, strided<[16, 1]>>) outs(%b : memref<4x8xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // MX_DIALECT_MX_TRANSFORMS_PASSES_TD
