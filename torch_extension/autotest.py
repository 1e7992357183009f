"""AutoTest for torch.ops.oneflow_promote.*: random calls run on torch's op
and on ours, compared, in the manner of OneFlow's @autotest(auto_backward=
True, check_graph=True) and of the library's C++ AutoTest (tests/autotest):

- each case draws an op and its variant (functional, out=, in place),
  dtypes, shapes that broadcast (zero-size ones too), views (transposed,
  sliced, conjugate, negative, expanded), Python scalars and 0-d tensors,
  alpha and rounding_mode, out= of other dtypes and layouts or the very
  tensor of an input, and the default dtype, all from one seed;
- both raise, or the results agree in dtype, shape and value;
- auto_backward: where the result requires grad, the gradients of every
  input agree with torch's bit for bit, and the op's own graph node gives
  each input a gradient of that input's dtype and shape (the library's
  gradient rule, before torch's engine would convert it);
- check_graph: on some cases, the call under torch.compile(fullgraph=True)
  (aot_eager by default) agrees with torch, gradients included;
- the first failure prints a runnable Python reproducer and saves it under
  $TEST_UNDECLARED_OUTPUTS_DIR (or /tmp).

    python3 torch_extension/autotest.py [op ...]     # a run of the default size
    ONEFLOW_PROMOTE_AUTOTEST_CASES=2000 python3 torch_extension/autotest.py  # a soak run

ONEFLOW_PROMOTE_AUTOTEST_CASES (cases per op), _GRAPH_CASES (of them
compiled), _SEED (the first case's seed) and _BACKENDS (comma-separated
torch.compile backends) override the defaults. CUDA cases are drawn where a
GPU is present.
"""

import dataclasses
import os
import random
import sys
import tempfile
import traceback

import torch

import oneflow_promote_torch  # noqa: F401  (registers torch.ops.oneflow_promote)
from bit_judge import CPU_PATH_ULPS, torch_lacks_kernel, ulp_distance

ours = torch.ops.oneflow_promote

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
          torch.complex128]


@dataclasses.dataclass(frozen=True)
class OpInfo:
    scalar_other: bool = True  # torch takes a Python scalar as other
    in_place: bool = True      # torch has op_
    alpha: bool = False
    rounding_mode: bool = False


def _ops_from_registry():
    """The extension's binary ops and where, each with what its registered
    overloads say. The overloads derive from the op's row in op_list.h, so
    an op with a kernel joins the autotest by its row alone."""
    overloads = {}
    for name in torch._C._dispatch_get_all_op_names():
        namespace, _, qualified = name.partition("::")
        op, dot, overload = qualified.partition(".")
        if namespace == "oneflow_promote" and dot:
            overloads.setdefault(op, set()).add(overload)
    return {
        op: OpInfo(scalar_other=bool(names & {"Scalar", "ScalarOther"}),
                   in_place=op + "_" in overloads,
                   alpha="Tensor_alpha" in names,
                   rounding_mode="Tensor_mode" in names)
        for op, names in sorted(overloads.items())
        if not op.endswith("_") and names & {"Tensor", "self"}
    }


OPS = _ops_from_registry()

# Where a result is written into a destination of another dtype (out=, in
# place), torch rounds the op's result and then converts it; one more
# rounding may separate its answer from ours by one ulp of the destination.
CONVERTED_ULPS = 1

ALPHAS = [2, -1, 0.5, True, 1 - 2j]
SCALARS = [True, 3, -2, 2.5, -0.75, 1.5 - 2j]


@dataclasses.dataclass
class TensorSpec:
    """A tensor operand: `view` of a base drawn from `seed`."""
    dtype: torch.dtype
    shape: tuple
    view: str = "contiguous"  # transposed, sliced, conj, neg, expanded, negated
    seed: int = 0
    requires_grad: bool = False
    device: str = "cpu"

    def base_shape(self):
        if self.view == "transposed":
            return tuple(reversed(self.shape))
        if self.view == "sliced":
            return self.shape[:-1] + (2 * self.shape[-1] + 1,)
        if self.view == "expanded":
            return tuple(1 if (self.seed >> d) & 1 else n for d, n in enumerate(self.shape))
        return self.shape

    def base_values(self):
        """Small nonzero numbers (quarters for floats), so that divisors never
        meet zero and ties happen; bools mixed."""
        g = torch.Generator().manual_seed(self.seed)
        shape = self.base_shape()
        if self.dtype == torch.bool:
            return torch.randint(0, 2, shape, generator=g).bool()
        magnitude = torch.randint(1, 5, shape, generator=g)
        sign = torch.randint(0, 2, shape, generator=g) * 2 - 1
        if self.dtype == torch.uint8:
            return magnitude.to(torch.uint8)
        if self.dtype.is_floating_point or self.dtype.is_complex:
            real = magnitude * sign / 4.0 * torch.randint(1, 5, shape, generator=g)
            if self.dtype.is_complex:
                return (real + 1j * torch.randint(-4, 5, shape, generator=g) / 4.0).to(self.dtype)
            return real.to(self.dtype)
        return (magnitude * sign).to(self.dtype)

    def view_code(self, base):
        """The Python expression of the view of `base`."""
        rank = len(self.shape)
        if self.view == "transposed":
            return f"{base}.permute({', '.join(str(d) for d in reversed(range(rank)))})"
        if self.view == "sliced":
            return f"{base}[..., 1::2]"
        if self.view == "conj":
            return f"{base}.conj()"
        if self.view == "neg":
            return f"torch._neg_view({base})"
        if self.view == "negated":  # a new tensor, not a view
            return f"{base}.neg()"
        if self.view == "expanded":
            return f"{base}.expand({list(self.shape)})"
        return base

    def describe(self):
        text = f"{str(self.dtype)[6:]}{list(self.shape)}"
        if self.view != "contiguous":
            text += f" {self.view}"
        if self.requires_grad:
            text += " requires_grad"
        if self.device != "cpu":
            text += f" {self.device}"
        return text


@dataclasses.dataclass
class OutSpec:
    """out=: a tensor of `dtype` and `layout`, or the very tensor of operand
    `alias`."""
    dtype: torch.dtype = torch.float32
    layout: str = "contiguous"  # transposed, sliced, empty
    alias: int = -1


@dataclasses.dataclass
class Case:
    op: str
    variant: str  # functional, out, in_place
    operands: list  # TensorSpec or Python scalars
    kwargs: dict
    out: OutSpec = None
    default_dtype: torch.dtype = torch.float32
    seed: int = 0

    def describe(self):
        parts = [o.describe() if isinstance(o, TensorSpec) else f"Python {o!r}"
                 for o in self.operands]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        if self.out is not None:
            parts.append("out=" + (f"operand {self.out.alias + 1}" if self.out.alias >= 0 else
                                   f"{str(self.out.dtype)[6:]} {self.out.layout}"))
        name = self.op + ("_" if self.variant == "in_place" else "")
        return (f"{name}({', '.join(parts)}) with default dtype "
                f"{str(self.default_dtype)[6:]}, seed {self.seed}")


def draw_shape(rng, broadcast_of=None):
    if broadcast_of is None:
        rank = rng.randint(0, 4)
        return tuple(0 if rng.random() < 0.04 else rng.randint(1, 4) for _ in range(rank))
    # A suffix of the shape with some extents 1.
    suffix = broadcast_of[rng.randint(0, len(broadcast_of)):]
    return tuple(1 if rng.random() < 0.3 else n for n in suffix)


def draw_tensor(rng, dtype, shape, device, grad):
    views = ["contiguous", "contiguous", "expanded"]
    if len(shape) >= 2:
        views.append("transposed")
    if len(shape) >= 1:
        views.append("sliced")
    if dtype.is_complex:
        views.append("conj")
    if dtype != torch.bool:
        views.append("neg")
    differentiable = dtype.is_floating_point or dtype.is_complex
    return TensorSpec(dtype, shape, rng.choice(views), rng.randrange(1 << 30),
                      grad and differentiable and rng.random() < 0.5, device)


INTEGRAL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]


def draw_case(op, seed, devices, backward=True):
    """One case of `op`, everything drawn from `seed`."""
    rng = random.Random(seed)
    info = OPS[op]
    # Bitwise ops mostly on the dtypes they are defined on.
    dtypes = INTEGRAL if op.startswith("bitwise") and rng.random() < 0.8 else DTYPES
    device = rng.choice(devices)
    variants = ["functional", "functional", "out"] + (["in_place"] if info.in_place else [])
    variant = rng.choice(variants)
    grad = backward and variant != "out"  # out= refuses inputs that require grad
    shape = draw_shape(rng)
    operands = []
    if op == "where":
        operands.append(TensorSpec(torch.bool, draw_shape(rng, shape), "contiguous",
                                   rng.randrange(1 << 30), False, device))
    operands.append(draw_tensor(rng, rng.choice(dtypes), shape, device, grad))
    if op == "where" and rng.random() < 0.25:
        operands[-1] = rng.choice(SCALARS)  # where.ScalarSelf
    kind = rng.random()
    if info.scalar_other and kind < 0.25:
        operands.append(rng.choice(SCALARS))
    elif kind < 0.4:
        operands.append(draw_tensor(rng, rng.choice(dtypes), (), device, grad))
    else:
        operands.append(draw_tensor(rng, rng.choice(dtypes), draw_shape(rng, shape), device, grad))
    self_ = operands[1 if op == "where" else 0]
    if variant == "in_place" and (op == "floor_divide" or not (self_.dtype.is_floating_point
                                                               or self_.dtype.is_complex)):
        # torch's autograd is not the rule here: eq_ of an integer self by a
        # tensor that requires grad marks self as requiring grad (or raises
        # "Autograd not support dtype"), and floor_divide_ keeps self's
        # history where the library's node raises "not implemented".
        for o in operands:
            if isinstance(o, TensorSpec):
                o.requires_grad = False
    kwargs = {}
    if info.alpha and rng.random() < 0.5:
        kwargs["alpha"] = rng.choice(ALPHAS)
    if info.rounding_mode:
        kwargs["rounding_mode"] = rng.choice([None, "floor", "trunc"])
    out = None
    if variant == "out":
        out = OutSpec(rng.choice(DTYPES), rng.choice(["contiguous", "transposed", "sliced",
                                                      "empty"]))
        tensors = [i for i, o in enumerate(operands) if isinstance(o, TensorSpec)
                   and o.shape == shape and o.view == "contiguous"]
        if tensors and rng.random() < 0.25:
            out.alias = rng.choice(tensors)
    default_dtype = torch.float64 if rng.random() < 0.25 else torch.float32
    return Case(op, variant, operands, kwargs, out, default_dtype, seed)


def to_hex(t):
    return t.reshape(-1).view(torch.uint8).cpu().numpy().tobytes().hex() if t.numel() else ""


OUT_TENSOR_CODE = '''
def out_tensor(dtype, layout, device, args):
    """out= of the call's broadcast shape, in a layout."""
    shape = tuple(torch.broadcast_shapes(*[a.shape for a in args if torch.is_tensor(a)]))
    if layout == "empty":
        return torch.empty(0, dtype=dtype, device=device)
    if layout == "transposed" and len(shape) >= 2:
        reverse = tuple(reversed(range(len(shape))))
        return torch.empty(shape[::-1], dtype=dtype, device=device).permute(*reverse)
    if layout == "sliced" and len(shape) >= 1:
        return torch.empty(shape[:-1] + (2 * shape[-1],), dtype=dtype, device=device)[..., ::2]
    return torch.empty(shape, dtype=dtype, device=device)
'''


def input_code(case):
    """Python source that builds the case's inputs: `leaves` (tensors whose
    gradients count) and `args`, `kwargs` of the call."""
    lines = ["def inputs():", "    leaves, args = [], []"]
    for i, o in enumerate(case.operands):
        if not isinstance(o, TensorSpec):
            lines.append(f"    args.append({o!r})")
            continue
        base = o.base_values()
        shape = list(base.shape)
        if base.numel():
            make = (f"torch.frombuffer(bytearray.fromhex({to_hex(base)!r}), dtype=torch.uint8)"
                    f".view({o.dtype}).reshape({shape}).clone()")
        else:
            make = f"torch.empty({shape}, dtype={o.dtype})"
        lines.append(f"    base{i} = {make}.to({o.device!r})"
                     f".requires_grad_({o.requires_grad})  # {o.describe()}")
        lines.append(f"    leaves.append(base{i})")
        if case.variant == "in_place" and i == 0:
            lines.append(f"    base{i} = base{i}.clone()  # self of an in-place call: not a leaf")
        lines.append(f"    args.append({o.view_code(f'base{i}')})")
    lines.append(f"    kwargs = {case.kwargs!r}")
    if case.out is not None:
        if case.out.alias >= 0:
            lines.append(f"    kwargs['out'] = args[{case.out.alias}]")
        else:
            device = next(o.device for o in case.operands if isinstance(o, TensorSpec))
            lines.append(f"    kwargs['out'] = out_tensor({case.out.dtype}, {case.out.layout!r}, "
                         f"{device!r}, args)")
    lines.append("    return leaves, args, kwargs")
    return "\n".join(lines)


def build(case):
    """Fresh inputs for one run: leaves, args and kwargs."""
    namespace = {"torch": torch}
    exec(OUT_TENSOR_CODE + "\n" + input_code(case), namespace)
    return namespace["inputs"]()


def torch_reference(case):
    """The case as torch is asked it: itself, but for float16 self of an
    in-place call on a negative view. There torch's backward copies the
    float32 gradient into the view with copy_, whose float32 <-> float16
    path drops the negative bit (torch 2.15 CPU: a float16 negative view
    .copy_(torch.full((3,), 0.5)) reads -0.5), and the gradient comes back
    with its sign flipped. A negated tensor in the view's place has the
    same values and the same gradient, exactly, without that copy."""
    self_ = case.operands[0]
    if not (case.variant == "in_place" and isinstance(self_, TensorSpec)
            and self_.view == "neg" and self_.dtype == torch.float16):
        return case
    negated = dataclasses.replace(self_, view="negated")
    return dataclasses.replace(case, operands=[negated] + case.operands[1:])


def call(fn_module, case, args, kwargs):
    """The case's call on torch (fn_module torch) or on ours."""
    kwargs = {k: v for k, v in kwargs.items() if v is not None or k == "rounding_mode"}
    if case.variant == "in_place":
        if fn_module is torch:
            return getattr(args[0], case.op + "_")(*args[1:], **kwargs)
        return getattr(fn_module, case.op + "_")(*args, **kwargs)
    return getattr(fn_module, case.op)(*args, **kwargs)


@dataclasses.dataclass
class Outcome:
    error: str = None
    result: torch.Tensor = None
    args: list = None
    grads: object = None       # per leaf: a tensor or None; or backward's error
    node_grads: list = None    # per argument: the op's graph node's own gradients
    computed_in: torch.dtype = None  # out= and in place of an op with a bound: its own dtype


def upstream_for(result, seed):
    g = torch.Generator().manual_seed(seed)
    values = torch.randint(-4, 5, result.shape, generator=g) / 4.0
    return values.to(result.dtype).to(result.device)


def run(fn_module, case, compiled_with=None):
    """The case on torch (fn_module torch) or ours, eager or compiled with a
    torch.compile backend."""
    leaves, args, kwargs = build(case)
    out = kwargs.pop("out", None)
    tensors = list(args) + ([out] if out is not None else [])

    def fn(*t):
        call_kwargs = dict(kwargs, **({"out": t[-1]} if out is not None else {}))
        return call(fn_module, case, t[:len(args)], call_kwargs)

    previous = torch.get_default_dtype()
    torch.set_default_dtype(case.default_dtype)
    try:
        if compiled_with is not None:
            torch._dynamo.reset()
            fn = torch.compile(fn, fullgraph=True, backend=compiled_with, dynamic=False)
        try:
            result = fn(*tensors)
        except Exception as e:  # noqa: BLE001: any error is an outcome to compare
            return Outcome(error=f"{type(e).__name__}: {(str(e).splitlines() or [''])[0]}")
        outcome = Outcome(result=result, args=args)
        if (case.variant != "functional" and compiled_with is None
                and any(op == case.op for op, _ in CPU_PATH_ULPS)):
            functional = dataclasses.replace(case, variant="functional")
            try:
                outcome.computed_in = call(torch, functional, args, kwargs).dtype
            except Exception:  # noqa: BLE001: then the result's own dtype bounds it
                pass
        if result.requires_grad:
            upstream = upstream_for(result, case.seed)
            node = result.grad_fn
            if (fn_module is not torch and compiled_with is None and node is not None
                    and case.variant == "functional"):
                # The node's own gradients, before torch's engine converts them
                # (C++ nodes are called, Python ones applied); a node that
                # raises is backward's business, compared below.
                try:
                    outcome.node_grads = list(node(upstream) if callable(node)
                                              else node.apply(upstream))
                except RuntimeError:
                    pass
            wanting = [leaf for leaf in leaves if leaf.requires_grad]
            try:
                grads = iter(torch.autograd.grad(result, wanting, upstream, allow_unused=True))
                outcome.grads = [next(grads) if leaf.requires_grad else None for leaf in leaves]
            except RuntimeError as e:
                outcome.grads = f"backward raised: {(str(e).splitlines() or [''])[0]}"
        return outcome
    finally:
        torch.set_default_dtype(previous)


def lacks_kernel(outcome):
    """torch has no kernel for a limited-support dtype ("mul_cpu" not
    implemented for 'BComplex32'), where the library computes (docs/ops.md)."""
    return outcome.error is not None and torch_lacks_kernel(outcome.error)


def values_mismatch(what, theirs, mine, bound):
    """'' when `mine` is `theirs` bit for bit, or within `bound` ulps
    (bit_judge.ulp_distance); else what differs."""
    if mine.dtype != theirs.dtype:
        return f"{what}: dtype {mine.dtype} vs torch {theirs.dtype}"
    if mine.shape != theirs.shape:
        return f"{what}: shape {list(mine.shape)} vs torch {list(theirs.shape)}"
    distance = ulp_distance(theirs.detach().cpu(), mine.detach().cpu())
    if distance > bound:
        return (f"{what}: {distance} ulp apart (bound {bound}): torch "
                f"{' '.join(str(theirs.tolist()).split())[:200]}, ours "
                f"{' '.join(str(mine.tolist()).split())[:200]}")
    return ""


def forward_bound(case, outcome):
    """The ulps a result may differ by: torch's CPU path bound of the op in
    the dtype it computes in (bit_judge.CPU_PATH_ULPS), counted in the ulps
    of a wider out= (one float32 ulp is 2**29 of complex128's), and one
    more where out= or in place converts into another dtype than the op's
    own."""
    result = outcome.result
    computed_in = outcome.computed_in or result.dtype
    bound = CPU_PATH_ULPS.get((case.op, computed_in), 0) if result.device.type == "cpu" else 0
    if bound and computed_in != result.dtype:
        def eps(dtype):
            return torch.finfo(dtype.to_real() if dtype.is_complex else dtype).eps
        bound *= max(1, round(eps(computed_in) / eps(result.dtype)))
    return bound + (CONVERTED_ULPS if case.variant != "functional" else 0)


def mismatch(case, theirs, mine, graph=""):
    """'' when ours agrees with torch, else what differs."""
    where = f" (torch.compile, {graph})" if graph else ""
    if theirs.error is not None or mine.error is not None:
        if theirs.error is not None and mine.error is not None:
            return ""
        if theirs.error is not None:
            if lacks_kernel(theirs):
                return ""
            return f"torch raised ({theirs.error}) but ours computed{where}"
        return f"ours raised ({mine.error}), torch computed{where}"
    text = values_mismatch("result" + where, theirs.result, mine.result,
                           forward_bound(case, theirs))
    if text:
        return text
    # Eager results have torch's layout (torch.compile's graphs choose their own).
    if not graph and mine.result.stride() != theirs.result.stride():
        return f"result: strides {mine.result.stride()} vs torch {theirs.result.stride()}"
    # torch's in-place comparisons mark an integer or bool self as requiring
    # grad when other does (eq_ of uint8 by a float64 tensor): a tensor that
    # can have no gradient; the library does not follow.
    # Its backward then fails an internal assert.
    if case.variant == "in_place" and not (theirs.result.is_floating_point()
                                           or theirs.result.is_complex()):
        return ""
    if mine.result.requires_grad != theirs.result.requires_grad:
        return (f"result requires_grad {mine.result.requires_grad} vs torch "
                f"{theirs.result.requires_grad}{where}")
    if isinstance(theirs.grads, str) or isinstance(mine.grads, str):
        # torch's where backward gives a real input of a complex result the
        # complex gradient and its engine refuses it; the library's rule
        # gives the real part.
        # Nor does torch's backward have every kernel ("sum_cpu" not
        # implemented for 'ComplexHalf').
        if isinstance(theirs.grads, str) and ("input_is_complex == grad_is_complex" in theirs.grads
                                              or "not implemented for '" in theirs.grads):
            return ""
        if isinstance(theirs.grads, str) != isinstance(mine.grads, str):
            return f"backward: {mine.grads if isinstance(mine.grads, str) else 'computed'} vs " \
                   f"torch {theirs.grads if isinstance(theirs.grads, str) else 'computed'}{where}"
        return ""
    if theirs.grads is not None:
        # Gradients are computed by the same formulas: bit for bit. (Where
        # inductor's fusion rounds otherwise, torch's own op compiled
        # differs from eager too, and the case counts as unsupported.)
        for k, (t, m) in enumerate(zip(theirs.grads, mine.grads)):
            if (t is None) != (m is None):
                return f"gradient of input {k + 1}: {m is not None} vs torch {t is not None}{where}"
            if t is not None:
                text = values_mismatch(f"gradient of input {k + 1}{where}", t, m, 0)
                if text:
                    return text
    if mine.node_grads is not None:
        args = mine.args
        for k, g in enumerate(mine.node_grads):
            arg = args[k] if k < len(args) else None
            wants = torch.is_tensor(arg) and arg.requires_grad
            if g is None:
                if wants:
                    return f"the op's node gives input {k + 1} no gradient; it requires grad"
                continue
            if (g.dtype, g.shape) != (arg.dtype, arg.shape):
                return (f"the op's node gives input {k + 1} ({str(arg.dtype)[6:]}"
                        f"{list(arg.shape)}) a gradient of {str(g.dtype)[6:]}{list(g.shape)}")
    return ""


def reproducer(case, diagnosis):
    name = case.op + ("_" if case.variant == "in_place" else "")
    return f'''# AutoTest reproducer: {name}, seed {case.seed}.
# {case.describe()}
# {diagnosis}
# Run: PYTHONPATH=torch_extension python3 <this file>
import torch

import oneflow_promote_torch  # noqa: F401

torch.set_default_dtype({case.default_dtype})
{OUT_TENSOR_CODE}

{input_code(case)}


def run(label, fn):
    leaves, args, kwargs = inputs()
    try:
        result = fn(args, kwargs)
    except Exception as e:
        print(label, "raised", type(e).__name__, e)
        return
    print(label, result.dtype, list(result.shape), result)
    if result.requires_grad:
        g = torch.Generator().manual_seed({case.seed})
        upstream = (torch.randint(-4, 5, result.shape, generator=g) / 4.0).to(result.dtype)
        upstream = upstream.to(result.device)
        if label == "oneflow_promote" and {case.variant == "functional"}:
            print("  its graph node's gradients:",
                  [None if x is None else (x.dtype, list(x.shape)) for x in result.grad_fn(upstream)])
        wanting = [x for x in leaves if x.requires_grad]
        try:
            grads = torch.autograd.grad(result, wanting, upstream, allow_unused=True)
        except Exception as e:
            print("  backward raised", type(e).__name__, e)
            return
        for i, grad in enumerate(grads):
            print("  gradient", i + 1, None if grad is None else (grad.dtype, grad))


run("torch", lambda args, kwargs: {torch_call(case)})
run("oneflow_promote", lambda args, kwargs: {ours_call(case)})
'''


def torch_call(case):
    if case.variant == "in_place":
        return f"args[0].{case.op}_(*args[1:], **kwargs)"
    return f"torch.{case.op}(*args, **kwargs)"


def ours_call(case):
    name = case.op + ("_" if case.variant == "in_place" else "")
    return f"torch.ops.oneflow_promote.{name}(*args, **kwargs)"


@dataclasses.dataclass
class AutoTestResult:
    compared: int = 0
    skipped: int = 0       # both raised
    lacks_kernel: int = 0  # torch has no kernel (or dtype) for the library's answer
    graphs: int = 0        # cases also compared under torch.compile
    graphs_unsupported: int = 0  # torch.compile fails torch's own call too
    failed: int = 0
    first_failure: str = ""


def save(name, text):
    directory = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR") or tempfile.gettempdir()
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def env_int(name, default):
    value = os.environ.get(name)
    return int(value) if value else default


def run_autotest(op, cases=40, graph_cases=2, seed=1, backends=("aot_eager",),
                 implementation=None, quiet=False):
    """Runs `cases` cases of `op` (case i from seed + i; the first
    `graph_cases` of those torch computes also under torch.compile with each
    backend) and stops at the first failure, printing and saving its
    reproducer. `implementation` stands in for torch.ops.oneflow_promote
    (any object with the ops as attributes)."""
    cases = env_int("ONEFLOW_PROMOTE_AUTOTEST_CASES", cases)
    graph_cases = env_int("ONEFLOW_PROMOTE_AUTOTEST_GRAPH_CASES", graph_cases)
    seed = env_int("ONEFLOW_PROMOTE_AUTOTEST_SEED", seed)
    if os.environ.get("ONEFLOW_PROMOTE_AUTOTEST_BACKENDS"):
        backends = os.environ["ONEFLOW_PROMOTE_AUTOTEST_BACKENDS"].split(",")
    mine_module = implementation if implementation is not None else ours
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    result = AutoTestResult()
    for i in range(cases):
        case = draw_case(op, seed + i, devices)
        diagnosis = ""
        try:
            theirs = run(torch, torch_reference(case))
            mine = run(mine_module, case)
            if theirs.error is not None and mine.error is not None:
                result.skipped += 1
                continue
            if lacks_kernel(theirs) and mine.error is None:
                result.lacks_kernel += 1
                continue
            diagnosis = mismatch(case, theirs, mine)
            if not diagnosis and result.graphs < graph_cases:
                result.graphs += 1
                for backend in backends:
                    diagnosis = mismatch(case, theirs, run(mine_module, case, backend), backend)
                    # torch.compile's limits hold for torch's own op too: an
                    # out= it cannot resize, a backward it cannot trace, a
                    # negative view inductor reads as positive.
                    if diagnosis and mismatch(case, theirs, run(torch, case, backend), backend):
                        diagnosis = ""
                        result.graphs_unsupported += 1
                    if diagnosis:
                        break
        except Exception:  # noqa: BLE001: a crash of the harness is a failure too
            diagnosis = "the AutoTest itself raised: " + traceback.format_exc()
        result.compared += 1
        if diagnosis:
            result.failed += 1
            text = reproducer(case, diagnosis.splitlines()[0])
            path = save(f"{op}_seed{case.seed}.py", text)
            result.first_failure = (f"AutoTest failure: {case.describe()}: {diagnosis}\n"
                                    f"reproducer (saved as {path}):\n{text}")
            if not quiet:
                print(result.first_failure, file=sys.stderr)
            break
    return result


def main(argv):
    ops = argv[1:] or list(OPS)
    failed = 0
    for op in ops:
        r = run_autotest(op)
        print(f"{op}: {r.compared} compared ({r.graphs} under torch.compile, "
              f"{r.graphs_unsupported} of them failing torch's own call too), "
              f"{r.skipped} both raised, {r.lacks_kernel} without a torch kernel or dtype, "
              f"{r.failed} failed")
        failed += r.failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
