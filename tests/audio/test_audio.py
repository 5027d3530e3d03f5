"""padax.audio against Paddle (paddle.audio): functional (mel scale, filter banks, dB, DCT, every window),
the feature layers (values, jit, numerical gradients), WAV backends, and ESC50/TESS on tiny local files."""
import os
import wave

import numpy as np
import pytest

import padax
import padax.audio.functional as AF
from padax.audio import features
from padax.test_util import check_grads
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(7)


def _close(got, want, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol)


@pytest.mark.parametrize("htk", [False, True])
def test_mel_scale_matches_paddle(htk):
    paddle = paddle_oracle()
    pf = paddle.audio.functional
    freqs = np.array([0.0, 100.0, 999.0, 1000.0, 1001.0, 4000.0, 11025.0], np.float32)
    _close(AF.hz_to_mel(freqs, htk), pf.hz_to_mel(paddle.to_tensor(freqs), htk).numpy(), rtol=1e-6)
    mels = np.array([0.0, 5.0, 14.9, 15.0, 15.1, 30.0, 40.0], np.float32)
    _close(AF.mel_to_hz(mels, htk), pf.mel_to_hz(paddle.to_tensor(mels), htk).numpy(), rtol=1e-5)
    for f in (0.0, 500.0, 1000.0, 3000.0):
        assert AF.hz_to_mel(f, htk) == pytest.approx(pf.hz_to_mel(f, htk), rel=1e-12)
        assert AF.mel_to_hz(f / 100, htk) == pytest.approx(pf.mel_to_hz(f / 100, htk), rel=1e-12)
    _close(AF.mel_frequencies(10, 20.0, 8000.0, htk), pf.mel_frequencies(10, 20.0, 8000.0, htk).numpy(), rtol=1e-5)
    _close(AF.mel_frequencies(5, htk=htk, dtype="float64"),
           pf.mel_frequencies(5, htk=htk, dtype="float64").numpy(), rtol=1e-12)


def test_fft_frequencies_fbank_dct_power_to_db_match_paddle():
    paddle = paddle_oracle()
    pf = paddle.audio.functional
    _close(AF.fft_frequencies(16000, 30), pf.fft_frequencies(16000, 30).numpy())
    for kw in ({}, {"htk": True}, {"norm": 2.0}, {"norm": 1.0, "f_min": 100.0, "f_max": 6000.0}, {"norm": None}):
        got = AF.compute_fbank_matrix(16000, 64, n_mels=12, **kw)
        want = pf.compute_fbank_matrix(16000, 64, n_mels=12, **kw).numpy()
        assert got.shape == want.shape == (12, 33)
        _close(got, want, rtol=1e-4, atol=1e-6)
    for norm in ("ortho", None):
        _close(AF.create_dct(5, 8, norm), pf.create_dct(5, 8, norm).numpy(), atol=1e-6)
    spect = (RNG.random((2, 5, 6)) ** 4).astype(np.float32)
    spect[0, 0, 0] = 0.0
    for kw in ({}, {"top_db": None}, {"ref_value": 0.5, "amin": 1e-5, "top_db": 10.0}):
        _close(AF.power_to_db(spect, **kw), pf.power_to_db(paddle.to_tensor(spect), **kw).numpy(), rtol=1e-5,
               atol=1e-4)
    with pytest.raises(ValueError, match="amin"):
        AF.power_to_db(spect, amin=0.0)


WINDOWS = ["hamming", "hann", "blackman", "nuttall", "bartlett", "triang", "bohman", "cosine", "tukey", "taylor",
           ("kaiser", 8.0), ("gaussian", 2.5), ("general_gaussian", 1.5, 3.0), ("exponential", None, 2.0),
           ("tukey", 0.3), ("tukey", 1.0), ("taylor", 5, 35)]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
def test_windows_match_paddle(window):
    paddle = paddle_oracle()
    for n in (1, 7, 16):
        for fftbins in (True, False):
            if fftbins is False and isinstance(window, tuple) and window[0] == "exponential":
                continue
            want = paddle.audio.functional.get_window(window, n, fftbins=fftbins, dtype="float64").numpy()
            got = AF.get_window(window, n, fftbins=fftbins)
            assert got.dtype == padax.float64 and got.shape == (n,)
            _close(got, want, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="needs parameters"):
        AF.get_window("kaiser", 8)
    with pytest.raises(ValueError, match="unknown window"):
        AF.get_window("nope", 8)


def _layers(paddle):
    pa = paddle.audio.features
    specs = [("Spectrogram", dict(n_fft=32, hop_length=8)),
             ("Spectrogram", dict(n_fft=32, hop_length=None, win_length=24, window="hamming", power=2.0)),
             ("MelSpectrogram", dict(sr=8000, n_fft=32, hop_length=8, n_mels=10)),
             ("MelSpectrogram", dict(sr=8000, n_fft=32, hop_length=16, n_mels=6, htk=True, norm=2.0, f_max=3000.0)),
             ("LogMelSpectrogram", dict(sr=8000, n_fft=32, n_mels=10)),
             ("LogMelSpectrogram", dict(sr=8000, n_fft=32, n_mels=10, top_db=20.0, ref_value=0.1)),
             ("MFCC", dict(sr=8000, n_mfcc=6, n_fft=32, n_mels=10)),
             ("MFCC", dict(sr=8000, n_mfcc=4, n_fft=32, n_mels=8, window=("kaiser", 5.0), center=False))]
    return [(name, kw, getattr(pa, name)(**kw), getattr(features, name)(**kw)) for name, kw in specs]


def test_feature_layers_match_paddle():
    paddle = paddle_oracle()
    x = RNG.standard_normal((2, 200)).astype(np.float32)
    for i, (name, kw, theirs, ours) in enumerate(_layers(paddle)):
        want = theirs(paddle.to_tensor(x)).numpy()
        got = ours(x)
        assert got.shape == want.shape, (name, kw)
        scale = np.abs(want).max()
        _close(got, want, rtol=1e-4, atol=1e-4 * scale)
        if i in (1, 7):
            _close(padax.jit(lambda m, v: m(v))(ours, x), want, rtol=1e-4, atol=1e-4 * scale)


def test_mfcc_gradient_numerical():
    layer = features.MFCC(sr=8000, n_mfcc=2, n_fft=8, hop_length=8, n_mels=3, dtype="float64")
    check_grads(lambda v: layer(v).sum(), (RNG.standard_normal((1, 16)),), order=1, modes=("rev",), rtol=1e-4,
                atol=1e-4)


@pytest.mark.slow
def test_feature_gradients_numerical():
    x = RNG.standard_normal((1, 48))
    for layer in (features.Spectrogram(n_fft=16, hop_length=8, power=2.0, dtype="float64"),
                  features.MelSpectrogram(sr=8000, n_fft=16, hop_length=8, n_mels=4, dtype="float64"),
                  features.LogMelSpectrogram(sr=8000, n_fft=16, n_mels=4, top_db=30.0, dtype="float64")):
        check_grads(lambda v: layer(v).sum(), (x,), order=1, rtol=1e-4, atol=1e-4)
    g = padax.jit(padax.grad(lambda v: features.LogMelSpectrogram(sr=8000, n_fft=16, n_mels=4)(v).sum()))(
        x.astype(np.float32))
    assert g.shape == (1, 48) and np.all(np.isfinite(np.asarray(g)))


def test_features_under_vmap():
    layer = features.MelSpectrogram(sr=8000, n_fft=16, hop_length=8, n_mels=4)
    x = RNG.standard_normal((3, 1, 64)).astype(np.float32)
    out = padax.vmap(layer)(x)
    for b in range(3):
        _close(out[b], layer(x[b]), rtol=1e-5, atol=1e-5)


def test_wav_round_trip_and_paddle_reads_it(tmp_path):
    paddle = paddle_oracle()
    path = str(tmp_path / "a.wav")
    wav = (RNG.random((2, 50)) * 1.8 - 0.9).astype(np.float32)
    padax.audio.save(path, wav, 8000)
    info = padax.audio.info(path)
    assert (info.sample_rate, info.num_samples, info.num_channels, info.bits_per_sample, info.encoding) == \
        (8000, 50, 2, 16, "PCM_S")
    got, sr = padax.audio.load(path)
    want, psr = paddle.audio.load(path)
    assert sr == psr == 8000 and got.dtype == padax.float32
    _close(got, want.numpy(), atol=0)
    _close(got, wav, atol=1 / 2 ** 15)
    raw, _ = padax.audio.load(path, normalize=False, channels_first=False)
    _close(raw, paddle.audio.load(path, normalize=False, channels_first=False)[0].numpy(), atol=0)
    part, _ = padax.audio.load(path, frame_offset=10, num_frames=5)
    _close(part, np.asarray(got)[:, 10:15], atol=0)
    ppath = str(tmp_path / "p.wav")
    paddle.audio.save(ppath, paddle.to_tensor(wav), 8000)
    _close(padax.audio.load(ppath)[0], got, atol=0)
    with open(str(tmp_path / "bad.wav"), "wb") as f:
        f.write(b"not a wav file")
    with pytest.raises(NotImplementedError, match="PCM-16 WAV"):
        padax.audio.load(str(tmp_path / "bad.wav"))
    assert padax.audio.backends.get_current_backend() == "wave_backend"
    with pytest.raises(NotImplementedError):
        padax.audio.backends.set_backend("nope")


def _write_wav(path, n, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with wave.open(path, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(8000)
        f.writeframes((np.full(n, value, "<i2")).tobytes())


def test_esc50_from_local_files(tmp_path):
    root = tmp_path / "ESC-50-master"
    rows = [("1-a.wav", 1, 0), ("2-b.wav", 2, 5), ("1-c.wav", 1, 49), ("3-d.wav", 3, 7)]
    os.makedirs(root / "meta")
    with open(root / "meta" / "esc50.csv", "w") as f:
        f.write("filename,fold,target,category,esc10,src_file,take\n")
        for name, fold, target in rows:
            f.write(f"{name},{fold},{target},cat,False,x,A\n")
            _write_wav(str(root / "audio" / name), 64, 100 * (target + 1))
    dev = padax.audio.datasets.ESC50(mode="dev", split=1, data_dir=str(root))
    assert len(dev) == 2 and [dev[i][1] for i in range(2)] == [0, 49]
    feat, label = dev[0]
    assert feat.shape == (64,) and feat.dtype == padax.float32
    _close(feat, np.full(64, 100 / 2 ** 15), atol=0)
    train = padax.audio.datasets.ESC50(mode="train", split=1, data_dir=str(root), feat_type="mfcc", n_mfcc=4,
                                       n_fft=32, n_mels=8)
    assert [train.labels[i] for i in range(2)] == [5, 7]
    assert train[0][0].shape == (4, 9)
    with pytest.raises(FileNotFoundError, match="does not download"):
        padax.audio.datasets.ESC50(data_dir=str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="split"):
        padax.audio.datasets.ESC50(split=6, data_dir=str(root))


def test_tess_from_local_files(tmp_path):
    root = tmp_path / "TESS_Toronto_emotional_speech_set"
    names = ["OAF_back_angry.wav", "OAF_bar_sad.wav", "YAF_cat_ps.wav", "YAF_dog_neutral.wav", "OAF_x_fear.wav"]
    for i, n in enumerate(names):
        _write_wav(str(root / ("sub" if i % 2 else "") / n), 32, 100 * i)
    train = padax.audio.datasets.TESS(mode="train", n_folds=2, split=1, data_dir=str(root))
    dev = padax.audio.datasets.TESS(mode="dev", n_folds=2, split=1, data_dir=str(root))
    assert len(train) + len(dev) == 5 and len(dev) == 3
    labels = sorted(train.labels + dev.labels)
    assert labels == sorted(padax.audio.datasets.TESS.label_list.index(n[:-4].split("_")[2]) for n in names)
    feat, label = dev[0]
    assert feat.shape == (32,) and isinstance(label, int)
    spec = padax.audio.datasets.TESS(mode="dev", n_folds=2, split=1, data_dir=str(root), feat_type="spectrogram",
                                     n_fft=16, hop_length=8)
    assert spec[0][0].shape == (9, 5)
    old = os.environ.get("PADAX_DATA_HOME")
    os.environ["PADAX_DATA_HOME"] = str(tmp_path / "empty_home")
    try:
        with pytest.raises(FileNotFoundError, match="TESS_Toronto_emotional_speech_set"):
            padax.audio.datasets.TESS()
    finally:
        if old is None:
            del os.environ["PADAX_DATA_HOME"]
        else:
            os.environ["PADAX_DATA_HOME"] = old
