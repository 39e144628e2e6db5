#!/usr/bin/env python3
"""A whole MXFP4 mixture-of-experts FFN layer as one mx program (issue 38).

    out[t] = sum_j w[t, j] * down_e(SwiGLU(gate_up_e(x_t))),  e = ids[t, j]

The one home of the layer's program: `program()` writes it for any shape;
examples/moe_layer_mxfp4.mlir is its rendering for the small configuration
(`example` prints it; test/Examples/moe-layer-mxfp4.mlir checks that the file
is current).

Conventions (docs in the example's header):
  tokens    x [T, H] bf16, quantized in the program to MXFP4 along H
            (scale(even) rounding(nearest_even));
  weights   W_gate_up [E, 2I, H] and W_down [E, H, I] in MXFP4 with E8M0
            scales [E, 2I, H/32], [E, H, I/32]: the unshuffled layout of the
            model files (gpt-oss's `*_blocks` [E, N, K/32, 16] bytes, two fp4
            codes per byte, element 2i in the low nibble, and `*_scales`
            [E, N, K/32]; AITER's weights before `shuffle_weight`). Rows
            [0, I) of W_gate_up are the gate, rows [I, 2I) the up projection
            (AITER's / DeepSeek's stacking; gpt-oss interleaves them and clamps
            its SwiGLU, which this layer does not model);
  routing   top-k ids and weights [T, k] as the router gives them, and their
            sorted form (moe_align_block_size / AITER moe_sorting, computed by
            `align_block_size` on the host): sorted_ids [P] lists the routed
            rows r = t * k + j expert by expert, each expert's list padded to a
            multiple of the block with the id T * k, expert_ids [P / block]
            names each block's expert (-1 for the unused tail). Every
            routed row is named once, which both routed GEMMs state
            (`all_rows_named`): their +0.0 fills are never written.
  packing   the weights and their scales are arguments marked `mx.prepack`:
            mx-hoist-argument-relayouts moves their relayouts (into the
            GEMMs' layouts) into packing functions @moe_layer_prepack_<argno>
            that run once per model load, as AITER's shuffle_weight does; the
            layer takes the packed weights (--no-prepack: relaid out on every
            call). Runners pass the logical weights and pack them.
The intermediate SwiGLU(gate, up) = gate / (1 + exp(-gate)) * up is rounded
to bf16 and quantized to MXFP4 along I (the down GEMM's K), as AITER's a4w4
fused MoE does between its two stages.

Subcommands:
  example           print the program for the small configuration
  check             run the small configuration (T=33, E=8, top-2, H=512,
                    I=256, expert 5 empty) on --backend against the
                    independent reference (bit-exact) and against this
                    file's numpy reference of the layer (its tolerance is
                    stated in `check`); --control swaps token 0's router
                    weights in the numpy reference only, which must FAIL
  table             the static model of the layer at the models' shapes and
                    the dispatch lists (per call; the packing functions'
                    dispatches apart, once per model load); --no-timing: no
                    timing model

Usage: bench/moe_layer.py example|check|table [--backend cpu|gfx950-emu|
       gfx950-isa] [--no-prepack] [--no-timing]
"""

import argparse
import math
import os
import re
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

# The small configuration of the proof.
SMALL = dict(t=33, e=8, top_k=2, h=512, i=256, block=16)
SMALL_EMPTY_EXPERT = 5


def positions(t, e, top_k, block):
    """P, the sorted positions' bound: every routed row once, and each
    expert that can have rows padded to whole blocks."""
    rows = t * top_k
    bound = rows + min(e, rows) * (block - 1)
    return -(-bound // block) * block


def program(t, e, top_k, h, i, block, prepack=True):
    """The layer as an mx program (MLIR text) for one static shape. With
    `prepack`, the weights and their scales are marked `mx.prepack`: packed
    into the GEMMs' layouts once per model load (mx-hoist-argument-relayouts),
    not on every call."""
    weight = " {mx.prepack}" if prepack else ""
    p = positions(t, e, top_k, block)
    nb = p // block
    r = t * top_k
    fp4, e8 = "f4E2M1FN", "f8E8M0FNU"
    kh, ki = h // 32, i // 32
    x, w1, s1 = ("%dx%dxbf16" % (t, h), "%dx%dx%dx%s" % (e, 2 * i, h, fp4),
                 "%dx%dx%dx%s" % (e, 2 * i, kh, e8))
    w2, s2 = "%dx%dx%dx%s" % (e, h, i, fp4), "%dx%dx%dx%s" % (e, h, ki, e8)
    lines = []
    out = lines.append

    def routed(empty, fill, result, k, names, types, n):
        """A routed GEMM of the routed rows from a +0.0 fill."""
        out("  %%%s = tensor.empty() : tensor<%dx%dxf32>" % (empty, r, n))
        out("  %%%s = linalg.fill ins(%%zero : f32) outs(%%%s : "
            "tensor<%dx%dxf32>) -> tensor<%dx%dxf32>" % (fill, empty, r, n, r,
                                                        n))
        out("  %%%s = mx.routed_scaled_contraction top_k = %d" % (result, k))
        out("      ins(%%%s, %%%s, %%%s, %%%s : tensor<%s>, tensor<%s>," %
            (names + types[:2]))
        out("          tensor<%s>, tensor<%s>)" % types[2:])
        out("      routing(%%sorted_ids, %%expert_ids : tensor<%dxi32>, "
            "tensor<%dxi32>)" % (p, nb))
        out("      outs(%%%s : tensor<%dx%dxf32>) {all_rows_named} -> "
            "tensor<%dx%dxf32>" % (fill, r, n, r, n))
    out("#id = affine_map<(m, n) -> (m, n)>")
    out("func.func @moe_layer(%%x: tensor<%s>," % x)
    out("    %%w_gate_up: tensor<%s>%s, %%s_gate_up: tensor<%s>%s," %
        (w1, weight, s1, weight))
    out("    %%w_down: tensor<%s>%s, %%s_down: tensor<%s>%s," %
        (w2, weight, s2, weight))
    out("    %%sorted_ids: tensor<%dxi32>, %%expert_ids: tensor<%dxi32>," %
        (p, nb))
    out("    %%topk_weights: tensor<%dx%dxf32>) -> tensor<%dx%dxbf16> {" %
        (t, top_k, t, h))
    out("  %zero = arith.constant 0.0 : f32")
    out("  // The tokens in MXFP4 (quantized inside the program).")
    out("  %xq, %xs = mx.quantize %x axis(1) scale(even) "
        "rounding(nearest_even)")
    out("      : tensor<%s> -> tensor<%dx%dx%s>, tensor<%dx%dx%s>" %
        (x, t, h, fp4, t, kh, e8))
    out("  // gate_up: each routed row r = t * %d + j times its expert's "
        "W_gate_up." % top_k)
    routed("e0", "z0", "gu", top_k, ("xq", "w_gate_up", "xs", "s_gate_up"),
           ("%dx%dx%s" % (t, h, fp4), w1, "%dx%dx%s" % (t, kh, e8), s1), 2 * i)
    out("  // SwiGLU(gate, up) = silu(gate) * up, rounded to bf16.")
    for name, offset in (("gate", 0), ("up", i)):
        out("  %%%s = tensor.extract_slice %%gu[0, %d] [%d, %d] [1, 1]"
            " : tensor<%dx%dxf32> to tensor<%dx%dxf32>" %
            (name, offset, r, i, r, 2 * i, r, i))
    out("  %%e1 = tensor.empty() : tensor<%dx%dxbf16>" % (r, i))
    out("  %act = linalg.generic {indexing_maps = [#id, #id, #id], "
        "iterator_types = [\"parallel\", \"parallel\"]}")
    out("      ins(%%gate, %%up : tensor<%dx%dxf32>, tensor<%dx%dxf32>) "
        "outs(%%e1 : tensor<%dx%dxbf16>) {" % (r, i, r, i, r, i))
    out("  ^bb0(%g: f32, %u: f32, %o: bf16):")
    out("    %one = arith.constant 1.0 : f32")
    out("    %ng = arith.negf %g : f32")
    out("    %ex = math.exp %ng : f32")
    out("    %den = arith.addf %ex, %one : f32")
    out("    %silu = arith.divf %g, %den : f32")
    out("    %prod = arith.mulf %silu, %u : f32")
    out("    %b = arith.truncf %prod : f32 to bf16")
    out("    linalg.yield %b : bf16")
    out("  } -> tensor<%dx%dxbf16>" % (r, i))
    out("  // The intermediate in MXFP4 along I, the down GEMM's K.")
    out("  %aq, %as = mx.quantize %act axis(1) scale(even) "
        "rounding(nearest_even)")
    out("      : tensor<%dx%dxbf16> -> tensor<%dx%dx%s>, tensor<%dx%dx%s>" %
        (r, i, r, i, fp4, r, ki, e8))
    out("  // down: routed row r times its expert's W_down (top_k = 1: the "
        "rows are the routed rows).")
    routed("e2", "z2", "y", 1, ("aq", "w_down", "as", "s_down"),
           ("%dx%dx%s" % (r, i, fp4), w2, "%dx%dx%s" % (r, ki, e8), s2), h)
    out("  // The weighted combine: out[t] = sum_j w[t, j] * y[t * %d + j], "
        "in f32, rounded to bf16." % top_k)
    out("  %%y3 = tensor.expand_shape %%y [[0, 1], [2]] output_shape "
        "[%d, %d, %d] : tensor<%dx%dxf32> into tensor<%dx%dx%dxf32>" %
        (t, top_k, h, r, h, t, top_k, h))
    out("  %%e3 = tensor.empty() : tensor<%dx%dxbf16>" % (t, h))
    maps = ", ".join(["affine_map<(m, n) -> (m, %d, n)>" % j
                      for j in range(top_k)] +
                     ["affine_map<(m, n) -> (m, %d)>" % j
                      for j in range(top_k)] + ["#id"])
    types = ", ".join(["tensor<%dx%dx%dxf32>" % (t, top_k, h)] * top_k +
                      ["tensor<%dx%dxf32>" % (t, top_k)] * top_k)
    ins = ", ".join(["%y3"] * top_k)
    wins = ", ".join(["%topk_weights"] * top_k)
    out("  %%out = linalg.generic {indexing_maps = [%s], "
        "iterator_types = [\"parallel\", \"parallel\"]}" % maps)
    out("      ins(%s, %s : %s) outs(%%e3 : tensor<%dx%dxbf16>) {" %
        (ins, wins, types, t, h))
    args = ", ".join(["%%v%d: f32" % j for j in range(top_k)] +
                     ["%%c%d: f32" % j for j in range(top_k)] + ["%o: bf16"])
    out("  ^bb0(%s):" % args)
    for j in range(top_k):
        out("    %%p%d = arith.mulf %%c%d, %%v%d : f32" % (j, j, j))
    acc = "%p0"
    for j in range(1, top_k):
        out("    %%s%d = arith.addf %s, %%p%d : f32" % (j, acc, j))
        acc = "%%s%d" % j
    out("    %%rb = arith.truncf %s : f32 to bf16" % acc)
    out("    linalg.yield %rb : bf16")
    out("  } -> tensor<%dx%dxbf16>" % (t, h))
    out("  return %%out : tensor<%dx%dxbf16>" % (t, h))
    out("}")
    return "\n".join(lines) + "\n"


HEADER = """\
// A whole MXFP4 mixture-of-experts FFN layer in mx ops (issue 38):
//   out[t] = sum_j topk_weights[t, j] * down_e(SwiGLU(gate_up_e(x_t))),
//   e = the j-th expert of token t,
// for T = 33 tokens, E = 8 experts, top 2, H = 512, I = 256, blocks of 16
// sorted positions. Generated by `python3 bench/moe_layer.py example` (the
// one home of the program: the benchmark writes it for the model shapes);
// bench/moe_layer.py's docstring states the conventions (weights in the
// model files' unshuffled MXFP4 layout, gate rows then up rows, the sorted
// routing of moe_align_block_size). The weights and their scales are marked
// `mx.prepack`: the pipeline packs them into the GEMMs' layouts in functions
// of their own that run once per model load, not on every call. Run it,
// bit-exact against the reference:
//   python3 bench/moe_layer.py check --backend=gfx950-emu
"""


# --- routing ----------------------------------------------------------------

def align_block_size(topk_ids, e, block, p):
    """vLLM's moe_align_block_size / AITER's moe_sorting: the routed rows
    r = t * k + j expert by expert in increasing r, each expert's list padded
    to a multiple of `block` with the id T * k; the blocks' experts; unused
    blocks of expert -1."""
    t, k = topk_ids.shape
    pad = t * k
    ids, experts = [], []
    flat = topk_ids.reshape(-1)
    for expert in range(e):
        rows = [r for r in range(pad) if flat[r] == expert]
        if not rows:
            continue
        blocks = -(-len(rows) // block)
        ids += rows + [pad] * (blocks * block - len(rows))
        experts += [expert] * blocks
    assert len(ids) <= p
    experts += [-1] * ((p - len(ids)) // block)
    ids += [pad] * (p - len(ids))
    return np.array(ids, np.int32), np.array(experts, np.int32)


def small_inputs(seed=38):
    """Inputs of the small configuration: tokens ~ N(0, 1) in bf16, random
    fp4 codes, weight scales in [118, 121] (so every GEMM sum stays exact in
    f32: see numpy_layer), distinct top-2 experts per token avoiding
    SMALL_EMPTY_EXPERT, router weights from a softmax."""
    c = SMALL
    rng = np.random.default_rng(seed)
    t, e, k, h, i = c["t"], c["e"], c["top_k"], c["h"], c["i"]
    x = rng.standard_normal((t, h)).astype(np.float32)
    w1 = rng.integers(0, 16, (e, 2 * i, h), dtype=np.uint8)
    s1 = rng.integers(118, 122, (e, 2 * i, h // 32), dtype=np.uint8)
    w2 = rng.integers(0, 16, (e, h, i), dtype=np.uint8)
    s2 = rng.integers(118, 122, (e, h, i // 32), dtype=np.uint8)
    experts = [x_ for x_ in range(e) if x_ != SMALL_EMPTY_EXPERT]
    topk = np.array([rng.choice(experts, k, replace=False) for _ in range(t)],
                    np.int32)
    logits = rng.standard_normal((t, k)).astype(np.float32)
    weights = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    weights = weights.astype(np.float32)
    p = positions(t, e, k, c["block"])
    ids, block_experts = align_block_size(topk, e, c["block"], p)
    return dict(x=x, w1=w1, s1=s1, w2=w2, s2=s2, topk=topk, weights=weights,
                ids=ids, experts=block_experts)


# --- the numpy reference of the layer ---------------------------------------

E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4,
                 -6])


def bf16_round(values):
    """f32 values rounded to bf16 (nearest even), as float32."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def quantize_fp4(values):
    """MXFP4 along the last axis in blocks of 32 with scale(even) and
    nearest-even rounding (the OCP spec's shared exponent from the block's
    amax rounded to the element type's precision, AITER's and Triton's rule;
    docs of mx.quantize): the dequantized values, float64. Inputs here are
    finite."""
    v = np.asarray(values, np.float64)
    blocks = v.reshape(v.shape[:-1] + (v.shape[-1] // 32, 32))
    amax = np.abs(blocks).max(-1, keepdims=True)
    # even: round amax to fp4's 2 significant bits (nearest even), then
    # floor(log2) - emax(2).
    mant, ex = np.frexp(amax)  # amax = mant * 2^ex, mant in [0.5, 1)
    rounded = np.round(mant * 4) / 4 * np.exp2(ex)  # 2 significant bits
    scale = np.where(amax > 0, np.floor(np.log2(np.where(rounded > 0, rounded,
                                                         1))) - 2, -127)
    scale = np.clip(scale, -127, 127)
    scaled = blocks / np.exp2(scale)
    grid = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6])
    mag = np.minimum(np.abs(scaled), 6)
    # Nearest grid point, ties to the even code (codes 0..7: even = last bit
    # 0).
    idx = np.searchsorted(grid, mag)
    lo = np.clip(idx - 1, 0, 7)
    hi = np.clip(idx, 0, 7)
    dlo, dhi = mag - grid[lo], grid[hi] - mag
    pick = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi,
                                            np.where(lo % 2 == 0, lo, hi)))
    q = np.copysign(grid[pick], scaled) * np.exp2(scale)
    return q.reshape(v.shape)


def dequantize_weights(codes, scales):
    """[.., N, K] fp4 codes (one per byte) and [.., N, K/32] E8M0 bytes to
    float64 values."""
    values = E2M1[codes]
    factor = np.exp2(scales.astype(np.float64) - 127)
    return values * np.repeat(factor, 32, axis=-1)


def numpy_layer(inputs):
    """The layer in numpy, from the definitions (no mx code): GEMM sums in
    float64 rounded once to f32, the elementwise steps in f32 in the program's
    order (exp in double rounded to f32, as the reference evaluates
    math.exp). With the small configuration's data the gate_up sums are
    exact in f32 (512 products of fp4 values with scales within 8 binades),
    so the intermediate is bit-identical; the down sums may round in f32 on
    the GPU in an order this reference does not follow, so `out` is compared
    within a bound (check())."""
    x = bf16_round(inputs["x"])
    topk, weights = inputs["topk"], inputs["weights"]
    t, k = topk.shape
    w1 = dequantize_weights(inputs["w1"], inputs["s1"])
    w2 = dequantize_weights(inputs["w2"], inputs["s2"])
    i = w1.shape[1] // 2
    xq = quantize_fp4(x)
    rows = t * k
    gu = np.stack([w1[topk[r // k, r % k]] @ xq[r // k] for r in range(rows)])
    gu = gu.astype(np.float32)
    gate, up = gu[:, :i], gu[:, i:]
    ex = np.exp(-gate.astype(np.float64)).astype(np.float32)
    silu = gate / (ex + np.float32(1))
    act = bf16_round(silu * up)
    aq = quantize_fp4(act)
    y64 = np.stack([w2[topk[r // k, r % k]] @ aq[r] for r in range(rows)])
    terms = np.stack([np.abs(w2[topk[r // k, r % k]]) @ np.abs(aq[r])
                      for r in range(rows)])
    y = y64.astype(np.float32).reshape(t, k, -1)
    acc = weights[:, 0:1] * y[:, 0]
    for j in range(1, k):
        acc = acc + weights[:, j:j + 1] * y[:, j]
    bound = (np.abs(weights)[:, :, None] *
             terms.reshape(t, k, -1)).sum(1)
    return bf16_round(acc), bound


# --- the benchmark ------------------------------------------------------------

# (name, E, top_k, H, I, tokens, published): gpt-oss-120b's and DeepSeek-R1's
# expert shapes (the models' configs: 128 experts, top 4, hidden and
# intermediate 2880; 256 experts, top 8, hidden 7168, intermediate 2048),
# and the DeepSeek-R1 shape AITER's tuned fused_moe table publishes (TP 8:
# 257 experts with the shared one, top 9, intermediate 256; its times
# include the activation's quantize and the sorting;
# reference/performance-anchors.md section 6: 65.5 / 161.5 us at 16 / 512
# tokens).
CONFIGS = [
    ("gpt-oss-120b", 128, 4, 2880, 2880, (1, 4, 64, 1024), {}),
    ("DeepSeek-R1", 256, 8, 7168, 2048, (1, 4, 64, 1024), {}),
    ("DeepSeek-R1 TP8", 257, 9, 7168, 256, (16, 512),
     {16: 65.5, 512: 161.5}),
]
# The configurations whose dispatch lists the table prints.
LISTED_TOKENS = (4, 1024)
HBM_PEAK = 8e12  # MI355X, bytes/s (the static model's hbm_bytes_per_s)


def block_candidates(rows):
    """The sorted form's blocks the table tries (AITER's moe_sorting
    block_m choices, tuned per shape as AITER's fused_moe configurations
    are): 16 or 32 rows for decode, 32 or 64 for prefill."""
    return (16, 32) if rows <= 1024 else (32, 64)


def layer_dispatches(mx_opt, config, prepack=True):
    """The layer's dispatches at `config`: per call (the layer's function)
    and once per model load (the weights' packing functions, with
    `prepack`), each a list of (kernel, workgroups, bytes its buffers view,
    bytes of those that are the weights' arguments); and how the combine
    runs: "dispatch", "strip" (in the down kernel, by the last wave of each
    strip of N tiles: one atomic count) or "rows" (row by row: two); and
    the bytes of the GEMMs' results that an earlier dispatch writes first
    (moe_metrics.prefilled_output_bytes)."""
    import moe_metrics
    import ukernel_static_metrics as usm
    ir, _ = usm.run([mx_opt, "-", "--mx-gfx950-pipeline=output=gpu"],
                    program(prepack=prepack, **config))
    per_call, once = [], []
    fills = 0
    # The host functions: the layer's, then its packing functions
    # (@moe_layer_prepack_<argno>, whose only argument is a weight).
    for function in re.split(r"^  func\.func ", ir, flags=re.M)[1:]:
        name = re.match(r"@(\w+)", function).group(1)
        packing = name != "moe_layer"
        args_of = re.findall(r"gpu\.launch_func\s+@[\w.]+::@\w+ .*"
                             r"args\((.*)\)\s*$", function, re.M)
        for (kernel, blocks, _, _), args in zip(usm.parse_launches(function),
                                                args_of):
            viewed = weights = 0
            for arg in usm.split_args(args):
                value, memref = arg.split(" : ", 1)
                size = usm.memref_bytes(memref)
                viewed += size
                # %arg1 .. %arg4 of the layer: W_gate_up, its scales, W_down,
                # its scales (packed with `prepack`).
                if packing or value.strip() in ("%arg1", "%arg2", "%arg3",
                                                "%arg4"):
                    weights += size
            groups = math.prod(int(b) for b in blocks)
            (once if packing else per_call).append((kernel, groups, viewed,
                                                    weights))
        if not packing:
            fills = moe_metrics.prefilled_output_bytes(function)
    down = re.search(r"gpu\.module @moe_layer_mma1 .*?^  \}", ir,
                     re.S | re.M)
    atomics = down.group(0).count("memref.atomic_rmw") if down else 0
    combine = {0: "dispatch", 1: "strip", 2: "rows"}[atomics]
    return per_call, once, combine, fills


def column_tail_us(t, top_k, tile_n, combine_bytes, rows=False):
    """What the combine adds after the down GEMM's last wave when it runs in
    the GEMM's kernel (mx.column_consumer) instead of as a dispatch, under
    this table's convention that a dispatch boundary (the kernel's final
    release, the next kernel's acquire, the launch) and a dispatch's load
    latency are not charged: the last wave of each strip of N tiles (the
    strips run at once, on different CUs) counts itself with an atomic, one
    global round trip, then computes the strip's t x tile_n outputs, up to
    16 per lane per round of loads, each round after the first one more
    global latency, and the strip's bytes (its k rows of f32 sums, the
    weights, the bf16 stores) through the CU's L2 path; at least the
    combine's bytes at HBM speed, as the dispatch is charged. The count's
    release and acquire (buffer_wbl2 before the atomic, buffer_inv after
    it) stand where the boundary's would be and are not charged either;
    the launch saved is not credited. With `rows` (the combine row by row:
    each wave counts its tile's rows, the wave completing an output row
    computes it, the strip's last wave reads every row's count), the last
    tile's waves wait for two counts in a row, then one round of loads for
    their completed rows or the strip's counts: three global latencies,
    and the combine's bytes at HBM speed (spread over the CUs, not through
    one). The constants are mx_perf_model's (MachineModel.def;
    global_latency assumed)."""
    import mx_perf_model
    machine = mx_perf_model.Machine()
    if rows:
        return (3 * machine.global_latency / machine.clock_hz +
                combine_bytes / HBM_PEAK) * 1e6
    elements = t * tile_n
    rounds = math.ceil(elements / (64 * 16))
    strip_bytes = elements * (top_k * 4 + 2) + t * top_k * 4
    cycles = (machine.global_latency * rounds +
              strip_bytes / machine.l2_bytes_per_clk_cu)
    return max(cycles / machine.clock_hz, combine_bytes / HBM_PEAK) * 1e6


def timed_gemm(config, gemm, tmp, rows=None):
    """The timing model's seconds of a routed GEMM of the layer: its kernel
    (the same layout, pinned) timed on one workgroup's tile over the whole
    K (`mx-run --backend=gfx950-isa --timing-model`), then in rounds of the
    CUs over its active tiles (as bench/mx_timing.py does), with
    mx_timing's efficiency fitted on AITER. The timed tile's ids are zeros
    (every row holds a token), or with `rows` its first `rows` rows hold
    tokens and the others are padding."""
    import mx_timing
    import moe_metrics
    (tile_m, tile_n, _), k = gemm["tile_mnk"], gemm["k"]
    # (A kernel that quantizes its A: the same, from bf16 tokens.)
    form, args, pins = moe_metrics.ROUTED_ZERO, 6, gemm["pins"]
    if gemm["in_gemm"]:
        form, args = moe_metrics.ROUTED_QUANTIZED_ZERO, 5
        pins += " quantize-in-gemm=always"
    text = form.format(
        T=tile_m, TOK=tile_m, TOPK=1, E=1, N=tile_n, K=k, KB=k // 32,
        A=moe_metrics.FP4, B=moe_metrics.FP4, P=tile_m, NB=1)
    specs = None
    if rows is not None:
        ids = os.path.join(tmp, "ids.npy")
        np.save(ids, np.array([r if r < rows else tile_m
                               for r in range(tile_m)], dtype=np.int32))
        # (tokens, B, B's scales, [A's scales,] ids, experts)
        specs = ["zeros"] * (args - 2) + ["npy:" + ids, "zeros"]
    r = mx_timing.time_program(text, pins, args, tmp, args=specs)
    tile = r["fixed_cycles"] + r["loop_iterations"] * r["cycles_per_iteration"]
    rounds = math.ceil(gemm["active"] / (256 * r["workgroups_per_cu"]))
    return rounds * tile / config["clock"] / config["efficiency"]


def evaluate_layer(mx_opt, name, e, top_k, h, i, t, tmp, timing,
                   prepack=True, block=None):
    """The layer's dispatches and times with routing blocks of `block` rows
    (None: the block_candidates with the least static time, then timed)."""
    import moe_metrics
    rows = t * top_k
    if block is None:
        best = min((evaluate_layer(mx_opt, name, e, top_k, h, i, t, tmp, None,
                                   prepack, b)
                    for b in block_candidates(rows)),
                   key=lambda r: r["static"])
        if not timing:
            return best
        block = best["block"]
    config = dict(t=t, e=e, top_k=top_k, h=h, i=i, block=block)
    dispatches, load, combine_mode, fills = layer_dispatches(mx_opt, config,
                                                              prepack)
    gate = moe_metrics.evaluate(mx_opt, rows, e, 2 * i, h, moe_metrics.FP4,
                                moe_metrics.FP4, (top_k, block),
                                zero_acc=True, quantized=True)
    gate["k"] = h
    down = moe_metrics.evaluate(mx_opt, rows, e, h, i, moe_metrics.FP4,
                                moe_metrics.FP4, (1, block), zero_acc=True)
    down["k"] = i
    # The elementwise work at HBM speed: the tokens' quantize (bf16 read,
    # fp4 and scales written; none when the gate_up kernel quantizes its A
    # itself: its reads are in gate_up's time), the GEMMs' zero fills that
    # the program writes (f32: the down GEMM's, which the combine reads at
    # every row; gate_up's result is read only at the ids' rows, so it has
    # none), the intermediate's quantize with SwiGLU computed in it (f32
    # gate and up read, fp4 and scales written); then the combine (f32 rows
    # and the weights read, bf16 written).
    fp4 = lambda n: n // 2 + n // 32  # noqa: E731
    tokens = 0 if gate["in_gemm"] else t * h * 2 + t * fp4(h)
    combine = rows * h * 4 + rows * 4 + t * h * 2
    elementwise = (tokens + fills + rows * 2 * i * 4 + rows * fp4(i))
    # The combine in the down GEMM's kernel (mx-fuse-column-consumers: no
    # dispatch after the down GEMM's) runs after the GEMM's last wave:
    # column_tail_us; as a dispatch of its own, its bytes at HBM speed.
    combine_us = (combine / HBM_PEAK * 1e6 if combine_mode == "dispatch"
                  else column_tail_us(t, top_k, down["tile_mnk"][1], combine,
                                      combine_mode == "rows"))
    other = (elementwise / HBM_PEAK * 1e6 + combine_us + gate["gather_us"] +
             down["gather_us"])
    static = gate["gemm_us"] + down["gemm_us"] + other
    experts = min(e, rows)
    weights = experts * (fp4(2 * i * h) + fp4(h * i))
    bound = weights / HBM_PEAK * 1e6
    row = dict(name=name, t=t, block=block, dispatches=dispatches, load=load,
               gate=gate, down=down, other=other, static=static, bound=bound)
    if timing:
        # Each GEMM floored by its unique bytes at HBM speed, as the static
        # model's figure is.
        times = [max(timed_gemm(timing, gemm, tmp), gemm["unique_s"]) * 1e6
                 for gemm in (gate, down)]
        row["timing"] = sum(times) + other
    return row


def check(backend, threads, control=False, prepack=True):
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import mx  # noqa: E402
    inputs = small_inputs()
    text = program(prepack=prepack, **SMALL)
    arrays = [mx.float_to_bf16(inputs["x"]), inputs["w1"], inputs["s1"],
              inputs["w2"], inputs["s2"], inputs["ids"], inputs["experts"],
              inputs["weights"]]
    results = mx.run(text, *arrays, backend=backend, compare="reference",
                     threads=threads)
    print(results.report.strip())
    got = mx.bf16_to_float(results[0])
    if control:
        # A control: the numpy reference with token 0's two router weights
        # swapped must be told apart (FAIL).
        inputs["weights"][0] = inputs["weights"][0, ::-1].copy()
    want, bound = numpy_layer(inputs)
    # Tolerance: the down GEMM's f32 sums may round (at most 2^-24 relative
    # per addition over I = 256 terms, bounded by 2^-16 * sum |a b|), then
    # the combine in f32 and the bf16 rounding: one bf16 ulp of the larger
    # of the two results (2^-8 relative) plus w-weighted 2^-16 sum |a b|.
    tol = np.maximum(np.abs(got), np.abs(want)) * 2.0**-8 + bound * 2.0**-16
    diff = np.abs(got.astype(np.float64) - want)
    exact = int((got == want).sum())
    worst = float((diff / np.maximum(tol, 1e-30)).max())
    print("numpy reference: %d/%d bit-exact, worst |diff|/tolerance %.3g" %
          (exact, got.size, worst))
    if worst > 1:
        print("numpy reference: FAIL")
        return 1
    print("numpy reference: PASS")
    return 0


def timing_calibration(tmp):
    import mx_timing
    return mx_timing.calibration(tmp)


TABLE_HEADER = ["layer", "T", "block", "disp", "gate_up tile", "down tile",
                "gate_up us", "down us", "other us", "static us",
                "timing us", "bound us", "x bound (static / timing)",
                "published"]


def table(mx_opt, with_timing, prepack=True):
    import ukernel_static_metrics as usm
    rows, lists = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        timing = timing_calibration(tmp) if with_timing else None
        for name, e, top_k, h, i, tokens, published in CONFIGS:
            for t in tokens:
                r = evaluate_layer(mx_opt, name, e, top_k, h, i, t, tmp,
                                   timing, prepack)
                if t in LISTED_TOKENS:
                    lists["%s at T = %d" % (name, t)] = (r["dispatches"],
                                                         r["load"])
                timed = r.get("timing")
                rows.append([
                    "%s (E=%d top-%d H=%d I=%d)" % (name, e, top_k, h, i),
                    str(t), str(r["block"]), str(len(r["dispatches"])),
                    r["gate"]["tile"], r["down"]["tile"],
                    "%.1f" % r["gate"]["gemm_us"],
                    "%.1f" % r["down"]["gemm_us"], "%.1f" % r["other"],
                    "%.1f" % r["static"],
                    "%.1f" % timed if timed else "-", "%.1f" % r["bound"],
                    "%.2f / %s" % (r["static"] / r["bound"],
                                   "%.2f" % (timed / r["bound"])
                                   if timed else "-"),
                    "AITER %.1f" % published[t] if t in published else ""])
    usm.print_columns(TABLE_HEADER, rows)
    for label, (dispatches, load) in lists.items():
        print("\nThe dispatches of %s: workgroups, MB their buffers view "
              "(of which the weights' arguments, %s)" %
              (label, "packed once per model load" if prepack
               else "relaid out per call"))
        for name, groups, viewed, weights in dispatches:
            print("  %-32s %8d  %10.2f MB  (%.2f MB weights)" %
                  (name, groups, viewed / 1e6, weights / 1e6))
        if load:
            print("  once per model load (mx.prepack: the weights' packing "
                  "functions, not in disp):")
        for name, groups, viewed, weights in load:
            print("    %-38s %8d  %10.2f MB" % (name, groups, viewed / 1e6))
    return 0


# The token counts of CONFIGS whose gate_up GEMM `in-gemm` compares both
# ways: the decode rows where `auto` leaves the tokens' quantize a dispatch.
IN_GEMM_TOKENS = {"gpt-oss-120b": (1, 4), "DeepSeek-R1": (1,),
                  "DeepSeek-R1 TP8": (16,)}


def in_gemm(mx_opt):
    """The decode layers' gate_up GEMM with the tokens quantized by a
    dispatch of their own (quantize-in-gemm=never) and in the GEMM
    (always), on both models: the static model over the active tiles
    (moe_metrics.evaluate), and the timing model's tile with its ids as the
    routing gives them (tokens routed evenly: the rows of the busiest block)
    and with every row holding a token (zeros, as `table` times it); each
    floored by the GEMM's unique bytes at HBM speed, as in `table`; for
    each of `block_candidates`. The layer takes 4 dispatches where the GEMM
    quantizes its tokens."""
    import moe_metrics
    header = ["layer", "T", "block", "way", "tile", "rows of the block",
              "static us",
              "timing us (routed ids)", "timing us (all rows)"]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        timing = timing_calibration(tmp)
        for name, e, top_k, h, i, t in [
                (name, e, top_k, h, i, t)
                for name, e, top_k, h, i, _, _ in CONFIGS
                for t in IN_GEMM_TOKENS[name]]:
            rows = t * top_k
            for block, way in [(b, w) for b in block_candidates(rows)
                               for w in ("never", "always")]:
                busiest = min(block, -(-rows // min(e, rows)))
                g = moe_metrics.evaluate(
                    mx_opt, rows, e, 2 * i, h, moe_metrics.FP4,
                    moe_metrics.FP4, (top_k, block),
                    options="quantize-in-gemm=" + way, zero_acc=True,
                    quantized=True)
                g["k"] = h
                times = [max(timed_gemm(timing, g, tmp, n), g["unique_s"]) *
                         1e6 for n in (busiest, None)]
                out.append([name, str(t), str(block), way, g["tile"],
                            str(busiest),
                            "%.2f" % g["gemm_us"], "%.2f" % times[0],
                            "%.2f" % times[1]])
    import ukernel_static_metrics as usm
    usm.print_columns(header, out)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command",
                        choices=["example", "check", "table", "in-gemm"])
    parser.add_argument("--backend", default="gfx950-emu")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--control", action="store_true",
                        help="check: swap token 0's router weights in the "
                        "numpy reference only (must FAIL)")
    parser.add_argument("--mx-opt", default=os.path.join(ROOT, "build", "bin",
                                                         "mx-opt"))
    parser.add_argument("--no-timing", action="store_true",
                        help="table: the static model only")
    parser.add_argument("--no-prepack", action="store_true",
                        help="the weights unmarked (no mx.prepack): relaid "
                        "out into the GEMMs' layouts on every call")
    args = parser.parse_args()
    if args.command == "example":
        sys.stdout.write(HEADER + "\n" +
                         program(prepack=not args.no_prepack, **SMALL))
        return 0
    if args.command == "table":
        return table(args.mx_opt, not args.no_timing, not args.no_prepack)
    if args.command == "in-gemm":
        return in_gemm(args.mx_opt)
    return check(args.backend, args.threads, args.control,
                 not args.no_prepack)


if __name__ == "__main__":
    sys.exit(main())
