"""Tensor semantics of torch.ops.oneflow_promote.* as PyTorch has them, each
against torch itself (or numpy, for the one rounding into out=):
conjugate and negative views, partial and internal overlap refused with
torch's words and exact aliasing allowed, version counts of out= and
in-place calls, out=None, empty tensors everywhere, ranks beyond 8, and
out= of another dtype rounded once whatever its layout. CUDA cases run
where a GPU is present.
"""

import itertools
import sys

import numpy as np
import pytest
import torch

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)
from cuda_cases import DEVICES

ours = torch.ops.oneflow_promote



def same(theirs, mine, what, strides=True):
    assert mine.dtype == theirs.dtype, f"{what}: dtype {mine.dtype}, torch {theirs.dtype}"
    assert mine.shape == theirs.shape, f"{what}: shape {mine.shape}, torch {theirs.shape}"
    assert not strides or mine.stride() == theirs.stride(), (
        f"{what}: strides {mine.stride()}, torch {theirs.stride()}")
    torch.testing.assert_close(mine.cpu(), theirs.cpu(), rtol=0, atol=0, equal_nan=True,
                               msg=lambda m: f"{what}: {m}")


def complex_values(dtype, device):
    return torch.tensor([1 + 2j, -3 - 1j, 0.5 + 0j, -2j], dtype=dtype, device=device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_conjugate_and_negative_views_are_resolved(device, dtype):
    z = complex_values(dtype, device)
    r = torch.tensor([1.0, -2.0, 3.0, 0.5], device=device)
    cases = {
        "add(z.conj(), 0)": lambda m: m.add(z.conj(), 0),
        "mul(z.conj(), z.conj())": lambda m: m.mul(z.conj(), z.conj()),
        "sub(r, z.conj())": lambda m: m.sub(r, z.conj()),
        "add(neg view, 0)": lambda m: m.add(torch._neg_view(r), 0),
        "div(z, neg view of z)": lambda m: m.div(z, torch._neg_view(z)),
        "where(c, z.conj(), neg view)": lambda m: m.where(r > 0, z.conj(), torch._neg_view(z)),
        "eq(z.conj(), z)": lambda m: m.eq(z.conj(), z),
    }
    for what, call in cases.items():
        same(call(torch), call(ours), what)
    # Into conjugate and negative views: out= and in place.
    for m in (torch, ours):
        out = torch.empty(4, dtype=dtype, device=device).conj()
        m.add(z, 1, out=out)
        self_ = z.clone().conj()
        (self_.add_(1) if m is torch else ours.add_(self_, 1))
        negative = torch._neg_view(r.clone())
        (negative.mul_(2) if m is torch else ours.mul_(negative, 2))
        if m is torch:
            expected = (out.resolve_conj(), self_.resolve_conj(), negative.resolve_neg())
        else:
            for e, g, what in zip(expected, (out, self_, negative), ("out=", "add_", "mul_")):
                same(e, g.resolve_conj().resolve_neg(), f"into a view: {what}")


OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor "
           "refer to a single memory location. Please clone() the tensor before performing the "
           "operation.")
INTERNAL = ("unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")


@pytest.mark.parametrize("device", DEVICES)
def test_partial_overlap_is_refused_in_torchs_words(device):
    for m in (torch, ours):
        x = torch.arange(6.0, device=device).reshape(2, 3)
        with pytest.raises(RuntimeError, match=OVERLAP.replace("(", r"\(").replace(")", r"\)")):
            m.add(x, x[0], out=x)
        y = torch.arange(6.0, device=device)
        with pytest.raises(RuntimeError, match=r"some elements of the input tensor"):
            m.add(y[:3], 1, out=y[1:4])
        with pytest.raises(RuntimeError, match=r"some elements of the input tensor"):
            y[1:4].add_(y[:3]) if m is torch else ours.add_(y[1:4], y[:3])
        square = torch.arange(9.0, device=device).reshape(3, 3)
        with pytest.raises(RuntimeError, match=r"some elements of the input tensor"):
            m.mul(square.t(), 2, out=square)
        with pytest.raises(RuntimeError, match=INTERNAL.replace("(", r"\(").replace(")", r"\)")):
            m.add(torch.ones(2, 3, device=device), 1,
                  out=torch.empty(3, device=device).expand(2, 3))
        assert torch.equal(x, torch.arange(6.0, device=device).reshape(2, 3))  # untouched


@pytest.mark.parametrize("device", DEVICES)
def test_exact_aliasing_is_allowed(device):
    results = []
    for m in (torch, ours):
        x = torch.arange(6.0, device=device).reshape(2, 3)
        m.add(x, x, out=x)
        y = torch.arange(6, device=device).reshape(2, 3)
        m.mul(y, 2.5, out=torch.empty(0, device=device))
        z = torch.arange(1.0, 7.0, device=device)
        (z.div_(z) if m is torch else ours.div_(z, z))
        w = torch.arange(4.0, device=device)
        m.sub(torch.ones(4, device=device), w, out=w)  # out= is the second operand
        results.append((x, z, w))
    for theirs, mine, what in zip(results[0], results[1], ("add out=x", "div_", "sub out=other")):
        same(theirs, mine, what)


def test_out_and_in_place_count_writes_as_torch():
    for m in (torch, ours):
        out = torch.empty(3)
        versions = [out._version]
        m.add(torch.ones(3), 1, out=out)
        versions.append(out._version)
        (out.mul_(2) if m is torch else ours.mul_(out, 2))
        versions.append(out._version)
        m.eq(out, 4, out=torch.empty(3, dtype=torch.bool))  # another tensor
        versions.append(out._version)
        if m is torch:
            expected = versions
        else:
            assert versions == expected, (versions, expected)


def test_out_none_is_a_new_tensor():
    t = torch.arange(4.0)
    for call in (lambda m: m.add(t, 1.5, out=None), lambda m: m.div(t, 3, rounding_mode="floor",
                                                                       out=None),
                 lambda m: m.where(t > 1, t, t * 2, out=None)):
        same(call(torch), call(ours), "out=None")
    x = torch.ones(3, requires_grad=True)
    assert ours.mul(x, 2, out=None).requires_grad


EMPTY_SHAPES = [((0,), (0,)), ((0, 3), (3,)), ((2, 0), (1,)), ((0, 1), (1, 4)), ((0,), ())]
OPS = ["add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum", "atan2",
       "eq", "lt", "logical_and", "bitwise_xor"]


@pytest.mark.parametrize("device", DEVICES)
def test_empty_tensors_everywhere(device):
    checked = 0
    for op in OPS:
        for dtype in (torch.int32, torch.float32):
            if op == "bitwise_xor" and dtype.is_floating_point:
                continue
            for a_shape, b_shape in EMPTY_SHAPES:
                a = torch.ones(a_shape, dtype=dtype, device=device)
                b = torch.ones(b_shape, dtype=dtype, device=device)
                same(getattr(torch, op)(a, b), getattr(ours, op)(a, b), f"{op}{a_shape}{b_shape}")
                out = torch.empty(5, dtype=getattr(torch, op)(a, b).dtype, device=device)
                same(getattr(torch, op)(a, b, out=out.clone()), getattr(ours, op)(a, b, out=out),
                     f"{op} out=")
                checked += 1
    # Integer division of an empty tensor by 0 (or a Python int that wraps
    # to 0) computes nothing, so raises nothing.
    empty = torch.empty(0, dtype=torch.int32, device=device)
    for call in (lambda m: m.floor_divide(empty, 0), lambda m: m.remainder(empty, 0),
                 lambda m: m.div(empty, 0, rounding_mode="floor"),
                 lambda m: m.floor_divide(empty.to(torch.int8), 256),
                 lambda m: m.remainder(empty, torch.zeros(1, dtype=torch.int32, device=device))):
        same(call(torch), call(ours), "empty division by zero")
    # With elements, torch's CPU kernel raises; its CUDA kernel computes
    # the device's answer without looking (no wait for the device).
    ones = torch.ones(2, dtype=torch.int32, device=device)
    if device == "cpu":
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            ours.floor_divide(ones, 0)
    else:
        same(torch.floor_divide(ones, 0), ours.floor_divide(ones, 0), "CUDA division by zero")
    condition = torch.ones(0, 3, dtype=torch.bool, device=device)
    same(torch.where(condition, 1.5, torch.ones(3, device=device)),
         ours.where(condition, 1.5, torch.ones(3, device=device)), "where empty")
    e = torch.ones(0, 2, device=device)
    same(e.clone().add_(1), ours.add_(e.clone(), 1), "add_ on empty")
    meta = ours.floor_divide(torch.empty(0, dtype=torch.int32, device="meta"), 0)
    assert (meta.shape, meta.dtype) == ((0,), torch.int32)
    assert checked > 100


@pytest.mark.parametrize("device", DEVICES)
def test_ranks_beyond_eight(device):
    for rank in (9, 12, 25):
        shape = [2 if d % 4 == 0 else 1 for d in range(rank)]
        g = torch.Generator().manual_seed(rank)
        a = torch.randint(-5, 6, shape, generator=g).to(torch.int8).to(device)
        b = torch.randn([2] * 3, generator=g, dtype=torch.float64).to(device)
        strided = torch.randn(shape[::-1], generator=g).to(device).permute(*range(rank - 1, -1, -1))
        same(torch.add(a, b), ours.add(a, b), f"rank {rank} broadcast")
        same(torch.mul(strided, a), ours.mul(strided, a), f"rank {rank} permuted")
        same(torch.where(a > 0, strided, 1.5), ours.where(a > 0, strided, 1.5), f"rank {rank} where")
        out = torch.empty(shape[::-1], dtype=torch.float64, device=device).permute(
            *range(rank - 1, -1, -1))
        same(torch.sub(strided, a, out=out.clone()), ours.sub(strided, a, out=out),
             f"rank {rank} strided out=")


def operand_layouts(dtype, device):
    """Operands broadcasting to (2, 3, 4, 5) in the layouts by which
    TensorIterator orders its walk and lays out its result."""
    g = torch.Generator().manual_seed(5)

    def new(*shape):
        return torch.randint(-8, 9, shape, generator=g).to(dtype).to(device)

    return {
        "contiguous": new(2, 3, 4, 5),
        "transposed": new(2, 3, 5, 4).transpose(2, 3),
        "permuted": new(5, 3, 2, 4).permute(2, 1, 3, 0),
        "channels-last": new(2, 3, 4, 5).contiguous(memory_format=torch.channels_last),
        "sliced": new(2, 3, 4, 10)[..., ::2],
        "permuted and sliced": new(5, 3, 2, 8).permute(2, 1, 3, 0)[:, :, ::2],
        "broadcast": new(1, 3, 1, 5),
        # Contiguous, but the extent 1 has a stride other than row-major's,
        # which torch's result keeps.
        "extent 1, its own stride": new(3, 4, 5, 1).permute(3, 0, 1, 2),
        "lower rank, transposed": new(5, 4).t(),
        "0-d": new(),
    }


def on_meta(t):
    return torch.empty_strided(t.size(), t.stride(), dtype=t.dtype, device="meta")


@pytest.mark.parametrize("device", DEVICES)
def test_results_have_torchs_layout(device):
    # A transposed operand gives a transposed result, channels-last ones a
    # channels-last one, as TensorIterator decides; out= that is resized
    # too; the Meta kernel says what the CPU's does. Mixed dtypes: an input
    # converted on the CPU is read from a copy whose layout decides (on CUDA
    # it is read in place, which a meta tensor cannot tell).
    checked = 0
    for a_dtype, b_dtype in ((torch.float32, torch.float32), (torch.int32, torch.float64)):
        a_layouts, b_layouts = operand_layouts(a_dtype, device), operand_layouts(b_dtype, device)
        for (a_name, a), (b_name, b) in itertools.product(a_layouts.items(), b_layouts.items()):
            for op in ("add", "mul", "div", "eq", "maximum", "logical_or"):
                result_dtype = getattr(torch, op)(a, b).dtype
                for form, call in (
                        ("", lambda m, a, b: getattr(m, op)(a, b)),
                        (" out= resized", lambda m, a, b: getattr(m, op)(
                            a, b, out=torch.empty(0, dtype=result_dtype, device=a.device))),
                        (" Python scalar", lambda m, a, b: getattr(m, op)(a, 2))):
                    if form == " Python scalar" and op in ("maximum", "logical_or"):
                        continue
                    what = f"{op}({a_dtype} {a_name}, {b_dtype} {b_name}){form}"
                    theirs = call(torch, a, b)
                    same(theirs, call(ours, a, b), what)
                    checked += 1
                    if device != "cpu":
                        continue
                    # (torch's own Meta kernel lays out out= it resizes contiguously.)
                    mine = call(ours, on_meta(a), on_meta(b))
                    assert ((mine.dtype, mine.shape, mine.stride())
                            == (theirs.dtype, theirs.shape, theirs.stride())), what + " on meta"
    assert checked > 2000


@pytest.mark.parametrize("device", DEVICES)
def test_out_of_another_dtype_rounds_once_whatever_its_layout(device):
    # 1 + 2^-11 + 2^-40 in float64 lies just above the halfway point between
    # two float16 values: rounded once it goes up; rounded through float32
    # (which drops the 2^-40) it ties and goes to even, down.
    a = torch.full((4, 6), 1 + 2.0 ** -11, dtype=torch.float64, device=device)
    b = torch.full((6,), 2.0 ** -40, dtype=torch.float64, device=device)
    exact = (a + b).cpu().numpy()
    expected = torch.from_numpy(exact.astype(np.float16))  # numpy rounds once
    assert expected[0, 0].item() == 1 + 2.0 ** -10
    layouts = {
        "contiguous": torch.empty(4, 6, dtype=torch.float16, device=device),
        "transposed": torch.empty(6, 4, dtype=torch.float16, device=device).t(),
        "every other": torch.empty(4, 12, dtype=torch.float16, device=device)[:, ::2],
        "resized from empty": torch.empty(0, dtype=torch.float16, device=device),
    }
    for what, out in layouts.items():
        twin = torch.empty_strided(out.size(), out.stride(), dtype=out.dtype, device=device)
        mine = ours.add(a, b, out=out)
        same(expected, mine, f"out= {what}", strides=False)
        assert mine.stride() == torch.add(a, b, out=twin).stride(), what
    self_ = torch.zeros(6, 4, dtype=torch.float16, device=device).t()
    same(expected, ours.add_(self_, ours.add(a, b)), "in place into a transposed float16 self",
         strides=False)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
