"""Builds the oneflow_promote_torch package against the torch installed in the
environment, as PyTorch extensions are built (torch.utils.cpp_extension):

    pip install ./torch_extension            # from a checkout of oneflow_promote

The extension (_C.so) compiles the library's sources it needs (the op rules,
the functional frontend and its kernels, the cast kernels) with the op
library, so it needs neither Bazel nor an installed oneflow_promote. Abseil,
whose Debian static archives are not position-independent, is linked from
Debian's shared libraries (libabsl-dev), and the ones the extension needs are
copied beside _C.so, which finds them there ($ORIGIN): at run time nothing
but torch must be installed. fmt is compiled in, header-only. CUDA kernels
are built when torch sees a GPU and nvcc is found, or with
ONEFLOW_PROMOTE_CUDA=1 (=0 never); they take minutes per architecture
(sm_80 and sm_90, or those TORCH_CUDA_ARCH_LIST names).

The build runs against the environment's torch, not a copy in an isolated
build environment: the in-tree backend (build_backend.py) makes it
importable, so plain `pip install` needs no --no-build-isolation.
"""

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup

try:
    import torch
    from torch.utils import cpp_extension
except ImportError as e:
    sys.exit(f"oneflow_promote_torch builds against the installed torch, and found none ({e}): "
             "pip install torch first")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The library's sources the extension needs (//torch_extension:_C.so's deps
# in Bazel), and the extension's own.
LIBRARY_SOURCES = [
    "oneflow_promote/dtype.cc",
    "oneflow_promote/promotion/policy.cc",
    "oneflow_promote/promotion/result_type.cc",
    "oneflow_promote/promotion/result_type_weak_scalars.cc",
    "oneflow_promote/sbp/sbp.cc",
    "kernels/cast.cc",
    "kernels/cuda_device.cc",
    "kernels/internal/cpu_cast_dispatch.cc",
    "kernels/internal/cpu_cast_baseline.cc",
    "kernels/parallel_for.cc",
    "oneflow_promote/ops/framework_op_rules.cc",
    "oneflow_promote/ops/op_rules.cc",
    "functional/tensor.cc",
    "functional/functional.cc",
    "functional/torch_tensor_traits.cc",
]
EXTENSION_SOURCES = [
    "torch_extension/ops.cc",
    "torch_extension/internal/alpha_steps.cc",
    "torch_extension/internal/autograd.cc",
    "torch_extension/internal/complex_products.cc",
    "torch_extension/internal/fast_path.cc",
    "torch_extension/internal/functionalize.cc",
    "torch_extension/internal/iteration_order.cc",
    "torch_extension/internal/kernels.cc",
    "torch_extension/internal/maximum_ties.cc",
    "torch_extension/internal/overloads.cc",
    "torch_extension/internal/remainder_nans.cc",
    "torch_extension/internal/scalar_scalar.cc",
    "torch_extension/internal/tensor_views.cc",
    "torch_extension/internal/vector_loops.cc",
]
# Sources compiled apart with flags of their own, as in Bazel and CMake
# (cpp_extension gives every source the same ones): the ops' CPU kernels,
# whose loops vectorize only where floating point may not trap, and the
# cast kernels for a wider ISA of the build machine's architecture, chosen
# at run time.
OWN_FLAGS_SOURCES = [("functional/op_kernels.cc", ["-fno-trapping-math"])]
ISA_SOURCES = {
    "x86_64": [
        ("kernels/internal/cpu_cast_avx2.cc", ["-mavx2", "-mf16c"]),
        ("kernels/internal/cpu_cast_avx512.cc",
         ["-mavx2", "-mf16c", "-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl"]),
    ],
    "aarch64": [("kernels/internal/cpu_cast_sve.cc", ["-march=armv8.2-a+sve"])],
}
CUDA_SOURCES = [
    "kernels/cast_cuda.cu",
    "kernels/cuda_runtime_calls.cu",
    "functional/cuda_ops.cu",
]
ABSEIL = ["absl_status", "absl_statusor", "absl_strings", "absl_str_format", "absl_int128"]


def with_cuda():
    setting = os.environ.get("ONEFLOW_PROMOTE_CUDA", "auto")
    if setting in ("0", "1"):
        return setting == "1"
    return torch.cuda.is_available() and cpp_extension.CUDA_HOME is not None


def pkg_config(*args):
    try:
        return subprocess.check_output(["pkg-config", *args, *ABSEIL], text=True).split()
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"oneflow_promote_torch: Abseil not found through pkg-config ({e}); on Debian, "
                 "apt-get install libabsl-dev pkg-config")


APART = OWN_FLAGS_SOURCES + ISA_SOURCES.get({"amd64": "x86_64", "arm64": "aarch64"}.get(
    os.uname().machine.lower(), os.uname().machine.lower()), [])
CXX_FLAGS = ["-O3", "-g0", "-fopenmp", "-DFMT_HEADER_ONLY", "-Wno-unused-function"]


class BuildExtension(cpp_extension.BuildExtension):
    """cpp_extension's build, with the sources of OWN_FLAGS_SOURCES and
    ISA_SOURCES compiled with their own flags; then the Abseil shared
    libraries _C.so loads copied beside it."""

    def finalize_options(self):
        super().finalize_options()
        # Objects of one torch are not another's (pip builds in the source
        # tree, and keeps build/ between installs).
        self.build_temp = os.path.join(self.build_temp, f"torch-{torch.__version__}")

    def build_extension(self, ext):
        # Side by side, each in a folder of its own (cpp_extension writes a
        # build.ninja per compile call): they are the longest compiles.
        def compile_apart(item):
            source, own_flags = item
            flags = ext.extra_compile_args_cxx + own_flags
            return self.compiler.compile(
                [os.path.join(ROOT, source)],
                output_dir=os.path.join(self.build_temp, os.path.basename(source)),
                include_dirs=ext.include_dirs,
                extra_postargs={"cxx": flags, "nvcc": []} if ext.cuda else flags)

        with concurrent.futures.ThreadPoolExecutor(len(APART)) as pool:
            for objects in pool.map(compile_apart, APART):
                ext.extra_objects = list(ext.extra_objects or []) + objects
        super().build_extension(ext)

    def run(self):
        super().run()
        for ext in self.extensions:
            built = self.get_ext_fullpath(ext.name)
            for name, path in re.findall(r"^\s*(libabsl_\S+) => (\S+)",
                                         subprocess.check_output(["ldd", built], text=True),
                                         re.MULTILINE):
                target = os.path.join(os.path.dirname(built), name)
                if not (os.path.exists(target) and os.path.samefile(path, target)):
                    shutil.copy2(path, target)


def extension():
    cuda = with_cuda()
    sources = LIBRARY_SOURCES + EXTENSION_SOURCES + (CUDA_SOURCES if cuda else [])
    make = cpp_extension.CUDAExtension if cuda else cpp_extension.CppExtension
    cxx = CXX_FLAGS + [f"-DONEFLOW_PROMOTE_HAVE_CUDA={int(cuda)}"] + pkg_config("--cflags")
    # Ampere and Hopper, unless TORCH_CUDA_ARCH_LIST names others (as for
    # any torch extension: cpp_extension turns it into -gencode flags).
    archs = [] if os.environ.get("TORCH_CUDA_ARCH_LIST") else [
        "-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90"]
    nvcc = ["-O3", "--expt-relaxed-constexpr", "-DONEFLOW_PROMOTE_HAVE_CUDA=1"] + archs
    ext = make(
        name="oneflow_promote_torch._C",
        sources=[os.path.join(ROOT, s) for s in sources],
        include_dirs=[ROOT],
        extra_compile_args={"cxx": cxx, "nvcc": nvcc} if cuda else cxx,
        # DT_RPATH, not RUNPATH: Abseil's libraries find each other beside
        # _C.so too.
        extra_link_args=["-fopenmp", "-Wl,--disable-new-dtags,-rpath,$ORIGIN"] +
        pkg_config("--libs"),
    )
    ext.cuda = cuda
    ext.extra_compile_args_cxx = cxx
    return ext


setup(
    name="oneflow_promote_torch",
    version="0.1.0",
    description="oneflow_promote's dtype rules and kernels as a PyTorch op library",
    packages=["oneflow_promote_torch"],
    ext_modules=[extension()],
    cmdclass={"build_ext": BuildExtension.with_options(no_python_abi_suffix=True)},
    python_requires=">=3.9",
)
