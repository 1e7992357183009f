"""torch.ops.oneflow_promote.* judged by PyTorch's own test data: every
OpInfo of op_db whose op the extension registers (div in each rounding
mode, true_divide, the comparisons, ...), over its reference_inputs on
every dtype torch lists for it on the CPU (and on CUDA where a GPU is
present), gives torch's dtype, shape, strides and values bit for bit (NaN where
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
from bit_judge import same_refusal, torch_version, ulp_distance
from cuda_cases import DEVICES

warnings.filterwarnings("ignore", category=UserWarning)
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402
from torch.testing._internal.opinfo.core import SampleInput  # noqa: E402

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
# path, keyed by (OpInfo, result dtype, device, path): "alpha" for add and
# sub with alpha other than 1, "scalar" for a Python-number operand, "tensor"
# otherwise. Every other case is bit for bit. docs/ops.md states each bound
# with the measurement behind it. For complex results the unit is an ulp of
# the larger finite part's magnitude; infinite and NaN parts, the sign of a
# zero, and integers must match exactly whatever the bound.
_C64, _C128 = torch.complex64, torch.complex128
TOLERANCE_ULP = {
    # Sleef's vectorized atan2 (1.0 ulp) in torch's vector loop, libm's in
    # its scalar one; ours rounds a double atan2 once. (atan2 of integers
    # gives float32.)
    **{("atan2", d, "cpu", path): 1 for d in (torch.float16, torch.bfloat16, torch.float32,
                                               torch.float64) for path in ("tensor", "scalar")},
}

# The extension computes complex products and quotients as torch 2.15's
# loops do, each element in the loop that computes it there
# (complex_products.h): bit for bit. Older torches' loops are not modelled;
# there these bounds hold (torch 2.11), and where a product of parts
# overflows, torch's fused loop gives (inf - inf) as -inf and its vector
# loop NaN: for complex64 mul a non-finite part need only be non-finite on
# both sides.
NONFINITE_ALIKE = set()
if torch_version() < (2, 15):
    TOLERANCE_ULP.update({
        **{("mul", d, "cpu", path): 1 for d in (_C64, _C128) for path in ("tensor", "scalar")},
        **{(op, d, "cpu", path): 2 if d == _C64 else 1 for d in (_C64, _C128)
           for op in ("div.no_rounding_mode", "true_divide") for path in ("tensor", "scalar")},
    })
    NONFINITE_ALIKE = {("mul", _C64, "cpu")}


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


Outcome = collections.namedtuple("Outcome", "kind detail")


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
    if (mine.dtype != theirs.dtype or mine.shape != theirs.shape or mine.device != theirs.device
            or mine.stride() != theirs.stride()):
        return Outcome("wrong", f"{mine.dtype} {tuple(mine.shape)} strides {mine.stride()} "
                       f"{mine.device}, torch {theirs.dtype} {tuple(theirs.shape)} strides "
                       f"{theirs.stride()} {theirs.device}")
    path = ("alpha" if sample.kwargs.get("alpha", 1) != 1 else
            "scalar" if not all(torch.is_tensor(x) for x in (sample.input, *sample.args))
            else "tensor")
    device = theirs.device.type
    theirs, mine = theirs.cpu(), mine.cpu()
    if (theirs.dtype.is_complex and (opinfo.name, theirs.dtype, device) in NONFINITE_ALIKE
            and torch.equal(torch.isfinite(theirs), torch.isfinite(mine))):
        finite = torch.isfinite(theirs)
        theirs, mine = theirs[finite], mine[finite]
    if device == "cpu" and torch.is_tensor(sample.input) and sample.args:
        either = overflowing_before_2_15(opinfo.name, sample.input, sample.args[0], theirs)
        if either is not None:
            mine = torch.where(either, theirs, mine)
    distance = ulp_distance(theirs, mine)
    if distance == 0:
        return Outcome("exact", "")
    bound = TOLERANCE_ULP.get((op_id(opinfo), theirs.dtype, device, path), 0)
    detail = f"{distance} ulp"
    if distance <= bound:
        return Outcome("close", detail)
    return Outcome("wrong", detail + f" (bound {bound})\n  torch {theirs}\n  ours  {mine}")


def overflowing_before_2_15(op, a, b, theirs):
    """The extension writes remainder's NaNs as torch 2.15's vector loop
    gives them (Sleef's fmod, where |a| / |b| overflows the float it computes
    in). Before 2.15 that loop computed otherwise: there, the positions where
    the quotient overflows are left to torch (docs/ops.md, "Element
    semantics"). None elsewhere."""
    if (torch_version() >= (2, 15) or theirs.device.type != "cpu" or op != "remainder"
            or not theirs.dtype.is_floating_point):
        return None
    a, b = (x.expand_as(theirs) if torch.is_tensor(x) else torch.full_like(theirs, x)
            for x in (a, b))
    wide = torch.float64 if theirs.dtype == torch.float64 else torch.float32
    quotient = a.to(torch.float64) / b.to(torch.float64)
    return quotient.abs() > torch.finfo(wide).max


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


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", [op_id(op) for op in opinfos()])
def test_reference_inputs_match_torch(name, device):
    counts, _, examples = run_reference(name, device)
    assert counts["exact"] > 0, counts
    for kind in ("wrong", "raised", "no refusal", "wrong error"):
        assert counts[kind] == 0, f"{counts[kind]} {kind}:\n{failures(examples)}"


def with_error_inputs():
    return [op_id(op) for op in opinfos() if any(True for _ in op.error_inputs("cpu"))]


@pytest.mark.parametrize("device", DEVICES)
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


def test_the_judge_fails_planted_errors(monkeypatch):
    """The judge itself: a wrong sign of zero, a wrong NaN or infinite
    part, 2 ulp in a plain float64 add and 1 with alpha are wrong, whatever the bounds."""
    add = next(op for op in opinfos() if op.name == "add")
    mul = next(op for op in opinfos() if op.name == "mul")
    x = torch.tensor([1.5, -0.0, 3.0], dtype=torch.float64)
    y = torch.tensor([0.25, 0.0, 1e-3], dtype=torch.float64)
    plain = SampleInput(x, args=(y,))
    with_alpha = SampleInput(x, args=(y,), kwargs={"alpha": 3})
    z = torch.tensor([complex(1, 2), complex(-3, 0.5)], dtype=torch.complex64)
    w = torch.tensor([complex(0.5, 1), complex(2, -1)], dtype=torch.complex64)

    def judged(opinfo, sample, planted):
        monkeypatch.setattr(sys.modules[__name__], "call_ours", lambda o, s: planted(call_torch(o, s)))
        return judge(opinfo, sample).kind

    def nudged(ulps, at=0):
        def plant(t):
            t = t.clone()
            for _ in range(ulps):
                t[at] = torch.nextafter(t[at], torch.tensor(float("inf"), dtype=t.dtype))
            return t
        return plant

    def part(index, value):
        def plant(t):
            parts = torch.view_as_real(t.clone())
            parts.view(-1)[index] = value
            return torch.view_as_complex(parts)
        return plant

    assert judged(add, plain, lambda t: t) == "exact"
    assert judged(add, plain, lambda t: torch.where(t == 0, -t, t)) == "wrong"  # -0.0
    assert judged(add, plain, nudged(2)) == "wrong"
    assert judged(add, with_alpha, nudged(1)) == "wrong"  # fused, as torch's: no bound
    assert judged(mul, SampleInput(z, args=(w,)), part(0, float("nan"))) == "wrong"

    def complex_sample(real, imag):
        zero = torch.zeros(1, dtype=torch.complex128)
        return SampleInput(torch.tensor([complex(real, imag)], dtype=torch.complex128),
                           args=(zero,))
    assert judged(add, complex_sample(float("nan"), 1), part(1, 1e30)) == "wrong"
    assert judged(add, complex_sample(float("inf"), 5), part(1, -7.0)) == "wrong"
    assert judged(add, complex_sample(float("inf"), 5), part(0, 3e38)) == "wrong"


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
