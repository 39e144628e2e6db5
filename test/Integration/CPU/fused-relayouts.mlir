// mx-fuse-relayouts executed on the CPU path: every pack and unpack chain of
// the data-tiled program becomes one gather (linalg.generic with
// tensor.extract and a padding select), and the results must stay
// bit-identical to the untiled contraction evaluated by the independent
// reference (exact-integer data, per-block distinct scales). Uses the
// functions of data-tiling-2.mlir: fp4, fp8 with a K-major weight, mixed, fp6,
// batched, dynamic sizes (only the static parts of the chains fuse) and
// constant weights.

// DEFINE: %{run} = mx-run %S/data-tiling-2.mlir --seed=3 --compare=reference
// DEFINE: %{ints} = --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8
// DEFINE: %{fuse} = mx-lower-relayouts,mx-fuse-relayouts

// RUN: %{run} --entry=nt_fp4 %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target},%{fuse}" | FileCheck %s
// RUN: %{run} --entry=nt_fp4 %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64,intrinsics_k=2,subgroups_n=2,intrinsics_m=3>},%{fuse}" | FileCheck %s
// RUN: %{run} --entry=nn_fp8 %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsics_m=2,intrinsics_n=2,intrinsics_k=2,subgroups_m=2>},%{fuse}" | FileCheck %s
// RUN: %{run} --entry=nt_fp8_fp4 %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target},%{fuse}" | FileCheck %s
// RUN: %{run} --entry=nt_fp6 %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target},%{fuse}" | FileCheck %s
// RUN: %{run} --entry=batched %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target},%{fuse}" | FileCheck %s
// RUN: %{run} --entry=dynamic %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target},%{fuse}" | FileCheck %s
// RUN: %{run} --entry=constant_weights --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8 --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target},%{fuse}" | FileCheck %s

// CHECK: result #0 tensor<{{.+}}xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CHECK: PASS
