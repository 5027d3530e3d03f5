"""`padax.sparse`: Paddle's sparse tensors (paddle.sparse): COO and CSR layouts and their math.

`SparseCooTensor` (indices [sparse_dim, nnz], values [nnz, ...]) and `SparseCsrTensor` (crows,
cols, values; 2-D or batched 3-D) are pytrees with a static nnz, so `padax.jit`, `padax.grad` and
`padax.vmap` take them. Everything lowers to padax's gather / scatter-add. Results whose pattern
depends on index values (coalesce, unions in add/subtract/multiply, slice, sum over sparse axes,
sparse @ sparse) compute that pattern on the host from concrete indices; values stay traceable.
"""
from padax.sparse import nn
from padax.sparse._ops import (
    abs, add, addmm, asin, asinh, atan, atanh, cast, coalesce, deg2rad, divide, expm1, is_same_shape, isnan, log1p,
    mask_as, masked_matmul, matmul, multiply, mv, neg, pca_lowrank, pow, rad2deg, reshape, sin, sinh, slice, sparse_coo_tensor,
    sparse_csr_tensor, sqrt, square, subtract, sum, tan, tanh, to_dense, to_sparse_coo, to_sparse_csr, transpose,
)
from padax.sparse._tensor import SparseCooTensor, SparseCsrTensor

__all__ = ["SparseCooTensor", "SparseCsrTensor", "abs", "add", "addmm", "asin", "asinh", "atan", "atanh", "cast",
           "coalesce", "deg2rad", "divide", "expm1", "is_same_shape", "isnan", "log1p", "mask_as", "masked_matmul",
           "matmul", "multiply", "mv", "neg", "nn", "pca_lowrank", "pow", "rad2deg", "reshape", "sin", "sinh", "slice",
           "sparse_coo_tensor", "sparse_csr_tensor", "sqrt", "square", "subtract", "sum", "tan", "tanh", "to_dense",
           "to_sparse_coo", "to_sparse_csr", "transpose"]
