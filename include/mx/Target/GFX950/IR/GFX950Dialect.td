//===- GFX950Dialect.td - the gfx950 target dialect --------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_IR_GFX950DIALECT_TD
#define MX_TARGET_GFX950_IR_GFX950DIALECT_TD

include "mx/Dialect/MX/IR/MXAttrs.td"
include "mx/Dialect/MX/IR/MXInterfaces.td"
include "mx/Dialect/MX/IR/MXTargetInterfaces.td"
include "mx/Target/GFX950/IR/GFX950Enums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"
include "mlir/IR/OpBase.td"

def GFX950_Dialect : Dialect {
  let name = "mx_gfx950";
  let cppNamespace = "::mlir::mx::gfx950";
  let summary = "The gfx950 (CDNA4, MI355X) target of mx";
  let description = [{
    Holds the attribute that makes gfx950 a target of the mx pipeline:
    `#mx_gfx950.target`, a layout resolver (`LayoutResolverAttrInterface`)
    that picks `#mx.data_tiled_layout`s for gfx950's scaled MFMA
    instructions and says which ukernel of `ukernels/gfx950/` serves a
    layout; and `#mx_gfx950.scaled_mfma`, the intrinsic of those layouts
    (`ScaledMMAIntrinsicAttrInterface`: the instruction's shape and lane
    tables, which the core composes into each operand's swizzle). The dialect also owns, per MLIRContext, the parsed selection data
    of the embedded ukernel library, so that ukernel availability is looked
    up without re-parsing the ukernel sources.

    The core mx dialect and its passes never name this dialect: they find
    the target on the IR (`mx.target`) or in a pass option, through the
    interface.
  }];
  let dependentDialects = [
    "::mlir::mx::MXDialect", "::mlir::affine::AffineDialect",
    "::mlir::amdgpu::AMDGPUDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::ROCDL::ROCDLDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();

    /// The discardable attribute of a configuration table (on a module).
    static constexpr ::llvm::StringLiteral kConfigsAttrName =
        "mx_gfx950.configs";

    /// The entries of the configuration table `path` ("" : the embedded
    /// one), parsed and verified once per context and path; failure (with
    /// the reason in `error`) when it cannot be read or is malformed.
    ::llvm::FailureOr<::llvm::ArrayRef<ConfigEntry>>
    getConfigTable(::llvm::StringRef path, std::string &error);

    /// The selection data (`mx.ukernel.match`) of every embedded ukernel,
    /// parsed once per context on first use.
    ::llvm::ArrayRef<UKernelInfo> getUKernelLibrary();

  private:
    std::mutex configTablesMutex;
    ::llvm::StringMap<::llvm::SmallVector<ConfigEntry>> configTables;
    std::once_flag ukernelLibraryOnce;
    ::llvm::SmallVector<UKernelInfo> ukernelLibrary;
  }];
}

def MXGFX950_ScaledMFMAAttr
    : AttrDef<GFX950_Dialect, "ScaledMFMA",
              [DeclareAttrInterfaceMethods<MX_ScaledMMAIntrinsicAttrInterface>]> {
  let mnemonic = "scaled_mfma";
  let summary = "a gfx950 scaled MFMA instruction, as a data-tiled intrinsic";
  let description = [{
    The `intrinsic` of an `#mx.data_tiled_layout` for gfx950: one of the
    scaled MFMA instructions, written by its M x N x K shape
    (`16x16x128`: `v_mfma_scale_f32_16x16x128_f8f6f4`; `32x32x64`:
    `v_mfma_scale_f32_32x32x64_f8f6f4`). It gives the core the
    instruction's shape, its 64 lanes and the lane layout of each operand
    (the CDNA4 ISA tables; see `mx::gfx950::getIntrinsicSwizzle`).

    Example:

    ```mlir
    #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>,
        lhs_type = f8E4M3FN, rhs_type = f4E2M1FN>
    ```
  }];
  let parameters = (ins EnumParameter<GFX950_ScaledMMAIntrinsic>:$intrinsic);
  let hasCustomAssemblyFormat = 1;
}

def MXGFX950_TargetAttr
    : AttrDef<GFX950_Dialect, "Target",
              [DeclareAttrInterfaceMethods<MX_LayoutResolverAttrInterface,
                                          ["checkEpilogueOp", "resolveSplitK",
                                           "getDynamicMBuckets"]>]> {
  let mnemonic = "target";
  let summary = "gfx950 as the target of data tiling, with its layout pins";
  let description = [{
    The gfx950 layout resolver. Every parameter is optional; a count of 0 (or
    an absent `intrinsic`) leaves the choice to the resolver's heuristic
    (`mx::gfx950::resolveLayout`), a non-zero value pins it:

    * `intrinsic`: `mfma_scale_16x16x128` or `mfma_scale_32x32x64`;
    * `intrinsics_m`, `intrinsics_n`, `intrinsics_k`: intrinsic unroll
      counts of one wave;
    * `subgroups_m`, `subgroups_n`: waves of a workgroup (at most 16 in
      all);
    * `split_k`: the number of parts of the K loop of every GEMM
      (`mx-split-k`; 1: never split; 0: the heuristic of
      `mx::gfx950::chooseSplitK`, which splits a GEMM with fewer output
      tiles than CUs);
    * `config_table` (a string): the table of tuned configurations
      (`ukernels/gfx950/configs/`, written by `bench/mx_tune.py`) that the
      resolver consults before its heuristic: empty (the default) for the
      embedded table, `"none"` for no table, or the path of a table file,
      which replaces the embedded one. An entry gives the pins of a shape
      bucket (element types, a range of M, N, K); pins of this attribute win
      over an entry's, and an entry for another intrinsic than the one
      pinned here does not apply;
    * `require_ukernel` (default `false`): only choose layouts that a gfx950
      ukernel serves, as the GPU pipeline needs; a contraction for which no
      ukernel exists is then an error listing why each ukernel rejected the
      closest layout. The CPU path takes any layout.

    This attribute is the one carrier of the pins: `mx-gfx950-pipeline`
    builds it from its options, `mx-materialize-encodings` takes it as its
    `target` option or finds it as the `mx.target` attribute of an
    enclosing op, and its verifier is the single validation of the pins.

    Example:

    ```mlir
    module attributes {mx.target = #mx_gfx950.target<intrinsic = mfma_scale_32x32x64,
                                                     intrinsics_m = 2, require_ukernel = true>} {
      ...
    }
    ```

    or `mx-opt --mx-set-encodings
    --mx-materialize-encodings="target=#mx_gfx950.target<subgroups_m=2>"`.
  }];
  let parameters = (ins
    "std::optional<::mlir::mx::gfx950::ScaledMMAIntrinsic>":$intrinsic,
    "int64_t":$intrinsics_m,
    "int64_t":$intrinsics_n,
    "int64_t":$intrinsics_k,
    "int64_t":$subgroups_m,
    "int64_t":$subgroups_n,
    "int64_t":$split_k,
    StringRefParameter<"the tuned configuration table">:$config_table,
    "bool":$require_ukernel
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The textual form of the attribute with these parameters (what
    /// `print` prints after the mnemonic, prefixed with
    /// `#mx_gfx950.target`), for pipelines that build the attribute before
    /// a context exists; parsing it runs the verifier.
    static std::string getAsText(
        std::optional<::mlir::mx::gfx950::ScaledMMAIntrinsic> intrinsic,
        int64_t intrinsicsM, int64_t intrinsicsN, int64_t intrinsicsK,
        int64_t subgroupsM, int64_t subgroupsN, int64_t splitK,
        ::llvm::StringRef configTable, bool requireUKernel);
  }];
}

def MXGFX950_WaitLoadsOp : Op<GFX950_Dialect, "wait_loads"> {
  let summary = "Wait until at most `count` of the wave's vector memory loads "
                "are in flight, a count the ukernel computes";
  let description = [{
    `amdgpu.memory_counter_wait load(N)` (gfx9's `s_waitcnt vmcnt(N)`) with
    an SSA count: a ukernel source cannot write as an attribute the count
    of a wait that depends on its tile-size parameters (e.g. how many LDS
    copies of the last K step each wave may leave in flight). The loads
    counted include the copies to LDS (`amdgpu.gather_to_lds`), in the
    order the wave issued them.

    Canonicalization replaces the op by `amdgpu.memory_counter_wait
    load(N)` once `count` is a constant N in [0, 63] (the range of gfx950's
    vector memory counter); `mx-gfx950-specialize-ukernels` reports a
    ukernel call whose waits remain after specialization. The wave emulator
    runs the op with any count.

    Example:

    ```mlir
    %n = arith.muli %rounds, %c1 : index
    mx_gfx950.wait_loads %n
    ```

    becomes, in a ukernel specialized for 8 rounds,
    `amdgpu.memory_counter_wait load(8)`.
  }];
  let arguments = (ins Index:$count);
  let assemblyFormat = "$count attr-dict";
  let hasCanonicalizer = 1;
}

def MXGFX950_WaitLDSOp : Op<GFX950_Dialect, "wait_lds"> {
  let summary = "Wait until at most `count` of the wave's LDS operations "
                "are in flight, a count the ukernel computes";
  let description = [{
    `amdgpu.memory_counter_wait ds(N)` (gfx9's `s_waitcnt lgkmcnt(N)`) with
    an SSA count, as `mx_gfx950.wait_loads` is for the vector memory
    counter: e.g. a wait that leaves the LDS reads of the next K step's
    fragments in flight, whose number depends on the tile-size parameters.
    The wave's LDS operations retire in the order it issued them.

    The count is of instructions, which the ukernel does not choose: LLVM
    may split an access or merge two (two 8-byte reads into one
    `ds_read2st64_b64`). A ukernel states a count that cannot exceed the
    instructions of the reads it means to leave in flight (e.g. one per
    fragment read with two accesses), so that the wait never leaves an
    older one in flight.

    Canonicalization replaces the op by `amdgpu.memory_counter_wait ds(N)`
    once `count` is a constant N in [0, 15] (the range of gfx950's LDS
    counter); `mx-gfx950-specialize-ukernels` reports a ukernel call whose
    waits remain after specialization. The wave emulator completes all but
    the `count` most recent LDS reads of each wave (counted per access:
    more than the hardware would, never fewer).

    Example:

    ```mlir
    %n = arith.muli %rows_ahead, %intrinsics_k : index
    mx_gfx950.wait_lds %n
    ```

    becomes, in a ukernel specialized for 5 rows ahead and one intrinsic
    along K, `amdgpu.memory_counter_wait ds(5)`.
  }];
  let arguments = (ins Index:$count);
  let assemblyFormat = "$count attr-dict";
  let hasCanonicalizer = 1;
}

#endif // MX_TARGET_GFX950_IR_GFX950DIALECT_TD
