"""padax.io.DataLoader with a data-parallel sharding: every batch lands split over the 8 devices."""
import numpy as np
import pytest

import padax
from padax import io

pytestmark = pytest.mark.spmd


class Rows(io.Dataset):
    def __getitem__(self, i):
        return np.full((3,), i, np.float32), np.int64(i)

    def __len__(self):
        return 20


def test_loader_batches_are_sharded_over_the_mesh(mesh8):
    sharding = padax.NamedSharding(mesh8, padax.P("i"))
    loader = io.DataLoader(Rows(), batch_size=8, drop_last=True, sharding=sharding)
    batches = list(loader)
    assert len(batches) == 2
    x, y = batches[1]
    assert x.sharding == sharding and y.sharding == sharding
    np.testing.assert_array_equal(np.asarray(y), np.arange(8, 16))
    np.testing.assert_array_equal(np.asarray(x)[:, 0], np.arange(8, 16))
    with pytest.raises(ValueError, match=r"shape \(4, 3\).*drop_last=True"):
        list(io.DataLoader(Rows(), batch_size=8, sharding=sharding))
