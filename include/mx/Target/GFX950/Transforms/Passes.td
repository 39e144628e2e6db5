//===- Passes.td - gfx950 target passes --------------------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_PASSES_TD
#define MX_TARGET_GFX950_PASSES_TD

include "mlir/Pass/PassBase.td"

def MXGFX950KernelReport : Pass<"mx-gfx950-kernel-report", "::mlir::ModuleOp"> {
  let summary = "Print static statistics of the gfx950 kernels in gpu.binary ops";
  let description = [{
    For every `gpu.binary` object in assembly form (`gpu-module-to-binary`
    with `format=isa`), prints per kernel: VGPR/AGPR/SGPR counts, LDS bytes,
    scratch bytes, VGPR/SGPR spills (all from the AMDHSA metadata), the
    occupancy they allow (waves per SIMD), the exact code size (the text is
    assembled with LLVM's MC layer), and the instruction, MFMA (by kind),
    global, LDS and direct-to-LDS load and global store (by kind, so their
    widths show) counts of the whole kernel and of its main loop (the loop
    with the most MFMAs: a backward branch that control reaches from its
    target without leaving the range). The IR is not changed.

    Example output:

    ```
    kernel uk
      vgprs: 58
      scratch_bytes: 0
      vgpr_spills: 0
      waves_per_simd: 8
      code_bytes: 400
      main_loop.mfma: 8
    ```
  }];
  let options = [
    Option<"outputFile", "output", "std::string", "\"-\"",
           "Where to print the report (default: stdout)">
  ];
}

def MXGFX950SpecializeUKernels
    : Pass<"mx-gfx950-specialize-ukernels", "::mlir::ModuleOp"> {
  let summary = "Replace calls to gfx950 ukernels by specialized copies";
  let description = [{
    A ukernel (`ukernels/gfx950/*.mlir`, embedded in the tools) is an MLIR
    function whose last `mx.ukernel.num_parameters` arguments are its
    tile-size parameters; it may also take type parameters
    (`mx.ukernel.type_parameters`: the intrinsic and the element types of A
    and B). Every `func.call` to a function named `mx_uk_*` (a declaration
    in the module, or absent) is replaced by a specialized copy of the
    ukernel body, in two steps. Types: the call's `mx.ukernel.type_parameters`
    are bound (`mx::gfx950::instantiateUKernel`): the operand vectors of the
    element types the source is written for become vectors of the requested
    ones, the accumulators and the MFMA shape follow the intrinsic, and the
    operand hooks (`@mx_uk_<hook>_lhs/_rhs`) are replaced by the source's
    implementation for the operand's storage width (`@mx_uk_<hook>_f4/_f6/
    _f8`). Tile sizes: the parameter arguments must be constants at the
    call; the body is cloned in place of the call, canonicalized so the
    parameters fold into loop bounds, and every `scf.for` marked `mx.unroll`
    is fully unrolled, innermost first. What remains has static shapes and
    straight-line MFMA sequences; private accumulator arrays indexed by the
    unrolled indices are promoted to registers by LLVM's SROA. Since SROA
    only promotes the static allocas of a function's entry block, every
    `memref.alloca` of static shape is then moved to the start of its
    allocation scope (e.g. the `gpu.launch` body), ahead of any branch the
    caller put before the call.

    Example:

    ```mlir
    func.call @mx_uk_scaled_mma(
        %lhs, %rhs, %ls, %rs, %acc, %lds, %wm, %wn, %lane, %c4, %c4, %c2)
        {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128",
                                       lhs_type = f6E2M3FN,
                                       rhs_type = f4E2M1FN}}
        : (...) -> ()
    ```

    becomes the ukernel body with 4 x 4 x 2 = 32 `amdgpu.scaled_mfma` per K
    step on `vector<32xf6E2M3FN>` and `vector<32xf4E2M1FN>` operands. Besides the parameters, the loops may depend on static operand
    sizes the ukernel reads (the subgroup counts of the tile views); if a
    loop marked `mx.unroll` keeps dynamic bounds, the call is an error.

    A K loop marked `mx.unroll_k` (the software-pipelined one of
    `mx_uk_scaled_mma`) is unrolled by `unroll-k` when it is set, else by
    the factor its call asks for (`mx.ukernel.unroll_k`, which
    mx-gfx950-lower-tiled-mma takes from the ukernel's register schedules),
    else not at all: the registers of even and odd steps alternate, so no
    move carries the next step's fragments into the current ones. It needs
    the accumulators out of the VGPRs' way
    (`mx-gfx950-reserve-accumulator-agprs`) not to spill. A call that asks
    for it (`mx.ukernel.peel_first_k`, from the register schedule's
    `peel_first_k`) has the loop's first iteration peeled off first, in
    front of the loop under a guard that folds with static bounds: with
    accumulators that start at +0.0, its MFMAs then take the zero as a
    constant instead of every loop-carried accumulator starting as a copy
    of one zero register, which makes LLVM spill them.
  }];
  let options = [
    Option<"unrollK", "unroll-k", "int64_t", "0",
           "Unroll factor of the ukernels' K loops marked mx.unroll_k (0: "
           "the factor each call asks for, mx.ukernel.unroll_k; 1: none)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MXGFX950ReserveAccumulatorAGPRs
    : Pass<"mx-gfx950-reserve-accumulator-agprs", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Keep the GEMM kernels' accumulators in AGPRs";
  let description = [{
    Gives each kernel (`gpu.func`) that runs `amdgpu.scaled_mfma` and has
    accumulator arrays marked `mx.accumulator_agprs` (or, with `all`, any
    f32 private array) LLVM's AMDGPU function attribute
    `"amdgpu-agpr-alloc"` (through `passthrough`, which the ROCDL lowering
    keeps) set to the number of its accumulator values: the f32 elements of
    those private (address space 5) arrays, where
    mx-gfx950-lower-tiled-mma keeps them and marks them when the ukernel's
    register schedule for the configuration asks for AGPRs. LLVM then
    reserves that many AGPRs of gfx950's 512 vector registers, the MFMAs
    accumulate in them in place, and the 256 VGPRs are left to the operand
    fragments. By default LLVM prefers VGPR MFMAs and spreads large
    accumulator sets over both files.

    With `all` (the pipeline's `reserve-accumulator-agprs=always`) a GEMM
    kernel that cannot be served in full gets a warning: one without a
    private f32 array of static shape, and one with more accumulator values
    than the 256 AGPRs (it gets all 256).

    Example: the seed GEMM's kernel (16 x 4 intrinsics of 4 values per
    wave, accumulators from memory) gets
    `passthrough = [["amdgpu-agpr-alloc", "256"]]`.
  }];
  let options = [
    Option<"all", "all", "bool", "false",
           "Every GEMM kernel's f32 private arrays, marked or not (some "
           "configurations spill)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MXGFX950LDSCopyAliasScopes
    : Pass<"mx-gfx950-lds-copy-alias-scopes", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Let LDS reads of ROCDL kernels not wait for LDS copies";
  let description = [{
    LLVM cannot tell which bytes of LDS a copy from global memory straight
    to LDS (`rocdl.load.to.lds`, `rocdl.global.load.lds`,
    `rocdl.raw.ptr.buffer.load.lds`: "LDS DMA", counted on the vector memory
    counter) writes, so before any LDS read it waits for every copy still
    in flight (`s_waitcnt vmcnt(0)`), unless the copies and the read carry
    alias scopes that tell them apart. The mx ukernels order each LDS read
    after the copies it reads themselves: each wave waits for its copies
    with an explicit `amdgpu.memory_counter_wait` and the workgroup meets at
    a barrier before anybody reads them (the wave emulator checks this
    protocol on every GEMM it runs). A software-pipelined kernel wants the
    copies of later K steps to stay in flight across those reads.

    In every LLVM function of the module that has LDS copies and an
    explicit wait that leaves some loads in flight (`rocdl.s.waitcnt` with a
    vector memory count other than 0 and 63: the copies of later K steps),
    or an explicit wait for all loads right before a `rocdl.s.barrier`
    without a fence (the software-pipelined ukernel's barrier, whose K steps'
    copies go into stages nobody reads in that iteration), this pass puts the copies in one alias scope and the LDS loads
    (`llvm.load` from address space 3) in another that does not alias the
    first (a domain per function). LLVM's wait insertion then keeps its
    waits for the copies to the explicit ones. Only valid for kernels that
    order every LDS read after the copies it reads by explicit waits, as all
    kernels of the mx gfx950 pipeline do (only the ukernels copy to LDS).
    Stores to LDS keep LLVM's waits. Kernels that wait for all their copies
    before barriers with fences (`amdgpu.lds_barrier`) are left alone: the scopes would only free LLVM's scheduler to move
    their LDS reads away from where the ukernel put them, which costs the
    simple schedule's fp8 kernels a third of their speed (bench/README.md).

    Example:

    ```mlir
    rocdl.load.to.lds %src, %dst, 16, 0, 0 : <7>
    rocdl.s.waitcnt 3960 // vmcnt(8)
    %v = llvm.load %p : !llvm.ptr<3> -> vector<16xi8>
    ```

    becomes

    ```mlir
    rocdl.load.to.lds %src, %dst, 16, 0, 0 {alias_scopes = [#copies]} : <7>
    rocdl.s.waitcnt 3960 // vmcnt(8)
    %v = llvm.load %p {alias_scopes = [#reads], noalias_scopes = [#copies]}
        : !llvm.ptr<3> -> vector<16xi8>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MXGFX950LowerTiledMMA
    : Pass<"mx-gfx950-lower-tiled-mma", "::mlir::ModuleOp"> {
  let summary = "Launch a ukernel call per workgroup tile of mx.tiled_scaled_mma";
  let description = [{
    Replaces every `mx.tiled_scaled_mma` on memrefs (after bufferization) by
    a `gpu.launch` over the output tiles, grid `(No, Mo, batch)` with
    `64 * subgroups_m * subgroups_n` threads, whose body calls the gfx950
    ukernel that `mx::gfx950::selectUKernel` picks for the layout. Each
    operand is viewed (`memref.memory_space_cast` to global memory, then
    `memref.reinterpret_cast`) in the ukernel's shape for the workgroup's
    tile (`mx::gfx950::getUKernelTileShape`); wave `w` of the workgroup is
    subgroup `(w / subgroups_n, w % subgroups_n)`. The launch has one
    workgroup attribution, `memref<Nxi8, #gpu.address_space<workgroup>>`,
    through which the ukernel stages the A and B tiles: two K steps of them
    (double buffering), `N = 2 * (A bytes + B bytes per K step)`; a layout
    whose staging exceeds the 160 KiB of LDS of a gfx950 workgroup (or the
    budget `mx::gfx950::getLayoutCost` gives the resolver) is an error. The
    call passes the layout's `intrinsics_m/n/k` and whether the accumulator
    starts at zero (`zero_acc`: then the ukernel does not read it) as
    constants and, when the
    ukernel takes type parameters, its intrinsic and element types as the
    call's `mx.ukernel.type_parameters`, ready for
    `mx-gfx950-specialize-ukernels`.

    The lane's accumulators are a private array the call updates; the
    launch loads them before the call (unless `zero_acc`) and stores them
    after it. A data-tiled accumulator moves as whole vectors. One in the
    user's layout (`[B.., M, N]`) goes through a bounds-checked
    `amdgpu.fat_raw_buffer_cast`, with the op's epilogue cloned per value
    before the store: each run of consecutive columns of a row in a lane's
    values (the result swizzle of `mx::gfx950::getSwizzle`, 4 f32 values,
    at most 16 bytes) is one `vector.load` / `vector.store` where the
    innermost stride is 1, else one access per value. Rows past M and runs
    past N are given row M, out of the buffer's range (a load reads 0, a
    store is dropped). Where a run may straddle N (N dynamic or not a
    multiple of the run), a workgroup-uniform `scf.if` on whether the tile
    lies inside N emits the vector stores for those tiles and masked stores
    value by value for the others; the loads then go value by value (the
    same branch before the K loop makes LLVM spill).

    A `linalg.generic` after the op marked `mx.column_consumer`
    (`mx-fuse-column-consumers`) that reads its accumulator is computed in
    the same kernel and erased: after its stores, lane 0 of every wave adds
    1 to its strip's counter (`memref.atomic_rmw addi`, acquire-release,
    on the generic's last input, one counter per N tile) and broadcasts the
    old count (`gpu.subgroup_broadcast`); the wave that counts
    `Mo * waves - 1` before it is the strip's last, every other wave's sums
    are stored, and it resets the counter to +0 and computes the generic's
    output at the strip's columns (every row), up to 16 elements per lane
    per round, each round's loads at indices clamped into the output and
    its stores guarded. With `mx.column_consumer = k` (rows per output row,
    a routed GEMM), before the strip's count each lane of every wave adds 1
    to the counter of its tile row's output row (`id / k`, after the
    strips' counters; padding ids count nothing); after it, the wave
    computes, lane by lane, the rows whose count it completed (`k * waves`),
    and the strip's last wave computes the rows whose count is short and
    resets every row's counter. A marked generic that no such op takes, or
    whose counters do not match its GEMM, is an error.

    When no ukernel serves the layout, the op is an error, with one note per
    library ukernel saying why it was rejected. Operands must have identity
    layouts (as bufferization allocates them) and hold bytes
    (`mx-pack-to-bytes`).

    Example:

    ```mlir
    mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<40x64x2x16x4x16x16xi8>, ...)
        outs(%c : memref<40x64x...xf32>) layout = #layout
    ```

    becomes a `gpu.launch` of 64 x 40 workgroups of 256 threads calling
    `@mx_uk_scaled_mma` with `{mx.ukernel.type_parameters =
    {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
    rhs_type = f4E2M1FN}}`.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::mx::gfx950::GFX950Dialect"
  ];
}

def MXGFX950LowerQuantize
    : Pass<"mx-gfx950-lower-quantize", "::mlir::func::FuncOp"> {
  let summary = "Quantize kernels: mx.quantize_into on memrefs to a gpu.launch";
  let description = [{
    Replaces every `mx.quantize_into` on memrefs by one `gpu.launch` (1-D,
    `workgroup-size` threads per workgroup) in which each thread quantizes
    one block of 32 input elements of the padded domain (or, when a sub-byte
    destination packs another logical dimension innermost, the 2 (fp4) or 4
    (fp6) neighbouring blocks whose codes share its bytes): it loads the
    input once (one `vector.load` of 32 values when `axis` is the innermost,
    unit-stride input dimension), computes the block amax, the E8M0 scale
    and the element codes with the exact arithmetic of
    `mx/Dialect/MX/Transforms/QuantizeArith.h` (the one shared with the CPU
    path), and stores codes and scale bytes into every destination at the
    positions its map gives, a run of codes that is contiguous in a
    destination with one `vector.store`. Points of the padded domain
    outside the input write code 0 and the scale padding byte. A gathered
    quantize (`gather(%ids divisor = D)`) has a thread per block of the
    gathered rows: it loads the id of its row and reads input row
    `ids[i] / D` (an elementwise producer of the input, computed in the
    kernel, is evaluated at that row), or writes padding where that is no
    input row; it is never paired with a second quantize. The
    destinations must hold bytes (`mx-pack-to-bytes`); a destination whose
    packed bytes would be shared by two threads is an error naming it. Sizes
    other than the axis and the packed dimension may be dynamic (a dynamic
    M): the thread count is then computed at run time (no launch when it is
    0), and the destinations must be dynamic in the same dimensions.

    fp4 codes stored in runs along the axis come from gfx950's packed scaled
    conversions (`amdgpu.packed_scaled_trunc`, `v_cvt_scalef32_pk_fp4_*`:
    divide by the E8M0 scale, round to nearest even, saturate, two elements
    per instruction) unless `packed-conversions=false`: nearest-even codes
    directly, ties-away codes of bf16 input from the value widened to f32
    with the bit below its last bf16 mantissa bit set (half an ulp, which
    moves exact ties above the tie and nothing across one). Every other
    case uses the exact arithmetic.

    Two quantizes of the same 2-D input along its two axes (a training step
    needs the activation along K for the forward GEMM and along M for the
    backward one), with only allocations and pure ops between them, become
    one kernel that reads the input once: each workgroup takes a tile of 32
    rows x `workgroup-size` columns, its threads quantize the tile's row
    blocks from global memory and keep the values in LDS, and after a
    barrier quantize its column blocks from LDS (Transformer Engine's
    cast-transpose).

    An elementwise `linalg.generic` that only writes the quantize's input
    buffer (its one output, identity map, not read; projected-permutation
    input maps; scalar pure body), with only allocations between the two,
    is computed in the quantize kernel instead of a dispatch of its own:
    each block's 32 values come from the generic's body applied to its
    inputs (one `vector.load` per input whose map sends the axis to a
    unit-stride innermost dimension, else a load per value), and the
    generic and its buffer are erased. E.g. a MoE layer's SwiGLU over the
    two halves of the gate/up GEMM's result, rounded to bf16, before the
    intermediate is quantized for the down GEMM:

    ```mlir
    linalg.generic {...} ins(%gate, %up : memref<64x256xf32, strided<[512, 1]>>, ...)
        outs(%act : memref<64x256xbf16>) { ... silu(g) * u, truncf ... }
    mx.quantize_into %act axis(1) ... elements(%e : memref<64x128xi8>) ...
    // -> one gpu.launch: vector.load of 32 gate and 32 up values per block
    ```

    Example: `mx.quantize_into %x ... : memref<128x512xbf16> -> f4E2M1FN
    elements(%e : memref<1x2x2x4x2x4x16x16xi8>) ... scales(%s :
    memref<1x2x2x4x16x4x2xi8>) ...` becomes a `gpu.launch` of 8 workgroups
    of 256 threads (one per block of 32 K values of a row).
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", "256",
           "Threads per workgroup of the quantize kernels">,
    Option<"packedConversions", "packed-conversions", "bool", "true",
           "Compute fp4 codes (nearest-even; ties-away from bf16) with "
           "v_cvt_scalef32_pk_fp4_* (amdgpu.packed_scaled_trunc)">
  ];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MXGFX950QuantizeInGEMM
    : Pass<"mx-gfx950-quantize-in-gemm", "::mlir::func::FuncOp"> {
  let summary = "Let small-M GEMM kernels quantize their A tiles themselves";
  let description = [{
    Decides, for each `mx.quantize_into` (on tensors) whose only destinations
    are the A and A scales of one `mx.tiled_scaled_mma` (what
    `mx-fuse-quantize-relayouts` makes of a quantized activation), whether
    the GEMM kernel quantizes its A tiles itself, in registers, from the
    quantize's input (the ukernel `mx_uk_scaled_mma_quantized_lhs`), or a
    quantize dispatch writes A first. The choice is the `in_consumer`
    attribute of the quantize: visible in the IR, and what
    `mx-gfx950-lower-quantize` (no kernel) and `mx-gfx950-lower-tiled-mma`
    (the quantizing ukernel) follow.

    In the GEMM, the quantized activation never reaches memory and no
    dispatch runs before the GEMM, but every workgroup of the N tiles that
    share an A tile reads that tile unquantized (2 bytes per bf16 value
    instead of 0.53) and quantizes it again. `mode=auto` (the default)
    quantizes in the GEMM when those reads, over all workgroups, are at most
    the bytes of B (the weight) that the GEMM streams anyway:
    `M_padded * source bytes <= N_tile * B bits / 8`, i.e. for bf16 A and
    fp4 B, at most a quarter of the N tile in rows (16 rows for N tiles of
    64: decode and the contest's smallest shapes). In a grouped (routed)
    GEMM each group (expert) streams its own B, so `M_padded` is the rows of
    one group's tiles: the routed rows spread evenly over the groups that can
    have rows, rounded up to whole M tiles (MoE decode: one tile per expert).
    `auto` also wants each wave to quantize at most one A fragment per K
    step (`subgroups_m * intrinsics_m * intrinsics_k <= waves`): the rounds
    of a wave's share are loaded and quantized in series before the step's
    barrier, and a tile of two rounds per wave (DeepSeek-R1's gate_up at one
    token, 16x128x1024 over 4 waves) was slower in the static model than
    the quantize dispatch and the plain GEMM. In a grouped GEMM `auto`
    also wants the workgroups with rows (the busy groups' tiles times the
    N tiles) to fill the 256 CUs at least twice: each K step's quantize and
    barrier sit on a workgroup's critical path, hidden only behind other
    workgroups (in the timing model, MoE layers with fewer were slower:
    `bench/moe_layer.py`, gpt-oss-120b at 4 tokens and DeepSeek-R1 TP8).
    `auto` also leaves A to the quantize dispatch when the input is computed
    by an elementwise producer (e.g. a MoE layer's SwiGLU), which that
    dispatch computes in its own kernel. `always` quantizes in the
    GEMM wherever the kernel can (a warning at the quantize says why where
    it cannot, including a quantized A that is also returned or written to
    other destinations, which must reach memory), `never` nowhere.

    The kernel can when A is fp4 from bf16 values along K, the
    quantize's maps are the layout's (checked by evaluating them on every
    block a lane reads), K is padded (if at all) by whole blocks, which the
    kernel reads as zeros, and the input is under 2 GiB.
    A quantize that gathers rows by id (`gather(%ids divisor = D)`, a routed
    GEMM's tokens) is read through the ids: in each fragment of rows, each
    lane reads its row `ids[i] / D` of the input (a padding id reads
    zeros), which needs no batch dimensions; a grouped GEMM's A must be such
    gathered rows. Both ways compute the same bits: the same quantize code
    (`mx::gfx950::quantizeBlock`) runs in either kernel.

    Example: with `mode=always`, `%q:2 = mx.quantize_into %a ... ->
    f4E2M1FN elements(%e : ...) maps [...] scales(%s : ...) maps [...]
    padding [127]` feeding only `mx.tiled_scaled_mma ins(%q#0, %b, %q#1,
    %sb ...)` becomes `mx.quantize_into %a ... padding [127] in_consumer`.
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "Where A is quantized: auto (the heuristic), always (in the GEMM "
           "wherever possible), never (a quantize dispatch)">
  ];
}

def MXGFX950LinkCodeObjects
    : Pass<"mx-gfx950-link-code-objects", "::mlir::ModuleOp"> {
  let summary = "Assemble and link the gfx950 assembly of gpu.binary ops into code objects";
  let description = [{
    Replaces every assembly object of a `gpu.binary` (`gpu-module-to-binary`
    with `format=isa`) by a code object (an HSACO, `bin` format): the text is
    assembled with LLVM's AMDGPU MC layer for the object's `#rocdl.target`
    and linked into a shared object with `ld.lld -shared`.

    The objects are assembled and linked in parallel (each link is an
    `ld.lld` process), and their diagnostics come in the objects' order.

    `ld.lld` is looked up when the pass runs, not when mx is built: the
    `lld` option if given (a path); otherwise `ld.lld` next to the LLVM tools
    mx was built against (e.g. `/usr/lib/llvm-22/bin`); otherwise
    `ld.lld-<LLVM major>` or `ld.lld` on `PATH`. When none is found, the
    error names every place looked in; a failing link reports lld's own
    messages.

    Example:

    ```mlir
    gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx950">,
                                     assembly = "\t.amdgcn_target ...">]
    ```

    becomes

    ```mlir
    gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx950">,
                                     bin = "\7FELF...">]
    ```
  }];
  let options = [
    Option<"lld", "lld", "std::string", "\"\"",
           "Path of ld.lld (default: looked up next to the LLVM tools, then "
           "on PATH)">
  ];
}

def MXGFX950PadXDLWaitStates
    : Pass<"mx-gfx950-pad-xdl-wait-states", "::mlir::ModuleOp"> {
  let summary = "Pad the wait states LLVM 22 leaves short after 16-pass MFMAs";
  let description = [{
    gfx950 needs 20 wait states between a 16-pass XDL MFMA (32x32x64 with an
    fp8 operand) that writes a VGPR or AGPR and a VALU, memory or LDS
    instruction that reads or rewrites it, or an MFMA that reads it as
    srcA, srcB or a scale (NumPasses + 3, +1 on gfx950: LLVM's
    `GCNHazardRecognizer`). LLVM 22's recognizer looks back at most 19
    wait states, so its code objects can leave such a pair one short; the
    ISA executor's hazard check (docs/guides/isa-executor-hazards.md)
    stops them. This pass scans the gfx950 assembly of every `gpu.binary`
    (`gpu-module-to-binary` with `format=isa`) and inserts `s_nop`s in
    front of each such consumer in the same basic block, so that it is at
    least 20 wait states behind its producer. 8-pass MFMAs (16x16x128
    with an fp8 operand, every fp4/fp6 pair) need at most 12 and are left
    alone. The count of inserted `s_nop`s is a statistic.

    Example: in

    ```
    v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33
    ; ... 19 wait states of other instructions ...
    v_cvt_pk_bf16_f32 v40, v0, v1
    ```

    an `s_nop 0` goes in front of the `v_cvt_pk_bf16_f32`.
  }];
  let statistics = [
    Statistic<"numNops", "nops", "s_nop instructions inserted">
  ];
}

#endif // MX_TARGET_GFX950_PASSES_TD
