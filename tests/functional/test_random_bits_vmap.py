"""vmap of rng_bit_generator over a batch of keys equals generating from each key in turn,
eagerly and under jit; its integer outputs carry no derivative."""
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.transforms.ad import grad, jvp
from padax.transforms.batching import vmap

ALGORITHMS = [lax.RandomAlgorithm.RNG_DEFAULT, lax.RandomAlgorithm.RNG_THREE_FRY, lax.RandomAlgorithm.RNG_PHILOX]
KEYS = np.array([[0, 42, 7, 1], [1, 2, 3, 4], [0, 42, 7, 1], [9, 9, 9, 9]], np.uint32)


def _loop(f, keys):
    outs = [f(padax.device_put(k)) for k in keys]
    return [np.stack([np.asarray(o[j]) for o in outs]) for j in range(2)]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_vmap_over_keys_matches_loop(algorithm):
    f = lambda k: lax.rng_bit_generator(k, (2, 5), np.uint32, algorithm)
    new_keys, bits = vmap(f)(padax.device_put(KEYS))
    exp_keys, exp_bits = _loop(f, KEYS)
    np.testing.assert_array_equal(np.asarray(bits), exp_bits)
    np.testing.assert_array_equal(np.asarray(new_keys), exp_keys)
    assert (exp_bits[0] == exp_bits[2]).all() and (exp_bits[0] != exp_bits[1]).any()


@pytest.mark.parametrize("dtype", [np.uint8, np.uint64])
def test_vmap_keys_on_axis_1_under_jit(dtype):
    f = lambda k: lax.rng_bit_generator(k, (3,), dtype, lax.RandomAlgorithm.RNG_THREE_FRY)
    g = padax.jit(vmap(f, in_axes=1, out_axes=(1, 0)))
    with padax.enable_x64(dtype == np.uint64):
        new_keys, bits = g(padax.device_put(np.ascontiguousarray(KEYS.T)))
        exp_keys, exp_bits = _loop(f, KEYS)
    assert np.asarray(bits).dtype == dtype
    np.testing.assert_array_equal(np.asarray(bits), exp_bits)
    np.testing.assert_array_equal(np.asarray(new_keys), exp_keys.T)


def test_vmap_chained_keys_and_batch_of_one():
    def two_draws(k):
        k, a = lax.rng_bit_generator(k, (4,))
        _, b = lax.rng_bit_generator(k, (4,))
        return a, b

    keys = KEYS[:2]
    a, b = padax.jit(vmap(two_draws))(padax.device_put(keys))
    exp = _loop(two_draws, keys)
    np.testing.assert_array_equal(np.asarray(a), exp[0])
    np.testing.assert_array_equal(np.asarray(b), exp[1])
    one = vmap(two_draws)(padax.device_put(keys[:1]))
    np.testing.assert_array_equal(np.asarray(one[0]), exp[0][:1])


def test_unbatched_key_inside_vmap_is_shared():
    """Only another argument is batched: every batch element sees the same bits."""
    key = padax.device_put(KEYS[1])

    def f(x):
        _, bits = lax.rng_bit_generator(key, (3,))
        return lax.convert_element_type(bits, np.float32) * x

    xs = np.arange(1.0, 4.0, dtype=np.float32)[:, None] * np.ones((3, 3), np.float32)
    out = np.asarray(vmap(f)(padax.device_put(xs)))
    np.testing.assert_allclose(out / xs, np.broadcast_to(out[0] / xs[0], (3, 3)), rtol=1e-6)


def test_no_derivative_through_bits():
    """The bits are integers: a function of x that also draws bits differentiates like x * const."""
    key = padax.device_put(KEYS[0])

    def f(x):
        _, bits = lax.rng_bit_generator(key, (3,), np.uint8)
        return (x * lax.convert_element_type(bits, np.float32)).sum()

    x = np.ones(3, np.float32)
    _, bits = lax.rng_bit_generator(key, (3,), np.uint8)
    np.testing.assert_allclose(np.asarray(grad(f)(x)), np.asarray(bits).astype(np.float32))
    _, t = jvp(f, (x,), (np.ones(3, np.float32),))
    np.testing.assert_allclose(float(t), float(np.asarray(bits).astype(np.float32).sum()))
    from padax.functional.lax.random_bits import rng_bit_generator_p
    new_key, b = rng_bit_generator_p.jvp_rule((key,), (None,), shape=(2,), dtype=np.dtype(np.uint32),
                                                  algorithm=lax.RandomAlgorithm.RNG_DEFAULT)[1]
    assert type(new_key).__name__ == "Zero" and type(b).__name__ == "Zero"
