"""SyncBatchNorm across devices: under shard_map its statistics are the global batch's (8 CPU devices)."""
import numpy as np
import pytest

import padax
from padax import nn
from padax.sharding import P

pytestmark = pytest.mark.spmd


def test_sync_batchnorm_under_shard_map_equals_batchnorm_on_the_whole_batch(mesh8):
    x = np.random.default_rng(0).standard_normal((32, 3)).astype(np.float32) * 2 + 1
    sync, plain = nn.SyncBatchNorm(3, axis_name="i"), nn.BatchNorm1D(3)

    def local(m, xb):
        return m(xb), m._mean, m._variance

    out, mean, var = padax.shard_map(local, mesh8, (P(), P("i")), (P("i"), P(), P()))(sync, padax.to_tensor(x))
    ref = plain(padax.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mean.numpy(), plain._mean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.numpy(), plain._variance.numpy(), rtol=1e-5, atol=1e-6)
