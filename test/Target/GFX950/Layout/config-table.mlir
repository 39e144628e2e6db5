// The resolver consults a configuration table before its heuristic
// (#mx_gfx950.target's config_table, mx-gfx950-pipeline's config-table):
// a matching entry's pins are used, the pipeline's own pins win over them,
// an entry without a ukernel falls back to the heuristic with a remark, and
// so does a shape without an entry of a user's table.

// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu config-table=%S/Inputs/configs-decode.mlir" 2>%t.remarks | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu config-table=%S/Inputs/configs-decode.mlir subgroups-n=1 split-k=1" 2>%t.own.remarks | FileCheck %s --check-prefix=OWN-PINS
// RUN: FileCheck %s --check-prefix=REMARKS < %t.own.remarks
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu config-table=none" | FileCheck %s --check-prefix=HEURISTIC
// RUN: not mx-opt %s --mx-gfx950-pipeline="output=gpu config-table=%S/Inputs/configs-malformed.mlir" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not mx-opt %s --mx-gfx950-pipeline="output=gpu config-table=%S/Inputs/no-such-table.mlir" 2>&1 | FileCheck %s --check-prefix=MISSING-FILE
// Only a regular file is read (issue 37): /dev/zero was read until memory
// ran out and a FIFO without a writer blocked, from the option and from the
// target attribute alike. (`timeout` fails the test instead of hanging.)
// RUN: not mx-opt %s --mx-gfx950-pipeline="output=gpu config-table=/dev/zero" 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: rm -f %t.fifo && mkfifo %t.fifo
// RUN: timeout 60 not mx-opt %s --mx-gfx950-pipeline="output=gpu config-table=%t.fifo" 2>&1 | FileCheck %s --check-prefix=FIFO
// RUN: sed -e '1i module attributes {mx.target = #mx_gfx950.target<config_table = "/dev/zero">} {' -e '$a }' %s > %t.attr.mlir
// RUN: not mx-opt %t.attr.mlir --mx-gfx950-pipeline="output=gpu" 2>&1 | FileCheck %s --check-prefix=DEVICE

// The entry: 2 waves of 2 intrinsics (64 columns, 8 N tiles) and 4 parts of
// K: 32 workgroups of 128 threads.
// TABLE-LABEL: func.func @tuned
//   TABLE-DAG:   %[[EIGHT:.+]] = arith.constant 8 : index
//   TABLE-DAG:   %[[FOUR:.+]] = arith.constant 4 : index
//   TABLE-DAG:   %[[THREADS:.+]] = arith.constant 128 : index
//       TABLE:   gpu.launch_func @tuned_mma0::@tuned_mma0 blocks in (%[[EIGHT]], %{{.+}}, %[[FOUR]]) threads in (%[[THREADS]],
//  TABLE-SAME:     memref<4x16x512xf32>, %{{.+}} : memref<4x1x2x4x4x16x16xi8>, %{{.+}} : memref<4x8x2x2x2x4x4x16x16xi8>
// The pipeline's own pins win: one wave, no split.
// OWN-PINS-LABEL: func.func @tuned
//   OWN-PINS-DAG:   %[[WAVE:.+]] = arith.constant 64 : index
//       OWN-PINS:   gpu.launch_func @tuned_mma0::@tuned_mma0 blocks in ({{.+}}) threads in (%[[WAVE]],
//  OWN-PINS-SAME:     memref<16x512xf32>
// HEURISTIC-LABEL: func.func @tuned
//   HEURISTIC-DAG:   %[[WAVE:.+]] = arith.constant 64 : index
//       HEURISTIC:   gpu.launch_func @tuned_mma0::@tuned_mma0 blocks in (%{{.+}}) threads in (%[[WAVE]],
// MALFORMED: error: 'mx.set_encoding' op the configuration table '{{.*}}configs-malformed.mlir' is not a module with a valid 'mx_gfx950.configs' attribute:
// MALFORMED-NEXT: configs-malformed.mlir:2:1: configuration 0: needs 'm' = array<i64: lo, hi> with 1 <= lo <= hi
// MISSING-FILE: error: 'mx.set_encoding' op cannot read the configuration table '{{.*}}no-such-table.mlir'
// DEVICE: error: 'mx.set_encoding' op cannot read the configuration table '/dev/zero': not a regular file
// FIFO: error: 'mx.set_encoding' op cannot read the configuration table '{{.*}}.fifo': not a regular file
func.func @tuned(%a: tensor<16x4096xf4E2M1FN>, %b: tensor<512x4096xf4E2M1FN>,
                 %sa: tensor<16x128xf8E8M0FNU>, %sb: tensor<512x128xf8E8M0FNU>,
                 %c: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x4096xf4E2M1FN>, tensor<512x4096xf4E2M1FN>,
                            tensor<16x128xf8E8M0FNU>, tensor<512x128xf8E8M0FNU>)
      outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %r : tensor<16x512xf32>
}


// TABLE-LABEL: func.func @no_ukernel
// OWN-PINS-LABEL: func.func @no_ukernel
func.func @no_ukernel(%a: tensor<4x2048xf8E4M3FN>, %b: tensor<256x2048xf8E4M3FN>,
                      %sa: tensor<4x64xf8E8M0FNU>, %sb: tensor<256x64xf8E8M0FNU>,
                      %c: tensor<4x256xf32>) -> tensor<4x256xf32> {
// REMARKS: config-table.mlir:[[# @LINE + 1]]:8: remark: the tuned configuration #mx_gfx950.target<intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 1> for this shape has no gfx950 ukernel ({{.+}}); using the resolver's heuristic
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<4x2048xf8E4M3FN>, tensor<256x2048xf8E4M3FN>,
                            tensor<4x64xf8E8M0FNU>, tensor<256x64xf8E8M0FNU>)
      outs(%c : tensor<4x256xf32>) -> tensor<4x256xf32>
  return %r : tensor<4x256xf32>
}


// TABLE-LABEL: func.func @no_entry
func.func @no_entry(%a: tensor<8x1024xf4E2M1FN>, %b: tensor<64x1024xf4E2M1FN>,
                    %sa: tensor<8x32xf8E8M0FNU>, %sb: tensor<64x32xf8E8M0FNU>,
                    %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
// REMARKS: config-table.mlir:[[# @LINE + 1]]:8: remark: no entry of the configuration table '{{.*}}configs-decode.mlir' for 'f4E2M1FN' x 'f4E2M1FN' with M = 8, N = 64, K = 1024; using the resolver's heuristic
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<8x1024xf4E2M1FN>, tensor<64x1024xf4E2M1FN>,
                            tensor<8x32xf8E8M0FNU>, tensor<64x32xf8E8M0FNU>)
      outs(%c : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
// REMARKS-NOT: remark
