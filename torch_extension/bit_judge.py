"""How far the extension's result is from torch's, as the tests judge it:
bit for bit, with NaN by position (any payload), infinities by position and
sign, the sign of every zero, every part of a complex number, integers
exactly; else the difference in units in the last place.
"""

import torch

_INT_OF_SIZE = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _ordered(x):
    """A float tensor's bits as integers that order as its values do, so that
    differences count ulps (NaNs aside); -0.0 sits one below +0.0."""
    i = x.contiguous().view(_INT_OF_SIZE[x.element_size()]).to(torch.int64)
    sign_free = i & ((1 << (8 * x.element_size() - 1)) - 1)
    return torch.where(i < 0, -sign_free - 1, sign_free)


def _parts(x):
    x = x.resolve_conj().resolve_neg()  # view_as_real refuses a lazy conjugate
    if x.dtype.is_complex:
        if x.dtype == torch.complex32:  # view_as_real has no complex32 kernel
            x = x.to(torch.complex64)
            return torch.view_as_real(x).to(torch.float16)
        return torch.view_as_real(x)
    return x


def _exact_where_it_must_be(a, b):
    """Whether the parts that admit no bound agree: NaN by position,
    infinities by position and sign, zeros by sign."""
    if not torch.equal(a.isnan(), b.isnan()):
        return False
    inf = a.isinf() | b.isinf()
    if not torch.equal(a[inf], b[inf]):
        return False
    zero = (a == 0) & (b == 0)
    return torch.equal(a[zero].signbit(), b[zero].signbit())


def ulp_distance(theirs, mine):
    """0 for bit-equal results (NaN equals NaN, whatever its payload), else
    the largest difference in ulps of a part; inf where a NaN, an infinity or
    the sign of a zero differs, or integers and bools differ. For complex
    results, in ulps of the larger finite part of torch's number."""
    if theirs.numel() == 0:
        return 0
    if not (theirs.dtype.is_floating_point or theirs.dtype.is_complex):
        return 0 if torch.equal(theirs, mine) else float("inf")
    a, b = _parts(theirs), _parts(mine)
    if not _exact_where_it_must_be(a, b):
        return float("inf")
    finite = a.isfinite()
    if not theirs.dtype.is_complex:
        return int((_ordered(a) - _ordered(b)).abs().masked_fill(~finite, 0).max())
    return _complex_ulps(a, b, finite)


def _complex_ulps(a, b, finite):
    """The largest difference of a finite part, in ulps of the larger finite
    part of torch's number: a part that cancels (ac - bd) is judged against
    the number's magnitude, as its rounding errors are."""
    finfo = torch.finfo(a.dtype)
    a64, b64 = a.to(torch.float64), b.to(torch.float64)
    scale = a64.abs().masked_fill(~finite, 0).amax(dim=-1, keepdim=True).clamp(min=finfo.tiny)
    ulp = torch.exp2(torch.floor(torch.log2(scale))) * finfo.eps
    diff = ((a64 - b64).abs() / ulp).masked_fill(~finite, 0)
    return float(diff.max()) if diff.numel() else 0.0


# The bounds, in ulps, of results whose last bits PyTorch itself leaves to
# its CPU code path (Sleef's or libm's atan2; before torch 2.15, whose loops
# the extension follows, its vectorized or scalar complex division), as
# opinfo_test.py measures them per path; on CUDA, and for every other (op,
# dtype), results are bit for bit.
def torch_version():
    """(major, minor) of the torch in this process."""
    return tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])


CPU_PATH_ULPS = {**{("atan2", d): 1 for d in (torch.float16, torch.bfloat16, torch.float32,
                                              torch.float64)}}
if torch_version() < (2, 15):
    CPU_PATH_ULPS.update({("div", torch.complex64): 2, ("div", torch.complex128): 1})


def assert_same(theirs, mine, what, op=None):
    """Same dtype, shape, strides and device type, and values within the
    op's CPU path bound (0 elsewhere; alpha computes as torch's, fused)."""
    assert mine.dtype == theirs.dtype, f"{what}: dtype {mine.dtype}, torch {theirs.dtype}"
    assert mine.shape == theirs.shape, f"{what}: shape {mine.shape}, torch {theirs.shape}"
    assert mine.stride() == theirs.stride(), f"{what}: strides {mine.stride()}, torch {theirs.stride()}"
    assert mine.device.type == theirs.device.type, f"{what}: on {mine.device}, torch {theirs.device}"
    bound = CPU_PATH_ULPS.get((op, theirs.dtype), 0) if theirs.device.type == "cpu" else 0
    distance = ulp_distance(theirs.detach().cpu(), mine.detach().cpu())
    assert distance <= bound, f"{what}: {distance} ulp (bound {bound})\n torch {theirs}\n ours  {mine}"


def same_refusal(theirs, mine):
    """Whether ours raised as torch did: torch's exception class (or one
    derived from it); where torch's Python binding raises TypeError for
    arguments no overload takes (torch.atan2(t, 2)), torch.ops' own answer
    to a call no schema matches, RuntimeError, which torch.ops.aten gives
    too."""
    if isinstance(mine, type(theirs)):
        return True
    # torch.ops: "failed to match any schema" over several overloads,
    # "Expected a value of type" where the packet has one.
    return (type(theirs) is TypeError and type(mine) is RuntimeError
            and ("failed to match any schema" in str(mine)
                 or "Expected a value of type" in str(mine)))


# The dtypes whose support torch documents as limited in eager mode: the
# unsigned integers past uint8 ("exist to assist usage with torch.compile"),
# the float8 formats, complex32 (experimental) and bcomplex32 (new in
# 2.15). A missing kernel for one of them is torch's gap, where ours may
# compute; for any other dtype the same text is torch's dtype rule.
LIMITED_SUPPORT = ("UInt16", "UInt32", "UInt64", "Float8_e4m3fn", "Float8_e5m2",
                   "Float8_e4m3fnuz", "Float8_e5m2fnuz", "Float8_e8m0fnu", "ComplexHalf",
                   "BComplex32")


def torch_lacks_kernel(error):
    """Whether torch's error is a missing kernel for a limited-support dtype
    (\"mul_cpu\" not implemented for 'BComplex32')."""
    return any(f"\" not implemented for '{dtype}'" in str(error) for dtype in LIMITED_SUPPORT)
