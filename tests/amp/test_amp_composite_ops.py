"""Paddle's black-listed composite ops (softmax, log_softmax, softplus, layer_norm, group_norm and the
losses) run in float32 under auto_cast O1, for float16 and bfloat16 alike, and return float32, as Paddle
does; at O2 (only the extra black list) they follow their inputs. Paddle's CPU build has no
float16/bfloat16 kernels for these, so the oracle is its lists (paddle/amp/amp_lists.py)."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax import nn

F = nn.functional
RNG = np.random.default_rng(3)
X = RNG.standard_normal((4, 8)).astype(np.float32)
LABEL = np.array([1, 0, 7, 3])

# Paddle op name -> the padax call (on a low-precision x)
OPS = {
    "softmax": lambda x: F.softmax(x),
    "log_softmax": lambda x: F.log_softmax(x),
    "softplus": lambda x: F.softplus(x),
    "layer_norm": lambda x: F.layer_norm(x, 8),
    "group_norm": lambda x: F.group_norm(x.reshape([4, 8, 1, 1]), 2),
    "cross_entropy": lambda x: F.cross_entropy(x, padax.to_tensor(LABEL)),
    "softmax_with_cross_entropy": lambda x: F.softmax_with_cross_entropy(x, padax.to_tensor(LABEL[:, None])),
    "nll_loss": lambda x: F.nll_loss(x, padax.to_tensor(LABEL)),
    "exp": padax.exp,
    "tanh": padax.tanh,                      # gray: follows its input (tanh_shrink is black, tanh is not)
    "tanh_shrink": F.tanhshrink,
    "matmul_v2": lambda x: x @ x.T,          # white
}


def test_lists_are_paddles():
    amp_lists = pytest.importorskip("paddle.amp.amp_lists")
    for dt in ("float16", "bfloat16"):
        for lvl in ("OD", "O1", "O2"):
            assert set(padax.amp.white_list()[dt][lvl]) == set(amp_lists.white_list()[dt][lvl]), (dt, lvl)
            assert set(padax.amp.black_list()[dt][lvl]) == set(amp_lists.black_list()[dt][lvl]), (dt, lvl)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("level", ["O1", "O2"])
def test_listed_ops_run_in_paddles_dtype(dtype, level):
    amp_lists = pytest.importorskip("paddle.amp.amp_lists")
    black, white = amp_lists.black_list()[dtype][level], amp_lists.white_list()[dtype][level]
    low = padax.to_tensor(X).astype(dtype)
    for name, fn in OPS.items():
        want = "float32" if name in black else dtype   # white and gray: the low-precision dtype
        with padax.amp.auto_cast(level=level, dtype=dtype):
            got = fn(low)
        assert str(np.dtype(got.dtype)) == want, (name, dtype, level, got.dtype)
        if want == "float32":    # computed from the float32 cast of the input: float32's own result
            np.testing.assert_allclose(np.asarray(got), np.asarray(fn(low.astype("float32"))), rtol=1e-6, atol=1e-7)


def test_black_composite_under_jit_and_grad():
    low = padax.to_tensor(X).astype("bfloat16")

    def f(x):
        with padax.amp.auto_cast(dtype="bfloat16"):
            return F.softmax(x)
    assert padax.jit(f)(low).dtype == np.float32
    g = padax.grad(lambda x: f(x)[:, 0].sum())(low)
    assert g.dtype == low.dtype            # the gradient comes back in the input's dtype
    ref = padax.grad(lambda x: F.softmax(x)[:, 0].sum())(low.astype("float32"))
    np.testing.assert_allclose(np.asarray(g).astype(np.float32), np.asarray(ref), atol=1e-2)
    # a custom white entry removes it from the black list: then softmax follows the input again
    with padax.amp.auto_cast(dtype="bfloat16", custom_black_list=["exp"]):
        assert F.softmax(low).dtype == np.float32
