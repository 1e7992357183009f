"""Compiler options for targets that include libtorch's headers.

PyTorch 2.15's ATen/ATen.h requires C++20 (it has an #error under C++17),
while the library itself is C++17 (.bazelrc). Every target whose sources
include ATen, c10 or torch headers, directly or through a header of its own
deps (tests/torch_oracle.h, torch_tensor_traits.h, tests/autotest/autotest.h),
takes these copts; a target's copts come after --cxxopt on the command line,
so -std=c++20 wins there and nowhere else.
"""

TORCH_COPTS = ["-std=c++20"]
