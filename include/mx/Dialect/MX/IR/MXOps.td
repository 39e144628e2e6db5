//===- MXOps.td - mx dialect operations --------------------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXOPS_TD
#define MX_DIALECT_MX_IR_MXOPS_TD

include "mx/Dialect/MX/IR/MXDialect.td"
include "mx/Dialect/MX/IR/MXAttrs.td"
include "mx/Dialect/MX/IR/MXInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"

class MX_Op<string mnemonic, list<Trait> traits = []>
    : Op<MX_Dialect, mnemonic, traits>;

def MX_RankedTensorOrMemRef : AnyTypeOf<[AnyRankedTensor, AnyMemRef],
    "ranked tensor or memref">;

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

def MX_QuantizeOp : MX_Op<"quantize", [Pure]> {
  let summary = "quantize a float tensor to MX elements and E8M0 block scales";
  let description = [{
    Splits dimension `axis` of `input` (bf16, f16 or f32) into blocks of
    `block_size` (always 32) consecutive elements. Each block gets one
    `f8E8M0FNU` scale chosen by `scale` (see `ScaleRule`) and every element
    is divided by the block's power-of-two scale (exactly) and rounded to the
    element type by `rounding` (see `Rounding`).

    `elements` has the shape of `input`; `scales` has the shape of `input`
    with dimension `axis` divided by 32. Dynamic sizes are allowed; static
    sizes along `axis` must be multiples of 32.

    Special values (normative, same for every rule and rounding):
    * a block that holds a NaN or an infinity gets the NaN scale `0xFF` and
      all its element codes are zero;
    * an all-zero block gets the scale byte `0x00` (2^-127);
    * scaled magnitudes above the element type's largest finite value
      saturate to it (also for `f8E4M3FN`/`f8E5M2`: no Inf/NaN is produced);
    * element subnormals are kept, values below half the smallest subnormal
      become a zero of the value's sign;
    * the sign bit of an element is the sign bit of its input, so `-0.0`
      encodes as the negative-zero code (`0x80` for fp8, `0x20` for fp6, `0x8`
      for fp4), as torchao does;
    * with `scale(even)`, a block amax whose rounding carries into the f32
      exponent 255 (the top binade of bf16, e.g. its largest finite value)
      gets the scale byte 254 for every element type: seed 000's
      `floor(log2(+Inf)) - emax` clamped to 127.

    Example (the seed 000 MXFP4 quantizer, rowwise):

    ```mlir
    %e, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)
        : tensor<64x256xbf16> -> tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis,
      MX_ScaleRuleAttr:$scale, MX_RoundingAttr:$rounding,
      DefaultValuedAttr<I64Attr, "32">:$block_size);
  let results = (outs AnyRankedTensor:$elements, AnyRankedTensor:$scales);
  let assemblyFormat = [{
    $input `axis` `(` $axis `)` `scale` `(` $scale `)` `rounding` `(` $rounding `)`
    attr-dict `:` type($input) `->` type($elements) `,` type($scales)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// QuantizeIntoOp
//===----------------------------------------------------------------------===//

def MX_QuantizeIntoOp : MX_Op<"quantize_into", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<DestinationStyleOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "quantize once, writing elements and scales in given layouts";
  let description = [{
    Computes `mx.quantize` of `input` (same `axis`, `scale`, `rounding`,
    element type `element_type`, block size 32, same special-value rules)
    and writes the element codes into every `elements` destination and the
    scale bytes into every `scales` destination, each in its own layout: the
    destination's affine map (`element_maps`, `scale_maps`) sends the
    logical index of an element (the input's index space) or of a scale (the
    input's index space with `axis` divided by 32) to its position in the
    destination. The identity map is the plain row-major layout; a data-tiled
    layout (what `linalg.pack` + `tensor.expand_shape` + `linalg.transpose`
    produce, see `mx-fuse-quantize-relayouts`) or a library's layout is a map
    of `floordiv`/`mod` expressions.

    Every logical dimension `d` must appear in each map either as the result
    `d` or as `d floordiv T` (its outer tile index): the map then covers the
    padded domain `[0, size * T)` of `d`, and every point of the padded
    domain outside the input is padding: element code 0, and for scales the
    byte `scale_padding[j]` of destination `j` (0x7F, 2^0, for a GEMM
    operand). A map must send the padded domain one-to-one onto its
    destination, so that every destination byte is written.

    A destination may be given as `i8` holding bytes: fp8 and E8M0 one per
    element, fp4/fp6 packed along the innermost destination dimension (which
    then counts bytes; element `i` of a row in bits `[w*i, w*i + w)`), as
    `mx-pack-to-bytes` stores them; fp6 rows need a static byte count that
    is a multiple of 3. Maps always count elements.

    On tensors the op returns the filled destinations (elements first, then
    scales); on memrefs it writes them and has no result.

    The CPU path (`convert-mx-to-linalg`) lowers every form (an
    `mx.quantize`, then a loop nest per destination over its padded domain,
    `i8` destinations packed afterwards; tensors or memrefs, static or
    dynamic sizes). The reference evaluator models every destination kind on
    tensors.

    `in_consumer` says that a target computes the quantize inside the kernel
    of the one op that reads the destinations (e.g. gfx950's GEMM ukernel
    that quantizes its A tiles in registers from `input`), so that the op
    gets no kernel of its own and the destinations never reach memory. It
    does not change what the op computes: a lowering that does not fuse it
    (the CPU path) ignores it, and the target lowering that does checks that
    its consumer reads every destination in the layout the maps give.

    `gather(%ids divisor = D)` writes the input's rows gathered (as
    `mx.gather_rows` does, which commutes with a rowwise quantize): the
    input must have rank 2 with `axis` 1, `ids` is a 1-d `i32` tensor (or
    memref) of `P` row ids, and the maps' logical index space has `P` rows
    instead of the input's: logical row `i` is input row `ids[i] / D`. A
    row whose id is negative or whose `ids[i] / D` is past the input's last
    row (a routing's padding ids, conventionally `T * top_k`) is padding,
    like the points past `P`: element code 0 and each scales destination's
    padding byte (where `mx.gather_rows` would give scale byte 0; both
    decode to zero values). `mx-fuse-quantize-relayouts` produces it from
    an `mx.quantize` whose results are gathered before their relayout.

    Example (a rowwise fp4 quantize written plain and in a 16x16 tiled
    layout with K tiles of 64):

    ```mlir
    %e, %t, %s = mx.quantize_into %x axis(1) scale(even) rounding(ties_away)
        : tensor<32x128xbf16> -> f4E2M1FN
        elements(%e0, %t0 : tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>)
          maps [affine_map<(m, k) -> (m, k)>,
                affine_map<(m, k) -> (m floordiv 16, k floordiv 64, m mod 16, k mod 64)>]
        scales(%s0 : tensor<32x4xf8E8M0FNU>) maps [affine_map<(m, kb) -> (m, kb)>]
          padding [127]
        -> tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>, tensor<32x4xf8E8M0FNU>
    ```

    Example (8 tokens' rows gathered by 64 routed row ids, top_k 2, into
    16-row tiles):

    ```mlir
    %t, %s = mx.quantize_into %x gather(%ids : tensor<64xi32> divisor = 2)
        axis(1) scale(even) rounding(nearest_even)
        : tensor<8x128xbf16> -> f4E2M1FN
        elements(%t0 : tensor<4x2x16x64xf4E2M1FN>)
          maps [affine_map<(m, k) -> (m floordiv 16, k floordiv 64, m mod 16, k mod 64)>]
        scales(%s0 : tensor<64x4xf8E8M0FNU>) maps [affine_map<(m, kb) -> (m, kb)>]
          padding [127]
        -> tensor<4x2x16x64xf4E2M1FN>, tensor<64x4xf8E8M0FNU>
    ```
  }];
  let arguments = (ins MX_RankedTensorOrMemRef:$input,
      Optional<MX_RankedTensorOrMemRef>:$ids,
      Variadic<MX_RankedTensorOrMemRef>:$elements,
      Variadic<MX_RankedTensorOrMemRef>:$scales, I64Attr:$axis,
      MX_ScaleRuleAttr:$scale, MX_RoundingAttr:$rounding,
      TypeAttr:$element_type, AffineMapArrayAttr:$element_maps,
      AffineMapArrayAttr:$scale_maps, DenseI64ArrayAttr:$scale_padding,
      UnitAttr:$in_consumer,
      OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$divisor);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $input (`gather` `(` $ids^ `:` type($ids) `divisor` `=` $divisor `)`)?
    `axis` `(` $axis `)` `scale` `(` $scale `)` `rounding` `(`
    $rounding `)` `:` type($input) `->` $element_type
    `elements` `(` ($elements^ `:` type($elements))? `)` `maps` $element_maps
    `scales` `(` ($scales^ `:` type($scales))? `)` `maps` $scale_maps
    `padding` $scale_padding (`in_consumer` $in_consumer^)? attr-dict
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The padded logical domain that the map of destination `index` (its
    /// position among all destinations: elements, then scales) covers, from
    /// the sizes of its outer (tile index) dimensions; fails unless every
    /// logical dimension appears as `d` or `d floordiv T`. Dynamic where the
    /// destination size is dynamic.
    FailureOr<SmallVector<int64_t>> getPaddedDomain(unsigned index);
    /// Where a logical dimension's padded extent comes from: the map result
    /// `result` of the destination is `d` (`tile` 1) or `d floordiv tile`,
    /// so the extent is the destination's size there (in elements) times
    /// `tile`.
    struct DomainCover {
      unsigned result;
      int64_t tile;
    };
    /// The cover of every logical dimension of destination `index`'s map;
    /// fails unless every dimension appears as `d` or `d floordiv T`.
    FailureOr<SmallVector<DomainCover>> getDomainCovers(unsigned index);
    /// The map of destination `index` (elements, then scales).
    AffineMap getDestinationMap(unsigned index);
    /// The shape of the maps' logical index space (of the elements): the
    /// input's, with one row per id when gathered.
    SmallVector<int64_t> getLogicalShape();
  }];
}

//===----------------------------------------------------------------------===//
// DequantizeOp
//===----------------------------------------------------------------------===//

def MX_DequantizeOp : MX_Op<"dequantize", [Pure]> {
  let summary = "decode MX elements and apply their E8M0 block scales";
  let description = [{
    The inverse of `mx.quantize`: `result[i] = decode(elements[i]) *
    2^(scales[i with axis index / 32] - 127)`, computed exactly and rounded
    once to the result type (bf16, f16 or f32). A `0xFF` scale gives NaN.
    The shape relations are those of `mx.quantize`.

    Example:

    ```mlir
    %x = mx.dequantize %e, %s axis(1)
        : tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$elements, AnyRankedTensor:$scales,
      I64Attr:$axis, DefaultValuedAttr<I64Attr, "32">:$block_size);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $elements `,` $scales `axis` `(` $axis `)` attr-dict `:` type($elements)
    `,` type($scales) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ScaledContractionOp
//===----------------------------------------------------------------------===//

def MX_ScaledContractionOp : MX_Op<"scaled_contraction", [
    Pure,
    DeclareOpInterfaceMethods<DestinationStyleOpInterface>,
    DeclareOpInterfaceMethods<TilingInterface, [
        "getIterationDomain", "getLoopIteratorTypes",
        "getTiledImplementation", "getResultTilePosition"]>]> {
  let summary = "f32-accumulating contraction of two MX operands";
  let description = [{
    Computes, over the iteration space of `indexing_maps` (for `lhs`, `rhs`
    and `acc`, in this order):

    ```
    result[.., m, n] = acc[.., m, n] + sum_k decode(lhs[.., m, k]) * 2^(lhs_scales[.., m, k/32] - 127)
                                           * decode(rhs[.., k, n]) * 2^(rhs_scales[.., k/32, n] - 127)
    ```

    in f32. Exactly one iteration dimension is the reduction dimension `k`:
    it is used by `lhs` and `rhs` and not by `acc`. Every other dimension is
    a batch (all three operands), M (`lhs` and `acc`) or N (`rhs` and `acc`)
    dimension. Layout variants are expressed by the maps: `(m, k) x (k, n)`,
    the usual weight layout `(m, k) x (n, k)`, batched forms.

    Each scale operand is indexed like its data operand except that its `k`
    dimension has size `K / 32`: the scale of element `k` is at `k / 32`.
    `K` must be a multiple of 32. Data operands have an MX element type
    (`f4E2M1FN`, `f6E2M3FN`, `f6E3M2FN`, `f8E4M3FN`, `f8E5M2`; `lhs` and `rhs`
    may differ), scales `f8E8M0FNU`, the accumulator `f32`.

    The op is destination-style: `acc` is the init and the result has its
    type.

    Example (NT layout: B is N x K):

    ```mlir
    %r = mx.scaled_contraction
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                         affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<64x256xf4E2M1FN>,
                              tensor<64x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
        outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
      AnyRankedTensor:$lhs_scales, AnyRankedTensor:$rhs_scales,
      AnyRankedTensor:$acc, AffineMapArrayAttr:$indexing_maps);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    `indexing_maps` `=` $indexing_maps
    `ins` `(` $lhs `,` $rhs `,` $lhs_scales `,` $rhs_scales `:` type($lhs) `,`
      type($rhs) `,` type($lhs_scales) `,` type($rhs_scales) `)`
    `outs` `(` $acc `:` type($acc) `)` attr-dict `->` type($result)
  }];
  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// Number of iteration-space dimensions (the maps' dimension count).
    unsigned getNumLoops();
    AffineMap getLhsMap();
    AffineMap getRhsMap();
    AffineMap getAccMap();
    /// The role of every iteration dimension. Only valid on a verified op.
    ScaledContractionDims getContractionDims();
    /// Static size of each iteration dimension (ShapedType::kDynamic where
    /// unknown), taken from the operand shapes.
    SmallVector<int64_t> getStaticLoopRanges();
    /// The element types of lhs, rhs, lhs_scales, rhs_scales and acc (in the
    /// order of an #mx.encoding's `element_types`).
    SmallVector<Type> getElementTypes();
    /// Whether an operand carries an #mx.encoding (mx-set-encodings ran).
    bool hasEncodedOperands();
  }];
}

//===----------------------------------------------------------------------===//
// GroupedScaledContractionOp
//===----------------------------------------------------------------------===//

def MX_GroupedScaledContractionOp : MX_Op<"grouped_scaled_contraction", [
    NoMemoryEffect,
    DeclareOpInterfaceMethods<DestinationStyleOpInterface>]> {
  let summary = "MX contraction of row groups with per-group weights (MoE)";
  let description = [{
    The grouped GEMM of a mixture-of-experts layer: `lhs` (`[T, K]`) holds
    the activation rows grouped by expert, `rhs` (`[E, N, K]`) the weights of
    the `E` experts, each with its own scales, and `offsets` (`[E + 1]`,
    `i32`, `i64` or `index`) the row ranges: rows `offsets[e]` to
    `offsets[e + 1] - 1` of `lhs` and `acc` belong to expert `e`. For every
    row `t` of a group `e`:

    ```
    result[t, n] = acc[t, n] + sum_k decode(lhs[t, k]) * 2^(lhs_scales[t, k/32] - 127)
                                   * decode(rhs[e, n, k]) * 2^(rhs_scales[e, n, k/32] - 127)
    ```

    in f32, with the arithmetic of `mx.scaled_contraction`. Rows that belong
    to no group (before `offsets[0]` or from `offsets[E]` on) are `acc`
    unchanged. Groups may be empty (`offsets[e] == offsets[e + 1]`).

    The offsets are run-time values. They must be non-decreasing and lie in
    `[0, T]`; an executable lowering checks this before it reads any row and
    reports inconsistent offsets as a run-time error instead of computing
    (the CPU path makes `mx-run` fail with a message). Where they are
    constants the verifier checks them.

    vLLM/AITER's sorted-token-ids form (`sorted_token_ids` padded per expert
    to a block size, one expert id per block) is this op after a row gather:
    gathering `lhs` rows by `sorted_token_ids` (padding ids give zero rows)
    yields rows grouped by expert, and the block boundaries are the offsets.

    Data operands have an MX element type (`lhs` and `rhs` may differ),
    scales `f8E8M0FNU`, the accumulator `f32`; `K` must be a multiple of 32.
    The op is destination-style: `acc` is the init and the result has its
    type.

    Example (4 experts, 64 rows):

    ```mlir
    %r = mx.grouped_scaled_contraction
        ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>,
                              tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
        offsets(%offsets : tensor<5xi32>)
        outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
      AnyRankedTensor:$lhs_scales, AnyRankedTensor:$rhs_scales,
      AnyRankedTensor:$offsets, AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    `ins` `(` $lhs `,` $rhs `,` $lhs_scales `,` $rhs_scales `:` type($lhs) `,`
      type($rhs) `,` type($lhs_scales) `,` type($rhs_scales) `)`
    `offsets` `(` $offsets `:` type($offsets) `)`
    `outs` `(` $acc `:` type($acc) `)` attr-dict `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// RoutedScaledContractionOp
//===----------------------------------------------------------------------===//

def MX_RoutedScaledContractionOp : MX_Op<"routed_scaled_contraction", [
    NoMemoryEffect,
    DeclareOpInterfaceMethods<DestinationStyleOpInterface>]> {
  let summary = "MoE grouped GEMM in the sorted-token-ids form (vLLM/AITER)";
  let description = [{
    The grouped GEMM of a mixture-of-experts layer with its routing given
    the way vLLM's and AITER's `moe_align_block_size` / `moe_sorting` give
    it: `sorted_ids` (`[P]`, `i32`) lists the routed rows expert by expert,
    each expert's list padded to a multiple of the block size, and
    `expert_ids` (`[NB]`, `i32`) names the expert of each block of
    `P / NB` consecutive positions. A routed row `r` is token `r / top_k`'s
    `r % top_k`-th choice: `lhs` (`[T, K]`) holds the tokens, `acc` and the
    result (`[T * top_k, N]`) the routed rows, `rhs` (`[E, N, K]`) the
    experts' weights with their own scales. For every position `i` whose row
    `r = sorted_ids[i]` lies in `[0, T * top_k)` and whose block's expert
    `e = expert_ids[i / (P / NB)]` lies in `[0, E)`:

    ```
    result[r, n] = acc[r, n] + sum_k decode(lhs[r / top_k, k]) * 2^(lhs_scales[r / top_k, k/32] - 127)
                                   * decode(rhs[e, n, k]) * 2^(rhs_scales[e, n, k/32] - 127)
    ```

    in f32, with the arithmetic of `mx.scaled_contraction`. Other positions
    (the padding ids, conventionally `T * top_k`, and blocks of an expert id
    outside `[0, E)`, e.g. the -1 of experts on another rank) compute
    nothing, and rows that no position names keep `acc`. Each row must be
    named by at most one position, of any block (`moe_align_block_size`
    names each once; a GPU kernel from a +0.0 `acc` may write the rows of a
    block of an expert outside `[0, E)`): a row named twice is inconsistent
    routing, which the host path and the reference report as a run-time
    error (leaving `acc` unchanged), and for which a GPU kernel
    (e.g. gfx950's) writes one of the competing results.

    `all_rows_named` promises that the routing names every row: each of the
    `T * top_k` rows is named by exactly one position (of any block), as
    `moe_align_block_size` names them. The result is the same; what it
    changes is that no row keeps `acc` untouched, so a `+0.0` fill of `acc`
    is never seen and data tiling drops it (nothing writes the fill before
    the GEMM). A routing that leaves a row unnamed breaks the promise: the host
    path and the reference report it as a run-time error, and a GPU kernel
    leaves such a row undefined. It needs at least `T * top_k` positions.

    `NB` must divide `P`. Data operands have an MX element type (`lhs` and
    `rhs` may differ), scales `f8E8M0FNU`, the accumulator `f32`; `K` must be
    a multiple of 32. The op is destination-style: `acc` is the init and the
    result has its type.

    Example (8 tokens, top 2, 4 experts, blocks of 16 rows):

    ```mlir
    %r = mx.routed_scaled_contraction top_k = 2
        ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>,
                              tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
        routing(%sorted_ids, %expert_ids : tensor<64xi32>, tensor<4xi32>)
        outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
    ```

    With every row named (a fill of `acc` with `+0.0` is then never
    written):

    ```mlir
    %r = mx.routed_scaled_contraction top_k = 2
        ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>,
                              tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
        routing(%sorted_ids, %expert_ids : tensor<64xi32>, tensor<4xi32>)
        outs(%zeros : tensor<16x128xf32>) {all_rows_named} -> tensor<16x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
      AnyRankedTensor:$lhs_scales, AnyRankedTensor:$rhs_scales,
      AnyRankedTensor:$sorted_ids, AnyRankedTensor:$expert_ids,
      AnyRankedTensor:$acc, ConfinedAttr<I64Attr, [IntPositive]>:$top_k,
      UnitAttr:$all_rows_named);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    `top_k` `=` $top_k
    `ins` `(` $lhs `,` $rhs `,` $lhs_scales `,` $rhs_scales `:` type($lhs) `,`
      type($rhs) `,` type($lhs_scales) `,` type($rhs_scales) `)`
    `routing` `(` $sorted_ids `,` $expert_ids `:` type($sorted_ids) `,`
      type($expert_ids) `)`
    `outs` `(` $acc `:` type($acc) `)` attr-dict `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// GatherRowsOp
//===----------------------------------------------------------------------===//

def MX_GatherRowsOp : MX_Op<"gather_rows", [Pure,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
        ["reifyResultShapes"]>]> {
  let summary = "gather rows by index (a routed GEMM's lhs in sorted order)";
  let description = [{
    Row `i` of the result is row `ids[i] / divisor` of `source` (`ids` is a
    `[P]` tensor of `i32`), or zero bits (zero data, scale byte 0) where
    `ids[i]` is negative or `ids[i] / divisor` is past the last row. With
    `divisor = top_k` and the `sorted_ids` of `mx.routed_scaled_contraction`
    it gathers the tokens of the routed rows in sorted order.

    It moves whole rows, so `mx-pack-to-bytes` stores sub-byte rows as bytes
    and `mx-fuse-relayouts` fuses it into the relayout that packs the tiles.

    Example:

    ```mlir
    %g = mx.gather_rows %a[%ids] divisor = 2
        : tensor<8x256xf4E2M1FN>, tensor<64xi32> -> tensor<64x256xf4E2M1FN>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, AnyRankedTensor:$ids,
      ConfinedAttr<I64Attr, [IntPositive]>:$divisor);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `[` $ids `]` `divisor` `=` $divisor attr-dict `:` type($source)
      `,` type($ids) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// For row `row` of the result: the source row it copies (clamped into
    /// `source`, `sourceRows` rows) and whether it copies one (else it is
    /// zero), reading `ids` (a tensor) with tensor.extract; this is the one
    /// home of the op's row formula.
    std::pair<Value, Value> buildSourceRow(OpBuilder &b, Location loc,
                                           Value sourceRows, Value row);
  }];
}

//===----------------------------------------------------------------------===//
// GatherRowTilesOp
//===----------------------------------------------------------------------===//

def MX_GatherRowTilesOp : MX_Op<"gather_row_tiles", [Pure,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
        ["reifyResultShapes"]>]> {
  let summary = "gather row ranges into tiles of rows (a grouped GEMM's lhs)";
  let description = [{
    Copies, for each row `mo` of `tile_groups` (`[Mo, 3]` of `i32`: group,
    first row `f`, row count `c`, as `mx.tiled_scaled_mma` reads them), rows
    `f .. f + c - 1` of `source` into rows `mo * tile_rows ..` of the result;
    the tile's other rows, and rows that would lie outside `source`, are
    zero bits (zero data, and scale byte 0, 2^-127, which cannot make a NaN).
    The result has `Mo * tile_rows` rows and the columns of `source`.

    `mx-materialize-encodings` uses it to give every expert's rows of a
    grouped GEMM (`mx.grouped_scaled_contraction`) tiles of their own; it
    moves whole rows, so `mx-pack-to-bytes` stores sub-byte rows as bytes,
    and `mx-fuse-relayouts` fuses it into the relayout that packs the tiles.

    With `undefined_empty_tiles` the rows of a tile whose row count `c` is
    0 are undefined instead: the relayout that packs the tiles neither
    reads nor writes them. `mx-materialize-encodings` sets it, as
    `mx.tiled_scaled_mma` reads no tile without rows: the grid holds the
    tile rows' bound for the worst routing, (T + E (tile_rows - 1)) /
    tile_rows, twice the tiles an even routing of DeepSeek-V3's 1024 tokens
    over 32 experts fills.

    Example (16-row tiles of 64 fp4 columns):

    ```mlir
    %p = mx.gather_row_tiles %a[%tiles] tile_rows = 16
        : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
    %q = mx.gather_row_tiles %a[%tiles] tile_rows = 16 undefined_empty_tiles
        : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, AnyRankedTensor:$tile_groups,
      ConfinedAttr<I64Attr, [IntPositive]>:$tile_rows,
      UnitAttr:$undefined_empty_tiles);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `[` $tile_groups `]` `tile_rows` `=` $tile_rows
      (`undefined_empty_tiles` $undefined_empty_tiles^)? attr-dict `:`
      type($source) `,` type($tile_groups) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// For row `row` of the result: the source row it copies (clamped into
    /// `source`, `sourceRows` rows) and whether it copies one (else it is
    /// zero), reading `tile_groups` (a tensor) with tensor.extract; this is
    /// the one home of the op's row formula.
    std::pair<Value, Value> buildSourceRow(OpBuilder &b, Location loc,
                                           Value sourceRows, Value row);
    /// For row `row` of the result: whether it is defined (an i1: its
    /// tile has rows, or always without `undefined_empty_tiles`); null
    /// when every row is.
    Value buildRowDefined(OpBuilder &b, Location loc, Value row);
  }];
}

//===----------------------------------------------------------------------===//
// Encoding ops
//===----------------------------------------------------------------------===//

def MX_SetEncodingOp : MX_Op<"set_encoding", [Pure]> {
  let summary = "attach an #mx.encoding to a tensor";
  let description = [{
    Returns `source` with an `#mx.encoding` on its type; shape and element
    type are unchanged. `mx-materialize-encodings` turns it into the
    relayout that produces the data-tiled layout the target resolved
    (`linalg.pack` + `tensor.expand_shape` + `linalg.transpose`).

    Example:

    ```mlir
    %e = mx.set_encoding %a : tensor<64x256xf4E2M1FN> -> tensor<64x256xf4E2M1FN, #lhs>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    EncodingAttr getEncoding() {
      return cast<EncodingAttr>(getResult().getType().getEncoding());
    }
  }];
}

def MX_UnsetEncodingOp : MX_Op<"unset_encoding", [Pure]> {
  let summary = "drop the #mx.encoding of a tensor";
  let description = [{
    The inverse of `mx.set_encoding`: returns the tensor in its plain
    row-major form. `result_dims` gives the dynamic sizes of the result, in
    order. Materialized as `linalg.transpose` + `tensor.collapse_shape` +
    `linalg.unpack`.

    Example:

    ```mlir
    %r = mx.unset_encoding %e : tensor<64x64xf32, #result> -> tensor<64x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, Variadic<Index>:$result_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source (`dims` `(` $result_dims^ `)`)? attr-dict `:` type($source) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    EncodingAttr getEncoding() {
      return cast<EncodingAttr>(getSource().getType().getEncoding());
    }
  }];
}

//===----------------------------------------------------------------------===//
// TiledScaledMMAOp
//===----------------------------------------------------------------------===//

def MX_TiledScaledMMAOp : MX_Op<"tiled_scaled_mma", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<DestinationStyleOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "scaled MMA over data-tiled operands";
  let description = [{
    The materialized form of an encoded `mx.scaled_contraction`. Every
    operand is a tensor of tiles laid out by `layout` (an attribute that
    implements `TiledLayoutAttrInterface`, e.g. `#mx.data_tiled_layout`):
    `B` leading batch dimensions, then two outer tile indices, then the
    swizzled inner tile of the operand's role:

    ```
    lhs        [B.., Mo, Ko, swizzled lhs tile]
    rhs        [B.., No, Ko, swizzled rhs tile]
    lhs_scales [B.., Mo, Ko, swizzled lhs_scales tile]
    rhs_scales [B.., No, Ko, swizzled rhs_scales tile]
    acc        [B.., Mo, No, swizzled result tile]
    ```

    For every batch and outer index, `acc[b, mo, no] += sum_ko
    tile_mma(lhs[b, mo, ko], rhs[b, no, ko], scales)`, where the tiles,
    unswizzled, are plain `[M, K] x [N, K]` scaled contractions with one scale
    per 32 K elements (exact products, f32 accumulation).

    On tensors the op returns the updated accumulator; on memrefs (after
    bufferization) it updates `acc` in place and has no result.

    With `zero_acc` the accumulator starts at +0.0: `acc` only gives the
    result's shape (and, on memrefs, its buffer) and is not read. The
    canonicalizer sets it when `acc` is a fill with +0.0 (a `linalg.fill`,
    or a `linalg.generic` without inputs that yields +0.0), so a GEMM from
    zero needs no accumulator buffer to be filled, relaid out or loaded.

    `acc` may also be in the user's layout, `[B.., M, N]` with M and N
    within the last tile of the operands' tile counts: the op then reads and
    writes the accumulator in place, and the rows and columns of the padded
    tiles past M and N are neither read nor written.

    An `epilogue` (only with `zero_acc` and an accumulator in the user's
    layout) applies an elementwise function to each f32 sum before it is
    stored: its block takes the sum, one element of each epilogue input (at
    the input's indexing map of the result's `(B.., m, n)`) and the current
    element of `acc` (not to be used), and yields the stored value, of
    `acc`'s element type (e.g. bf16 after an `arith.truncf`, or a bias add
    and an activation such as SiLU `x / (1 + exp(-x))` or GELU-tanh with
    `math.tanh`). Without an epilogue `acc` holds f32. The block is scalar
    `arith` and `math` code; which ops a target's kernels compute is the
    target's to say (`LayoutResolverAttrInterface::checkEpilogueOp`, asked
    by `mx-fuse-epilogues`).

    With `tile_groups` (the grouped GEMM of a mixture-of-experts layer, see
    `mx.grouped_scaled_contraction`) the op has no batch dimensions; `rhs`
    and `rhs_scales` have one leading group (expert) dimension `E`, and
    `tile_groups` (`[Mo, 3]` of `i32`) says, for each M tile `mo` of `lhs`,
    `(group e, first row f, row count c)`: rows `0 .. c - 1` of the tile are
    rows `f .. f + c - 1` of `acc`, which must be in the user's layout
    (`[T, N]`, any T), and are contracted with `rhs[e]`. Tiles with `c == 0`
    compute nothing, and rows of `acc` that no tile names keep their value
    (with `zero_acc` the tiles' rows start at +0.0 and are not read, and
    the others keep `acc`'s: the canonicalizer sets it when `acc` is a +0.0
    fill and keeps the fill as `acc`; no epilogue). The producer guarantees
    `c <= ` the tile's rows, `0 <= f`, `f + c <= T` and `0 <= e < E` where
    `c > 0`. Tiles of different groups may lie in one `lhs`, which is how one
    launch serves every expert. With `row_ids` too (`[Mo * tile rows]` of
    `i32`, the routed form of `mx.routed_scaled_contraction`), row `r < c` of
    tile `mo` is row `row_ids[mo * tile rows + r]` of `acc` instead (none
    where that is outside `acc`), and `f` is not used. The routed form may
    instead give `tile_groups` as the expert of each block of `row_ids`
    (`[blocks]` of `i32`, each block whole M tiles, as
    `mx.routed_scaled_contraction`'s `expert_ids`): tile `mo` is then
    `(e, -, tile rows)` with `e` the expert of its block, or has no rows
    where `e` is outside `[0, E)`; the kernel reads it, with no table to
    build. With `row_ids`, `zero_acc` and `zero_empty_tiles`, every row of
    `acc` that `row_ids` names is written, +0.0 by a tile without rows, so
    that the rows of `acc` that keep their value are exactly the rows no id
    names (each row is named at most once); the canonicalizer sets it, and
    drops `acc`'s +0.0 fill, when the result is read only at those rows.
    With a tile table, `zero_acc` and `zero_empty_tiles`, a tile whose group
    is outside `[0, E)` writes +0.0 at its rows `f .. f + c - 1` instead of
    computing, and the table promises that every row of `acc` is some
    tile's: `mx-materialize-encodings` builds such a table for a grouped
    contraction from a +0.0 fill (the tiles past the experts' name the rows
    outside every expert), so no fill of `acc` is needed. With an
    `epilogue`, those tiles write its value of +0.0:

    ```mlir
    %g = mx.tiled_scaled_mma
        ins(%a, %b, %sa, %sb : tensor<8x2x1x16x32xf4E2M1FN>, tensor<4x2x2x1x16x32xf4E2M1FN>,
                              tensor<8x2x1x16xf8E8M0FNU>, tensor<4x2x2x1x16xf8E8M0FNU>)
        tile_groups(%tiles : tensor<8x3xi32>)
        outs(%acc : tensor<40x32xf32>) layout = #layout -> tensor<40x32xf32>
    // Routed: blocks of 32 sorted positions (2 tiles each), the expert of
    // each block given, rows of %acc named by %ids.
    %r = mx.tiled_scaled_mma
        ins(%a, %b, %sa, %sb : tensor<8x2x1x16x32xf4E2M1FN>, tensor<4x2x2x1x16x32xf4E2M1FN>,
                              tensor<8x2x1x16xf8E8M0FNU>, tensor<4x2x2x1x16xf8E8M0FNU>)
        tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
        outs(%acc : tensor<40x32xf32>) layout = #layout -> tensor<40x32xf32>
    ```

    Any operand but `acc` may instead be given as `i8` holding the bytes of
    the layout's element type (see `mx-pack-to-bytes`): the same shape, except
    that for sub-byte types (f4E2M1FN, f6E2M3FN, f6E3M2FN) the innermost
    dimension counts bytes of packed elements (32 fp4 values are 16 bytes,
    32 fp6 values 24 bytes).

    Example (16x16x128, 1 wave, one intrinsic per tile):

    ```mlir
    %r = mx.tiled_scaled_mma
        ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16x32xf4E2M1FN>,
                              tensor<4x2x4x16xf8E8M0FNU>, tensor<4x2x4x16xf8E8M0FNU>)
        outs(%c : tensor<4x4x4x16x4xf32>) layout = #layout -> tensor<4x4x4x16x4xf32>
    // The same from a zero accumulator (%e is only a destination).
    %z = mx.tiled_scaled_mma
        ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16x32xf4E2M1FN>,
                              tensor<4x2x4x16xf8E8M0FNU>, tensor<4x2x4x16xf8E8M0FNU>)
        outs(%e : tensor<4x4x4x16x4xf32>) layout = #layout zero_acc -> tensor<4x4x4x16x4xf32>
    // In the user's layout (64 x 60 of the 4 x 4 tiles), from zero, with a
    // bias along N and the result rounded to bf16.
    %d = mx.tiled_scaled_mma
        ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16x32xf4E2M1FN>,
                              tensor<4x2x4x16xf8E8M0FNU>, tensor<4x2x4x16xf8E8M0FNU>)
        outs(%out : tensor<64x60xbf16>) layout = #layout zero_acc
        epilogue ins(%bias : tensor<60xf32>) maps [affine_map<(m, n) -> (n)>] {
    ^bb0(%sum: f32, %x: f32, %old: bf16):
      %s = arith.addf %sum, %x : f32
      %t = arith.truncf %s : f32 to bf16
      mx.yield %t : bf16
    } -> tensor<64x60xbf16>
    ```
  }];
  let arguments = (ins MX_RankedTensorOrMemRef:$lhs,
      MX_RankedTensorOrMemRef:$rhs, MX_RankedTensorOrMemRef:$lhs_scales,
      MX_RankedTensorOrMemRef:$rhs_scales, MX_RankedTensorOrMemRef:$acc,
      Optional<MX_RankedTensorOrMemRef>:$tile_groups,
      Optional<MX_RankedTensorOrMemRef>:$row_ids,
      MX_TiledLayoutAttrInterface:$layout, UnitAttr:$zero_acc,
      UnitAttr:$zero_empty_tiles,
      Variadic<MX_RankedTensorOrMemRef>:$epilogue_inputs,
      OptionalAttr<AffineMapArrayAttr>:$epilogue_maps);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region VariadicRegion<AnyRegion>:$epilogue);
  let assemblyFormat = [{
    `ins` `(` $lhs `,` $rhs `,` $lhs_scales `,` $rhs_scales `:` type($lhs) `,`
      type($rhs) `,` type($lhs_scales) `,` type($rhs_scales) `)`
    (`tile_groups` `(` $tile_groups^ `:` type($tile_groups) `)`)?
    (`row_ids` `(` $row_ids^ `:` type($row_ids) `)`)?
    `outs` `(` $acc `:` type($acc) `)` `layout` `=` $layout
    (`zero_acc` $zero_acc^)? (`zero_empty_tiles` $zero_empty_tiles^)? ``
    custom<Epilogue>($epilogue_inputs, type($epilogue_inputs), $epilogue_maps,
                     $epilogue)
    attr-dict (`->` type($results)^)?
  }];
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$results, "::mlir::Value":$lhs,
      "::mlir::Value":$rhs, "::mlir::Value":$lhs_scales,
      "::mlir::Value":$rhs_scales, "::mlir::Value":$acc,
      "::mlir::mx::TiledLayoutAttrInterface":$layout,
      CArg<"bool", "false">:$zero_acc), [{
      build($_builder, $_state, results, lhs, rhs, lhs_scales, rhs_scales, acc,
            /*tile_groups=*/::mlir::Value(), /*row_ids=*/::mlir::Value(),
            layout, zero_acc, /*zero_empty_tiles=*/false,
            ::mlir::ValueRange(), ::mlir::ArrayAttr(), /*epilogueCount=*/0);
    }]>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// Number of leading batch dimensions.
    unsigned getNumBatchDims();
    /// The updated accumulator of the tensor form.
    Value getResult() { return getResults().front(); }
    /// Whether `acc` is in the user's layout ([B.., M, N]) rather than
    /// data-tiled.
    bool hasUserLayoutAcc();
    /// Whether M tiles name their group and rows (`tile_groups`).
    bool isGrouped() { return static_cast<bool>(getTileGroups()); }
    /// Whether an epilogue transforms the sums before they are stored.
    bool hasEpilogue() { return !getEpilogue().empty(); }
    /// The epilogue's block (with an epilogue).
    ::mlir::Block &getEpilogueBlock() { return getEpilogue().front().front(); }
    /// Verifies the epilogue region, inputs and maps.
    ::llvm::LogicalResult verifyEpilogue(int64_t numBatch, bool userLayoutAcc);
  }];
}

def MX_YieldOp : MX_Op<"yield", [Pure, Terminator, ReturnLike,
    HasParent<"TiledScaledMMAOp">]> {
  let summary = "the value an mx.tiled_scaled_mma epilogue stores";
  let description = [{
    Terminates the epilogue region of `mx.tiled_scaled_mma` with the value
    stored for one element of the result.

    Example:

    ```mlir
    mx.yield %t : bf16
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // MX_DIALECT_MX_IR_MXOPS_TD
