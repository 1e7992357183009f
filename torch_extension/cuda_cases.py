"""The devices the extension's tests run on: the CPU, and CUDA as a case
that is always generated and skips with a reason where no GPU is, so that
a run's counts show it. With ONEFLOW_PROMOTE_EXPECT_GPU=1 (the GPU check
sets it) such a skip fails instead (conftest.py).
"""

import pytest
import torch

NO_CUDA = "no CUDA device"
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_CUDA)
CUDA = pytest.param("cuda", marks=needs_cuda, id="cuda")
DEVICES = ["cpu", CUDA]
