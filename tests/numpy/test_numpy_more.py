"""padax.numpy: creation, data-dependent shapes (eager), linalg/fft extensions, transforms, x64."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.numpy as pnp
from tests.conftest import assert_close


def test_creation():
    assert pnp.asarray([1, 2]).dtype == np.int64 and pnp.asarray([1.0]).dtype == np.float32
    assert pnp.asarray([True]).dtype == np.bool_ and pnp.asarray([1j]).dtype == np.complex64
    assert pnp.asarray(np.arange(3, dtype=np.int16)).dtype == np.int16
    assert pnp.asarray(2.5).shape == () and not pnp.asarray(2.5).weak_type
    x = pnp.asarray([[1, 2], [3, 4]], dtype=pnp.float32)
    assert pnp.asarray(x) is x and pnp.asarray(x, copy=False) is x
    with pytest.raises(ValueError):
        pnp.asarray(x, dtype=pnp.int32, copy=False)
    assert pnp.asarray([x[0], x[1]]).shape == (2, 2)
    assert_close(pnp.arange(5), np.arange(5, dtype=np.int64))
    assert_close(pnp.arange(1.0, 2.0, 0.25), np.arange(1.0, 2.0, 0.25, dtype=np.float32))
    assert_close(pnp.arange(10, 0, -3, dtype=pnp.int8), np.arange(10, 0, -3, dtype=np.int8))
    assert_close(pnp.linspace(0, 1, 5), np.linspace(0, 1, 5, dtype=np.float32))
    assert_close(pnp.linspace(0, 1, 4, endpoint=False), np.linspace(0, 1, 4, endpoint=False, dtype=np.float32))
    assert_close(pnp.linspace(0, 1j, 3), np.linspace(0, 1j, 3).astype(np.complex64))
    assert_close(pnp.eye(3, 4, k=1, dtype=pnp.int32), np.eye(3, 4, k=1, dtype=np.int32))
    assert_close(pnp.full((2, 2), 7), np.full((2, 2), 7, np.int64))
    assert_close(pnp.full((2,), True), np.full((2,), True))
    assert_close(pnp.full((2,), 1.5, dtype=pnp.float16), np.full((2,), 1.5, np.float16))
    assert_close(pnp.zeros(3), np.zeros(3, np.float32))
    assert_close(pnp.ones((2, 1), dtype=pnp.uint8), np.ones((2, 1), np.uint8))
    assert_close(pnp.empty((1, 2)), np.zeros((1, 2), np.float32))
    assert_close(pnp.empty_like(x, dtype=pnp.int8), np.zeros((2, 2), np.int8))
    assert_close(pnp.from_dlpack(np.arange(4.0, dtype=np.float32)), np.arange(4.0, dtype=np.float32))
    assert pnp.from_dlpack(x) is x
    assert_close(pnp.logspace(0, 2, 3), np.logspace(0, 2, 3).astype(np.float32))
    assert_close(pnp.geomspace(1, 1000, 4), np.geomspace(1, 1000, 4).astype(np.float32), rtol=1e-5)
    assert_close(pnp.tri(3, 4, -1), np.tri(3, 4, -1, dtype=np.float32))
    assert_close(pnp.indices((2, 3)), np.indices((2, 3)).astype(np.int64))
    assert_close(pnp.array([1, 2], ndmin=3), np.array([1, 2], ndmin=3).astype(np.int64))
    with pytest.raises(TypeError):
        pnp.asarray("abc")
    with pytest.raises(ValueError):
        pnp.zeros((-1, 2))
    # device= places eager results
    dev = padax.devices()[0]
    assert pnp.zeros(2, device=dev).device == dev


def test_data_dependent_shapes_eager():
    x = np.array([[3, 0, 1], [0, 2, 3]], np.int32)
    for got, want in zip(pnp.nonzero(x), np.nonzero(x)):
        assert_close(got, want.astype(np.int64))
    assert_close(pnp.argwhere(x), np.argwhere(x).astype(np.int64))
    assert_close(pnp.flatnonzero(x), np.flatnonzero(x).astype(np.int64))
    f = np.array([2.0, np.nan, 1.0, 2.0, np.nan, -0.5], np.float32)
    u = pnp.unique_all(f)
    assert_close(u.values, np.array([-0.5, 1.0, 2.0, np.nan, np.nan], np.float32))  # NaNs are distinct
    assert_close(u.indices, np.array([5, 2, 0, 1, 4], np.int64))
    assert_close(u.counts, np.array([1, 1, 2, 1, 1], np.int64))
    assert u.inverse_indices.shape == f.shape
    v = np.asarray(u.values)
    np.testing.assert_array_equal(v[np.asarray(u.inverse_indices)], f)
    iv = pnp.unique_inverse(x)
    assert iv.inverse_indices.shape == x.shape
    np.testing.assert_array_equal(np.asarray(iv.values)[np.asarray(iv.inverse_indices)], x)
    c = pnp.unique_counts(x)
    assert_close(c.values, np.array([0, 1, 2, 3], np.int32))
    assert_close(c.counts, np.array([2, 1, 1, 2], np.int64))
    assert_close(pnp.unique_values(x), np.unique(x))
    vals, idx, inv, cnt = pnp.unique(x, return_index=True, return_inverse=True, return_counts=True)
    wv, wi, winv, wc = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    for g, w, dt in ((vals, wv, np.int32), (idx, wi, np.int64), (inv, winv, np.int64), (cnt, wc, np.int64)):
        assert_close(g, w.astype(dt))
    assert_close(pnp.repeat(np.arange(3.0, dtype=np.float32), np.array([2, 0, 3])),
                 np.repeat(np.arange(3.0, dtype=np.float32), [2, 0, 3]))
    assert_close(pnp.bincount(np.array([0, 1, 1, 4], np.int32)), np.array([1, 2, 0, 0, 1], np.int64))
    assert_close(pnp.bincount(np.array([0, 1, 1], np.int32), np.array([0.5, 1.0, 2.0], np.float32), minlength=4),
                 np.array([0.5, 3.0, 0.0, 0.0], np.float32))
    with pytest.raises(ValueError):
        pnp.nonzero(pnp.asarray(1))


def test_data_dependent_shapes_under_jit():
    x = np.array([[3, 0, 1], [0, 2, 3]], np.int32)
    with pytest.raises(TypeError, match="size="):
        padax.jit(pnp.nonzero)(x)
    with pytest.raises(TypeError):
        padax.jit(pnp.unique_values)(x)

    @padax.jit
    def f(a):
        r, c = pnp.nonzero(a, size=6, fill_value=-1)
        u = pnp.unique_values(a, size=5, fill_value=9)
        b = pnp.bincount(pnp.reshape(a, (-1,)), length=5)
        rep = pnp.repeat(pnp.asarray([1.0, 2.0]), pnp.asarray([1, 2]), total_repeat_length=4)
        return r, c, u, b, rep
    r, c, u, b, rep = f(x)
    assert_close(r, np.array([0, 0, 1, 1, -1, -1], np.int64))
    assert_close(c, np.array([0, 2, 1, 2, -1, -1], np.int64))
    assert_close(u, np.array([0, 1, 2, 3, 9], np.int32))
    assert_close(b, np.array([2, 1, 1, 2, 0], np.int64))
    assert_close(rep, np.array([1.0, 2.0, 2.0, 2.0], np.float32))


def _spd(n, rng):
    a = rng.standard_normal((2, n, n)).astype(np.float32)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype=np.float32)


def test_linalg_extension():
    pytest.importorskip("padax.linalg")
    rng = np.random.default_rng(1)
    a = _spd(3, rng)
    b = rng.standard_normal((2, 3, 2)).astype(np.float32)
    m = rng.standard_normal((4, 3)).astype(np.float32)
    la = pnp.linalg
    tol = dict(rtol=2e-4, atol=2e-4)
    assert_close(la.cholesky(a), np.linalg.cholesky(a), **tol)
    assert_close(la.cholesky(a, upper=True), np.swapaxes(np.linalg.cholesky(a), -1, -2), **tol)
    assert_close(la.det(a), np.linalg.det(a), rtol=1e-4)
    assert_close(la.inv(a), np.linalg.inv(a), **tol)
    assert_close(la.solve(a, b), np.linalg.solve(a, b), **tol)
    assert_close(la.solve(a[0], b[0, :, 0]), np.linalg.solve(a[0], b[0, :, 0]), **tol)
    assert_close(la.solve(a, b[0]), np.linalg.solve(a, b[0]), **tol)  # batch broadcasts
    w, v = la.eigh(a)
    assert_close(w, np.linalg.eigvalsh(a), **tol)
    assert_close(la.eigvalsh(a), np.linalg.eigvalsh(a), **tol)
    assert_close(a @ np.asarray(v), np.asarray(v) * np.asarray(w)[..., None, :], **tol)
    s = la.slogdet(a)
    ws, wl = np.linalg.slogdet(a)
    assert_close(s.sign, ws)
    assert_close(s.logabsdet, wl, rtol=1e-4)
    q, r = la.qr(m)
    assert q.shape == (4, 3) and r.shape == (3, 3)
    assert_close(np.asarray(q) @ np.asarray(r), m, **tol)
    assert la.qr(m, mode="complete").Q.shape == (4, 4)
    u, sv, vh = la.svd(m)
    assert u.shape == (4, 4) and vh.shape == (3, 3)
    assert_close(sv, np.linalg.svd(m, compute_uv=False), **tol)
    assert_close(la.svdvals(m), np.linalg.svd(m, compute_uv=False), **tol)
    assert la.svd(m, full_matrices=False).U.shape == (4, 3)
    assert_close(la.pinv(m), np.linalg.pinv(m), **tol)
    assert_close(la.matrix_rank(m), np.int64(3))
    assert la.matrix_rank(m).dtype == np.int64
    assert_close(la.matrix_power(a[0], 3), np.linalg.matrix_power(a[0], 3), rtol=1e-4)
    assert_close(la.matrix_norm(m), np.linalg.norm(m), **tol)
    assert_close(la.matrix_norm(m, ord="nuc", keepdims=True), np.linalg.norm(m, "nuc", keepdims=True), **tol)
    assert_close(la.matrix_norm(m, ord=np.inf), np.linalg.norm(m, np.inf), **tol)
    assert_close(la.vector_norm(m), np.linalg.norm(m.ravel()), **tol)
    assert_close(la.vector_norm(m, axis=0, ord=1), np.linalg.norm(m, 1, axis=0), **tol)
    assert_close(la.vector_norm(m, axis=(0, 1), ord=np.inf, keepdims=True),
                 np.max(np.abs(m), keepdims=True), **tol)
    assert_close(la.trace(a, offset=1), np.trace(a, 1, -2, -1), **tol)
    assert_close(la.diagonal(a, offset=-1), np.diagonal(a, -1, -2, -1))
    assert_close(la.outer(m[0], m[1]), np.outer(m[0], m[1]))
    assert_close(la.cross(m[:, :3], m[0, :3]), np.cross(m[:, :3], m[0, :3]), **tol)
    assert_close(la.tensordot(m, m, axes=2), np.tensordot(m, m, 2), **tol)
    assert_close(la.vecdot(m, m), np.sum(m * m, -1), **tol)
    assert_close(la.matmul(m, m.T), m @ m.T, **tol)
    assert_close(la.matrix_transpose(m), m.T)
    assert la.det(np.eye(2, dtype=np.int32)).dtype == np.float32  # integers compute in the default float
    # NumPy's extras
    assert_close(la.norm(m, "nuc"), np.linalg.norm(m, "nuc"), **tol)
    assert_close(la.norm(m, axis=1), np.linalg.norm(m, axis=1), **tol)
    assert_close(la.cond(a[0]), np.linalg.cond(a[0]), rtol=1e-3)
    assert_close(la.lstsq(m, m[:, :1] * 2)[0], np.linalg.lstsq(m, m[:, :1] * 2)[0], **tol)
    assert_close(la.multi_dot([m, m.T, m]), np.linalg.multi_dot([m, m.T, m]), **tol)
    assert_close(la.tensorsolve(a[0], m[:3, 0]), np.linalg.tensorsolve(a[0], m[:3, 0]), **tol)
    assert_close(pnp.sort(pnp.real(la.eigvals(a[0]))), np.sort(np.linalg.eigvals(a[0]).real), **tol)


def test_fft_extension():
    pytest.importorskip("padax.fft")
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 6)).astype(np.float32)
    z = (x + 1j * x[::-1]).astype(np.complex64)
    fft = pnp.fft
    tol = dict(rtol=1e-4, atol=1e-4)
    assert_close(fft.fft(z), np.fft.fft(z), **tol)
    assert_close(fft.ifft(z, n=8, axis=0, norm="ortho"), np.fft.ifft(z, n=8, axis=0, norm="ortho"), **tol)
    assert_close(fft.fftn(z), np.fft.fftn(z), **tol)
    assert_close(fft.ifftn(z, axes=(0,)), np.fft.ifftn(z, axes=(0,)), **tol)
    assert_close(fft.rfft(x), np.fft.rfft(x).astype(np.complex64), **tol)
    assert_close(fft.irfft(z, n=10), np.fft.irfft(z, n=10).astype(np.float32), **tol)
    assert_close(fft.rfftn(x, norm="forward"), np.fft.rfftn(x, norm="forward").astype(np.complex64), **tol)
    assert_close(fft.irfftn(z, s=(4, 6), axes=(0, 1)),
                 np.fft.irfftn(z, s=(4, 6), axes=(0, 1)).astype(np.float32), **tol)
    assert_close(fft.hfft(z), np.fft.hfft(z).astype(np.float32), **tol)
    assert_close(fft.ihfft(x), np.fft.ihfft(x).astype(np.complex64), **tol)
    assert_close(fft.fft(np.arange(4)), np.fft.fft(np.arange(4)).astype(np.complex64), **tol)
    assert_close(fft.fftfreq(5, d=0.5), np.fft.fftfreq(5, 0.5).astype(np.float32))
    assert_close(fft.rfftfreq(6), np.fft.rfftfreq(6).astype(np.float32))
    assert_close(fft.fftshift(x), np.fft.fftshift(x))
    assert_close(fft.ifftshift(x, axes=1), np.fft.ifftshift(x, axes=1))


def test_transforms_through_padax_numpy():
    x = pnp.asarray([0.5, -1.0, 2.0])

    def loss(v):
        return pnp.sum(pnp.where(v > 0, pnp.exp(v), pnp.square(v))) + pnp.linalg.vector_norm(v) \
            + pnp.mean(pnp.sort(v) * pnp.arange(3.0))
    g = padax.grad(loss)(x)
    xv = np.asarray(x, np.float64)
    eps = 1e-3
    num = [(loss(pnp.asarray(xv + eps * e, dtype=pnp.float32)) - loss(pnp.asarray(xv - eps * e, dtype=pnp.float32)))
           .item() / (2 * eps) for e in np.eye(3)]
    assert_close(g, np.asarray(num, np.float32), rtol=2e-2, atol=2e-2)
    m = pnp.reshape(pnp.arange(12.0), (4, 3))
    out = padax.vmap(lambda r: pnp.take(r, pnp.asarray([2, 0])) * pnp.cumulative_sum(r)[-1])(m)
    want = np.arange(12.0).reshape(4, 3)[:, [2, 0]] * np.arange(12.0).reshape(4, 3).sum(1, keepdims=True)
    assert_close(out, want.astype(np.float32))
    gs = padax.grad(lambda a: pnp.einsum("ij,ij->", a, a))(m)
    assert_close(gs, 2 * np.arange(12.0, dtype=np.float32).reshape(4, 3))


def test_grads_and_vmap():
    from padax.test_util import check_grads
    rng = np.random.default_rng(3)
    x = pnp.asarray(rng.uniform(0.5, 2, (3, 4)), dtype=pnp.float32)
    for f in (lambda a: pnp.std(a, axis=1, correction=1), lambda a: pnp.quantile(a, 0.3, axis=1),
              lambda a: pnp.take_along_axis(a, pnp.argsort(a, axis=1), axis=1),
              lambda a: pnp.roll(a, 2, axis=1) * a, lambda a: pnp.hypot(a, a[::-1]),
              lambda a: pnp.linalg.solve(a @ pnp.matrix_transpose(a) + pnp.eye(3), a)):
        check_grads(padax.jit(f), (x,), order=1, modes=("rev",), atol=5e-2, rtol=5e-2)
    xs = rng.uniform(0.5, 2, (5, 3, 4)).astype(np.float32)
    fs = [lambda a: pnp.searchsorted(pnp.sort(pnp.reshape(a, (-1,))), a),
          lambda a: pnp.unique_values(pnp.round(a), size=4),
          lambda a: pnp.nonzero(a > 1.0, size=6)[1],
          lambda a: pnp.roll(a, pnp.astype(pnp.argmax(a[0, :]), pnp.int32), axis=1),
          lambda a: pnp.quantile(a, pnp.asarray([0.2, 0.7]), axis=1)]
    for f in fs:
        got = padax.jit(padax.vmap(f))(xs)
        one = padax.jit(f)
        assert_close(got, np.stack([np.asarray(one(a)) for a in xs]))


def test_x64_defaults():
    # padax's (Paddle's) defaults: int64 for integers, float32 for Python floats, numpy data keeps its dtype
    assert pnp.asarray([1.0]).dtype == np.float32 and pnp.asarray([1]).dtype == np.int64
    assert pnp.asarray(np.ones(2)).dtype == np.float64 and pnp.asarray([1.0], dtype=float).dtype == np.float32
    assert pnp.zeros(2).dtype == np.float32 and pnp.arange(3).dtype == np.int64
    assert pnp.sum(pnp.asarray([1, 2], dtype=pnp.int8)).dtype == np.int64
    assert pnp.sum(pnp.asarray([1, 2], dtype=pnp.uint8)).dtype == np.uint64
    assert pnp.add(pnp.asarray([1], dtype=pnp.int64), pnp.asarray([1], dtype=pnp.uint64)).dtype == np.float64
    assert pnp.argmax(pnp.asarray([1.0, 3.0])).dtype == np.int64
    assert_close(pnp.linspace(0, 1, 7), np.linspace(0, 1, 7).astype(np.float32))
    assert_close(pnp.linspace(0, 1, 7, dtype=pnp.float64), np.linspace(0, 1, 7))
    assert pnp.fft.fftfreq(4).dtype == np.float32
    with padax.enable_x64(False):  # JAX's 32-bit-only mode
        assert pnp.sum(pnp.asarray([1, 2], dtype=pnp.int8)).dtype == np.int32
        assert pnp.asarray(np.ones(2)).dtype == np.float32 and pnp.arange(3).dtype == np.int32


def test_errors():
    x = pnp.asarray([[1.0, 2.0]])
    with pytest.raises(ValueError, match="squeeze"):
        pnp.squeeze(x, axis=1)
    with pytest.raises(ValueError):
        pnp.reshape(x, (3, -1))
    with pytest.raises(ValueError):
        pnp.broadcast_to(x, (3, 3))
    with pytest.raises(ValueError):
        pnp.cumulative_sum(x)  # 2-D needs axis
    with pytest.raises(TypeError):
        pnp.less(pnp.asarray([1j]), pnp.asarray([2j]))
    with pytest.raises(TypeError):
        pnp.bitwise_and(x, x)
    with pytest.raises(ValueError):
        pnp.max(pnp.zeros((0, 2)), axis=0)
    with pytest.raises(ValueError):
        pnp.vecdot(pnp.ones((2, 3)), pnp.ones((2, 4)))
