"""Products, paddle.linalg and paddle.fft: batched and broadcast operands, float32/float64/complex,
Paddle's layouts (slogdet stacked, 1-based int32 LU pivots) and argument forms (tensordot axes, norm p/axis)."""
import numpy as np

from tests.paddle_parity._harness import A, Arr, I, case

F, D, C64, C128, I32, I64 = "float32", "float64", "complex64", "complex128", "int32", "int64"


def _spd(n, dtype=F, batch=()):
    """A symmetric positive definite matrix (fixed data, so both frameworks see the same one)."""
    rng = np.random.default_rng(n + len(batch))
    a = rng.standard_normal(batch + (n, n))
    m = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
    return Arr(m.tolist(), dtype)


def _chol(n, dtype=F, upper=False):
    """A Cholesky factor (lower, or upper) of a fixed SPD matrix."""
    m = np.asarray(_spd(n, D).values)
    c = np.linalg.cholesky(m)
    return Arr((c.T if upper else c).tolist(), dtype)


def _abs(v):
    return np.abs(v)


CASES = [
    case("matmul", A((3, 4)), A((4, 5))), case("matmul", A((2, 3, 4)), A((4, 5))), case("matmul", A((4,)), A((4,))),
    case("matmul", A((4,)), A((4, 5))), case("matmul", A((2, 1, 3, 4)), A((5, 4, 2))), case("matmul", A((3, 4), D), A((4, 2), D)),
    case("matmul", A((4, 3)), A((4, 5)), transpose_x=True), case("matmul", A((3, 4)), A((5, 4)), False, True),
    case("matmul", A((3, 4), I64), A((4, 2), I64)), case("matmul", A((2, 3), C64), A((3, 2), C64)),
    case("mm", A((3, 4)), A((4, 5))), case("bmm", A((2, 3, 4)), A((2, 4, 5))), case("bmm", A((2, 3, 4), D), A((2, 4, 5), D)),
    case("dot", A((4,)), A((4,))), case("dot", A((3, 4)), A((3, 4))), case("dot", A((4,), I64), A((4,), I64)),
    case("dot", A((4,), C64), A((4,), C64)),
    case("mv", A((3, 4)), A((4,))), case("inner", A((3, 4)), A((2, 4))), case("inner", A((4,)), A((4,))),
    case("outer", A((3,)), A((4,))), case("outer", A((2, 2)), A((3,))), case("ger", A((3,)), A((4,))),
    case("kron", A((2, 3)), A((3, 2))), case("kron", A((2,), I64), A((3,), I64)),
    case("addmm", A((3, 5)), A((3, 4)), A((4, 5))), case("addmm", A((5,)), A((3, 4)), A((4, 5)), 0.5, 2.0),
    case("baddbmm", A((2, 3, 5)), A((2, 3, 4)), A((2, 4, 5)), beta=0.3, alpha=1.5),
    case("tensordot", A((3, 4, 5)), A((4, 5, 6))), case("tensordot", A((3, 4)), A((4, 5)), 1),
    case("tensordot", A((3, 4)), A((5, 6)), 0), case("tensordot", A((3, 4, 5)), A((3, 4, 6)), [[0, 1], [0, 1]]),
    case("tensordot", A((3, 4, 5)), A((4, 3, 6)), [[0, 1], [1, 0]]), case("tensordot", A((3, 4, 5)), A((3, 4, 6)), [0, 1]),
    case("tensordot", A((2, 3, 4)), A((3, 3, 4)), [1, 2]), case("tensordot", A((3, 4, 5)), A((3, 6, 5)), [[0, 2]]),
    case("tensordot", A((4, 3, 5)), A((4, 3, 6)), [[0, 1], [0]]), case("tensordot", A((3, 4, 5)), A((3, 4, 6)), [[0, 1], [0, 1], [2]]),
    case("tensordot", A((3, 4, 5)), A((3, 4, 6)), Arr([0, 1], I64)),
    case("trace", A((3, 4))), case("trace", A((3, 4)), 1), case("trace", A((2, 3, 4)), 0, 1, 2), case("trace", A((3, 3), I64)),
    case("cross", A((3, 3)), A((3, 3))), case("cross", A((2, 3)), A((2, 3)), 1), case("cross", A((3, 4)), A((3, 4)), 0),
    case("dist", A((3, 4)), A((3, 4))), case("dist", A((3, 4)), A((4,)), 1), case("dist", A((3, 4)), A((3, 4)), float("inf")),
    case("dist", A((3, 4)), A((3, 4)), 0), case("dist", A((3,)), A((3,)), 3.5),
    case("cdist", A((3, 2)), A((4, 2))), case("cdist", A((2, 3, 2)), A((2, 4, 2)), 1.0), case("cdist", A((3, 2), D), A((4, 2), D), 3.0, rtol=1e-6),
    case("pdist", A((4, 3))), case("pdist", A((4, 3)), 1.0),
    case("einsum", "ij,jk->ik", A((3, 4)), A((4, 5))), case("einsum", "ii", A((3, 3))), case("einsum", "bij->bji", A((2, 3, 4))),
    case("einsum", "i,i->", A((4,)), A((4,))), case("einsum", "...ij,...jk", A((2, 3, 4)), A((4, 5))),
    # ---- paddle.linalg
    case("linalg.det", A((3, 3))), case("linalg.det", A((2, 3, 3), D)), case("linalg.det", A((3, 3), C64)),
    case("linalg.slogdet", A((3, 3))), case("linalg.slogdet", A((2, 3, 3), D)),
    case("linalg.inv", A((3, 3))), case("linalg.inv", A((2, 3, 3), D)), case("inverse", A((3, 3))),
    case("linalg.inv", A((3, 3), C64), rtol=1e-4, atol=1e-4),
    case("linalg.solve", A((3, 3)), A((3, 2))), case("linalg.solve", A((2, 3, 3), D), A((2, 3, 1), D)),
    case("linalg.solve", A((3, 3)), A((3,))), case("linalg.solve", A((3, 3)), A((2, 3)), left=False),
    case("linalg.cholesky", _spd(3)), case("linalg.cholesky", _spd(3, D), True), case("cholesky", _spd(3)),
    case("linalg.cholesky", _spd(3, D, (2,))),
    case("linalg.cholesky_solve", A((3, 2)), _spd(3)), case("linalg.cholesky_inverse", _chol(3, D)),
    case("linalg.cholesky_inverse", _chol(3, F, upper=True), True),
    case("linalg.triangular_solve", A((3, 3)), A((3, 2))), case("linalg.triangular_solve", A((3, 3), D), A((3, 2), D), False),
    case("linalg.triangular_solve", A((3, 3)), A((3, 2)), True, True), case("linalg.triangular_solve", A((3, 3)), A((3, 2)), unitriangular=True),
    case("linalg.eigh", _spd(4), post=_abs), case("linalg.eigh", _spd(4, D), "U", post=_abs),
    case("linalg.eigvalsh", _spd(4)), case("eigvalsh", _spd(4, D), "U"),
    case("linalg.eigvals", _spd(3, D), post=lambda v: np.sort_complex(v.reshape(-1))),
    case("linalg.eig", _spd(3, D), values=False),
    case("linalg.svd", A((4, 3)), post=_abs), case("linalg.svd", A((3, 4), D), post=_abs),
    case("linalg.svd", A((2, 4, 3)), True, values=False), case("linalg.svdvals", A((4, 3))), case("linalg.svdvals", A((2, 3, 5), D)),
    case("linalg.qr", A((4, 3)), post=_abs), case("linalg.qr", A((3, 4), D), post=_abs),
    case("linalg.qr", A((4, 3)), "complete", post=_abs), case("linalg.qr", A((4, 3)), "r", post=_abs),
    case("linalg.lu", A((3, 3))), case("linalg.lu", A((2, 3, 3), D), get_infos=True), case("linalg.lu", A((3, 4))),
    case("linalg.lu_unpack", Arr([[4.0, 3.0, 1.0], [0.5, 2.0, 1.0], [0.25, 0.1, 3.0]]), Arr([1, 3, 3], I32)),
    case("linalg.lu_solve", A((3, 2)), Arr([[4.0, 3.0, 1.0], [0.5, 2.0, 1.0], [0.25, 0.1, 3.0]]), Arr([1, 3, 3], I32)),
    case("linalg.lu_solve", A((3, 2), D), Arr([[4.0, 3.0, 1.0], [0.5, 2.0, 1.0], [0.25, 0.1, 3.0]], D), Arr([2, 2, 3], I32), "T"),
    case("linalg.pinv", A((3, 4))), case("linalg.pinv", A((2, 4, 3), D)), case("linalg.pinv", _spd(3), hermitian=True),
    case("linalg.lstsq", A((5, 3), D), A((5, 2), D)), case("linalg.lstsq", A((5, 3)), A((5, 2)), driver="gelsd", rtol=1e-4),
    case("linalg.lstsq", A((5, 3), D), A((5, 2), D), driver="gels"), case("linalg.lstsq", A((5, 3), D), A((5, 2), D), None, "gelss"),
    case("linalg.lstsq", A((2, 3, 5), D), A((2, 3, 2), D), driver="gelsd"),
    case("linalg.matrix_power", A((3, 3)), 3), case("linalg.matrix_power", A((3, 3), D), 0),
    case("linalg.matrix_power", _spd(3, D), -2),
    case("linalg.matrix_rank", A((4, 3))), case("linalg.matrix_rank", A((2, 4, 4), D)),
    case("linalg.matrix_rank", Arr([[1.0, 2.0], [2.0, 4.0]])), case("linalg.matrix_rank", A((4, 4)), tol=0.5),
    case("linalg.matrix_rank", _spd(3), hermitian=True),
    case("linalg.vector_norm", A((3, 4))), case("linalg.vector_norm", A((3, 4)), 1, 1), case("linalg.vector_norm", A((3, 4)), float("inf")),
    case("linalg.vector_norm", A((3, 4)), 0, [0, 1], True), case("linalg.vector_norm", A((3, 4)), -float("inf"), -1),
    case("linalg.vector_norm", A((3, 4)), 3.0, dtype="float64", rtol=1e-6), case("linalg.vector_norm", A((3, 4), C64), 2, 1),
    case("linalg.matrix_norm", A((3, 4))), case("linalg.matrix_norm", A((2, 3, 4)), "nuc"), case("linalg.matrix_norm", A((3, 4)), 1),
    case("linalg.matrix_norm", A((3, 4)), -1, keepdim=True), case("linalg.matrix_norm", A((3, 4), D), float("inf")),
    case("linalg.matrix_norm", A((3, 4)), 2), case("linalg.matrix_norm", A((3, 4)), -2),
    case("linalg.norm", A((3, 4))), case("linalg.norm", A((3, 4)), 1, 1), case("linalg.norm", A((3, 4)), "fro", [0, 1]),
    case("linalg.norm", A((2, 3, 4)), "nuc", [1, 2]), case("linalg.norm", A((3, 4)), float("inf"), -1, True),
    case("linalg.norm", A((3, 4)), 2, dtype="float64", rtol=1e-6), case("norm", A((3, 4)), 2.5, 0),
    case("linalg.cond", A((3, 3))), case("linalg.cond", A((3, 3), D), "fro"), case("linalg.cond", A((3, 3)), 1),
    case("linalg.cond", A((3, 3)), -2), case("linalg.cond", A((3, 3)), "nuc"),
    case("linalg.multi_dot", [A((3, 4)), A((4, 5)), A((5, 2))]), case("linalg.multi_dot", [A((4,)), A((4, 5)), A((5,))]),
    case("linalg.cov", A((3, 5))), case("linalg.cov", A((5, 3)), False), case("linalg.cov", A((3, 5)), ddof=False),
    case("linalg.cov", A((3, 5)), fweights=I((5,), 1, 4), aweights=A((5,), F, 0.1, 1)),
    case("linalg.corrcoef", A((3, 5))), case("linalg.corrcoef", A((5, 3), D), False),
    case("linalg.matrix_transpose", A((2, 3, 4))), case("linalg.vecdot", A((3, 4)), A((3, 4))),
    case("linalg.vecdot", A((3, 4)), A((4,)), 0), case("linalg.vecdot", A((3, 4), C64), A((3, 4), C64)),
    case("vecdot", A((3, 4)), A((3, 4)), -1), case("linalg.matmul", A((3, 4)), A((4, 2))),
    case("linalg.cross", A((3, 3)), A((3, 3))), case("linalg.diagonal", A((3, 4)), 1), case("linalg.matrix_exp", A((3, 3))), case("linalg.matrix_exp", A((2, 3, 3), D)),
    case("linalg.matrix_exp", A((3, 3), F, -8, 8), rtol=1e-4),
    case("linalg.householder_product", A((4, 3)), A((3,))), case("linalg.householder_product", A((2, 4, 3), D), A((2, 2), D)),
    case("linalg.ormqr", A((4, 3)), A((3,)), A((3, 2))), case("linalg.ormqr", A((4, 3), D), A((3,), D), A((4, 2), D), transpose=True),
    case("linalg.ormqr", A((3, 3)), A((3,)), A((2, 3)), left=False),
    case("linalg.ormqr", A((3, 3), D), A((3,), D), A((2, 3), D), False, True),
    case("linalg.ormqr", A((2, 4, 3), D), A((2, 3), D), A((2, 3, 5), D)),
    case("linalg.svd_lowrank", A((6, 5)), values=False), case("linalg.svd_lowrank", A((6, 5), D), 3, values=False),
    case("linalg.pca_lowrank", A((6, 5)), values=False), case("linalg.pca_lowrank", A((6, 5), D), 2, False, values=False),
    # ---- paddle.fft
    case("fft.fft", A((8,))), case("fft.fft", A((3, 8), D), 6), case("fft.fft", A((8, 3)), axis=0, norm="ortho"),
    case("fft.fft", A((8,), C64), norm="forward"), case("fft.fft", A((8,), I64)),
    case("fft.ifft", A((3, 8), C64)), case("fft.ifft", A((8,)), 10, norm="ortho"),
    case("fft.rfft", A((8,))), case("fft.rfft", A((3, 8), D), 5, 1, "forward"), case("fft.irfft", A((5,), C64)),
    case("fft.irfft", A((3, 5), C128), 9), case("fft.hfft", A((5,), C64)), case("fft.hfft", A((5,), C64), 7, norm="ortho"),
    case("fft.ihfft", A((8,))), case("fft.ihfft", A((8,), D), 6),
    case("fft.fft2", A((3, 4, 5))), case("fft.fft2", A((4, 5), C64), (3, 6)), case("fft.fft2", A((3, 4, 5)), axes=(0, 2)),
    case("fft.ifft2", A((4, 5), C64)), case("fft.rfft2", A((4, 6))), case("fft.irfft2", A((4, 4), C64)),
    case("fft.hfft2", A((4, 3), C64)), case("fft.ihfft2", A((4, 6))),
    case("fft.fftn", A((3, 4, 5))), case("fft.fftn", A((3, 4, 5)), (2, 3), (0, 1)), case("fft.ifftn", A((3, 4), C64), norm="forward"),
    case("fft.rfftn", A((3, 4, 6))), case("fft.irfftn", A((3, 4, 4), C64)), case("fft.irfftn", A((3, 4), C64), (3, 6)),
    case("fft.hfftn", A((3, 4), C64)), case("fft.ihfftn", A((3, 4, 6))),
    case("fft.fftshift", A((5,))), case("fft.fftshift", A((4, 5)), [1]), case("fft.ifftshift", A((4, 5))),
    case("fft.ifftshift", A((6,), I64)),
]
