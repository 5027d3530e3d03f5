"""lax.ragged_dot against jax.lax.ragged_dot: values, gradients (lhs, rhs), jit and vmap; group_offset against numpy."""
import numpy as np
import pytest

import padax
from padax import lax
from tests.conftest import assert_close

jax = pytest.importorskip("jax")

M, K, N, G = 7, 3, 4, 3
GROUPS = [[2, 3, 2], [0, 5, 1], [3, 0, 0], [0, 0, 0], [7, 0, 0], [1, 1, 1]]   # the last sums to < m


def _data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((M, K)).astype(np.float32), rng.standard_normal((G, K, N)).astype(np.float32)


def _numpy_ragged(lhs, rhs, gs, offset=0):
    out = np.zeros((lhs.shape[0], rhs.shape[2]), np.float64)
    ends = np.cumsum(gs)
    starts = ends - gs
    for j in range(rhs.shape[0]):
        s, e = starts[offset + j], ends[offset + j]
        out[s:e] = lhs[s:e].astype(np.float64) @ rhs[j]
    return out


@pytest.mark.parametrize("gs", GROUPS)
def test_value_and_grads_match_jax(gs):
    lhs, rhs = _data()
    gs = np.array(gs, np.int32)
    got = lax.ragged_dot(lhs, rhs, gs)
    assert_close(got, np.asarray(jax.lax.ragged_dot(lhs, rhs, gs)), rtol=1e-5, atol=1e-5)
    assert_close(got, _numpy_ragged(lhs, rhs, gs).astype(np.float32), rtol=1e-5, atol=1e-5)
    w = np.random.default_rng(1).standard_normal((M, N)).astype(np.float32)
    dl, dr = padax.grad(lambda a, b: (lax.ragged_dot(a, b, gs) * w).sum(), argnums=(0, 1))(lhs, rhs)
    jl, jr = jax.grad(lambda a, b: (jax.lax.ragged_dot(a, b, gs) * w).sum(), argnums=(0, 1))(lhs, rhs)
    assert_close(dl, np.asarray(jl), rtol=1e-5, atol=1e-5)
    assert_close(dr, np.asarray(jr), rtol=1e-5, atol=1e-5)


def test_jit_with_traced_group_sizes():
    lhs, rhs = _data()
    f = padax.jit(lax.ragged_dot)
    for gs in GROUPS[:3]:
        gs = np.array(gs, np.int32)
        assert_close(f(lhs, rhs, gs), np.asarray(jax.lax.ragged_dot(lhs, rhs, gs)), rtol=1e-5, atol=1e-5)


def test_vmap_over_all_arguments():
    rng = np.random.default_rng(2)
    lhs = rng.standard_normal((2, M, K)).astype(np.float32)
    rhs = rng.standard_normal((2, G, K, N)).astype(np.float32)
    gs = np.array([[2, 3, 2], [0, 6, 0]], np.int32)
    got = padax.vmap(lax.ragged_dot)(lhs, rhs, gs)
    want = jax.vmap(jax.lax.ragged_dot)(lhs, rhs, gs)
    assert_close(got, np.asarray(want), rtol=1e-5, atol=1e-5)
    got = padax.vmap(lax.ragged_dot, in_axes=(0, None, None))(lhs, rhs[0], gs[0])
    assert_close(got, np.stack([_numpy_ragged(x, rhs[0], gs[0]) for x in lhs]).astype(np.float32),
                 rtol=1e-5, atol=1e-5)


def test_preferred_element_type_and_bf16():
    import ml_dtypes
    lhs, rhs = _data()
    gs = np.array([2, 3, 2], np.int32)
    out = lax.ragged_dot(lhs.astype(ml_dtypes.bfloat16), rhs.astype(ml_dtypes.bfloat16), gs,
                         preferred_element_type=np.float32)
    assert out.dtype == np.float32
    assert_close(out, _numpy_ragged(lhs, rhs, gs).astype(np.float32), rtol=3e-2, atol=5e-2)


def test_group_offset_selects_a_shard_of_groups():
    lhs, rhs = _data()
    gs = np.array([2, 3, 2], np.int32)
    for off in (0, 1):
        got = lax.ragged_dot(lhs, rhs[off:off + 2], gs, group_offset=np.array([off], np.int32))
        assert_close(got, _numpy_ragged(lhs, rhs[off:off + 2], gs, off).astype(np.float32), rtol=1e-5, atol=1e-5)


def test_shape_errors_name_the_op():
    lhs, rhs = _data()
    with pytest.raises(Exception, match="ragged_dot"):
        lax.ragged_dot(lhs, rhs, np.array([1, 2], np.int32))
    with pytest.raises(Exception, match="ragged_dot"):
        lax.ragged_dot(lhs, rhs[:, :2], np.array([1, 2, 3], np.int32))


def test_jvp_matches_jax():
    lhs, rhs = _data()
    tl, tr = _data(5)
    gs = np.array([0, 5, 1], np.int32)
    out, tan = padax.jvp(lambda a, b: lax.ragged_dot(a, b, gs), (lhs, rhs), (tl, tr))
    jout, jtan = jax.jvp(lambda a, b: jax.lax.ragged_dot(a, b, gs), (lhs, rhs), (tl, tr))
    assert_close(out, np.asarray(jout), rtol=1e-5, atol=1e-5)
    assert_close(tan, np.asarray(jtan), rtol=1e-5, atol=1e-5)
