"""padax.sparse against Paddle (paddle.sparse, CPU): creation, conversion, coalesce order, elementwise
(union patterns, Paddle's shortcut for one pattern, divide's full pattern), unary maps, transpose /
reshape / sum / slice, the sparse.nn activations; matmul, mv, masked_matmul and addmm against numpy
(Paddle 3.3 has no CPU kernels for them); numerical gradients; jit / vmap / grad of sparse matmul."""
import numpy as np
import pytest

import padax
import padax.sparse as S
from padax.test_util import check_grads
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(7)
D = np.array([[0., 1, 0, 2], [3, 0, 4, 0], [0, 5, 0, 6]], np.float32)
E = np.array([[1., 0, 0, 2], [0, 0, 5, 0], [0, 0, 0, 7]], np.float32)
D3 = np.array([[[0., 1], [2, 0]], [[3, 0], [0, 0]]], np.float32)


def _close(got, want, tol=1e-5):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=tol, atol=tol)


def _same_coo(got, want):
    """A padax COO tensor equals a Paddle one: shape, indices (order included), values."""
    assert got.is_sparse_coo() and want.is_sparse_coo()
    assert list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(np.asarray(got.indices()), want.indices().numpy())
    _close(got.values(), want.values().numpy())


def _same_csr(got, want):
    assert got.is_sparse_csr() and want.is_sparse_csr()
    assert list(got.shape) == list(want.shape)
    np.testing.assert_array_equal(np.asarray(got.crows()), want.crows().numpy())
    np.testing.assert_array_equal(np.asarray(got.cols()), want.cols().numpy())
    _close(got.values(), want.values().numpy())


def _same(got, want):
    (_same_coo if want.is_sparse_coo() else _same_csr)(got, want)


def _both(dense, layout, sparse_dim=None):
    paddle = paddle_oracle()
    t = paddle.to_tensor(dense)
    if layout == "coo":
        sd = dense.ndim if sparse_dim is None else sparse_dim
        return S.to_sparse_coo(padax.to_tensor(dense), sd), t.to_sparse_coo(sd)
    return S.to_sparse_csr(padax.to_tensor(dense)), t.to_sparse_csr()


# ---------------------------------------------------------------- creation and conversion

def test_sparse_coo_tensor_matches_paddle():
    paddle = paddle_oracle()
    idx, val = [[0, 1, 2, 1], [1, 2, 0, 3]], [1., 2., 3., 4.]
    for shape in (None, [4, 5]):
        got = S.sparse_coo_tensor(idx, val, shape)
        want = paddle.sparse.sparse_coo_tensor(idx, val, shape)
        _same_coo(got, want)
        _close(got.to_dense(), want.to_dense().numpy())
        assert got.nnz() == want.nnz() and got.indices().dtype == padax.int64
    # duplicates add up in to_dense (Paddle 3.3 keeps the last one; coalesce-then-densify agrees)
    dup = S.sparse_coo_tensor([[1, 0, 1], [2, 1, 2]], [1., 2., 4.], [3, 3])
    pdup = paddle.sparse.coalesce(paddle.sparse.sparse_coo_tensor([[1, 0, 1], [2, 1, 2]], [1., 2., 4.], [3, 3]))
    _close(dup.to_dense(), pdup.to_dense().numpy())
    hv = RNG.standard_normal((2, 3)).astype(np.float32)
    got = S.sparse_coo_tensor([[0, 2]], hv, dtype="float64")
    want = paddle.sparse.sparse_coo_tensor([[0, 2]], hv, dtype="float64")
    _same_coo(got, want)
    assert got.dtype == padax.float64 and got.sparse_dim() == 1 and got.dense_dim() == 1
    _close(got.to_dense(), want.to_dense().numpy())
    with pytest.raises(ValueError, match="same nnz"):
        S.sparse_coo_tensor([[0, 1]], [1.])
    with pytest.raises(TypeError, match="integer"):
        S.sparse_coo_tensor([[0.5, 1.]], [1., 2.])


def test_sparse_csr_tensor_matches_paddle():
    paddle = paddle_oracle()
    crows, cols, vals = [0, 2, 3, 5], [1, 3, 2, 0, 1], [1., 2., 3., 4., 5.]
    for shape in (None, [3, 4]):
        got = S.sparse_csr_tensor(crows, cols, vals, shape)
        want = paddle.sparse.sparse_csr_tensor(crows, cols, vals, shape)
        _same_csr(got, want)
        _close(got.to_dense(), want.to_dense().numpy())
    c3, k3, v3 = [0, 1, 2, 0, 1, 1], [1, 0, 0], [1., 2., 3.]
    got = S.sparse_csr_tensor(c3, k3, v3)
    want = paddle.sparse.sparse_csr_tensor(c3, k3, v3, [2, 2, 2])
    assert got.shape == (2, 2, 2)
    _close(got.to_dense(), want.to_dense().numpy())
    with pytest.raises(ValueError, match="crows needs"):
        S.sparse_csr_tensor([0, 1], [0], [1.], [2, 2])


@pytest.mark.parametrize("dense,sd", [(D, 2), (D3, 3), (D3, 2), (D3, 1)])
def test_to_sparse_coo_matches_paddle(dense, sd):
    got, want = _both(dense, "coo", sd)
    _same_coo(got, want)
    _close(got.to_dense(), dense)
    assert got.to_sparse_coo() is got and S.to_dense(got).shape == dense.shape


@pytest.mark.parametrize("dense", [D, D3])
def test_to_sparse_csr_and_back_match_paddle(dense):
    got, want = _both(dense, "csr")
    _same_csr(got, want)
    _close(got.to_dense(), dense)
    _same_coo(got.to_sparse_coo(), want.to_sparse_coo(dense.ndim))
    coo, _ = _both(dense, "coo")
    _same_csr(coo.to_sparse_csr(), want)
    assert got.is_sparse() and not got.is_sparse_coo() and got.nnz() == want.nnz()


def test_coalesce_sorts_and_sums_as_paddle():
    paddle = paddle_oracle()
    idx = RNG.integers(0, 3, (2, 12)).astype(np.int64)
    val = RNG.standard_normal(12).astype(np.float32)
    x = S.sparse_coo_tensor(idx, val, [3, 3])
    got = S.coalesce(x)
    want = paddle.sparse.coalesce(paddle.sparse.sparse_coo_tensor(idx, val, [3, 3]))
    _same_coo(got, want)
    _close(x.to_dense(), want.to_dense().numpy())
    hv = RNG.standard_normal((12, 2)).astype(np.float32)
    _same_coo(S.sparse_coo_tensor(idx, hv, [3, 3, 2]).coalesce(),
              paddle.sparse.coalesce(paddle.sparse.sparse_coo_tensor(idx, hv, [3, 3, 2])))


# ---------------------------------------------------------------- elementwise

@pytest.mark.parametrize("layout", ["coo", "csr"])
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide"])
def test_binary_matches_paddle(layout, op):
    paddle = paddle_oracle()
    (a, pa), (b, pb) = _both(D, layout), _both(E, layout)
    with np.errstate(divide="ignore", invalid="ignore"):
        _same(getattr(S, op)(a, b), getattr(paddle.sparse, op)(pa, pb))
        _same(getattr(S, op)(a, a), getattr(paddle.sparse, op)(pa, pa))


def test_binary_one_uncoalesced_pattern_is_kept_as_paddle():
    paddle = paddle_oracle()
    idx, val = [[1, 0, 1, 0], [2, 1, 2, 0]], [1., 2., 3., 4.]
    x = S.sparse_coo_tensor(idx, val, [3, 3])
    px = paddle.sparse.sparse_coo_tensor(idx, val, [3, 3])
    _same_coo(S.add(x, x), paddle.sparse.add(px, px))
    # Paddle 3.3's subtract / multiply of this uncoalesced tensor with itself pair the two (1, 2) entries
    # crosswise (1 - 3, 1 * 3); padax works entry by entry, so the dense results agree with coalescing first
    _close((x * x).values(), np.square(val))
    _close((x - x).values(), np.zeros(4))
    np.testing.assert_array_equal(np.asarray((x * x).indices()), np.asarray(idx))


def test_binary_refuses_dense_and_mixed_layouts():
    a, _ = _both(D, "coo")
    c, _ = _both(D, "csr")
    with pytest.raises(TypeError, match="sparse-dense"):
        S.add(a, padax.to_tensor(D))
    with pytest.raises(TypeError, match="one layout"):
        S.multiply(a, c)
    _close(S.divide(a, 2.0).values(), np.asarray(a.values()) / 2)
    assert S.is_same_shape(a, c) and not S.is_same_shape(a, padax.zeros([2]))


def test_mask_as_matches_paddle():
    paddle = paddle_oracle()
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    for layout in ("coo", "csr"):
        m, pm = _both(D, layout)
        _same(S.mask_as(padax.to_tensor(x), m), paddle.sparse.mask_as(paddle.to_tensor(x), pm))


# ---------------------------------------------------------------- unary

UNARY = ["sin", "tan", "asin", "atan", "sinh", "tanh", "asinh", "atanh", "sqrt", "square", "log1p", "expm1",
         "abs", "neg", "deg2rad", "rad2deg"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_paddle(name):
    paddle = paddle_oracle()
    dense = np.where(D != 0, D / 7.0 - (0 if name in ("sqrt", "log1p") else 0.4), 0).astype(np.float32)
    for layout in ("coo", "csr"):
        x, px = _both(dense, layout)
        _same(getattr(S, name)(x), getattr(paddle.sparse, name)(px))


def test_pow_cast_isnan_match_paddle():
    paddle = paddle_oracle()
    x, px = _both(D, "coo")
    _same_coo(S.pow(x, 3), paddle.sparse.pow(px, 3))
    got, want = S.cast(x, "int32", "float64"), paddle.sparse.cast(px, "int32", "float64")
    _same_coo(got, want)
    assert got.indices().dtype == padax.int32 and got.dtype == padax.float64
    c, pc = _both(D, "csr")
    got, want = S.cast(c, "int32", "float64"), paddle.sparse.cast(pc, "int32", "float64")
    _same_csr(got, want)
    assert got.crows().dtype == padax.int32
    nan = np.where(D == 5, np.nan, D).astype(np.float32)
    for layout in ("coo", "csr"):
        y, py = _both(nan, layout)
        got, want = S.isnan(y), paddle.sparse.isnan(py)
        np.testing.assert_array_equal(np.asarray(got.values()), want.values().numpy())
        assert got.dtype == padax.bool
    assert (-x).values().tolist() == (-np.asarray(x.values())).tolist() and abs(-x).values().tolist() == \
        x.values().tolist()


# ---------------------------------------------------------------- shape

def test_transpose_matches_paddle():
    paddle = paddle_oracle()
    x, px = _both(D, "coo")
    _same_coo(S.transpose(x, [1, 0]), paddle.sparse.transpose(px, [1, 0]))   # entry order kept
    c, pc = _both(D, "csr")
    _same_csr(S.transpose(c, [1, 0]), paddle.sparse.transpose(pc, [1, 0]))   # rows re-sorted
    c3, pc3 = _both(D3, "csr")
    _same_csr(S.transpose(c3, [0, 2, 1]), paddle.sparse.transpose(pc3, [0, 2, 1]))
    x3, px3 = _both(D3, "coo")
    _same_coo(S.transpose(x3, [2, 0, 1]), paddle.sparse.transpose(px3, [2, 0, 1]))


@pytest.mark.parametrize("layout,shape", [("coo", [12]), ("coo", [2, -1]), ("coo", [2, 3, 2]), ("csr", [2, 6]),
                                          ("csr", [3, 2, 2])])
def test_reshape_matches_paddle(layout, shape):
    paddle = paddle_oracle()
    x, px = _both(D, layout)
    _same(S.reshape(x, shape), paddle.sparse.reshape(px, shape))


@pytest.mark.parametrize("axis,keepdim", [(None, False), (None, True), (0, False), (1, True), (-1, False)])
def test_sum_coo_matches_paddle(axis, keepdim):
    paddle = paddle_oracle()
    x, px = _both(D, "coo")
    got, want = S.sum(x, axis, keepdim=keepdim), paddle.sparse.sum(px, axis, keepdim=keepdim)
    if axis is None and not keepdim:  # Paddle's indices are 1-D here ([0]); padax's are [sparse_dim, nnz]
        assert got.shape == (1,) and np.asarray(got.indices()).tolist() == [want.indices().numpy().tolist()]
        _close(got.values(), want.values().numpy())
    else:
        _same_coo(got, want)
    h = (np.arange(24.).reshape(2, 3, 4) * (np.arange(24).reshape(2, 3, 4) % 3 == 0)).astype(np.float32)
    y, py = _both(h, "coo", 2)
    for ax in (1, 2):
        _same_coo(S.sum(y, ax), paddle.sparse.sum(py, ax))


def test_sum_csr_and_dtypes_match_paddle():
    paddle = paddle_oracle()
    c, pc = _both(D, "csr")
    for axis, keepdim in ((None, False), (-1, False), (-1, True)):
        _same_csr(S.sum(c, axis, keepdim=keepdim), paddle.sparse.sum(pc, axis, keepdim=keepdim))
    i, pi = _both(np.array([[1, 0], [2, 0]], np.int32), "coo")
    assert S.sum(i, 0).dtype == padax.int64 and str(paddle.sparse.sum(pi, 0).dtype) == "paddle.int64"
    assert S.sum(c, dtype="float64").dtype == padax.float64
    with pytest.raises(ValueError, match="None or -1"):
        S.sum(c, 0)


@pytest.mark.parametrize("layout", ["coo", "csr"])
@pytest.mark.parametrize("axes,starts,ends", [([0], [1], [3]), ([0, 1], [1, -3], [3, 10]), ([1], [0], [2])])
def test_slice_matches_paddle(layout, axes, starts, ends):
    paddle = paddle_oracle()
    x, px = _both(D, layout)
    _same(S.slice(x, axes, starts, ends), paddle.sparse.slice(px, axes, starts, ends))


# ---------------------------------------------------------------- products (numpy: Paddle has no CPU kernel)

@pytest.mark.parametrize("layout", ["coo", "csr"])
@pytest.mark.parametrize("dense", [D, D3])
def test_matmul_sparse_dense(layout, dense):
    x, _ = _both(dense, layout)
    y = RNG.standard_normal(dense.shape[:-2] + (dense.shape[-1], 3)).astype(np.float32)
    got = S.matmul(x, padax.to_tensor(y))
    assert got.shape == dense.shape[:-1] + (3,) and got.dtype == padax.float32
    _close(got, dense @ y)
    _close(x @ padax.to_tensor(y), dense @ y)
    with pytest.raises(ValueError, match="do not multiply"):
        S.matmul(x, padax.ones([2, 2]))


def test_matmul_sums_duplicates():
    x = S.sparse_coo_tensor([[0, 0, 1], [1, 1, 0]], [1., 2., 4.], [2, 2])
    _close(S.matmul(x, padax.to_tensor(np.eye(2, dtype=np.float32))), [[0., 3.], [4., 0.]])


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_matmul_sparse_sparse(layout):
    x, _ = _both(D, layout)
    y, _ = _both(E.T.copy(), layout)
    got = S.matmul(x, y)
    assert got.is_sparse() and got.is_sparse_coo() == (layout == "coo")
    _close(got.to_dense(), D @ E.T)
    pattern = (D != 0).astype(int) @ (E.T != 0).astype(int) > 0
    assert got.nnz() == pattern.sum()


def test_mv_masked_matmul_addmm():
    v = RNG.standard_normal(4).astype(np.float32)
    for layout in ("coo", "csr"):
        x, _ = _both(D, layout)
        _close(S.mv(x, padax.to_tensor(v)), D @ v)
        a = RNG.standard_normal((3, 5)).astype(np.float32)
        b = RNG.standard_normal((5, 4)).astype(np.float32)
        got = S.masked_matmul(padax.to_tensor(a), padax.to_tensor(b), x)
        assert got.is_sparse_coo() == (layout == "coo") and got.nnz() == x.nnz()
        _close(got.to_dense(), np.where(D != 0, a @ b, 0))
        inp = RNG.standard_normal((3, 2)).astype(np.float32)
        y = RNG.standard_normal((4, 2)).astype(np.float32)
        _close(S.addmm(padax.to_tensor(inp), x, padax.to_tensor(y), beta=0.5, alpha=2.0), 0.5 * inp + 2 * D @ y)
    a3 = RNG.standard_normal((2, 2, 3)).astype(np.float32)
    b3 = RNG.standard_normal((2, 3, 2)).astype(np.float32)
    m3, _ = _both(D3, "csr")
    _close(S.masked_matmul(padax.to_tensor(a3), padax.to_tensor(b3), m3).to_dense(), np.where(D3 != 0, a3 @ b3, 0))


# ---------------------------------------------------------------- nn

@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_nn_activations_match_paddle(layout):
    paddle = paddle_oracle()
    dense = np.where(D != 0, D - 3.5, 0).astype(np.float32) * 2
    x, px = _both(dense, layout)
    F, PF = S.nn.functional, paddle.sparse.nn.functional
    _same(F.relu(x), PF.relu(px))
    _same(F.relu6(x), PF.relu6(px))
    _same(F.leaky_relu(x, 0.1), PF.leaky_relu(px, 0.1))
    _same(F.softmax(x), PF.softmax(px))
    _same(S.nn.ReLU()(x), paddle.sparse.nn.ReLU()(px))
    _same(S.nn.ReLU6()(x), paddle.sparse.nn.ReLU6()(px))
    _same(S.nn.LeakyReLU(0.2)(x), paddle.sparse.nn.LeakyReLU(0.2)(px))
    _same(S.nn.Softmax()(x), paddle.sparse.nn.Softmax()(px))


def test_softmax_3d_csr_matches_paddle():
    paddle = paddle_oracle()
    x, px = _both(np.where(D3 != 0, D3 + 1, 0).astype(np.float32), "csr")
    _same_csr(S.nn.functional.softmax(x), paddle.sparse.nn.functional.softmax(px))


# ---------------------------------------------------------------- gradients and transformations

IDX = np.array([[0, 1, 2, 2, 0], [1, 0, 3, 1, 1]], np.int64)


def test_matmul_grads_values_and_dense():
    vals = RNG.standard_normal(5)
    y = RNG.standard_normal((4, 2))

    def f(v, y):
        return S.matmul(S.sparse_coo_tensor(IDX, v, [3, 4]), y)

    check_grads(f, (padax.to_tensor(vals), padax.to_tensor(y)), order=1, modes=("rev",))
    crows, cols = np.array([0, 2, 3, 5]), np.array([1, 3, 2, 0, 1])

    def g(v, y):
        return S.matmul(S.sparse_csr_tensor(crows, cols, v, [3, 4]), y)

    check_grads(g, (padax.to_tensor(vals), padax.to_tensor(y)), order=1, modes=("rev",))
    check_grads(lambda v, w: S.mv(S.sparse_coo_tensor(IDX, v, [3, 4]), w),
                (padax.to_tensor(vals), padax.to_tensor(y[:, 0])), order=1, modes=("rev",))
    check_grads(lambda a, b: S.masked_matmul(a, b, S.sparse_coo_tensor(IDX, vals, [3, 4])).values(),
                (padax.to_tensor(RNG.standard_normal((3, 2))), padax.to_tensor(RNG.standard_normal((2, 4)))),
                order=1, modes=("rev",))


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide"])
def test_elementwise_grads_values(op):
    i2 = np.array([[0, 1, 2], [1, 1, 0]], np.int64)
    a = RNG.standard_normal(5)
    b = RNG.uniform(1.0, 2.0, 3)

    def f(va, vb):
        out = getattr(S, op)(S.sparse_coo_tensor(IDX, va, [3, 4]), S.sparse_coo_tensor(i2, vb, [3, 4]))
        return out.values()

    if op == "divide":
        def f(va, vb):  # noqa: F811 (divide's result is dense-patterned: keep it finite)
            return S.divide(S.sparse_coo_tensor(IDX, va, [3, 4]),
                            S.sparse_coo_tensor(np.array([[0, 1, 2, 2, 0], [1, 0, 3, 1, 1]]), vb, [3, 4])
                            ).values()[np.array([1, 4, 11, 9])]
        b = RNG.uniform(1.0, 2.0, 5)
    check_grads(f, (padax.to_tensor(a), padax.to_tensor(b)), order=1, modes=("rev",))


def test_softmax_and_coalesce_grads():
    v = RNG.standard_normal(5)
    check_grads(lambda v: S.nn.functional.softmax(S.sparse_coo_tensor(IDX, v, [3, 4]).coalesce()).values(),
                (padax.to_tensor(v),), order=1, modes=("rev",))
    check_grads(lambda v: S.to_sparse_csr(S.sparse_coo_tensor(IDX, v, [3, 4])).values(),
                (padax.to_tensor(v),), order=1, modes=("rev",))


def test_jit_grad_vmap_of_sparse_matmul():
    x = S.sparse_coo_tensor(IDX, RNG.standard_normal(5).astype(np.float32), [3, 4])
    y = padax.to_tensor(RNG.standard_normal((4, 2)).astype(np.float32))
    dense = np.asarray(x.to_dense())
    jitted = padax.jit(S.matmul)
    _close(jitted(x, y), dense @ np.asarray(y))
    c = x.coalesce().to_sparse_csr()
    _close(jitted(c, y), dense @ np.asarray(y))

    def loss(v, y):  # grad with respect to the values (the int indices are not differentiable)
        return padax.sum(S.matmul(S.SparseCooTensor(x.indices(), v, x.shape), y) ** 2)

    gv, gy = padax.jit(padax.grad(loss, argnums=(0, 1)))(x.values(), y)
    out = dense @ np.asarray(y)
    rows, cols = IDX
    _close(gv, np.sum(2 * out[rows] * np.asarray(y)[cols], axis=1), 1e-4)
    _close(gy, dense.T @ (2 * out), 1e-4)
    # vmap over a batch of COO tensors with one nnz (their own indices) and a batch of dense operands
    vals = RNG.standard_normal((4, 5)).astype(np.float32)
    idx = np.stack([IDX, IDX[:, ::-1], IDX, np.roll(IDX, 1, axis=1)])
    batch = S.SparseCooTensor(padax.to_tensor(idx), padax.to_tensor(vals), (3, 4))
    ys = RNG.standard_normal((4, 4, 2)).astype(np.float32)
    got = padax.vmap(S.matmul)(batch, padax.to_tensor(ys))
    want = [S.sparse_coo_tensor(idx[b], vals[b], [3, 4]).to_dense().numpy() @ ys[b] for b in range(4)]
    _close(got, np.stack(want), 1e-5)
    # traced conversions and elementwise ops on one pattern, inside jit
    f = padax.jit(lambda sp: S.to_sparse_csr(S.tanh(sp) * S.tanh(sp)).to_dense())
    xc = x.coalesce()
    _close(f(xc), np.tanh(np.asarray(xc.to_dense())) ** 2)
    with pytest.raises(TypeError, match="concrete"):
        padax.jit(S.coalesce)(x)


def test_methods_and_scalars_as_paddle():
    paddle = paddle_oracle()
    x, px = _both(D, "coo")
    assert x.sparse_dim() == px.sparse_dim() and x.dense_dim() == px.dense_dim()
    assert x.is_coalesced() == px.is_coalesced() is True
    dup = S.sparse_coo_tensor([[1, 0, 1], [2, 1, 2]], [1., 2., 4.], [3, 3])
    assert not dup.is_coalesced() and dup.coalesce().is_coalesced()
    _same_coo(S.multiply(x, 2.0), paddle.sparse.multiply(px, 2.0))
    _close((3 * x).values(), 3 * np.asarray(x.values()))
    c, _ = _both(D3, "csr")
    assert c.sparse_dim() == 3 and c.dense_dim() == 0 and c.is_coalesced()
    _close(c.numpy(), D3)


def test_csr_under_vmap_jit_grad_and_empty_tensors():
    c, _ = _both(D, "csr")
    vals = np.arange(18, dtype=np.float32).reshape(3, 6)
    batch = S.SparseCsrTensor(padax.to_tensor(np.stack([np.asarray(c.crows())] * 3)),
                              padax.to_tensor(np.stack([np.asarray(c.cols())] * 3)), padax.to_tensor(vals), c.shape)
    y = RNG.standard_normal((4, 2)).astype(np.float32)
    got = padax.vmap(S.matmul, in_axes=(0, None))(batch, padax.to_tensor(y))
    want = [S.SparseCsrTensor(c.crows(), c.cols(), padax.to_tensor(v), c.shape).to_dense().numpy() @ y for v in vals]
    _close(got, np.stack(want))
    g = padax.jit(padax.grad(lambda v: padax.sum(S.matmul(S.SparseCsrTensor(c.crows(), c.cols(), v, c.shape),
                                                          padax.to_tensor(y)))))(c.values())
    rows = np.asarray(c.to_sparse_coo().indices())
    _close(g, y.sum(axis=1)[rows[1]])
    _close(padax.jit(lambda a: S.transpose(a, [1, 0]).to_dense())(c), D.T)
    with pytest.raises(TypeError, match="share their index arrays"):
        padax.jit(lambda a, b: a + b)(c, c)
    e = S.sparse_coo_tensor(np.zeros((2, 0), np.int64), np.zeros((0,), np.float32), [2, 2])
    assert e.nnz() == 0 and e.coalesce().nnz() == 0 and S.to_sparse_csr(e).crows().tolist() == [0, 0, 0]
    _close(S.matmul(e, padax.ones([2, 1])), np.zeros((2, 1)))


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_batched_sparse_sparse_matmul(layout):
    conv = S.to_sparse_coo if layout == "coo" else S.to_sparse_csr
    a = (RNG.standard_normal((2, 3, 4)) * (RNG.random((2, 3, 4)) < 0.5)).astype(np.float32)
    b = (RNG.standard_normal((2, 4, 2)) * (RNG.random((2, 4, 2)) < 0.5)).astype(np.float32)
    m = S.matmul(conv(padax.to_tensor(a)), conv(padax.to_tensor(b)))
    assert m.is_sparse_csr() == (layout == "csr")
    _close(m.to_dense(), a @ b)


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_addmm_with_sparse_operands(layout):
    conv = S.to_sparse_coo if layout == "coo" else S.to_sparse_csr
    inp = (RNG.standard_normal((3, 2)) * (RNG.random((3, 2)) < 0.5)).astype(np.float32)
    x = (RNG.standard_normal((3, 4)) * (RNG.random((3, 4)) < 0.5)).astype(np.float32)
    y = (RNG.standard_normal((4, 2)) * (RNG.random((4, 2)) < 0.6)).astype(np.float32)
    sx, sy = conv(padax.to_tensor(x)), conv(padax.to_tensor(y))
    r = S.addmm(conv(padax.to_tensor(inp)), sx, sy, 0.5, 2.0)
    assert r.is_sparse()
    _close(r.to_dense(), 0.5 * inp + 2 * x @ y)
    _close(S.addmm(padax.to_tensor(inp), sx, sy, 0.5, 2.0), 0.5 * inp + 2 * x @ y)


def test_sum_over_several_axes_against_numpy():
    h = (np.arange(24.).reshape(2, 3, 4) * (np.arange(24).reshape(2, 3, 4) % 3 == 0)).astype(np.float32)
    x, y = S.to_sparse_coo(padax.to_tensor(h)), S.to_sparse_coo(padax.to_tensor(h), 2)
    for sp in (x, y):
        _close(S.sum(sp, (0, 2)).to_dense(), h.sum((0, 2)))
        _close(S.sum(sp, [1, 2], keepdim=True).to_dense(), h.sum((1, 2), keepdims=True))
    _close(S.sum(x, (0, 1, 2)).to_dense(), [h.sum()])
    r = S.sum(y, (0, 1))   # every sparse axis of a hybrid tensor: a leading axis of size 1 stays
    assert r.shape == (1, 4)
    _close(r.to_dense(), h.sum((0, 1))[None])
