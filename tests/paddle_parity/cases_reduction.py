"""Reductions, scans, statistics, sorting and searching: axis as None/int/list/negative, keepdim, dtype=,
Paddle's result dtypes (sum of int32 -> int64, index outputs int64, mean of integers stays integer)."""
from tests.paddle_parity._harness import A, Arr, I, case

S, S3 = (3, 4), (2, 3, 4)
F, D, I32, I64 = "float32", "float64", "int32", "int64"


def _sorted_rows(v):
    import numpy as np
    return np.sort(v, axis=-1)


CASES = []
for _name in ("sum", "prod", "max", "min", "amax", "amin", "mean", "logsumexp", "all", "any", "nansum", "nanmean",
              "count_nonzero"):
    for _kw in ({}, {"axis": 1}, {"axis": -1, "keepdim": True}, {"axis": [0, 2]}, {"axis": (0, 1), "keepdim": True}):
        CASES.append(case(_name, A(S3, F, 0.5, 1.5) if _name == "prod" else A(S3), **_kw))
for _name, _dts in {"sum": (I32, I64, D, "bool", "int8", "uint8"), "prod": (I32, I64, D), "max": (I32, I64, D),
                    "min": (I32, D), "amax": (I64,), "mean": (I32, I64, D, "bool"), "logsumexp": (D, I32),
                    "nansum": (I32, I64, D), "nanmean": (D, I32), "all": (I32, "bool"), "any": (F, "bool"),
                    "count_nonzero": (I32, "bool")}.items():
    for _dt in _dts:
        CASES.append(case(_name, A(S, _dt, 1, 4) if _dt not in ("bool",) else A(S, _dt)))
        CASES.append(case(_name, A(S, _dt, 1, 4) if _dt not in ("bool",) else A(S, _dt), axis=0))

CASES += [
    case("sum", A(S), dtype="float64"), case("sum", A(S, I32), dtype="int32"), case("sum", A(S, I64), axis=1, dtype="float32"),
    case("sum", A(S), axis=[]), case("sum", A(())), case("sum", A((0, 3))), case("sum", A(S, I32), 0, None, True),
    case("prod", A(S), dtype="float64"), case("prod", A(S, I32, 1, 3), 1, dtype="int64"),
    case("mean", A(S), dtype="float64"), case("mean", A(S, I32, -9, 9), dtype="float64"),
    case("mean", Arr([1, 2, 4, 7], I32)), case("mean", Arr([-1, -2], I64)), case("mean", Arr([[1, 2], [4, 7]], I64), axis=0),
    case("nansum", Arr([[1.0, float("nan")], [float("nan"), 2.0]]), axis=1),
    case("nanmean", Arr([[1.0, float("nan")], [float("nan"), float("nan")]]), axis=1),
    case("max", Arr([1.0, float("nan"), 3.0])), case("amax", Arr([[1.0, 3.0], [3.0, 2.0]]), axis=1),
    case("logsumexp", Arr([1000.0, 1000.0])), case("logsumexp", Arr([-float("inf"), -float("inf")])),
    case("var", A(S3)), case("var", A(S3), 1), case("var", A(S3), [0, 2], False, True), case("var", A(S3, D), axis=-1),
    case("var", A(S3), unbiased=False), case("var", A(S3), axis=1, correction=0), case("var", A(S3), axis=1, correction=2),
    case("var", A((1, 3))), case("var", A(S, "complex64"), axis=0),
    case("std", A(S3)), case("std", A(S3), 1), case("std", A(S3), [0, 2], False, True), case("std", A(S3, D), axis=-1),
    case("std", A(S, I32, 0, 9)), case("std", A(S3), unbiased=False),
    case("median", A(S3)), case("median", A(S3), 1), case("median", A(S3), -1, True), case("median", A((3, 5)), 1),
    case("median", A(S, I32, 0, 9)), case("median", A(S, I64, 0, 9), axis=1), case("median", A(S, D), axis=0),
    case("median", A((3, 4)), axis=1, mode="min"), case("median", A((3, 5)), axis=0, mode="min"),
    case("median", Arr([[1.0, float("nan"), 3.0]]), 1),
    case("nanmedian", A(S3)), case("nanmedian", Arr([[1.0, float("nan"), 3.0, 4.0]]), 1),
    case("nanmedian", Arr([[1.0, float("nan"), 3.0, 4.0]]), 1, True, "min"), case("nanmedian", Arr([1, 2, 4, 7], I32)),
    case("quantile", A(S3), 0.3), case("quantile", A(S3), [0.25, 0.75], 1), case("quantile", A(S3), 0.5, [0, 2], True),
    case("quantile", A(S3, D), 0.4, -1), case("quantile", A((4,)), 0.5, interpolation="lower"),
    case("quantile", Arr([1.0, 2.0, 3.0, 4.0]), 1 / 6, interpolation="nearest"),
    case("quantile", Arr([1.0, 2.0, 3.0, 4.0]), 0.5, interpolation="nearest"),
    case("quantile", A((5,)), 0.3, interpolation="higher"), case("quantile", A((5,)), 0.3, interpolation="midpoint"),
    case("nanquantile", Arr([[1.0, float("nan"), 3.0, 4.0]]), 0.5, 1), case("nanquantile", A(S3), [0.1, 0.9]),
    case("kthvalue", A(S3), 2), case("kthvalue", A(S3), 1, 0), case("kthvalue", A(S3), 3, -1, True),
    case("kthvalue", A(S, I64, 0, 99), 2),
    case("mode", A(S, I64, 0, 3)), case("mode", A(S, I64, 0, 3), 0), case("mode", Arr([[1.0, 2.0, 2.0, 3.0]]), -1, True),
    case("cumsum", A(S3)), case("cumsum", A(S3), 1), case("cumsum", A(S3), -1), case("cumsum", A(S3, I32), 0),
    case("cumsum", A(S3, I64), 2), case("cumsum", A(S3), 1, "float64"), case("cumsum", A(S3, I32), 0, dtype="int32"),
    case("cumsum", A(S, D), axis=0),
    case("cumprod", A(S3, F, 0.5, 1.5), 1), case("cumprod", A(S3, F, 0.5, 1.5)), case("cumprod", A(S, I32, 1, 3), 0),
    case("cumprod", A(S, I64, 1, 3), -1), case("cumprod", A(S), 1, dtype="float64"), case("cumprod", A(S, D), dim=0),
    case("logcumsumexp", A(S3)), case("logcumsumexp", A(S3), 1), case("logcumsumexp", A(S, D), -1),
    case("logcumsumexp", A(S, I32), 0), case("logcumsumexp", A(S), 0, dtype="float64"),
    case("cummax", A(S3)), case("cummax", A(S3), 1), case("cummax", A(S3, I32, 0, 9), -1),
    case("cummax", A(S3), 0, "int32"), case("cummax", Arr([3.0, 1.0, 3.0, 5.0]), 0),
    case("cummin", A(S3)), case("cummin", A(S3), 1), case("cummin", A(S3, I64, 0, 9), -1),
    case("cummin", A(S3), 0, dtype="int32"), case("cummin", Arr([3.0, 1.0, 1.0, 5.0]), 0),
    case("argmax", A(S3)), case("argmax", A(S3), 1), case("argmax", A(S3), -1, True), case("argmax", A(S3), dtype="int32"),
    case("argmax", A(S3), keepdim=True), case("argmax", A(S, I32, 0, 3), 0),
    case("argmin", A(S3)), case("argmin", A(S3), 2), case("argmin", A(S3), 0, True, "int32"),
    case("sort", A(S3)), case("sort", A(S3), 0), case("sort", A(S3), 1, True), case("sort", A(S, I32, 0, 3)),
    case("sort", A(S, I64, 0, 3), -1, True, True), case("sort", Arr([3.0, float("nan"), 1.0])),
    case("argsort", A(S3)), case("argsort", A(S3), 0), case("argsort", A(S3), 1, True),
    case("argsort", A(S, I64, 0, 3), stable=True), case("argsort", A(S, I64, 0, 3), descending=True, stable=True),
    case("msort", A(S3)), case("msort", A(S, I64, 0, 9)),
    case("topk", A(S3), 2), case("topk", A(S3), 1, 0), case("topk", A(S3), 3, -1, False), case("topk", A(S3), 2, 1, True, True),
    case("topk", A(S, I64, 0, 99), 2), case("topk", A((6,)), Arr(2, I64)),
    case("searchsorted", Arr([1.0, 3.0, 5.0, 7.0]), Arr([0.0, 3.0, 6.0, 9.0])),
    case("searchsorted", Arr([1.0, 3.0, 5.0, 7.0]), Arr([0.0, 3.0, 6.0, 9.0]), right=True),
    case("searchsorted", Arr([[1, 3, 5], [2, 4, 6]], I64), Arr([[3, 6], [1, 6]], I64), out_int32=True),
    case("searchsorted", Arr([1.0, 3.0, 5.0]), Arr([3.0]), side="right"),
    case("searchsorted", Arr([5.0, 1.0, 3.0]), Arr([2.0, 4.0]), sorter=Arr([1, 2, 0], I64)),
    case("bucketize", Arr([0.0, 3.0, 6.0, 9.0]), Arr([1.0, 3.0, 5.0, 7.0])),
    case("bucketize", A(S, F, 0, 8), Arr([1.0, 3.0, 5.0, 7.0]), right=True),
    case("bucketize", A(S, I64, 0, 8), Arr([1, 3, 5], I64), out_int32=True),
    case("unique", A(S, I64, 0, 5)), case("unique", A(S, I64, 0, 5), True, True, True),
    case("unique", A(S, I32, 0, 4), return_counts=True),
    case("unique", Arr([[1, 2], [1, 2], [3, 4]], I64), axis=0, return_inverse=True),
    case("unique", A(S, I64, 0, 5), return_index=True, dtype="int32"),
    case("unique_consecutive", Arr([1, 1, 2, 2, 3, 1, 1], I64)),
    case("unique_consecutive", Arr([1, 1, 2, 2, 3, 1, 1], I64), True, True),
    case("unique_consecutive", Arr([[1, 2], [1, 2], [3, 4]], I64), axis=0, return_counts=True),
    case("unique_consecutive", Arr([1.0, 1.0, 2.0]), return_inverse=True, dtype="int32"),
    case("histogram", A((20,)), 5), case("histogram", A((20,)), 4, -1.0, 1.0),
    case("histogram", A((20,), I64, 0, 9), 3), case("histogram", A((20,)), 5, weight=A((20,), F, 0, 1)),
    case("histogram", A((20,)), 5, 0.0, 0.0, density=True),
    case("histogram_bin_edges", A((20,)), 5), case("histogram_bin_edges", A((20,)), 4, -1.0, 1.0),
    case("histogramdd", A((20, 2)), 3), case("histogramdd", A((20, 3)), [2, 3, 4]),
    case("histogramdd", A((20, 2)), 3, ranges=[-3.0, 3.0, -1.0, 1.0], density=True),
    case("histogramdd", A((20, 2)), [Arr([-3.0, 0.0, 3.0]), Arr([-3.0, -1.0, 1.0, 3.0])]),
    case("histogramdd", A((20, 2)), 2, weights=A((20,), F, 0, 1)),
    case("bincount", A((10,), I64, 0, 6)), case("bincount", A((10,), I64, 0, 6), minlength=9),
    case("bincount", A((10,), I32, 0, 6), A((10,), F, 0, 1)), case("bincount", A((10,), I64, 0, 6), A((10,), D, 0, 1)),
    case("bincount", A((10,), I64, 0, 6), A((10,), I64, 0, 3)),
    case("masked_select", A(S), A(S, "bool")), case("masked_select", A(S, I64), A((4,), "bool")),
    case("diff", A(S3)), case("diff", A(S3), 2, 1), case("diff", A(S, I64), axis=0),
    case("diff", A(S), prepend=A((3, 2)), append=A((3, 1))),
    case("trapezoid", A(S)), case("trapezoid", A(S), dx=0.5), case("trapezoid", A(S), A((4,))),
    case("trapezoid", A(S), axis=0), case("trapezoid", A(S, D), A(S, D)),
    case("cumulative_trapezoid", A(S)), case("cumulative_trapezoid", A(S), dx=2.0, axis=0),
    case("cumulative_trapezoid", A(S), A((4,))),
    case("reduce_as", A(S3), A((3, 1))), case("reduce_as", A(S3), A((4,))), case("reduce_as", A(S3, I64), A((2, 1, 4), I64)),
    case("numel", A(S3)), case("numel", A(())), case("rank", A(S3)), case("shape", A(S3)), case("shape", A(())),
]
