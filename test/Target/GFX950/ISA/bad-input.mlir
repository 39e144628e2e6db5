// Code objects the gfx950 ISA executor refuses, each with a clear error:
// a truncated file, an opcode it does not implement, a kernel descriptor
// asking for more LDS than gfx950 has, a global access outside the
// launch's buffers. (A descriptor cannot ask for more than gfx950's 512
// VGPRs+AGPRs: its 6-bit granule count tops out there.) mx-isa lists a code object's
// opcodes and whether the executor covers them.

// DEFINE: %{opts} = intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=2 subgroups-m=1 subgroups-n=4
// RUN: mx-opt %S/../../../Integration/GFX950/emulator-seed-tile.mlir --mx-gfx950-pipeline="output=isa %{opts}" -o %t.mlir
// DEFINE: %{asm} = %python %S/Inputs/mutate.py %t.mlir seed_tile_mma0
// DEFINE: %{link} = llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.s -o %t.o && %llvm_tools_dir/ld.lld -shared %t.o -o %t.co
// DEFINE: %{run} = mx-run %S/../../../Integration/GFX950/emulator-seed-tile.mlir --backend=gfx950-isa --compare=reference --gfx950-options="%{opts}" --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-2,hi=2 --arg=random:scales,lo=126,hi=128 --arg=random:scales,lo=126,hi=128 --arg=random:int,lo=-8,hi=8

// Every opcode of the seed tile's kernel is covered.
// RUN: %{asm} none %t.s && %{link} && mx-isa %t.co | FileCheck %s --check-prefix=COVERED
// COVERED: kernel seed_tile_mma0: {{[0-9]+}} instructions, LDS 135168 bytes
// COVERED: v_mfma_scale_f32_16x16x128_f8f6f4 {{[0-9]+$}}
// COVERED-NOT: NOT COVERED

// A truncated code object.
// RUN: head -c 3000 %t.co > %t.cut.co
// RUN: not mx-isa %t.cut.co 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not %{run} --isa-code-object=seed_tile_mma0=%t.cut.co 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: {{not a valid ELF code object|outside its section|truncated}}

// An opcode the executor does not implement.
// RUN: %{asm} replace:'s_nop 4':0:'v_sin_f32_e32 v0, v1' %t.s 2>/dev/null && %{link}
// RUN: not mx-isa %t.co | FileCheck %s --check-prefix=LIST
// RUN: not %{run} --isa-code-object=seed_tile_mma0=%t.co 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// LIST: v_sin_f32_e32 1 NOT COVERED
// UNKNOWN: kernel seed_tile_mma0, workgroup (0, 0, 0), wave 0, pc {{.*}}: v_sin_f32_e32 v0, v1: opcode 'v_sin_f32_e32' is not implemented by the ISA executor

// A descriptor asking for more LDS than a gfx950 workgroup has.
// RUN: %{asm} replace:'amdhsa_group_segment_fixed_size':0:'.amdhsa_group_segment_fixed_size 262144' %t.s 2>/dev/null && %{link}
// RUN: not %{run} --isa-code-object=seed_tile_mma0=%t.co 2>&1 | FileCheck %s --check-prefix=LDS
// LDS: kernel seed_tile_mma0 asks for 262144 bytes of LDS; gfx950 has 163840 per workgroup

// A global load outside every buffer of the launch: the B scales' base
// pointer, loaded from the kernel arguments, replaced by address 0x1000.
// RUN: %{asm} replace:'s_load_dwordx2 s\[16':0:'s_mov_b64 s[16:17], 0x1000' %t.s 2>/dev/null && %{link}
// RUN: not %{run} --isa-code-object=seed_tile_mma0=%t.co 2>&1 | FileCheck %s --check-prefix=OOB
// OOB: global_load_dwordx2 v[{{[0-9]+}}:{{[0-9]+}}], v{{[0-9]+}}, s[16:17]: lane 0 loads 8 bytes at {{0x[0-9a-f]+}} outside the launch's buffers: no buffer

// The option needs its backend.
// RUN: not mx-run %S/../../../Integration/GFX950/emulator-seed-tile.mlir --isa-code-object=a=b 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: --isa-code-object, --isa-hazards and --timing-model need --backend=gfx950-isa

// Only regular files are read (issue 37, mx::readUserFile): a device would
// be read without end, a FIFO without a writer blocks.
// RUN: not mx-isa /dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: mx-isa: cannot read the code object '/dev/zero': not a regular file
// RUN: not %{run} --isa-code-object=seed_tile_mma0=/dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE-OPTION
// DEVICE-OPTION: --isa-code-object: cannot read the code object '/dev/zero': not a regular file
// RUN: not mx-isa %t.co --run --kernel=seed_tile_mma0 --grid=1,1,1 --block=64,1,1 --buffer=a=/dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE-BUFFER
// DEVICE-BUFFER: mx-isa: cannot read the buffer '/dev/zero': not a regular file

// The launch budget (issue 37) holds for mx-isa --run too.
// RUN: not mx-isa %t.co --run --kernel=seed_tile_mma0 --grid=65536,256,2 --block=64,1,1 --buffer=a=zeros:16 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: mx-isa: the launch of seed_tile_mma0 with grid [65536, 256, 2] and block [64, 1, 1] has 33554432 workgroups, more than the launch budget of 16777216 workgroups
