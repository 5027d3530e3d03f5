"""padax.scipy.spatial (cdist, Rotation) against scipy.spatial."""
import itertools

import numpy as np
import pytest
from scipy.spatial import distance as sd
from scipy.spatial.transform import Rotation as SR

import padax
from padax.scipy.spatial import distance as pd
from padax.scipy.spatial.transform import Rotation as R
from padax.test_util import check_grads

RNG = np.random.default_rng(4)


@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski", "cosine",
                                    "correlation", "braycurtis", "canberra"])
def test_cdist_matches_scipy(metric):
    A, B = RNG.standard_normal((5, 3)), RNG.standard_normal((4, 3))
    kw = {"p": 3.0} if metric == "minkowski" else {}
    np.testing.assert_allclose(np.asarray(pd.cdist(A, B, metric, **kw)), sd.cdist(A, B, metric, **kw), rtol=1e-12)


def test_cdist_gradient_finite_at_coincident_points():
    A = RNG.standard_normal((3, 2))
    g = padax.grad(lambda a: pd.cdist(a, A).sum())(A)
    assert np.isfinite(np.asarray(g)).all()
    check_grads(lambda a, b: pd.cdist(a, b), (A, RNG.standard_normal((2, 2))), order=1)
    with pytest.raises(ValueError, match="columns"):
        pd.cdist(np.ones((2, 3)), np.ones((2, 2)))


def test_rotation_conversions_match_scipy():
    q = RNG.standard_normal((6, 4))
    r, s = R.from_quat(q), SR.from_quat(q)
    np.testing.assert_allclose(np.asarray(r.as_matrix()), s.as_matrix(), atol=1e-14)
    np.testing.assert_allclose(np.asarray(R.from_matrix(s.as_matrix()).as_quat(canonical=True)),
                               s.as_quat(canonical=True), atol=1e-14)
    np.testing.assert_allclose(np.asarray(r.as_rotvec()), s.as_rotvec(), atol=1e-14)
    np.testing.assert_allclose(np.asarray(R.from_rotvec(s.as_rotvec(degrees=True), degrees=True).as_matrix()),
                               s.as_matrix(), atol=1e-13)
    for seq in ["".join(p) for p in itertools.product("xyz", repeat=3) if p[0] != p[1] and p[1] != p[2]]:
        for s_ in (seq, seq.upper()):
            np.testing.assert_allclose(np.asarray(r.as_euler(s_)), s.as_euler(s_), atol=1e-12)
            np.testing.assert_allclose(np.asarray(R.from_euler(s_, s.as_euler(s_, degrees=True),
                                                               degrees=True).as_matrix()), s.as_matrix(),
                                       atol=1e-12)
    v = RNG.standard_normal((6, 3))
    np.testing.assert_allclose(np.asarray(r.apply(v)), s.apply(v), atol=1e-14)
    np.testing.assert_allclose(np.asarray(r.apply(v, inverse=True)), s.apply(v, inverse=True), atol=1e-14)
    np.testing.assert_allclose(np.asarray((r * r.inv()).magnitude()), np.zeros(6), atol=1e-7)
    np.testing.assert_allclose(np.asarray((r[0] * r[1]).as_matrix()), (s[0] * s[1]).as_matrix(), atol=1e-14)
    with pytest.raises(ValueError, match="seq"):
        R.from_euler("xxy", np.zeros(3))


def test_rotation_is_a_pytree_under_jit_and_grad():
    f = padax.jit(lambda v: R.from_rotvec(v))
    r = f(np.array([0.1, -0.2, 0.3]))
    np.testing.assert_allclose(np.asarray(r.as_matrix()), SR.from_rotvec([0.1, -0.2, 0.3]).as_matrix(), atol=1e-14)
    check_grads(lambda v: R.from_rotvec(v).apply(np.array([1.0, 2.0, 3.0])), (np.array([0.1, -0.2, 0.3]),), order=1)
    check_grads(lambda v: R.from_rotvec(v).as_rotvec(), (np.array([1e-5, 2e-5, 0.0]),), order=1)
