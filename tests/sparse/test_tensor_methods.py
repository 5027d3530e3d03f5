"""Tensor.to_sparse_coo(sparse_dim) and Tensor.to_sparse_csr() (installed by padax/_battery_aliases.py, loading
padax.sparse at the first call) against Paddle's Tensor methods: indices / crows / cols / values, and the
round trip back through to_dense()."""
import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle

D = np.array([[0., 1, 0, 2], [3, 0, 4, 0], [0, 5, 0, 6]], np.float32)
D3 = np.array([[[0., 1], [2, 0]], [[3, 0], [0, 0]]], np.float32)


def test_methods_exist_after_import_padax():
    t = padax.ones([2, 2])
    assert callable(t.to_sparse_coo) and callable(t.to_sparse_csr)


@pytest.mark.parametrize("dense, sparse_dim", [(D, 2), (D, 1), (D3, 3), (D3, 2), (D3, 1)])
def test_to_sparse_coo_matches_paddle(dense, sparse_dim):
    paddle = paddle_oracle()
    got = padax.to_tensor(dense).to_sparse_coo(sparse_dim)
    want = paddle.to_tensor(dense).to_sparse_coo(sparse_dim)
    assert got.is_sparse_coo() and got.sparse_dim() == sparse_dim and list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(np.asarray(got.indices()), want.indices().numpy())
    np.testing.assert_array_equal(np.asarray(got.values()), want.values().numpy())
    np.testing.assert_array_equal(np.asarray(got.to_dense()), dense)


@pytest.mark.parametrize("dense", [D, D3])
def test_to_sparse_csr_matches_paddle(dense):
    paddle = paddle_oracle()
    got = padax.to_tensor(dense).to_sparse_csr()
    want = paddle.to_tensor(dense).to_sparse_csr()
    assert got.is_sparse_csr() and list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(np.asarray(got.crows()), want.crows().numpy())
    np.testing.assert_array_equal(np.asarray(got.cols()), want.cols().numpy())
    np.testing.assert_array_equal(np.asarray(got.values()), want.values().numpy())
    np.testing.assert_array_equal(np.asarray(got.to_dense()), dense)


def test_bad_sparse_dim_names_the_op():
    with pytest.raises(ValueError, match="to_sparse_coo.*sparse_dim"):
        padax.to_tensor(D).to_sparse_coo(3)
