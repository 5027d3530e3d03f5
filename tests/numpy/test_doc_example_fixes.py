"""Bugs found while writing padax.numpy's docstring examples, checked against NumPy / jax.numpy."""
import numpy as np

import padax.numpy as pnp
from padax.devices.array import Tensor


def test_array_equal_and_equiv_of_mismatched_shapes_are_0d_bool_arrays():
    # jax.numpy returns a 0-d bool array whatever the shapes; padax returned a numpy scalar when they differed
    for got in (pnp.array_equal(pnp.array([1, 2]), pnp.array([1, 2, 3])),
                pnp.array_equiv(pnp.array([1, 2]), pnp.array([1, 2, 3]))):
        assert isinstance(got, Tensor)
        assert got.shape == () and got.dtype == np.bool_ and got.tolist() is False
    assert pnp.array_equal(pnp.array([1, 2]), pnp.array([1, 2])).tolist() is True
