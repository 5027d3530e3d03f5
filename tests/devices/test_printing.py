"""print(tensor) gives exactly Paddle's text (0-d to 4-d, summarised large Tensors, every dtype family,
bfloat16, empty shapes, NaN/inf), under each of set_printoptions' settings; traced values say they are traced."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle

_RNG = np.random.default_rng(0)
_VALUES = {
    "0d-float": np.float32(1.5), "0d-int": np.array(3, np.int64), "0d-bool": np.array(True),
    "0d-negative-f64": np.array(-2.25, np.float64), "1d-float": _RNG.standard_normal(5).astype(np.float32),
    "1d-int": np.arange(6, dtype=np.int64), "1d-bool": np.array([True, False, True]),
    "2d-float": _RNG.standard_normal((3, 4)).astype(np.float32), "3d-int": _RNG.integers(-5, 5, (2, 3, 4)),
    "4d-f64": _RNG.standard_normal((2, 2, 2, 3)), "2d-summarised": _RNG.standard_normal((40, 40)).astype(np.float32),
    "1d-summarised": _RNG.standard_normal(2000).astype(np.float32), "1d-wrapped": _RNG.standard_normal(12).astype(np.float32),
    "2d-long-rows": _RNG.standard_normal((3, 30)).astype(np.float32),
    "complex": (_RNG.standard_normal((2, 3)) + 1j * _RNG.standard_normal((2, 3))).astype(np.complex64),
    "specials": np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -0.0], np.float32),
    "wide-range": np.array([1e10, 1e-10, 3.0], np.float32), "float16": _RNG.standard_normal((2, 3)).astype(np.float16),
    "empty-rows": np.zeros((0, 3), np.float32), "empty-cols": np.zeros((2, 0), np.int32),
    "int-summarised": np.arange(1200, dtype=np.int32).reshape(30, 40),
    "bfloat16": _RNG.standard_normal((3, 4)).astype(ml_dtypes.bfloat16),
    "uint8": _RNG.integers(0, 255, (3, 4)).astype(np.uint8), "3d-wide": _RNG.standard_normal((10, 2, 10)) * 100,
}
_OPTIONS = {"default": {}, "short": {"precision": 4, "threshold": 100, "edgeitems": 2},
            "sci": {"sci_mode": True, "precision": 3}, "narrow": {"linewidth": 40, "threshold": 10, "edgeitems": 1}}
_DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)


@pytest.fixture
def both_options():
    paddle = paddle_oracle()
    yield paddle
    paddle.set_printoptions(**_DEFAULTS)
    padax.set_printoptions(**_DEFAULTS)


def _paddle_tensor(paddle, a):
    if a.dtype == ml_dtypes.bfloat16:
        return paddle.to_tensor(a.astype(np.float32)).astype("bfloat16")
    return paddle.to_tensor(a)


@pytest.mark.parametrize("opts", list(_OPTIONS), ids=list(_OPTIONS))
def test_print_matches_paddle(opts, both_options):
    paddle = both_options
    settings = {**_DEFAULTS, **_OPTIONS[opts]}
    paddle.set_printoptions(**settings)
    padax.set_printoptions(**settings)
    for name, value in _VALUES.items():
        a = np.asarray(value)
        want = str(_paddle_tensor(paddle, a))
        got = str(padax.to_tensor(a))
        assert got == want, f"{name} with {opts}:\npadax:\n{got}\nPaddle:\n{want}"
        assert repr(padax.to_tensor(a)) == got


def test_set_printoptions_leaves_unset_options_and_checks_types():
    try:
        padax.set_printoptions(precision=2)
        padax.set_printoptions(threshold=5)  # precision stays 2
        text = str(padax.to_tensor(np.array([0.123456, 1.5, 2.25, 3.0, 4.0, 5.0, 6.0, 7.0], np.float32)))
        assert "0.12" in text and "0.123" not in text and "..." in text
        with pytest.raises(TypeError, match="precision must be int"):
            padax.set_printoptions(precision=2.5)
        with pytest.raises(TypeError, match="sci_mode must be bool"):
            padax.set_printoptions(sci_mode=1)
    finally:
        padax.set_printoptions(**_DEFAULTS)


def test_format_of_0d_tensor_uses_the_python_value():
    assert f"{padax.to_tensor(1.25):.1f}" == "1.2"
    assert format(padax.to_tensor(7), "03d") == "007"


def test_traced_values_say_they_are_traced():
    seen = []

    def f(x):
        seen.append(repr(x))
        seen.append(str(x * 2))
        return x

    padax.jit(f)(padax.ones([2, 3]))
    padax.vmap(f)(padax.ones([4, 3], dtype="float64"))
    padax.grad(lambda x: f(x).sum())(padax.ones([5]))
    assert all("Traced" in s for s in seen), seen
    assert "f32[2,3]" in seen[0] and "f64[3]" in seen[2] and "f32[5]" in seen[4]
