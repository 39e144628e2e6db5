// RUN: mx-opt %s --split-input-file --verify-diagnostics --mx-attach-loop-annotations | FileCheck %s

// scf-to-cf and the conversion to LLVM leave an scf.for's annotation on its
// back edge as a discardable attribute: it becomes the branch's property,
// which the translation to LLVM IR emits as !llvm.loop metadata.
#unroll = #llvm.loop_unroll<disable = true>
#annotation = #llvm.loop_annotation<unroll = #unroll>
// CHECK: #[[UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ANNOTATION:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @back_edge
//       CHECK:   llvm.br ^bb1(%{{.+}} : i64)
//  CHECK-NOT:     loop_annotation
//       CHECK: ^bb2:
//       CHECK:   %[[NEXT:.+]] = llvm.add
//       CHECK:   llvm.br ^bb1(%[[NEXT]] : i64) {loop_annotation = #[[ANNOTATION]]}
//   CHECK-NOT:   llvm.loop_annotation
llvm.func @back_edge(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^bb2, ^bb3
^bb2:
  %next = llvm.add %i, %c1 : i64
  llvm.br ^bb1(%next : i64) {llvm.loop_annotation = #annotation}
^bb3:
  llvm.return
}

// -----

// A conditional back edge (a rotated loop) takes it as well.
#unroll = #llvm.loop_unroll<count = 2 : i32>
#annotation = #llvm.loop_annotation<unroll = #unroll>
// CHECK: #[[UNROLL:.+]] = #llvm.loop_unroll<count = 2 : i32>
// CHECK: #[[ANNOTATION:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @rotated
//       CHECK:   llvm.cond_br %{{.+}}, ^bb1(%{{.+}} : i64), ^bb2 {loop_annotation = #[[ANNOTATION]]}
llvm.func @rotated(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %next = llvm.add %i, %c1 : i64
  %more = llvm.icmp "slt" %next, %n : i64
  llvm.cond_br %more, ^bb1(%next : i64), ^bb2 {llvm.loop_annotation = #annotation}
^bb2:
  llvm.return
}

// -----

// A branch with an annotation of its own keeps it; the discardable one
// goes.
#keep = #llvm.loop_annotation<unroll = #llvm.loop_unroll<count = 4 : i32>>
#drop = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>
// CHECK: #[[UNROLL:.+]] = #llvm.loop_unroll<count = 4 : i32>
// CHECK: #[[KEEP:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @own_annotation
//       CHECK:   llvm.br ^bb1(%{{.+}} : i64) {loop_annotation = #[[KEEP]]}
//   CHECK-NOT:   disable
llvm.func @own_annotation(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^bb2, ^bb3
^bb2:
  %next = llvm.add %i, %c1 : i64
  llvm.br ^bb1(%next : i64) {loop_annotation = #keep, llvm.loop_annotation = #drop}
^bb3:
  llvm.return
}

// -----

llvm.func @not_an_annotation(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^bb2, ^bb3
^bb2:
  %next = llvm.add %i, %c1 : i64
  // expected-error @+1 {{'llvm.br' op has an llvm.loop_annotation attribute that is not a #llvm.loop_annotation: "no unroll"}}
  llvm.br ^bb1(%next : i64) {llvm.loop_annotation = "no unroll"}
^bb3:
  llvm.return
}
