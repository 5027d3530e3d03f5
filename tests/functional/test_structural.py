"""Shape and dtype primitives (padax.lax structural ops) against numpy, eagerly and under jit."""
from __future__ import annotations

import builtins
import functools

import ml_dtypes
import numpy as np
import pytest

import padax
from padax import lax
from tests.conftest import assert_close, rand

BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.dtype(d) for d in (np.float32, BF16, np.int32, np.uint8, np.bool_, np.complex64)]
DTYPE_IDS = [d.name for d in DTYPES]
MODES = ["eager", "jit"]


def run(mode: str, f, *args):
    """Call f on device arrays made from numpy args, eagerly or through padax.jit; numpy result."""
    args = [padax.device_put(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args]
    out = padax.jit(f)(*args) if mode == "jit" else f(*args)
    return [o.numpy() for o in out] if isinstance(out, (tuple, list)) else out.numpy()


class Checker:
    """`ck(f, ref, *arrays, **static)` checks f(*arrays, **static) against the numpy `ref`.

    Under jit the calls are collected and, when the `with` block ends, run as one jitted
    program (one compile per test, not per case); a failing case is reported at teardown.
    Compiles are the runtime's main cost, so with a `sample` offset (non-float32 dtypes)
    each call runs in one mode only: every third eagerly, the rest under jit. Every
    (dtype, case) pair still runs; float32 runs every case in both modes.
    """

    def __init__(self, mode: str, sample: int | None = None):
        self.mode = mode
        self.sample = sample
        self.calls = 0
        self.cases: list = []

    def __call__(self, f, ref, *arrays, **static):
        fn = functools.partial(f, **static) if static else f
        self.calls += 1
        if self.sample is not None and ((self.calls + self.sample) % 3 == 0) != (self.mode == "eager"):
            return
        if self.mode == "eager":
            assert_close(run("eager", fn, *arrays), ref, dtype=np.asarray(ref).dtype)
        else:
            self.cases.append((fn, np.asarray(ref), arrays))

    def __enter__(self) -> "Checker":
        return self

    def __exit__(self, exc_type, *_):
        if exc_type is not None or not self.cases:
            return
        counts = [len(args) for _, _, args in self.cases]

        def program(*xs):
            outs, i = [], 0
            for (fn, _, _), n in zip(self.cases, counts):
                outs.append(fn(*xs[i:i + n]))
                i += n
            return tuple(outs)

        outs = run("jit", program, *(a for _, _, args in self.cases for a in args))
        for k, (out, (_, ref, _)) in enumerate(zip(outs, self.cases)):
            try:
                assert_close(out, ref, dtype=ref.dtype)
            except AssertionError as e:
                raise AssertionError(f"case {k}: {e}") from None


@pytest.fixture(params=MODES)
def mode(request):
    return request.param


@pytest.fixture
def ck(mode, request):
    """A Checker; in tests over the dtype matrix, non-float32 dtypes split their cases between modes."""
    name = next((n for n in ("dtype", "src") if n in request.fixturenames), None)
    dt = None if name is None else np.dtype(request.getfixturevalue(name))
    sample = None if dt is None or dt == np.float32 else DTYPES.index(dt)
    with Checker(mode, sample) as c:
        yield c


@pytest.fixture(params=DTYPES, ids=DTYPE_IDS)
def dtype(request):
    return request.param


# ---- convert_element_type -------------------------------------------------------------

def _convert_ref(x: np.ndarray, dst: np.dtype) -> np.ndarray:
    """numpy's cast, except complex -> real keeps the real part and anything -> bool is `!= 0`."""
    if dst == np.bool_:
        return x != 0
    if x.dtype.kind == "c" and dst.kind != "c":
        x = np.real(x)
    return x.astype(np.float64 if x.dtype == BF16 else x.dtype).astype(dst)


@pytest.mark.parametrize("src", DTYPES, ids=DTYPE_IDS)
def test_convert_element_type_matrix(src, ck):
    # values valid in every target (no negatives for uint8); floats get a fractional part
    base = np.array([[0.0, 1.0, 2.75], [7.5, 0.0, 99.25]])
    x = (base + 1j * base[::-1]).astype(src) if src.kind == "c" else base.astype(src)
    for dst in DTYPES:
        ck(lax.convert_element_type, _convert_ref(x, dst), x, new_dtype=dst)


def test_convert_element_type_semantics(ck):
    cet = lax.convert_element_type
    ck(cet, np.array([-2, 0, 0, 2], np.int32), np.array([-2.7, -0.5, 0.5, 2.7], np.float32),
       new_dtype=np.int32)  # truncates toward zero
    ck(cet, np.array([False, False, True, True, True]), np.array([0.0, -0.0, 0.1, -3.0, np.nan], np.float32),
       new_dtype=np.bool_)  # nonzero (NaN included) is True
    ck(cet, np.array([1.0, 0.0], BF16), np.array([True, False]), new_dtype=BF16)
    ck(cet, np.array([1.0, 0.0], np.float32), np.array([True, False]), new_dtype=np.float32)
    ck(cet, np.array([1.5, -3.0], np.float32), np.array([1.5 - 2j, -3 + 4j], np.complex64),
       new_dtype=np.float32)  # complex -> real takes the real part
    ck(cet, np.array([1, -3], np.int32), np.array([1.5 - 2j, -3.7 + 4j], np.complex64), new_dtype=np.int32)
    ck(cet, np.array([False, True, True]), np.array([0j, 1j, 2 + 0j], np.complex64),
       new_dtype=np.bool_)  # an imaginary part alone makes it nonzero
    ck(cet, np.array([255, 0, 44], np.uint8), np.array([-1, 256, 300], np.int32), new_dtype=np.uint8)  # wraps
    ck(cet, np.array([-7.0, 1 << 20], np.float32), np.array([-7, 1 << 20], np.int32), new_dtype=np.float32)
    ck(cet, np.array([3 + 0j, 0j], np.complex64), np.array([3, 0], np.uint8), new_dtype=np.complex64)
    for shape in [(), (0,), (2, 0)]:  # 0-d and empty
        ck(cet, np.full(shape, 3, np.int32), np.full(shape, 3.5, np.float32), new_dtype=np.int32)


def test_convert_element_type_x64(x64, ck):
    x = np.array([1.0 + 2**-40, -2.5, 1e300], np.float64)
    with np.errstate(over="ignore"):
        ck(lax.convert_element_type, x.astype(np.float32), x, new_dtype=np.float32)
    ck(lax.convert_element_type, np.array([1, -2], np.int64), x[:2], new_dtype=np.int64)
    y = np.array([1, -(1 << 40)], np.int64)
    ck(lax.convert_element_type, y.astype(np.float64), y, new_dtype=np.float64)
    ck(lax.convert_element_type, np.array([1.25]), np.array([1.25 - 1j], np.complex128), new_dtype=np.float64)
    ck(lax.convert_element_type, np.array([True, False]), np.array([1e-300, 0.0]), new_dtype=np.bool_)


def test_convert_element_type_weak_type():
    x = padax.device_put(np.ones(3, np.float32))
    assert lax.convert_element_type(x, np.float32, weak_type=True).aval.weak_type
    assert lax.convert_element_type(x, np.int32).aval.dtype == np.int32
    assert lax.convert_element_type(x, np.float32) is x  # no-op cast is free


# ---- broadcast_in_dim / reshape / transpose -------------------------------------------

BROADCAST_CASES = [((3,), (2, 3), (1,)), ((), (2, 2), ()), ((3, 1), (3, 4), (0, 1)),
                   ((2, 1), (2, 5, 3), (0, 2)), ((0,), (2, 0), (1,))]


def _broadcast_ref(x, shape, bdims):
    expanded = x.reshape([x.shape[bdims.index(i)] if i in bdims else 1 for i in range(len(shape))])
    return np.broadcast_to(expanded, shape)


def test_broadcast_in_dim(dtype, ck):
    for i, (xs, shape, bdims) in enumerate(BROADCAST_CASES):
        x = rand(xs, dtype, np.random.default_rng(i))
        ck(lax.broadcast_in_dim, _broadcast_ref(x, shape, bdims), x, shape=shape, broadcast_dimensions=bdims)
    x = rand((2,), dtype)
    ck(lax.broadcast, np.broadcast_to(x, (3, 2)), x, sizes=(3,))


RESHAPE_CASES = [((2, 3), (3, 2), None), ((2, 3), (6,), None), ((), (1, 1), None), ((4,), (2, 2), None),
                 ((2, 3), (3, 2), (1, 0)), ((0, 3), (3, 0), None)]


def test_reshape(dtype, ck):
    for xs, new, dims in RESHAPE_CASES:
        x = rand(xs, dtype)
        ck(lax.reshape, (x if dims is None else np.transpose(x, dims)).reshape(new), x,
           new_sizes=new, dimensions=dims)


TRANSPOSE_CASES = [((2, 3), (1, 0)), ((2, 3, 4), (2, 0, 1)), ((), ()), ((0, 2), (1, 0)), ((2, 3), (0, 1))]


def test_transpose(dtype, ck):
    for xs, perm in TRANSPOSE_CASES:
        x = rand(xs, dtype)
        ck(lax.transpose, np.transpose(x, perm), x, permutation=perm)


# ---- select_n / iota ---------------------------------------------------------------------

def test_select_n(dtype, ck):
    rng = np.random.default_rng(1)
    a, b, c = (rand((2, 3), dtype, np.random.default_rng(s)) for s in (2, 3, 4))
    pred = rng.random((2, 3)) > 0.5
    ck(lax.select_n, np.where(pred, b, a), pred, a, b)
    ck(lax.select, np.where(pred, a, b), pred, a, b)
    which = rng.integers(0, 3, (2, 3)).astype(np.int32)
    ck(lax.select_n, np.choose(which, [a, b, c]), which, a, b, c)
    ck(lax.select_n, np.choose(which % 2, [a, b]), which % 2, a, b)  # int32 predicate, two cases
    ck(lax.select_n, b, np.bool_(True), a, b)  # scalar predicates pick a whole case
    ck(lax.select_n, a, np.bool_(False), a, b)
    ck(lax.select_n, c, np.int32(2), a, b, c)
    ck(lax.select_n, a, np.int32(0), a)  # one case
    e = rand((0, 2), dtype)
    ck(lax.select_n, e, np.zeros((0, 2), bool), e, e)
    s0, s1 = rand((), dtype, np.random.default_rng(5)), rand((), dtype, np.random.default_rng(6))
    ck(lax.select_n, s1, np.bool_(True), s0, s1)


@pytest.mark.parametrize("dt", [np.int32, np.float32, BF16, np.uint8], ids=["int32", "float32", "bfloat16", "uint8"])
def test_iota(dt, ck):
    dt = np.dtype(dt)
    ck(lambda: lax.iota(dt, 5), np.arange(5).astype(dt))
    ck(lambda: lax.iota(dt, 0), np.arange(0).astype(dt))
    ck(lambda: lax.broadcasted_iota(dt, (3, 4), 0), np.broadcast_to(np.arange(3)[:, None], (3, 4)).astype(dt))
    ck(lambda: lax.broadcasted_iota(dt, (3, 4), 1), np.broadcast_to(np.arange(4), (3, 4)).astype(dt))
    ck(lambda: lax.broadcasted_iota(dt, (2, 0, 3), 2), np.zeros((2, 0, 3), dt))


# ---- squeeze / expand_dims / rev ---------------------------------------------------------

def test_squeeze_expand_dims(dtype, ck):
    x = rand((1, 3, 1), dtype)
    ck(lax.squeeze, x.reshape(3), x, dimensions=(0, 2))
    ck(lax.squeeze, x.reshape(1, 3), x, dimensions=(-1,))
    ck(lax.squeeze, x, x, dimensions=())
    s = rand((1,), dtype)
    ck(lax.squeeze, s.reshape(()), s, dimensions=(0,))  # to 0-d
    e = rand((1, 0), dtype)
    ck(lax.squeeze, e.reshape(0), e, dimensions=(0,))
    y = rand((2, 3), dtype)
    ck(lax.expand_dims, y.reshape(1, 2, 3, 1), y, dimensions=(0, -1))
    ck(lax.expand_dims, np.expand_dims(y, 1), y, dimensions=(1,))
    z = rand((), dtype)
    ck(lax.expand_dims, z.reshape(1, 1), z, dimensions=(0, 1))


def test_rev(dtype, ck):
    x = rand((2, 3, 4), dtype)
    for dims in [(0,), (1, 2), (-1,), (0, 1, 2), ()]:
        ck(lax.rev, np.flip(x, dims) if dims else x, x, dimensions=dims)
    e = rand((0, 3), dtype)
    ck(lax.rev, e, e, dimensions=(0, 1))
    z = rand((), dtype)
    ck(lax.rev, z, z, dimensions=())


# ---- slice -----------------------------------------------------------------------------

SLICE_CASES = [((5,), (1,), (4,), None), ((4, 6), (0, 1), (4, 6), (2, 3)), ((4, 6), (1, 2), (3, 5), None),
               ((5,), (2,), (2,), None), ((0, 3), (0, 1), (0, 3), None), ((3, 7), (0, 1), (3, 7), (3, 4)),
               ((), (), (), None)]


def test_slice(dtype, ck):
    for xs, start, limit, strides in SLICE_CASES:
        x = rand(xs, dtype)
        ix = tuple(builtins.slice(s, l, 1 if strides is None else st)
                   for s, l, st in zip(start, limit, strides or start))
        ck(lax.slice, x[ix], x, start_indices=start, limit_indices=limit, strides=strides)


def test_slice_in_dim_and_index_in_dim(ck):
    x = rand((4, 5), np.int32)
    ck(lax.slice_in_dim, x[:, 1:4], x, start_index=1, limit_index=4, axis=1)
    ck(lax.slice_in_dim, x[::2], x, start_index=None, limit_index=None, stride=2)
    ck(lax.slice_in_dim, x[:, -3:-1], x, start_index=-3, limit_index=-1, axis=-1)
    ck(lax.index_in_dim, x[:, 2:3], x, index=2, axis=1)
    ck(lax.index_in_dim, x[-1], x, index=-1, keepdims=False)


def test_index_in_dim_out_of_bounds():
    with pytest.raises(ValueError, match=r"index_in_dim: index 5 .*i32\[4,5\]"):
        lax.index_in_dim(padax.device_put(np.zeros((4, 5), np.int32)), 5, axis=0)


# ---- dynamic_slice / dynamic_update_slice ----------------------------------------------------

def _clamped(starts, shape, sizes):
    """Reference start indices: negatives count from the end, then clamp to [0, dim - size]."""
    out = []
    for s, d, w in zip(starts, shape, sizes):
        s = int(s)
        s = s + d if s < 0 else s
        out.append(min(max(s, 0), d - w))
    return out


def _ds_ref(x, starts, sizes):
    st = _clamped(starts, x.shape, sizes)
    return x[tuple(builtins.slice(s, s + w) for s, w in zip(st, sizes))]


def _dus_ref(x, u, starts):
    st = _clamped(starts, x.shape, u.shape)
    out = x.copy()
    out[tuple(builtins.slice(s, s + w) for s, w in zip(st, u.shape))] = u
    return out


DS_STARTS = [(1, 2), (0, 0), (2, 3), (-1, -2), (100, -100), (-(1 << 40), 1 << 40)]


def test_dynamic_slice_static_starts(dtype, ck):
    """Python-int starts; out-of-range ones are clamped (the window stays inside x)."""
    x = rand((4, 6), dtype)
    for starts in DS_STARTS:
        ck(lax.dynamic_slice, _ds_ref(x, starts, (2, 3)), x, start_indices=starts, slice_sizes=(2, 3))


def _ds2(a, i, j):
    return lax.dynamic_slice(a, (i, j), (2, 3))


@pytest.mark.parametrize("idt", [np.int32, np.int8, np.uint8, np.uint32], ids=["int32", "int8", "uint8", "uint32"])
def test_dynamic_slice_array_starts(idt, ck):
    """Run-time start indices (traced under jit): wrapping and clamping happen in the program."""
    x = rand((4, 6), np.float32)
    starts = [(1, 2), (3, 5), (100, 77), (0, 0)]
    if np.dtype(idt).kind == "i":
        starts += [(-1, -2), (-100, -4), (-128, 127)]
    for i, j in starts:
        ck(_ds2, _ds_ref(x, (i, j), (2, 3)), x, np.asarray(i, idt), np.asarray(j, idt))
    ck(lambda a, i: _ds2(a, i, 1), _ds_ref(x, (2, 1), (2, 3)), x, np.asarray(2, idt))  # with a Python int
    ck(_ds2, _ds_ref(x, (2, 5), (2, 3)), x, np.asarray(2, idt), np.int32(5))  # mixed index dtypes


def test_dynamic_slice_0d_empty_and_in_dim(ck):
    z = np.float32(4.0)
    ck(lax.dynamic_slice, np.asarray(z), z, start_indices=(), slice_sizes=())
    x = rand((3, 4), np.int32)
    ck(lax.dynamic_slice, x[1:1, 2:4], x, start_indices=(1, 2), slice_sizes=(0, 2))
    e = np.zeros((0, 2), np.float32)
    ck(lax.dynamic_slice, e, e, start_indices=(5, 0), slice_sizes=(0, 2))
    ck(lambda a, i: lax.dynamic_slice_in_dim(a, i, 2, axis=1), x[:, 2:4], x, np.int32(3))
    ck(lambda a, i: lax.dynamic_index_in_dim(a, i, axis=0, keepdims=False), x[2], x, np.int32(-1))
    ck(lambda a, i: lax.dynamic_index_in_dim(a, i, axis=1), x[:, 1:2], x, np.int32(1))


def _dus2(a, b, i, j):
    return lax.dynamic_update_slice(a, b, (i, j))


def test_dynamic_update_slice(dtype, ck):
    x = rand((4, 6), dtype, np.random.default_rng(1))
    u = rand((2, 3), dtype, np.random.default_rng(2))
    for starts in DS_STARTS:
        ck(lax.dynamic_update_slice, _dus_ref(x, u, starts), x, u, start_indices=starts)
    for i, j in [(1, 2), (9, -9), (-1, -1)]:
        ck(_dus2, _dus_ref(x, u, (i, j)), x, u, np.int32(i), np.int32(j))
    ck(lax.dynamic_update_slice, x, x, u[:0], start_indices=(2, 2))  # empty update
    ck(lax.dynamic_update_slice, x, x, x, start_indices=(3, 3))  # full-size update
    z0, z1 = rand((), dtype, np.random.default_rng(3)), rand((), dtype, np.random.default_rng(4))
    ck(lax.dynamic_update_slice, z1, z0, z1, start_indices=())


def test_dynamic_update_slice_in_dim(ck):
    x = np.zeros((3, 5), np.int32)
    u = np.ones((3, 2), np.int32)
    ck(lambda a, b, i: lax.dynamic_update_slice_in_dim(a, b, i, axis=1), _dus_ref(x, u, (0, 4)),
       x, u, np.int32(4))
    ck(lax.dynamic_update_slice_in_dim, _dus_ref(x, u[:1], (-1, 0)), x, u[:1], start_index=-1, axis=0)


# ---- concatenate / pad ------------------------------------------------------------------------

def test_concatenate(dtype, ck):
    a, b, c = (rand(s, dtype, np.random.default_rng(i)) for i, s in enumerate([(2, 3), (1, 3), (4, 3)]))
    ck(lambda *xs: lax.concatenate(xs, 0), np.concatenate([a, b, c], 0), a, b, c)
    ck(lambda x, y: lax.concatenate([x, y], -1), np.concatenate([a, a], -1), a, a)
    e = rand((0, 3), dtype)
    ck(lambda x, y: lax.concatenate([x, y], 0), np.concatenate([e, b]), e, b)
    ck(lambda x: lax.concatenate([x], 0), a, a)
    v = rand((3,), dtype)
    ck(lambda x, y: lax.concatenate([x, y], 0), np.concatenate([v, v[:2]]), v, v[:2])


def _pad_ref(x, val, config):
    """numpy reference for lax.pad: interior padding, then edge padding (negative edges crop)."""
    shape = [d + max(d - 1, 0) * it for d, (_, _, it) in zip(x.shape, config)]
    out = np.full(shape, val, x.dtype)
    out[tuple(builtins.slice(None, None, it + 1) for _, _, it in config)] = x
    for axis, (lo, hi, _) in enumerate(config):
        widths = [(max(lo, 0), max(hi, 0)) if i == axis else (0, 0) for i in range(out.ndim)]
        out = np.pad(out, widths, constant_values=np.asarray(val, x.dtype))
        n = out.shape[axis]
        out = out[tuple(builtins.slice(max(-lo, 0), n - max(-hi, 0)) if i == axis else builtins.slice(None)
                        for i in range(out.ndim))]
    return out


PAD_CASES = [((3,), [(1, 2, 0)]), ((3,), [(0, 0, 2)]), ((2, 3), [(1, 0, 1), (0, 2, 0)]),
             ((5,), [(-1, -2, 1)]), ((4,), [(-2, 1, 0)]), ((0,), [(2, 1, 3)]), ((), []),
             ((2, 2), [(-1, 0, 0), (0, -2, 0)])]


def test_pad(dtype, ck):
    val = rand((), dtype, np.random.default_rng(9))
    for xs, config in PAD_CASES:
        x = rand(xs, dtype)
        ck(lax.pad, _pad_ref(x, val, config), x, val, padding_config=config)
    x = rand((3,), dtype)
    ck(lax.pad, _pad_ref(x, 0, [(1, 1, 1)]), x, padding_value=0, padding_config=[(1, 1, 1)])


def test_pad_ref_matches_jax():
    """The numpy reference above agrees with jax.lax.pad (the oracle) on negative and interior padding."""
    jax = pytest.importorskip("jax")
    x = np.arange(5, dtype=np.int32)
    for config in [[(-1, -2, 1)], [(2, -3, 2)], [(0, 0, 0)], [(-5, 2, 0)]]:
        np.testing.assert_array_equal(_pad_ref(x, 7, config), np.asarray(jax.lax.pad(x, np.int32(7), config)))


# ---- clamp ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind != "c"], ids=[n for n in DTYPE_IDS if n != "complex64"])
def test_clamp(dtype, ck):
    x = rand((2, 5), dtype, np.random.default_rng(0))
    lo, hi = rand((), dtype, np.random.default_rng(1)), rand((), dtype, np.random.default_rng(2))
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
    ck(lax.clamp, np.minimum(np.maximum(x, lo), hi), lo, x, hi)
    los, his = rand((2, 5), dtype, np.random.default_rng(3)), rand((2, 5), dtype, np.random.default_rng(4))
    ck(lax.clamp, np.minimum(np.maximum(x, los), his), los, x, his)
    ck(lax.clamp, np.minimum(np.maximum(x, los), hi), los, x, hi)  # array bound with a scalar bound
    z = rand((), dtype)
    ck(lax.clamp, np.minimum(np.maximum(z, lo), hi), lo, z, hi)
    e = rand((0, 2), dtype)
    ck(lax.clamp, e, lo, e, hi)


def test_clamp_python_bounds_and_nan(ck):
    x = np.array([np.nan, -5.0, 0.5, 9.0], np.float32)
    ck(lambda a: lax.clamp(-1.0, a, 2), np.array([np.nan, -1.0, 0.5, 2.0], np.float32), x)  # NaN stays
    ck(lambda a: lax.clamp(3, a, 1), np.array([np.nan, 1.0, 1.0, 1.0], np.float32), x)  # min > max: max wins
    ck(lambda a: lax.clamp(0, a, 200), np.array([0, 7, 200], np.int32), np.array([-3, 7, 1000], np.int32))


def test_bfloat16_host_scalars():
    """Host bfloat16 values and Python scalars become bfloat16 operands eagerly."""
    x = padax.device_put(np.array([1.0, 5.0, 9.0], BF16))
    assert_close(lax.pad(x, 0, [(1, 0, 0)]).numpy(), np.array([0.0, 1.0, 5.0, 9.0], BF16))
    assert_close(lax.clamp(np.asarray(2.0, BF16), x, 6.0).numpy(), np.array([2.0, 5.0, 6.0], BF16))
    y = padax.device_put(np.array([1.0, 5.0], BF16))
    assert_close(lax.clamp(2, y, 3).numpy(), np.array([2.0, 3.0], BF16))


# ---- bitcast_convert_type -----------------------------------------------------------------------

def _bitcast_ref(x, dst):
    dst = np.dtype(dst)
    flat = np.ascontiguousarray(x).reshape(-1).view(dst)
    if dst.itemsize == x.dtype.itemsize:
        return flat.reshape(x.shape)
    if dst.itemsize < x.dtype.itemsize:
        return flat.reshape(x.shape + (x.dtype.itemsize // dst.itemsize,))
    return flat.reshape(x.shape[:-1])


BITCAST_CASES = [(np.float32, np.int32, (2, 3)), (np.int32, np.float32, (4,)), (np.float32, np.uint32, ()),
                 (BF16, np.uint16, (3,)), (np.float16, np.int16, (2,)), (np.float32, np.uint8, (2, 3)),
                 (np.uint8, np.float32, (3, 4)), (np.int32, BF16, (2,)), (BF16, np.uint8, ()),
                 (np.uint16, np.float32, (5, 2)), (np.uint8, np.int8, (0, 2)), (np.float32, np.uint16, (0,)),
                 (np.uint8, np.uint8, (3,)), (np.int8, np.uint8, (4,))]


def _bits(src, shape, seed=0):
    """Random bit patterns of dtype `src` (non-finite floats replaced, so comparisons are exact)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, size=(*shape, np.dtype(src).itemsize), dtype=np.uint8).view(src).reshape(shape)
    if np.dtype(src).kind in "fV":
        x = np.where(np.isfinite(x.astype(np.float32)), x, np.asarray(1.5, src)).astype(src)
    return x


def test_bitcast_convert_type(ck):
    for src, dst, shape in BITCAST_CASES:
        x = _bits(src, shape)
        ck(lax.bitcast_convert_type, _bitcast_ref(x, dst), x, new_dtype=dst)


def test_bitcast_convert_type_matches_jax():
    jax = pytest.importorskip("jax")
    x = np.array([[1.0, -2.5], [3.25, 0.0]], np.float32)
    for dst in (np.uint8, np.uint16, np.int32):
        np.testing.assert_array_equal(lax.bitcast_convert_type(padax.device_put(x), dst).numpy(),
                                      np.asarray(jax.lax.bitcast_convert_type(x, dst)))


def test_bitcast_convert_type_x64(x64, ck):
    x = np.array([1.0, -2.0**-30, 1e300], np.float64)
    ck(lax.bitcast_convert_type, x.view(np.int64), x, new_dtype=np.int64)
    ck(lax.bitcast_convert_type, x.view(np.uint32).reshape(3, 2), x, new_dtype=np.uint32)
    ck(lax.bitcast_convert_type, x, x.view(np.uint32).reshape(3, 2), new_dtype=np.float64)


# ---- float64 (x64) -------------------------------------------------------------------------------

def test_structural_ops_float64(x64, ck):
    x = rand((3, 4), np.float64)
    ck(lax.slice, x[1:3, ::3], x, start_indices=(1, 0), limit_indices=(3, 4), strides=(1, 3))
    ck(lambda a: lax.rev(lax.transpose(a, (1, 0)), (0,)), np.flip(x.T, 0), x)
    ck(lambda a: lax.concatenate([a, lax.pad(a, 0.5, [(0, 0, 0), (1, -1, 0)])], 0),
       np.concatenate([x, np.concatenate([np.full((3, 1), 0.5), x[:, :-1]], 1)]), x)
    ck(lambda a, i: lax.dynamic_slice(a, (i, 1), (2, 2)), _ds_ref(x, (-1, 1), (2, 2)), x, np.int64(-1))
    ck(lambda a, i: lax.dynamic_update_slice(a, lax.slice_in_dim(a, 0, 1), (i, 0)),
       _dus_ref(x, x[:1], (1 << 40, 0)), x, np.int64(1 << 40))
    ck(lambda a: lax.clamp(-1.0, a, 1.0), np.clip(x, -1, 1), x)
    ck(lambda a: lax.reshape(lax.squeeze(lax.expand_dims(a, (0,)), (0,)), (12,)), x.reshape(12), x)
    ck(lax.select_n, np.where(x > 0, x, -x), x > 0, -x, x)
    ck(lambda: lax.broadcasted_iota(np.float64, (2, 3), 1), np.broadcast_to(np.arange(3.0), (2, 3)))
    c = (x + 1j * x).astype(np.complex128)
    ck(lax.dynamic_slice, c[1:, 2:], c, start_indices=(7, 7), slice_sizes=(2, 2))


# ---- jaxprs and avals -----------------------------------------------------------------------------

def test_jaxpr_params_and_weak_types():
    x = padax.device_put(np.zeros((2, 4), np.float32))

    def f(a):
        return lax.pad(lax.rev(lax.slice(a, (0, 1), (2, 4), (1, 2)), (1,)), 0.0, [(1, 0, 0), (0, 1, 1)])

    jaxpr = padax.make_jaxpr(f)(x)
    text = str(jaxpr)
    for name in ("slice[", "rev[", "pad["):
        assert name in text
    for eqn in jaxpr.jaxpr.eqns:
        hash(tuple(eqn.params.items()))  # params must key the executable caches
    w = padax.device_put(2.0)  # a weakly typed scalar
    assert w.aval.weak_type
    assert lax.expand_dims(w, (0,)).aval.weak_type
    assert lax.concatenate([lax.expand_dims(w, (0,))] * 2, 0).aval.weak_type
    assert not lax.bitcast_convert_type(w, np.int32).aval.weak_type


# ---- errors -------------------------------------------------------------------------------------

def _err(exc, pattern, f, *args):
    """The error has the right type, names the op and the shapes, and points at this file."""
    with pytest.raises(exc, match=pattern) as info:
        f(*args)
    assert "test_structural.py" in str(info.value)


X = np.zeros((3, 4), np.float32)


def test_errors(mode):
    def call(f, *args):
        return run(mode, f, *args)

    _err(ValueError, r"slice: .*\(0, 1\).*\(4, 4\).*out of bounds.*f32\[3,4\]", call,
         lambda a: lax.slice(a, (0, 1), (4, 4)), X)
    _err(ValueError, r"slice: .*\(2, 0\).*\(1, 4\).*f32\[3,4\]", call, lambda a: lax.slice(a, (2, 0), (1, 4)), X)
    _err(ValueError, r"slice: .*\(-1, 0\).*f32\[3,4\]", call, lambda a: lax.slice(a, (-1, 0), (3, 4)), X)
    _err(ValueError, r"slice: .*f32\[3,4\]", call, lambda a: lax.slice(a, (0,), (3,)), X)
    _err(ValueError, r"slice: strides \(0, 1\).*f32\[3,4\]", call, lambda a: lax.slice(a, (0, 0), (3, 4), (0, 1)), X)
    _err(TypeError, r"concatenate: .*dimension 0.*f32\[3,4\], f32\[3,5\]", call,
         lambda a, b: lax.concatenate([a, b], 0), X, np.zeros((3, 5), np.float32))
    _err(TypeError, r"concatenate: .*f32\[3,4\], f32\[4\]", call,
         lambda a, b: lax.concatenate([a, b], 0), X, np.zeros(4, np.float32))
    _err(TypeError, r"concatenate: .*same dtype.*f32\[3,4\], i32\[3,4\]", call,
         lambda a, b: lax.concatenate([a, b], 0), X, np.zeros((3, 4), np.int32))
    _err(ValueError, r"concatenate: dimension 2 .*f32\[3,4\]", call, lambda a: lax.concatenate([a, a], 2), X)
    _err(ValueError, r"transpose: permutation \(0, 0\).*f32\[3,4\]", call, lambda a: lax.transpose(a, (0, 0)), X)
    _err(ValueError, r"transpose: permutation \(1, 0, 2\).*f32\[3,4\]", call,
         lambda a: lax.transpose(a, (1, 0, 2)), X)
    _err(ValueError, r"reshape: .*f32\[3,4\] \(12 elements\).*\(5, 2\)", call, lambda a: lax.reshape(a, (5, 2)), X)
    _err(ValueError, r"reshape: .*f32\[3,4\].*\(-1, -12\)", call, lambda a: lax.reshape(a, (-1, -12)), X)
    _err(ValueError, r"broadcast_in_dim: .*f32\[3,4\].*\(3, 5\)", call,
         lambda a: lax.broadcast_in_dim(a, (3, 5), (0, 1)), X)
    _err(ValueError, r"squeeze: .*\(1,\).*f32\[3,4\]", call, lambda a: lax.squeeze(a, (1,)), X)
    _err(ValueError, r"squeeze: axis 2 .*rank 2 \(operand f32\[3,4\]\)", call, lambda a: lax.squeeze(a, (2,)), X)
    _err(ValueError, r"expand_dims: axis -4 .*rank 3 \(operand f32\[3,4\]\)", call,
         lambda a: lax.expand_dims(a, -4), X)
    _err(ValueError, r"squeeze: repeated axis in \(0, -2\).*f32\[1,4\]", call,
         lambda a: lax.squeeze(a, (0, -2)), np.zeros((1, 4), np.float32))
    _err(ValueError, r"rev: repeated axis.*f32\[3,4\]", call, lambda a: lax.rev(a, (0, -2)), X)
    _err(ValueError, r"dynamic_slice: slice_sizes \(4, 1\).*f32\[3,4\]", call,
         lambda a: lax.dynamic_slice(a, (0, 0), (4, 1)), X)
    _err(ValueError, r"dynamic_slice: .*f32\[3,4\]", call, lambda a: lax.dynamic_slice(a, (0,), (1,)), X)
    _err(TypeError, r"dynamic_slice: .*integer scalars.*f32\[\].*f32\[3,4\]", call,
         lambda a, i: lax.dynamic_slice(a, (i, 0), (1, 1)), X, np.float32(0))
    _err(TypeError, r"dynamic_slice: .*integer scalars.*i32\[2\].*f32\[3,4\]", call,
         lambda a, i: lax.dynamic_slice(a, (i, 0), (1, 1)), X, np.zeros(2, np.int32))
    _err(TypeError, r"dynamic_update_slice: update f32\[4,1\].*f32\[3,4\]", call,
         lambda a, u: lax.dynamic_update_slice(a, u, (0, 0)), X, np.zeros((4, 1), np.float32))
    _err(TypeError, r"dynamic_update_slice: update i32\[1,1\].*f32\[3,4\]", call,
         lambda a, u: lax.dynamic_update_slice(a, u, (0, 0)), X, np.zeros((1, 1), np.int32))
    _err(ValueError, r"pad: .*\(-3, -1, 0\).*f32\[3,4\].*negative shape", call,
         lambda a: lax.pad(a, 0.0, [(-3, -1, 0), (0, 0, 0)]), X)
    _err(ValueError, r"pad: interior.*>= 0", call, lambda a: lax.pad(a, 0.0, [(0, 0, -1), (0, 0, 0)]), X)
    _err(ValueError, r"pad: .*triple per axis of f32\[3,4\]", call, lambda a: lax.pad(a, 0.0, [(0, 0, 0)]), X)
    _err(TypeError, r"pad: padding_value .*i32\[\].*f32\[3,4\]", call,
         lambda a, v: lax.pad(a, v, [(0, 0, 0)] * 2), X, np.int32(0))
    _err(TypeError, r"clamp: .*f32\[3\].*f32\[3,4\]", call,
         lambda a, b: lax.clamp(b, a, 1.0), X, np.zeros(3, np.float32))
    _err(TypeError, r"clamp: .*i32\[\].*f32\[3,4\]", call, lambda a, b: lax.clamp(b, a, 1.0), X, np.int32(0))
    _err(TypeError, r"clamp: complex.*c64\[2\]", call, lambda a: lax.clamp(0j, a, 1j), np.zeros(2, np.complex64))
    _err(TypeError, r"bitcast_convert_type: .*bool\[2\].*uint8", call,
         lambda a: lax.bitcast_convert_type(a, np.uint8), np.zeros(2, bool))
    _err(TypeError, r"bitcast_convert_type: .*c64\[2\].*float32", call,
         lambda a: lax.bitcast_convert_type(a, np.float32), np.zeros(2, np.complex64))
    _err(ValueError, r"bitcast_convert_type: .*u8\[3,2\].*size 4", call,
         lambda a: lax.bitcast_convert_type(a, np.float32), np.zeros((3, 2), np.uint8))
    _err(TypeError, r"select_n: .*f32\[3,4\], i32\[3,4\]", call,
         lambda p, a, b: lax.select_n(p, a, b), np.zeros((3, 4), bool), X, np.zeros((3, 4), np.int32))
    _err(TypeError, r"select_n: predicate must be bool or int32, got f32\[3,4\]", call,
         lambda p, a, b: lax.select_n(p, a, b), X, X, X)
