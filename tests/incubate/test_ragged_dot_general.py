"""padax.lax.ragged_dot_general against jax.lax.ragged_dot_general (its three modes, 1-D and batched
group_sizes, under jit, grad and vmap)."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from padax import lax
from padax.test_util import check_grads

jax = pytest.importorskip("jax")
jlax = jax.lax
RNG = np.random.default_rng(0)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# (lhs shape, rhs shape, group_sizes, dot dims, lhs ragged, rhs group)
CASES = [
    ((5, 3), (2, 3, 4), np.array([2, 3]), (([1], [1]), ([], [])), [0], [0]),                   # ragged_dot
    ((5, 3), (2, 3, 4), np.array([1, 2]), (([1], [1]), ([], [])), [0], [0]),                   # rows left over
    ((2, 5, 3), (3, 2, 3, 4), np.array([[1, 2, 2], [4, 0, 1]]), (([2], [2]), ([0], [1])), [1], [0]),  # batched
    ((3, 6), (6, 4), np.array([2, 1, 3]), (([1], [0]), ([], [])), [1], []),                    # ragged k
    ((2, 3, 6), (2, 6, 4), np.array([[2, 4], [5, 1]]), (([2], [1]), ([0], [0])), [2], []),     # ragged k, batched
    ((4, 3, 2), (4, 2, 5), np.array([1, 3]), (([2], [1]), ([0], [0])), [0], []),               # ragged batch
    ((3, 5, 2), (2, 2, 4), np.array([2, 3]), (([2], [1]), ([], [])), [1], [0]),                # m after a free dim
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_ragged_dot_general_matches_jax(case):
    ls, rs, gs, dd, lr, rg = CASES[case]
    lhs, rhs, gs = f32(*ls), f32(*rs), gs.astype(np.int32)
    ref = jlax.ragged_dot_general(lhs, rhs, gs, jlax.RaggedDotDimensionNumbers(dd, lr, rg))
    dn = lax.RaggedDotDimensionNumbers(dd, lr, rg)
    out = padax.jit(lambda a, b, g: lax.ragged_dot_general(a, b, g, dn))(lhs, rhs, gs)
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=1e-5, atol=1e-5)

    def jloss(a, b):
        return (jlax.ragged_dot_general(a, b, gs, jlax.RaggedDotDimensionNumbers(dd, lr, rg)) ** 2).sum()

    def ploss(a, b):
        return (lax.ragged_dot_general(a, b, gs, dn) ** 2).sum()
    if not rg:  # jax has no gradient in the contracting and batch modes: check numerically (float64)
        check_grads(lambda a, b: lax.ragged_dot_general(a, b, gs, dn), (lhs.astype(np.float64),
                    rhs.astype(np.float64)), order=1, modes=("rev",))
        return
    for mine, theirs in zip(padax.grad(ploss, argnums=(0, 1))(lhs, rhs), jax.grad(jloss, argnums=(0, 1))(lhs, rhs)):
        np.testing.assert_allclose(np.asarray(mine), np.asarray(theirs), rtol=1e-4, atol=1e-4)


def test_ragged_dot_general_vmap_and_errors():
    lhs, rhs, gs = f32(3, 5, 3), f32(2, 3, 4), np.array([2, 3], np.int32)
    dn = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])
    out = padax.vmap(lambda a: lax.ragged_dot_general(a, rhs, gs, dn))(lhs)
    jdn = jlax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])
    ref = np.stack([jlax.ragged_dot_general(a, rhs, gs, jdn) for a in lhs])   # (jax's vmap of it is NYI)
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(lax.ragged_dot_general(lhs[0], rhs, gs, dn)),
                               np.asarray(lax.ragged_dot(lhs[0], rhs, gs)), rtol=1e-6)
    with pytest.raises(ValueError, match="ragged_dot_general.*3 groups|ragged_dot_general.*groups"):
        lax.ragged_dot_general(lhs[0], rhs, np.array([1, 2, 2], np.int32), dn)
    with pytest.raises(TypeError, match="ragged_dot_general.*RaggedDotDimensionNumbers"):
        lax.ragged_dot_general(lhs[0], rhs, gs, (((1,), (1,)), ((), ())))
    with pytest.raises(ValueError, match="ragged_dot_general.*group_offset"):
        lax.ragged_dot_general(lhs[0], rhs, gs, dn, group_offset=np.array([0], np.int32))
