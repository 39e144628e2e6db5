// RUN: mx-opt %s --split-input-file --mx-gfx950-specialize-ukernels -verify-diagnostics
// RUN: not mx-opt %s --split-input-file --mx-gfx950-specialize-ukernels=unroll-k=-1 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not mx-opt %s --split-input-file --mx-gfx950-specialize-ukernels=unroll-k=9 2>&1 | FileCheck %s --check-prefix=UNROLL9
// A call of the quantizing ukernel (the first case of
// lower-tiled-mma-quantized-lhs.mlir, lowered) asking for rows of A read
// ahead: that ukernel marks no such count.
// RUN: mx-opt %S/lower-tiled-mma-quantized-lhs.mlir -split-input-file --mx-gfx950-lower-tiled-mma -verify-diagnostics \
// RUN:   | sed -n '1,/^\/\/ -----/p' | sed 's/{mx.ukernel.type_parameters/{mx.ukernel.lookahead_rows = 2 : i64, mx.ukernel.type_parameters/' \
// RUN:   | not mx-opt --mx-gfx950-specialize-ukernels 2>&1 | FileCheck %s --check-prefix=NO-MARK
// NO-MARK: error: 'func.call' op asks for mx.ukernel.lookahead_rows, but ukernel 'mx_uk_scaled_mma_quantized_lhs' has no op marked mx.lookahead_rows
// The same call asking for the next step's rows of A read late.
// RUN: mx-opt %S/lower-tiled-mma-quantized-lhs.mlir -split-input-file --mx-gfx950-lower-tiled-mma -verify-diagnostics \
// RUN:   | sed -n '1,/^\/\/ -----/p' | sed 's/{mx.ukernel.type_parameters/{mx.ukernel.late_next_rows, mx.ukernel.type_parameters/' \
// RUN:   | not mx-opt --mx-gfx950-specialize-ukernels 2>&1 | FileCheck %s --check-prefix=NO-LATE
// NO-LATE: error: 'func.call' op asks for mx.ukernel.late_next_rows, but ukernel 'mx_uk_scaled_mma_quantized_lhs' has no op marked mx.late_next_rows
// UNROLL: error: mx-gfx950-specialize-ukernels: unroll-k must be in [0, 8] (0: the factor each ukernel call asks for), got -1
// UNROLL9: error: mx-gfx950-specialize-ukernels: unroll-k must be in [0, 8] (0: the factor each ukernel call asks for), got 9

func.func private @mx_uk_scaled_mma(
    memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @dynamic_parameter(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                             %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                             %acc: memref<?x?x?xf32, 5>,
                             %lds: memref<?xi8, #gpu.address_space<workgroup>>, %lane: index, %im: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{ukernel parameter #0 of 'mx_uk_scaled_mma' must be a constant}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %im, %c2, %c2, %c0) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}}
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>,
         index, index, index, index, index, index, index) -> ()
  return
}

// -----

// The subgroup counts come from the operand views: dynamic ones leave the
// copy loops with dynamic bounds.
func.func private @mx_uk_scaled_mma(
    memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @dynamic_subgroups(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                             %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                             %acc: memref<?x?x?xf32, 5>,
                             %lds: memref<?xi8, #gpu.address_space<workgroup>>, %lane: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{ukernel 'mx_uk_scaled_mma': a loop marked mx.unroll has bounds that are not constant after specialization}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %c4, %c4, %c2, %c0) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}}
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>,
         index, index, index, index, index, index, index) -> ()
  return
}

// -----

func.func private @mx_uk_does_not_exist(index)
func.func @unknown(%i: index) {
  // expected-error @+1 {{no gfx950 ukernel named 'mx_uk_does_not_exist' in the ukernel library}}
  func.call @mx_uk_does_not_exist(%i) : (index) -> ()
  return
}

// -----

func.func private @mx_uk_scaled_mma(index)
func.func @wrong_signature(%i: index) {
  // expected-error @+1 {{does not match the signature of ukernel 'mx_uk_scaled_mma'}}
  func.call @mx_uk_scaled_mma(%i) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}} : (index) -> ()
  return
}

// -----

// A call to the type-parameterized ukernel must say which types it wants.
func.func private @mx_uk_scaled_mma(memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @no_types(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                    %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                    %acc: memref<?x?x?xf32, 5>, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
                    %lane: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{ukernel 'mx_uk_scaled_mma' needs its type parameters (mx.ukernel.type_parameters, e.g. {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f4E2M1FN})}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %c4, %c4, %c4, %c0)
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
  return
}

// -----

// Type parameters must be an intrinsic and two MX element types.
func.func private @mx_uk_scaled_mma(memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @bad_types(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?xf32, 5>, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
                     %lane: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error-re @+1 {{mx.ukernel.type_parameters must be {intrinsic = "mfma_scale_16x16x128" or "mfma_scale_32x32x64", lhs_type = <MX element type>, rhs_type = <MX element type>}, plus for a ukernel that quantizes A (f4E2M1FN) lhs_source = bf16, f16 or f32, lhs_scale = <scale rule> and lhs_rounding = <rounding>, got {{.*}}lhs_type = f16{{.*}}}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %c4, %c4, %c4, %c0)
      {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f16, rhs_type = f4E2M1FN}}
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
  return
}

// -----

// The ukernel that does not quantize A takes no quantization parameters.
func.func private @mx_uk_scaled_mma(memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @quantize_params_on_plain(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?xf32, 5>, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
                     %lane: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{ukernel 'mx_uk_scaled_mma' does not quantize A and takes no lhs_source, lhs_scale and lhs_rounding type parameters}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %c4, %c4, %c4, %c0)
      {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f8E4M3FN, lhs_source = bf16, lhs_scale = "even", lhs_rounding = "ties_away"}}
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
  return
}

// -----

// Quantization parameters must name a scale rule and a rounding, and go
// with an fp4 A.
func.func private @mx_uk_scaled_mma(memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @bad_quantize_params(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?xf32, 5>, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
                     %lane: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error-re @+1 {{mx.ukernel.type_parameters must be {{.*}}got {{.*}}lhs_rounding = "up"{{.*}}}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %c4, %c4, %c4, %c0)
      {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, lhs_source = bf16, lhs_scale = "even", lhs_rounding = "up"}}
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
  return
}

// -----

// An enormous constant unroll count is an error, not an unbounded unroll
// (issue 20: intrinsics_k = 10^9 used to unroll for ever).
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @huge_unroll(%lhs: memref<?x2x4x2x64x16xi8, 1>, %rhs: memref<?x2x4x2x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?xf32, 5>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %huge = arith.constant 1000000000 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %c2 : index
      %wn = arith.remui %wave, %c2 : index
      %a = memref.cast %lhs : memref<?x2x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<?x2x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{ukernel 'mx_uk_scaled_mma': a loop marked mx.unroll runs 1000000000 times over 5 operations: unrolled, more than 65536 operations}}
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %acc, %l, %wm, %wn, %lane, %c4, %c4, %huge, %zero) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      gpu.return
    }
  }
}

// -----

// A call asking for an unroll factor of its K loop out of range.
func.func private @mx_uk_scaled_mma(
    memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @unroll_factor(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                         %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                         %acc: memref<?x?x?xf32, 5>,
                         %lds: memref<?xi8, #gpu.address_space<workgroup>>, %lane: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{asks for a K loop unroll factor (mx.ukernel.unroll_k) of 100; it must be in [1, 8]}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %c2, %c2, %c2, %c0) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}, mx.ukernel.unroll_k = 100 : i64}
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>,
         index, index, index, index, index, index, index) -> ()
  return
}

// -----

// A call asking for no row of A read ahead.
func.func private @mx_uk_scaled_mma(
    memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
    memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
    memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @lookahead_rows(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                          %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                          %acc: memref<?x?x?xf32, 5>,
                          %lds: memref<?xi8, #gpu.address_space<workgroup>>, %lane: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{asks for 0 rows of A read ahead (mx.ukernel.lookahead_rows); it must be at least 1}}
  func.call @mx_uk_scaled_mma(%lhs, %rhs, %ls, %rs, %acc, %lds, %c0, %c0, %lane, %c2, %c2, %c2, %c0) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}, mx.ukernel.lookahead_rows = 0 : i64}
      : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
         memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>,
         index, index, index, index, index, index, index) -> ()
  return
}
