"""gather and scatter(_add/_mul/_min/_max) against jax.lax (oracle) and numpy, eagerly and under jit."""
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from jax import lax as jlax

import padax
import padax.lax as lax
from padax.transforms import dispatch
from tests.conftest import assert_close, rand

BF16 = ml_dtypes.bfloat16
DTYPES = [np.float32, np.int32, np.uint8, BF16]


def put(x):
    """device_put that also takes bfloat16 host arrays (numpy reports their kind as 'V')."""
    x = np.asarray(x)
    return padax.device_put(x.astype(np.float32), dtype=BF16) if x.dtype == BF16 else padax.device_put(x)


def call(f, jit, *args):
    out = padax.jit(f)(*args) if jit else f(*args)
    return out.numpy()


def jax_oracle(f, *args):
    """Run the jax.lax version on padax's platform and read back a numpy array."""
    with jax.default_device(jax.devices(padax.default_device().platform)[0]):
        return np.asarray(f(*(jnp.asarray(a) for a in args)))


def _gdn(**kw):
    return lax.GatherDimensionNumbers(**kw), jlax.GatherDimensionNumbers(**kw)


def _sdn(**kw):
    return lax.ScatterDimensionNumbers(**kw), jlax.ScatterDimensionNumbers(**kw)


# operand shape, indices (in bounds), dimension numbers, slice sizes
GATHER_CASES = {
    "rows": ((5, 4), [[0], [4], [2]],
             dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 4)),
    "columns": ((5, 4), [[3], [0], [1], [1], [2], [0]],
                dict(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,)), (5, 1)),
    "points": ((5, 4), [[[0, 1], [4, 3], [2, 2]], [[1, 0], [3, 3], [0, 0]]],
               dict(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)), (1, 1)),
    "windows": ((6, 5), [[0, 0], [3, 1], [4, 2]],
                dict(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)), (2, 3)),
    "permuted_map": ((5, 4), [[3, 1], [0, 4], [2, 0]],
                     dict(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(1, 0)), (1, 1)),
    "batching": ((3, 5, 4), [[[1], [4]], [[0], [0]], [[3], [2]]],
                 dict(offset_dims=(2,), collapsed_slice_dims=(1,), start_index_map=(1,),
                      operand_batching_dims=(0,), start_indices_batching_dims=(0,)), (1, 1, 4)),
}


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", list(GATHER_CASES))
def test_gather_matches_jax(case, dtype, jit):
    shape, idx, kw, sizes = GATHER_CASES[case]
    x, idx = rand(shape, dtype), np.asarray(idx, np.int32)
    pdn, jdn = _gdn(**kw)
    out = call(lambda a, i: lax.gather(a, i, pdn, sizes), jit, put(x), put(idx))
    expected = jax_oracle(lambda a, i: jlax.gather(a, i, jdn, sizes), x, idx)
    assert_close(out, expected, dtype)


def test_gather_rows_is_numpy_take():
    x = rand((6, 3), np.float32)
    idx = np.array([5, 0, 0, 2], np.int32)
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    assert_close(lax.gather(put(x), put(idx[:, None]), dn, (1, 3)).numpy(), x[idx], np.float32)


OOB_IDX = np.array([[0], [4], [7], [-1], [2], [3]], np.int32)  # operand has 5 rows; 7 and -1 are out


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("mode", ["clip", "fill", "promise_in_bounds", None,
                                  lax.GatherScatterMode.FILL_OR_DROP])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_])
def test_gather_out_of_bounds_modes(mode, dtype, jit):
    x = rand((5, 2), dtype)
    pdn, jdn = _gdn(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    jmode = jlax.GatherScatterMode.FILL_OR_DROP if isinstance(mode, lax.GatherScatterMode) else mode
    out = call(lambda a, i: lax.gather(a, i, pdn, (1, 2), mode=mode), jit, put(x), put(OOB_IDX))
    expected = jax_oracle(lambda a, i: jlax.gather(a, i, jdn, (1, 2), mode=jmode), x, OOB_IDX)
    assert_close(out, expected, dtype)


def test_gather_fill_defaults_and_explicit_fill_value():
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    idx = put(np.array([[1], [9]], np.int32))
    f = lax.gather(put(np.ones((3, 2), np.float32)), idx, dn, (1, 2), mode="fill").numpy()
    assert np.all(f[0] == 1) and np.all(np.isnan(f[1]))
    i = lax.gather(put(np.ones((3, 2), np.int32)), idx, dn, (1, 2), mode="fill").numpy()
    assert np.all(i[1] == np.iinfo(np.int32).min)
    u = lax.gather(put(np.ones((3, 2), np.uint8)), idx, dn, (1, 2), mode="fill").numpy()
    assert np.all(u[1] == 255)
    e = lax.gather(put(np.ones((3, 2), np.float32)), idx, dn, (1, 2), mode="fill", fill_value=-7.0).numpy()
    assert np.all(e[1] == -7.0) and np.all(e[0] == 1)


def test_gather_fill_masks_whole_partially_out_of_bounds_window():
    x = rand((6,), np.float32)
    pdn, jdn = _gdn(offset_dims=(1,), collapsed_slice_dims=(), start_index_map=(0,))
    idx = np.array([[0], [3], [4], [5]], np.int32)  # windows of 3 starting at 4 and 5 stick out
    for mode in ("fill", "clip"):
        out = lax.gather(put(x), put(idx), pdn, (3,), mode=mode).numpy()
        expected = jax_oracle(lambda a, i: jlax.gather(a, i, jdn, (3,), mode=mode), x, idx)
        assert_close(out, expected, np.float32)
    out = lax.gather(put(x), put(idx), pdn, (3,), mode="fill").numpy()
    assert np.isnan(out[2:]).all() and not np.isnan(out[:2]).any()


@pytest.mark.parametrize("idx_dtype", [np.uint8, np.int8, np.uint32])
def test_gather_index_dtypes(idx_dtype):
    x = rand((5, 3), np.float32)
    pdn, jdn = _gdn(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    idx = np.array([[4], [0], [9], [2]], idx_dtype)
    for mode in ("fill", "clip"):
        out = lax.gather(put(x), put(idx), pdn, (1, 3), mode=mode).numpy()
        expected = jax_oracle(lambda a, i: jlax.gather(a, i, jdn, (1, 3), mode=mode), x, idx)
        assert_close(out, expected, np.float32)


def test_gather_empty_indices_and_host_inputs():
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    out = lax.gather(put(np.ones((3, 2), np.float32)), put(np.zeros((0, 1), np.int32)), dn, (1, 2), mode="fill")
    assert out.shape == (0, 2)
    x = rand((4, 2), np.float32)
    out = lax.gather(x, np.array([[3], [1]], np.int32), dn, (1, 2))  # numpy inputs
    assert_close(out.numpy(), x[[3, 1]], np.float32)


def test_gather_fill_nan_param_reuses_the_eager_executable():
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    x, idx = put(np.ones((3, 2), np.float32)), put(np.array([[1], [5]], np.int32))
    lax.gather(x, idx, dn, (1, 2), mode="fill", fill_value=float("nan"))
    n = len(dispatch._cache)
    lax.gather(x, idx, dn, (1, 2), mode="fill", fill_value=float("nan"))
    lax.gather(x, idx, dn, (1, 2), mode="fill", fill_value=np.float32("nan"))
    assert len(dispatch._cache) == n


def test_gather_jaxpr_shows_mode():
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    text = str(padax.make_jaxpr(lambda a, i: lax.gather(a, i, dn, (1, 2), mode="clip"))(
        put(np.ones((3, 2), np.float32)), put(np.zeros((4, 1), np.int32))))
    assert "gather" in text and "GatherScatterMode.CLIP" in text and "f32[4,2]" in text


# ---- scatter ----------------------------------------------------------------------------

# operand shape, unique in-bounds indices, updates shape, dimension numbers
SCATTER_CASES = {
    "rows": ((5, 4), [[0], [4], [2]], (3, 4),
             dict(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))),
    "points": ((5, 4), [[0, 1], [4, 3], [2, 2], [1, 0]], (4,),
               dict(update_window_dims=(), inserted_window_dims=(0, 1), scatter_dims_to_operand_dims=(0, 1))),
    "windows": ((6, 5), [[0, 0], [3, 2]], (2, 2, 3),
                dict(update_window_dims=(1, 2), inserted_window_dims=(), scatter_dims_to_operand_dims=(0, 1))),
    "permuted_map": ((5, 4), [[3, 1], [0, 4], [2, 0]], (3,),
                     dict(update_window_dims=(), inserted_window_dims=(0, 1),
                          scatter_dims_to_operand_dims=(1, 0))),
    "batching": ((3, 5, 4), [[[1], [4]], [[0], [2]], [[3], [2]]], (3, 2, 4),
                 dict(update_window_dims=(2,), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,),
                      operand_batching_dims=(0,), scatter_indices_batching_dims=(0,))),
}
SCATTER_OPS = ["scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"]


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("op", SCATTER_OPS)
@pytest.mark.parametrize("case", list(SCATTER_CASES))
def test_scatter_matches_jax(case, op, jit):
    shape, idx, ushape, kw = SCATTER_CASES[case]
    x, idx = rand(shape, np.float32), np.asarray(idx, np.int32)
    upd = rand(ushape, np.float32, np.random.default_rng(1))
    pdn, jdn = _sdn(**kw)
    pf, jf = getattr(lax, op), getattr(jlax, op)
    out = call(lambda a, i, u: pf(a, i, u, pdn), jit, put(x), put(idx), put(upd))
    expected = jax_oracle(lambda a, i, u: jf(a, i, u, jdn), x, idx, upd)
    assert_close(out, expected, np.float32)
    assert not np.array_equal(out, x)  # the update did something


_NP_COMBINE = {"scatter": lambda old, new: new, "scatter_add": np.add, "scatter_mul": np.multiply,
               "scatter_min": np.minimum, "scatter_max": np.maximum}
_NP_COMBINE_BOOL = {"scatter": lambda old, new: new, "scatter_add": np.logical_or,
                    "scatter_mul": np.logical_and, "scatter_min": np.logical_and, "scatter_max": np.logical_or}


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, BF16, np.bool_])
@pytest.mark.parametrize("op", SCATTER_OPS)
def test_scatter_dtypes(op, dtype):
    """Row scatter with unique indices against numpy (bool: add/max = or, mul/min = and)."""
    x = rand((5, 4), dtype)
    rows = np.array([0, 4, 2], np.int32)
    upd = rand((3, 4), dtype, np.random.default_rng(1))
    dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    out = getattr(lax, op)(put(x), put(rows[:, None]), put(upd), dn).numpy()
    expected = x.copy()
    combine = (_NP_COMBINE_BOOL if dtype == np.bool_ else _NP_COMBINE)[op]
    expected[rows] = np.asarray(combine(x[rows], upd)).astype(dtype)
    assert_close(out, expected, dtype)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_scatter_add_repeated_indices_accumulate(dtype, jit):
    x = rand((6, 3), dtype)
    rows = np.array([1, 4, 1, 1, 0, 4, 5], np.int32)
    upd = rand((7, 3), dtype, np.random.default_rng(2))
    dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    out = call(lambda a, i, u: lax.scatter_add(a, i, u, dn), jit, put(x), put(rows[:, None]), put(upd))
    expected = x.copy()
    np.add.at(expected, rows, upd)
    assert_close(out, expected, dtype)


def test_scatter_min_max_mul_repeated_indices():
    x = rand((4,), np.float32)
    idx = np.array([[2], [2], [0], [2]], np.int32)
    upd = rand((4,), np.float32, np.random.default_rng(3))
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    for op, ufunc in (("scatter_min", np.minimum), ("scatter_max", np.maximum), ("scatter_mul", np.multiply)):
        expected = x.copy()
        ufunc.at(expected, idx[:, 0], upd)
        assert_close(getattr(lax, op)(put(x), put(idx), put(upd), dn).numpy(), expected, np.float32)


SCATTER_OOB_IDX = np.array([[0], [4], [7], [-1], [2]], np.int32)  # operand has 5 rows


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("mode", ["clip", "drop", "fill", "promise_in_bounds", None])
@pytest.mark.parametrize("op", ["scatter", "scatter_add"])
def test_scatter_out_of_bounds_modes(op, mode, jit):
    x = rand((5, 3), np.float32)
    upd = rand((5, 3), np.float32, np.random.default_rng(4))
    pdn, jdn = _sdn(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    out = call(lambda a, i, u: getattr(lax, op)(a, i, u, pdn, mode=mode), jit,
               put(x), put(SCATTER_OOB_IDX), put(upd))
    expected = jax_oracle(lambda a, i, u: getattr(jlax, op)(a, i, u, jdn, mode=mode), x, SCATTER_OOB_IDX, upd)
    assert_close(out, expected, np.float32)


def test_scatter_drop_skips_window_partly_out_of_bounds_and_clip_moves_it():
    x = np.zeros((6,), np.float32)
    idx = np.array([[1], [4]], np.int32)  # windows of 3: [1, 4) fits, [4, 7) does not
    upd = np.ones((2, 3), np.float32)
    dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(),
                                     scatter_dims_to_operand_dims=(0,))
    dropped = lax.scatter_add(put(x), put(idx), put(upd), dn, mode="drop").numpy()
    np.testing.assert_array_equal(dropped, [0, 1, 1, 1, 0, 0])
    clipped = lax.scatter_add(put(x), put(idx), put(upd), dn, mode="clip").numpy()
    np.testing.assert_array_equal(clipped, [0, 1, 1, 2, 1, 1])


def test_scatter_clip_with_unsigned_indices():
    x = np.zeros((4, 2), np.int32)
    idx = np.array([[1], [200]], np.uint8)
    upd = np.ones((2, 2), np.int32)
    dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    out = lax.scatter_add(put(x), put(idx), put(upd), dn, mode="clip").numpy()
    np.testing.assert_array_equal(out, [[0, 0], [1, 1], [0, 0], [1, 1]])


# ---- errors ---------------------------------------------------------------------------------

def _gather_err(shape, idx_shape, sizes, idx_dtype=np.int32, **kw):
    dn = lax.GatherDimensionNumbers(**kw)
    lax.gather(put(np.ones(shape, np.float32)), put(np.zeros(idx_shape, idx_dtype)), dn, sizes)


def test_gather_errors():
    rows = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    with pytest.raises(TypeError, match=r"gather: start_index_map \(0,\) has 1 entries but the index vector "
                                        r".* has size 2 \(operand f32\[5,4\], indices i32\[3,2\]\)"):
        _gather_err((5, 4), (3, 2), (1, 4), **rows)
    with pytest.raises(TypeError, match=r"gather: indices must have an integer dtype, got f32\[3,1\]"):
        _gather_err((5, 4), (3, 1), (1, 4), idx_dtype=np.float32, **rows)
    with pytest.raises(ValueError, match="collapsed dimension 0 must have slice size 1, got 2"):
        _gather_err((5, 4), (3, 1), (2, 4), **rows)
    with pytest.raises(ValueError, match=r"slice_sizes\[1\] = 9 is out of range \[0, 4\]"):
        _gather_err((5, 4), (3, 1), (1, 9), **rows)
    with pytest.raises(ValueError, match=r"slice_sizes \(1,\) must have one entry per operand dimension"):
        _gather_err((5, 4), (3, 1), (1,), **rows)
    with pytest.raises(ValueError, match=r"offset_dims \(2, 1\) must be sorted"):
        _gather_err((5, 4, 3), (3, 1), (1, 4, 3), offset_dims=(2, 1), collapsed_slice_dims=(0,),
                    start_index_map=(0,))
    with pytest.raises(ValueError, match=r"start_index_map \(7,\): dimension 7 is out of range \[0, 2\)"):
        _gather_err((5, 4), (3, 1), (1, 4), offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(7,))
    with pytest.raises(ValueError, match="every operand dimension must be an offset dimension, collapsed or batching"):
        _gather_err((5, 4), (3, 1), (1, 1), offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    with pytest.raises(TypeError, match=r"operand batching dimensions have sizes \(3,\) but indices batching "
                                        r"dimensions have sizes \(2,\)"):
        _gather_err((3, 5), (2, 1), (1, 1), offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,),
                    operand_batching_dims=(0,), start_indices_batching_dims=(0,))
    with pytest.raises(ValueError, match="unknown gather/scatter mode 'wrap'"):
        lax.gather(put(np.ones((5, 4), np.float32)), put(np.zeros((3, 1), np.int32)),
                   lax.GatherDimensionNumbers(**rows), (1, 4), mode="wrap")


def _scatter_err(op_shape, idx_shape, upd_shape, upd_dtype=np.float32, **kw):
    dn = lax.ScatterDimensionNumbers(**kw)
    lax.scatter_add(put(np.ones(op_shape, np.float32)), put(np.zeros(idx_shape, np.int32)),
                    put(np.ones(upd_shape, upd_dtype)), dn)


def test_scatter_errors():
    rows = dict(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    with pytest.raises(TypeError, match=r"scatter_add: operand and updates must have the same dtype "
                                        r"\(operand f32\[5,4\], indices i32\[3,1\], updates i32\[3,4\]\)"):
        _scatter_err((5, 4), (3, 1), (3, 4), upd_dtype=np.int32, **rows)
    with pytest.raises(TypeError, match=r"the scatter dimensions of updates have sizes \(2,\) but the "
                                        r"indices' batch dimensions have sizes \(3,\)"):
        _scatter_err((5, 4), (3, 1), (2, 4), **rows)
    with pytest.raises(TypeError, match="update window dimension 1 has size 6, larger than operand dimension 1"):
        _scatter_err((5, 4), (3, 1), (3, 6), **rows)
    with pytest.raises(ValueError, match="must account for the operand's 2 dimensions"):
        _scatter_err((5, 4), (3, 1), (3, 4), update_window_dims=(1,), inserted_window_dims=(),
                     scatter_dims_to_operand_dims=(0,))
    with pytest.raises(TypeError, match=r"scatter_dims_to_operand_dims \(0, 1\) has 2 entries"):
        _scatter_err((5, 4), (3, 1), (3, 4), update_window_dims=(1,), inserted_window_dims=(0,),
                     scatter_dims_to_operand_dims=(0, 1))
    with pytest.raises(ValueError, match=r"inserted_window_dims \(0, 0\) must not repeat"):
        _scatter_err((5, 4), (3, 1), (3,), update_window_dims=(), inserted_window_dims=(0, 0),
                     scatter_dims_to_operand_dims=(0,))
    with pytest.raises(TypeError, match="updates must have rank"):
        _scatter_err((5, 4), (3, 1), (3, 4, 1), **rows)


def test_scatter_error_under_jit_names_user_line():
    dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))

    def f(a, i, u):
        return lax.scatter(a, i, u, dn)
    with pytest.raises(TypeError, match=r"scatter: .*test_gather_scatter\.py:\d+"):
        padax.jit(f)(put(np.ones((5, 4), np.float32)), put(np.zeros((3, 1), np.int32)),
                     put(np.ones((2, 4), np.float32)))
