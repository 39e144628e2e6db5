// A "last arriver" kernel (read by last-arriver.mlir, which runs it on the
// gfx950 ISA executor, and by unittests/Emulator/HostProgramTest.cpp, which
// runs it on the wave emulator): 12 workgroups of 2 waves, grid 3 x 4 (x:
// the column strip s, y: the part p of the strip). Every thread stores
// 1000 s + 100 p + t (t its thread id, 0..127) at vals[4 s + p][t], then lane
// 0 of each wave adds 1 to counters[s] (a system-scope acq_rel
// memref.atomic_rmw) and the wave learns the old count. The wave that sees
// 7 arrived last of the strip's 8 (4 workgroups x 2 waves): each of its
// lanes l sums vals[4 s + p][64 w + l] over p = 0..3 (outer) and w = 0..1
// (inner) and stores the sum at out[s][l]:
//   sum_p sum_w (1000 s + 100 p + 64 w + l)
//     = 8 * 1000 s + 2 * 100 * (0 + 1 + 2 + 3) + 4 * 64 * (0 + 1) + 8 l
//     = 8000 s + 1456 + 8 l,
// every partial sum an integer below 2^24 (exact in f32). counters ends at
// [8, 8, 8].
module attributes {gpu.container_module} {
  gpu.module @last_arriver {
    gpu.func @last_arriver(%vals: memref<12x128xf32>, %counters: memref<3xi32>,
                           %out: memref<3x64xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c7_i32 = arith.constant 7 : i32
      %zero = arith.constant 0.0 : f32
      %strip = gpu.block_id x
      %part = gpu.block_id y
      %tid = gpu.thread_id x
      %g_vals = memref.memory_space_cast %vals
          : memref<12x128xf32> to memref<12x128xf32, 1>
      %g_counters = memref.memory_space_cast %counters
          : memref<3xi32> to memref<3xi32, 1>
      %g_out = memref.memory_space_cast %out
          : memref<3x64xf32> to memref<3x64xf32, 1>
      // This workgroup's values.
      %s1000 = arith.muli %strip, %c1000 : index
      %p100 = arith.muli %part, %c100 : index
      %sp = arith.addi %s1000, %p100 : index
      %v = arith.addi %sp, %tid : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      %s4 = arith.muli %strip, %c4 : index
      %row = arith.addi %s4, %part : index
      memref.store %vf, %g_vals[%row, %tid] : memref<12x128xf32, 1>
      // One lane of each wave counts the wave's arrival.
      %lane = gpu.lane_id
      %is0 = arith.cmpi eq, %lane, %c0 : index
      %old = scf.if %is0 -> (i32) {
        %o = memref.atomic_rmw addi %c1_i32, %g_counters[%strip]
            : (i32, memref<3xi32, 1>) -> i32
        scf.yield %o : i32
      } else {
        scf.yield %c0_i32 : i32
      }
      %first = gpu.subgroup_broadcast %old, specific_lane %c0_i32 : i32
      %last = arith.cmpi eq, %first, %c7_i32 : i32
      // The last wave of the strip combines every workgroup's values.
      scf.if %last {
        %sum = scf.for %p = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
          %r = arith.addi %s4, %p : index
          %acc2 = scf.for %w = %c0 to %c2 step %c1 iter_args(%a = %acc) -> (f32) {
            %w64 = arith.muli %w, %c64 : index
            %col = arith.addi %w64, %lane : index
            %x = memref.load %g_vals[%r, %col] : memref<12x128xf32, 1>
            %a2 = arith.addf %a, %x : f32
            scf.yield %a2 : f32
          }
          scf.yield %acc2 : f32
        }
        memref.store %sum, %g_out[%strip, %lane] : memref<3x64xf32, 1>
      }
      gpu.return
    }
  }
}
