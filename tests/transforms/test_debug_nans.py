"""debug_nans / debug_infs: the primitive and line where a NaN (inf) first appears, also inside nested jit."""
import inspect

import numpy as np
import pytest

import padax
from padax import lax


@pytest.fixture
def nans():
    with padax.config.override("debug_nans", True):
        yield


@padax.jit
def inner(x):
    y = padax.exp(x)
    z = padax.log(x - 1.0)  # the NaN (x < 1)
    return y + z


@padax.jit
def outer(x):
    return inner(x * 2.0).sum()


def _line_of(fn, text: str) -> int:
    src, start = inspect.getsourcelines(fn.fun if hasattr(fn, "fun") else fn)
    return start + next(i for i, ln in enumerate(src) if text in ln)


def test_nan_located_in_nested_jit(nans):
    assert np.isfinite(outer(padax.to_tensor([1.0, 2.0])).item())  # no NaN: no error
    with pytest.raises(FloatingPointError) as info:
        outer(padax.to_tensor([0.1, 2.0]))
    msg = str(info.value)
    assert "invalid value (nan)" in msg and "'log'" in msg
    assert f"{__file__}:{_line_of(inner, 'padax.log')}" in msg
    assert "inside jit(inner) inside jit(outer)" in msg


def test_nan_off_by_default():
    assert not padax.config.debug_nans
    assert np.isnan(outer(padax.to_tensor([0.1, 2.0])).item())


def test_eager_op_nan(nans):
    with pytest.raises(FloatingPointError, match="'sqrt'"):
        padax.sqrt(padax.to_tensor([-1.0]))


def test_nan_in_scan_body(nans):
    def body(c, x):
        return c + padax.sqrt(x - 2.0), c
    with pytest.raises(FloatingPointError, match=r"'sqrt' at .*inside scan body \(step 0\)"):
        padax.jit(lambda xs: lax.scan(body, 0.0, xs))(padax.arange(4.0))


def test_nan_inputs_are_not_blamed_on_an_op(nans):
    with pytest.raises(FloatingPointError, match="inputs already hold it"):
        padax.jit(lambda x: x * 2)(padax.to_tensor([np.nan]))


def test_debug_infs():
    with padax.config.override("debug_infs", True):
        with pytest.raises(FloatingPointError, match="'div'"):
            padax.jit(lambda x: 1.0 / x)(padax.zeros([2]))
        assert padax.jit(lambda x: padax.log(x - 1.0))(padax.to_tensor([0.5])).isnan().all()  # NaN: not an inf
