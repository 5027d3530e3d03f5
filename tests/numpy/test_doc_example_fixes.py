"""Bugs found while writing padax.numpy's docstring examples, checked against NumPy / jax.numpy."""
import numpy as np
import pytest

import padax.numpy as pnp
from padax.runtime.array import Tensor


def test_array_equal_and_equiv_of_mismatched_shapes_are_0d_bool_arrays():
    # jax.numpy returns a 0-d bool array whatever the shapes; padax returned a numpy scalar when they differed
    for got in (pnp.array_equal(pnp.array([1, 2]), pnp.array([1, 2, 3])),
                pnp.array_equiv(pnp.array([1, 2]), pnp.array([1, 2, 3]))):
        assert isinstance(got, Tensor)
        assert got.shape == () and got.dtype == np.bool_ and got.tolist() is False
    assert pnp.array_equal(pnp.array([1, 2]), pnp.array([1, 2])).tolist() is True


def test_log2_log10_of_complex_zero_keep_a_zero_imaginary_part():
    z = np.array([0j, 1 + 2j, -3j], np.complex64)
    for fn, ref in ((pnp.log2, np.log2), (pnp.log10, np.log10)):
        got = np.asarray(fn(pnp.asarray(z)))
        with np.errstate(divide="ignore"):
            want = ref(z)
        assert got[0].real == -np.inf and got[0].imag == 0.0  # was -inf + nan j
        np.testing.assert_allclose(got[1:], want[1:], rtol=1e-6)


def test_log2_of_complex_is_differentiable():
    import padax
    f = lambda t: pnp.real(pnp.log2(pnp.asarray(t) * (1 + 1j)))
    g = padax.grad(f)(pnp.asarray(2.0))
    np.testing.assert_allclose(float(g), 1 / (2.0 * np.log(2.0)), rtol=1e-6)


def test_rint_of_integers_and_bool_gives_the_default_float():
    # NumPy and jax.numpy return a float array; padax returned the integer array unchanged
    for x in (np.array([-3, 0, 7]), np.array([0, 255], np.uint8), np.array([True, False])):
        got = pnp.rint(pnp.asarray(x))
        assert got.dtype == np.float32
        np.testing.assert_array_equal(np.asarray(got), np.rint(x).astype(np.float32))


def test_heaviside_of_integers_is_floating_and_complex_is_refused():
    # NumPy has no integer loop (float64 result) and jax.numpy promotes to a float; padax kept int64
    x, h = np.array([-7, 0, 5]), np.array([2, 3, 4])
    got = pnp.heaviside(pnp.asarray(x), pnp.asarray(h))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(got), np.heaviside(x, h))
    import pytest
    with pytest.raises(TypeError, match="heaviside"):
        pnp.heaviside(pnp.asarray(np.array([1j])), 0.5)


def test_take_clip_and_wrap_modes_follow_numpy():
    # clip: negative indices clip to 0 (padax counted them from the end); wrap: was refused
    import padax
    x = np.arange(6.0)
    i = np.array([-1, 7, -8, 3, -13])
    for mode in ("clip", "wrap"):
        got = pnp.take(pnp.asarray(x), pnp.asarray(i), mode=mode)
        np.testing.assert_array_equal(np.asarray(got), np.take(x, i, mode=mode))
        jitted = padax.jit(lambda a, b: pnp.take(a, b, mode=mode))(pnp.asarray(x), pnp.asarray(i))
        np.testing.assert_array_equal(np.asarray(jitted), np.take(x, i, mode=mode))
    g = padax.grad(lambda a: pnp.take(a, pnp.asarray(np.array([-1, 7, 7])), mode="wrap").sum())(pnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(g), [0.0, 2.0, 0.0, 0.0, 0.0, 1.0])
    import pytest
    with pytest.raises(ValueError, match="take: mode"):
        pnp.take(pnp.asarray(x), pnp.asarray(np.array([1])), mode="raise")


@pytest.mark.parametrize("name", ["logspace", "geomspace"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_logspace_geomspace_place_samples_along_axis(name, axis):
    start, stop = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    got = getattr(pnp, name)(start, stop, 4, axis=axis)
    np.testing.assert_allclose(np.asarray(got), getattr(np, name)(start, stop, 4, axis=axis), rtol=1e-5)


def test_logspace_array_base_broadcasts_like_numpy():
    got = pnp.logspace(np.array([0.0, 1.0]), 2.0, 3, base=np.array([2.0, 10.0]))
    np.testing.assert_allclose(np.asarray(got), np.logspace(np.array([0.0, 1.0]), 2.0, 3, base=np.array([2.0, 10.0])),
                               rtol=1e-5)
