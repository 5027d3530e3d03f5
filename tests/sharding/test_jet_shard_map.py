"""padax.jet through shard_map and collectives equals the jet of the same computation unsharded."""
import numpy as np
import pytest

import padax
from padax import lax
from padax.sharding import P

pytestmark = pytest.mark.spmd

A = np.arange(64, dtype=np.float32).reshape(16, 4) / 17.0
SERIES = [np.cos(A * (k + 1)).astype(np.float32) for k in range(3)]


def test_jet_through_shard_map_and_collectives(mesh8):
    def block(b):
        s = lax.sin(b) * lax.exp(b)
        return lax.psum(s, "i"), lax.pmax(lax.tanh(b), "i"), lax.all_gather(s, "i", axis=0, tiled=True)

    f = padax.shard_map(block, mesh8, P("i"), (P(), P(), P()))

    def unsharded(a):
        s = lax.sin(a) * lax.exp(a)
        blocks = s.reshape(8, 2, 4)
        return blocks.sum(0), lax.tanh(a).reshape(8, 2, 4).max(0), s

    for fn in (f, padax.jit(f)):
        out, terms = padax.jet(fn, (A,), (SERIES,))
        want, want_terms = padax.jet(unsharded, (A,), (SERIES,))
        for o, w in zip(out, want):
            np.testing.assert_allclose(np.asarray(o), np.asarray(w), rtol=1e-5, atol=1e-6)
        for ts, ws in zip(terms, want_terms):
            for t, w in zip(ts, ws):
                np.testing.assert_allclose(np.asarray(t), np.asarray(w), rtol=1e-4, atol=1e-4)
