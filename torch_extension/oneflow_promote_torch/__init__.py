"""oneflow_promote's ops for PyTorch: importing this package registers
torch.ops.oneflow_promote.add, sub, mul, div, where, eq, ... (README,
"The PyTorch extension").

The shared library is found beside this file (a Bazel runfiles tree or an
installed copy), at $ONEFLOW_PROMOTE_TORCH_LIBRARY, or in the source tree's
bazel-bin after `bazel build //torch_extension:oneflow_promote_torch/_C.so`.
"""

import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))
_BUILD_COMMAND = "bazel build //torch_extension:oneflow_promote_torch/_C.so"


def library_path():
    """The path of the extension's shared library; raises if it is not built."""
    candidates = [
        os.environ.get("ONEFLOW_PROMOTE_TORCH_LIBRARY"),
        os.path.join(_HERE, "_C.so"),
        os.path.join(_HERE, "..", "..", "bazel-bin", "torch_extension",
                     "oneflow_promote_torch", "_C.so"),
    ]
    for path in candidates:
        if path and os.path.isfile(path):
            return os.path.realpath(path)
    raise ImportError("oneflow_promote_torch: no _C.so found (looked at %s); build it with `%s`"
                      % (", ".join(p for p in candidates if p), _BUILD_COMMAND))


torch.ops.load_library(library_path())

from oneflow_promote_torch.overload_routing import route_packets  # noqa: E402

route_packets()

ops = torch.ops.oneflow_promote
