// RUN: mx-opt %s --split-input-file -verify-diagnostics
// RUN: echo "module {}" | not mx-opt --mx-materialize-encodings="target=#mx_gfx950.target<intrinsic=mfma_scale_16x16x32>" 2>&1 | FileCheck %s --check-prefix=INTRINSIC
// RUN: echo "module {}" | not mx-opt --mx-materialize-encodings="target=#mx_gfx950.target<intrinsics_m=-2>" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: echo "module {}" | not mx-opt --mx-gfx950-pipeline="intrinsics-m=-2" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: echo "module {}" | not mx-opt --mx-gfx950-pipeline="subgroups-m=8 subgroups-n=4" 2>&1 | FileCheck %s --check-prefix=WAVES
// RUN: echo "module {}" | not mx-opt --mx-gfx950-pipeline="intrinsic=16x16x32" 2>&1 | FileCheck %s --check-prefix=PIPELINE-INTRINSIC
// Pins that used to overflow tile sizes or exceed the waves of a workgroup
// while mx-opt exited 0 (issue 20).
// RUN: echo "module {}" | not mx-opt --mx-gfx950-pipeline="intrinsics-k=99999999999" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: echo "module {}" | not mx-opt --mx-gfx950-pipeline="subgroups-n=17" 2>&1 | FileCheck %s --check-prefix=WAVES17

// The verifier of #mx_gfx950.target is the one validation of the layout
// pins, whether they come from the IR, the pass option or the pipeline.

// INTRINSIC: error: unknown intrinsic 'mfma_scale_16x16x32' (available: mfma_scale_16x16x128, mfma_scale_32x32x64)
// INTRINSIC: mx-materialize-encodings: invalid target
// NEGATIVE: error: intrinsics_m must be non-negative (0: the resolver's choice), got -2
// WAVES: error: subgroups_m * subgroups_n = 32 exceeds 16 waves (1024 threads) per workgroup
// PIPELINE-INTRINSIC: Cannot find option named '16x16x32'!
// HUGE: error: intrinsics_k = 99999999999 exceeds 256 (intrinsics a wave unrolls along one dimension)
// WAVES17: error: subgroups_n = 17 exceeds 16 (waves per workgroup)

// expected-error @+1 {{unknown intrinsic 'mfma_scale_16x16x32' (available: mfma_scale_16x16x128, mfma_scale_32x32x64)}}
func.func @intrinsic() attributes {mx.target = #mx_gfx950.target<intrinsic = mfma_scale_16x16x32>}

// -----

// The intrinsic of a data-tiled layout is one of the scaled MFMAs.
// expected-error @+1 {{no gfx950 scaled MFMA has the shape 16x16x32 (available: 16x16x128, 32x32x64)}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x32>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>

// -----

// expected-error @+1 {{intrinsics_n must be non-negative (0: the resolver's choice), got -1}}
func.func @negative() attributes {mx.target = #mx_gfx950.target<intrinsics_n = -1>}

// -----

// expected-error @+1 {{subgroups_m = 17 exceeds 16 (waves per workgroup)}}
func.func @waves() attributes {mx.target = #mx_gfx950.target<subgroups_m = 17>}

// -----

// Pins are bounded like the layouts they make (no overflow in tile sizes).
// expected-error @+1 {{intrinsics_m = 4194304 exceeds 256 (intrinsics a wave unrolls along one dimension)}}
func.func @unroll() attributes {mx.target = #mx_gfx950.target<intrinsics_m = 4194304, intrinsics_n = 4194304>}

// -----

// expected-error @+1 {{unknown #mx_gfx950.target parameter 'tile_m' (expected one of intrinsic, intrinsics_m, intrinsics_n, intrinsics_k, subgroups_m, subgroups_n, split_k, config_table, require_ukernel)}}
func.func @key() attributes {mx.target = #mx_gfx950.target<tile_m = 4>}

// -----

// expected-error @+1 {{'intrinsics_m' is given twice}}
func.func @twice() attributes {mx.target = #mx_gfx950.target<intrinsics_m = 4, intrinsics_m = 2>}

// -----

// expected-error @+1 {{require_ukernel must be true or false, got 'yes'}}
func.func @flag() attributes {mx.target = #mx_gfx950.target<require_ukernel = yes>}

// -----

// expected-error @+1 {{split_k must be in [0, 64] (0: the heuristic's choice), got 65}}
func.func @split_k() attributes {mx.target = #mx_gfx950.target<split_k = 65>}

// -----

// expected-error @+1 {{expected string}}
func.func @table() attributes {mx.target = #mx_gfx950.target<config_table = 3>}
