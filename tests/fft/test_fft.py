"""padax.fft and the fft primitive: values vs numpy/scipy (eager and jit, 32 and 64 bit),
derivatives (numerical checks, and jax as an oracle for the real-complex transforms),
vmap, dtype promotion and error messages."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.fft

import padax
from padax.functional.lax.fft import fft as lax_fft
from padax.test_util import check_grads

P = padax.fft
N = np.fft

# (padax function, numpy/scipy oracle, input kind 'r'/'c', input shape, kwargs)
CASES = [
    ("fft", N.fft, "c", (4, 6), {}),
    ("fft", N.fft, "c", (4, 6), dict(n=8, axis=0, norm="ortho")),
    ("fft", N.fft, "r", (4, 6), dict(n=3, axis=1, norm="forward")),
    ("ifft", N.ifft, "c", (4, 6), dict(n=7, norm="backward")),
    ("ifft", N.ifft, "c", (4, 6), dict(axis=0, norm="ortho")),
    ("rfft", N.rfft, "r", (4, 6), {}),
    ("rfft", N.rfft, "r", (4, 6), dict(n=7, axis=0, norm="forward")),
    ("irfft", N.irfft, "c", (4, 5), {}),
    ("irfft", N.irfft, "c", (4, 5), dict(n=7, axis=0, norm="ortho")),
    ("hfft", N.hfft, "c", (4, 5), dict(n=6, norm="forward")),
    ("ihfft", N.ihfft, "r", (5, 4), dict(n=5, axis=0, norm="ortho")),
    ("fft2", N.fft2, "c", (3, 4, 5), dict(s=(3, 8), axes=(0, 2))),
    ("ifft2", N.ifft2, "c", (3, 4, 5), dict(norm="forward")),
    ("rfft2", N.rfft2, "r", (3, 4, 5), dict(axes=(1, 0), norm="ortho")),
    ("irfft2", N.irfft2, "c", (3, 4, 5), dict(s=(5, 6))),
    ("hfft2", scipy.fft.hfft2, "c", (3, 4, 5), dict(norm="ortho")),
    ("ihfft2", scipy.fft.ihfft2, "r", (3, 4, 5), dict(s=(2, 5))),
    ("fftn", N.fftn, "c", (3, 4, 5), {}),
    ("fftn", N.fftn, "c", (3, 4, 5), dict(s=(2, 7), norm="ortho")),
    ("ifftn", N.ifftn, "c", (3, 4, 5), dict(axes=(0, 2), norm="forward")),
    ("rfftn", N.rfftn, "r", (3, 4, 5), {}),
    ("rfftn", N.rfftn, "r", (3, 4, 5), dict(s=(3, 4, 9), axes=(2, 0, 1), norm="forward")),
    ("irfftn", N.irfftn, "c", (3, 4, 5), {}),
    ("irfftn", N.irfftn, "c", (3, 4, 5), dict(s=(4, 3, 7), norm="ortho")),
    ("hfftn", scipy.fft.hfftn, "c", (3, 4, 5), dict(s=(4, 7), axes=(0, 2))),
    ("ihfftn", scipy.fft.ihfftn, "r", (3, 4, 5), dict(norm="forward")),
    # more than three axes: several XLA Fft ops
    ("fftn", N.fftn, "c", (2, 3, 2, 4), dict(norm="ortho")),
    ("rfftn", N.rfftn, "r", (2, 3, 2, 4), {}),
    ("irfftn", N.irfftn, "c", (2, 3, 2, 4), dict(s=(2, 3, 2, 5))),
]


def _input(kind, shape, bits, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if kind == "c":
        x = x + 1j * rng.standard_normal(shape)
        return x.astype(np.complex64 if bits == 32 else np.complex128)
    return x.astype(np.float32 if bits == 32 else np.float64)


def _expected_dtype(oracle_out, bits):
    if np.iscomplexobj(oracle_out):
        return np.dtype(np.complex64 if bits == 32 else np.complex128)
    return np.dtype(np.float32 if bits == 32 else np.float64)


def _assert_fft_close(actual, expected, bits):
    a = np.asarray(actual)
    assert a.dtype == _expected_dtype(expected, bits), (a.dtype, bits)
    assert a.shape == expected.shape, (a.shape, expected.shape)
    tol = 2e-5 if bits == 32 else 1e-12
    scale = max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(a, expected, rtol=tol, atol=tol * scale)


def _run_case(name, oracle, kind, shape, kwargs, bits):
    x = _input(kind, shape, bits)
    ref_kwargs = dict(kwargs)
    if "s" in kwargs and "axes" not in kwargs:  # Paddle's default: the last len(s) axes
        ref_kwargs["axes"] = tuple(range(-len(kwargs["s"]), 0))
    expected = oracle(x.astype(np.complex128 if kind == "c" else np.float64), **ref_kwargs)
    fn = getattr(P, name)
    _assert_fft_close(fn(x, **kwargs), expected, bits)
    _assert_fft_close(padax.jit(lambda a: fn(a, **kwargs))(x), expected, bits)


@pytest.mark.parametrize("name,oracle,kind,shape,kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_values_32(name, oracle, kind, shape, kwargs):
    _run_case(name, oracle, kind, shape, kwargs, 32)


@pytest.mark.parametrize("name,oracle,kind,shape,kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_values_64(x64, name, oracle, kind, shape, kwargs):
    _run_case(name, oracle, kind, shape, kwargs, 64)


def test_round_trips():
    x = _input("r", (6, 5), 32)
    c = _input("c", (6, 5), 32)
    for norm in ("backward", "ortho", "forward"):
        np.testing.assert_allclose(P.ifft(P.fft(c, norm=norm), norm=norm), c, atol=1e-5)
        np.testing.assert_allclose(P.irfft(P.rfft(x, norm=norm), n=5, norm=norm), x, atol=1e-5)
        np.testing.assert_allclose(P.irfftn(P.rfftn(x, norm=norm), s=x.shape, norm=norm), x, atol=1e-5)
        np.testing.assert_allclose(P.hfft(P.ihfft(x, norm=norm), n=5, norm=norm), x, atol=1e-5)


def test_freqs_and_shifts():
    for n, d in ((7, 0.5), (8, 1.0), (1, 2.0)):
        np.testing.assert_allclose(P.fftfreq(n, d), N.fftfreq(n, d).astype(np.float32), rtol=1e-6)
        np.testing.assert_allclose(P.rfftfreq(n, d), N.rfftfreq(n, d).astype(np.float32), rtol=1e-6)
    assert P.fftfreq(4).dtype == np.float32 and P.rfftfreq(4, dtype="float16").dtype == np.float16
    x = _input("r", (4, 5, 3), 32)
    for axes in (None, 1, (0, 2), [-1]):
        np.testing.assert_array_equal(P.fftshift(x, axes), N.fftshift(x, axes))
        np.testing.assert_array_equal(P.ifftshift(x, axes=axes), N.ifftshift(x, axes=axes))
    jitted = padax.jit(lambda a: P.ifftshift(P.fftshift(a, axes=(0, 1)), axes=(0, 1)))
    np.testing.assert_array_equal(jitted(x), x)


def test_freqs_x64(x64):
    assert P.fftfreq(5).dtype == np.float32  # Paddle's default float dtype
    f = P.fftfreq(5, 0.1, dtype="float64")
    assert f.dtype == np.float64
    np.testing.assert_allclose(f, N.fftfreq(5, 0.1), rtol=1e-15)


def test_dtype_promotion():
    ints = np.arange(6, dtype=np.int32)
    y = P.fft(ints)
    assert y.dtype == np.complex64
    np.testing.assert_allclose(y, N.fft(ints), rtol=1e-5, atol=1e-5)
    assert P.rfft(ints).dtype == np.complex64
    assert P.fft(np.ones(4, np.float16)).dtype == np.complex64
    assert P.irfft(np.ones(4, np.float32)).dtype == np.float32  # real half spectra are accepted
    assert P.fftn(np.ones((2, 2), np.bool_)).dtype == np.complex64


def test_dtype_x64(x64):
    assert P.fft(np.ones(4, np.float64)).dtype == np.complex128
    assert P.rfft(np.ones(4, np.float64)).dtype == np.complex128
    assert P.irfft(np.ones(4, np.complex128)).dtype == np.float64
    assert P.fft(np.ones(4, np.float32)).dtype == np.complex64
    assert P.rfft(np.ones(4, np.int64)).dtype == np.complex64


# ---- derivatives ---------------------------------------------------------------------------
# check_grads runs in real coordinates: a complex input is passed as its real and imaginary
# parts, a complex output is returned as its real and imaginary parts.

def _re(y):
    return padax.lax.real(y) if np.dtype(y.dtype).kind == "c" else y


def _real_io(fn, kind):
    def out(y):
        if np.dtype(y.dtype).kind == "c":
            return padax.lax.real(y), padax.lax.imag(y)
        return y
    if kind == "c":
        return lambda xr, xi: out(fn(padax.lax.complex(xr, xi)))
    return lambda x: out(fn(x))


def _loss(fn, kind):
    """A non-quadratic real loss of the transform (so second derivatives are not constant)."""
    w = None

    def loss(y):
        nonlocal w
        if w is None:
            w = np.linspace(0.5, 1.5, int(np.prod(y.shape))).reshape(y.shape)
        return padax.sum(padax.abs(y) ** 2 * w) + padax.sum(padax.sin(_re(y)))
    if kind == "c":
        return lambda xr, xi: loss(fn(padax.lax.complex(xr, xi)))
    return lambda x: loss(fn(x))


GRAD_CASES = [
    ("fft", "c", (3, 5), dict(n=6, norm="ortho")),
    ("ifft", "c", (3, 5), dict(axis=0)),
    ("rfft", "r", (3, 5), dict(n=6)),
    ("rfft", "r", (3, 7), dict(norm="forward")),
    ("irfft", "c", (3, 4), dict(n=7)),
    ("irfft", "c", (3, 4), dict(norm="ortho")),
    ("fft2", "c", (2, 3, 4), dict(axes=(0, 2))),
    ("rfftn", "r", (3, 4), dict(axes=(1, 0), s=(4, 5))),
    ("irfftn", "c", (3, 4), dict(s=(3, 6))),
    ("hfft", "c", (3, 4), dict(n=5)),
    ("ihfft", "r", (3, 5), {}),
]


@pytest.mark.parametrize("name,kind,shape,kwargs", GRAD_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(GRAD_CASES)])
def test_grads(x64, name, kind, shape, kwargs):
    rng = np.random.default_rng(3)
    args = (rng.standard_normal(shape),) if kind == "r" else (rng.standard_normal(shape),
                                                              rng.standard_normal(shape))
    fn = lambda a: getattr(P, name)(a, **kwargs)  # noqa: E731
    check_grads(_real_io(fn, kind), args, order=1, modes=("fwd", "rev"))
    check_grads(_loss(fn, kind), args, order=2, modes=("fwd", "rev"))


def test_grads_float32():
    x = np.random.default_rng(0).standard_normal((2, 6)).astype(np.float32)
    check_grads(_loss(lambda a: P.rfft(a, norm="ortho"), "r"), (x,), order=1)


def test_vjp_matches_jax(x64):
    """The transposes of RFFT/IRFFT (Hermitian halving) and FFT agree with jax's conventions,
    complex inputs included."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    rng = np.random.default_rng(5)
    with jax.enable_x64(True):
        cases = [
            (lambda f, a: f.rfft(a, n=6), "r", (3, 5)),
            (lambda f, a: f.rfft(a, n=7, norm="ortho"), "r", (3, 7)),
            (lambda f, a: f.rfftn(a, axes=(0, 1)), "r", (4, 6)),
            (lambda f, a: f.irfft(a, n=8), "c", (3, 5)),
            (lambda f, a: f.irfft(a, n=7, norm="forward"), "c", (3, 4)),
            (lambda f, a: f.irfftn(a, s=(3, 6), axes=(0, 1)), "c", (3, 4)),
            (lambda f, a: f.fft(a, axis=0), "c", (3, 4)),
        ]
        for make, kind, shape in cases:
            x = rng.standard_normal(shape)
            if kind == "c":
                x = x + 1j * rng.standard_normal(shape)
            w = rng.standard_normal(np.shape(make(np.fft, x)))

            def loss(f, lib, a, make=make, w=w):
                y = make(f, a)
                return lib.sum(lib.abs(y) ** 2 * w) + lib.sum(lib.cos(lib.real(y) if lib is jnp else _re(y)))

            expected = np.asarray(jax.grad(lambda a: loss(jnp.fft, jnp, a))(jnp.asarray(x)))
            if kind == "r":
                got = padax.grad(lambda a: loss(P, padax, a))(x)
            else:
                _, f_vjp = padax.vjp(lambda a: loss(P, padax, a), x)
                got = f_vjp(np.float64(1.0))[0]
            np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-10, atol=1e-10)


def test_grad_under_jit(x64):
    """d/dx sum|rfft(pad(x))|^2 written out by hand: 2 Re(F^T y) restricted to x's points."""
    x = np.random.default_rng(1).standard_normal((3, 8))
    g = padax.jit(padax.grad(lambda a: padax.sum(padax.abs(P.rfft(a, n=10)) ** 2)))(x)
    y = N.rfft(x, n=10)
    expected = 2 * np.real(N.fft(np.conj(np.pad(y, ((0, 0), (0, 10 - y.shape[-1]))))))[:, :8]
    np.testing.assert_allclose(g, expected, rtol=1e-10, atol=1e-10)


# ---- vmap --------------------------------------------------------------------------------------

def test_vmap_matches_loop():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 4, 6)).astype(np.float32)
    c = (x + 1j * rng.standard_normal(x.shape)).astype(np.complex64)
    cases = [
        (lambda a: P.rfft(a, n=5), x, 0),
        (lambda a: P.fft(a, axis=0, norm="ortho"), c, 1),
        (lambda a: P.irfft(a, n=6), c, 2),
        (lambda a: P.fft2(a), c, 2),
        (lambda a: P.rfftn(a, axes=(1, 0)), x, 1),
    ]
    for fn, a, ax in cases:
        got = padax.vmap(fn, in_axes=ax)(a)
        expected = np.stack([np.asarray(fn(np.take(a, i, axis=ax))) for i in range(a.shape[ax])])
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_vmap_primitive_batch_dim_among_fft_dims():
    """A batch dim inside the transformed trailing dims moves to the front; one before them stays."""
    c = _input("c", (4, 3, 5), 32)
    for ax in (0, 1, 2):
        fn = lambda a: lax_fft(a, "FFT", a.shape[-2:])  # noqa: E731
        got = padax.vmap(fn, in_axes=ax)(c)
        expected = np.stack([N.fft2(np.take(c, i, axis=ax)) for i in range(c.shape[ax])])
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-4)
    r = _input("r", (8, 3), 32)
    got = padax.vmap(lambda a: lax_fft(a, "RFFT", (8,)), in_axes=1, out_axes=1)(r)
    np.testing.assert_allclose(got, N.rfft(r, axis=0), rtol=1e-5, atol=1e-5)


def test_vmap_of_grad():
    x = _input("r", (3, 6), 32)
    g = lambda a: padax.grad(lambda b: padax.sum(padax.abs(P.rfft(b)) ** 2))(a)  # noqa: E731
    np.testing.assert_allclose(padax.vmap(g)(x), np.stack([g(row) for row in x]), rtol=1e-5, atol=1e-5)


# ---- errors ------------------------------------------------------------------------------------

def test_errors():
    x = _input("r", (4, 6), 32)
    c = _input("c", (4, 6), 32)
    with pytest.raises(ValueError, match="norm"):
        P.fft(c, norm="unitary")
    with pytest.raises(ValueError, match="norm"):
        P.rfftn(x, norm="Ortho")
    with pytest.raises(ValueError, match="repeat"):
        P.fftn(c, axes=(0, -2))
    with pytest.raises(ValueError, match="out of range"):
        P.fft(c, axis=2)
    with pytest.raises(ValueError, match="exactly 2 axes"):
        P.fft2(c, axes=(0,))
    with pytest.raises(ValueError, match="same length"):
        P.fftn(c, s=(3, 4), axes=(0,))
    with pytest.raises(ValueError, match="positive"):
        P.fft(c, n=0)
    with pytest.raises(ValueError, match="positive"):
        P.irfftn(c, s=(4, -2))
    with pytest.raises(TypeError, match="real input"):
        P.rfft(c)
    with pytest.raises(TypeError, match="real input"):
        P.ihfft(c)
    with pytest.raises(ValueError, match="pass n"):
        P.irfft(c[:, :1])
    with pytest.raises(ValueError, match="d"):
        P.fftfreq(4, d=0)
    with pytest.raises(TypeError, match="integer"):
        P.fft(c, n=2.5)
    with pytest.raises(TypeError, match="static_argnums"):
        padax.jit(lambda a, n: P.fft(a, n=n))(c, padax.to_tensor(3))


def test_primitive_errors():
    c = _input("c", (4, 6), 32)
    x = _input("r", (4, 6), 32)
    with pytest.raises(TypeError, match="RFFT needs a float32 or float64"):
        lax_fft(c, "RFFT", (6,))
    with pytest.raises(TypeError, match="complex64 or complex128"):
        lax_fft(x, "FFT", (6,))
    with pytest.raises(TypeError, match="trailing dims"):
        lax_fft(c, "FFT", (5,))
    with pytest.raises(TypeError, match="IRFFT needs trailing dims"):
        lax_fft(c, "IRFFT", (6,))  # a half spectrum for n=6 has 4 points
    with pytest.raises(ValueError, match="fft_type"):
        lax_fft(c, "DCT", (6,))
    with pytest.raises(ValueError, match="1 to 3"):
        lax_fft(c.reshape(1, 2, 2, 6), "FFT", (1, 2, 2, 6))
    with pytest.raises(TypeError, match="test_fft.py"):
        lax_fft(c, "FFT", (5,))  # errors point at the user's line
    np.testing.assert_allclose(lax_fft(c, "irfft", (4, 10)), N.irfftn(c, s=(4, 10), axes=(0, 1)), rtol=1e-5, atol=1e-5)
