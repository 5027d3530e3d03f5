"""Paddle's paddle.tensor namespace, graph-mode switches and finfo/iinfo, against paddle."""
from __future__ import annotations

import math

import pytest

import padax
from tests.conftest import paddle_oracle


def test_tensor_namespace_is_the_top_level_api():
    import padax.tensor.math as tmath
    from padax.tensor.search import argwhere
    assert tmath.frexp is padax.frexp and argwhere is padax.argwhere and padax.tensor.triu is padax.triu
    assert padax.tensor.linalg.matmul is padax.matmul
    with pytest.raises(AttributeError, match="no attribute 'nn'"):
        padax.tensor.nn  # noqa: B018  (modules are not tensor functions)
    x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert padax.tensor.triu(x).numpy().tolist() == [[1.0, 2.0], [0.0, 4.0]]


def test_tensor_namespace_covers_paddles_tensor_functions():
    paddle = paddle_oracle()
    for sub in ("math", "search", "manipulation", "creation", "linalg", "logic", "stat"):
        theirs = getattr(paddle.tensor, sub)
        shared = [n for n in dir(theirs) if not n.startswith("_") and callable(getattr(theirs, n))
                  and hasattr(padax, n) and not isinstance(getattr(padax, n), type(padax))]
        assert len(shared) > 5, sub
        for n in shared:
            assert getattr(getattr(padax.tensor, sub), n) is getattr(padax, n)


def test_graph_mode_switches():
    paddle = paddle_oracle()
    assert padax.in_dynamic_mode() is paddle.in_dynamic_mode() is True
    assert padax.disable_static() is None
    padax.disable_static(padax.CPUPlace())
    assert padax.get_device() == "cpu"
    padax.enable_static()  # Paddle's static-graph mode (tests/static)
    assert not padax.in_dynamic_mode()
    padax.disable_static()
    assert padax.in_dynamic_mode()


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16", "complex64", "complex128"])
def test_finfo_as_paddle(dt):
    paddle = paddle_oracle()
    want, got = paddle.finfo(getattr(paddle, dt)), padax.finfo(getattr(padax, dt))
    for attr in ("min", "max", "eps", "resolution", "smallest_normal", "tiny"):
        assert math.isclose(getattr(got, attr), getattr(want, attr), rel_tol=1e-6), attr
    assert got.bits == want.bits and got.dtype == want.dtype
    assert repr(got) == repr(want).replace("paddle.", "padax.")


@pytest.mark.parametrize("dt", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_as_paddle(dt):
    paddle = paddle_oracle()
    want, got = paddle.iinfo(getattr(paddle, dt)), padax.iinfo(dt)
    assert (got.min, got.max, got.bits, got.dtype) == (want.min, want.max, want.bits, want.dtype)
    assert repr(got) == repr(want).replace("paddle.", "padax.")


def test_info_refuses_the_other_kind():
    with pytest.raises(TypeError, match="finfo"):
        padax.finfo("int32")
    with pytest.raises(TypeError, match="iinfo"):
        padax.iinfo(padax.float32)
