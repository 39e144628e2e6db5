// RUN: mx-opt %s --pass-pipeline='builtin.module(gpu.module(mx-gfx950-lds-copy-alias-scopes))' | FileCheck %s

// A kernel with copies to LDS and a wait that leaves some loads in flight
// (vmcnt(8): 3960 = 0xf78): each copy (all three ROCDL forms) gets the
// copies' scope; each load from LDS (address space 3) gets the reads' scope
// and does not alias the copies (on top of the scopes it had); loads from
// other address spaces and stores to LDS are left alone. Each kernel has its
// own domain. The same for a kernel whose wait for all loads (vmcnt(0),
// lgkmcnt(0): 112 = 0x70) comes right before a barrier without a fence (the
// pipelined ukernel with three stages). Left alone: a kernel without copies,
// one whose waits are for all loads (vmcnt(0): 3952 = 0xf70) or none
// (vmcnt(63), lgkmcnt(0): 0xc07f), and one whose barrier after such a wait
// has a fence (amdgpu.lds_barrier's).

// CHECK-DAG: #[[DOMAIN:.+]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "copies: LDS copies">
// CHECK-DAG: #[[OTHER:.+]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "theirs">
// CHECK-DAG: #[[COPIES:.+]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]], description = "copies to LDS">
// CHECK-DAG: #[[READS:.+]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]], description = "reads of LDS">
// CHECK-DAG: #[[THEIRS:.+]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[OTHER]]>
#theirs_domain = #llvm.alias_scope_domain<id = distinct[0]<>, description = "theirs">
#theirs = #llvm.alias_scope<id = distinct[1]<>, domain = #theirs_domain>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: llvm.func @copies
    llvm.func @copies(%global: !llvm.ptr<1>, %buffer: !llvm.ptr<7>,
                      %lds: !llvm.ptr<3>, %rsrc: !llvm.ptr<8>, %off: i32)
        attributes {rocdl.kernel} {
      // CHECK: rocdl.load.to.lds %{{.*}} {alias_scopes = [#[[COPIES]]]} : <7>
      rocdl.load.to.lds %buffer, %lds, 16, 0, 0 : <7>
      // CHECK: rocdl.global.load.lds %{{.*}} {alias_scopes = [#[[COPIES]]]}
      rocdl.global.load.lds %global, %lds, 4, 0, 0
      // CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}} {alias_scopes = [#[[COPIES]]]}
      rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %off, %off, %off, %off, %off
      rocdl.s.waitcnt 3960
      // CHECK: %[[READ:.+]] = llvm.load %{{.*}} {alias_scopes = [#[[READS]]], noalias_scopes = [#[[COPIES]]]} : !llvm.ptr<3> -> vector<16xi8>
      %read = llvm.load %lds : !llvm.ptr<3> -> vector<16xi8>
      // CHECK: llvm.load %{{.*}} {alias_scopes = [#[[THEIRS]], #[[READS]]], noalias_scopes = [#[[COPIES]]]} : !llvm.ptr<3> -> i32
      %scoped = llvm.load %lds {alias_scopes = [#theirs]} : !llvm.ptr<3> -> i32
      // CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i32
      %other = llvm.load %global : !llvm.ptr<1> -> i32
      // CHECK: llvm.store %[[READ]], %{{.*}} : vector<16xi8>, !llvm.ptr<3>
      llvm.store %read, %lds : vector<16xi8>, !llvm.ptr<3>
      llvm.return
    }
    // CHECK-LABEL: llvm.func @no_copies
    //   CHECK-NOT:   alias_scopes
    //       CHECK:   llvm.return
    llvm.func @no_copies(%lds: !llvm.ptr<3>) -> i32 {
      rocdl.s.waitcnt 3960
      %read = llvm.load %lds : !llvm.ptr<3> -> i32
      llvm.return %read : i32
    }
    // CHECK-LABEL: llvm.func @all_copies_waited
    //   CHECK-NOT:   alias_scopes
    //       CHECK:   llvm.return
    llvm.func @all_copies_waited(%buffer: !llvm.ptr<7>, %lds: !llvm.ptr<3>) -> i32 {
      rocdl.load.to.lds %buffer, %lds, 16, 0, 0 : <7>
      rocdl.s.waitcnt 49279
      rocdl.s.waitcnt 3952
      %read = llvm.load %lds : !llvm.ptr<3> -> i32
      llvm.return %read : i32
    }
    // CHECK-LABEL: llvm.func @waited_before_fenceless_barrier
    //       CHECK:   rocdl.load.to.lds %{{.*}} {alias_scopes = [#[[WAITED_COPIES:.+]]]} : <7>
    //       CHECK:   llvm.load %{{.*}} {alias_scopes = [#{{.+}}], noalias_scopes = [#[[WAITED_COPIES]]]} : !llvm.ptr<3> -> i32
    llvm.func @waited_before_fenceless_barrier(%buffer: !llvm.ptr<7>, %lds: !llvm.ptr<3>) -> i32 {
      rocdl.load.to.lds %buffer, %lds, 16, 0, 0 : <7>
      rocdl.s.waitcnt 112
      rocdl.s.barrier
      %read = llvm.load %lds : !llvm.ptr<3> -> i32
      llvm.return %read : i32
    }
    // CHECK-LABEL: llvm.func @waited_before_fenced_barrier
    //   CHECK-NOT:   alias_scopes
    //       CHECK:   llvm.return
    llvm.func @waited_before_fenced_barrier(%buffer: !llvm.ptr<7>, %lds: !llvm.ptr<3>) -> i32 {
      rocdl.load.to.lds %buffer, %lds, 16, 0, 0 : <7>
      rocdl.s.waitcnt 3952
      llvm.fence syncscope("workgroup") release
      rocdl.s.barrier
      llvm.fence syncscope("workgroup") acquire
      %read = llvm.load %lds : !llvm.ptr<3> -> i32
      llvm.return %read : i32
    }
  }
}
