"""cuda_library: .cu sources compiled by nvcc in a genrule, linked as a cc_library.

Without a CUDA toolkit, or with --define=cuda=off (the sanitizer configs set it:
nvcc's host code is not instrumented, and no GPU runs it here), the target still
exists and builds: its .cu sources are left out and ONEFLOW_PROMOTE_HAVE_CUDA is 0
for everything that depends on it.
"""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE", "NVCC")

# Machine code for each of CUDA_ARCHS, all from one compute_80 PTX: the
# kernels use nothing newer, and a second front-end pass per arch doubled
# nvcc's share of the build.
CUDA_ARCHS = ["80", "90"]

def _with_cuda(present, absent):
    if not CUDA_AVAILABLE:
        return absent
    return select({
        "//third_party/cuda:off": absent,
        "//conditions:default": present,
    })

def cuda_library(name, cu_srcs = [], srcs = [], hdrs = [], deps = [], copts = [], nvcc_opts = [], nvcc_srcs = [], **kwargs):
    """nvcc_srcs: headers of other packages that the .cu sources include."""
    objs = []
    if CUDA_AVAILABLE:
        gencode = "-gencode arch=compute_{0},code=[{1}]".format(
            CUDA_ARCHS[0],
            ",".join(["sm_" + a for a in CUDA_ARCHS]),
        )
        for src in cu_srcs:
            obj = name + "_" + src.replace("/", "_").replace(".cu", ".o")
            native.genrule(
                name = obj + "_nvcc",
                srcs = [src] + hdrs + nvcc_srcs + ["//oneflow_promote:all_headers"],
                outs = [obj],
                cmd = " ".join([
                    NVCC,
                    "-std=c++17 -O3 -c -Xcompiler -fPIC --expt-relaxed-constexpr",
                    gencode,
                    "-I. -I$(GENDIR)",
                    "-DONEFLOW_PROMOTE_HAVE_CUDA=1",
                ] + nvcc_opts + ["-o $@ $(location " + src + ")"]),
            )
            objs.append(obj)
    native.cc_library(
        name = name,
        srcs = srcs + _with_cuda(objs, []),
        hdrs = hdrs,
        deps = deps + _with_cuda(["@local_cuda//:cudart"], []),
        copts = copts,
        defines = _with_cuda(["ONEFLOW_PROMOTE_HAVE_CUDA=1"], ["ONEFLOW_PROMOTE_HAVE_CUDA=0"]),
        **kwargs
    )
