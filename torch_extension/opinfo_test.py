"""torch.ops.oneflow_promote.* judged by PyTorch's own test data: every
OpInfo of op_db whose op the extension registers (div in each rounding
mode, true_divide, the comparisons, ...), over its reference_inputs on
every dtype torch lists for it on the CPU (and on CUDA where a GPU is
present), gives torch's dtype, shape and values bit for bit (NaN where
torch has NaN), or raises where torch raises, with torch's error type; its
error_inputs raise as torch's do. The few differences torch's own code
paths leave in the last bits are bounded per op in TOLERANCE_ULP and stated
in docs/ops.md. torch.library.opcheck runs on a sample of the same inputs.

    python3 torch_extension/opinfo_test.py --summary   # the counts per op
"""

import collections
import functools
import sys
import warnings

import pytest
import torch

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)

warnings.filterwarnings("ignore", category=UserWarning)
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402

ours = torch.ops.oneflow_promote

# OpInfo name -> the extension's op computing it.
OURS_OF = {
    "add": "add", "sub": "sub", "mul": "mul", "div": "div", "true_divide": "div",
    "floor_divide": "floor_divide", "remainder": "remainder", "maximum": "maximum",
    "minimum": "minimum", "atan2": "atan2", "eq": "eq", "ne": "ne", "lt": "lt", "le": "le",
    "gt": "gt", "ge": "ge", "logical_and": "logical_and", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor", "where": "where",
}

# The bound, in units in the last place, within which an op's results may
# differ from torch's where torch itself leaves the last bits to its code
# path; every other (op, dtype) must be bit for bit. docs/ops.md states
# each bound with the measurement behind it. For complex results the unit
# is an ulp of the larger part's magnitude.
_C64, _C128 = torch.complex64, torch.complex128
TOLERANCE_ULP = {
    # Sleef's vectorized atan2 (1.0 ulp) in torch's vector loop, libm's in
    # its scalar one; ours rounds a double atan2 once.
    **{("atan2", d): 1 for d in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,
                                 torch.int64, torch.float16, torch.bfloat16, torch.float32,
                                 torch.float64)},
    # torch's scalar loop fuses (ac - bd) into a multiply-add, its vector
    # loop does not, and ours does not.
    ("mul", _C64): 1, ("mul", _C128): 1,
    # Smith's algorithm: fused multiply-adds in torch's vector loop and
    # ours, none in its scalar loop.
    ("div.no_rounding_mode", _C64): 2, ("div.no_rounding_mode", _C128): 1,
    ("true_divide", _C64): 2, ("true_divide", _C128): 1,
    # alpha: torch fuses self + alpha * other in float64, ours rounds the
    # product first (no wider dtype to hold it).
    ("add", torch.float64): 16, ("sub", torch.float64): 16,
}
# Where a product of parts overflows, torch's fused scalar loop gives
# (inf - inf) as -inf and its vector loop (and ours) NaN: for complex mul a
# non-finite result need only be non-finite on both sides.
NONFINITE_ALIKE = {"mul"}


def opinfos():
    found = [op for op in op_db if op.name in OURS_OF]
    assert len(found) >= 25, [op.name for op in found]
    return found


def op_id(opinfo):
    return opinfo.name + ("." + opinfo.variant_test_name if opinfo.variant_test_name else "")


def devices():
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def call_torch(opinfo, sample):
    return opinfo.op(sample.input, *sample.args, **sample.kwargs)


def call_ours(opinfo, sample):
    if opinfo.name == "where":  # OpInfo's where is (self, condition, other)
        condition, other = sample.args
        return ours.where(condition, sample.input, other, **sample.kwargs)
    return getattr(ours, OURS_OF[opinfo.name])(sample.input, *sample.args, **sample.kwargs)


_INT_OF_SIZE = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _ordered(x):
    """A float tensor's bits as integers that order as its values do, so that
    differences count ulps (NaNs aside)."""
    i = x.contiguous().view(_INT_OF_SIZE[x.element_size()]).to(torch.int64)
    sign_free = i & ((1 << (8 * x.element_size() - 1)) - 1)
    return torch.where(i < 0, -sign_free, sign_free)


def _parts(x):
    if x.dtype.is_complex:
        if x.dtype == torch.complex32:  # view_as_real has no complex32 kernel
            x = x.to(torch.complex64)
            return torch.view_as_real(x).to(torch.float16)
        return torch.view_as_real(x)
    return x


def ulp_distance(theirs, mine):
    """0 for bit-equal results (NaN equals NaN, whatever its payload), else
    the largest difference in ulps; inf where one side is NaN and the other
    is not, or values differ in integers and bools."""
    if theirs.numel() == 0:
        return 0
    if not (theirs.dtype.is_floating_point or theirs.dtype.is_complex):
        return 0 if torch.equal(theirs, mine) else float("inf")
    a, b = _parts(theirs), _parts(mine)
    nan_a, nan_b = a.isnan(), b.isnan()
    if not torch.equal(nan_a, nan_b):
        return float("inf")
    da, db = _ordered(a), _ordered(b)
    return int((da - db).abs().masked_fill(nan_a, 0).max())


def _complex_ulps(theirs, mine):
    """For complex results: the largest difference of a part, in ulps of the
    larger of torch's two parts: a part that cancels (ac - bd) is judged
    against the number's magnitude, as its rounding errors are."""
    a, b = _parts(theirs).to(torch.float64), _parts(mine).to(torch.float64)
    finfo = torch.finfo(_parts(theirs).dtype)
    scale = a.abs().amax(dim=-1, keepdim=True).clamp(min=finfo.tiny)
    ulp = torch.exp2(torch.floor(torch.log2(scale))) * finfo.eps
    diff = ((a - b).abs() / ulp).nan_to_num(0.0, posinf=float("inf"))
    return float(diff.max())


Outcome = collections.namedtuple("Outcome", "kind detail")


def same_refusal(theirs, mine):
    """Whether ours raised as torch did: torch's exception class (or one
    derived from it); where torch's Python binding raises TypeError for an
    argument no overload takes (torch.atan2(t, 2)), torch.ops' own answer
    to a call no schema matches, RuntimeError, which torch.ops.aten gives
    too."""
    if isinstance(mine, type(theirs)):
        return True
    return (type(theirs) is TypeError and type(mine) is RuntimeError
            and "failed to match any schema" in str(mine))


def judge(opinfo, sample):
    """How the extension's answer to one sample compares with torch's:
    "exact", "both raise", "close" (within TOLERANCE_ULP), "wrong",
    "raised" (torch computes), "no refusal" (torch raises) or "wrong error"
    (another exception type than torch's)."""
    try:
        theirs = call_torch(opinfo, sample)
    except Exception as e:  # noqa: BLE001  (any refusal of torch's)
        try:
            call_ours(opinfo, sample)
        except Exception as mine:  # noqa: BLE001
            if same_refusal(e, mine):
                return Outcome("both raise", "")
            return Outcome("wrong error",
                           f"{type(mine).__name__}: {mine}; torch {type(e).__name__}: {e}")
        return Outcome("no refusal", f"torch {type(e).__name__}: {e}")
    try:
        mine = call_ours(opinfo, sample)
    except Exception as e:  # noqa: BLE001
        return Outcome("raised", f"{type(e).__name__}: {str(e).splitlines()[0]}")
    if mine.dtype != theirs.dtype or mine.shape != theirs.shape or mine.device != theirs.device:
        return Outcome("wrong", f"{mine.dtype} {tuple(mine.shape)} {mine.device}, torch "
                       f"{theirs.dtype} {tuple(theirs.shape)} {theirs.device}")
    distance = ulp_distance(theirs.cpu(), mine.cpu())
    if distance == 0:
        return Outcome("exact", "")
    if (distance == float("inf") and theirs.dtype.is_complex
            and opinfo.name in NONFINITE_ALIKE):
        finite = torch.isfinite(theirs)
        if torch.equal(finite, torch.isfinite(mine)):
            theirs, mine = theirs[finite], mine[finite]
            distance = ulp_distance(theirs.cpu(), mine.cpu())
    if distance != float("inf") and theirs.dtype.is_complex:
        distance = _complex_ulps(theirs.cpu(), mine.cpu())
    bound = TOLERANCE_ULP.get((op_id(opinfo), theirs.dtype), 0)
    detail = f"{distance} ulp"
    if distance <= bound:
        return Outcome("close", detail)
    return Outcome("wrong", detail + f" (bound {bound})\n  torch {theirs}\n  ours  {mine}")


def describe(sample):
    def one(x):
        if torch.is_tensor(x):
            return f"{x.dtype}{list(x.shape)}" + ("" if x.numel() > 4 else f"={x.tolist()}")
        return repr(x)
    args = ", ".join(one(a) for a in (sample.input, *sample.args))
    kwargs = "".join(f", {k}={v!r}" for k, v in sample.kwargs.items())
    return f"({args}{kwargs})"


def reference_samples(opinfo, device, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield from opinfo.reference_inputs(device, dtype, requires_grad=False)


def dtypes_of(opinfo, device):
    return sorted(opinfo.supported_dtypes(device), key=str)


@functools.lru_cache(maxsize=None)
def run_reference(name, device):
    """Every reference sample of one OpInfo on one device, judged: outcome
    counts and up to 5 examples of each outcome that is not agreement."""
    opinfo = next(op for op in opinfos() if op_id(op) == name)
    counts = collections.Counter()
    closest = collections.defaultdict(float)  # (dtype, kind) -> largest ulps of "close"
    examples = collections.defaultdict(list)
    for dtype in dtypes_of(opinfo, device):
        for sample in reference_samples(opinfo, device, dtype):
            outcome = judge(opinfo, sample)
            counts[outcome.kind] += 1
            if outcome.kind == "close":
                closest[dtype] = max(closest[dtype], float(outcome.detail.split()[0]))
            elif outcome.kind not in ("exact", "both raise"):
                if len(examples[outcome.kind]) < 5:
                    examples[outcome.kind].append(
                        f"{name} {dtype} {describe(sample)}: {outcome.detail}")
    return counts, dict(closest), dict(examples)


def failures(examples):
    return "\n".join(line for lines in examples.values() for line in lines)


@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("name", [op_id(op) for op in opinfos()])
def test_reference_inputs_match_torch(name, device):
    counts, _, examples = run_reference(name, device)
    assert counts["exact"] > 0, counts
    for kind in ("wrong", "raised", "no refusal", "wrong error"):
        assert counts[kind] == 0, f"{counts[kind]} {kind}:\n{failures(examples)}"


def with_error_inputs():
    return [op_id(op) for op in opinfos() if any(True for _ in op.error_inputs("cpu"))]


@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("name", with_error_inputs())
def test_error_inputs_raise_as_torch_does(name, device):
    opinfo = next(op for op in opinfos() if op_id(op) == name)
    checked = 0
    for error in opinfo.error_inputs(device):
        sample = error.sample_input
        with pytest.raises(error.error_type, match=error.error_regex) as theirs:
            call_torch(opinfo, sample)  # the OpInfo's claim, on this torch
        # torch's class, not merely the OpInfo's (often Exception).
        with pytest.raises(error.error_type) as mine:
            call_ours(opinfo, sample)
        assert same_refusal(theirs.value, mine.value), (describe(sample), mine.value,
                                                        theirs.value)
        checked += 1
    assert checked > 0


# opcheck (schema, autograd registration, FakeTensor, AOT dispatch) on the
# first samples of each OpInfo on a few dtypes, and its first with a Python
# number (a Scalar overload): every sample would take ten minutes on two
# cores, and the kernels are one per dispatch key for all dtypes alike.
OPCHECK_DTYPES = (torch.float32, torch.int64, torch.bool, torch.complex64)
OPCHECK_SAMPLES = 2


def opcheck_cases():
    for opinfo in opinfos():
        for dtype in OPCHECK_DTYPES:
            if dtype not in opinfo.supported_dtypes("cpu"):
                continue
            grad = dtype.is_floating_point or dtype.is_complex
            grad &= opinfo.supports_autograd and opinfo.name not in ("floor_divide",)
            yield pytest.param(opinfo, dtype, grad, id=f"{op_id(opinfo)}-{str(dtype)[6:]}")


def reference_samples_while_made(opinfo, dtype, requires_grad):
    """The reference samples until the OpInfo fails to make one (where's
    makes a bool condition that requires grad, and raises, after its first
    samples)."""
    samples = opinfo.reference_inputs("cpu", dtype, requires_grad=requires_grad)
    while True:
        try:
            yield next(samples)
        except (StopIteration, ValueError):
            return


@pytest.mark.parametrize("opinfo,dtype,grad", list(opcheck_cases()))
def test_opcheck_on_opinfo_samples(opinfo, dtype, grad):
    checked, with_number = 0, False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for sample in reference_samples_while_made(opinfo, dtype, grad):
            number = not all(torch.is_tensor(a) for a in (sample.input, *sample.args))
            if checked >= OPCHECK_SAMPLES and (with_number or not number):
                continue
            try:
                call_torch(opinfo, sample)
            except Exception:  # noqa: BLE001  (a refusal: nothing to check)
                continue
            if number and not any(torch.is_tensor(a) for a in (sample.input, *sample.args)):
                continue  # Scalar_Scalar: no tensor for opcheck to check
            with_number |= number
            if opinfo.name == "where":
                condition, other = sample.args
                args = (condition, sample.input, other)
            else:
                args = (sample.input, *sample.args)
            # opcheck takes one overload: the one torch.ops picks for the call.
            qualified = "oneflow_promote::" + OURS_OF[opinfo.name]
            overload = torch._C._jit_resolve_packet(qualified, *args, **sample.kwargs)
            packet = getattr(ours, OURS_OF[opinfo.name])
            torch.library.opcheck(getattr(packet, overload), args, sample.kwargs)
            checked += 1
    assert checked > 0


def summary():
    """Prints the counts per OpInfo and device, the largest close
    differences, and examples of every disagreement."""
    total = collections.Counter()
    for device in devices():
        for opinfo in opinfos():
            name = op_id(opinfo)
            counts, closest, examples = run_reference(name, device)
            total.update(counts)
            close = ", ".join(f"{str(d)[6:]} {u:g}" for d, u in sorted(closest.items(), key=str))
            print(f"{device} {name}: {dict(counts)}" + (f" close ulp: {close}" if close else ""))
            for lines in examples.values():
                for line in lines:
                    print("   ", line)
    errors = sum(1 for op in opinfos() for _ in op.error_inputs("cpu"))
    print(f"total: {sum(total.values())} samples {dict(total)}; {errors} error inputs")


if __name__ == "__main__":
    if "--summary" in sys.argv:
        summary()
    else:
        sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
