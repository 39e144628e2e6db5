// mx-layout is found from mx-opt --help, and its own help lists the queries.
// RUN: mx-opt --help | FileCheck %s --check-prefix=OPT
// OPT: run mx-layout --help
// RUN: mx-layout --help | FileCheck %s
// CHECK: mx-layout: draw and query gfx950 data-tiled layouts
// CHECK: --where=M,K
// CHECK: --lane=L --wave=W --register=R
