"""Autograd of torch.ops.oneflow_promote.*: gradcheck and gradgradcheck in
float64 and complex128 on every differentiable op and overload, and, on
mixed dtypes, gradients equal to torch's in dtype, shape and value (bit for
bit): summed over broadcast dimensions, in each input's own dtype, none for
integer inputs, the real part for a real input of a complex result. Also
the ops torch does not differentiate, floor_divide's missing derivative,
in-place variants and out= with inputs that require grad.
"""

import itertools
import sys

import pytest
import torch
from torch.autograd import gradcheck, gradgradcheck

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)
from bit_judge import assert_same, same_refusal, torch_lacks_kernel

ours = torch.ops.oneflow_promote

# (op, kwargs) pairs whose results torch differentiates.
DIFFERENTIABLE = [
    ("add", {}), ("add", {"alpha": 2.5}), ("sub", {}), ("sub", {"alpha": -3}), ("mul", {}),
    ("div", {}), ("div", {"rounding_mode": "floor"}), ("div", {"rounding_mode": "trunc"}),
    ("remainder", {}), ("maximum", {}), ("minimum", {}), ("atan2", {}),
]
REAL_ONLY = {"remainder", "maximum", "minimum", "atan2"}
# Where torch takes a Python number for other, and for self.
SCALAR_OTHER = {"add", "sub", "mul", "div", "remainder"}
SCALAR_SELF = {"add", "sub", "mul", "div"}  # remainder's: no derivative, as in torch
NOT_DIFFERENTIABLE = ["eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
                      "logical_xor"]


def torch_fn(op):
    return getattr(torch, op)


def leaf(t, requires_grad=True):
    return t.detach().clone().requires_grad_(requires_grad and (t.is_floating_point() or
                                                                t.is_complex()))


def away_from_steps(shape, dtype, seed):
    """Values that keep floor, trunc and remainder steps farther than
    gradcheck's eps: k + 0.25 + [0, 0.5)."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(-3, 4, shape, generator=g) + 0.25 + torch.rand(shape, generator=g) / 2
    if dtype.is_complex:
        return (x + 1j * (torch.rand(shape, generator=g) + 0.5)).to(dtype)
    return x.to(dtype)


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
@pytest.mark.parametrize("op,kwargs", DIFFERENTIABLE, ids=lambda v: str(v))
def test_gradcheck_and_gradgradcheck(op, kwargs, dtype):
    if dtype.is_complex and (op in REAL_ONLY or "rounding_mode" in kwargs):
        pytest.skip("torch defines the op on real numbers only")
    if dtype.is_complex and "alpha" in kwargs:
        kwargs = {"alpha": 1 - 2j}
    a = leaf(away_from_steps((3, 4), dtype, 1))
    b = leaf(away_from_steps((4,), dtype, 2))
    fn = getattr(ours, op)
    cases = [((a, b), "tensor, broadcast row")]
    if op in SCALAR_OTHER:
        cases.append(((a, 1.75), "Python scalar"))
    if op in SCALAR_SELF:
        cases.append(((1.75, b), "Python scalar self"))
    for args, what in cases:
        f = lambda *t: fn(*t, **kwargs)  # noqa: E731
        assert gradcheck(f, args), (op, what)
        assert gradgradcheck(f, args), (op, what)
    in_place = getattr(ours, op + "_", None)
    if in_place is not None:
        f = lambda x, y: in_place(x.clone(), y, **kwargs)  # noqa: E731
        assert gradcheck(f, (a, b)) and gradgradcheck(f, (a, b)), (op + "_",)


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
def test_where_gradcheck(dtype):
    condition = torch.tensor([[True, False, True, False]] * 3)
    a = leaf(away_from_steps((3, 4), dtype, 3))
    b = leaf(away_from_steps((4,), dtype, 4))
    for f, args in ((lambda x, y: ours.where(condition, x, y), (a, b)),
                    (lambda x: ours.where(condition, x, 2.5), (a,)),
                    (lambda y: ours.where(condition, 1.5, y), (b,))):
        assert gradcheck(f, args) and gradgradcheck(f, args)


MIXED_DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                torch.complex128, torch.int32, torch.bool]


def nice(dtype, shape, seed):
    """Small values away from floor steps, with ties between operands."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    x = torch.randint(1, 5, shape, generator=g).double() / 2
    if dtype.is_complex:
        x = x + 1j * torch.randint(-2, 3, shape, generator=g).double() / 4
    return x.to(dtype)


def gradients(fn, inputs, upstream_seed):
    """The result and the gradient (or None) of each tensor input, for an
    upstream gradient of random small values."""
    leaves = [leaf(x) if torch.is_tensor(x) else x for x in inputs]
    result = fn(*leaves)
    if not result.requires_grad:
        return result, None
    g = torch.Generator().manual_seed(upstream_seed)
    upstream = (torch.randint(-4, 5, result.shape, generator=g) / 4).to(result.dtype)
    wanting = [x for x in leaves if torch.is_tensor(x) and x.requires_grad]
    grads = torch.autograd.grad(result, wanting, upstream, allow_unused=True)
    it = iter(grads)
    return result, [next(it) if torch.is_tensor(x) and x.requires_grad else None for x in leaves]


def compare_gradients(theirs_fn, mine_fn, inputs, what):
    try:
        theirs_fn(*inputs)
    except (RuntimeError, TypeError) as e:  # torch refuses the call: so must ours
        if torch_lacks_kernel(e):  # torch's gap, where ours may compute
            return 0
        with pytest.raises(Exception) as mine:
            mine_fn(*inputs)
        assert same_refusal(e, mine.value), f"{what}: {mine.value!r}, torch {e!r}"
        return 0
    try:
        theirs, theirs_grads = gradients(theirs_fn, inputs, 7)
    except (RuntimeError, NotImplementedError):
        return 0  # torch's backward lacks a kernel for these dtypes
    mine, mine_grads = gradients(mine_fn, inputs, 7)
    assert mine.dtype == theirs.dtype and mine.requires_grad == theirs.requires_grad, what
    if theirs_grads is None:
        return 0
    for k, (t, m) in enumerate(zip(theirs_grads, mine_grads)):
        if t is None:
            assert m is None, f"{what}: input {k} gets a gradient, torch gives none"
            continue
        assert m is not None, f"{what}: input {k} gets no gradient"
        assert (m.dtype, m.shape) == (t.dtype, t.shape), (
            f"{what}: input {k} gradient {m.dtype}{list(m.shape)}, torch {t.dtype}{list(t.shape)}")
        torch.testing.assert_close(m, t, rtol=0, atol=0, equal_nan=True,
                                   msg=lambda s: f"{what}: input {k}: {s}")
    return 1


@pytest.mark.parametrize("op,kwargs", DIFFERENTIABLE, ids=lambda v: str(v))
def test_mixed_dtype_gradients_equal_torchs(op, kwargs):
    compared = 0
    for i, (a, b) in enumerate(itertools.product(MIXED_DTYPES, MIXED_DTYPES)):
        x, y = nice(a, (2, 3), i), nice(b, (3,), i + 1)
        for second, label in ((y, f"{b} row"), (nice(b, (), i + 2), f"0-d {b}"), (1.5, "1.5")):
            what = f"{op}({a}, {label}, {kwargs})"
            compared += compare_gradients(lambda s, o: torch_fn(op)(s, o, **kwargs),
                                          lambda s, o: getattr(ours, op)(s, o, **kwargs),
                                          (x, second), what)
    assert compared > 20


def test_where_mixed_dtype_gradients_equal_torchs():
    compared = 0
    condition = torch.tensor([[True, False, True]] * 2)
    for i, (a, b) in enumerate(itertools.product(MIXED_DTYPES, MIXED_DTYPES)):
        x, y = nice(a, (2, 3), i), nice(b, (3,), i + 1)
        compared += compare_gradients(lambda s, o: torch.where(condition, s, o),
                                      lambda s, o: ours.where(condition, s, o), (x, y),
                                      f"where({a}, {b})")
    assert compared > 20


def test_complex_python_scalar_gradients_equal_torchs():
    """torch's product and quotient formulas take other.conj(): of a complex
    Python number (a wrapped number) a plain complex128 0-d tensor, so the
    gradient of a 0-d operand is computed in complex128 and then rounded;
    of a real one the wrapped number itself, which promotes nothing."""
    compared = 0
    values = torch.tensor([-1.0 + 0.5j, 0.3 + 0.5j, 2.7 + 0.5j])
    for dtype in (torch.float32, torch.complex64, torch.float64, torch.complex128):
        for x in (values[0], values):  # 0-d and 1-d
            x = x.to(dtype) if dtype.is_complex else x.real.to(dtype)
            for number in (0.1 + 0.3j, 1.5 - 2j, 0.1):
                for op, args in (("mul", (x, number)), ("mul", (number, x)), ("div", (x, number))):
                    compared += compare_gradients(torch_fn(op), getattr(ours, op), args,
                                                  f"{op}{tuple(type(a).__name__ for a in args)} "
                                                  f"{dtype}{list(x.shape)} {number}")
    assert compared == 72


def test_maximum_and_minimum_split_ties_as_torch():
    a = torch.tensor([1.0, 2.0, 3.0, 4.0])
    b = torch.tensor([1.0, 5.0, 3.0, 0.0])
    for op in ("maximum", "minimum"):
        assert compare_gradients(torch_fn(op), getattr(ours, op), (a, b), op)
        x = leaf(a)
        getattr(ours, op)(x, leaf(b)).sum().backward()
        assert x.grad[0] == 0.5 and x.grad[2] == 0.5


def test_gradients_of_0d_operands_keep_the_sign_of_zero():
    """A gradient already of its operand's shape is not summed (a sum of
    one element turns -0.0 into +0.0), as torch's engine leaves it."""
    def zero_d(value, dtype):
        return torch.tensor(value, dtype=dtype, requires_grad=True)

    cases = [
        ("mul", lambda: (zero_d(-2.25, torch.float16), -2), {}),
        ("sub", lambda: (zero_d(-1.5, torch.float64), zero_d(-0.5 - 1j, torch.complex64)),
         {"alpha": 2}),
        ("atan2", lambda: (zero_d(-3.0, torch.float32), zero_d(2.0, torch.float32)), {}),
        ("div", lambda: (zero_d(1 + 2j, torch.complex64), zero_d(4.0, torch.float64)), {}),
        ("remainder", lambda: (zero_d(-3.0, torch.float32), zero_d(2.0, torch.float32)), {}),
    ]
    for op, make, kwargs in cases:
        for upstream in (0.0, 1.0):
            results = []
            for fn in (torch_fn(op), getattr(ours, op)):
                args = make()
                result = fn(*args, **kwargs)
                leaves = [a for a in args if torch.is_tensor(a)]
                results.append(torch.autograd.grad(result, leaves,
                                                   torch.full_like(result, upstream)))
            for k, (t, m) in enumerate(zip(*results)):
                assert_same(t, m, f"{op} input {k + 1}, upstream {upstream}")


def test_not_differentiable_ops_give_results_without_grad():
    x = leaf(torch.tensor([1.5, -2.0, 3.0]))
    for op in NOT_DIFFERENTIABLE:
        assert not getattr(ours, op)(x, x).requires_grad, op
        assert getattr(torch, op)(x, x).requires_grad is False
    i = torch.tensor([1, 2, 3])
    assert not ours.bitwise_and(i, i).requires_grad


def test_floor_divide_derivative_is_not_implemented_as_in_torch():
    for fn, name in ((torch.floor_divide, "aten::floor_divide"),
                     (ours.floor_divide, "oneflow_promote::floor_divide")):
        x = leaf(torch.tensor([1.5, -2.0, 3.0]))
        y = fn(x, 2)
        assert y.requires_grad
        with pytest.raises(RuntimeError, match=f"derivative for {name} is not implemented"):
            y.sum().backward()


def test_in_place_gradients_equal_torchs():
    compared = 0
    for op in ["add", "sub", "mul", "div", "remainder", "atan2", "eq", "lt", "logical_and"]:
        for a, b in itertools.product([torch.float16, torch.float32, torch.float64],
                                      [torch.float32, torch.float64, torch.int32]):
            self_, other = nice(a, (2, 3), 1), nice(b, (3,), 2)

            def run(in_place):
                def fn(s, o):
                    t = s * 1  # not a leaf
                    return in_place(t, o)
                return fn

            compared += compare_gradients(run(lambda t, o: getattr(t, op + "_")(o)),
                                          run(lambda t, o: getattr(ours, op + "_")(t, o)),
                                          (self_, other), f"{op}_({a}, {b})")
    assert compared > 50
    x = leaf(torch.ones(3))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an "
                                           "in-place operation."):
        ours.add_(x, 1)


def test_out_refuses_inputs_that_require_grad_as_torch():
    x = leaf(torch.ones(4))
    y = x.exp()
    for op in ("add", "mul", "maximum"):
        message = (f"{op}\\(\\): functions with out=... arguments don't support automatic "
                   "differentiation, but one of the arguments requires grad.")
        for fn in (getattr(torch, op), getattr(ours, op)):
            with pytest.raises(RuntimeError, match=message):
                fn(torch.zeros(4), torch.ones(4), out=y)
            with pytest.raises(RuntimeError, match=message):
                fn(x, torch.ones(4), out=torch.empty(4))
        with torch.no_grad():
            out = torch.empty(4)
            getattr(ours, op)(x, torch.ones(4), out=out)
            assert not out.requires_grad
    # Ops torch does not differentiate write out= regardless.
    out = torch.empty(4, dtype=torch.bool)
    assert ours.eq(x, 1, out=out) is out
    assert x.grad is None


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
