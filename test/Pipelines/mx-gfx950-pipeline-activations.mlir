// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=GPU
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline=output=isa | FileCheck %s --check-prefix=ISA
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline=output=isa --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// The seed GEMM from zero with an activation and a bf16 result, as users
// write them (elementwise linalg.generic with math ops): SiLU and GELU-tanh
// are fused into the GEMM's epilogue (2 dispatches), computed per sum right
// before its store (a lane's four consecutive columns are one vector store),
// and compile to gfx950 ISA with no device library: math.exp becomes
// llvm.exp.f32 (v_exp_f32), math.tanh is expanded through exp before ROCDL.
// No scratch, no spills.

//   GPU-LABEL: func.func @seed_silu_bf16
//         GPU:   gpu.launch_func @[[R:seed_silu_bf16_relayout[0-9]+_[a-z]+]]::@[[R]]
//         GPU:   gpu.launch_func @seed_silu_bf16_mma0::@seed_silu_bf16_mma0
//     GPU-NOT:   gpu.launch_func
//         GPU:   gpu.module @seed_silu_bf16_mma0
//         GPU:     scf.for
//         GPU:     %[[X:.+]] = vector.extract %{{.+}}[0] : f32 from vector<4xf32>
//    GPU-NEXT:     %[[NEG:.+]] = arith.negf %[[X]] : f32
//    GPU-NEXT:     %[[EXP:.+]] = math.exp %[[NEG]] : f32
//    GPU-NEXT:     %[[DEN:.+]] = arith.addf %[[EXP]], %{{.+}} : f32
//    GPU-NEXT:     %[[SILU:.+]] = arith.divf %[[X]], %[[DEN]] : f32
//    GPU-NEXT:     %[[T:.+]] = arith.truncf %[[SILU]] : f32 to bf16
//         GPU:     %[[V:.+]] = vector.from_elements %[[T]], %{{.+}}, %{{.+}}, %{{.+}} : vector<4xbf16>
//    GPU-NEXT:     vector.store %[[V]], %{{.+}} : memref<?x?xbf16, strided<[16384, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
//   ISA-LABEL: gpu.binary @seed_silu_bf16_mma0
//    ISA-SAME:   v_exp_f32
//     ISA-NOT:   __ocml
//  REPORT-LABEL: kernel seed_silu_bf16_mma0
//        REPORT:   mfma: 256
func.func @seed_silu_bf16(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>) -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %eb = tensor.empty() : tensor<10000x16384xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<10000x16384xf32>) outs(%eb : tensor<10000x16384xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %x : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %silu = arith.divf %x, %den : f32
    %t = arith.truncf %silu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<10000x16384xbf16>
  return %o : tensor<10000x16384xbf16>
}

// -----

// GELU-tanh: tanh(u) = sign(u) (1 - e) / (1 + e), e = exp(-2|u|) (upstream
// math-expand-ops), so no math.tanh reaches ROCDL.
//   GPU-LABEL: func.func @seed_gelu_bf16
//         GPU:   gpu.launch_func @seed_gelu_bf16_mma0::@seed_gelu_bf16_mma0
//     GPU-NOT:   gpu.launch_func
//         GPU:   gpu.module @seed_gelu_bf16_mma0
//     GPU-NOT:     math.tanh
//         GPU:     %[[NEGU:.+]] = arith.cmpf olt, %[[U:[^,]+]], %{{.+}} : f32
//    GPU-NEXT:     %[[NEGF:.+]] = arith.uitofp %[[NEGU]] : i1 to f32
//    GPU-NEXT:     %[[M2:.+]] = arith.mulf %[[NEGF]], %{{.+}} : f32
//    GPU-NEXT:     %[[SIGN:.+]] = arith.addf %[[M2]], %{{.+}} : f32
//    GPU-NEXT:     %[[ABS:.+]] = arith.mulf %[[SIGN]], %[[U]] : f32
//    GPU-NEXT:     %[[ARG:.+]] = arith.mulf %[[ABS]], %{{.+}} : f32
//    GPU-NEXT:     %[[E:.+]] = math.exp %[[ARG]] : f32
//     GPU-NOT:     math.tanh
//   ISA-LABEL: gpu.binary @seed_gelu_bf16_mma0
//    ISA-SAME:   v_exp_f32
//     ISA-NOT:   __ocml
//  REPORT-LABEL: kernel seed_gelu_bf16_mma0
//        REPORT:   mfma: 256
func.func @seed_gelu_bf16(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>) -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %eb = tensor.empty() : tensor<10000x16384xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<10000x16384xf32>) outs(%eb : tensor<10000x16384xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %cx3 = arith.mulf %k1, %x3 : f32
    %inner = arith.addf %x, %cx3 : f32
    %u = arith.mulf %k0, %inner : f32
    %th = math.tanh %u : f32
    %p = arith.addf %one, %th : f32
    %hx = arith.mulf %half, %x : f32
    %gelu = arith.mulf %hx, %p : f32
    %t = arith.truncf %gelu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<10000x16384xbf16>
  return %o : tensor<10000x16384xbf16>
}
