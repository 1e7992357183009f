"""The library's SBP rules as PyTorch DTensor's sharding strategy for casts
and promoted binary ops.

DTensor (torch 2.15) keeps Partial(sum) through a cast unless the target is
bool or the cast goes from floating to integer, so an int8 DTensor whose two
Partial(sum) shards are [100, 100, -100] each, cast with .to(torch.int32),
materializes as [200, 200, -200]; on one device the int8 sum wraps first and
the answer is [-56, -56, 56]. Its add, sub and mul promote partials the same
way (int8 Partial(sum) + int32 Partial(sum) stays Partial). After install(),
a partial placement passes through a cast, or into a promoted add, sub or
mul, only where oneflow_promote's rules keep it exactly (docs/global.md);
elsewhere DTensor reduces the partials first.

    import oneflow_promote_torch.dtensor
    oneflow_promote_torch.dtensor.install()
"""

import torch
from torch.distributed.tensor import Partial
from torch.distributed.tensor._op_schema import RuntimeSchemaInfo
from torch.distributed.tensor._ops.single_dim_strategy import (
    _ShardingPlaceholder,
    register_single_dim_strategy,
)

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)

aten = torch.ops.aten


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


def _to_copy_strategy(op, args_schema, kwargs_schema):
    meta = args_schema[0]
    source = meta.dtype
    target = kwargs_schema.get("dtype", None) or source
    strategies = [[_ShardingPlaceholder(dim), _ShardingPlaceholder(dim)]
                  for dim in range(len(meta.shape))]
    for reduce_op in ("sum", "avg", "min", "max"):
        if cast_keeps(source, target, reduce_op):
            strategies.append([Partial(reduce_op), Partial(reduce_op)])
    return strategies


def _dtype_of(arg):
    return arg.dtype if hasattr(arg, "dtype") else None


def _as_promotion_operand(arg):
    # TensorMeta -> a meta tensor of its dtype and rank; numbers stay.
    if hasattr(arg, "dtype"):
        return torch.empty(tuple(arg.shape), dtype=arg.dtype, device="meta")
    return arg


_STRICT = [True]


def _keeps_row(row, args, compute):
    """A strategy row [output, input...] holds when every partial input is
    kept exactly by its promotion to `compute`, and partial sums and
    extremes of the result stay exact (integers: sums wrap alike, but
    adding a replicated value does not commute with max)."""
    for placement, arg in zip(row[1:], args):
        if not isinstance(placement, Partial):
            continue
        source = _dtype_of(arg)
        if source is None or not cast_keeps(source, compute, placement.reduce_op):
            return False
        if placement.reduce_op in ("max", "min") and not compute.is_floating_point:
            return False
        if placement.reduce_op in ("sum", "avg") and compute.is_floating_point and _STRICT[0]:
            return False  # kept only up to rounding
    return True


def _promoting(original):
    def strategy(op, args_schema, kwargs_schema):
        rows = original(op, args_schema, kwargs_schema)
        tensors = args_schema[:2]
        compute = torch.result_type(*[_as_promotion_operand(a) for a in tensors])
        return [row for row in rows if _keeps_row(row, tensors, compute)]
    return strategy


_PROMOTING_OPS = (aten.add.Tensor, aten.sub.Tensor, aten.mul.Tensor)


def install(strict=True):
    """Registers the strategies for aten._to_copy (what .to(dtype) runs) and
    for the Tensor overloads of add, sub and mul. With strict=False, floating
    partial sums pass through add, sub and mul as DTensor lets them (equal up
    to rounding); strict reduces them first, for single-device answers."""
    _STRICT[0] = strict
    from torch.distributed.tensor import DTensor
    propagator = DTensor._op_dispatcher.sharding_propagator
    for op in _PROMOTING_OPS:
        info = propagator.op_single_dim_strategy_funcs[op]
        if getattr(info.func, "_oneflow_promote", False):
            continue
        wrapped = _promoting(info.func)
        wrapped._oneflow_promote = True
        info.func = wrapped
    register_single_dim_strategy(
        aten._to_copy.default,
        schema_info=RuntimeSchemaInfo(static_kwargkey=["dtype"]),
        allow_unbacked_sharding=True,
        allow_uneven_sharding=True,
    )(_to_copy_strategy)
    cache = getattr(propagator.propagate_op_sharding, "cache", None)
    if cache is not None:
        cache.cache_clear()
