"""The extended Paddle math API (elementwise extras, products, einsum) vs numpy, eagerly and under jit."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
from tests.conftest import assert_close

RNG = np.random.default_rng(0)
A = RNG.uniform(-3, 3, (3, 4)).astype(np.float32)
B = RNG.uniform(-3, 3, (4, 5)).astype(np.float32)


def _eager_and_jit(fn, *args):
    return [fn(*args), padax.jit(fn)(*args)]


def _check_all(outs, refs, dtypes_=None, **kw):
    for o, r, *d in zip(outs, refs, *([dtypes_] if dtypes_ else [])):
        assert_close(o, r, d[0] if d else None, **kw)


@pytest.mark.parametrize("dt", [np.float32, ml_dtypes.bfloat16])
def test_elementwise_extras(dt):
    x = np.array([-2.5, -1.0, -0.0, 0.0, 0.3, 1.0, 2.7, np.inf, -np.inf, np.nan], dt)
    y = np.array([1.0, -1.0, 2.0, -3.0, 0.5, 0.0, -1.5, 1.0, -1.0, 2.0], dt)
    f32 = x.astype(np.float32)

    def fn(a, b):
        return (padax.frac(a), padax.sgn(a), padax.signbit(a), padax.copysign(a, b), padax.heaviside(a, b),
                padax.nan_to_num(a), padax.nan_to_num(a, 1.0, 2.0, -2.0), padax.rad2deg(a), padax.deg2rad(a),
                padax.isneginf(a), padax.isposinf(a), padax.isreal(a), padax.lerp(a, b, 0.25), padax.exp2(b),
                padax.positive(a), padax.isclose(a, b), padax.sinc(b))

    info = ml_dtypes.finfo(dt)
    with np.errstate(all="ignore"):
        refs = [f32 - np.trunc(f32), np.sign(f32), np.signbit(f32), np.copysign(f32, y.astype(np.float32)),
                np.heaviside(f32, y.astype(np.float32)),
                np.nan_to_num(f32, posinf=float(info.max), neginf=float(info.min)),
                np.nan_to_num(f32, nan=1.0, posinf=2.0, neginf=-2.0), np.rad2deg(f32), np.deg2rad(f32),
                np.isneginf(f32), np.isposinf(f32), np.ones(10, bool), f32 + 0.25 * (y.astype(np.float32) - f32),
                np.exp2(y.astype(np.float32)), f32, np.isclose(f32, y.astype(np.float32)),
                np.sinc(y.astype(np.float32))]
    bools = {2, 9, 10, 11, 15}
    for outs in _eager_and_jit(fn, padax.to_tensor(x), padax.to_tensor(y)):
        for k, (o, r) in enumerate(zip(outs, refs)):
            if k in bools:
                assert_close(o, r, np.bool_)
            else:
                assert_close(o, r.astype(dt) if k != 5 else np.asarray(r, np.float32).astype(dt), dt,
                             rtol=0.02 if dt != np.float32 else 1e-5, atol=1e-6)


def test_integer_math_and_promotion():
    xi = RNG.integers(-60, 60, (24,)).astype(np.int32)
    yi = RNG.integers(-60, 60, (24,)).astype(np.int32)
    xi[:3], yi[:3] = [0, 0, 7], [0, 5, 0]
    x, y = padax.to_tensor(xi), padax.to_tensor(yi)

    def fn(a, b):
        return padax.gcd(a, b), padax.lcm(a, b), padax.frac(a), padax.rad2deg(a), padax.heaviside(a, b), \
            padax.isclose(a, b), padax.nan_to_num(a), padax.diff(a, 2)

    for gcd, lcm, frac, deg, hv, close, n2n, d2 in _eager_and_jit(fn, x, y):
        assert_close(gcd, np.gcd(xi, yi))
        assert_close(lcm, np.lcm(xi, yi))
        assert_close(frac, np.zeros(24, np.int32))
        assert_close(deg, np.rad2deg(xi.astype(np.float32)), np.float32)  # integers compute in float32
        assert_close(hv, np.heaviside(xi, yi).astype(np.int32))
        assert_close(close, xi == yi)
        assert_close(n2n, xi)
        assert_close(d2, np.diff(xi, 2))
    u8 = padax.to_tensor(np.array([12, 18, 0], np.uint8))
    assert_close(padax.gcd(u8, padax.to_tensor(np.array([8, 12, 5], np.uint8))), np.array([4, 6, 5], np.uint8))
    # gcd of the worst case for Euclid (consecutive Fibonacci numbers) within int32
    assert int(padax.gcd(padax.to_tensor(np.int32(1836311903)), padax.to_tensor(np.int32(1134903170)))) == 1
    with pytest.raises(TypeError, match="gcd: expected integer operands, got f32"):
        padax.gcd(padax.ones([2]), padax.ones([2]))


def test_special_functions_and_tests():
    x = padax.to_tensor(np.array([0.2, 0.5, 0.9, 0.0], np.float32))
    with np.errstate(divide="ignore"):
        ref = np.log(np.array([0.2, 0.5, 0.9, 0.0]) / (1 - np.array([0.2, 0.5, 0.9, 0.0])))
    assert_close(padax.logit(x), ref.astype(np.float32), rtol=1e-5)
    assert_close(padax.logit(x, eps=0.1), np.log(np.array([0.2, 0.5, 0.9, 0.1]) / (1 - np.array([0.2, 0.5, 0.9, 0.1])))
                 .astype(np.float32), rtol=1e-5)
    m, e = padax.frexp(padax.to_tensor(np.array([8.0, 0.3, 0.0, -5.0, np.inf, 1e30], np.float32)))
    rm, re = np.frexp(np.array([8.0, 0.3, 0.0, -5.0, np.inf, 1e30], np.float32))
    assert_close(m, rm)
    assert_close(e, re.astype(np.float32))  # Paddle: the exponent has x's dtype
    import scipy.special as sp
    xs = np.array([1.5, 2.0, 3.7], np.float32)
    assert_close(padax.multigammaln(padax.to_tensor(xs), 2), np.array([sp.multigammaln(v, 2) for v in xs], np.float32),
                 rtol=1e-5)
    assert_close(padax.gammaln(padax.to_tensor(xs)), sp.gammaln(xs).astype(np.float32), rtol=1e-5)
    assert_close(padax.polygamma(padax.to_tensor(xs), 1), sp.polygamma(1, xs).astype(np.float32), rtol=1e-4)
    assert_close(padax.stanh(padax.to_tensor(xs)), (1.7159 * np.tanh(0.67 * xs)).astype(np.float32))
    z = padax.complex(padax.to_tensor(A), padax.to_tensor(-A))
    assert z.dtype == np.complex64
    assert_close(padax.angle(z), np.angle(A - 1j * A).astype(np.float32), rtol=1e-5)
    assert_close(padax.real(z), A)
    assert_close(padax.imag(z), -A)
    assert_close(padax.conj(z), A + 1j * A)
    assert_close(padax.angle(padax.to_tensor([-2, 3])), np.array([np.pi, 0], np.float32))
    assert_close(padax.sgn(z), ((A - 1j * A) / np.abs(A - 1j * A)).astype(np.complex64))
    assert_close(padax.isreal(padax.to_tensor(np.array([1 + 0j, 1j], np.complex64))), np.array([True, False]))
    assert bool(padax.is_empty(padax.zeros([2, 0]))) and not bool(padax.is_empty(padax.zeros([1])))
    assert padax.is_complex(z) and padax.is_floating_point(padax.ones([1])) and padax.is_integer(padax.arange(2))
    assert padax.is_tensor(z) and not padax.is_tensor(np.ones(2))
    assert bool(padax.allclose(padax.to_tensor(A), padax.to_tensor(A + 1e-7)))
    assert not bool(padax.allclose(padax.to_tensor([np.nan]), padax.to_tensor([np.nan])))
    assert bool(padax.allclose(padax.to_tensor([np.nan]), padax.to_tensor([np.nan]), equal_nan=True))
    assert_close(padax.isclose(padax.to_tensor([np.inf, np.inf, 1.0]), padax.to_tensor([np.inf, -np.inf, 1.1]),
                               rtol=0.2), np.array([True, False, True]))
    assert_close(padax.ldexp(padax.to_tensor([1.0, 3.0]), padax.to_tensor([2, -1])), np.array([4.0, 1.5], np.float32))
    assert_close(padax.nextafter(padax.to_tensor([1.0]), padax.to_tensor([2.0])),
                 np.nextafter(np.float32(1), np.float32(2)).reshape(1))
    assert_close(padax.increment(padax.to_tensor([1.0, 2.0]), 2.5), np.array([3.5, 4.5], np.float32))
    assert_close(padax.renorm(padax.to_tensor(A), 2, 0, 2.0),
                 A * np.minimum(1, 2.0 / (np.linalg.norm(A, axis=1, keepdims=True) + 1e-7)), rtol=1e-5)
    for bad in ("abc", object()):
        with pytest.raises(TypeError, match=r"frac: x must be a Tensor, a Python number or a numpy array .* got"):
            padax.frac(bad)


def test_diff_add_n_trapezoid():
    x = padax.to_tensor(A)
    for n, axis in ((1, -1), (2, 0), (0, 1)):
        assert_close(padax.diff(x, n, axis), np.diff(A, n, axis))
    assert_close(padax.diff(x, 1, 0, prepend=x[:1], append=padax.to_tensor(A[-1:] + 1)),
                 np.diff(A, 1, 0, prepend=A[:1], append=A[-1:] + 1))
    assert_close(padax.diff(x, 1, 1, prepend=2.0), np.diff(A, 1, 1, prepend=2.0).astype(np.float32))
    assert_close(padax.diff(padax.to_tensor([True, False, False, True])), np.diff([True, False, False, True]))
    assert_close(padax.add_n([x, x, 2 * x]), 4 * A)
    with pytest.raises(TypeError, match="add_n: all inputs must have the same shape and dtype"):
        padax.add_n([x, padax.ones([4])])
    assert_close(padax.trapezoid(x), np.trapezoid(A, axis=-1), rtol=1e-5)
    assert_close(padax.trapezoid(x, dx=0.5, axis=0), np.trapezoid(A, dx=0.5, axis=0), rtol=1e-5)
    xs = np.array([0.0, 1.0, 3.0, 3.5], np.float32)
    assert_close(padax.trapezoid(x, padax.to_tensor(xs)), np.trapezoid(A, xs, axis=-1), rtol=1e-5)
    import scipy.integrate as si
    assert_close(padax.cumulative_trapezoid(x, padax.to_tensor(xs)),
                 si.cumulative_trapezoid(A, xs, axis=-1).astype(np.float32), rtol=1e-5)
    with pytest.raises(ValueError, match=r"diff: axis 2 is out of range for an array of rank 2"):
        padax.diff(x, axis=2)


def test_products():
    x, y = padax.to_tensor(A), padax.to_tensor(B)
    v = np.arange(4, dtype=np.float32)

    def fn(a, b, c):
        return (padax.addmm(padax.ones([3, 5]), a, b, beta=0.5, alpha=2.0), padax.mv(a, c), padax.inner(a, a),
                padax.outer(c, c[:3]), padax.kron(a, b), padax.tensordot(a, b, 1),
                padax.tensordot(a, a, [[0, 1], [0, 1]]), padax.trace(b), padax.trace(b, 2),
                padax.trace(b, -1), padax.cross(b[:3], b[1:4], axis=0), padax.dist(a, 1.0, 3),
                padax.cdist(a, b.T[:2]), padax.pdist(a),
                padax.baddbmm(padax.zeros([2, 3, 5]), padax.stack([a, a]), padax.stack([b, b])))
    refs = [0.5 + 2 * A @ B, A @ v, np.inner(A, A), np.outer(v, v[:3]), np.kron(A, B), np.tensordot(A, B, 1),
            np.tensordot(A, A, [[0, 1], [0, 1]]), np.trace(B), np.trace(B, 2), np.trace(B, -1),
            np.cross(B[:3], B[1:4], axis=0), np.sum(np.abs(A - 1) ** 3) ** (1 / 3),
            np.linalg.norm(A[:, None, :] - B.T[None, :2, :], axis=-1),
            np.array([np.linalg.norm(A[i] - A[j]) for i in range(3) for j in range(i + 1, 3)]),
            np.stack([A @ B, A @ B])]
    for outs in _eager_and_jit(fn, x, y, padax.to_tensor(v)):
        for o, r in zip(outs, refs):
            assert_close(o, np.asarray(r, np.float32), rtol=1e-4, atol=1e-4)
    xi = padax.to_tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert_close(padax.kron(xi, xi), np.kron(np.arange(6).reshape(2, 3), np.arange(6).reshape(2, 3)).astype(np.int32))
    assert padax.inner(padax.to_tensor(2.0), x).shape == (3, 4)
    with pytest.raises(ValueError, match=r"addmm: input f32\[4\] does not broadcast to the product shape \[3, 5\]"):
        padax.addmm(padax.ones([4]), x, y)
    with pytest.raises(ValueError, match=r"tensordot: axis 1 of x f32\[3,4\] and axis 0 of y f32\[3,4\] differ"):
        padax.tensordot(x, x, [[1], [0]])


EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
    ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("i,i->", [(4,), (4,)]), ("i,j->ij", [(3,), (4,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij->...ji", [(2, 3, 4)]), ("iij->j", [(3, 3, 2)]), ("ijj->ij", [(2, 3, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)]), ("i,i,i->i", [(4,), (4,), (4,)]), ("ab,cd->abcd", [(2, 1), (1, 3)]),
    ("i...,i...->...", [(3, 2, 4), (3, 1, 4)]), ("Bi,iJ->BJ", [(2, 3), (3, 2)]), (" ij , jk -> ki ", [(3, 4), (4, 2)]),
]


def test_einsum_matches_numpy():
    ops = [[RNG.uniform(-1, 1, s).astype(np.float32) for s in shapes] for _, shapes in EINSUMS]

    def fn(*flat):
        it = iter(flat)
        return [padax.einsum(eq, *[next(it) for _ in shapes]) for eq, shapes in EINSUMS]

    flat = [padax.to_tensor(o) for group in ops for o in group]
    refs = [np.einsum(eq.replace(" ", ""), *group) for (eq, _), group in zip(EINSUMS, ops)]
    for outs in _eager_and_jit(fn, *flat):
        for (eq, _), o, r in zip(EINSUMS, outs, refs):
            assert o.shape == r.shape, eq
            np.testing.assert_allclose(np.asarray(o), r, rtol=1e-5, atol=1e-5, err_msg=eq)
    # integer operands and promotion
    xi = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert_close(padax.einsum("ij,kj->ik", padax.to_tensor(xi), padax.to_tensor(xi)), xi @ xi.T)
    out = padax.einsum("ij,j->i", padax.to_tensor(xi), padax.to_tensor(np.ones(3, np.float32)))
    assert out.dtype == np.float32
    # a list of operands, as Paddle allows
    assert_close(padax.einsum("i,i->", [padax.ones([3]), padax.ones([3])]), np.float32(3))


def test_einsum_errors():
    x = padax.ones([2, 3])
    with pytest.raises(ValueError, match=r"einsum: subscripts 'ijk' name 3 axes but the operand has rank 2"):
        padax.einsum("ijk->i", x)
    with pytest.raises(ValueError, match="einsum: equation 'ij,jk->ik' names 2 operands but 1 were given"):
        padax.einsum("ij,jk->ik", x)
    with pytest.raises(ValueError, match=r"einsum: label 'j' of 'ij,jk->ik' has sizes 3 and 4"):
        padax.einsum("ij,jk->ik", x, padax.ones([4, 2]))
    with pytest.raises(ValueError, match="einsum: output label 'z' of 'ij->z' appears in no operand"):
        padax.einsum("ij->z", x)
    with pytest.raises(ValueError, match=r"einsum: label 'i' of 'ii->i' has sizes 2 and 3"):
        padax.einsum("ii->i", x)
    with pytest.raises(ValueError, match=r"need a '\.\.\.' too"):
        padax.einsum("...i->i", padax.ones([2, 3, 4]))


def test_grads_and_vmap():
    from padax.test_util import check_grads
    b = B[:, :2]
    check_grads(padax.jit(lambda u, w: padax.einsum("ij,jk->ik", u, w)), (A, b), 1)
    check_grads(padax.jit(lambda u: padax.einsum("ii->i", u[:, :3]) * padax.einsum("ij,ij->i", u, u)), (A,), 1)
    check_grads(padax.jit(lambda u, w: padax.kron(u[:2, :2], w[:2])), (A, b), 1)
    check_grads(padax.jit(lambda u: padax.lerp(u, u * u, 0.3) + padax.logit(padax.sigmoid(u))), (A,), 1)
    out = padax.vmap(lambda u, w: padax.einsum("i,ij->j", u, w), in_axes=(0, None))(padax.to_tensor(A),
                                                                                     padax.to_tensor(B))
    assert_close(out, A @ B, rtol=1e-5)
    out = padax.vmap(padax.trace)(padax.to_tensor(np.stack([B[:, :4], B[:, 1:]])))
    assert_close(out, np.array([np.trace(B[:, :4]), np.trace(B[:, 1:])], np.float32), rtol=1e-5)
