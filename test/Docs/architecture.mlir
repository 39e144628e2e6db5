// docs/architecture.md names every pass that the pipelines run, as the
// generated docs/Pipelines.md lists them (its own test keeps it current); a
// doc that misses a pass is reported.
//
// RUN: python3 %mx_src_root/docs/check_architecture.py %mx_src_root/docs/Pipelines.md %mx_src_root/docs/architecture.md | FileCheck %s
// RUN: echo 'Only `mx-set-encodings` here.' > %t.md
// RUN: not python3 %mx_src_root/docs/check_architecture.py %mx_src_root/docs/Pipelines.md %t.md | FileCheck %s --check-prefix=MISSING
//
// CHECK: every pass of the pipelines is named ({{[0-9]+}} passes)
// MISSING: not named in {{.*}}: mx-raise-scaled-matmul
// MISSING-NOT: not named in {{.*}}: mx-set-encodings
// MISSING: not named in {{.*}}: mx-gfx950-link-code-objects
