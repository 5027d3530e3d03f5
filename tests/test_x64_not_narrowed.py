"""No explicit 64-bit dtype is narrowed anywhere in the public API: every function of padax, padax.linalg,
padax.fft and padax.numpy given float64 / complex128 inputs returns no 32-bit floats, given int64 inputs
no int32 (integer inputs of float functions compute in the default float dtype, by Paddle's rule), and
every creation and random function given dtype='float64' / 'int64' / 'complex128' returns that dtype.

The sweep finds the functions itself (every public callable that accepts the probe arguments), so a new
function is covered without being listed; it traces with `eval_shape` (dtype inference, no compiling),
running eagerly only what tracing cannot (data-dependent shapes)."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import padax
from padax.core.errors import ConcretizationTypeError

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")

_NARROW = {np.dtype(np.float32), np.dtype(np.complex64), np.dtype(np.float16)}
_NARROW_INT = {np.dtype(np.int32)}

# 32-bit outputs that are Paddle's own conventions, not narrowing
_PADDLE_32BIT = {
    "histogram_bin_edges": "Paddle's bin edges are float32 whatever the input",
    "linalg.lu": "LU pivots are int32, as LAPACK's and Paddle's", "linalg.lstsq": "rank is int32, as in Paddle",
    "linalg.matrix_rank": "int64 rank; (listed for its int32 on the numpy side)",
    "numpy.frexp": "the exponent is int32, as numpy's and jax's (padax.frexp follows Paddle: x's dtype)",
}
# not functions of arrays (or not callable on a probe), so not part of the sweep
_SKIP = {"jit", "grad", "value_and_grad", "vmap", "jvp", "vjp", "linearize", "linear_transpose", "jacfwd", "jacrev",
         "hessian", "make_jaxpr", "eval_shape", "checkpoint", "recompute", "custom_jvp", "custom_vjp", "shard_map",
         "device_put", "save", "load", "seed", "manual_seed", "set_printoptions", "set_device", "set_default_dtype",
         "set_rng_state", "set_cuda_rng_state", "create_parameter", "enable_x64", "disable_jit", "make_mesh",
         "visualize_array_sharding", "tolist", "broadcast_shape", "broadcast_shapes", "shape", "is_tensor",
         "numel", "rank", "cond", "while_loop", "fori_loop", "scan", "switch", "from_numpy", "lstsq",
         # their array argument is a shape (the dtype= sweep below checks them)
         "zeros", "ones", "empty", "numpy.zeros", "numpy.ones", "numpy.empty"}


def _probe_args(dtype):
    rng = np.random.default_rng(0)
    if np.dtype(dtype).kind == "c":
        vec = (rng.uniform(0.5, 2, 4) + 1j * rng.uniform(0.5, 2, 4)).astype(dtype)
        mat = (rng.uniform(0.5, 2, (3, 3)) + 1j * rng.uniform(0.5, 2, (3, 3))).astype(dtype) + 3 * np.eye(3)
    elif np.dtype(dtype).kind == "i":
        vec, mat = rng.integers(1, 4, 4).astype(dtype), rng.integers(1, 4, (3, 3)).astype(dtype)
    else:
        vec = rng.uniform(0.5, 2, 4).astype(dtype)
        mat = rng.uniform(0.5, 2, (3, 3)).astype(dtype) + 3 * np.eye(3, dtype=dtype)
    return [(padax.to_tensor(mat),), (padax.to_tensor(vec),), (padax.to_tensor(mat), padax.to_tensor(mat)),
            (padax.to_tensor(vec), padax.to_tensor(vec))]


def _leaves(x):
    if isinstance(x, (list, tuple)):
        return [y for v in x for y in _leaves(v)]
    if isinstance(x, dict):
        return [y for v in x.values() for y in _leaves(v)]
    return [x] if hasattr(x, "dtype") and hasattr(x, "shape") else []


def _result_dtypes(fn, args):
    """Result dtypes by tracing (eval_shape), or eagerly where the result shape depends on the data;
    None when the function does not take these arguments."""
    try:
        out = padax.eval_shape(lambda *a: fn(*a), *args)
    except Exception as e:  # noqa: BLE001  (not a function of these arguments, or a data-dependent shape)
        if not isinstance(e, ConcretizationTypeError) and "depends on the values" not in str(e):
            return None
        try:
            out = fn(*args)
        except Exception:  # noqa: BLE001
            return None
    return [np.dtype(leaf.dtype) for leaf in _leaves(out)]


def _functions(mod, prefix: str):
    for name in sorted(dir(mod)):
        if name.startswith("_") or name in _SKIP or prefix + name in _SKIP:
            continue
        fn = getattr(mod, name)
        if inspect.isclass(fn) or inspect.ismodule(fn) or not callable(fn):
            continue
        yield prefix + name, fn


_NAMESPACES = [("", padax), ("linalg.", padax.linalg), ("fft.", padax.fft), ("numpy.", padax.numpy),
               ("numpy.linalg.", padax.numpy.linalg), ("numpy.fft.", padax.numpy.fft)]


@pytest.mark.parametrize("dtype", ["float64", "int64", "complex128"])
def test_64bit_inputs_give_64bit_results(dtype):
    narrowed, tried = [], 0
    for prefix, mod in _NAMESPACES:
        for name, fn in _functions(mod, prefix):
            if name in _PADDLE_32BIT or name.removeprefix("numpy.") in ("bitwise_count",):
                continue
            for args in _probe_args(dtype):
                got = _result_dtypes(fn, args)
                if got is None:
                    continue
                tried += 1
                # integer inputs of float functions compute in the default float dtype (Paddle's rule), so
                # from int64 only int32 results count as narrowed
                narrow = _NARROW_INT if dtype == "int64" else _NARROW
                bad = [d.name for d in got if d in narrow]
                if bad:
                    narrowed.append(f"{name}{tuple(a.aval.str_short() for a in args)} -> {bad}")
                break
    assert tried > 150, f"the sweep reached only {tried} functions"
    assert not narrowed, "64-bit inputs narrowed to 32-bit:\n" + "\n".join(narrowed)


_CREATION = {
    "zeros": lambda dt: padax.zeros([2, 3], dt), "ones": lambda dt: padax.ones([2], dtype=dt),
    "full": lambda dt: padax.full([2], 1, dt), "empty": lambda dt: padax.empty([2], dt),
    "eye": lambda dt: padax.eye(3, dtype=dt), "arange": lambda dt: padax.arange(0, 5, dtype=dt),
    "range": lambda dt: padax.range(0, 4, dtype=dt), "linspace": lambda dt: padax.linspace(0, 1, 5, dt),
    "logspace": lambda dt: padax.logspace(0, 1, 5, dtype=dt), "to_tensor": lambda dt: padax.to_tensor([1, 2], dt),
    "as_tensor": lambda dt: padax.as_tensor([1.5], dt), "asarray": lambda dt: padax.asarray([1], dtype=dt),
    "zeros_like": lambda dt: padax.zeros_like(padax.ones([2]), dt), "ones_like": lambda dt: padax.ones_like(padax.ones([2]), dt),
    "full_like": lambda dt: padax.full_like(padax.ones([2]), 3, dt), "empty_like": lambda dt: padax.empty_like(padax.ones([2]), dt),
    "cast": lambda dt: padax.cast(padax.ones([2]), dt), "tril_indices": lambda dt: padax.tril_indices(3, 3, 0, dt),
    "numpy.zeros": lambda dt: padax.numpy.zeros(3, dt), "numpy.arange": lambda dt: padax.numpy.arange(3, dtype=dt),
    "numpy.asarray": lambda dt: padax.numpy.asarray([1, 2], dtype=dt), "numpy.linspace": lambda dt: padax.numpy.linspace(0, 1, 3, dtype=dt),
    "numpy.full": lambda dt: padax.numpy.full(3, 1, dtype=dt), "numpy.eye": lambda dt: padax.numpy.eye(2, dtype=dt),
}
_RANDOM = {
    "rand": lambda dt: padax.rand([3], dt), "randn": lambda dt: padax.randn([3], dt), "uniform": lambda dt: padax.uniform([3], dt),
    "standard_normal": lambda dt: padax.standard_normal([3], dt), "randint": lambda dt: padax.randint(0, 5, [3], dt),
    "randperm": lambda dt: padax.randperm(4, dt), "randint_like": lambda dt: padax.randint_like(padax.ones([2]), 0, 4, dt),
    "rand_like": lambda dt: padax.rand_like(padax.ones([2]), dtype=dt), "randn_like": lambda dt: padax.randn_like(padax.ones([2]), dt),
    "random.uniform": lambda dt: padax.random.uniform(padax.random.key(0), (3,), dt),
    "random.normal": lambda dt: padax.random.normal(padax.random.key(0), (3,), dt),
    "random.randint": lambda dt: padax.random.randint(padax.random.key(0), (3,), 0, 5, dt),
    "random.gamma": lambda dt: padax.random.gamma(padax.random.key(0), 2.0, (3,), dt),
    "random.poisson": lambda dt: padax.random.poisson(padax.random.key(0), 2.0, (3,), dt),
    "random.binomial": lambda dt: padax.random.binomial(padax.random.key(0), 5.0, 0.5, (3,), dt),
    "fft.fftfreq": lambda dt: padax.fft.fftfreq(4, dtype=dt), "fft.rfftfreq": lambda dt: padax.fft.rfftfreq(4, dtype=dt),
}
_KINDS = {"float64": "f", "int64": "i", "complex128": "c"}


@pytest.mark.parametrize("dtype", ["float64", "int64", "complex128"])
def test_64bit_dtype_arguments_are_kept(dtype):
    kept, refused = 0, []
    for name, make in {**_CREATION, **_RANDOM}.items():
        try:  # creation traced (dtype inference only); the stateful random draws run eagerly
            out = padax.eval_shape(lambda: make(dtype)) if name in _CREATION else make(dtype)
        except (TypeError, ValueError) as e:  # a dtype the function does not take (e.g. randint of floats)
            refused.append(f"{name}: {type(e).__name__}")
            continue
        assert np.dtype(out.dtype) == np.dtype(dtype), f"{name}(dtype={dtype}) gave {out.dtype}"
        kept += 1
    assert kept >= {"float64": 35, "int64": 25, "complex128": 20}[dtype], refused
