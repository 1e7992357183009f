"""Detects the CUDA toolkit for Bazel 4.2.3 (rules_cuda needs Bazel >= 6).

The generated repository @local_cuda holds:
  //:cudart       cudart to link against (empty when no toolkit was found),
  //:defs.bzl     CUDA_AVAILABLE and NVCC, read by the cuda_library macro.
$CUDA_PATH picks the toolkit; the default is /usr/local/cuda.
"""

def _cuda_configure_impl(repository_ctx):
    cuda_path = repository_ctx.os.environ.get("CUDA_PATH", "/usr/local/cuda")
    nvcc = repository_ctx.path(cuda_path + "/bin/nvcc")
    available = nvcc.exists
    if available:
        repository_ctx.symlink(cuda_path + "/include", "include")
        repository_ctx.symlink(cuda_path + "/lib64", "lib64")
        build = """
package(default_visibility = ["//visibility:public"])

cc_library(
    name = "cudart",
    hdrs = glob(["include/*.h", "include/crt/*.h", "include/*.hpp"]),
    includes = ["include"],
    linkopts = ["-L{path}/lib64", "-Wl,-rpath,{path}/lib64", "-lcudart"],
)
""".format(path = cuda_path)
    else:
        build = """
package(default_visibility = ["//visibility:public"])

cc_library(name = "cudart")
"""
    repository_ctx.file("BUILD", build)
    repository_ctx.file("defs.bzl", "CUDA_AVAILABLE = {}\nNVCC = \"{}\"\nCUDA_PATH = \"{}\"\n".format(
        available,
        str(nvcc) if available else "",
        cuda_path,
    ))

cuda_configure = repository_rule(
    implementation = _cuda_configure_impl,
    environ = ["CUDA_PATH"],
    local = True,
)
