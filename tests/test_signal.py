"""padax.signal (Paddle's frame/overlap_add/stft/istft) against Paddle and numpy, round trips;
padax.scipy.signal against scipy.signal (convolutions, windows, stft/istft, welch, butter,
lfilter, sosfilt); derivatives and jit/vmap."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

import padax
import padax.scipy.signal as ps
from padax.test_util import check_grads
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(21)


def _close(got, want, rtol=1e-12, atol=1e-12):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)


def test_frame_and_overlap_add():
    x = RNG.standard_normal((2, 3, 20))
    f = padax.signal.frame(x, 6, 4)
    assert f.shape == (2, 3, 6, 4)
    for t in range(4):
        _close(np.asarray(f)[..., t], x[..., 4 * t:4 * t + 6])
    f0 = padax.signal.frame(np.moveaxis(x, -1, 0), 6, 4, axis=0)
    assert f0.shape == (4, 6, 2, 3)
    _close(f0, np.moveaxis(np.asarray(f), (-2, -1), (1, 0)))
    # overlap_add is frame's transpose: <frame(x), y> == <x, overlap_add(y)>
    y = RNG.standard_normal(f.shape)
    covered = (f.shape[-1] - 1) * 4 + 6  # the samples some frame holds
    _close(np.sum(np.asarray(f) * y), np.sum(x[..., :covered] * np.asarray(padax.signal.overlap_add(y, 4))))
    paddle = paddle_oracle()
    xi = np.arange(24.0).reshape(2, 12).astype(np.float32)
    _close(padax.signal.frame(xi, 5, 3), paddle.signal.frame(paddle.to_tensor(xi), 5, 3).numpy())
    _close(padax.signal.frame(xi.T.copy(), 5, 3, axis=0),
           paddle.signal.frame(paddle.to_tensor(xi.T.copy()), 5, 3, axis=0).numpy())
    fr = RNG.standard_normal((2, 5, 4)).astype(np.float32)
    _close(padax.signal.overlap_add(fr, 3), paddle.signal.overlap_add(paddle.to_tensor(fr), 3).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="frame_length"):
        padax.signal.frame(xi, 50, 3)
    with pytest.raises(ValueError, match="axis must be 0 or -1"):
        padax.signal.frame(xi, 5, 3, axis=1)


def test_stft_istft_against_paddle_and_round_trip():
    paddle = paddle_oracle()
    x = RNG.standard_normal((3, 400)).astype(np.float32)
    win = ss.get_window("hann", 64).astype(np.float32)
    for kw in ({"n_fft": 64, "hop_length": 16, "window": win}, {"n_fft": 64, "win_length": 48, "hop_length": 12,
                                                              "window": ss.get_window("hamming", 48).astype(np.float32)},
               {"n_fft": 64, "hop_length": 16, "window": ss.get_window("hamming", 64).astype(np.float32),
                "center": False},
               {"n_fft": 32, "normalized": True, "pad_mode": "constant"}):
        ours = padax.signal.stft(x, **kw)
        pkw = {k: (paddle.to_tensor(v) if k == "window" else v) for k, v in kw.items()}
        theirs = paddle.signal.stft(paddle.to_tensor(x), **pkw).numpy()
        assert ours.shape == theirs.shape
        _close(ours, theirs, rtol=2e-5, atol=2e-4)
        ikw = {k: v for k, v in kw.items() if k != "pad_mode"}
        back = padax.signal.istft(ours, length=400 if kw.get("center", True) else None, **ikw)
        want = paddle.signal.istft(paddle.to_tensor(theirs), length=400 if kw.get("center", True) else None,
                                   **{k: (paddle.to_tensor(v) if k == "window" else v) for k, v in ikw.items()}).numpy()
        _close(back, want, rtol=1e-4, atol=1e-5)
        _close(back, x[:, :back.shape[-1]], rtol=1e-4, atol=1e-5)          # the round trip
    # a complex signal, two-sided, in float64
    z = RNG.standard_normal(128) + 1j * RNG.standard_normal(128)
    spec = padax.signal.stft(z, 32, 8, window=np.hanning(34)[1:-1])
    assert spec.shape == (32, 17)
    _close(padax.signal.istft(spec, 32, 8, window=np.hanning(34)[1:-1], onesided=False, return_complex=True,
                              length=128), z, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="NOLA"):
        padax.signal.istft(spec.astype(np.complex128), 32, 32, window=np.hanning(32), onesided=False,
                           return_complex=True)


def test_convolutions_against_scipy():
    a, b = RNG.standard_normal(40), RNG.standard_normal(6)
    A, B = RNG.standard_normal((10, 9)), RNG.standard_normal((4, 3))
    C = RNG.standard_normal((5, 6, 7)) + 1j * RNG.standard_normal((5, 6, 7))
    K = RNG.standard_normal((2, 3, 2))
    for mode in ("full", "same", "valid"):
        for x, y in ((a, b), (b, a), (A, B), (C, K)):
            _close(ps.convolve(x, y, mode), ss.convolve(x, y, mode))
            _close(ps.correlate(x, y, mode), ss.correlate(x, y, mode))
            _close(ps.fftconvolve(x, y, mode), ss.fftconvolve(x, y, mode), atol=1e-11)
            _close(ps.convolve(x, y, mode, method="fft"), ss.convolve(x, y, mode), atol=1e-11)
        for bd in ("fill", "wrap", "symm"):
            _close(ps.convolve2d(A, B, mode, bd, 0.5), ss.convolve2d(A, B, mode, bd, 0.5))
            _close(ps.correlate2d(A, B, mode, bd), ss.correlate2d(A, B, mode, bd))
    x3, k3 = RNG.standard_normal((3, 30)), RNG.standard_normal((1, 5))
    _close(ps.fftconvolve(x3, k3, axes=1), ss.fftconvolve(x3, k3, axes=1), atol=1e-12)
    with pytest.raises(ValueError, match="mode"):
        ps.convolve(a, b, "middle")
    with pytest.raises(ValueError, match="at least as large"):
        ps.convolve(np.ones((3, 5)), np.ones((5, 3)), "valid")


def test_windows_against_scipy():
    specs = ["hann", "hamming", "blackman", "nuttall", "blackmanharris", "flattop", "boxcar", "triang", "bartlett",
             "cosine", "bohman", "parzen", ("tukey", 0.3), ("gaussian", 2.5), ("general_gaussian", 1.5, 3.0),
             ("kaiser", 6.0), ("exponential", None, 3.0), 8.6]
    for w in specs:
        for n in (1, 2, 7, 16):
            for fftbins in (True, False):
                got = ps.get_window(w, n, fftbins)
                assert got.dtype == padax.get_default_dtype()
                _close(got, ss.get_window(w, n, fftbins=fftbins), rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match="unknown window"):
        ps.get_window("nope", 8)


def test_spectral_against_scipy():
    x = RNG.standard_normal((2, 700))
    for kw in ({}, {"nperseg": 100, "noverlap": 30}, {"window": ("tukey", 0.3), "nperseg": 64, "nfft": 100},
               {"boundary": None, "padded": False, "nperseg": 128, "detrend": "linear"}, {"boundary": "even"},
               {"boundary": "odd", "scaling": "psd", "nperseg": 50}):
        f, t, z = ps.stft(x, fs=10.0, **kw)
        rf, rt, rz = ss.stft(x, fs=10.0, **kw)
        _close(f, rf), _close(t, rt), _close(z, rz, atol=1e-13)
        ikw = {k: v for k, v in kw.items() if k in ("nperseg", "noverlap", "nfft", "window", "scaling")}
        ikw["boundary"] = kw.get("boundary", "zeros") is not None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rti, rxi = ss.istft(rz, fs=10.0, **ikw)
        ti, xi = ps.istft(z, fs=10.0, **ikw)
        _close(xi, rxi, atol=1e-12)
        _close(ti, rti)
    _, _, zt = ps.stft(x.T, nperseg=64, axis=0)
    _close(zt, ss.stft(x.T, nperseg=64, axis=0)[2], atol=1e-13)
    for kw in ({}, {"nperseg": 100, "noverlap": 30, "average": "median"},
               {"scaling": "spectrum", "detrend": "linear", "nperseg": 200, "window": "hamming"},
               {"nperseg": 101, "nfft": 150, "detrend": False}):
        f, p = ps.welch(x, fs=3.0, **kw)
        rf, rp = ss.welch(x, fs=3.0, **kw)
        _close(f, rf), _close(p, rp, rtol=1e-11)
    _close(ps.welch(x.T, axis=0, nperseg=64)[1], ss.welch(x.T, axis=0, nperseg=64)[1], rtol=1e-11)
    _close(ps.detrend(x, type="linear"), ss.detrend(x, type="linear"), atol=1e-12)
    _close(ps.detrend(x, axis=0, type="constant"), ss.detrend(x, axis=0, type="constant"), atol=1e-12)


def test_butter_and_filtering_against_scipy():
    x = RNG.standard_normal((3, 500))
    for args, kw in (((4, 0.2), {}), ((5, 0.3, "high"), {}), ((3, [0.2, 0.5], "band"), {}),
                     ((2, [0.1, 0.6], "bandstop"), {}), ((6, 300), {"fs": 2000}), ((3, 2.0, "low", True), {})):
        for out in ("ba", "zpk", "sos"):
            got, want = ps.butter(*args, output=out, **kw), ss.butter(*args, output=out, **kw)
            if out == "ba":
                _close(got[0], want[0], atol=1e-15), _close(got[1], want[1], atol=1e-13)
            elif out == "zpk":
                _close(np.sort_complex(got[0]), np.sort_complex(want[0]), atol=1e-12)
                _close(np.sort_complex(got[1]), np.sort_complex(want[1]), atol=1e-12)
                _close(got[2], want[2])
        if len(args) > 3:
            continue                                                    # (analog filters are not for filtering)
        b, a = ss.butter(*args, **kw)
        _close(ps.lfilter(b, a, x), ss.lfilter(b, a, x), atol=1e-12)
        sos = ps.butter(*args, output="sos", **kw)
        _close(ps.sosfilt(sos, x), ss.sosfilt(ss.butter(*args, output="sos", **kw), x), atol=1e-12)
    b, a = ss.butter(3, 0.25)
    zi = RNG.standard_normal((3, 3))
    y, zf = ps.lfilter(b, a, x, zi=zi)
    ry, rzf = ss.lfilter(b, a, x, zi=zi)
    _close(y, ry, atol=1e-12), _close(zf, rzf, atol=1e-12)
    sos = ss.butter(4, 0.25, output="sos")
    zi = RNG.standard_normal((2, 2, 3))  # (sections, 2 in place of the filtered axis, the rest)
    y, zf = ps.sosfilt(sos, x.T, axis=0, zi=zi)
    ry, rzf = ss.sosfilt(sos, x.T, axis=0, zi=zi)
    _close(y, ry, atol=1e-12), _close(zf, rzf, atol=1e-12)
    _close(ps.lfilter(np.array([0.5, 0.2]), np.array([1.0]), x[0]), ss.lfilter([0.5, 0.2], [1.0], x[0]))
    with pytest.raises(ValueError, match="critical frequencies must be in \\(0, 1\\)"):
        ps.butter(3, 1.5)


def test_derivatives_jit_vmap():
    x = RNG.standard_normal(40)
    check_grads(lambda v: padax.signal.stft(v, 16, 4, window=np.hanning(16)), (x,), order=1)
    spec = np.asarray(padax.signal.stft(x, 16, 4, window=np.hanning(16)))
    check_grads(lambda s: padax.signal.istft(s, 16, 4, window=np.hanning(16), length=40), (spec,), order=1)
    check_grads(lambda u, v: ps.convolve(u, v, "same"), (x, RNG.standard_normal(5)), order=1)
    check_grads(lambda u, v: ps.fftconvolve(u, v), (x, RNG.standard_normal(5)), order=1)
    b, a = ss.butter(2, 0.3)
    check_grads(lambda u, bb, aa: ps.lfilter(bb, aa, u), (x[:12], b, a), order=1)
    check_grads(lambda u: ps.sosfilt(ss.butter(2, 0.3, output="sos"), u), (x[:12],), order=1)
    check_grads(lambda u: ps.welch(u, nperseg=16)[1], (x,), order=1)
    batch = RNG.standard_normal((4, 40))
    f = padax.jit(padax.vmap(lambda v: ps.stft(v, nperseg=16)[2]))
    _close(f(batch), ss.stft(batch, nperseg=16)[2], atol=1e-13)
    g = padax.jit(padax.vmap(lambda v: padax.signal.stft(v, 16, 4)))
    _close(g(batch), np.asarray(padax.signal.stft(batch, 16, 4)), atol=1e-12)
