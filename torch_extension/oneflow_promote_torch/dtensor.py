"""The library's SBP rules as PyTorch DTensor's sharding strategy for casts
and promoted arithmetic.

DTensor (torch 2.15) keeps Partial(sum) through a cast unless the target is
bool or the cast goes from floating to integer, so an int8 DTensor whose two
Partial(sum) shards are [100, 100, -100] each, cast with .to(torch.int32),
materializes as [200, 200, -200]; on one device the int8 sum wraps first and
the answer is [-56, -56, 56]. Its add, sub, mul and div pass partials through
the promotion the same way: `y / 2` of that DTensor gives [100., 100., -100.]
where one device gives [-28., -28., 28.]. After install(), a partial
placement passes through a cast (aten._to_copy, and aten.to.dtype, which
DTensor sees under inference mode), or into add, sub, mul or div (their
out-of-place, in-place and out= overloads), only where oneflow_promote's
rules keep it exactly (docs/global.md); elsewhere DTensor reduces the
partials first.

    import oneflow_promote_torch.dtensor
    oneflow_promote_torch.dtensor.install()
    ...
    oneflow_promote_torch.dtensor.uninstall()   # DTensor's own strategies again

install() and uninstall() clear DTensor's sharding caches (the Python cache
of the calling thread and the C++ fast path's), so decisions DTensor made
before are made again under the rules in force.
"""

import torch
from torch.distributed.tensor import DTensor, Partial
from torch.distributed.tensor._dtensor_spec import TensorMeta

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)

aten = torch.ops.aten

# The casts, and the arithmetic whose inputs are promoted before it runs.
_CASTS = (aten._to_copy.default, aten.to.dtype)
_ARITHMETIC = tuple(
    getattr(getattr(aten, name), overload)
    for name, overloads in (("add", ("Tensor", "out")), ("add_", ("Tensor",)),
                            ("sub", ("Tensor", "out")), ("sub_", ("Tensor",)),
                            ("mul", ("Tensor", "Scalar", "out")), ("mul_", ("Tensor", "Scalar")),
                            ("div", ("Tensor", "Scalar", "out")), ("div_", ("Tensor", "Scalar")))
    for overload in overloads)

# DTensor's own strategy functions, kept while the rules are installed.
_ORIGINALS = {}
_STRICT = [True]


def cast_keeps(source, target, reduce_op):
    """Whether torch's cast from `source` to `target` keeps Partial(reduce_op)
    exactly: the library's rule, where torch converts as the library does.
    "avg" only without a dtype change; dtypes the library lacks never."""
    if source == target:
        return True
    if reduce_op not in ("sum", "max", "min"):
        return False
    if (source.is_floating_point or source.is_complex) and not (
            target.is_floating_point or target.is_complex or target == torch.bool):
        # torch's own float -> integer conversion wraps out of range where
        # the library's saturates (docs/casts.md): not monotone there.
        return False
    try:
        return torch.ops.oneflow_promote.cast_keeps(source, target, reduce_op) == "exact"
    except RuntimeError:
        return False


def _cast_target(op, args_schema, kwargs_schema):
    source = args_schema[0].dtype
    if op == aten.to.dtype:
        return source, args_schema[1]
    return source, kwargs_schema.get("dtype", None) or source


def _filtering_casts(original):
    def strategy(op, args_schema, kwargs_schema):
        source, target = _cast_target(op, args_schema, kwargs_schema)
        return [row for row in original(op, args_schema, kwargs_schema)
                if not isinstance(row[0], Partial)
                or cast_keeps(source, target, row[0].reduce_op)]
    return strategy


def _as_promotion_operand(arg):
    # TensorMeta -> a meta tensor of its dtype and shape; numbers stay.
    if isinstance(arg, TensorMeta):
        return torch.empty(tuple(arg.shape), dtype=arg.dtype, device="meta")
    return arg


def _partial_kept(placement, source, compute):
    """Whether a Partial input of dtype `source` may enter arithmetic that
    computes in `compute` (or a Partial result computed in `source` leave
    into `compute`) with every rank's part giving the single-device answer:
    the promotion keeps it exactly, integer extremes do not move under
    wrapping arithmetic, and floating sums stay unreduced only when
    install(strict=False) accepts rounding."""
    if not isinstance(placement, Partial):
        return True
    if not cast_keeps(source, compute, placement.reduce_op):
        return False
    floating = compute.is_floating_point or compute.is_complex
    if placement.reduce_op in ("max", "min") and not floating:
        return False
    return not (placement.reduce_op in ("sum", "avg") and floating and _STRICT[0])


def _promoting(original):
    def strategy(op, args_schema, kwargs_schema):
        rows = original(op, args_schema, kwargs_schema)
        # The functional op on meta tensors gives the dtype the inputs
        # promote to (true division's default float included).
        function = getattr(torch, op._schema.name.split("::")[1].rstrip("_"))
        compute = function(*[_as_promotion_operand(a) for a in args_schema[:2]]).dtype
        tensors = [a for a in args_schema if isinstance(a, TensorMeta)]
        out = kwargs_schema.get("out")
        if op._schema.name.endswith("_"):
            result = tensors[0].dtype
        elif isinstance(out, TensorMeta):
            result = out.dtype
        else:
            result = compute
        kept = []
        for row in rows:
            inputs = row[1:1 + len(tensors)]
            if all(_partial_kept(p, t.dtype, compute) for p, t in zip(inputs, tensors)) and \
                    _partial_kept(row[0], compute, result):
                kept.append(row)
        return kept
    return strategy


def _propagator():
    return DTensor._op_dispatcher.sharding_propagator


def _clear_sharding_caches():
    _propagator().propagate_op_sharding.cache_clear()
    clear_fast_path = getattr(torch._C, "_clear_DTensor_sharding_propagator_cache", None)
    if clear_fast_path is not None:
        clear_fast_path()


def install(strict=True):
    """Puts the library's rules into DTensor's strategies for the casts and
    for add, sub, mul and div. With strict=False, floating partial sums pass
    through the arithmetic as DTensor lets them (equal up to rounding);
    strict reduces them first, for single-device answers."""
    _STRICT[0] = strict
    funcs = _propagator().op_single_dim_strategy_funcs
    for op in _CASTS + _ARITHMETIC:
        info = funcs.get(op)
        if info is None:
            raise RuntimeError(f"DTensor has no single-dim strategy for {op}; this torch "
                               f"({torch.__version__}) is not one oneflow_promote_torch knows")
        original = _ORIGINALS.setdefault(op, info.func)
        info.func = (_filtering_casts if op in _CASTS else _promoting)(original)
    _clear_sharding_caches()


def uninstall():
    """Gives DTensor its own strategies back."""
    funcs = _propagator().op_single_dim_strategy_funcs
    for op, original in _ORIGINALS.items():
        funcs[op].func = original
    _ORIGINALS.clear()
    _clear_sharding_caches()


def installed():
    """Whether install() is in force."""
    return bool(_ORIGINALS)
