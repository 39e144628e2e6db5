// `pip install --no-build-isolation ./python` works with Debian's setuptools
// (no network: no index, no dependencies fetched), and the installed package
// finds the library through MX_LIBRARY and runs a program.
// REQUIRES: mx-python, mx-pip
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp -r %mx_src_root/python %t/src && rm -rf %t/src/build %t/src/*.egg-info
// RUN: %mx_python -m pip install --quiet --no-build-isolation --no-deps --no-index --disable-pip-version-check --target %t/site %t/src
// RUN: cd %t && env PYTHONPATH=%t/site MX_LIBRARY=%mx_capi_library %mx_python -c "import mx, numpy as np; print(mx.__file__); print(mx.version()); print(mx.run('func.func @f(%%x: tensor<4xf32>) -> tensor<4xf32> { return %%x : tensor<4xf32> }', np.arange(4, dtype=np.float32))[0])" | FileCheck %s
// CHECK: site/mx/__init__.py
// CHECK-NEXT: {{[0-9]+\.[0-9]+\.[0-9]+}} ({{[0-9a-f]+|unknown}})
// CHECK-NEXT: [0. 1. 2. 3.]
