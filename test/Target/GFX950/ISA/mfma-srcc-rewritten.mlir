// The srcC-overlap wait state (XDL MFMA writes a range, an MFMA reads an
// overlapping but not identical range as srcC) applies to the nearest MFMA
// that wrote the srcC registers, as LLVM's getWaitStatesSinceDef finds it:
// when a later MFMA rewrote the whole srcC range, the older overlapping
// result is not read. LLVM's own code for mx's 512x256x1024 bf16 GEMM
// (split-K) has this pattern and was reported as a hazard before.

// DEFINE: %{link} = llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.s -o %t.o && %llvm_tools_dir/ld.lld -shared %t.o -o %t.co
// DEFINE: %{run} = mx-isa %t.co --run --kernel=mfma_srcc --grid=1,1,1 --block=64,1,1

// RUN: cp %S/Inputs/mfma-srcc.s %t.s && %{link} && %{run} | FileCheck %s
// CHECK: ran mfma_srcc: 1 workgroups, 1 waves, 6 instructions, 3 scaled MFMAs

// Without the MFMA that rewrites v[18:21], the third reads v[20:21] of the
// first with no wait state: reported.
// RUN: grep -v 'v\[18:21\], v\[0:7\], v\[0:7\], 0,' %S/Inputs/mfma-srcc.s > %t.s && %{link}
// RUN: not %{run} 2>&1 | FileCheck %s --check-prefix=HAZARD
// HAZARD: rule LLVM-GCNHazardRecognizer-checkMAIHazards90A-XDLWriteVgprSrcCOverlapped
// HAZARD-SAME: producer pc {{.*}} 'v_mfma_scale_f32_16x16x128_f8f6f4 v[20:23], {{.*}}': 10 wait states required, 0 present
