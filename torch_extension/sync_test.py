"""No call of torch.ops.oneflow_promote on CUDA waits for the device, as
none of torch's own does: every op the extension registers, through its
packet as users call it (mixed dtypes, Python numbers, CUDA 0-d tensors,
out=, in place, alpha and rounding_mode), first under
torch.cuda.set_sync_debug_mode("error"), which raises at any synchronizing
call torch makes (tensor repr, .item(), nonzero, a copy to the host), then
under torch.profiler, which sees the CUDA runtime calls of the library's
own code too (cudaStreamSynchronize, a blocking cudaMemcpy, cudaFree).
Each result is checked against torch's on the same operands. Skips without
a GPU (fails with ONEFLOW_PROMOTE_EXPECT_GPU=1).
"""

import sys

import pytest
import torch

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)
from cuda_cases import needs_cuda

pytestmark = needs_cuda
ours = torch.ops.oneflow_promote
N = 1 << 20  # past the per-call short paths, as the out= measurement was

# The CUDA runtime calls that make the host wait for the device.
BLOCKING_RUNTIME_CALLS = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize",
                          "cudaMemcpy", "cudaMemcpy2D", "cudaFree", "cudaMalloc")


def packets():
    """Every op the extension defines, from the dispatcher's registry."""
    names = sorted({name.split("::")[1].split(".")[0] for name in torch._C._dispatch_get_all_op_names()
                    if name.startswith("oneflow_promote::")})
    return [name for name in names if name not in ("op_dtypes", "cast_keeps")]


def operands():
    """(name, a, b): a's dtype differs from b's wherever b is a tensor."""
    g = torch.Generator(device="cuda").manual_seed(0)
    f32 = torch.randn(N, device="cuda", generator=g) * 10
    i8 = torch.randint(1, 100, (N,), device="cuda", generator=g).to(torch.int8)
    i32 = torch.randint(1, 1000, (N,), device="cuda", generator=g).to(torch.int32)
    return [("int8, float32", i8, f32), ("int32, int8", i32, i8), ("float32, 2", f32, 2),
            ("int32, 2.5", i32, 2.5), ("float32, 0-d int32", f32, torch.tensor(3, device="cuda")),
            ("int8, 0-d float64", i8, torch.tensor(0.5, dtype=torch.float64, device="cuda")),
            ("bool, int8", i8 > 50, i8)]


def calls(packet):
    """(description, ours, torch's) for each way of calling `packet`."""
    in_place = packet.endswith("_")
    base = packet.rstrip("_")
    torch_op = getattr(torch, base)
    extra = ({"alpha": 2} if base in ("add", "sub") else
             {"rounding_mode": "floor"} if base == "div" else {})
    for name, a, b in operands():
        if base == "where":
            condition = a > 1 if a.dtype != torch.bool else a
            yield (f"where({name})", lambda: ours.where(condition, a, b),
                   lambda: torch.where(condition, a, b))
            continue
        for kwargs in ({}, extra) if extra else ({},):
            if in_place:
                yield (f"{packet}({name}, {kwargs})",
                       lambda kwargs=kwargs, a=a, b=b: getattr(ours, packet)(a.clone(), b, **kwargs),
                       lambda kwargs=kwargs, a=a, b=b: getattr(a.clone(), packet)(b, **kwargs))
                continue
            yield (f"{packet}({name}, {kwargs})",
                   lambda kwargs=kwargs, a=a, b=b: getattr(ours, packet)(a, b, **kwargs),
                   lambda kwargs=kwargs, a=a, b=b: torch_op(a, b, **kwargs))
            # out= of the result's dtype, and of a wider one where torch takes it.
            for out_dtype in (None, torch.float64):
                def make_out(a=a, b=b, kwargs=kwargs, out_dtype=out_dtype):
                    like = torch_op(a, b, **kwargs)
                    return torch.empty_like(like, dtype=out_dtype or like.dtype)
                yield (f"{packet}({name}, {kwargs}, out={out_dtype or 'its dtype'})",
                       lambda kwargs=kwargs, a=a, b=b, m=make_out: getattr(ours, packet)(
                           a, b, **kwargs, out=m()),
                       lambda kwargs=kwargs, a=a, b=b, m=make_out: torch_op(a, b, **kwargs,
                                                                             out=m()))


def computed_by_torch(theirs):
    try:
        return theirs()
    except (RuntimeError, TypeError, NotImplementedError):
        return None


@pytest.mark.parametrize("packet", packets())
def test_no_call_synchronizes(packet):
    checked = 0
    for what, mine, theirs in calls(packet):
        expected = computed_by_torch(theirs)
        if expected is None:
            continue
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("error")
        try:
            got = mine()
        except RuntimeError as e:
            raise AssertionError(f"{what}: {e}") from e
        finally:
            torch.cuda.set_sync_debug_mode("default")
        assert got.dtype == expected.dtype, f"{what}: {got.dtype}, torch {expected.dtype}"
        # Values within float tolerance: opinfo_test.py judges the bits.
        torch.testing.assert_close(got, expected, equal_nan=True, msg=lambda m: f"{what}: {m}")
        checked += 1
    assert checked > 0


def test_no_blocking_runtime_call_under_the_profiler():
    """The library's own CUDA calls are not torch's: the profiler records
    every runtime call, from torch or not."""
    work = [call for packet in ("add", "mul", "div", "remainder", "where", "add_")
            for call in calls(packet)]
    work = [(what, mine) for what, mine, theirs in work if computed_by_torch(theirs) is not None]
    for _, mine in work:  # warm up: allocator pools, module loads
        mine()
    torch.cuda.synchronize()
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=activities) as profile:
        for _, mine in work:
            mine()
    blocking = [e.name for e in profile.events() if e.name in BLOCKING_RUNTIME_CALLS]
    runtime_calls = [e.name for e in profile.events() if e.name.startswith("cuda")]
    assert any(name.startswith("cudaLaunch") for name in runtime_calls), runtime_calls[:20]
    assert not blocking, f"{len(blocking)} blocking calls in {len(work)} ops: {blocking[:10]}"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
