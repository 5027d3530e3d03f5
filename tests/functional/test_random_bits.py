"""rng_bit_generator: determinism (eager and jit), key sensitivity, dtypes, uniformity, key chaining."""
import jax
import numpy as np
import pytest
from jax import lax as jlax

import padax
import padax.lax as lax

ALGORITHMS = [lax.RandomAlgorithm.RNG_DEFAULT, lax.RandomAlgorithm.RNG_THREE_FRY, lax.RandomAlgorithm.RNG_PHILOX]
KEY = np.array([0, 42, 7, 1], np.uint32)


def key(k=KEY):
    return padax.device_put(np.asarray(k, np.uint32))


def gen(k, shape, dtype=np.uint32, algorithm=lax.RandomAlgorithm.RNG_DEFAULT, jit=False):
    f = lambda kk: lax.rng_bit_generator(kk, shape, dtype, algorithm)
    new_key, bits = (padax.jit(f) if jit else f)(k)
    return new_key.numpy(), bits.numpy()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_deterministic_eager_and_jit(algorithm):
    k1, b1 = gen(key(), (64,), algorithm=algorithm)
    k2, b2 = gen(key(), (64,), algorithm=algorithm)
    k3, b3 = gen(key(), (64,), algorithm=algorithm, jit=True)
    np.testing.assert_array_equal(b1, b2)
    np.testing.assert_array_equal(b1, b3)
    np.testing.assert_array_equal(k1, k3)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_matches_jax(algorithm):
    k, b = gen(key(), (3, 5), algorithm=algorithm)
    with jax.default_device(jax.devices(padax.default_device().platform)[0]):  # RNG_DEFAULT is per backend
        jk, jb = jlax.rng_bit_generator(KEY, (3, 5), np.uint32, jlax.RandomAlgorithm(int(algorithm)))
    np.testing.assert_array_equal(b, np.asarray(jb))
    np.testing.assert_array_equal(k, np.asarray(jk))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_different_keys_differ_and_new_key_differs(algorithm):
    k1, b1 = gen(key(), (256,), algorithm=algorithm)
    _, b2 = gen(key([0, 42, 7, 2]), (256,), algorithm=algorithm)
    assert np.mean(b1 == b2) < 0.05
    assert k1.shape == (4,) and k1.dtype == np.uint32
    assert not np.array_equal(k1, KEY)
    # chaining the new key gives a fresh stream
    _, b3 = gen(key(k1), (256,), algorithm=algorithm)
    assert np.mean(b1 == b3) < 0.05


def test_algorithms_differ():
    _, a = gen(key(), (64,), algorithm="three_fry")
    _, b = gen(key(), (64,), algorithm="philox")
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_dtype_shape_and_uniform_mean(dtype, algorithm):
    new_key, bits = gen(key(), (64, 64), dtype, algorithm)
    assert bits.shape == (64, 64) and bits.dtype == np.dtype(dtype)
    assert new_key.dtype == np.uint32
    top = float(np.iinfo(dtype).max)
    u = bits.astype(np.float64) / top
    # 4096 draws: the mean of U(0,1) has sd ~0.0045; allow a generous 0.03
    assert abs(u.mean() - 0.5) < 0.03
    assert abs(u.var() - 1 / 12) < 0.01
    # every bit position is set about half the time
    nbits = np.dtype(dtype).itemsize * 8
    freq = ((bits.astype(np.uint64)[..., None] >> np.arange(nbits, dtype=np.uint64)) & 1).mean(axis=(0, 1))
    assert np.all(np.abs(freq - 0.5) < 0.05)


def test_uint64_with_x64(x64):
    k = padax.device_put(KEY)
    new_key, bits = lax.rng_bit_generator(k, (8,), np.uint64)
    assert bits.dtype == np.uint64 and bits.shape == (8,)
    assert len(set(bits.numpy().tolist())) == 8
    # a u64[2] key is accepted too
    k64, _ = lax.rng_bit_generator(padax.device_put(np.array([1, 2], np.uint64)), (4,))
    assert k64.dtype == np.uint64 and k64.shape == (2,)


def test_uint64_without_x64_is_uint32():
    with padax.enable_x64(False):
        _, bits = lax.rng_bit_generator(key(), (4,), np.uint64)
        assert bits.dtype == np.uint32


def test_string_algorithms_and_jaxpr():
    assert lax.RandomAlgorithm.from_any("philox") is lax.RandomAlgorithm.RNG_PHILOX
    assert lax.RandomAlgorithm.from_any("RNG_THREE_FRY") is lax.RandomAlgorithm.RNG_THREE_FRY
    assert lax.RandomAlgorithm.PHILOX is lax.RandomAlgorithm.RNG_PHILOX
    text = str(padax.make_jaxpr(lambda k: lax.rng_bit_generator(k, (2, 3), np.uint8, "philox"))(key()))
    assert "rng_bit_generator" in text and "u8[2,3]" in text and "RNG_PHILOX" in text


def test_errors():
    with pytest.raises(TypeError, match=r"rng_bit_generator: key must be u32\[4\] \(or u64\[2\]\), got i32\[4\]"):
        lax.rng_bit_generator(padax.device_put(np.zeros(4, np.int32)), (3,))
    with pytest.raises(TypeError, match=r"key must be u32\[4\].*got u32\[2\]"):
        lax.rng_bit_generator(padax.device_put(np.zeros(2, np.uint32)), (3,))
    with pytest.raises(TypeError, match="dtype must be uint8, uint16, uint32 or uint64, got float32"):
        lax.rng_bit_generator(key(), (3,), np.float32)
    with pytest.raises(ValueError, match="unknown algorithm 'mersenne'"):
        lax.rng_bit_generator(key(), (3,), np.uint32, "mersenne")
    with pytest.raises(ValueError, match="negative dimension"):
        lax.rng_bit_generator(key(), (3, -1))
