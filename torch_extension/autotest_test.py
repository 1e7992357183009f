"""The AutoTest (autotest.py) in the default test run: a bounded pass per op
(ONEFLOW_PROMOTE_AUTOTEST_CASES=N for a soak run), and the AutoTest itself
checked on an op whose gradient has the wrong dtype, which it must catch
and reproduce.
"""

import contextlib
import dataclasses
import io
import os
import sys

import pytest
import torch

import autotest

ours = torch.ops.oneflow_promote


@pytest.mark.parametrize("op", list(autotest.OPS))
def test_autotest(op):
    result = autotest.run_autotest(op, cases=40, graph_cases=2)
    assert result.failed == 0, result.first_failure
    assert result.compared >= 10, f"{op}: only {result.compared} cases computed"


class WrongGradientDType(torch.autograd.Function):
    """ours.mul, whose backward gives every input a float64 gradient."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return ours.mul(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b).double(), (grad * a).double()


class Planted:
    """torch.ops.oneflow_promote with mul of two tensors replaced."""

    def __getattr__(self, name):
        return getattr(ours, name)

    @staticmethod
    def mul(a, b, **kwargs):
        if not (torch.is_tensor(a) and torch.is_tensor(b)) or kwargs.get("out") is not None:
            return ours.mul(a, b, **kwargs)
        return WrongGradientDType.apply(a, b)


def test_autotest_catches_a_wrong_gradient_dtype_with_a_reproducer(tmp_path, monkeypatch):
    # torch's engine converts the gradient to float32 before anyone sees it:
    # only the node's own gradients show the wrong dtype.
    monkeypatch.setenv("TEST_UNDECLARED_OUTPUTS_DIR", str(tmp_path))
    for name in ("CASES", "GRAPH_CASES", "SEED", "BACKENDS"):
        monkeypatch.delenv(f"ONEFLOW_PROMOTE_AUTOTEST_{name}", raising=False)
    result = autotest.run_autotest("mul", cases=200, graph_cases=0, implementation=Planted(),
                                   quiet=True)
    assert result.failed == 1, result
    assert "a gradient of float64" in result.first_failure, result.first_failure
    saved = list(tmp_path.glob("mul_seed*.py"))
    assert len(saved) == 1
    text = saved[0].read_text()
    assert text in result.first_failure
    # The reproducer runs on its own and prints both sides and the node's
    # gradients.
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(text, str(saved[0]), "exec"), {"__name__": "__main__"})
    assert "torch " in output.getvalue() and "oneflow_promote " in output.getvalue()
    assert "its graph node's gradients" in output.getvalue()


def test_torch_reference_stands_in_only_where_torchs_copy_drops_the_negative_bit():
    # The premise: torch's copy_ from float32 into a float16 negative view
    # loses the sign. When torch fixes it, this fails and torch_reference
    # should go.
    view = torch._neg_view(torch.zeros(3, dtype=torch.float16))
    view.copy_(torch.full((3,), 0.5))
    assert view.tolist() == [-0.5] * 3
    # torch's own in-place mul on that view then gets the gradient's sign
    # wrong (d(-x * b)/dx = -b = 0.25, times the upstream 0.75): the
    # stand-in gives the right one, which is ours too.
    def gradient(mul_, negative=torch._neg_view):
        leaf = torch.full((3,), 1.5, dtype=torch.float16, requires_grad=True)
        mul_(negative(leaf.clone()), torch.full((3,), -0.25)).backward(
            torch.full((3,), 0.75, dtype=torch.float16))
        return leaf.grad.tolist()

    assert gradient(torch.Tensor.mul_) == [-0.1875] * 3
    assert gradient(torch.Tensor.mul_, torch.neg) == [0.1875] * 3
    assert gradient(ours.mul_) == [0.1875] * 3
    case = autotest.Case("mul", "in_place", [
        autotest.TensorSpec(torch.float16, (3,), "neg", 1, True),
        autotest.TensorSpec(torch.float32, (3,), "contiguous", 2)], {})
    assert autotest.torch_reference(case).operands[0].view == "negated"
    for changed in (dict(dtype=torch.bfloat16), dict(view="sliced")):
        other = dataclasses.replace(case, operands=[
            dataclasses.replace(case.operands[0], **changed), case.operands[1]])
        assert autotest.torch_reference(other) is other


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
