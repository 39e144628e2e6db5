"""AITER's MXFP4 GEMM code object f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256
(ROCm/aiter, hsa/gfx950/f4gemm/; never committed here) as its launcher
calls it: the one home of its kernel name, KernelArgs layout and launch
grid for the scripts that run it on the ISA executor (aiter_witness.py,
mx_timing.py). The arguments follow AITER's launcher (csrc/py_itfs_cu/
asm_gemm_a4w4.cu, KernelArgs: every field 16-byte aligned; the kernel reads
stride_C0 as D's row stride; log2_k_split > 0 selects the atomic epilogue,
which adds bf16 partial sums into a zeroed D with buffer_atomic_pk_add_bf16).
"""

# Where the code object lies in a checkout of ROCm/aiter.
CO_PATH = "hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256.co"
KERNEL = "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256E"
# KernelArgs offsets (verified against the kernel's s_load offsets: 0x0 0x10
# 0x20 0x30 0x40 0x50 0x80 0xa0 0xc0 0xe0 0xf0 0x100 0x110 0x120 0x130 0x150
# 0x170).
OFF = dict(D=0, C=16, A=32, B=48, alpha=64, beta=80, strideD0=96,
           strideC0=128, strideA0=160, strideB0=192, M=224, N=240, K=256,
           SA=272, SB=288, strideSA0=304, strideSB0=336, log2_k_split=368)
KERNARG_SIZE = 372  # sizeof(KernelArgs), packed
TILE = 256


def scale_stride(k):
    """The row stride of the E8M0 scales: K / 32 rounded up to 8."""
    return (k // 32 + 7) // 8 * 8


def kernarg_flags(m, n, k, log2_k_split=0):
    """mx-isa --kernarg flags of a D = A x B^T launch (buffers named D, A,
    B, SA, SB; ptr_C stays null: no bias)."""
    args = [("D", "ptr", "D"), ("A", "ptr", "A"), ("B", "ptr", "B"),
            ("alpha", "f32", "1.0"), ("beta", "f32", "0.0"),
            ("strideD0", "u32", n), ("strideC0", "u32", n),
            ("strideA0", "u32", k), ("strideB0", "u32", k), ("M", "u32", m),
            ("N", "u32", n), ("K", "u32", k), ("SA", "ptr", "SA"),
            ("SB", "ptr", "SB"), ("strideSA0", "u32", scale_stride(k)),
            ("strideSB0", "u32", scale_stride(k)),
            ("log2_k_split", "u32", log2_k_split)]
    return [f"--kernarg={OFF[f]}:{t}:{v}" for f, t, v in args]


def k_parts(k, log2_k_split=0):
    """The parts of K a launch splits into (the grid's z): with a K split,
    the launcher zeroes D and each part adds into it."""
    k_per_tg = (k // (1 << log2_k_split) + 255) // 256 * 256
    return (k + k_per_tg - 1) // k_per_tg


def launch_flags(m, n, k, log2_k_split=0):
    """mx-isa --kernel/--grid/--block/--kernarg-size flags: one workgroup per
    256x256 tile of D and part of K."""
    gdz = k_parts(k, log2_k_split)
    return ["--kernel=" + KERNEL,
            f"--grid={(n + TILE - 1) // TILE},{(m + TILE - 1) // TILE},{gdz}",
            "--block=256,1,1", f"--kernarg-size={KERNARG_SIZE}"]
