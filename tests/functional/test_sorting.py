"""sort (multi-operand, stable, NaNs last), sort_key_val and top_k against numpy."""
import ml_dtypes
import numpy as np
import pytest

import padax
import padax.lax as lax
from tests.conftest import assert_close, rand

BF16 = ml_dtypes.bfloat16
DTYPES = [np.float32, BF16, np.int32, np.uint8, np.int8, np.bool_]


def put(x):
    """device_put that also takes bfloat16 host arrays."""
    x = np.asarray(x)
    return padax.device_put(x.astype(np.float32), dtype=BF16) if x.dtype == BF16 else padax.device_put(x)


def call(f, jit, *args):
    out = padax.jit(f)(*args) if jit else f(*args)
    return padax.tree.map(lambda t: t.numpy(), out)


def np_order(x, axis):
    """numpy's stable argsort (NaNs last, -0.0 == 0.0); bfloat16 through float32 (exact)."""
    return np.argsort(x.astype(np.float32) if x.dtype == BF16 else x, axis=axis, kind="stable")


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_sort_single_operand(dtype):
    x = rand((4, 6), dtype, low=-2, high=2)
    for i, dim in enumerate([0, 1, -1, -2]):
        got = call(lambda t: lax.sort(t, dim), i % 2 == 1, put(x))
        assert_close(got, np.take_along_axis(x, np_order(x, dim % 2), dim % 2), dtype=dtype)


@pytest.mark.parametrize("dtype", [np.float32, BF16, np.int32, np.uint8], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("jit", [False, True])
def test_sort_is_stable_with_values(dtype, jit):
    keys = (rand((3, 10), np.int32, low=-1, high=1) % 3).astype(dtype)  # many equal keys
    vals = np.arange(30, dtype=np.int32).reshape(3, 10)
    k, v = call(lambda a, b: lax.sort_key_val(a, b, -1), jit, put(keys), put(vals))
    order = np_order(keys, 1)
    assert_close(k, np.take_along_axis(keys, order, 1), dtype=dtype)
    assert_close(v, np.take_along_axis(vals, order, 1))


@pytest.mark.parametrize("dtype", [np.float32, BF16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("jit", [False, True])
def test_sort_nan_inf_signed_zero(dtype, jit):
    keys = np.array([np.nan, 1.0, -np.inf, -0.0, -np.nan, 0.0, np.inf, -0.0, np.nan, -2.0], dtype)
    idx = np.arange(keys.size, dtype=np.int32)
    k, v = call(lambda a, b: lax.sort((a, b), 0), jit, put(keys), put(idx))
    order = np_order(keys, 0)  # NaNs (either sign) last in input order; -0.0/0.0 tie
    assert_close(v, order.astype(np.int32))
    assert_close(k, keys[order], dtype=dtype)
    np.testing.assert_array_equal(np.signbit(k), np.signbit(keys[order]))


@pytest.mark.parametrize("jit", [False, True])
def test_sort_two_keys_lexicographic(jit):
    rng = np.random.default_rng(1)
    k1 = rng.integers(0, 3, (2, 12)).astype(np.float32)
    k1[0, 3] = np.nan
    k2 = rng.integers(0, 3, (2, 12)).astype(np.uint8)
    vals = rng.standard_normal((2, 12)).astype(np.float32)
    out = call(lambda a, b, c: lax.sort((a, b, c), dimension=1, num_keys=2), jit, put(k1), put(k2), put(vals))
    order = np.stack([np.lexsort((k2[r], k1[r])) for r in range(2)])  # k1 primary, stable
    for got, src in zip(out, (k1, k2, vals)):
        assert_close(got, np.take_along_axis(src, order, 1))


def test_sort_num_keys_one_ignores_later_operands():
    keys = np.array([2, 1, 2, 1, 0], np.int32)
    second = np.array([9, 8, 7, 6, 5], np.int32)  # would reorder ties if it were a key
    a, b = lax.sort((put(keys), put(second)), num_keys=1)
    assert_close(a.numpy(), np.array([0, 1, 1, 2, 2], np.int32))
    assert_close(b.numpy(), np.array([5, 8, 6, 9, 7], np.int32))


def test_sort_unstable_still_sorts():
    x = rand((50,), np.float32)
    got = lax.sort(put(x), is_stable=False).numpy()
    assert_close(got, np.sort(x))


def test_sort_complex_keys_real_then_imag():
    x = np.array([1 + 2j, 1 - 1j, -3 + 0j, 1 + 0j, -3 - 5j], np.complex64)
    assert_close(lax.sort(put(x)).numpy(), np.sort(x))


def test_sort_float64_int64(x64):
    x = rand((3, 7), np.float64)
    x[1, 2] = np.nan
    assert_close(call(lambda t: lax.sort(t, 0), True, put(x)), np.sort(x, axis=0), dtype=np.float64)
    xi = rand((20,), np.int64) * (2 ** 40)
    assert_close(lax.sort(put(xi)).numpy(), np.sort(xi), dtype=np.int64)


def test_descending_via_negation():
    """The primitive only sorts ascending; descending order is sort(-x) negated."""
    x = rand((9,), np.float32)
    assert_close(lax.neg(lax.sort(lax.neg(put(x)))).numpy(), np.sort(x)[::-1])
    xi = rand((9,), np.int32)
    assert_close(lax.neg(lax.sort(lax.neg(put(xi)))).numpy(), np.sort(xi)[::-1])


def test_sort_empty_and_singleton():
    for shape, dim in [((0,), 0), ((3, 0), 1), ((3, 0), 0), ((1, 4), 0)]:
        x = rand(shape, np.float32)
        assert_close(call(lambda t: lax.sort(t, dim), True, put(x)), np.sort(x, axis=dim))


def test_sort_errors_name_op_and_shape():
    t = put(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"sort.*f32\[2,3\]"):
        lax.sort(t, 2)
    with pytest.raises(ValueError, match=r"sort.*f32\[\]"):
        lax.sort(put(np.float32(1)), 0)
    with pytest.raises(ValueError, match=r"sort.*f32\[2,3\], i32\[3\]"):
        lax.sort((t, put(np.ones(3, np.int32))), 0)
    with pytest.raises(ValueError, match=r"sort.*num_keys=3.*f32\[2,3\]"):
        lax.sort((t, t), num_keys=3)
    with pytest.raises(ValueError, match=r"sort.*f32\[2,3\]"):
        padax.jit(lambda x: lax.sort(x, -3))(t)


# ---- top_k ----------------------------------------------------------------------------

def np_top_k(x, k):
    """Largest first, NaN counted as the largest, ties -> lower index (a stable order)."""
    xf = x.astype(np.float64)
    nan = np.isnan(xf)
    order = np.stack([np.lexsort((-np.where(nan[i], 0, xf[i]), ~nan[i])) for i in np.ndindex(x.shape[:-1])]) \
        if x.ndim > 1 else np.lexsort((-np.where(nan, 0, xf), ~nan))
    order = order.reshape(x.shape)[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(np.int32)


@pytest.mark.parametrize("dtype", [np.float32, BF16, np.int32, np.uint8, np.int8], ids=lambda d: np.dtype(d).name)
def test_top_k_values_and_ties(dtype):
    x = (rand((2, 3, 8), np.int32, low=-1, high=1) % 5).astype(dtype)  # lots of ties
    for i, k in enumerate([0, 1, 3, 8]):
        vals, idx = call(lambda t: lax.top_k(t, k), i % 2 == 1, put(x))
        want_v, want_i = np_top_k(x, k)
        assert_close(vals, want_v, dtype=dtype)
        assert_close(idx, want_i, dtype=np.int32)


@pytest.mark.parametrize("jit", [False, True])
def test_top_k_nan_inf(jit):
    x = np.array([1.0, np.nan, np.inf, 3.0, -np.inf, np.nan, 3.0, -0.0], np.float32)
    vals, idx = call(lambda t: lax.top_k(t, 6), jit, put(x))
    assert_close(idx, np.array([1, 5, 2, 3, 6, 0], np.int32))
    assert_close(vals, x[[1, 5, 2, 3, 6, 0]])


def test_top_k_matches_jax_oracle_without_nans():
    jax_lax = pytest.importorskip("jax.lax")
    x = (rand((3, 10), np.int32, low=-1, high=1) % 4).astype(np.float32)
    v, i = lax.top_k(put(x), 4)
    jv, ji = jax_lax.top_k(x, 4)
    assert_close(v.numpy(), np.asarray(jv))
    assert_close(i.numpy(), np.asarray(ji))


def test_top_k_float64(x64):
    x = rand((2, 9), np.float64)
    vals, idx = call(lambda t: lax.top_k(t, 4), True, put(x))
    want_v, want_i = np_top_k(x, 4)
    assert_close(vals, want_v, dtype=np.float64)
    assert_close(idx, want_i, dtype=np.int32)


def test_top_k_errors():
    t = put(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"top_k.*k=4.*f32\[2,3\]"):
        lax.top_k(t, 4)
    with pytest.raises(ValueError, match=r"top_k.*k=-1.*f32\[2,3\]"):
        lax.top_k(t, -1)
    with pytest.raises(ValueError, match=r"top_k.*f32\[\]"):
        lax.top_k(put(np.float32(1)), 0)
    with pytest.raises(TypeError, match=r"top_k.*c64\[2\]"):
        lax.top_k(put(np.ones(2, np.complex64)), 1)
