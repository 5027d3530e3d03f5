"""Inputs the API fuzzer found raising internal errors (IndexError, AttributeError) or a binding's
argument dump: each now gets an error naming the function, or the right answer."""
import numpy as np
import pytest

import padax
import padax.numpy as pnp

T = padax.to_tensor


@pytest.mark.parametrize("call,err,words", [
    (lambda: padax.unstack(T(np.float16(1))), ValueError, ["unbind", "at least one dimension", "f16[]"]),
    (lambda: pnp.take_along_axis(T(1.0), T(np.zeros(2, "int64"))), ValueError, ["take_along_axis", "at least one"]),
    (lambda: pnp.searchsorted(T([1.0, 2.0]), T([1.5]), sorter=T(np.int8(1))), ValueError,
     ["searchsorted", "sorter i8[]", "f32[2]"]),
    (lambda: pnp.cross(2.0, T(np.ones([1, 3]))), ValueError, ["moveaxis", "0-d"]),
    (lambda: padax.hstack(T(np.ones([0, 3, 2]))), TypeError, ["hstack", "list or tuple of Tensors"]),
    (lambda: padax.vstack([]), TypeError, ["vstack", "non-empty"]),
    (lambda: pnp.full_like(T(1.0), 2.0, device=0), TypeError, ["device_put", "device must be a Device", "int"]),
    (lambda: pnp.size(T([1.0]), axis=3), ValueError, ["size", "axis 3 is out of range"]),
    (lambda: pnp.size(T([1.0]), axis=True), TypeError, ["size", "bool"]),
    (lambda: padax.visualize_array_sharding("float128"), TypeError, ["visualize_array_sharding", "str"]),
])
def test_fuzzer_finds_raise_clear_errors(call, err, words):
    with pytest.raises(err) as e:
        call()
    assert all(w in str(e.value) for w in words), str(e.value)


def test_zero_d_reductions_over_axis_zero_keep_the_value():
    assert pnp.nanmin(T(3.0), axis=0).item() == 3.0
    assert pnp.sum(T(2.0), axis=-1, keepdims=True).shape == ()
    assert pnp.max(T(5.0), axis=(0,)).item() == 5.0


def test_stacking_and_device_put_still_work():
    np.testing.assert_array_equal(padax.hstack([T([1.0]), T([2.0])]).numpy(), [1.0, 2.0])
    assert padax.vstack((T([1.0]),)).shape == (1, 1)
    assert padax.device_put(T([1.0]), padax.CPUPlace()).place == padax.CPUPlace()
    assert pnp.full_like(T(1.0), 2.0, device=padax.devices()[0]).item() == 2.0


@pytest.mark.parametrize("call,err,words", [
    (lambda: pnp.split(2.5, 2), ValueError, ["split", "0-d"]),
    (lambda: padax.nn.functional.sequence_mask(T([[True]])), TypeError, ["sequence_mask", "integers", "bool"]),
    (lambda: padax.lax.iota("bool", 3), TypeError, ["iota", "bool"]),
])
def test_more_fuzzer_finds(call, err, words):
    with pytest.raises(err) as e:
        call()
    assert all(w in str(e.value) for w in words), str(e.value)
