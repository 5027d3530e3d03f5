"""padax.nn.functional.fractional_max_pool2d/3d and the layers vs Paddle given the same random_u:
window edges over many sizes, values, masks and gradients; the global-seed fallback; errors."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax import nn
from padax.nn.functional.pooling_fractional import fractional_bounds
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check, check_vmap

RNG = np.random.default_rng(0)


def _paddle_windows(n, m, k, u):
    """Paddle's window [start, end) per output position, read off the masks of a ramp and its negative."""
    PF = paddle_oracle().nn.functional
    ramp = np.arange(n, dtype=np.float32)[None, None, None, :].repeat(2, 2)
    kw = dict(kernel_size=None if k == 0 else [1, k], random_u=u, return_mask=True)
    _, last = PF.fractional_max_pool2d(paddle_oracle().to_tensor(ramp), [2, m], **kw)
    _, first = PF.fractional_max_pool2d(paddle_oracle().to_tensor(-ramp), [2, m], **kw)
    return first.numpy()[0, 0, 0], last.numpy()[0, 0, 0] + 1


def test_window_edges_match_paddle():
    cases = [(n, m, k) for n in (3, 5, 7, 10, 11, 16) for m in range(1, n + 1) for k in (0, 1, 2, 3)
             if not (k and (m < 2 or n < m - 1 + k))]
    for n, m, k in cases:
        for u in (0.05, 0.3, 0.5, 0.77, 0.99):  # 0.5 hits float32 rounding ties at integer edges
            lo, hi = fractional_bounds(n, m, k, u)
            p_lo, p_hi = _paddle_windows(n, m, k, u)
            np.testing.assert_array_equal(lo, p_lo, err_msg=f"{(n, m, k, u)}")
            np.testing.assert_array_equal(hi, p_hi, err_msg=f"{(n, m, k, u)}")


def test_paddle_docstring_sequence():
    lo, hi = fractional_bounds(7, 5, 0, 0.3)
    assert lo.tolist() == [0, 1, 3, 4, 6] and hi.tolist() == [1, 3, 4, 6, 7]


@pytest.mark.parametrize("kw", [dict(output_size=3, random_u=0.3),
                                dict(output_size=[4, None], random_u=0.6), dict(output_size=[4, 6], kernel_size=2, random_u=0.6),
                                dict(output_size=(5, 3), kernel_size=(3, 2), random_u=0.45)])
def test_2d_vs_paddle(kw):
    PF = paddle_oracle().nn.functional
    x = RNG.standard_normal((2, 3, 9, 8)).astype(np.float32)
    check(lambda x: F.fractional_max_pool2d(x, return_mask=True, **kw),
          lambda x: PF.fractional_max_pool2d(x, return_mask=True, **kw), [x])


def test_3d_and_layers_vs_paddle():
    paddle = paddle_oracle()
    x = RNG.standard_normal((1, 2, 7, 6, 9)).astype(np.float32)
    check(lambda x: (*F.fractional_max_pool3d(x, (3, 4, 5), random_u=0.7, return_mask=True),
                     F.fractional_max_pool3d(x, 3, kernel_size=2, random_u=0.2)),
          lambda x: (*paddle.nn.functional.fractional_max_pool3d(x, (3, 4, 5), random_u=0.7, return_mask=True),
                     paddle.nn.functional.fractional_max_pool3d(x, 3, kernel_size=2, random_u=0.2)), [x])
    x2 = x[:, :, 0]
    for cls, inp in (("FractionalMaxPool2D", x2), ("FractionalMaxPool3D", x)):
        ours = getattr(nn, cls)(output_size=3, kernel_size=2, random_u=0.4, return_mask=True)
        theirs = getattr(paddle.nn, cls)(output_size=3, kernel_size=2, random_u=0.4, return_mask=True)
        for a, e in zip(ours(padax.to_tensor(inp)), theirs(paddle.to_tensor(inp))):
            np.testing.assert_array_equal(np.asarray(a), e.numpy())


def test_grad_vmap_and_second_order(x64):
    x = RNG.permutation(63).reshape(1, 1, 7, 9) / 63.0
    check_grads(lambda x: F.fractional_max_pool2d(x, (4, 5), random_u=0.35), (x,), order=2, modes=("rev",))
    check_vmap(lambda x: F.fractional_max_pool2d(x, (4, 5), random_u=0.35, return_mask=True),
               [RNG.standard_normal((2, 3, 7, 9))])


def test_random_u_from_the_global_seed():
    x = padax.to_tensor(RNG.standard_normal((1, 1, 12, 12)).astype(np.float32))
    padax.seed(3)
    a = [np.asarray(F.fractional_max_pool2d(x, 5, return_mask=True)[1]) for _ in range(6)]
    padax.seed(3)
    b = [np.asarray(F.fractional_max_pool2d(x, 5, return_mask=True)[1]) for _ in range(6)]
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert len({p.tobytes() for p in a}) > 1  # fresh windows per call
    with pytest.raises(RuntimeError, match="fractional_max_pool2d without random_u.*key"):
        padax.jit(lambda x: F.fractional_max_pool2d(x, 5))(x)


def test_errors():
    x = padax.ones([1, 2, 5, 5])
    with pytest.raises(ValueError, match=r"fractional_max_pool2d: random_u must be a float in \(0, 1\)"):
        F.fractional_max_pool2d(x, 3, random_u=1.0)
    with pytest.raises(ValueError, match=r"fractional_max_pool2d: input size \[5, 5\] cannot be pooled"):
        F.fractional_max_pool2d(x, 4, kernel_size=3, random_u=0.5)
    with pytest.raises(ValueError, match=r"fractional_max_pool3d: x must be 5-D"):
        F.fractional_max_pool3d(x, 2, random_u=0.5)
