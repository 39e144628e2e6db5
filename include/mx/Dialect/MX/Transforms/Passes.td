//===- Passes.td - mx dialect transformation passes --------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_PASSES_TD
#define MX_DIALECT_MX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MXRaiseScaledMatmul : Pass<"mx-raise-scaled-matmul"> {
  let summary = "Raise linalg.generic scaled matmuls (arith.scaling_extf) to mx.scaled_contraction";
  let description = [{
    Downstream compilers (IREE, torch-mlir) express an MX matmul as a
    `linalg.generic` on tensors whose body extends both operands with
    `arith.scaling_extf` (element times its E8M0 block scale) to `f32` and
    multiply-accumulates into the `f32` init:

    ```
    yield(acc + scaling_extf(a, sa) * scaling_extf(b, sb))
    ```

    (`addf` and `mulf` operands in either order). This pass rewrites each such
    op into `mx.scaled_contraction`, whose semantics are the same and which
    the mx pipelines compile. Two ways of indexing the scales are accepted:

    * **Expanded K** (IREE's form): two reduction dimensions `ko` (the block,
      size K/32) and `kb` (the element in the block, size 32). Both data maps
      use `ko` immediately followed by `kb`; each scale map is its data map
      without `kb`. The data operands are collapsed (`tensor.collapse_shape`)
      to one K dimension, the scales are used as they are.
    * **Flat K**: one reduction dimension `k`; each scale map is its data map
      with `k` replaced by `k floordiv 32`.

    The first data operand in `ins` becomes `lhs`. Batch dimensions (used by
    both operands and the init), M and N dimensions in any order and position
    are kept in the indexing maps, so transposed (NN, NT, TN) and batched
    forms are raised alike. The element types must be MX types (`f4E2M1FN`,
    `f6E2M3FN`, `f6E3M2FN`, `f8E4M3FN`, `f8E5M2`), the scales `f8E8M0FNU`
    and the init `f32`.

    An op that uses `arith.scaling_extf` but does not have this form (other
    body, block size other than 32, scale maps that do not follow their data,
    buffers, encodings, ...) is left unchanged and gets a remark saying why;
    other ops are not looked at.

    Example (IREE's NT matmul with K = 512 x 32):

    ```mlir
    %r = linalg.generic {
        indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                         affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                         affine_map<(m, n, ko, kb) -> (m, ko)>,
                         affine_map<(m, n, ko, kb) -> (n, ko)>,
                         affine_map<(m, n, ko, kb) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
        ins(%a, %b, %sa, %sb : tensor<64x8x32xf4E2M1FN>, tensor<32x8x32xf4E2M1FN>,
                               tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>)
        outs(%c : tensor<64x32xf32>) {
    ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %sx: f8E8M0FNU, %sy: f8E8M0FNU, %acc: f32):
      %0 = arith.scaling_extf %x, %sx : f4E2M1FN, f8E8M0FNU to f32
      %1 = arith.scaling_extf %y, %sy : f4E2M1FN, f8E8M0FNU to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %acc, %2 : f32
      linalg.yield %3 : f32
    } -> tensor<64x32xf32>
    ```

    becomes

    ```mlir
    %a2 = tensor.collapse_shape %a [[0], [1, 2]] : tensor<64x8x32xf4E2M1FN> into tensor<64x256xf4E2M1FN>
    %b2 = tensor.collapse_shape %b [[0], [1, 2]] : tensor<32x8x32xf4E2M1FN> into tensor<32x256xf4E2M1FN>
    %r = mx.scaled_contraction
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                         affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>]
        ins(%a2, %b2, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<32x256xf4E2M1FN>,
                                tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>)
        outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
    ```

    It runs first in every pipeline (e.g. `mx-gfx950-pipeline`).
  }];
  let dependentDialects = [
    "::mlir::mx::MXDialect", "::mlir::tensor::TensorDialect"
  ];
}

def MXRaiseQuantize : Pass<"mx-raise-quantize"> {
  let summary = "Raise upstream MX quantizations and dequantizations (arith.scaling_truncf/extf) to mx ops";
  let description = [{
    Downstream compilers write an MX quantization with upstream ops: the block
    amax as a `linalg.generic` reduction (`maximumf(absf(x), out)` from `-inf`
    or `0.0`; `maximumf` propagates NaN as mx.quantize does), the scale as that amax times `2^-emax` (emax: the element
    type's largest normal exponent, e.g. 2 for `f4E2M1FN`) converted to
    `f8E8M0FNU` (which keeps the exponent: `floor(log2(.))`), and the elements
    as `arith.scaling_truncf(x, scale)` (IREE's MXFP4 quantizer). This is
    `mx.quantize` with `scale(floor)`; this pass raises it:

    * a `linalg.generic` (all loops parallel, the last of size 32: one block)
      whose body yields `arith.scaling_truncf(x, s)` with `s` the block amax
      times `2^-emax` (in the body, in a producer generic, or as the E8M0
      tensor of a scale generic) becomes the elements of
      `mx.quantize %x axis(last) scale(floor)`, rounded as the op's
      `roundingmode` says (absent or `to_nearest_even`: `nearest_even`;
      `to_nearest_away`: `ties_away`);
    * each scale generic of the same amax (`truncf(amax * 2^-emax)` to
      `f8E8M0FNU`, optionally `arith.bitcast` to `i8`) becomes its scales;
    * a `linalg.generic` whose body yields `arith.scaling_extf(x, s)`, with
      the scales indexed per block (the data map without its last dimension
      of size 32, or with it `floordiv 32`), becomes `mx.dequantize`.

    Semantics: the same for finite inputs. A block holding a NaN or an
    infinity gets the NaN scale in both; its element codes follow
    `mx.quantize` (zeros), where upstream's conversion of NaN to an element
    type is its own. Each raise emits a remark saying what it raised; an op
    that uses `arith.scaling_truncf` or `arith.scaling_extf` but does not have
    these forms gets a remark saying why it was left alone.

    Example (IREE's MXFP4 quantizer, `x : tensor<?x32xf32>`):

    ```mlir
    %amax = linalg.generic ... ins(%x) outs(%neg_inf_fill) {
      %a = math.absf %in : f32
      %m = arith.maximumf %a, %out : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
    %q = linalg.generic ... ins(%x, %amax) outs(%e) {
      %s = arith.mulf %amax_in, %cst_0.25 : f32
      %t = arith.scaling_truncf %in, %s : f32, f32 to f4E2M1FN
      linalg.yield %t : f4E2M1FN
    } -> tensor<?x32xf4E2M1FN>
    ```

    becomes

    ```mlir
    %q, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
        : tensor<?x32xf32> -> tensor<?x32xf4E2M1FN>, tensor<?x1xf8E8M0FNU>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::mx::MXDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MXCheckLegality : Pass<"mx-check-legality", "::mlir::ModuleOp"> {
  let summary = "Fail with a clear error on the ops a pipeline cannot lower";
  let description = [{
    The mx pipelines start and end with this check, so that an op they do not
    handle (an upstream form no raise recognised, a dialect below the level
    they take, an op left behind by a lowering) is an error naming the op,
    the pipeline and the stage, and never an exit 0 with the op still in the
    output or a conversion failure further down (an
    `unrealized_conversion_cast`, "data stored as bytes").

    An op is illegal when
    * its name is in `illegal-ops`, or its dialect in `illegal-dialects`;
    * `legal-dialects` is not empty and its dialect is not in it;
    * with `mx-element-computations`, it is an `arith` or `math` op that
      computes (not a constant, select or bitcast) on MX element values (`f4E2M1FN`, `f6E2M3FN`,
      `f6E3M2FN`, `f8E4M3FN`, `f8E5M2`, `f8E8M0FNU`, as scalars, vectors or
      tensors): the pipelines compute on those only through mx ops.

    The regions of the ops named in `skip` (e.g. `gpu.module`: kernels the
    pipeline generated) are not looked into. The first op of each illegal
    name gets an error; the pass then fails.

    Example (the input check of mx-cpu-pipeline):

    ```
    mx-check-legality{pipeline=mx-cpu-pipeline stage=input
                      illegal-dialects=gpu,llvm
                      illegal-ops=arith.scaling_truncf
                      mx-element-computations=true}
    ```

    on a function holding an `arith.scaling_truncf` that no raise matched
    fails with `mx-cpu-pipeline (input): 'arith.scaling_truncf' cannot be
    lowered: ...`.
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"mx\"",
           "The pipeline named in the errors">,
    Option<"stage", "stage", "std::string", /*default=*/"\"input\"",
           "The stage of the pipeline named in the errors (e.g. input, "
           "output)">,
    ListOption<"legalDialects", "legal-dialects", "std::string",
               "If given, the only dialects whose ops are legal (builtin "
               "is always legal)">,
    ListOption<"illegalDialects", "illegal-dialects", "std::string",
               "Dialects whose ops are illegal">,
    ListOption<"illegalOps", "illegal-ops", "std::string",
               "Names of illegal ops (dialect.op)">,
    Option<"mxElementComputations", "mx-element-computations", "bool",
           /*default=*/"false",
           "arith and math ops on MX element values are illegal">,
    ListOption<"skip", "skip", "std::string",
               "Names of ops whose regions are not checked">,
    Option<"hint", "hint", "std::string", /*default=*/"\"\"",
           "A note attached to every error (what the pipeline takes, what to "
           "do instead)">
  ];
}

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

    An `mx.grouped_scaled_contraction` is left alone: its operands need no
    encoding, `mx-materialize-encodings` tiles it directly.

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

def MXSpecializeDynamicM : Pass<"mx-specialize-dynamic-m"> {
  let summary = "Version contractions with a dynamic M by M bucket";
  let description = [{
    A contraction whose M is only known at run time (a decode batch of 1 to
    64 tokens, or a prefill of thousands) would get one layout for every M.
    When its target names M buckets
    (`LayoutResolverAttrInterface::getDynamicMBuckets`; e.g. gfx950: M <= 16
    and M <= 64), this pass makes one version of the contraction per bucket, each
    with the layout the target resolves for M equal to the bucket's bound
    (pinned as `mx.layout`, so the tuned table's entry for that bucket
    applies) and the bound itself as `mx.m_bound` (which the target's split-K
    choice uses), plus the original for larger M, selected at run time by
    `scf.if` on M. The chain of elementwise consumers of the result (single
    uses: a bias, an activation, a bf16 conversion) goes into every version,
    so each version's GEMM can take it as its epilogue. Every other
    dimension must be static; other contractions are left alone.

    Example (gfx950):

    ```mlir
    %r = mx.scaled_contraction ... outs(%c : tensor<?x8192xf32>) -> tensor<?x8192xf32>
    ```
    becomes
    ```mlir
    %m = tensor.dim %c, %c0 : tensor<?x8192xf32>
    %small = arith.cmpi ule, %m, %c16 : index
    %r = scf.if %small -> (tensor<?x8192xf32>) {
      %r16 = mx.scaled_contraction ... {mx.layout = #mx.data_tiled_layout<...>, mx.m_bound = 16 : i64}
      scf.yield %r16 : tensor<?x8192xf32>
    } else {
      %mid = arith.cmpi ule, %m, %c64 : index
      %r64 = scf.if %mid -> (tensor<?x8192xf32>) {
        ... {mx.layout = ..., mx.m_bound = 64 : i64}
      } else {
        ... the original contraction
      }
      scf.yield %r64 : tensor<?x8192xf32>
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"",
           "The target (layout resolver) attribute for ops with no enclosing "
           "mx.target, e.g. '#mx_gfx950.target'">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def MXMaterializeEncodings : Pass<"mx-materialize-encodings"> {
  let summary = "Resolve encodings to a target's data-tiled layouts";
  let description = [{
    For every encoded `mx.scaled_contraction`, chooses a data-tiled layout
    (the encoding's pinned `layout`, else the target's choice) and rewrites:

    * `mx.set_encoding` into `linalg.pack` (padding: zero data, scale byte
      0x7F = 1.0 so that padding can never produce NaN) followed by
      `tensor.expand_shape` and `linalg.transpose` to the swizzled tile; a
      constant (e.g. weights) is relaid out at compile time instead;
    * the contraction into `mx.tiled_scaled_mma` on the packed tiles;
    * `mx.unset_encoding` into `linalg.transpose`, `tensor.collapse_shape`
      and `linalg.unpack`.

    An `mx.grouped_scaled_contraction` (a MoE layer's grouped GEMM) becomes
    one `mx.tiled_scaled_mma` with `tile_groups` for all experts: a
    `linalg.generic` computes the tile table from the offsets (each expert's
    rows get `ceil(rows / tile rows)` tiles of their own, in expert order;
    offsets are clamped into `[previous end, T]` so that no tile can name a
    row outside the tensor), `mx.gather_row_tiles` gathers the experts' rows
    (and row scales) into those tiles, which are packed as the lhs, the
    expert weights `[E, N, K]` are packed with the experts as a leading
    dimension (at compile time when constant), and the accumulator stays in
    the user's layout. From a +0.0 fill, the tiles past the experts' name
    the rows outside every expert (those before the first expert's, then
    those after the last one's; two more tiles' worth in the grid) with
    the group E, and the tiled op (`zero_acc zero_empty_tiles`) writes
    +0.0 there itself: the fill goes. Its layout is the target's for one
    expert's
    contraction of `ceil(T / E)` rows (or a pinned `mx.layout`). An
    `mx.routed_scaled_contraction`'s is the target's for blocks of `P / NB`
    rows, counting `min(NB, T * top_k)` of them (the blocks that can hold a
    routed row; `sorted_ids` is sized for the worst case) as the GEMMs of
    the launch.

    With `user-layout-results`, the accumulator and the result of a
    contraction stay in the user's layout: `mx.tiled_scaled_mma` gets the
    accumulator `[B.., M, N]` as it is and its result replaces the
    `mx.unset_encoding`, so neither is relaid out (for targets whose
    lowering reads and writes the accumulator in place, e.g. gfx950's).

    The target is an attribute implementing `LayoutResolverAttrInterface`
    (e.g. `#mx_gfx950.target<...>`, which carries gfx950's layout pins): the
    `mx.target` attribute of the nearest enclosing op that has one (module or
    function), else the `target` option, parsed once. The pass itself knows
    no target. Contractions that cannot be data tiled (not all five tensors
    encoded, or more than one M or N dimension) are errors.

    Example (`target=#mx_gfx950.target<intrinsics_m=1,intrinsics_n=1,
    intrinsics_k=1,subgroups_m=1,subgroups_n=1>`: fp4, 1 wave, one 16x16x128
    intrinsic per tile):

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
    Option<"target", "target", "std::string", "\"\"",
           "The target (layout resolver) attribute for ops with no enclosing "
           "mx.target, e.g. '#mx_gfx950.target<intrinsic=mfma_scale_32x32x64>'">,
    Option<"userLayoutResults", "user-layout-results", "bool", "false",
           "Keep each contraction's accumulator and result in the user's "
           "layout instead of relaying them out around mx.tiled_scaled_mma">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MXSplitK : Pass<"mx-split-k"> {
  let summary = "Split the K tiles of a GEMM into parts added by a second dispatch";
  let description = [{
    A GEMM with too few output tiles to fill the GPU (decode: M of 1 to 64)
    runs its K loop in `S` parts, each a workgroup of its own. The target
    says into how many parts (`LayoutResolverAttrInterface::resolveSplitK`,
    e.g. gfx950: enough to reach one workgroup per CU, or its `split_k`
    pin); `S` divides the K tile count `Ko`.

    Every operand `[B.., X, Ko, tile]` of the `mx.tiled_scaled_mma` is viewed
    as `[S, B.., X, Ko/S, tile]` (a `tensor.expand_shape` and a
    `linalg.transpose`, which join the operand's relayout, or fold into a
    constant's); the op becomes one GEMM with `S` as an extra leading batch
    dimension, from zero, into an f32 workspace `[S, acc shape]`. An
    elementwise `linalg.generic` then adds the parts in K order,
    `((C + P0) + P1) + ...` (or `(P0 + P1) + ...` from zero), and writes
    the result: deterministic, bit-reproducible whatever the order the
    workgroups run in, and it takes the GEMM's elementwise consumers (a bf16
    conversion, a bias, an activation) as a fused epilogue would. The split
    op carries `mx.split_k = S` (`-debug-only=mx-split-k` prints the
    target's reason).

    An op with an epilogue, with a dynamic K tile count, or whose target
    asks for no split is left alone.

    Example (`S = 2`, `Ko = 4`):

    ```mlir
    %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<1x4x...>, ...)
        outs(%c : tensor<16x1024xf32>) layout = #l -> tensor<16x1024xf32>
    ```
    becomes
    ```mlir
    %a2 = tensor.expand_shape %a [[0], [1, 2], ...] : tensor<1x4x...> into tensor<1x2x2x...>
    %at = linalg.transpose ins(%a2 : ...) outs(...) permutation = [1, 0, 2, ...]
    ...
    %p = mx.tiled_scaled_mma ins(%at, %bt, %sat, %sbt : tensor<2x1x2x...>, ...)
        outs(%w : tensor<2x16x1024xf32>) layout = #l zero_acc {mx.split_k = 2 : i64}
        -> tensor<2x16x1024xf32>
    %p0 = tensor.extract_slice %p[0, 0, 0] [1, 16, 1024] [1, 1, 1] : ... to tensor<16x1024xf32>
    %p1 = tensor.extract_slice %p[1, 0, 0] [1, 16, 1024] [1, 1, 1] : ... to tensor<16x1024xf32>
    %r = linalg.generic ins(%c, %p0, %p1 : ...) outs(%c : tensor<16x1024xf32>) {
      // ((c + p0) + p1)
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"",
           "The target (layout resolver) attribute for ops with no enclosing "
           "mx.target, which chooses the number of parts, e.g. "
           "'#mx_gfx950.target<split_k = 4>'">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MXHoistArgumentRelayouts
    : Pass<"mx-hoist-argument-relayouts", "::mlir::ModuleOp"> {
  let summary = "Pack weight arguments once, outside the per-call function";
  let description = [{
    A weight passed to a function as an argument is relaid out into its
    GEMM's data-tiled layout on every call (the `linalg.pack`,
    `tensor.expand_shape` and `linalg.transpose` that
    `mx-materialize-encodings` and `mx-split-k` build from it). Deployments
    pack weights once, when the model is loaded (AITER's `shuffle_weight`,
    IREE's hoisted encodings of globals). The unit argument attribute
    `mx.prepack` asks for that: the argument is a weight.

    For every `mx.prepack` argument of a `func.func` of the module, the pass
    moves the argument's relayout into a new public function
    `@<f>_prepack_<argno>`, inserted after `@<f>` in argument order (a
    suffix is added if the name is taken), which takes the logical tensor and returns the
    relaid-out one; the argument of `@<f>` then takes the relaid-out tensor,
    and `mx.prepack` becomes `mx.prepacked_by = @<f>_prepack_<argno>`. The
    caller runs the packing function once per weight (`mx-run` and the C API
    do, on the logical input) and passes its result on every call; the later
    stages compile both functions alike (the packing function's relayout
    becomes its own dispatches).

    The relayout is the argument's forward slice through `linalg.pack`,
    `linalg.unpack`, `linalg.transpose`, `tensor.expand_shape`,
    `tensor.collapse_shape`, `tensor.pad` and `tensor.cast` (as their
    source operand), up to the one tensor the rest of the function uses
    (e.g. an operand of `mx.tiled_scaled_mma`, the experts' weights with
    their leading expert dimension included); the other operands of those
    ops (padding values, `tensor.empty` destinations) are cloned. It is an
    error, at the function, when a marked argument has another use, is
    relaid out into more than one tensor (e.g. two layouts) or inside a
    region (e.g. `mx-specialize-dynamic-m`'s versions of a dynamic M, each
    with its own layout), has no relayout, or belongs to a function that is
    called in the module (its callers would pass the logical tensor).

    Programs without encodings have nothing to hoist: the CPU pipeline
    ignores `mx.prepack`, and its arguments keep their logical type.

    Example (a weight of a GEMM with a 16x16x128 fp4 layout):

    ```mlir
    func.func @gemm(%a: tensor<64x256xf4E2M1FN>,
                    %w: tensor<32x256xf4E2M1FN> {mx.prepack}, ...) {
      %p = linalg.pack %w padding_value(%zero : f4E2M1FN)
          outer_dims_perm = [0, 1] inner_dims_pos = [0, 1]
          inner_tiles = [16, 128] into %e0
          : tensor<32x256xf4E2M1FN> -> tensor<2x2x16x128xf4E2M1FN>
      %x = tensor.expand_shape %p [[0], [1], [2], [3, 4]] ...
          into tensor<2x2x16x4x32xf4E2M1FN>
      %t = linalg.transpose ins(%x : tensor<2x2x16x4x32xf4E2M1FN>)
          outs(%e1 : tensor<2x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
      %r = mx.tiled_scaled_mma ins(%ta, %t, ...) ...
    }
    ```
    becomes
    ```mlir
    func.func @gemm(%a: tensor<64x256xf4E2M1FN>,
                    %w: tensor<2x2x4x16x32xf4E2M1FN>
                        {mx.prepacked_by = @gemm_prepack_1}, ...) {
      %r = mx.tiled_scaled_mma ins(%ta, %w, ...) ...
    }
    func.func @gemm_prepack_1(%w: tensor<32x256xf4E2M1FN>)
        -> tensor<2x2x4x16x32xf4E2M1FN> {
      %p = linalg.pack %w ...
      %x = tensor.expand_shape %p ...
      %t = linalg.transpose ins(%x : ...) outs(%e1 : ...) permutation = [0, 1, 3, 2, 4]
      return %t : tensor<2x2x4x16x32xf4E2M1FN>
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def MXFuseEpilogues : Pass<"mx-fuse-epilogues"> {
  let summary = "Fuse elementwise consumers of a GEMM's result into its epilogue";
  let description = [{
    An `mx.tiled_scaled_mma` that starts from zero (`zero_acc`) with its
    accumulator in the user's layout, whose result's only use is an
    elementwise `linalg.generic` (all loops parallel, the result read and
    written with identity maps, no `linalg.index`), takes the generic's body
    as its `epilogue` and writes the generic's output itself: a bf16 result
    (`arith.truncf`), a bias, a per-row or per-column scale or an activation
    cost no separate dispatch and no f32 round trip through memory.

    Activations are whatever the body computes with `arith` and `math` ops,
    e.g. SiLU `x / (1 + exp(-x))` or GELU-tanh
    `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`. The target (the
    `mx.target` of an enclosing op, else the `target` option) says through
    `LayoutResolverAttrInterface::checkEpilogueOp` whether its kernels can
    compute each op of the body (e.g. gfx950: arith, and f32 `math.exp`,
    `math.tanh`, `math.log`, `math.sqrt` and a few more, nothing that would
    need a device library); without a target every op is accepted (the
    generic lowering to `linalg` computes any).

    A grouped or routed op (`tile_groups`: a MoE GEMM) takes an epilogue
    too. Its rows that no tile names keep the output it starts from, which
    must then hold what the consumer makes of the accumulator there: from a
    fill whose constant the consumer folds to a constant c (a bf16 rounding
    of +0.0: +0.0), the output starts as a fill with c and the f32 fill
    goes; otherwise as a copy of the consumer that reads the accumulator (or
    takes the fill's constant) instead of the result. A routed op whose
    tiles without rows write every row the ids name (`zero_empty_tiles`)
    starts from the consumer's own output.

    When the result's only consumer is such a generic but the op cannot
    take it (e.g. the accumulator is not zero: the epilogue would see C +
    A B rounded twice; or the target cannot compute an op of the body), a
    remark says why and the generic stays a separate, correct dispatch. A
    result with several uses (e.g. the two halves of N of a gated pair,
    SwiGLU `silu(gate) * up`, read through two slices, or a consumer that
    reads two columns of the result per output element) is not fused
    either, with a remark: one epilogue invocation sees one sum, and the
    two sums of a gated pair live in different tiles.

    Example:

    ```mlir
    %r = mx.tiled_scaled_mma ins(...) outs(%e : tensor<33x47xf32>) layout = #l zero_acc
        -> tensor<33x47xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%r : tensor<33x47xf32>) outs(%o : tensor<33x47xbf16>) {
    ^bb0(%x: f32, %y: bf16):
      %b = arith.truncf %x : f32 to bf16
      linalg.yield %b : bf16
    } -> tensor<33x47xbf16>
    ```
    becomes
    ```mlir
    %t = mx.tiled_scaled_mma ins(...) outs(%o : tensor<33x47xbf16>) layout = #l zero_acc
        epilogue ins() maps [] {
    ^bb0(%x: f32, %y: bf16):
      %b = arith.truncf %x : f32 to bf16
      mx.yield %b : bf16
    } -> tensor<33x47xbf16>
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"",
           "The target (layout resolver) attribute for ops with no enclosing "
           "mx.target, which says which epilogue ops its kernels compute, "
           "e.g. '#mx_gfx950.target'">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MXFuseColumnConsumers : Pass<"mx-fuse-column-consumers"> {
  let summary = "Run a small consumer that reads a GEMM's result by columns in the GEMM's kernel";
  let description = [{
    An elementwise `linalg.generic` that reads the result of an
    `mx.tiled_scaled_mma` (accumulator in the user's layout, `[M, N]`, no
    batch dimensions, no epilogue) at any rows but only at the column of its
    own last loop dimension, directly or through a `tensor.expand_shape` of
    the rows (e.g. a mixture-of-experts layer's weighted combine of its
    routed down GEMM, `out[t, n] = sum_j w[t, j] * y[t * k + j, n]`), cannot
    be an epilogue: an output element needs sums of several M tiles. (A
    consumer that reads the result only elementwise, at the identity map, is
    left to `mx-fuse-epilogues` or to a dispatch of its own.) It can
    still run in the GEMM's kernel, in the last wave to finish each strip of
    N tiles: every wave counts itself on its strip's counter when its sums
    are stored, and the wave that completes the count computes the strip's
    columns of the consumer's output. That saves the consumer's dispatch.

    This pass marks such a generic with the discardable attribute
    `mx.column_consumer` and gives it one more input, a +0 `i32` tensor with
    one counter per N tile of the GEMM (a `linalg.fill`, its own dispatch or
    merged into a neighbour's, `mx-merge-gpu-launches`), that its body does
    not read. The target's lowering of the GEMM, where it has one, takes a
    marked generic into the kernel (and resets the counters to +0 once
    used); elsewhere the generic stays what it is. The result may have no
    other uses, every other input must be defined before the GEMM, the
    output must be a `tensor.empty` of its own (the kernel writes it where
    the GEMM runs), and the target must compute each op of the body
    (`LayoutResolverAttrInterface::checkEpilogueOp`).

    One wave computes a strip, so that form takes only small consumers: at
    most `max-strip-elements` output elements per strip (the output's rows
    times the N tile's columns; the default, 4096, is 4 rounds of 16 per
    lane, e.g. 16 tokens of a 256-column tile). A larger consumer of a
    routed GEMM (`row_ids`) whose output rows each read a group of k rows
    (output row t reads rows t * k + j, j < k, through an `expand_shape`
    of the rows into `[T, k, N]` at maps `(t, n) -> (t, c, n)`, c
    constant: the weighted combine) is computed row by row instead: the
    attribute is `mx.column_consumer = k`, and the counters are one per
    strip, then one per output row and strip; each wave counts its tile's
    rows on their output rows' counters, the wave that completes a row's
    count computes the row's strip, and the strip's last wave computes the
    rows whose count no wave completed (a row named by no id keeps the
    accumulator's value). Other large consumers stay a dispatch, with a
    remark: one wave would read all of a strip's inputs.

    Example (top 2, 3 tokens, N tiles of 16 columns):

    ```mlir
    %y = mx.tiled_scaled_mma ins(...) tile_groups(...) row_ids(...)
        outs(%z : tensor<6x32xf32>) layout = #l zero_acc -> tensor<6x32xf32>
    %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [3, 2, 32]
        : tensor<6x32xf32> into tensor<3x2x32xf32>
    %out = linalg.generic {indexing_maps = [(t, n) -> (t, 0, n), (t, n) -> (t, 1, n), #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%y3, %y3 : ...) outs(%o : tensor<3x32xbf16>) { ... }
    ```
    becomes the same generic with `{mx.column_consumer}` and one more input,
    `%c = linalg.fill ins(%c0_i32 : i32) outs(%e : tensor<2xi32>)` at the map
    `(t, n) -> (0)`.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"",
           "The target (layout resolver) attribute for ops with no enclosing "
           "mx.target, which says which ops its kernels compute, e.g. "
           "'#mx_gfx950.target'">,
    Option<"maxStripElements", "max-strip-elements", "int64_t",
           /*default=*/"4096",
           "The most output elements of one strip of N tiles (computed by "
           "one wave) of a consumer to take">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MXFuseQuantizeRelayouts : Pass<"mx-fuse-quantize-relayouts"> {
  let summary = "Quantize straight into the layouts that consume the results";
  let description = [{
    Replaces every `mx.quantize` by one `mx.quantize_into` that reads the
    input once and writes each result where its consumers want it: a result
    whose use is a relayout chain `linalg.pack` (constant padding),
    followed by any sequence of `tensor.expand_shape` and `linalg.transpose`
    ops (what `mx-materialize-encodings` makes of `mx.set_encoding` with the
    layout the target resolved, then `mx-split-k`'s split of K) gets a
    destination in the chain's final layout, with the
    map composed from the chain's ops (outer tile index `d floordiv T`, inner
    index `d mod T`, expanded and permuted), and the chain disappears. Other
    uses (e.g. a returned quantized tensor) read a destination in the plain
    layout (identity map). Scales keep the pack's padding byte.

    Quantizing is per row, so when the elements and the scales are each used
    only by one `mx.gather_rows` (a routed GEMM's A in sorted order), by the
    same ids and divisor, the gathers' uses are fused instead: the new op is
    `mx.quantize_into ... gather(%ids : ... divisor = D)`, whose destinations
    hold the gathered rows (rows of padding ids are padding: code 0, and the
    pack's scale padding byte in a relayout chain, 0 in a plain destination
    as `mx.gather_rows` gives), and the gathers disappear with the chains.

    No swizzle is restated here: the maps are read off the relayout ops that
    the layout's one swizzle function produced.

    Example:

    ```mlir
    %e, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)
        : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
    %p = linalg.pack %e padding_value(%c0 : f4E2M1FN) inner_dims_pos = [0, 1]
        inner_tiles = [128, 256] into %d : ... -> tensor<1x2x128x256xf4E2M1FN>
    ```

    becomes `mx.quantize_into %x ... elements(%d : tensor<1x2x128x256xf4E2M1FN>)
    maps [affine_map<(d0, d1) -> (d0 floordiv 128, d1 floordiv 256, d0 mod 128,
    d1 mod 256)>] scales(...)`.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def MXPackToBytes : Pass<"mx-pack-to-bytes", "::mlir::ModuleOp"> {
  let summary = "Store MX element and scale tensors as (packed) bytes";
  let description = [{
    GPU buffers and ukernels (e.g. gfx950's) hold MX data as bytes: fp8 and E8M0
    scales one byte per element, fp4 and fp6 packed (two fp4 values per
    byte, four fp6 values per three bytes, element i in bits
    [w*i, w*i + w) of the little-endian byte string). MLIR's own LLVM
    lowering would store a `memref<...xf4E2M1FN>` one element per byte, and
    has no element-type bitcast for memrefs. This pass rewrites every
    f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2 and f8E8M0FNU tensor of
    the module's functions into an `i8` tensor of the same shape whose
    innermost dimension counts bytes, so the program that bufferizes
    afterwards moves bytes only.

    It applies to the relayout programs `mx-materialize-encodings` and
    `mx-lower-relayouts` produce: function arguments and results (they keep
    their logical type in the `mx.packed_type` argument or result attribute),
    `arith.constant`, `tensor.empty`, `tensor.pad` (constant padding),
    `tensor.expand_shape`, `tensor.collapse_shape`, `tensor.extract_slice`,
    `tensor.insert_slice`, `tensor.cast`, `linalg.transpose`,
    `mx.tiled_scaled_mma` and `mx.quantize_into` (which accept byte
    operands). For sub-byte types
    every op must keep the innermost dimension innermost and cut it only at
    byte boundaries; an op that does not (e.g. a transpose that moves K of an
    fp4 `K x N` weight away from the innermost position) is an error naming
    the op. Functions that are called from the module keep their signature
    and are an error if they have MX arguments.

    Example:

    ```mlir
    func.func @f(%a: tensor<64x256xf4E2M1FN>) -> tensor<2x1x32x256xf4E2M1FN>
    ```

    becomes

    ```mlir
    func.func @f(%a: tensor<64x128xi8> {mx.packed_type = tensor<64x256xf4E2M1FN>})
        -> (tensor<2x1x32x128xi8> {mx.packed_type = tensor<2x1x32x256xf4E2M1FN>})
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::tensor::TensorDialect"
  ];
}

def MXFuseRelayouts : Pass<"mx-fuse-relayouts"> {
  let summary = "Fuse each chain of relayout ops into one gather";
  let description = [{
    `mx-lower-relayouts` turns every pack and unpack into a chain of
    `tensor.pad`, `tensor.insert_slice` (into a `tensor.empty`),
    `tensor.expand_shape`, `linalg.transpose`, `tensor.collapse_shape`,
    `tensor.extract_slice` and `linalg.copy` ops, each
    of which becomes its own pass over memory (its own GPU dispatch) after
    bufferization. This pass replaces every such chain of at least two ops by
    one `linalg.generic` that computes each element of the chain's result
    directly from the chain's source: the body maps the output indices back
    through the chain (inverse permutations, linearized or delinearized
    reshape groups, slice offsets, pad offsets), reads the source with
    `tensor.extract` at indices clamped into bounds and selects the padding
    value where a pad would have produced one. The chain must have static
    intermediate shapes (the source may be dynamic); other chains are left
    alone.

    Example: the pack of a 33x224 operand into 2x1x2x2x4x16x32 tiles (a pad,
    an expand_shape, a transpose, an expand_shape and a transpose) becomes one
    `linalg.generic` over the 2x1x2x2x4x16x32 result reading
    `tensor.extract %a[min(m, 32), min(k, 223)]` and selecting 0 outside
    `m < 33, k < 224`.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // MX_DIALECT_MX_TRANSFORMS_PASSES_TD
