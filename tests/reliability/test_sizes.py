"""Shapes whose element or byte count overflows are a clear ValueError naming the op, never an abort."""
import pytest

from tests.reliability.isolated import run_snippets

OVERFLOWING = [
    "padax.zeros([2**40, 2**40])",
    "padax.ones([2**31, 2**31, 4])",
    "padax.full([2**62, 4], 1.0)",
    "padax.eye(2**33)",
    "padax.arange(2**62)",
    "padax.linspace(0, 1, 2**62)",
    "padax.nn.functional.one_hot(padax.to_tensor([1]), 2**62)",
    "padax.tile(padax.ones([8]), [2**62])",
    "padax.broadcast_to(padax.ones([1]), [2**40, 2**40])",
    "padax.expand(padax.ones([1, 1]), [2**40, 2**40])",
    "padax.pad(padax.ones([2]), [2**62, 2**62])",
    "padax.numpy.reshape(padax.numpy.zeros((0,)), (2**40, 2**40, 2**40, 0))",
    "padax.jit(lambda: padax.zeros([2**40, 2**40]))()",
    "padax.jit(lambda x: padax.broadcast_to(x, [2**40, 2**40]))(padax.ones([1]))",
    "padax.vmap(lambda x: padax.zeros([2**40, 2**40]) + x)(padax.ones([3]))",
]


def test_overflowing_sizes_raise_value_errors():
    for r in run_snippets(OVERFLOWING):
        assert r["error"] == "ValueError", r
        assert "2**63" in r["message"] and "more than any device can hold" in r["message"], r
        assert "<string>" in r["message"], r  # the user's line


@pytest.mark.parametrize("code", ["padax.zeros([3, 0, 5]).shape == (3, 0, 5)",
                                  "padax.numpy.reshape(padax.numpy.zeros((0,)), (4, 0)).shape == (4, 0)"])
def test_ordinary_empty_shapes_still_work(code):
    import numpy as np

    import padax
    assert eval(code, {"padax": padax, "np": np})
