"""Every control-flow construct traces the user's functions once, as jax does, so a Python
side effect in a body (a print, a counter, appending to a list) happens once per call.

The one exception is jax's too: a weakly typed init (a Python scalar) whose body output has
another dtype (a Python `0` accumulating floats) is promoted and the body traced again.
Counts are checked eagerly, under jit/grad/vmap, and for the Paddle-named static.nn forms.
"""
import numpy as np
import pytest

import padax
import padax.lax as lax
import padax.static.nn as snn

F32 = np.float32


class Counter:
    """Wraps a function and counts how often Python runs it (i.e. how often it is traced)."""

    def __init__(self, fn):
        self.fn, self.n = fn, 0

    def __call__(self, *args):
        self.n += 1
        return self.fn(*args)


def _xs():
    return np.arange(1.0, 4.0, dtype=F32)


def test_cond_and_switch_trace_each_branch_once():
    t, f = Counter(lambda a: a * 2.0), Counter(lambda a: a - 1.0)
    out = lax.cond(np.bool_(True), t, f, _xs())
    np.testing.assert_allclose(np.asarray(out), _xs() * 2)
    assert (t.n, f.n) == (1, 1)
    bs = [Counter(lambda a, k=k: a + k) for k in range(3)]
    out = lax.switch(np.int32(2), bs, _xs())
    np.testing.assert_allclose(np.asarray(out), _xs() + 2)
    assert [b.n for b in bs] == [1, 1, 1]


@pytest.mark.parametrize("init", [0.0, np.zeros(3, F32)], ids=["weak_python_float", "array"])
def test_fori_loop_static_bounds_traces_once(init):
    body = Counter(lambda i, x: x + 1.0)
    out = lax.fori_loop(0, 5, body, init)
    np.testing.assert_allclose(np.asarray(out), np.asarray(init) + 5)
    assert body.n == 1


def test_fori_loop_traced_bounds_and_while_loop_trace_once():
    body = Counter(lambda i, x: x * 2.0)
    out = padax.jit(lambda n: lax.fori_loop(0, n, body, np.float32(1.0)))(np.int32(4))
    assert float(out) == 16.0 and body.n == 1
    cond, step = Counter(lambda x: x < 5), Counter(lambda x: x + 1)
    out = lax.while_loop(cond, step, 0)            # weak Python int carry, int body: no promotion
    assert int(out) == 5 and (cond.n, step.n) == (1, 1)


@pytest.mark.parametrize("init", [0.0, np.float32(0)], ids=["weak_python_float", "strong"])
def test_scan_and_map_trace_once(init):
    body = Counter(lambda c, x: (c + x, c * x))
    carry, ys = lax.scan(body, init, _xs())
    assert float(carry) == 6.0 and np.asarray(carry).dtype == F32
    np.testing.assert_allclose(np.asarray(ys), [0.0, 2.0, 9.0])
    assert body.n == 1
    f = Counter(lambda x: x * x)
    np.testing.assert_allclose(np.asarray(lax.map(f, _xs())), _xs() ** 2)
    assert f.n == 1


def test_static_nn_forms_trace_once():
    cond, body = Counter(lambda i, s: i < 4), Counter(lambda i, s: (i + 1, s + 2.0))
    i, s = snn.while_loop(cond, body, [np.int64(0), np.float32(0)])
    assert (int(i), float(s)) == (4, 8.0) and (cond.n, body.n) == (1, 1)
    t, f = Counter(lambda: np.float32(1)), Counter(lambda: np.float32(2))
    assert float(snn.cond(np.bool_(False), t, f)) == 2.0 and (t.n, f.n) == (1, 1)
    bs = [Counter(lambda k=k: np.float32(k)) for k in range(3)]
    assert float(snn.switch_case(np.int64(1), bs)) == 1.0
    assert all(b.n == 1 for b in bs)
    assert float(snn.switch_case(np.int64(7), [lambda: np.float32(0), lambda: np.float32(5)])) == 5.0


@pytest.mark.parametrize("transform", ["jit", "grad", "vmap", "hessian"])
def test_bodies_trace_once_under_transforms(transform):
    body = Counter(lambda c, x: (c * x, c + x))
    branch = Counter(lambda a: a * 3.0)

    def f(x):
        c, _ = lax.scan(body, x[0], x)
        return lax.cond(c > 0, branch, lambda a: a, c)
    fn = {"jit": padax.jit, "grad": padax.grad, "vmap": padax.vmap, "hessian": padax.hessian}[transform](f)
    x = np.ones((2, 3), F32) if transform == "vmap" else _xs()
    fn(x)
    assert (body.n, branch.n) == (1, 1)


def test_weak_init_promoted_to_the_body_dtype_traces_twice_as_in_jax():
    jax = pytest.importorskip("jax")
    mine = Counter(lambda c, x: (c + x, c))
    carry, ys = lax.scan(mine, 0, _xs())         # Python int accumulating float32
    theirs = Counter(lambda c, x: (c + x, c))
    jcarry, jys = jax.lax.scan(theirs, 0, jax.numpy.asarray(_xs()))
    assert mine.n == theirs.n == 2
    assert np.asarray(carry).dtype == np.asarray(jcarry).dtype == F32
    np.testing.assert_allclose(np.asarray(ys), np.asarray(jys))


@pytest.mark.parametrize("make_body,words", [
    (lambda: (lambda c, x: (c.astype("float64"), c)), ["scan", "carry", "f32[]", "f64[]"]),
    (lambda: (lambda c, x: (padax.numpy.stack([c, c]), c)), ["scan", "carry", "f32[]", "f32[2]"]),
])
def test_carry_type_change_is_a_clear_error_after_one_trace(make_body, words):
    body = Counter(make_body())
    with pytest.raises(TypeError) as e:
        lax.scan(body, np.float32(0), _xs())
    for w in words:
        assert w in str(e.value), (w, str(e.value))
    assert body.n == 1
