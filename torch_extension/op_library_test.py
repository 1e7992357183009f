"""torch.ops.oneflow_promote.* as a PyTorch op library: kernels registered
per dispatch key, meta and FakeTensor results with the dtypes of torch's
own ops, torch.library.opcheck on every overload, torch.compile
(fullgraph, three backends) and torch.export, the in-place variants and
add's and sub's alpha against torch, and tensor semantics as torch has
them (conjugate and negative views, overlap, versions, out=None, empty
tensors, high ranks, one rounding into out= of any layout).
"""

import itertools
import sys
import warnings

import pytest
import torch

import oneflow_promote_torch  # registers torch.ops.oneflow_promote
from bit_judge import assert_same, same_refusal, torch_lacks_kernel

ours = torch.ops.oneflow_promote

BINARY_OPS = [
    "add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum", "atan2", "eq",
    "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "bitwise_and",
    "bitwise_or", "bitwise_xor",
]
IN_PLACE_OPS = [op for op in BINARY_OPS if op not in ("maximum", "minimum")]
BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor"}
COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"}


def every_overload():
    """Every overload with a tensor operand (the Scalar_Scalar ones, for
    add(2.5, 3), wrap their numbers and call the Tensor overload, as a
    CompositeImplicitAutograd kernel)."""
    for name in BINARY_OPS + [op + "_" for op in IN_PLACE_OPS] + ["where"]:
        packet = getattr(ours, name)
        for overload in packet.overloads():
            if not overload.startswith("Scalar_Scalar"):
                yield getattr(packet, overload)


def test_scalar_scalar_overloads_wrap_numbers():
    for op in ("add", "sub", "mul", "div", "floor_divide"):
        overload = getattr(ours, op).Scalar_Scalar
        assert torch._C._dispatch_has_kernel_for_dispatch_key(overload.name(),
                                                              "CompositeImplicitAutograd")
        for a, b in ((2.5, 3), (True, 2), (7, -2), (1 + 2j, 0.5)):
            try:
                expected = getattr(torch, op)(a, b)
            except RuntimeError as e:  # floor_divide of complex, sub of bools
                with pytest.raises(type(e)):
                    getattr(ours, op)(a, b)
                continue
            got = getattr(ours, op)(a, b)
            assert (got.dtype, got.shape) == (expected.dtype, expected.shape), (op, a, b)
            torch.testing.assert_close(got, expected, rtol=0, atol=0, equal_nan=True)
    assert ours.sub(2.5, 3, alpha=2).item() == torch.sub(2.5, 3, alpha=2).item()
    assert ours.div(7, 2, rounding_mode="floor").item() == 3


def sample_args(overload, requires_grad=False):
    """Arguments for an overload, read off its schema: self a float32
    [3, 4] tensor (int32 for bitwise ops), other a float64 row (int16) or
    the Python scalar 2, where's condition a bool tensor, out= an empty
    tensor of torch's result dtype."""
    base = overload._schema.name.split("::")[1].rstrip("_")
    bitwise = base in BITWISE
    g = torch.Generator().manual_seed(0)
    self_ = (torch.randint(1, 9, (3, 4), generator=g, dtype=torch.int32) if bitwise
             else torch.rand(3, 4, generator=g, dtype=torch.float32) + 0.5)
    other = (torch.randint(1, 9, (4,), generator=g, dtype=torch.int16) if bitwise
             else torch.rand(4, generator=g, dtype=torch.float64) + 0.5)
    # floor_divide's derivative is not implemented, as in torch: backward
    # raises, and opcheck's AOT check runs backward.
    if requires_grad and not overload._schema.is_mutable and not bitwise and base != "floor_divide":
        self_.requires_grad_(True)
    args, kwargs = [], {}
    for argument in overload._schema.arguments:
        if argument.name == "condition":
            args.append(torch.tensor([[True, False, True, False]] * 3))
        elif argument.name in ("self", "other"):
            if isinstance(argument.type, torch.NumberType):
                args.append(2)
            else:
                args.append(self_ if argument.name == "self" else other)
        elif argument.name == "alpha":
            args.append(2)
        elif argument.name == "rounding_mode":
            args.append("floor")
        elif argument.name == "out":
            # Of the result's shape: a custom op may not resize its
            # arguments under torch.compile (eager resizes, as torch does).
            kwargs["out"] = torch.empty_like(torch_result(base, args))
    return tuple(args), kwargs


def torch_result(base, args):
    fn = torch.where if base == "where" else getattr(torch, base)
    # alpha and rounding_mode are keywords in torch.
    kwargs = {}
    if len(args) == 3 and base in ("add", "sub", "div"):
        kwargs = {"alpha" if base != "div" else "rounding_mode": args[2]}
        args = args[:2]
    with torch.no_grad():
        try:
            return fn(*args, **kwargs)
        except TypeError:  # maximum, minimum: no Scalar overload in torch
            return fn(*[torch.tensor(a) if isinstance(a, int) else a for a in args])


# A value of each argument type a packet's routes tell apart.
SAMPLES = {torch.Tensor: lambda: torch.zeros(3), torch.nn.Parameter: lambda: torch.nn.Parameter(
    torch.zeros(3)), bool: lambda: True, int: lambda: 2, float: lambda: 2.5, complex: lambda: 1j}
KEYWORDS = {"alpha": 2, "rounding_mode": "floor", "out": torch.zeros(3)}


def every_call_form():
    """(packet, positional arguments, keyword arguments, the overload its
    route names) for every form a routed packet takes."""
    for name in BINARY_OPS + [op + "_" for op in IN_PLACE_OPS] + ["where"]:
        packet = getattr(ours, name)
        assert isinstance(packet, oneflow_promote_torch.overload_routing.RoutedPacket), name
        for form, overload in packet._routes.items():
            args = tuple(SAMPLES[t]() for t in form if isinstance(t, type))
            yield packet, args, {k: KEYWORDS[k] for k in form if isinstance(k, str)}, overload


def test_packets_route_calls_as_torch_resolves_them():
    forms = 0
    for packet, args, kwargs, overload in every_call_form():
        resolved = torch._C._jit_resolve_packet(packet._qualified_op_name, *args, **kwargs)
        assert overload._overloadname == (resolved or "default"), (packet, args, kwargs)
        forms += 1
    assert forms > 1000


def test_torchs_resolution_formats_no_tensor(monkeypatch):
    """torch.ops rejects the overloads before the one a call fits; where it
    meets a tensor in a Scalar slot its message holds the tensor's repr,
    which reads the elements (on CUDA, a wait for the device). The order the
    library registers overloads in keeps every call form from that, for
    callers torch resolves (TorchScript, tensor subclasses, SymInts)."""
    formatted = []
    real_repr = torch.Tensor.__repr__
    monkeypatch.setattr(torch.Tensor, "__repr__",
                        lambda self, *a, **k: formatted.append(1) or real_repr(self, *a, **k))
    for packet, args, kwargs, _ in every_call_form():
        torch._C._jit_resolve_packet(packet._qualified_op_name, *args, **kwargs)
        assert not formatted, (packet, [type(a) for a in args], kwargs)


def test_kernels_registered_per_dispatch_key():
    for overload in every_overload():
        name = overload.name()
        for key in ("CPU", "CUDA", "Meta", "Autograd"):
            assert torch._C._dispatch_has_kernel_for_dispatch_key(name, key), (name, key)
        assert not torch._C._dispatch_has_kernel_for_dispatch_key(
            name, "CompositeImplicitAutograd"), name
        writes = overload._schema.is_mutable
        assert torch._C._dispatch_has_kernel_for_dispatch_key(name, "ADInplaceOrView") == writes


@pytest.mark.parametrize("overload", list(every_overload()), ids=lambda o: o.name())
def test_opcheck(overload):
    args, kwargs = sample_args(overload, requires_grad=True)
    torch.library.opcheck(overload, args, kwargs)


def meta_of(t):
    return torch.empty_like(t, device="meta")


def test_meta_and_fake_dtypes_are_torchs():
    from torch._subclasses.fake_tensor import FakeTensorMode

    dtypes = [torch.bool, torch.int8, torch.int64, torch.float16, torch.float32, torch.float64,
              torch.complex64]
    mode = FakeTensorMode()
    checked = 0
    for op in BINARY_OPS:
        for a, b in itertools.product(dtypes, dtypes):
            x, y = torch.ones(2, 3, dtype=a), torch.ones(3, dtype=b)
            try:
                expected = getattr(torch, op)(x, y)
            except (RuntimeError, TypeError) as e:
                # The extension raises the pinned torch's (2.15's) class; torch 2.11
                # raised RuntimeError where 2.15 raises TypeError (complex maximum).
                pinned = torch.__version__.startswith("2.15")
                with pytest.raises(type(e) if pinned else (RuntimeError, TypeError)):
                    getattr(ours, op)(meta_of(x), meta_of(y))
                continue
            meta = getattr(ours, op)(meta_of(x), meta_of(y))
            assert (meta.device.type, meta.dtype, meta.shape) == ("meta", expected.dtype,
                                                                  expected.shape), (op, a, b)
            with mode:
                fake = getattr(ours, op)(mode.from_tensor(x), mode.from_tensor(y))
            assert (fake.device, fake.dtype, fake.shape) == (expected.device, expected.dtype,
                                                             expected.shape), (op, a, b)
            checked += 1
    assert checked > 500


def compiled_program(a, b, c):
    s = ours.add(a, b, alpha=2)
    t = ours.where(ours.gt(s, 1), s, ours.div(c, 3, rounding_mode="floor"))
    u = ours.mul(t, 0.5)
    ours.sub_(u, c)
    v = ours.div(ours.add(u, b), ours.sub(c, 4, alpha=1))  # alpha's and rounding_mode's defaults
    return ours.maximum(u, b), ours.eq(t, a), v


def compiled_inputs():
    g = torch.Generator().manual_seed(1)
    return (torch.randint(-3, 4, (5, 6), generator=g, dtype=torch.int8),
            torch.rand(6, generator=g, dtype=torch.float32),
            torch.rand(5, 6, generator=g, dtype=torch.float64))


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_compile_fullgraph(backend):
    torch._dynamo.reset()
    expected = compiled_program(*compiled_inputs())
    got = torch.compile(compiled_program, fullgraph=True, backend=backend)(*compiled_inputs())
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype
        torch.testing.assert_close(g, e, rtol=0, atol=0)


def test_export():
    class Program(torch.nn.Module):
        def forward(self, a, b, c):
            return compiled_program(a, b, c)

    exported = torch.export.export(Program(), compiled_inputs())
    targets = {str(n.target) for n in exported.graph.nodes if n.op == "call_function"}
    assert "oneflow_promote.add.Tensor" in targets, targets
    for e, g in zip(compiled_program(*compiled_inputs()), exported.module()(*compiled_inputs())):
        assert e.dtype == g.dtype
        torch.testing.assert_close(g, e, rtol=0, atol=0)


def values(dtype, shape, seed):
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    x = torch.randint(1, 9, shape, generator=g)
    if dtype.is_complex:
        return (x + 1j * torch.randint(-4, 5, shape, generator=g)).to(dtype)
    return (x / 2 if dtype.is_floating_point else x).to(dtype)


def both_or_neither(theirs_fn, mine_fn, what, op=None):
    """Both raise (ours with torch's exception class, or torch.ops' for an
    overload torch lacks, such as atan2_ with a Python scalar), or both
    compute the same dtype, shape and bits."""
    try:
        theirs = theirs_fn()
    except (RuntimeError, TypeError) as e:
        if torch_lacks_kernel(e):  # torch's gap, where ours may compute
            return 0
        with pytest.raises(Exception) as mine:
            mine_fn()
        assert same_refusal(e, mine.value), f"{what}: {mine.value!r}, torch {e!r}"
        return 0
    assert_same(theirs, mine_fn(), what, op)
    return 1


DTYPES = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64, torch.complex64]


@pytest.mark.parametrize("op", IN_PLACE_OPS)
def test_in_place_variants_match_torch(op):
    computed = 0
    for i, (a, b) in enumerate(itertools.product(DTYPES, DTYPES)):
        self_ = values(a, (3, 4), i)
        for other in (values(b, (4,), i + 1), values(b, (3, 4), i + 2).t().contiguous().t(), 2):
            what = f"{op}_({a}, {other.dtype if torch.is_tensor(other) else other})"
            computed += both_or_neither(lambda: getattr(self_.clone(), op + "_")(other),
                                        lambda: getattr(ours, op + "_")(self_.clone(), other),
                                        what, op)
    assert computed > 50
    x = values(torch.int32 if op in BITWISE else torch.float32, (3,), 0)
    assert getattr(ours, op + "_")(x, x) is x


@pytest.mark.parametrize("op", ["add", "sub"])
def test_alpha_matches_torch(op):
    computed = 0
    for a, b in itertools.product(DTYPES, DTYPES):
        x, y = values(a, (3, 4), 1), values(b, (4,), 2)
        for alpha in (2, -1, 0.5, True, 1 - 2j):
            what = f"{op}({a}, {b}, alpha={alpha!r})"
            computed += both_or_neither(lambda: getattr(torch, op)(x, y, alpha=alpha),
                                        lambda: getattr(ours, op)(x, y, alpha=alpha), what, op)
            computed += both_or_neither(lambda: getattr(torch, op)(x, 3, alpha=alpha),
                                        lambda: getattr(ours, op)(x, 3, alpha=alpha),
                                        what + " Scalar", op)
    assert computed > 100


@pytest.mark.parametrize("op", ["add", "sub"])
def test_alpha_out_of_the_dtypes_range_raises_as_torch(op):
    """torch converts alpha (for sub, -alpha) into the compute dtype with
    c10's checked conversion: "value cannot be converted to type int8_t
    without overflow"; uint8 takes -255 to 255."""
    refused = 0
    for a in DTYPES + [torch.int8, torch.int16, torch.complex32]:
        x = values(a, (5,), 1)
        for alpha in (127, 128, -128, -255, 256, 2**31, 70000.0, 1e39, complex(1, 1e39)):
            what = f"{op}({a}, alpha={alpha!r})"
            refused += 1 - both_or_neither(lambda: getattr(torch, op)(x, x, alpha=alpha),
                                           lambda: getattr(ours, op)(x, x, alpha=alpha), what, op)
    assert refused > 30


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
