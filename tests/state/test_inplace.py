"""Paddle's in-place Tensor updates, functionalized by rebinding (padax/functional/inplace.py): every
in-place method against Paddle's value, item assignment, out=/assign, aliasing, the random fills,
in-place code under jit/grad/vmap, and the cases that stay refused."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax.core.errors import ImmutableTensorError
from padax.functional.tensor_conversions import _INPLACE
from padax.test_util import check_grads
from tests.conftest import paddle_oracle

R = np.random.default_rng(0)
U = R.uniform(0.1, 0.9, (3, 4)).astype(np.float32)      # in (0, 1): every unary function is defined
V = R.uniform(0.1, 0.9, (3, 4)).astype(np.float32)
BIG = (U * 3 + 1.5).astype(np.float32)                    # > 1: acosh, multigammaln
I1 = R.integers(1, 50, (3, 4)).astype(np.int64)
I2 = R.integers(1, 5, (3, 4)).astype(np.int64)
SQ = R.uniform(-1, 1, (3, 3)).astype(np.float32)
B3 = R.uniform(-1, 1, (2, 3, 3)).astype(np.float32)
MASK = U > 0.5
NANS = np.array([[np.nan, np.inf, -np.inf, 1.5]], np.float32)


class T:
    """An argument that each framework gets as its own Tensor."""

    def __init__(self, value):
        self.value = np.asarray(value)


_UNARY = ("abs_ acos_ asin_ asinh_ atan_ atanh_ ceil_ cos_ cosh_ digamma_ erfinv_ exp_ floor_ frac_ gammaln_ "
          "lgamma_ log10_ log1p_ log2_ log_ logit_ neg_ reciprocal_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ "
          "square_ tan_ tanh_ trunc_ i0_").split()
_BINARY = ("add_ sub_ subtract_ multiply_ mul_ divide_ div_ copysign_ hypot_ remainder_ mod_ floor_mod_ "
           "equal_ not_equal_ less_ less_than_ less_equal_ greater_than_ greater_equal_ logical_and_ logical_or_ "
           "logical_xor_ gammainc_ gammaincc_").split()
_INT_BINARY = "bitwise_and_ bitwise_or_ bitwise_xor_ bitwise_left_shift_ bitwise_right_shift_ gcd_ lcm_".split()

# (method, x, args, kwargs)
CASES = ([(n, U, (), {}) for n in _UNARY] + [(n, U, (T(V),), {}) for n in _BINARY]
         + [(n, I1, (T(I2),), {}) for n in _INT_BINARY] + [
    ("acosh_", BIG, (), {}), ("logical_not_", U, (), {}), ("bitwise_not_", I1, (), {}),
    ("bitwise_invert_", I1, (), {}), ("floor_divide_", I1, (T(I2),), {}), ("ldexp_", U, (T(I2),), {}),
    ("add_", U, (T(V[0]),), {"alpha": 2}), ("subtract_", U, (T(np.array(2.5, np.float32)),), {}), ("multiply_", U, (T(V[:, :1]),), {}),
    ("divide_", I1, (T(I2),), {}), ("divide_", U, (T(V),), {"rounding_mode": "floor"}),
    ("pow_", U, (3.0,), {}), ("lerp_", U, (T(V), 0.3), {}), ("lerp_", U, (T(V), T(V)), {}),
    ("clip_", U, (0.3, 0.6), {}), ("clamp_", U, (), {"min": 0.4}), ("scale_", U, (2.0, 0.5), {}),
    ("scale_", U, (2.0, 0.5, False), {}), ("cumsum_", U, (), {"axis": 1}), ("cumsum_", U, (), {}),
    ("cumprod_", U, (), {"dim": 0}), ("nan_to_num_", NANS, (), {}), ("nan_to_num_", NANS, (1.0, 9.0, -9.0), {}),
    ("polygamma_", U, (1,), {}), ("multigammaln_", BIG, (2,), {}), ("renorm_", U, (2.0, 0, 1.0), {}),
    ("tril_", U, (), {}), ("triu_", U, (1,), {}), ("addmm_", SQ, (T(SQ), T(SQ.T)), {"beta": 0.5, "alpha": 2.0}),
    ("baddbmm_", B3, (T(B3), T(B3)), {"alpha": 0.5}),
    ("index_add_", U, (T(np.array([0, 2])), 0, T(V[:2])), {}),
    ("index_fill_", U, (T(np.array([1, 3])), 1, -1.0), {}),
    ("index_put_", U, ((T(np.array([0, 2])), T(np.array([1, 3]))), T(np.array([7.0, 8.0], np.float32))), {}),
    ("index_put_", U, ((T(np.array([0, 0])), T(np.array([1, 1]))), T(np.array([7.0, 8.0], np.float32))),
     {"accumulate": True}),
    ("masked_fill_", U, (T(MASK), 5.0), {}), ("masked_scatter_", U, (T(MASK), T(V * 10)), {}),
    ("put_along_axis_", U, (T(np.array([[0], [2], [1]])), 9.0, 1), {}),
    ("put_along_axis_", U, (T(np.array([[0], [2], [1]])), T(V[:, :1]), 1), {"reduce": "add"}),
    ("scatter_", U, (T(np.array([2, 0])), T(V[:2])), {}),
    ("scatter_", U, (T(np.array([1, 1])), T(V[:2])), {"overwrite": False}),
    ("scatter_add_", U, (1, T(np.array([[0, 1, 0, 1]] * 3)), T(V)), {}),
    ("fill_diagonal_tensor_", SQ, (T(np.arange(3, dtype=np.float32)),), {}),
    ("fill_diagonal_tensor_", U, (T(np.arange(3, dtype=np.float32)),), {"offset": 1}),
    ("reshape_", U, ([4, 3],), {}), ("squeeze_", U[:1], (), {}), ("squeeze_", U[:1], (0,), {}),
    ("unsqueeze_", U, (0,), {}), ("unsqueeze_", U, ([0, 3],), {}), ("flatten_", B3, (), {}),
    ("flatten_", B3, (1, 2), {}), ("transpose_", B3, ([2, 0, 1],), {}), ("t_", U, (), {}),
    ("cast_", U, ("float64",), {}), ("cast_", U, ("int32",), {}), ("fill_", U, (3.0,), {}), ("fill_", I1, (2.7,), {}),
    ("zero_", U, (), {}), ("fill_diagonal_", SQ, (2.0,), {}), ("fill_diagonal_", U, (2.0, 1), {}),
    ("fill_diagonal_", np.ones((7, 3), np.float32), (5.0,), {"wrap": True}),
    ("fill_diagonal_", np.ones((4, 3), np.float32), (5.0, 1, True), {}),
    ("fill_diagonal_", np.ones((3, 3, 3), np.float32), (5.0,), {}),
    ("copy_", U, (T(V),), {}), ("apply_", U, (lambda t: t * 2 + 1,), {}),
])


def _to(framework, a):
    if isinstance(a, T):
        return framework.to_tensor(a.value)
    if isinstance(a, tuple):
        return tuple(_to(framework, e) for e in a)
    return a


def _dtype_name(t) -> str:
    return str(t.dtype).replace("paddle.", "")


def _tol(name: str, dtype) -> dict:
    loose = name in ("digamma_", "lgamma_", "gammaln_", "polygamma_", "multigammaln_", "gammainc_", "gammaincc_",
                     "i0_", "erfinv_", "atanh_", "acosh_", "asinh_")
    if np.dtype(dtype).kind in "iub":
        return {"rtol": 0, "atol": 0}
    return {"rtol": 3e-5 if loose else 2e-6, "atol": 3e-5 if loose else 1e-6}


@pytest.mark.parametrize("name,x,args,kwargs", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_inplace_method_matches_paddle(name, x, args, kwargs):
    paddle = paddle_oracle()
    px = paddle.to_tensor(x)
    pr = getattr(px, name)(*_to(paddle, args), **kwargs)
    ours = padax.to_tensor(x)
    alias = ours
    r = getattr(ours, name)(*_to(padax, args), **kwargs)
    assert r is ours and alias is ours  # the same object, rebound, as Paddle returns x
    expected = px.numpy()
    assert pr is None or np.array_equal(pr.numpy(), expected, equal_nan=True)
    assert ours.shape == tuple(expected.shape), (ours.shape, expected.shape)
    assert ours.dtype.name == _dtype_name(px), (ours.dtype, px.dtype)
    np.testing.assert_allclose(ours.numpy(), expected, **_tol(name, expected.dtype))


def test_every_paddle_inplace_method_is_covered():
    paddle = paddle_oracle()
    names = {n for n in dir(paddle.Tensor) if n.endswith("_") and not n.startswith("_")}
    assert names <= set(_INPLACE)
    tested = {c[0] for c in CASES} | {"where_", "set_", "resize_", "reconstruct_from_", "detach_", "requires_grad_",
                                      "grad_", "uniform_", "normal_", "bernoulli_", "exponential_", "cauchy_",
                                      "geometric_", "log_normal_", "random_", "clamp_"}
    assert names <= tested, sorted(names - tested)


@pytest.mark.parametrize("name", ["tanh_", "abs_", "where_", "cast_", "reshape_", "scatter_", "pow_"])
def test_module_level_inplace_functions(name):
    paddle = paddle_oracle()
    assert hasattr(paddle, name)
    fn = getattr(padax, name)
    x = padax.to_tensor(U)
    args = {"tanh_": (), "abs_": (), "where_": None, "cast_": ("float64",), "reshape_": ([12],),
            "scatter_": (padax.to_tensor([1]), padax.to_tensor(V[:1])), "pow_": (2.0,)}[name]
    if name == "where_":
        cond = padax.to_tensor(MASK)
        assert padax.where_(cond, x, padax.to_tensor(V)) is x
        np.testing.assert_array_equal(x.numpy(), np.where(MASK, U, V))
        return
    assert fn(x, *args) is x
    np.testing.assert_allclose(x.numpy(), getattr(padax.to_tensor(U), name[:-1])(*args).numpy())


def test_where_method_updates_x():
    paddle = paddle_oracle()
    pc, pa = paddle.to_tensor(MASK), paddle.to_tensor(U)
    pc.where_(pa, paddle.to_tensor(V))
    c, a = padax.to_tensor(MASK), padax.to_tensor(U)
    assert c.where_(a, padax.to_tensor(V)) is a
    np.testing.assert_array_equal(a.numpy(), pa.numpy())


def test_set_value_set_resize_detach_reconstruct():
    x = padax.to_tensor(U)
    assert x.set_value(V.astype(np.float64)) is x and x.dtype == np.float32
    np.testing.assert_array_equal(x.numpy(), V)
    with pytest.raises(ValueError, match=r"shape \[2\] differs"):
        x.set_value(np.zeros(2))
    y = padax.to_tensor(U)
    assert y.set_(padax.to_tensor(I2)) is y and y.dtype == np.int64 and y.shape == (3, 4)
    y.set_(padax.to_tensor(np.arange(12.0)), [2, 2], [3, 1], 1)
    np.testing.assert_array_equal(y.numpy(), np.lib.stride_tricks.as_strided(np.arange(12.0)[1:], (2, 2), (24, 8)))
    z = padax.to_tensor(np.arange(6.0).reshape(2, 3))
    assert z.resize_([2, 4]) is z
    np.testing.assert_array_equal(z.numpy(), [[0, 1, 2, 3], [4, 5, 0, 0]])
    z.resize_([3])
    np.testing.assert_array_equal(z.numpy(), [0, 1, 2])
    w = padax.to_tensor(U)
    assert w.reconstruct_from_(padax.to_tensor(V)) is w
    np.testing.assert_array_equal(w.numpy(), V)


def _detached(t):
    u = t * 1.0
    s = (u * t).sum()
    u.detach_()
    return s + (u * t).sum()


def test_detach_blocks_the_gradient():
    g = padax.grad(_detached)(padax.to_tensor(U))  # d/dt [t*t + stop(t)*t] = 2t + t
    np.testing.assert_allclose(g.numpy(), 3 * U, rtol=1e-6)


def test_refused_grad_():
    x = padax.to_tensor(U)
    with pytest.raises(ImmutableTensorError, match=r"grad_\(\)"):
        x.grad_()


def test_leaf_that_needs_a_gradient_is_updated_in_place_only_under_no_grad():
    x = padax.to_tensor(U, stop_gradient=False)
    with pytest.raises(ValueError, match="can't use inplace strategy"):
        x.add_(1.0)
    with padax.no_grad():
        x.add_(1.0)
    assert x.is_leaf and not x.stop_gradient
    np.testing.assert_allclose(x.numpy(), U + 1.0, rtol=1e-6)


def test_shape_must_be_kept_as_in_paddle():
    paddle = paddle_oracle()
    with pytest.raises(ValueError):
        paddle.to_tensor([1.0]).add_(paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"add_\(\).*shape \[2\] differs from the shape \[1\]"):
        padax.to_tensor([1.0]).add_(padax.to_tensor([1.0, 2.0]))


# ---- item assignment -----------------------------------------------------------------------------

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
SETITEM_CASES = [
    (0, 5.0), (-1, 5.0), ((1, 2), T(np.array([9, 8, 7, 6], np.float32))), (slice(None, None, 2), -1.0),
    ((slice(None), 1, slice(1, 3)), T(np.array([1.0, 2.0], np.float32))), ((Ellipsis, 0), 3), ((None, 0), 2.0),
    (T(A > 10), 0.0), (T(np.array([1, 0])), T(np.ones(12, np.float32).reshape(3, 4))),
    ((0, T(np.array([0, 2])), T(np.array([1, 3]))), T(np.array([50.0, 60.0], np.float32))),
    ((slice(None), slice(None, None, -1)), 1.0), (0, T(np.arange(4, dtype=np.int64))), (1, np.float64(2.5)),
    ((0, slice(1, 3)), T(np.array([[1.5], [2.5]], np.float64))), (T(np.array([True, False])), 7.0),
]


@pytest.mark.parametrize("key,value", SETITEM_CASES, ids=[str(i) for i in range(len(SETITEM_CASES))])
def test_setitem_matches_paddle(key, value):
    paddle = paddle_oracle()
    px = paddle.to_tensor(A)
    px[_to(paddle, key)] = _to(paddle, value)
    x = padax.to_tensor(A)
    alias = x
    x[_to(padax, key)] = _to(padax, value)
    assert alias is x and x.dtype == np.float32 and x.shape == A.shape
    np.testing.assert_array_equal(x.numpy(), px.numpy())


def test_setitem_casts_to_x_dtype():
    paddle = paddle_oracle()
    px = paddle.to_tensor(I1)
    px[0] = 2.7
    x = padax.to_tensor(I1)
    x[0] = 2.7
    assert x.dtype == np.int64
    np.testing.assert_array_equal(x.numpy(), px.numpy())


# ---- aliasing and views ---------------------------------------------------------------------------

def test_aliases_see_the_update():
    a = padax.to_tensor(U)
    b = a
    b.add_(padax.to_tensor(1.0))
    np.testing.assert_allclose(a.numpy(), U + 1)
    held = [a]
    a.zero_()
    assert held[0].tolist() == np.zeros_like(U).tolist()


def test_slices_and_views_do_not_write_through():
    """Paddle writes through slices and views; padax shares no storage (documented in the methods)."""
    paddle = paddle_oracle()
    p = paddle.to_tensor(U)
    s = p[0]
    s.add_(paddle.to_tensor(100.0))
    assert np.allclose(p.numpy()[0], U[0] + 100)  # Paddle 3.3: write-through
    a = padax.to_tensor(U)
    s = a[0]
    s.add_(padax.to_tensor(100.0))
    np.testing.assert_array_equal(a.numpy(), U)  # padax: the slice is a new Tensor
    np.testing.assert_allclose(s.numpy(), U[0] + 100)
    assert "share no storage" in padax.Tensor.add_.__doc__


# ---- out= and assign(output=) ---------------------------------------------------------------------

def test_assign_output_rebinds():
    out = padax.zeros([3, 4])
    alias = out
    assert padax.assign(padax.to_tensor(U), output=out) is out
    np.testing.assert_array_equal(alias.numpy(), U)
    out64 = padax.zeros([3, 4], "float64")
    padax.assign(U, output=out64)
    assert out64.dtype == np.float64


OUT_CASES = [("add", (T(U), T(V)), {}), ("exp", (T(U),), {}), ("sum", (T(U),), {"axis": 0}),
             ("matmul", (T(SQ), T(SQ)), {}), ("clip", (T(U), 0.2, 0.5), {}), ("bitwise_and", (T(I1), T(I2)), {}),
             ("maximum", (T(U), T(V)), {}), ("cumsum", (T(U), 1), {}), ("full", ([3, 4], 2.5), {}),
             ("abs", (T(U - 0.5),), {}), ("floor_divide", (T(I1), T(I2)), {})]


@pytest.mark.parametrize("name,args,kwargs", OUT_CASES, ids=[c[0] for c in OUT_CASES])
def test_out_matches_paddle(name, args, kwargs):
    paddle = paddle_oracle()
    expected = getattr(paddle, name)(*_to(paddle, args), **kwargs).numpy()
    out = padax.zeros(expected.shape, str(expected.dtype))
    alias = out
    r = getattr(padax, name)(*_to(padax, args), **kwargs, out=out)
    assert r is out and alias is out and out.dtype == expected.dtype
    np.testing.assert_allclose(out.numpy(), expected, rtol=2e-6, atol=1e-6)


def test_out_casts_and_keeps_shape():
    out = padax.zeros([3], "float64")
    padax.add(padax.to_tensor([1, 2, 3]), 1, out=out)
    assert out.dtype == np.float64 and out.tolist() == [2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match=r"add\(\.\.\., out=\).*shape \[2\]"):
        padax.add(padax.ones([2]), 1.0, out=padax.zeros([3]))


def test_out_inside_jit():
    def f(a):
        o = a * 0.0
        padax.exp(a, out=o)
        return o
    a = padax.to_tensor(U)
    np.testing.assert_allclose(padax.jit(f)(a).numpy(), np.exp(U), rtol=1e-6)
    o = padax.zeros([3, 4])
    with pytest.raises(ImmutableTensorError, match=r"exp\(\.\.\., out=\).*outside the jitted function"):
        padax.jit(lambda t: padax.exp(t, out=o))(a)


# ---- random fills ---------------------------------------------------------------------------------

FILLS = [("uniform_", (), {"min": -2.0, "max": 3.0}, 0.5, np.sqrt(25 / 12)),
         ("normal_", (), {"mean": 1.0, "std": 2.0}, 1.0, 2.0),
         ("bernoulli_", (0.3,), {}, 0.3, np.sqrt(0.21)),
         ("exponential_", (), {"lam": 2.0}, 0.5, 0.5),
         ("log_normal_", (), {"mean": 0.0, "std": 0.5}, np.exp(0.125), np.sqrt((np.exp(0.25) - 1) * np.exp(0.25))),
         ("geometric_", (0.3,), {}, -1 / np.log(0.7), -1 / np.log(0.7)),
         ("random_", (0, 10), {}, 4.5, np.sqrt(99 / 12))]


@pytest.mark.parametrize("name,args,kwargs,mean,std", FILLS, ids=[f[0] for f in FILLS])
def test_random_fill_statistics_and_seed(name, args, kwargs, mean, std):
    n = 40000
    padax.seed(11)
    x = padax.zeros([n])
    assert getattr(x, name)(*args, **kwargs) is x and x.shape == (n,) and x.dtype == np.float32
    v = x.numpy().astype(np.float64)
    assert abs(v.mean() - mean) < 5 * std / np.sqrt(n), (v.mean(), mean)
    assert abs(v.std() - std) < 0.05 * std, (v.std(), std)
    padax.seed(11)
    y = getattr(padax.zeros([n]), name)(*args, **kwargs)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    z = getattr(padax.zeros([n]), name)(*args, **kwargs)
    assert not np.array_equal(z.numpy(), x.numpy())


def test_random_fill_ranges():
    padax.seed(0)
    c = padax.zeros([20000]).cauchy_(1.0, 2.0).numpy()
    assert abs(np.median(c) - 1.0) < 0.1 and abs(np.percentile(c, 75) - np.percentile(c, 25) - 4.0) < 0.3
    u = padax.zeros([1000]).uniform_(-1, 1).numpy()
    assert u.min() >= -1 and u.max() < 1
    r = padax.zeros([1000], "int32").random_(5).numpy()
    assert r.dtype == np.int32 and set(np.unique(r)) == set(range(5))
    b = padax.zeros([4], "float64").bernoulli_(padax.to_tensor([0.0, 1.0, 0.0, 1.0])).numpy()
    assert b.tolist() == [0.0, 1.0, 0.0, 1.0]
    s1, s2 = padax.zeros([5]).uniform_(seed=3), padax.zeros([5]).uniform_(seed=3)
    np.testing.assert_array_equal(s1.numpy(), s2.numpy())


def test_random_fill_refused_inside_jit():
    with pytest.raises(RuntimeError, match="global key"):
        padax.jit(lambda t: (t * 1).uniform_())(padax.zeros([3]))


# ---- under transformations ------------------------------------------------------------------------

def _local_updates(a):
    t = a * 2.0
    t.add_(1.0)
    t.tanh_()
    t[0] = t[1] * 3.0
    t.scale_(2.0, 0.5)
    u = t.reshape([-1])
    u.unsqueeze_(0)
    z = a * 0.0
    z.copy_(u.reshape(a.shape))
    z.clip_(-1.0, 5.0)
    return z


def test_local_inplace_under_jit_matches_eager():
    a = padax.to_tensor(U)
    np.testing.assert_allclose(padax.jit(_local_updates)(a).numpy(), _local_updates(a).numpy(), rtol=1e-6)
    np.testing.assert_array_equal(a.numpy(), U)  # the argument is untouched
    f = padax.jit.to_static(_local_updates)
    np.testing.assert_allclose(f(a).numpy(), _local_updates(a).numpy(), rtol=1e-6)


def test_local_inplace_under_vmap_and_grad():
    xs = padax.to_tensor(B3)
    np.testing.assert_allclose(padax.vmap(_local_updates)(xs).numpy(),
                               np.stack([_local_updates(padax.to_tensor(b)).numpy() for b in B3]), rtol=1e-6)
    check_grads(lambda a: _local_updates(padax.asarray(a)).sum(), (padax.to_tensor(U.astype(np.float64)),), order=1,
                modes=("fwd", "rev"))


def test_fill_of_a_traced_value_is_lifted():
    def f(a):
        t = a * 1.0
        t.fill_(2.0)  # the new value does not depend on a: a constant of the traced program
        return (t * a).sum()
    np.testing.assert_allclose(padax.grad(f)(padax.to_tensor(U)).numpy(), np.full_like(U, 2.0))
    np.testing.assert_allclose(float(padax.jit(f)(padax.to_tensor(U))), 2 * U.sum(), rtol=1e-6)
    np.testing.assert_allclose(padax.vmap(f)(padax.to_tensor(U)).numpy(), 2 * U.sum(1), rtol=1e-6)


def test_inplace_in_loop_bodies():
    x = padax.to_tensor(U)
    out = padax.lax.fori_loop(0, 3, lambda i, c: c.add_(1.0), x)
    np.testing.assert_allclose(out.numpy(), U + 3)
    np.testing.assert_array_equal(x.numpy(), U)


def test_refused_closed_over_tensor_inside_jit():
    w = padax.to_tensor(U)
    with pytest.raises(ImmutableTensorError, match=r"Tensor\.add_\(\).*f32\[3,4\].*test_inplace\.py.*outside the "
                                                   r"jitted function.*padax\.new_ref"):
        padax.jit(lambda t: w.add_(t))(padax.to_tensor(V))
    with pytest.raises(ImmutableTensorError, match="outside the jitted function"):
        padax.jit(lambda t: w.zero_() * t)(padax.to_tensor(V))
    with pytest.raises(ImmutableTensorError, match="outside the jitted function"):
        padax.jit(lambda t: w.set_value(np.zeros((3, 4), np.float32)) * t)(padax.to_tensor(V))
    np.testing.assert_array_equal(w.numpy(), U)


def test_refused_jit_argument_and_batched_update_of_an_outside_tensor():
    with pytest.raises(ImmutableTensorError, match="argument of the jitted function"):
        padax.jit(lambda t: t.add_(1.0))(padax.to_tensor(U))
    w = padax.to_tensor(U)
    with pytest.raises(ImmutableTensorError, match=r"vmap\(<lambda>\): a Tensor made outside the vmapped function "
                                                   r"was updated in place with a value that differs across"):
        padax.vmap(lambda r: w.add_(r))(padax.to_tensor(V[:, None]))
    np.testing.assert_array_equal(w.numpy(), U)


def test_tensors_updated_in_place_under_eager_grad_and_vmap_vs_jax():
    """A Tensor made from constants inside the function (Paddle's `out = zeros(...); out[i] = ...`) or
    closed over: the transformation reads it as its traced value, and it holds the primal after."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def f(x):
        b = padax.zeros([4])
        b[1] = x.sum()
        b.add_(x)
        b[2:] *= 3.0
        return (b * b).sum()

    def f_jax(x):
        b = jnp.zeros(4).at[1].set(x.sum()) + x
        return (b.at[2:].multiply(3.0) ** 2).sum()

    x = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
    np.testing.assert_allclose(padax.grad(f)(padax.to_tensor(x)).numpy(), np.asarray(jax.grad(f_jax)(x)),
                               rtol=1e-6)
    np.testing.assert_allclose(padax.jacfwd(f)(padax.to_tensor(x)).numpy(), np.asarray(jax.jacfwd(f_jax)(x)),
                               rtol=1e-6)
    xs = np.stack([x, 2 * x])
    np.testing.assert_allclose(padax.vmap(f)(padax.to_tensor(xs)).numpy(), np.asarray(jax.vmap(f_jax)(xs)),
                               rtol=1e-6)
    w = padax.to_tensor(U)
    g = padax.grad(lambda t: w.multiply_(t).sum())(padax.to_tensor(V))
    np.testing.assert_allclose(g.numpy(), U, rtol=1e-6)   # d/dt sum(w * t) = w (as it was)
    np.testing.assert_allclose(w.numpy(), U * V, rtol=1e-6)  # and w holds the primal after
    acc = padax.zeros([3, 4])
    padax.vmap(lambda r: acc.add_(padax.to_tensor(U)) * r)(padax.ones([2]))  # an unbatched update: kept
    np.testing.assert_allclose(acc.numpy(), U, rtol=1e-6)


def test_refused_outer_tracer_updated_with_inner_one():
    def f(a):
        acc = a * 0.0
        padax.vmap(lambda r: acc.add_(r))(padax.to_tensor(np.ones((2, 3, 4), np.float32)) * a)
        return acc
    with pytest.raises(ImmutableTensorError, match="outside the transformation that computed the update"):
        padax.jit(f)(padax.to_tensor(U))


def test_concrete_tensor_updated_eagerly_under_grad():
    counter = padax.to_tensor(0.0)

    def f(t):
        counter.add_(1.0)  # a concrete update with a concrete value: done eagerly, on each call
        return (t * t).sum()
    padax.grad(f)(padax.to_tensor(U))
    padax.grad(f)(padax.to_tensor(U))
    assert float(counter) == 2.0


def test_random_fill_and_setitem_of_local_values_under_vmap_and_grad():
    def f(a):
        noise = a * 1.0
        noise.uniform_(0.0, 0.001)  # an eager draw: a constant of the computation, lifted into the trace
        t = a * 1.0
        t[0] = a[1] * 2.0
        return t + noise
    padax.seed(5)
    out = padax.vmap(f)(padax.to_tensor(U))
    assert out.shape == U.shape
    np.testing.assert_allclose(out.numpy()[:, 0], U[:, 1] * 2, atol=2e-3)
    g = padax.grad(lambda a: f(a).sum())(padax.to_tensor(U[0]))
    np.testing.assert_allclose(g.numpy(), [0.0, 3.0, 1.0, 1.0])


def test_made_from_constants_under_vmap():
    def f(r):
        acc = padax.zeros([4])  # concrete: no input flows into it, until the update
        acc.add_(r)
        acc[0] = acc[0] * 10.0
        return acc
    want = U.copy()
    want[:, 0] *= 10.0
    np.testing.assert_allclose(padax.vmap(f)(padax.to_tensor(U)).numpy(), want, rtol=1e-6)
    assert padax.jit(padax.vmap(lambda r: (r * 0.0).add_(r)))(padax.to_tensor(U)).shape == U.shape
