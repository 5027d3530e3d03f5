"""dot_general and dot against numpy (einsum), eagerly and under jit; shape/dtype errors."""
import ml_dtypes
import numpy as np
import pytest

import padax
import padax.lax as lax
from tests.conftest import assert_close, rand, tol

BF16 = ml_dtypes.bfloat16
# float32 tolerance: accelerators may run f32 matmuls with TF32 inputs by default
F32_TOL = 1e-5 if padax.default_device().platform == "cpu" else 1e-2


def put(x):
    """device_put that also takes bfloat16 host arrays (numpy reports their kind as 'V')."""
    x = np.asarray(x)
    return padax.device_put(x.astype(np.float32), dtype=BF16) if x.dtype == BF16 else padax.device_put(x)


def call(f, jit, *args):
    out = padax.jit(f)(*args) if jit else f(*args)
    return out.numpy()


def _ref(x, y, dn, out_dtype):
    """numpy reference: einsum over the dimension numbers, accumulated in 64 bits."""
    (lc, rc), (lb, rb) = dn
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    ls = [next(letters) for _ in range(x.ndim)]
    rs = [next(letters) for _ in range(y.ndim)]
    for a, b in list(zip(lc, rc)) + list(zip(lb, rb)):
        rs[b] = ls[a]
    out = ([ls[i] for i in lb] + [c for i, c in enumerate(ls) if i not in lc and i not in lb]
           + [c for i, c in enumerate(rs) if i not in rc and i not in rb])
    acc = {"f": np.float64, "V": np.float64, "c": np.complex128, "i": np.int64, "u": np.uint64}[
        np.dtype(x.dtype).kind]
    r = np.einsum(f"{''.join(ls)},{''.join(rs)}->{''.join(out)}", x.astype(acc), y.astype(acc))
    return r.astype(out_dtype)


CASES = [  # lhs shape, rhs shape, dimension numbers
    ((3,), (3,), (((0,), (0,)), ((), ()))),                  # vector . vector
    ((4, 3), (3,), (((1,), (0,)), ((), ()))),                # matrix-vector
    ((4, 3), (3, 5), (((1,), (0,)), ((), ()))),              # matmul
    ((3, 4), (3, 5), (((0,), (0,)), ((), ()))),              # x.T @ y
    ((2, 4, 3), (2, 3, 5), (((2,), (1,)), ((0,), (0,)))),    # batched matmul
    ((4, 2, 3), (3, 5, 2), (((2,), (0,)), ((1,), (2,)))),    # batch dims not leading
    ((2, 3, 4), (3, 4, 5), (((1, 2), (0, 1)), ((), ()))),    # two contracting dims
    ((2, 3), (4, 5), (((), ()), ((), ()))),                  # outer product
]


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("lshape,rshape,dn", CASES)
def test_dot_general_shapes_float32(lshape, rshape, dn, jit):
    x, y = rand(lshape, np.float32), rand(rshape, np.float32, np.random.default_rng(1))
    out = call(lambda a, b: lax.dot_general(a, b, dn), jit, put(x), put(y))
    assert_close(out, _ref(x, y, dn, np.float32), np.float32, rtol=F32_TOL, atol=F32_TOL)


@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.uint8, np.float16, BF16, np.complex64])
def test_dot_general_dtypes(dtype):
    dn = (((2,), (1,)), ((0,), (0,)))
    x = rand((2, 3, 4), dtype, low=-2, high=2)
    y = rand((2, 4, 5), dtype, np.random.default_rng(1), low=-2, high=2)
    for jit in (False, True):
        out = call(lambda a, b: lax.dot_general(a, b, dn), jit, put(x), put(y))
        assert out.dtype == np.dtype(dtype)
        assert_close(out, _ref(x, y, dn, dtype), dtype, rtol=tol(dtype, 4), atol=tol(dtype, 4) * 4)


def test_dot_general_float64(x64):
    x, y = rand((3, 4), np.float64), rand((4, 2), np.float64, np.random.default_rng(1))
    out = lax.dot(put(x), put(y))
    assert out.dtype == np.float64
    assert_close(out.numpy(), x @ y, np.float64)


def test_dot_general_float64_without_x64_is_float32():
    x = rand((3, 4), np.float64)
    assert lax.dot(put(x), put(x.T)).dtype == np.float64
    with padax.enable_x64(False):
        out = lax.dot(put(x), put(x.T))
        assert out.dtype == np.float32


@pytest.mark.parametrize("in_dtype,pref", [(np.int8, np.int32), (BF16, np.float32),
                                           (np.float16, np.float32), (np.int8, np.float32)])
def test_preferred_element_type(in_dtype, pref):
    x = rand((4, 6), in_dtype, low=-4, high=4)
    y = rand((6, 3), in_dtype, np.random.default_rng(1), low=-4, high=4)
    dn = (((1,), (0,)), ((), ()))
    for jit in (False, True):
        out = call(lambda a, b: lax.dot_general(a, b, dn, preferred_element_type=pref), jit, put(x), put(y))
        assert out.dtype == np.dtype(pref)
        assert_close(out, _ref(x, y, dn, pref), pref, rtol=F32_TOL, atol=F32_TOL)


def test_int8_accumulates_in_preferred_type_without_overflow():
    x = np.full((1, 64), 100, np.int8)
    y = np.full((64, 1), 100, np.int8)
    out = lax.dot(put(x), put(y), preferred_element_type=np.int32)
    assert out.numpy()[0, 0] == 64 * 100 * 100


def test_dot_wrapper_and_weak_type():
    x, y = rand((2, 3), np.float32), rand((3,), np.float32)
    assert_close(lax.dot(put(x), put(y)).numpy(), x @ y, np.float32)
    assert_close(lax.dot(x, y).numpy(), x @ y, np.float32)  # host arrays are accepted
    out = lax.dot_general(put(x), put(x.T), (((1,), (0,)), ((), ())))
    assert out.shape == (2, 2) and not out.weak_type


def test_jaxpr_records_dimension_numbers():
    jaxpr = padax.make_jaxpr(lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((), ()))))(
        put(np.ones((2, 3), np.float32)), put(np.ones((3, 4), np.float32)))
    assert "dot_general" in str(jaxpr) and "f32[2,4]" in str(jaxpr)


# ---- errors -------------------------------------------------------------------------

def test_error_mismatched_contracting_sizes():
    a, b = put(np.ones((2, 3), np.float32)), put(np.ones((4, 5), np.float32))
    with pytest.raises(TypeError, match=r"dot_general: contracting dimensions must have equal sizes, "
                                        r"got \(3,\) .* \(4,\).*f32\[2,3\].*f32\[4,5\]"):
        lax.dot_general(a, b, (((1,), (0,)), ((), ())))


def test_error_mismatched_batch_sizes():
    a, b = put(np.ones((2, 3, 4), np.float32)), put(np.ones((5, 4, 6), np.float32))
    with pytest.raises(TypeError, match="batch dimensions must have equal sizes"):
        lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))


def test_error_unpaired_contracting_dims():
    a, b = put(np.ones((2, 3), np.float32)), put(np.ones((3, 2), np.float32))
    with pytest.raises(TypeError, match="same number of contracting dimensions"):
        lax.dot_general(a, b, (((0, 1), (0,)), ((), ())))


def test_error_out_of_range_and_repeated_dims():
    a, b = put(np.ones((2, 3), np.float32)), put(np.ones((3, 2), np.float32))
    with pytest.raises(ValueError, match="out of range for rank 2"):
        lax.dot_general(a, b, (((2,), (0,)), ((), ())))
    with pytest.raises(ValueError, match="repeat"):
        lax.dot_general(a, b, (((1,), (0,)), ((1,), (0,))))


def test_error_dtype_mismatch_and_bad_preferred_type():
    a, b = put(np.ones((2, 3), np.float32)), put(np.ones((3, 2), np.int32))
    with pytest.raises(TypeError, match=r"dot_general: operands must have the same dtype.*f32\[2,3\].*i32\[3,2\]"):
        lax.dot(a, b)
    with pytest.raises(TypeError, match="preferred_element_type int32 is not compatible"):
        lax.dot(a, put(np.ones((3, 2), np.float32)), preferred_element_type=np.int32)
    with pytest.raises(TypeError, match="preferred_element_type float16 is not compatible"):
        lax.dot(a, put(np.ones((3, 2), np.float32)), preferred_element_type=np.float16)


def test_error_under_jit_names_user_line():
    def f(a, b):
        return lax.dot(a, b)
    with pytest.raises(TypeError, match=r"dot_general.*test_dot\.py:\d+"):
        padax.jit(f)(put(np.ones((2, 3), np.float32)), put(np.ones((2, 3), np.float32)))
