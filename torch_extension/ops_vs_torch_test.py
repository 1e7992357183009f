"""torch.ops.oneflow_promote.* against torch itself: result dtype and values
(bit for bit, NaN where torch has NaN) of every registered op on every
pair of torch dtypes, with tensors, 0-d tensors and Python scalars,
broadcasting, non-contiguous views and out=; the promotion kind of every
op against torch._refs' and its dtypes against torch._prims_common's
elementwise_dtypes. Cases where torch itself raises (no CPU kernel, a
promotion it refuses) are skipped: the library's rules decide those, and the
C++ oracle tests cover them. CUDA cases run only where a GPU is present.
"""

import itertools
import math
import sys

import pytest
import torch
import torch._prims_common as prims_common
import torch._refs as refs

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)
from bit_judge import assert_same, same_refusal, torch_lacks_kernel
from cuda_cases import needs_cuda

ours = torch.ops.oneflow_promote

DTYPES = [
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
    torch.complex128,
]

BINARY_OPS = [
    "add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum",
    "atan2", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor",
]

# The library's op names and the torch._refs function carrying their kind.
REF_OF = {
    "add": "add", "sub": "sub", "mul": "mul", "div": "true_divide", "div_floor": "floor_divide",
    "div_trunc": "trunc_divide", "floor_divide": "floor_divide", "remainder": "remainder",
    "pow": "pow", "maximum": "maximum", "minimum": "minimum", "atan2": "atan2", "eq": "eq",
    "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor", "bitwise_and": "bitwise_and",
    "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor", "where": "where", "neg": "neg",
    "abs": "abs", "sqrt": "sqrt", "dot": "dot",
}
ARITY = {"where": 3, "neg": 1, "abs": 1, "sqrt": 1}
REDUCTIONS = ["sum", "prod", "mean", "cumsum"]


def values(dtype, shape, seed):
    """Small values with signs, zeros, halves and (for floats) inf and NaN."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype.is_complex:
        real = (torch.randint(-8, 9, shape, generator=g) / 2.0).to(dtype)
        imag = (torch.randint(-8, 9, shape, generator=g) / 2.0).to(dtype)
        return real + 1j * imag
    if dtype.is_floating_point:
        x = torch.randint(-16, 17, shape, generator=g) / 4.0
        flat = x.view(-1)
        if flat.numel() >= 4:
            flat[:3] = torch.tensor([float("nan"), float("inf"), -0.0])
        return x.to(dtype)
    low = 0 if dtype == torch.uint8 else -6
    return torch.randint(low, 7, shape, generator=g).to(dtype)


def call_torch(op, *args, **kwargs):
    return getattr(torch, op)(*args, **kwargs)


def same(theirs, mine, what, op=None):
    assert_same(theirs, mine, what, op)


def compare(op, args, kwargs=None, what=""):
    """Both or neither raise, with torch's exception class; when torch
    computes, ours matches it. Returns whether torch computed."""
    kwargs = kwargs or {}
    try:
        theirs = call_torch(op, *args, **kwargs)
    except (RuntimeError, TypeError) as e:
        if torch_lacks_kernel(e):  # torch's gap, where ours may compute
            return False
        with pytest.raises(Exception) as mine:
            getattr(ours, op)(*args, **kwargs)
        assert same_refusal(e, mine.value), f"{op}{what}: {mine.value!r}, torch {e!r}"
        return False
    mine = getattr(ours, op)(*args, **kwargs)
    assert_same(theirs, mine, f"{op}{what}", op)
    return True


def second_operands(dtype, seed):
    """Tensors of another dtype in several layouts, and Python scalars."""
    other = values(dtype, (4, 5), seed)
    forms = {
        "same shape": other,
        "broadcast row": values(dtype, (5,), seed + 1),
        "0-d": values(dtype, (), seed + 2),
        "transposed view": values(dtype, (5, 4), seed + 3).t(),
    }
    return forms


def python_scalars():
    return [True, 3, -2, 0, 2.5, -0.5, float("inf"), 1.5 - 2j]


@pytest.mark.parametrize("op", BINARY_OPS)
def test_binary_op_matches_torch_on_every_dtype_pair(op):
    computed = 0
    for i, (a_dtype, b_dtype) in enumerate(itertools.product(DTYPES, DTYPES)):
        a = values(a_dtype, (4, 5), 2 * i)
        strided_a = values(a_dtype, (4, 10), 2 * i + 1)[:, ::2]  # non-contiguous
        for name, b in second_operands(b_dtype, 7 * i).items():
            for label, first in (("", a), (" (strided self)", strided_a)):
                what = f"({a_dtype}{label}, {b_dtype} {name})"
                computed += compare(op, (first, b), what=what)
                if op == "div":
                    for mode in ("floor", "trunc"):
                        computed += compare(op, (first, b), {"rounding_mode": mode}, what + mode)
    assert computed > 0, f"torch computed no case of {op}"


def signed_zeros(shape, dtype, negative):
    """Zeros of `shape`: -0.0 where `negative` (a slice of the flat
    elements) picks them, +0.0 elsewhere; integers are +0 only."""
    t = torch.zeros(shape, dtype=dtype)
    if dtype.is_floating_point:
        t.view(-1)[negative] = -0.0
    return t


# Which of two equal zeros torch's CPU maximum and minimum return depends on
# the loop that meets them (docs/ops.md, "Element semantics"): rows shorter
# than, as long as and longer than its vector step, broadcasts, rows cut by
# at::parallel_for's thread ranges, mixed dtypes, strided and out= calls.
@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_signed_zero_ties_follow_torchs_loops(op):
    shapes = [((), ()), ((4,), (4,)), ((15,), (15,)), ((17,), (17,)), ((33,), (33,)),
              ((100,), (100,)), ((200, 17), (200, 17)), ((3, 40), (40,)), ((3, 1), (3, 40)),
              ((5, 17), ()), ((100003,), (100003,)), ((70000,), ())]
    floats = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
    patterns = [slice(0, None, 2), slice(None), slice(0, 0)]
    for (a_shape, b_shape), a_dtype, b_dtype, a_neg, b_neg in itertools.product(
            shapes, floats + [torch.int32], floats, patterns, patterns):
        a = signed_zeros(a_shape, a_dtype, a_neg)
        b = signed_zeros(b_shape, b_dtype, b_neg)
        assert_same(getattr(torch, op)(a, b), getattr(torch.ops.oneflow_promote, op)(a, b),
                    f"{op}({a_dtype}{list(a_shape)}, {b_dtype}{list(b_shape)})")
    strided = {
        "transposed, contiguous": (signed_zeros((40, 40), torch.float32, patterns[0]).t(),
                                   signed_zeros((40, 40), torch.float32, patterns[1])),
        "every other row": (signed_zeros((8, 40), torch.float32, patterns[0])[::2],
                            signed_zeros((4, 40), torch.float32, patterns[1])),
        "every other float64 column": (signed_zeros((4, 80), torch.float64, patterns[0])[:, ::2],
                                       signed_zeros((4, 40), torch.float16, patterns[1])),
        "every other float32 column": (signed_zeros((4, 80), torch.float32, patterns[0])[:, ::2],
                                       signed_zeros((4, 40), torch.float32, patterns[1])),
        # One element repeated along every dimension (stride 0 throughout).
        "int64 and an expanded float16": (
            (torch.arange(36) % 5 - 2).reshape(4, 3, 3),
            torch.tensor([[-0.0]], dtype=torch.float16).expand(1, 3)),
        # One row of torch's loop spans several of the copy it casts into.
        "every other int32 column, 0-d bfloat16": (
            (torch.arange(108, dtype=torch.int32) % 7 - 3).reshape(1, 4, 3, 9)[..., 1::2],
            torch.tensor(-0.0, dtype=torch.bfloat16)),
    }
    for what, (a, b) in strided.items():
        assert_same(getattr(torch, op)(a, b), getattr(torch.ops.oneflow_promote, op)(a, b),
                    f"{op}({what})")
    for out_dtype in (torch.float32, torch.float64):
        a, b = (signed_zeros((64,), torch.float32, p) for p in patterns[:2])
        theirs, mine = torch.empty(64, dtype=out_dtype), torch.empty(64, dtype=out_dtype)
        getattr(torch, op)(a, b, out=theirs)
        getattr(torch.ops.oneflow_promote, op)(a, b, out=mine)
        assert_same(theirs, mine, f"{op}(out={out_dtype})")
    # out= an input, which the pass over the other loop's ties reads again.
    for which in range(2):
        theirs = [signed_zeros((40,), torch.float32, p) for p in patterns[:2]]
        mine = [t.clone() for t in theirs]
        getattr(torch, op)(*theirs, out=theirs[which])
        getattr(torch.ops.oneflow_promote, op)(*mine, out=mine[which])
        assert_same(theirs[which], mine[which], f"{op}(out=operand {which + 1})")


def far_apart(shape, dtype, seed):
    """Values of `shape` spread over the exponents of `dtype` (float32's for
    bfloat16, which computes in it), subnormals included, of either sign:
    many quotients of two of them overflow."""
    wide = torch.float64 if dtype == torch.float64 else torch.float32
    low, high = (-323.0, 308.0) if wide == torch.float64 else (-45.0, 38.0)
    g = torch.Generator().manual_seed(seed)
    exponents = torch.rand(shape, generator=g, dtype=torch.float64) * (high - low) + low
    signs = torch.randint(0, 2, shape, generator=g).to(torch.float64) * 2 - 1
    return (signs * torch.pow(10.0, exponents)).to(wide).to(dtype)


# remainder of floats where the quotient overflows (a tiny or subnormal
# divisor): NaN in torch's CPU vector loop (Sleef's fmod), fmod's answer in
# its scalar loop (docs/ops.md, "Element semantics"). The loops split as for
# maximum's ties: rows shorter and longer than the vector step, broadcasts,
# thread ranges, 0-d operands and Python scalars, mixed dtypes, out= and in
# place (whose kernel writes over the operand the check reads).
def test_remainder_overflowing_quotients_follow_torchs_loops():
    ours = torch.ops.oneflow_promote
    shapes = [((), ()), ((15,), (15,)), ((33,), (33,)), ((100,), (100,)), ((3, 40), (40,)),
              ((3, 1), (3, 40)), ((5, 40), ()), ((100003,), (100003,))]
    floats = [torch.float32, torch.float64, torch.bfloat16, torch.float16]
    nans = 0
    for seed, ((a_shape, b_shape), dtype) in enumerate(itertools.product(shapes, floats)):
        a, b = far_apart(a_shape, dtype, seed), far_apart(b_shape, dtype, seed + 1000)
        theirs = torch.remainder(a, b)
        nans += int(theirs.isnan().sum())
        assert_same(theirs, ours.remainder(a, b), f"remainder({dtype}{list(a_shape)}, {list(b_shape)})")
    assert nans > 1000  # the values reach the overflowing quotients
    a, b = far_apart((70000,), torch.float32, 1), far_apart((70000,), torch.float32, 2)
    for what, args in {"Python scalar divisor": (a, 1e-40), "Python scalar dividend": (3e38, b),
                       "int32 dividend": ((a.abs() % 1e9).to(torch.int32), b),
                       "float64 0-d divisor": (a, torch.tensor(1e-300, dtype=torch.float64)),
                       "every other element": (a[::2], b[::2])}.items():
        assert_same(torch.remainder(*args), ours.remainder(*args), f"remainder({what})")
    theirs, mine = torch.empty(70000, dtype=torch.float64), torch.empty(70000, dtype=torch.float64)
    torch.remainder(a, b, out=theirs)
    ours.remainder(a, b, out=mine)
    assert_same(theirs, mine, "remainder(out=float64)")
    theirs, mine = a.clone(), a.clone()
    theirs.remainder_(b)
    ours.remainder_(mine, b)
    assert_same(theirs, mine, "remainder_")
    # A few overflowing quotients among ordinary ones, each alone in a block
    # that the check skips when it finds none there (1,024 elements), at its
    # first or last element; 4,160 elements, a multiple of every vector step.
    g = torch.Generator().manual_seed(3)
    for dtype in (torch.float32, torch.float64, torch.bfloat16):
        tiny, huge = torch.finfo(dtype).tiny / 8, torch.finfo(dtype).max / 2
        a, b = (torch.randint(1, 9, (4160,), generator=g) / 4.0 for _ in range(2))
        a, b = a.to(dtype), b.to(dtype)
        planted = [1023, 1024, 3071, 4159]
        a[planted], b[planted] = huge, tiny
        theirs = torch.remainder(a, b)
        assert theirs.isnan().nonzero().view(-1).tolist() == planted
        assert_same(theirs, ours.remainder(a, b), f"remainder({dtype}, sparse)")


# torch's functions that take no Python scalar as the second operand (ours
# do, promoting it as a wrapped number).
TENSOR_ONLY_OPS = {"maximum", "minimum", "atan2", "logical_and", "logical_or", "logical_xor"}


@pytest.mark.parametrize("op", sorted(set(BINARY_OPS) - TENSOR_ONLY_OPS))
def test_binary_op_matches_torch_with_python_scalars(op):
    computed = 0
    for i, dtype in enumerate(DTYPES):
        a = values(dtype, (3, 4), i)
        for scalar in python_scalars():
            computed += compare(op, (a, scalar), what=f"({dtype}, {scalar!r})")
            computed += compare(op, (a[:, ::2], scalar), what=f"({dtype} strided, {scalar!r})")
            if op == "div":
                for mode in ("floor", "trunc"):
                    computed += compare(op, (a, scalar), {"rounding_mode": mode},
                                        f"({dtype}, {scalar!r}) {mode}")
    assert computed > 0


def test_where_matches_torch():
    computed = 0
    for i, (a_dtype, b_dtype) in enumerate(itertools.product(DTYPES, DTYPES)):
        condition = values(torch.bool, (4, 5), i)
        a, b = values(a_dtype, (4, 5), i + 1), values(b_dtype, (5,), i + 2)
        computed += compare("where", (condition, a, b), what=f"({a_dtype}, {b_dtype})")
        computed += compare("where", (condition.t().contiguous().t(), a, b),
                            what=f"(strided condition, {a_dtype}, {b_dtype})")
        computed += compare("where", (condition.to(torch.uint8), a, values(b_dtype, (), i)),
                            what=f"(uint8 condition, {a_dtype}, 0-d {b_dtype})")
    for dtype in DTYPES:
        condition = values(torch.bool, (3, 4), 1)
        a = values(dtype, (3, 4), 2)
        for scalar in python_scalars():
            computed += compare("where", (condition, a, scalar), what=f"({dtype}, {scalar!r})")
            computed += compare("where", (condition, scalar, a), what=f"({scalar!r}, {dtype})")
        computed += compare("where", (condition, 1.5, 2), what="(1.5, 2)")
    assert computed > 0


def test_out_variants():
    a = values(torch.int8, (4, 5), 1)
    b = values(torch.float32, (5,), 2)
    for out_dtype in (torch.float32, torch.float64, torch.complex64):
        for out in (torch.empty(4, 5, dtype=out_dtype), torch.empty(0, dtype=out_dtype),
                    torch.empty(5, 4, dtype=out_dtype).t()):
            theirs = torch.add(a, b, out=out.clone())
            mine_out = out.clone()
            returned = ours.add(a, b, out=mine_out)
            same(theirs, mine_out, f"add out={out_dtype} {tuple(out.shape)}")
            assert returned.data_ptr() == mine_out.data_ptr()
    for mode in (None, "floor", "trunc"):
        out = torch.empty(4, 5, dtype=torch.float32)
        same(torch.div(a, b, rounding_mode=mode), ours.div(a, b, rounding_mode=mode, out=out),
             f"div out= {mode}")
        out = torch.empty(4, 5, dtype=torch.float64)
        same(torch.div(a, 3, rounding_mode=mode, out=out.clone()),
             ours.div(a, 3, rounding_mode=mode, out=out), f"div scalar out= {mode}")
    out = torch.empty(4, 5, dtype=torch.bool)
    same(torch.lt(a, b, out=out.clone()), ours.lt(a, b, out=out), "lt out=")
    out = torch.empty(4, 5, dtype=torch.float32)
    same(torch.where(a > 0, a, b, out=out.clone()), ours.where(a > 0, a, b, out=out), "where out=")
    # float32 results can't be written to int64, as in torch.
    with pytest.raises(RuntimeError):
        torch.add(a, b, out=torch.empty(4, 5, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="can't be cast"):
        ours.add(a, b, out=torch.empty(4, 5, dtype=torch.int64))


def test_default_dtype_follows_torch():
    a = values(torch.int16, (3,), 1)
    previous = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float64)
        same(torch.div(a, 2), ours.div(a, 2), "div under float64 default")
        same(torch.add(a, 0.5), ours.add(a, 0.5), "add under float64 default")
    finally:
        torch.set_default_dtype(previous)


@pytest.mark.parametrize("op", ["add", "sub"])
def test_alpha_rounds_as_torch(op):
    """alpha's product and sum round where PyTorch's CPU kernel rounds them,
    bit for bit: float16 and bfloat16 fused in float32 where torch's vector
    loop runs (the first 32 of these 50 elements) and step by step in the
    dtype elsewhere (its scalar loop: the rest, broadcast rows' last
    elements, strided operands), float32 fused, and out= of any float dtype
    rounded from the compute dtype."""
    g = torch.Generator().manual_seed(5)
    for dtype in (torch.float16, torch.bfloat16, torch.float32):
        a = (torch.randn(50, generator=g) * 30).to(dtype)
        b = (torch.randn(50, generator=g) * 30).to(dtype)
        rows = (torch.randn(70, 50, generator=g) * 30).to(dtype)
        for alpha in (-3.125, 0.1, 7):
            for x, y, layout in ((rows, b, "rows"), (a[::2], b[:25], "strided"),
                                 (rows[:50].t(), rows[:50], "transposed")):
                same(getattr(torch, op)(x, y, alpha=alpha), getattr(ours, op)(x, y, alpha=alpha),
                     f"{op}({dtype} {layout}, alpha={alpha})")
            what = f"{op}({dtype}, alpha={alpha})"
            same(getattr(torch, op)(a, b, alpha=alpha), getattr(ours, op)(a, b, alpha=alpha), what)
            # In place, self is read by both the fused and the stepwise part.
            same(getattr(a.clone(), op + "_")(b[0], alpha=alpha),
                 getattr(ours, op + "_")(a.clone(), b[0], alpha=alpha), f"{what} in place")
            for out_dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
                if not torch.can_cast(dtype, out_dtype):
                    continue
                theirs = getattr(torch, op)(a, b, alpha=alpha, out=torch.empty(50, dtype=out_dtype))
                mine = getattr(ours, op)(a, b, alpha=alpha, out=torch.empty(50, dtype=out_dtype))
                same(theirs, mine, f"{what} out={out_dtype}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_alpha_by_a_repeated_other_follows_torchs_tails(dtype):
    """Where other repeats along the rows (a 0-d tensor, a Python scalar, a
    column), torch's compiler computes the scalar tail of each row, 16
    bytes at a time after its first element, as self + round(alpha *
    other) instead of one fused step: every tail length, rows, and two
    threads' ranges, bit for bit."""
    g = torch.Generator().manual_seed(11)
    previous = torch.get_num_threads()
    try:
        for threads, lengths in ((1, range(1, 48)), (2, (70001, 100003))):
            torch.set_num_threads(threads)
            for n in lengths:
                a = (torch.randn(n, generator=g) * 1e-3).to(dtype)
                b = torch.randn((), generator=g).to(dtype)
                rows = torch.randn(3, n, generator=g).to(dtype)
                column = torch.randn(3, 1, generator=g).to(dtype)
                for x, y, form in ((a, b, "0-d"), (a, b.item(), "Python scalar"),
                                   (rows, column, "column")):
                    for op in ("add", "sub"):
                        compare(op, (x, y), {"alpha": -0.7}, f"({dtype} {n} {form}, {threads})")
    finally:
        torch.set_num_threads(previous)


@pytest.mark.parametrize("op", ["mul", "div"])
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_complex_products_follow_torchs_fused_loops(dtype, op):
    """torch's compiler fuses complex products into multiply-adds in the
    scalar loop and in the vectors it makes of scalar tails (complex64: in
    pairs, an odd last element not; in fours after the first where an
    operand repeats); its vector loop does not. complex64 division's odd
    last element fuses only its denominator, and every element of the
    scalar loop where the destination overlaps an operand. Every tail length, strided,
    transposed and expanded operands, 0-d, Python and column operands, a
    real operand, in place, out= an operand or strided, and two threads'
    ranges, with values whose products underflow to a signed zero or
    overflow, bit for bit."""
    g = torch.Generator().manual_seed(13)
    special = torch.tensor([1.0, -1.0, 2.5, -3.0, 1e30, -1e-30, 1e-40, 3e38, 1e-7])

    def values(shape, real=False):
        n = math.prod(shape)
        parts = [torch.where(torch.rand(n, generator=g) < 0.5,
                             torch.randn(n, generator=g, dtype=torch.float64),
                             special[torch.randint(0, len(special), (n,), generator=g)].double())
                 for _ in range(2)]
        z = torch.complex(*parts).reshape(shape).to(dtype)
        return z.real.contiguous() if real else z

    previous = torch.get_num_threads()
    try:
        for threads, shapes in ((1, [(n,) for n in range(1, 40)] + [(5, 13)]), (2, [(70001,)])):
            torch.set_num_threads(threads)
            for shape in shapes:
                a, b = values(shape), values(shape)
                wide = values(shape[:-1] + (2 * shape[-1],))
                forms = {"": (a, b), " 0-d other": (a, b.reshape(-1)[0]),
                         " 0-d self": (a.reshape(-1)[0], b), " Python": (a, complex(1e-40, -3)),
                         " strided": (wide[..., ::2], b), " column": (a, b[..., :1]),
                         " real self": (values(shape, real=True), b),
                         " expanded": (a[None].expand(3, *shape), b[None].expand(3, *shape))}
                if len(shape) == 2:
                    forms[" transposed other"] = (a, values(shape[::-1]).t())
                for label, args in forms.items():
                    same(call_torch(op, *args), getattr(ours, op)(*args),
                         f"{op}({dtype} {shape}{label}, {threads} threads)")
                # Into an operand (in place, out=) and into a strided out=, where
                # a strided row makes every product fused (complex64: unless the
                # destination overlaps an operand), and where only tails are.
                strided = wide[..., ::2]
                for label, (x, y) in {" strided": (a, strided), "": (a, b)}.items():
                    what = f"({dtype} {shape}{label}, {threads} threads)"
                    same(getattr(x.clone(), op + "_")(y), getattr(ours, op + "_")(x.clone(), y), f"{op}_{what}")
                    mine, theirs = y.clone(), y.clone()
                    same(getattr(torch, op)(x, theirs, out=theirs),
                         getattr(ours, op)(x, mine, out=mine), f"{op}{what} out=other")
                    mine, theirs = wide.clone()[..., ::2], wide.clone()[..., ::2]
                    same(getattr(theirs, op + "_")(y), getattr(ours, op + "_")(mine, y),
                         f"{op}_{what} strided self")
                    mine, theirs = (torch.empty_like(wide)[..., ::2] for _ in range(2))
                    same(getattr(torch, op)(x, y, out=theirs), getattr(ours, op)(x, y, out=mine),
                         f"{op}{what} strided out=")
    finally:
        torch.set_num_threads(previous)


@pytest.mark.parametrize("op", ["add", "sub"])
def test_alpha_keeps_torchs_special_values(op):
    """Signed zeros, infinities and NaNs with alpha, bit for bit: sub runs
    as add of c10::Scalar's -alpha (an int alpha 0 keeps -0.0 - 0 * -0.0 at
    -0.0 and -2**63 negates to itself), and complex32 adds part by part
    after its product, so an infinite part keeps a finite partner. Every
    pair of special values, in the vector and scalar loops' elements, with
    broadcast, transposed, in-place and out= forms."""
    special = [0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, 6e-8]
    pairs = list(itertools.product(special, special))
    reals = torch.tensor([x for x, _ in pairs])
    cases = {dtype: reals.to(dtype) for dtype in (torch.float16, torch.bfloat16)}
    cases[torch.complex32] = torch.tensor([complex(re, im) for re, im in pairs]).to(torch.complex32)
    for dtype, z in cases.items():
        a, b = z.repeat_interleave(len(z)), z.repeat(len(z))
        square = a[: 64 * 64].reshape(64, 64)
        alphas = [0, 0.0, -0.0, 2, -3, 0.5] + {torch.complex32: [1j, -0.0j, 1 + 1j],
                                               torch.bfloat16: [-2**63]}.get(dtype, [])
        for alpha in alphas:
            what = f"({dtype}, alpha={alpha!r})"
            forms = {"": (a, b), " broadcast": (square, b[:64]),
                     " transposed": (square.t(), square), " 0-d other": (a, b[len(z) + 1])}
            if dtype.is_complex:  # float16 self, converted first
                halves = cases[torch.float16].repeat(len(z))
                forms.update({" float16 self": (halves, b), " Python complex": (halves, 1 + 7j),
                              " complex64 0-d": (halves, torch.tensor(-0.0 - 2j))})
            for label, (x, y) in forms.items():
                compare(op, (x, y), {"alpha": alpha}, what + label)
            same(getattr(a.clone(), op + "_")(b, alpha=alpha),
                 getattr(ours, op + "_")(a.clone(), b, alpha=alpha), f"{op}{what} in place")
            out_dtype = torch.complex64 if dtype.is_complex else torch.float32
            theirs = getattr(torch, op)(a, b, alpha=alpha, out=torch.empty(len(a), dtype=out_dtype))
            mine = getattr(ours, op)(a, b, alpha=alpha, out=torch.empty(len(a), dtype=out_dtype))
            same(theirs, mine, f"{op}{what} out={out_dtype}")


def test_repeated_calls_decide_dtypes_per_call():
    """The CPU kernel keeps the dtypes of the last operand dtypes: a change
    of dtypes, of rank or of the default dtype decides them again."""
    a, b = values(torch.int16, (3,), 1), values(torch.int16, (3,), 2)
    previous = torch.get_default_dtype()
    try:
        for default in (torch.float32, torch.float64, torch.float32):
            torch.set_default_dtype(default)
            same(torch.div(a, b), ours.div(a, b), f"div under {default}")
            same(torch.div(a[0], b[0]), ours.div(a[0], b[0]), f"0-d div under {default}")
            same(torch.add(a, b), ours.add(a, b), "add")
            same(torch.add(a.float(), b), ours.add(a.float(), b), "add, one float")
    finally:
        torch.set_default_dtype(previous)
    with pytest.raises(RuntimeError):  # a refusal leaves nothing behind
        ours.sub(a.bool(), b.bool())
    with pytest.raises(RuntimeError):
        ours.sub(a.bool(), b.bool())


def test_errors_are_runtime_errors_like_torch():
    b = torch.tensor([True, False])
    for call in (lambda m: m.sub(b, b), lambda m: m.bitwise_and(torch.ones(2), 1),
                 lambda m: m.lt(torch.ones(2, dtype=torch.complex64), 1),
                 lambda m: m.div(torch.ones(2), 2, rounding_mode="round")):
        with pytest.raises(RuntimeError):
            call(torch)
        with pytest.raises(RuntimeError):
            call(ours)


def test_promotion_kinds_match_torch_refs():
    """Each op's kind is the one torch._refs declares for it."""

    def ref_kind(fn):
        # elementwise_type_promotion_wrapper keeps the kind in the closure
        # of the function it returns (through functools.wraps layers).
        stack, seen = [fn], set()
        while stack:
            f = stack.pop()
            if id(f) in seen:
                continue
            seen.add(id(f))
            for cell in getattr(f, "__closure__", None) or ():
                try:
                    v = cell.cell_contents
                except ValueError:
                    continue
                if hasattr(v, "type_promotion_kind"):
                    return v.type_promotion_kind
                if isinstance(v, prims_common.ELEMENTWISE_TYPE_PROMOTION_KIND):
                    return v
                if callable(v):
                    stack.append(v)
            if getattr(f, "__wrapped__", None) is not None:
                stack.append(f.__wrapped__)
        return None

    for op, ref in REF_OF.items():
        kind = ref_kind(getattr(refs, ref))
        assert kind is not None, f"torch._refs.{ref} declares no kind"
        operands = [torch.ones(2, dtype=torch.int32)] * ARITY.get(op, 2)
        if op == "where":
            operands[0] = torch.ones(2, dtype=torch.bool)
        mine = ours.op_dtypes(op, operands)[0]
        assert mine == kind.name, f"{op}: ours {mine}, torch._refs.{ref} {kind.name}"


def test_op_dtypes_match_elementwise_dtypes():
    """(opmath, result) of each op on every dtype pair it computes, against
    torch._prims_common.elementwise_dtypes under the op's kind."""
    checked = 0
    names = {str(d).replace("torch.", ""): d for d in DTYPES}
    for op, ref in REF_OF.items():
        arity = ARITY.get(op, 2)
        for dtypes in itertools.product(DTYPES, repeat=min(arity, 2)):
            tensors = [torch.ones(2, dtype=d) for d in dtypes]
            if op == "where":
                tensors = [torch.ones(2, dtype=torch.bool)] + tensors
            try:
                kind, _, opmath, result = ours.op_dtypes(op, tensors)
            except (RuntimeError, TypeError):
                continue  # an error of the op's rules (bitwise on floats, ...)
            promoting = tensors[1:] if op == "where" else tensors
            kind = prims_common.ELEMENTWISE_TYPE_PROMOTION_KIND[kind]
            want_opmath, want_result = prims_common.elementwise_dtypes(
                *promoting, type_promotion_kind=kind)
            assert (names[opmath], names[result]) == (want_opmath, want_result), (
                f"{op}{tuple(dtypes)}: ours ({opmath}, {result}), torch "
                f"({want_opmath}, {want_result})")
            checked += 1
    assert checked > 1000


def test_reduction_dtypes_match_torch():
    """The reductions carry no elementwise kind in torch._refs: their
    result dtypes (the int64 floor, mean's float-only rule) against torch."""
    checked = 0
    for op in REDUCTIONS:
        for dtype in DTYPES:
            x = torch.ones(3, dtype=dtype)
            try:
                theirs = (torch.cumsum(x, 0) if op == "cumsum" else getattr(torch, op)(x)).dtype
            except RuntimeError:
                with pytest.raises(RuntimeError):
                    ours.op_dtypes(op, [x])
                continue
            result = ours.op_dtypes(op, [x])[3]
            assert result == str(theirs).replace("torch.", ""), f"{op}({dtype})"
            checked += 1
    assert checked > 30


@needs_cuda
def test_cuda_runs_on_the_current_stream():
    """Ops queue behind work already on the current (non-default) stream:
    the input is written there after a long sleep, so an op on another
    stream would read it too early."""
    stream = torch.cuda.Stream()
    expected = torch.add(values(torch.int8, (1 << 20,), 1), 0.5)
    with torch.cuda.stream(stream):
        x = torch.zeros(1 << 20, dtype=torch.int8, device="cuda")
        torch.cuda._sleep(200_000_000)
        x.copy_(values(torch.int8, (1 << 20,), 1).cuda(non_blocking=True))
        y = ours.add(x, 0.5)
    stream.synchronize()
    same(expected, y.cpu(), "add on a side stream")


@needs_cuda
def test_cuda_ops_match_torch():
    for op in BINARY_OPS:
        for a_dtype, b_dtype in itertools.product(DTYPES, DTYPES):
            a = values(a_dtype, (4, 5), 1).cuda()
            for b in (values(b_dtype, (5,), 2).cuda(), values(b_dtype, (5, 4), 3).cuda().t(),
                      values(b_dtype, (), 4), 2.5):
                compare(op, (a, b), what=f" cuda ({a_dtype}, {b})")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
