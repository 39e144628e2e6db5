// No function in lib/ is longer than 120 lines and no file longer than 900
// (DESIGN.md: a long function is a missing name). The checker's own test:
// a long function, a long file and a long lambda inside a short function
// are reported; control-flow blocks and comments are not functions.
//
// RUN: python3 %mx_src_root/scripts/check_code_size.py %mx_src_root/lib | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "print('int f(int a) {\n' + '  a += 1;\n' * 121 + '  return a;\n}')" > %t/long.cpp
// RUN: python3 -c "print('// {\n' * 950 + 'struct S {\n  int g() const { return 1; }\n};')" > %t/big.h
// RUN: python3 -c "print('void h() {\n  auto l = [](int a) {\n' + '    a += 1;\n' * 130 + '  };\n  if (true) {\n  }\n}')" > %t/lambda.cpp
// RUN: not python3 %mx_src_root/scripts/check_code_size.py %t | FileCheck %s --check-prefix=LONG
//
// CHECK: files: no function over 120 lines, no file over 900 lines
// LONG-DAG: big.h: file of 953 lines (at most 900)
// LONG-DAG: lambda.cpp:1: function of 136 lines (at most 120)
// LONG-DAG: long.cpp:1: function of 124 lines (at most 120)
// LONG-NOT: big.h:{{[0-9]+}}: function
