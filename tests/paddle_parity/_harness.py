"""The machinery of the Paddle parity table: argument markers, one case, and the comparison.

A case names a padax/Paddle function by its dotted path ("sum", "linalg.inv",
"fft.rfft", "Tensor.sum" for a method called on the first argument) and
gives its arguments. Array arguments are markers (`A(shape, dtype, low,
high)`, `I(...)` for integers in a range, `Arr(values, dtype)` for fixed
data) that become the same host array, then a padax Tensor and a Paddle
Tensor. Both frameworks are called; their results are flattened (tuples,
lists) and compared leaf by leaf: dtype name, shape and values (to a
tolerance that fits the dtype). `values=False` compares dtype and shape
only (random draws); `raises=True` says Paddle refuses the call and padax
must refuse it too.
"""
from __future__ import annotations

import dataclasses
import zlib
from typing import Any, Callable

import ml_dtypes
import numpy as np

import padax

_RTOL = {"float64": 1e-9, "complex128": 1e-9, "float32": 2e-5, "complex64": 2e-5, "float16": 2e-3,
         "bfloat16": 1.6e-2}


@dataclasses.dataclass(frozen=True)
class A:
    """A random array of `shape` and `dtype` with entries in [low, high) (integers: a range of ints)."""
    shape: tuple
    dtype: str = "float32"
    low: float = -3.0
    high: float = 3.0

    def host(self, rng: np.random.Generator) -> np.ndarray:
        dt = np.dtype(ml_dtypes.bfloat16) if self.dtype == "bfloat16" else np.dtype(self.dtype)
        if dt == np.bool_:
            return rng.random(self.shape) > 0.5
        if dt.kind in "iu":
            return rng.integers(int(self.low), int(self.high), size=self.shape).astype(dt)
        if dt.kind == "c":
            re = rng.uniform(self.low, self.high, self.shape)
            return (re + 1j * rng.uniform(self.low, self.high, self.shape)).astype(dt)
        return rng.uniform(self.low, self.high, self.shape).astype(dt)


def I(shape, low: int = 0, high: int = 5, dtype: str = "int64") -> A:  # noqa: E743
    """Random integers in [low, high)."""
    return A(tuple(shape), dtype, low, high)


@dataclasses.dataclass(frozen=True)
class Arr:
    """Fixed data (a nested list) as an array of `dtype`."""
    values: Any
    dtype: str = "float32"

    def host(self, rng: np.random.Generator) -> np.ndarray:
        dt = np.dtype(ml_dtypes.bfloat16) if self.dtype == "bfloat16" else np.dtype(self.dtype)
        return np.asarray(self.values).astype(dt)


@dataclasses.dataclass(frozen=True)
class Lst:
    """A Python list of array markers (concat, stack, meshgrid, ...)."""
    items: tuple


@dataclasses.dataclass(frozen=True)
class Np:
    """An array marker passed as a numpy array (not a Tensor) to both frameworks."""
    marker: Any


@dataclasses.dataclass
class Case:
    path: str
    args: tuple
    kwargs: dict
    values: bool = True
    raises: bool = False
    rtol: float | None = None
    atol: float | None = None
    id: str = ""
    post: Callable | None = None  # applied to both results' host values (e.g. sort an unordered output)
    jit: bool = False  # run padax as one compiled program (cheaper than one compile per primitive for composites)


# composites of many primitives: one compile of the whole call is cheaper than one per primitive
_JIT = {"median", "nanmedian", "quantile", "nanquantile", "kthvalue", "mode", "logcumsumexp", "histogram",
        "histogramdd", "histogram_bin_edges", "cummax", "cummin", "var", "std", "cdist", "pdist", "renorm",
        "linalg.lstsq", "linalg.pinv", "linalg.matrix_rank", "linalg.cond", "linalg.svd_lowrank",
        "linalg.pca_lowrank", "linalg.matrix_exp", "linalg.eig", "linalg.eigvals", "linalg.lu_unpack",
        "linalg.householder_product", "linalg.ormqr", "linalg.multi_dot", "linalg.norm", "linalg.matrix_norm",
        "i0", "i0e", "i1", "i1e", "polygamma", "multigammaln", "searchsorted", "bucketize", "put_along_axis",
        "lerp", "cartesian_prod", "combinations", "einsum", "tensordot"}


def case(path: str, *args: Any, values: bool = True, raises: bool = False, rtol: float | None = None,
         atol: float | None = None, tag: str = "", post: Callable | None = None, jit: bool | None = None,
         **kwargs: Any) -> Case:
    desc = ",".join([_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()])
    jit = path.removeprefix("Tensor.") in _JIT if jit is None else jit
    return Case(path, args, kwargs, values, raises, rtol, atol, f"{path}({desc}){tag}", post, jit)


def _short(a: Any) -> str:
    if isinstance(a, A):
        return f"{a.dtype}{list(a.shape)}"
    if isinstance(a, Arr):
        return f"{a.dtype}{np.shape(a.values)}"
    if isinstance(a, Lst):
        return "[" + ",".join(_short(x) for x in a.items) + "]"
    if isinstance(a, Np):
        return "np." + _short(a.marker)
    return repr(a).replace(" ", "")


# ---- building the arguments of each framework ----------------------------------------------------------

def _to_paddle(paddle, host: np.ndarray):
    if host.dtype == ml_dtypes.bfloat16:
        return paddle.to_tensor(host.astype(np.float32)).astype("bfloat16")
    return paddle.to_tensor(host)


def _build(arg: Any, rng_state: dict, which: str, paddle) -> Any:
    """Materialise markers; the host arrays are drawn once and shared between the two frameworks."""
    if isinstance(arg, (A, Arr)):
        host = _build_host(arg, rng_state)
        return padax.to_tensor(host) if which == "padax" else _to_paddle(paddle, host)
    if isinstance(arg, Np):
        return np.array(_build_host(arg.marker, rng_state))
    if isinstance(arg, Lst):
        return [_build(a, rng_state, which, paddle) for a in arg.items]
    if isinstance(arg, tuple):
        return tuple(_build(a, rng_state, which, paddle) for a in arg)
    if isinstance(arg, list):
        return [_build(a, rng_state, which, paddle) for a in arg]
    return arg


def _build_host(marker, rng_state: dict) -> np.ndarray:
    key = id(marker)
    if key not in rng_state:
        rng_state[key] = marker.host(rng_state["rng"])
    return rng_state[key]


def _resolve(root, path: str):
    obj = root
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _invoke(c: Case, root, args: list, kwargs: dict) -> Any:
    if c.path.startswith("Tensor."):
        return getattr(args[0], c.path[len("Tensor."):])(*args[1:], **kwargs)
    return _resolve(root, c.path)(*args, **kwargs)


def _split_arrays(x: Any, arrays: list) -> Any:
    """x with each padax Tensor replaced by its position in `arrays` (which collects them)."""
    if isinstance(x, padax.Tensor):
        arrays.append(x)
        return _Slot(len(arrays) - 1)
    if isinstance(x, (list, tuple)):
        return type(x)(_split_arrays(v, arrays) for v in x)
    if isinstance(x, dict):
        return {k: _split_arrays(v, arrays) for k, v in x.items()}
    return x


def _fill(x: Any, arrays: tuple) -> Any:
    if isinstance(x, _Slot):
        return arrays[x.i]
    if isinstance(x, (list, tuple)):
        return type(x)(_fill(v, arrays) for v in x)
    if isinstance(x, dict):
        return {k: _fill(v, arrays) for k, v in x.items()}
    return x


@dataclasses.dataclass(frozen=True)
class _Slot:
    i: int


def call(c: Case, which: str, paddle, rng_state: dict) -> Any:
    """Paddle eagerly; padax eagerly too, or (`jit` cases) as one compiled program of the Tensor arguments,
    falling back to eager where that cannot be compiled (a data-dependent output shape)."""
    root = padax if which == "padax" else paddle
    args = [_build(a, rng_state, which, paddle) for a in c.args]
    kwargs = {k: _build(v, rng_state, which, paddle) for k, v in c.kwargs.items()}
    if which == "paddle" or not c.jit:
        return _invoke(c, root, args, kwargs)
    arrays: list = []
    skeleton = _split_arrays((args, kwargs), arrays)

    def program(*arrs):
        a, k = _fill(skeleton, arrs)
        return _invoke(c, root, list(a), k)

    try:
        return padax.jit(program)(*arrays)
    except Exception:  # noqa: BLE001  (a data-dependent shape, a Python result, or a real error: run it eagerly)
        return _invoke(c, root, args, kwargs)


# ---- comparing the results -------------------------------------------------------------------------------

def _leaves(x: Any, paddle) -> list:
    if isinstance(x, (tuple, list)):
        out = []
        for v in x:
            out.extend(_leaves(v, paddle))
        return [("seq", len(x))] + out
    if isinstance(x, padax.Tensor):
        return [("tensor", x.dtype.name, tuple(x.shape), np.asarray(x))]
    if isinstance(x, np.ndarray):  # (Tensor.numpy())
        return [("tensor", x.dtype.name if x.dtype != ml_dtypes.bfloat16 else "bfloat16", x.shape, x)]
    if paddle is not None and isinstance(x, paddle.Tensor):
        name = str(x.dtype).replace("paddle.", "")
        v = x.astype("float32").numpy() if name in ("bfloat16", "float8_e4m3fn", "float8_e5m2") else x.numpy()
        return [("tensor", name, tuple(x.shape), np.asarray(v))]
    return [("py", type(x).__name__, x)]


def compare(c: Case, got: Any, want: Any, paddle) -> None:
    gl, wl = _leaves(got, None), _leaves(want, paddle)
    assert [k[0] for k in gl] == [k[0] for k in wl] and [k[1] for k in gl if k[0] == "seq"] == \
        [k[1] for k in wl if k[0] == "seq"], f"structure differs: padax {_kinds(gl)} vs paddle {_kinds(wl)}"
    for i, (g, w) in enumerate(zip(gl, wl)):
        if g[0] == "seq":
            continue
        if g[0] == "py":
            gv, wv = g[2], w[2]
            if isinstance(wv, float) or isinstance(gv, float):
                np.testing.assert_allclose(gv, wv, rtol=1e-6, err_msg=f"leaf {i}")
            else:
                assert gv == wv, f"leaf {i}: padax {gv!r} vs paddle {wv!r}"
            continue
        _, gdt, gshape, gval = g
        _, wdt, wshape, wval = w
        assert gdt == wdt, f"leaf {i}: dtype padax {gdt} vs paddle {wdt}"
        assert gshape == wshape, f"leaf {i}: shape padax {list(gshape)} vs paddle {list(wshape)}"
        if not c.values:
            continue
        if c.post is not None:
            gval, wval = c.post(gval), c.post(wval)
        if gval.dtype.kind in "fcV" or gdt in _RTOL:
            r = _RTOL.get(gdt, 1e-5) if c.rtol is None else c.rtol
            a = r if c.atol is None else c.atol
            kind = np.complex128 if np.asarray(wval).dtype.kind == "c" else np.float64
            np.testing.assert_allclose(np.asarray(gval).astype(kind), np.asarray(wval).astype(kind), rtol=r, atol=a,
                                       equal_nan=True, err_msg=f"leaf {i} ({gdt})")
        else:
            np.testing.assert_array_equal(gval, wval, err_msg=f"leaf {i} ({gdt})")


def _kinds(leaves: list) -> list:
    return [(k[0], k[1]) if k[0] != "py" else ("py", k[1]) for k in leaves]


def run_case(c: Case, paddle) -> None:
    """Call padax and Paddle on the same inputs and compare; with `raises`, both must refuse."""
    seed = zlib.crc32(c.id.encode())
    state_p = {"rng": np.random.default_rng(seed)}
    if c.raises:
        try:
            call(c, "paddle", paddle, state_p)
        except Exception:  # noqa: BLE001  (any refusal by the oracle)
            pass
        else:
            raise AssertionError("the case says Paddle refuses this call, but Paddle accepted it")
        state_x = {"rng": np.random.default_rng(seed)}
        try:
            call(c, "padax", paddle, state_x)
        except (TypeError, ValueError, IndexError, RuntimeError):
            return
        raise AssertionError("Paddle refuses this call; padax accepted it")
    want = call(c, "paddle", paddle, state_p)
    state_x = {"rng": np.random.default_rng(seed)}
    got = call(c, "padax", paddle, state_x)
    compare(c, got, want, paddle)
