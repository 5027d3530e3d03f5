"""Bad input the API fuzzer found raising internal IndexErrors: each now names the op and the problem."""
import numpy as np
import pytest

import padax
import padax.nn.functional as F
import padax.numpy as pnp


def test_insert_refuses_a_2d_index_array():
    a = padax.ones([1, 2, 3], "float16")
    with pytest.raises(ValueError, match=r"insert: obj must be a scalar or 1-D.*\(1, 2\)"):
        pnp.insert(a, padax.to_tensor(np.zeros((1, 2), np.int64)), padax.ones([2, 3]))
    with pytest.raises(ValueError):  # numpy refuses it too
        np.insert(np.ones((1, 2, 3)), np.zeros((1, 2), np.int64), np.ones((2, 3)))


def test_roll_of_a_0d_array_along_an_axis_is_refused():
    with pytest.raises(ValueError, match="roll: axis 0 is out of range for a 0-d array"):
        pnp.roll(-1, 1, axis=0)
    assert pnp.roll(pnp.array(5), 1).tolist() == 5   # axis=None rolls the flattened array


def test_cross_entropy_needs_a_class_axis():
    with pytest.raises(ValueError, match="cross_entropy: input must have a class axis"):
        F.cross_entropy(padax.to_tensor(-1.0), padax.to_tensor([0]))
