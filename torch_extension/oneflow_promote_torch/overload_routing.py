"""Calls on torch.ops.oneflow_promote's packets, routed to their overload by
the types of their arguments.

torch.ops resolves a call on a packet (torch.ops.oneflow_promote.add) by
trying its overloads in turn and catching the error of each that does not
fit: 3 to 11 us an overload (AMD EPYC Zen 4, torch 2.15; docs/integration.md
has the figures). For these ops a call's positional
arguments, each a tensor or a number, and its keyword names pick exactly one
overload. A routed packet calls that overload directly; any other call
(operands by keyword, tensor subclasses, SymInts, NumPy scalars, calls no
overload takes) goes to torch's own resolution, which also gives torch's
errors.
"""

import itertools

import torch

# The argument types a route tells apart, by the schema type they fit (an
# exact type, not isinstance: a subclass takes torch's resolution).
_TYPES = {"Tensor": (torch.Tensor, torch.nn.Parameter), "number": (bool, int, float, complex)}
# The operands' names in these ops' schemas; always given by position.
_OPERANDS = ("condition", "self", "other")
_TENSOR = torch.Tensor


class RoutedPacket(torch._ops.OpOverloadPacket):
    """An OpOverloadPacket whose calls take the overload their arguments'
    types name (`_routes`), and torch's resolution where none does."""

    def __call__(self, /, *args, **kwargs):
        # The form spelled out for two positional arguments, the common
        # case: 0.3 us less than through map (Zen 4, 2026-12-08).
        if len(args) == 2:
            first, second = type(args[0]), type(args[1])
            # Two tensors: torch's resolution takes its first overload, at no cost.
            if first is second is _TENSOR and not kwargs:
                return self._op(*args)
            form = (first, second, *kwargs) if kwargs else (first, second)
        else:
            form = (*map(type, args), *kwargs)
        overload = self._routes.get(form)
        if overload is None:
            return super().__call__(*args, **kwargs)
        # OpOverload.__call__ without its Python frame (about 0.5 us), where
        # it would call the same function (always before torch 2.15, which
        # lacks the attribute).
        if getattr(overload, "_pyobj_dispatcher", None) is None:
            return overload._op(*args, **kwargs)
        return overload(*args, **kwargs)


def routes(packet):
    """Each call form of the packet's overloads: the types of its
    positional arguments followed by its keyword names, in each order a
    call may give them -> the overload. The arguments after the operands
    (alpha, rounding_mode) by keyword, and the numbers among them by
    position too. None where two overloads share a form, or an overload
    has no operands."""
    table = {}
    for name in packet.overloads():
        overload = getattr(packet, name)
        arguments = overload._schema.arguments
        positional = [a for a in arguments if not a.kwarg_only]
        keyword_only = [a.name for a in arguments if a.kwarg_only]
        operands = 0
        while operands < len(positional) and positional[operands].name in _OPERANDS:
            operands += 1
        if operands == 0:
            return None
        for given in range(operands, len(positional) + 1):
            choices = [_TYPES.get(str(a.type)) for a in positional[:given]]
            if None in choices:
                break
            keywords = [a.name for a in positional[given:]] + keyword_only
            for types in itertools.product(*choices):
                for names in itertools.permutations(keywords):
                    if (*types, *names) in table:
                        return None
                    table[(*types, *names)] = overload
    return table


def route_packets(namespace="oneflow_promote"):
    """Makes each packet of `namespace` whose overloads all have routes a
    RoutedPacket."""
    prefix = namespace + "::"
    names = {n[len(prefix):].split(".")[0] for n in torch._C._dispatch_get_all_op_names()
             if n.startswith(prefix)}
    for name in sorted(names):
        packet = getattr(getattr(torch.ops, namespace), name)
        table = routes(packet)
        if table:
            packet._routes = table
            packet.__class__ = RoutedPacket
