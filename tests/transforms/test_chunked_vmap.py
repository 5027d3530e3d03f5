"""vmap(..., chunk_size=N) equals plain vmap; vmap of jacrev/jacfwd/hessian is one batched
program (no per-example unrolling); chunked Jacobians."""
import numpy as np
import pytest

import padax
from padax import lax

_RNG = np.random.default_rng(0)
_W = _RNG.standard_normal((3, 4))


def _f(a, b):
    return lax.sin(a @ b)


@pytest.mark.parametrize("chunk", [1, 3, 4, 10, 25])
def test_chunked_vmap_equals_vmap(chunk):
    x = _RNG.standard_normal((10, 3)).astype(np.float32)
    want = padax.vmap(_f, in_axes=(0, None))(x, _W)
    np.testing.assert_allclose(np.asarray(padax.vmap(_f, in_axes=(0, None), chunk_size=chunk)(x, _W)),
                               np.asarray(want), rtol=1e-6)
    got = padax.vmap(_f, in_axes=(1, None), out_axes=1, chunk_size=chunk)(x.T, _W)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want).T, rtol=1e-6)


def test_chunked_vmap_pytrees_unbatched_outputs_jit_and_grad():
    x = _RNG.standard_normal((7, 3)).astype(np.float32)
    g = lambda a, k: {"y": lax.sin(a) * k, "k": k}  # noqa: E731
    got = padax.jit(padax.vmap(g, in_axes=(0, None), out_axes={"y": 0, "k": None}, chunk_size=3))(x, np.float32(2))
    want = padax.vmap(g, in_axes=(0, None), out_axes={"y": 0, "k": None})(x, np.float32(2))
    np.testing.assert_allclose(np.asarray(got["y"]), np.asarray(want["y"]), rtol=1e-6)
    assert float(got["k"]) == 2.0
    loss = lambda w, c: padax.vmap(lambda r: _f(r, w).sum(), chunk_size=c)(x).sum()  # noqa: E731
    np.testing.assert_allclose(np.asarray(padax.grad(loss)(_W.astype(np.float32), 3)),
                               np.asarray(padax.grad(loss)(_W.astype(np.float32), None)), rtol=1e-5)
    jaxpr = str(padax.make_jaxpr(padax.vmap(lambda r: _f(r, _W), chunk_size=3))(x))
    assert "scan" in jaxpr and "length=2" in jaxpr


def test_chunked_vmap_errors():
    x = np.ones((4, 3), np.float32)
    with pytest.raises(ValueError, match="chunk_size must be a positive int"):
        padax.vmap(lax.sin, chunk_size=0)(x)
    with pytest.raises(ValueError, match="cannot be combined with axis_name"):
        padax.vmap(lax.sin, axis_name="i", chunk_size=2)(x)
    with pytest.raises(ValueError, match="inconsistent sizes"):
        padax.vmap(lambda a, b: a + b, chunk_size=2)(x, np.ones((5, 3), np.float32))


def _scalar(x):
    return (lax.tanh(x @ _W) ** 2).sum()


@pytest.mark.parametrize("transform", ["jacrev", "jacfwd", "hessian"])
def test_vmap_of_jacobians_is_one_program(transform):
    t = getattr(padax, transform)
    fn = t(_scalar) if transform == "hessian" else t(lambda x: lax.tanh(x @ _W))
    xs = _RNG.standard_normal((5, 3))
    with padax.enable_x64(True):
        batched = padax.vmap(fn)(xs)
        for i in range(5):
            np.testing.assert_allclose(np.asarray(batched[i]), np.asarray(fn(xs[i])), rtol=1e-10)
        small = len(padax.make_jaxpr(padax.vmap(fn))(xs[:2]).eqns)
        large = len(padax.make_jaxpr(padax.vmap(fn))(np.repeat(xs, 20, 0)).eqns)
        assert small == large  # the program does not grow with the batch: no Python loop over examples
        chunked = t(_scalar, chunk_size=2) if transform == "hessian" else t(lambda x: lax.tanh(x @ _W), chunk_size=2)
        np.testing.assert_allclose(np.asarray(padax.vmap(chunked)(xs)), np.asarray(batched), rtol=1e-10)
