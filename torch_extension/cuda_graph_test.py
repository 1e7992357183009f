"""torch.ops.oneflow_promote on a CUDA device as PyTorch users run it:
integer division by zero gives torch's own CUDA answer (no error, and no
wait for the device), and the ops capture in a CUDA graph and replay with
torch.cuda.graph. Skips without a GPU.
"""

import sys

import pytest
import torch

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)
from cuda_cases import needs_cuda

ops = torch.ops.oneflow_promote
pytestmark = needs_cuda

INTEGER_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
DIVISIONS = {
    "floor_divide": (ops.floor_divide, torch.floor_divide),
    "remainder": (ops.remainder, torch.remainder),
    "div floor": (lambda a, b: ops.div(a, b, rounding_mode="floor"),
                  lambda a, b: torch.div(a, b, rounding_mode="floor")),
    "div trunc": (lambda a, b: ops.div(a, b, rounding_mode="trunc"),
                  lambda a, b: torch.div(a, b, rounding_mode="trunc")),
}


@pytest.mark.parametrize("name", sorted(DIVISIONS))
@pytest.mark.parametrize("dtype", INTEGER_DTYPES, ids=str)
def test_integer_division_by_zero_is_torchs_cuda_answer(name, dtype):
    ours, theirs = DIVISIONS[name]
    a = torch.tensor([7, -7, 0, 5, -128, 127, 1, -1], device="cuda").to(dtype)
    b = torch.tensor([0, 0, 0, 2, -1, -3, 0, 0], device="cuda").to(dtype)
    got, want = ours(a, b), theirs(a, b)
    assert got.dtype == want.dtype
    assert torch.equal(got, want), f"{got.tolist()} vs torch {want.tolist()}"


def test_ops_capture_in_a_cuda_graph_and_replay():
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randint(-100, 100, (4099,), dtype=torch.int32, device="cuda", generator=g)
    y = torch.randint(-9, 10, (4099,), dtype=torch.int32, device="cuda", generator=g)
    small = torch.randint(-100, 100, (4099,), dtype=torch.int8, device="cuda", generator=g)
    f = torch.randn(4099, device="cuda", generator=g)

    def run():
        return {
            "floor_divide": ops.floor_divide(x, y),
            "remainder": ops.remainder(x, y),
            "add int8 + float32": ops.add(small, f),
            "mul int32 * 2.5": ops.mul(x, 2.5),
            "where": ops.where(x > 0, small, f),
        }

    def expected():
        return {
            "floor_divide": torch.floor_divide(x, y),
            "remainder": torch.remainder(x, y),
            "add int8 + float32": torch.add(small, f),
            "mul int32 * 2.5": torch.mul(x, 2.5),
            "where": torch.where(x > 0, small, f),
        }

    # Warm up on a side stream, as torch.cuda.graphs asks of captured code.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        run()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outputs = run()
    for seed in (1, 2):
        g.manual_seed(seed)
        x.copy_(torch.randint(-100, 100, x.shape, dtype=x.dtype, device="cuda", generator=g))
        y.copy_(torch.randint(-9, 10, y.shape, dtype=y.dtype, device="cuda", generator=g))
        graph.replay()
        torch.cuda.synchronize()
        for name, want in expected().items():
            assert outputs[name].dtype == want.dtype, name
            assert torch.equal(outputs[name], want), name


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
