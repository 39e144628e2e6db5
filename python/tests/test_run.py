# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""mx.compile and mx.run against the independent reference and the seed000
known answers."""

import os
import time

import numpy as np
import pytest

import mx


def seed000_path(root):
    return os.path.join(root, "examples", "seed000_gemm.mlir")


@pytest.mark.parametrize("backend", ["gfx950-emu", "gfx950-isa"])
def test_seed000_compiled_and_run_bit_exact(root, seed000, backend):
    """The issue's 'done when': seed000 compiled and run on the emulator
    (and the ISA executor) from Python, bit-exact against the recorded
    answers and the reference."""
    program = mx.compile(seed000_path(root), intrinsic="16x16x128")
    start = time.time()
    results = mx.run(program, seed000["A_bf16"], seed000["B_bf16"],
                     np.zeros((128, 96), np.float32), backend=backend,
                     compare="reference")
    elapsed = time.time() - start
    c, qa, sa, qb, sb = results
    assert c.dtype == np.float32 and c.shape == (128, 96)
    assert np.array_equal(c.view(np.uint32), seed000["C_f32"].view(np.uint32))
    assert np.array_equal(qa, seed000["A_fp4"])
    assert np.array_equal(sa, seed000["A_e8m0"])
    assert np.array_equal(qb, seed000["B_fp4"])
    assert np.array_equal(sb, seed000["B_e8m0"])
    assert results.report.rstrip().endswith("PASS")
    assert "bit-exact" in results.report
    print("seed000 on %s: %.2f s" % (backend, elapsed))


def test_typed_options_reach_the_emulator(root, seed000):
    """The program's pipeline options are the ones mx.run compiles with: the
    reference's note names each intrinsic's K step."""
    inputs = (seed000["A_bf16"], seed000["B_bf16"],
              np.zeros((128, 96), np.float32))
    for intrinsic, k_step in (("16x16x128", 128), ("32x32x64", 64)):
        program = mx.compile(seed000_path(root), intrinsic=intrinsic)
        results = mx.run(program, *inputs, backend="gfx950-emu",
                         compare="reference")
        assert "(K step %d)" % k_step in results.report
        # The same keywords given to mx.run with a path.
        results = mx.run(seed000_path(root), *inputs, backend="gfx950-emu",
                         compare="reference", intrinsic=intrinsic)
        assert "(K step %d)" % k_step in results.report
        assert "seed000_gemm.mlir:13:8" in results.report


def test_kernel_report_and_code_objects(root):
    program = mx.compile(seed000_path(root))
    gemm = [k for k in program.kernels if k.mfmas]
    assert len(gemm) == 1, program.kernels
    assert gemm[0].scratch_bytes == 0
    assert gemm[0].vgpr_spills == gemm[0].sgpr_spills == 0
    assert gemm[0].agprs > 0  # the accumulators live in AGPRs
    assert "mfma" in program.kernel_report
    assert set(program.isa) == {k.binary for k in program.kernels}
    assert all("v_mfma_scale" in text for binary, text in program.isa.items()
               if binary == gemm[0].binary)
    objects = program.code_objects
    assert set(objects) == set(program.isa)
    assert all(data[:4] == b"\x7fELF" for data in objects.values())
    plan = program.launch_plan
    assert plan.startswith("launch #0 @")
    assert "grid" in plan and "kernarg" in plan


def test_every_pipeline_option_reaches_the_pipeline(root):
    """Each keyword changes what is compiled, or is accepted with its
    default value, and a bad value is refused by the C API."""
    path = seed000_path(root)
    small = mx.compile(path, intrinsic="32x32x64")
    assert any("32x32x64" in text for text in small.isa.values())
    options = dict(intrinsic="16x16x128", intrinsics_m=0, intrinsics_n=0,
                   intrinsics_k=0, subgroups_m=0, subgroups_n=0,
                   relayout_workgroup_size=128, output="isa", lld="",
                   split_k=1, config_table="", quantize_in_gemm="never",
                   unroll_k=0, reserve_accumulator_agprs="always",
                   column_consumer_elements=0)
    assert set(options) == set(mx.PIPELINE_OPTIONS)
    program = mx.compile(path, **options)
    assert program.options == options
    assert any(k.agprs for k in program.kernels if k.mfmas)
    gpu = mx.compile(path, output="gpu")
    assert "gpu.launch_func" in gpu.ir and not gpu.kernels
    with pytest.raises(mx.MXError, match="invalid mx-gfx950-pipeline"):
        mx.compile(path, unroll_k=9)
    with pytest.raises(mx.MXError, match="invalid output"):
        mx.compile(path, output="elf")
    with pytest.raises(TypeError, match="unknown mx-gfx950-pipeline option"):
        mx.compile(path, tile_m=4)


def test_pipeline_options_mirror_the_c_struct(root):
    """Every field of MxGFX950PipelineOptions has a Python keyword and a
    ctypes field in the same order: an option added in C cannot be missed
    here."""
    import re
    with open(os.path.join(root, "include", "mx-c", "Pipelines.h")) as f:
        header = f.read()
    body = re.search(r"typedef struct MxGFX950PipelineOptions \{(.*?)\}",
                     header, re.S).group(1)
    body = re.sub(r"///.*", "", body)
    fields = re.findall(r"(\w+);", body)
    from mx import _capi
    assert fields == [name for name, _ in
                      _capi.GFX950PipelineOptions._fields_]
    assert sorted(fields) == sorted(mx.PIPELINE_OPTIONS.values())


def test_cpu_run_against_reference(root):
    rng = np.random.default_rng(1)
    path = os.path.join(root, "examples", "mxfp4_gemm.mlir")
    arguments, results = mx.entry_types(path)
    inputs = [rng.standard_normal(t.shape).astype(np.float32)
              if t.element in ("f32", "bf16") else
              np.zeros(t.shape, np.float32) for t in arguments]
    out = mx.run(path, *inputs, compare="reference")
    assert len(out) == len(results)
    assert "PASS" in out.report


TANH = """
func.func @f(%x: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%a: f32, %b: f32):
    %y = math.tanh %a : f32
    linalg.yield %y : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
"""


def test_mismatch_raises_with_the_report():
    """The CPU path's tanh approximation is not correctly rounded: a
    bit-exact comparison fails with the report, a tolerance passes."""
    x = np.random.default_rng(0).standard_normal(256).astype(np.float32)
    with pytest.raises(mx.MismatchError) as failure:
        mx.run(TANH, x, compare="reference")
    assert "FAIL" in str(failure.value)
    assert "mismatches=" in failure.value.report
    assert len(failure.value.results) == 1
    passed = mx.run(TANH, x, compare="reference", rtol=1e-5)
    assert passed.report.rstrip().endswith("PASS")
    assert np.allclose(passed[0], np.tanh(x), rtol=1e-5)


def test_bad_input_is_an_exception_not_a_crash(root):
    path = seed000_path(root)
    with pytest.raises(mx.MXError, match="cannot parse"):
        mx.run("func.func @f( {", np.zeros(1))
    with pytest.raises(mx.MXError, match="no such file"):
        mx.compile("missing.mlir")
    with pytest.raises(mx.MXError, match="takes 3 argument"):
        mx.run(path, np.zeros((128, 512), np.uint16))
    with pytest.raises(mx.MXError, match=r"shape \(128, 512\)"):
        mx.run(path, np.zeros((128, 511), np.uint16),
               np.zeros((96, 512), np.uint16), np.zeros((128, 96)))
    with pytest.raises(mx.MXError, match="unknown backend"):
        mx.run(path, backend="tpu")
    # No GPU here (or a runtime to load): an error, not a crash.
    if not os.environ.get("MX_HIP_LIBRARY"):
        with pytest.raises(mx.MXError, match="HIP|hip"):
            mx.run(path, np.zeros((128, 512), np.uint16),
                   np.zeros((96, 512), np.uint16),
                   np.zeros((128, 96), np.float32), backend="hip")
    with pytest.raises(mx.MXError, match="no function named 'nope'|nope"):
        mx.run(path, entry="nope")
    with pytest.raises(mx.MXError, match="needs uint8"):
        mx.run(os.path.join(root, "test", "Integration", "CPU",
                            "seed000-matmul.mlir"),
               np.zeros((64, 256)), np.zeros((64, 256)), np.zeros((64, 8)),
               np.zeros((64, 8)), np.zeros((64, 64)), entry="gemm_64x64x256")
    # A verifier error, with its location.
    bad = ("func.func @q(%x: tensor<2x48xf32>) -> tensor<2x48xf4E2M1FN> {\n"
           "  %q, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)"
           "\n    : tensor<2x48xf32> -> tensor<2x48xf4E2M1FN>, "
           "tensor<2x1xf8E8M0FNU>\n  return %q : tensor<2x48xf4E2M1FN>\n}")
    with pytest.raises(mx.MXError, match=r"-:2:\d+: error: .*32"):
        mx.run(bad, np.zeros((2, 48), np.float32))
    with pytest.raises(mx.MXError, match="launch budget|workgroups"):
        program = mx.compile(path)
        mx.run(program, np.zeros((128, 512), np.uint16),
               np.zeros((96, 512), np.uint16), np.zeros((128, 96), np.float32),
               backend="gfx950-emu", max_workgroups=1)
