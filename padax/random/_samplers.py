"""Samplers: functions of (key, parameters, static shape and dtype) built from padax.lax ops.

Each public sampler checks its arguments in Python, then calls one jitted
implementation (shape, dtype and the key's implementation are static), so an
eager call is a single compiled program per signature, and a call under
jit or vmap stages that same program: the same key gives the same numbers
eagerly, under jit, and in each lane of a vmap over keys (floats may differ in
the last bit where XLA fuses the program inlined in a larger one differently).

Algorithms:

* uniform: the top mantissa-width bits of a random word become the mantissa of a
  float in [1, 2); subtracting 1 gives [0, 1) on an evenly spaced grid, which is
  scaled to [minval, maxval) (clamped so rounding cannot reach maxval).
* normal: sqrt(2) * erf_inv(u) with u uniform in (-1, 1) (inverse CDF).
* truncated_normal: the inverse CDF restricted to [erf(lower/sqrt2), erf(upper/sqrt2)];
  results are clamped into the open interval. Far tails (|bound| > ~5 in float32)
  are coarse, because erf rounds to +-1 there.
* randint: two random words x (2W bits) map to floor(x * span / 2**(2W)) with
  exact multi-word integer arithmetic (W = 32, or 64 for 64-bit dtypes); the bias
  is below span / 2**(2W) (< 2**-32).
* bernoulli: u < p. gumbel: -log(-log(u)). exponential: -log1p(-u).
* categorical: Gumbel-max, argmax(logits + gumbel noise).
* permutation: a stable sort by two random 32-bit words per element (64-bit
  keys: ties, which would keep the input order, have probability ~n**2 / 2**65).
* choice: randint (uniform, with replacement), inverse CDF by counting cumulative
  probabilities below u (weighted, with replacement; O(size * n) work), a
  prefix of a permutation (uniform, without replacement), Gumbel-top-k
  (weighted, without replacement).
* multinomial: n categorical draws (Gumbel-max) counted per category; n is a
  static Python int and the work is O(n * K) per sample.
* gamma: Marsaglia & Tsang (2000) rejection: d = a - 1/3, x normal, v = (1 + x/sqrt(9d))**3,
  accept d*v if log u < x**2/2 + d - d*v + d*log v; a < 1 draws with a + 1 and multiplies
  by u**(1/a). Done in log space (`loggamma`) so tiny `a` does not underflow to 0.
* beta: X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b), from log-gammas.
  dirichlet: normalised gammas (a softmax of log-gammas).
* poisson: Knuth's multiplication method for lam < 10, Hormann's transformed
  rejection with squeeze (PTRS, 1993) for lam >= 10.
* binomial: with q = min(p, 1 - p) (the count of the rarer outcome, flipped back at
  the end): geometric waiting times (inversion) for n*q < 10, Hormann's
  transformed rejection (BTRS, 1993) with the exact log-ratio test for n*q >= 10,
  computed in float64 (the test subtracts log-gammas of size n log n).

The rejection samplers (gamma, beta, dirichlet, poisson, binomial) run one vectorised
`while_loop`: round r draws for the whole array (threefry counters (r, i), so
one hash per round gives both uniforms of a float32 trial) and fixes the
elements that accept, until all have (at most 1000 rounds; the acceptance rates
make more than a few tens astronomically unlikely). Under vmap over keys the
loop runs until every lane is done, each lane keeping its own values.
float16/bfloat16 requests are computed in float32 and rounded.

Derivatives with respect to parameters: gamma, loggamma, beta and dirichlet are
differentiable in their shape parameters by implicit reparameterisation (the
sample moves with the parameter so that its quantile stays fixed: dx/da =
-(dCDF/da)/pdf at the sample, see `_gamma_grad`), as jax's are; beta and
dirichlet inherit it through their log-gamma draws. uniform, normal,
truncated_normal, exponential, gumbel are transformations of fixed noise and
differentiate through their parameters directly. poisson, bernoulli,
categorical, randint, choice and multinomial have discrete outputs: their
parameters get zero gradients (float0 tangents), as in jax.

Samplers needing several words per element (randint, permutation, the rejection
rounds) take both 32-bit output words of each hash instead of hashing twice: XLA's
compile time grows with the number of unrolled hashes.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import custom_jvp, dtypes, jit, stop_gradient
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, aval_of, broadcast_shapes, broadcast_to, full, is_array
from padax.functional.lax.control import while_loop
from padax.functional.lax.cumulative import cumsum
from padax.functional.lax.elementwise import (
    abs as _abs,
    add,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    complex as _complex,
    div,
    eq,
    erf,
    erf_inv,
    exp,
    floor,
    ge,
    gt,
    le,
    lgamma,
    log,
    log1p,
    lt,
    max as _max,
    min as _min,
    mul,
    neg,
    nextafter,
    shift_right_logical,
    sqrt,
    sub,
)
from padax.functional.lax.indexing import GatherDimensionNumbers, gather
from padax.functional.lax.reductions import argmax, reduce_max, reduce_or, reduce_sum
from padax.functional.lax.sorting import sort, top_k
from padax.functional.lax.structural import (
    bitcast_convert_type,
    broadcast_in_dim,
    broadcasted_iota,
    concatenate,
    convert_element_type,
    iota,
    reshape,
    select,
    slice as _slice,
    transpose,
)
from padax.random._gamma_grad import gamma_log_sample_grad
from padax.random._keys import _MASK32, _UINT, bits_impl, canonical_shape, check_key, split2, words_impl

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_MAX_ROUNDS = 1000  # cap on rejection rounds (termination guarantee; never reached in practice)


# ---- argument checks (Python level, before the jitted implementations) -----------------------

def _float_dtype(op: str, dtype: Any, allow_complex: bool = False) -> np.dtype:
    d = dtypes.canonicalize_dtype(dtypes.default_float_dtype() if dtype is None else dtype)
    if d in _FLOATS or (allow_complex and dtypes.is_complex(d)):
        return d
    kinds = "a floating or complex" if allow_complex else "a floating"
    raise op_type_error(op, f"dtype must be {kinds} type (float16, bfloat16, float32, float64), got {d.name}")


def _int_dtype(op: str, dtype: Any) -> np.dtype:
    d = dtypes.canonicalize_dtype(dtypes.default_int_dtype() if dtype is None else dtype)
    if not dtypes.is_integer(d):
        raise op_type_error(op, f"dtype must be an integer type, got {d.name}")
    return d


def _param(op: str, name: str, x: Any, dtype: np.dtype):
    """A real parameter as an array of `dtype` (arrays of other real dtypes are cast)."""
    if is_array(x):
        a = aval_of(x)
        if dtypes.is_complex(a.dtype):
            raise op_type_error(op, f"{name} must be real, got {a.str_short()}")
        return asarray(x, dtype)
    arr = np.asarray(x)
    if arr.dtype.kind not in "biuf":
        raise op_type_error(op, f"{name} must be a real number or array, got {x!r}")
    return asarray(arr.astype(dtype), dtype)


def _param_dtype(x: Any, dtype: Any) -> np.dtype:
    """The float dtype to sample in: `dtype` if given, else the parameter's own float dtype or float32."""
    if dtype is not None:
        return dtype
    d = aval_of(x).dtype if (is_array(x) or isinstance(x, (np.ndarray, np.generic))) else None
    return d if d is not None and d in _FLOATS else dtypes.float32


def _fits(op: str, shape: tuple[int, ...], **params) -> None:
    """Each parameter must broadcast to the sample shape."""
    for name, p in params.items():
        ps = aval_of(p).shape
        try:
            ok = broadcast_shapes(op, shape, ps) == shape
        except ValueError:
            ok = False
        if not ok:
            raise op_value_error(op, f"{name} of shape {ps} does not broadcast to the sample shape {shape}")


def _shape_or(op: str, shape: Any, default: tuple[int, ...], **params) -> tuple[int, ...]:
    shape = default if shape is None else canonical_shape(op, shape)
    _fits(op, shape, **params)
    return shape


def _bshape(op: str, *xs) -> tuple[int, ...]:
    return broadcast_shapes(op, *(aval_of(x).shape for x in xs))


# ---- building blocks (unjitted; used inside the jitted implementations) ----------------------

def _compute_dtype(dtype: np.dtype) -> np.dtype:
    """Rejection samplers work in float32 at least (their acceptance tests need the precision)."""
    return dtypes.float32 if np.dtype(dtype).itemsize < 4 else dtype


def _bits_to_u01(raw, dtype):
    """Uniform in [0, 1) on the grid of spacing 2**-nmant: the top random bits of `raw` (a uint
    of the float's width) become the mantissa of a float in [1, 2), minus 1."""
    fi = dtypes.finfo(dtype)
    nbits, nmant = fi.bits, fi.nmant
    one = int(np.array(1.0, dtype).view(_UINT[nbits]))
    mant = bitwise_or(shift_right_logical(raw, nbits - nmant), one)
    return sub(bitcast_convert_type(mant, dtype), 1.0)


def _u01(key, impl, shape, dtype):
    return _bits_to_u01(bits_impl(key, impl, dtypes.finfo(dtype).bits, shape), dtype)


def _scale(u, lo, hi):
    """u in [0, 1) to [lo, hi): lo, hi are arrays of u's shape and dtype."""
    out = _max(lo, add(mul(u, sub(hi, lo)), lo))
    return _min(out, nextafter(hi, lo))


def _to_normal(u, shape, dtype):
    """Uniform [0, 1) -> standard normal: sqrt(2) * erf_inv of u rescaled into (-1, 1)."""
    nmant = dtypes.finfo(dtype).nmant
    lo = full(shape, -(1.0 - 2.0 ** -(nmant + 1)), dtype)  # the float just above -1
    return mul(erf_inv(_scale(u, lo, full(shape, 1.0, dtype))), float(np.sqrt(2.0)))


def _normal_real(key, impl, shape, dtype):
    return _to_normal(_u01(key, impl, shape, dtype), shape, dtype)


def _normal(key, impl, shape, dtype):
    if dtypes.is_complex(dtype):
        real = dtypes.float64 if dtype == dtypes.complex128 else dtypes.float32
        kr, ki = split2(key, impl)
        re, im = (mul(_normal_real(k, impl, shape, real), float(np.sqrt(0.5))) for k in (kr, ki))
        return _complex(re, im)
    return _normal_real(key, impl, shape, dtype)


def _gumbel(key, impl, shape, dtype):
    tiny = full(shape, float(dtypes.finfo(dtype).tiny), dtype)
    u = _scale(_u01(key, impl, shape, dtype), tiny, full(shape, 1.0, dtype))
    return neg(log(neg(log(u))))


def _all_axes(x):
    return tuple(range(aval_of(x).ndim))


def _while_loop(cond, body, init):
    """padax.lax.while_loop (structured control flow)."""
    return while_loop(cond, body, init)


def _round_uniforms(key, impl, r, shape, dtype, n: int):
    """`n` independent uniform [0, 1) arrays of `shape` for rejection round `r` (a uint32 scalar),
    drawn from counters whose high word is r (one threefry hash gives two float32 uniforms)."""
    return [_bits_to_u01(w, dtype) for w in words_impl(key, impl, shape, dtypes.finfo(dtype).bits, n, r)]


def _rejection(key, impl, shape, done0, value0, trial):
    """Vectorised rejection sampling: round r calls `trial(r) -> (accept, value)` over `shape`;
    elements keep the value of their first accepted round. Starts from done0/value0."""
    def cond(c):
        r, done, _ = c
        return bitwise_and(reduce_or(bitwise_not(done), _all_axes(done)), lt(r, _MAX_ROUNDS))

    def body(c):
        r, done, val = c
        accept, new = trial(r)
        val = select(bitwise_and(bitwise_not(done), accept), new, val)
        return add(r, 1), bitwise_or(done, accept), val

    r0 = convert_element_type(np.uint32(0), dtypes.uint32)
    return _while_loop(cond, body, (r0, done0, value0))[2]


def _loggamma(key, impl, a):
    """log of Gamma(a, 1) samples, elementwise over the float array `a`, differentiable in `a`
    by implicit reparameterisation (`_implicit_loggamma`)."""
    return _implicit_loggamma(a, _loggamma_sample(key, impl, stop_gradient(a)))


@custom_jvp
def _implicit_loggamma(a, lg):
    """lg (log Gamma(a, 1) samples drawn without a derivative) with the derivative
    d(log x)/da = -(dP(a, x)/da) / (x pdf(x; a)) attached: the sample moves with `a` so that
    its quantile stays fixed (see padax.random._gamma_grad)."""
    return lg


@_implicit_loggamma.defjvp
def _implicit_loggamma_jvp(primals, tangents):
    a, lg = primals
    ta, tlg = tangents
    return lg, add(tlg, mul(gamma_log_sample_grad(a, lg), ta))


def _loggamma_sample(key, impl, a):
    """log of Gamma(a, 1) samples, elementwise over the float array `a` (Marsaglia-Tsang)."""
    aval = aval_of(a)
    shape, dt = aval.shape, aval.dtype
    inf = full(shape, np.inf, dt)
    boost = lt(a, 1.0)
    alpha = select(boost, add(a, 1.0), a)
    d = sub(alpha, 1.0 / 3.0)
    c = div(full(shape, 1.0 / 3.0, dt), sqrt(d))
    valid = bitwise_and(ge(a, 0.0), lt(a, inf))
    value0 = select(eq(a, inf), inf, full(shape, np.nan, dt))

    def trial(r):
        ux, u = _round_uniforms(key, impl, r, shape, dt, 2)
        x = _to_normal(ux, shape, dt)
        v = add(mul(c, x), 1.0)
        v3 = mul(mul(v, v), v)
        rhs = add(add(mul(mul(x, x), 0.5), d), mul(d, sub(log(v3), v3)))
        accept = bitwise_and(gt(v, 0.0), lt(log(u), rhs))
        return accept, add(log(d), log(v3))

    logv = _rejection(key, impl, shape, bitwise_not(valid), value0, trial)
    # the boost uniform: the counters' high word 2**32 - 1 is never a round number
    ub, = _round_uniforms(key, impl, convert_element_type(np.uint32(_MASK32), dtypes.uint32), shape, dt, 1)
    return select(boost, add(logv, div(log(ub), a)), logv)


# ---- continuous samplers ---------------------------------------------------------------------

def _uniform_impl(key, minval, maxval, shape, dtype, impl):
    lo, hi = broadcast_to(minval, shape), broadcast_to(maxval, shape)
    return _scale(_u01(key, impl, shape, dtype), lo, hi)


_uniform_jit = jit(_uniform_impl, static_argnums=(3, 4, 5))


def uniform(key, shape: Sequence[int] = (), dtype: Any = None, minval: Any = 0.0, maxval: Any = 1.0):
    """Uniform floats in [minval, maxval) of `shape` (minval/maxval broadcast to it).

    Args:
        key: a PRNG key (`padax.random.key`).
        shape: the sample shape.
        dtype: a floating dtype (default: the default float dtype, float32 unless changed).
        minval, maxval: the bounds (scalars or arrays broadcastable to `shape`).

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.uniform(padax.random.key(0), (2,)).tolist()     # the bits jax.random gives
        [0.9476670, 0.9785799]
        >>> x = padax.random.uniform(padax.random.key(1), (1000,), minval=-2.0, maxval=2.0)
        >>> bool((x >= -2).all() and (x < 2).all())
        True
    """
    key, impl = check_key("uniform", key)
    dtype = _float_dtype("uniform", dtype)
    lo, hi = _param("uniform", "minval", minval, dtype), _param("uniform", "maxval", maxval, dtype)
    shape = _shape_or("uniform", shape, (), minval=lo, maxval=hi)
    return _uniform_jit(key, lo, hi, shape, dtype, impl)


def _normal_impl(key, shape, dtype, impl):
    return _normal(key, impl, shape, dtype)


_normal_jit = jit(_normal_impl, static_argnums=(1, 2, 3))


def normal(key, shape: Sequence[int] = (), dtype: Any = None):
    """Standard normal samples (complex dtypes: real and imaginary parts each of variance 1/2).

    Args:
        key: a PRNG key (`padax.random.key`).
        shape: the sample shape.
        dtype: a floating or complex dtype (default: the default float dtype).

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.normal(padax.random.key(42), (3,)).tolist()    # the same as jax.random.normal
        [-0.0283046, 0.4671319, 0.2957030]
    """
    key, impl = check_key("normal", key)
    return _normal_jit(key, canonical_shape("normal", shape), _float_dtype("normal", dtype, True), impl)


def _truncated_normal_impl(key, lower, upper, shape, dtype, impl):
    lo, hi = broadcast_to(lower, shape), broadcast_to(upper, shape)
    r2 = float(np.sqrt(2.0))
    a, b = erf(div(lo, r2)), erf(div(hi, r2))
    x = mul(erf_inv(_scale(_u01(key, impl, shape, dtype), a, b)), r2)
    inf = full(shape, np.inf, dtype)
    return _min(_max(x, nextafter(lo, inf)), nextafter(hi, neg(inf)))


_truncated_normal_jit = jit(_truncated_normal_impl, static_argnums=(3, 4, 5))


def truncated_normal(key, lower: Any, upper: Any, shape: Sequence[int] | None = None,
                     dtype: Any = None):
    """Standard normal samples conditioned on lower < x < upper (bounds may be +-inf).

    Args:
        key: a PRNG key (`padax.random.key`).
        lower, upper: the bounds (arrays or scalars, broadcast together).
        shape: the sample shape (default: the broadcast shape of the bounds).
        dtype: a floating dtype (default: the default float dtype, float32 unless changed).

    Returns:
        An array of `shape` and `dtype`, strictly inside the bounds.

    Examples:
        >>> import padax
        >>> padax.random.truncated_normal(padax.random.key(0), -1.0, 1.0, (3,)).tolist()   # as jax.random gives
        [0.8619, 0.9413, -0.2910]
    """
    key, impl = check_key("truncated_normal", key)
    dtype = _float_dtype("truncated_normal", dtype)
    lo = _param("truncated_normal", "lower", lower, dtype)
    hi = _param("truncated_normal", "upper", upper, dtype)
    shape = _shape_or("truncated_normal", shape, _bshape("truncated_normal", lo, hi), lower=lo, upper=hi)
    return _truncated_normal_jit(key, lo, hi, shape, dtype, impl)


def _gumbel_impl(key, shape, dtype, impl):
    return _gumbel(key, impl, shape, dtype)


_gumbel_jit = jit(_gumbel_impl, static_argnums=(1, 2, 3))


def gumbel(key, shape: Sequence[int] = (), dtype: Any = None):
    """Standard Gumbel samples: -log(-log(u)), u uniform in [tiny, 1).

    Args:
        key: a PRNG key (`padax.random.key`).
        shape: the sample shape.
        dtype: a floating dtype (default: the default float dtype, float32 unless changed).

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.gumbel(padax.random.key(0), (3,)).tolist()    # as jax.random gives
        [2.9234, 3.8326, -0.0969]
    """
    key, impl = check_key("gumbel", key)
    return _gumbel_jit(key, canonical_shape("gumbel", shape), _float_dtype("gumbel", dtype), impl)


def _exponential_impl(key, shape, dtype, impl):
    return neg(log1p(neg(_u01(key, impl, shape, dtype))))


_exponential_jit = jit(_exponential_impl, static_argnums=(1, 2, 3))


def exponential(key, shape: Sequence[int] = (), dtype: Any = None):
    """Standard exponential samples (rate 1): -log1p(-u), u uniform in [0, 1).

    Args:
        key: a PRNG key (`padax.random.key`).
        shape: the sample shape.
        dtype: a floating dtype (default: the default float dtype, float32 unless changed).

    Returns:
        An array of `shape` and `dtype`; divide by a rate for other rates.

    Examples:
        >>> import padax
        >>> padax.random.exponential(padax.random.key(0), (3,)).tolist()   # as jax.random gives
        [2.9501, 3.8434, 0.4039]
    """
    key, impl = check_key("exponential", key)
    return _exponential_jit(key, canonical_shape("exponential", shape), _float_dtype("exponential", dtype), impl)


def _loggamma_impl(key, a, shape, dtype, impl):
    cd = _compute_dtype(dtype)
    return convert_element_type(_loggamma(key, impl, broadcast_to(convert_element_type(a, cd), shape)), dtype)


def _gamma_impl(key, a, shape, dtype, impl):
    cd = _compute_dtype(dtype)
    return convert_element_type(exp(_loggamma(key, impl, broadcast_to(convert_element_type(a, cd), shape))), dtype)


_loggamma_jit = jit(_loggamma_impl, static_argnums=(2, 3, 4))
_gamma_jit = jit(_gamma_impl, static_argnums=(2, 3, 4))


def _gamma_args(op, key, a, shape, dtype):
    key, impl = check_key(op, key)
    dtype = _float_dtype(op, _param_dtype(a, dtype))
    a = _param(op, "a", a, dtype)
    return key, a, _shape_or(op, shape, aval_of(a).shape, a=a), dtype, impl


def gamma(key, a: Any, shape: Sequence[int] | None = None, dtype: Any = None):
    """Gamma(a, 1) samples (shape parameter `a` > 0; divide by a rate for other rates).

    Marsaglia-Tsang rejection (see the module notes). a == 0 gives 0; a < 0 or NaN gives NaN.
    Differentiable in `a` (implicit reparameterisation).

    Args:
        key: a PRNG key (`padax.random.key`).
        a: the shape parameter (array or scalar).
        shape: the sample shape (default a's shape).
        dtype: a floating dtype (default a's float dtype, or float32).

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.gamma(padax.random.key(0), 2.0, (3,)).tolist()
        [1.4148, 0.8450, 5.2825]
    """
    return _gamma_jit(*_gamma_args("gamma", key, a, shape, dtype))


def loggamma(key, a: Any, shape: Sequence[int] | None = None, dtype: Any = None):
    """log of Gamma(a, 1) samples, accurate where the samples themselves underflow (tiny a).

    Args:
        key: a PRNG key (`padax.random.key`).
        a: the shape parameter (array or scalar).
        shape: the sample shape (default a's shape).
        dtype: a floating dtype (default a's float dtype, or float32).

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.loggamma(padax.random.key(0), 0.01, (3,)).tolist()   # gamma would give 0.0 for two
        [-20.536, -140.969, -1.4035]
    """
    return _loggamma_jit(*_gamma_args("loggamma", key, a, shape, dtype))


def _beta_impl(key, a, b, shape, dtype, impl):
    cd = _compute_dtype(dtype)
    s1 = (1,) + tuple(shape)
    ab = concatenate([reshape(broadcast_to(convert_element_type(p, cd), shape), s1) for p in (a, b)], 0)
    lg = _loggamma(key, impl, ab)  # one rejection loop for both gammas
    n = len(shape)
    lx = reshape(_slice(lg, (0,) * (n + 1), (1,) + tuple(shape)), shape)
    ly = reshape(_slice(lg, (1,) + (0,) * n, (2,) + tuple(shape)), shape)
    m = _max(lx, ly)
    x, y = exp(sub(lx, m)), exp(sub(ly, m))
    return convert_element_type(div(x, add(x, y)), dtype)


_beta_jit = jit(_beta_impl, static_argnums=(3, 4, 5))


def beta(key, a: Any, b: Any, shape: Sequence[int] | None = None, dtype: Any = None):
    """Beta(a, b) samples: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b) (computed from log-gammas).

    Args:
        key: a PRNG key (`padax.random.key`).
        a, b: the shape parameters (arrays or scalars, > 0).
        shape: the sample shape (default: the broadcast shape of a and b).
        dtype: a floating dtype (default the parameters' float dtype, or float32).

    Returns:
        An array of `shape` and `dtype` in [0, 1].

    Examples:
        >>> import padax
        >>> padax.random.beta(padax.random.key(0), 2.0, 3.0, (3,)).tolist()
        [0.3215, 0.2318, 0.7152]
    """
    key, impl = check_key("beta", key)
    dtype = _float_dtype("beta", _param_dtype(a, dtype))
    a, b = _param("beta", "a", a, dtype), _param("beta", "b", b, dtype)
    shape = _shape_or("beta", shape, _bshape("beta", a, b), a=a, b=b)
    return _beta_jit(key, a, b, shape, dtype, impl)


def _dirichlet_impl(key, alpha, shape, dtype, impl):
    cd = _compute_dtype(dtype)
    k = aval_of(alpha).shape[-1]
    full_shape = tuple(shape) + (k,)
    lg = _loggamma(key, impl, broadcast_to(convert_element_type(alpha, cd), full_shape))
    last = len(full_shape) - 1
    m = broadcast_in_dim(reduce_max(lg, (last,)), full_shape, tuple(range(last)))
    e = exp(sub(lg, m))
    s = broadcast_in_dim(reduce_sum(e, (last,)), full_shape, tuple(range(last)))
    return convert_element_type(div(e, s), dtype)


_dirichlet_jit = jit(_dirichlet_impl, static_argnums=(2, 3, 4))


def dirichlet(key, alpha: Any, shape: Sequence[int] | None = None, dtype: Any = None):
    """Dirichlet(alpha) samples: normalised Gamma(alpha_i) draws along the last axis.

    Args:
        key: a PRNG key (`padax.random.key`).
        alpha: concentrations, shape (..., K).
        shape: the batch shape (default alpha.shape[:-1]), broadcast-compatible with alpha.shape[:-1].
        dtype: a floating dtype (default alpha's float dtype, or float32).

    Returns:
        An array of shape `shape + (K,)` whose last axis sums to 1.

    Examples:
        >>> import padax
        >>> x = padax.random.dirichlet(padax.random.key(0), padax.to_tensor([1.0, 2.0, 3.0]))
        >>> x.tolist(), round(float(x.sum()), 5)
        ([0.0623, 0.1027, 0.8350], 1.0)
    """
    key, impl = check_key("dirichlet", key)
    dtype = _float_dtype("dirichlet", _param_dtype(alpha, dtype))
    alpha = _param("dirichlet", "alpha", alpha, dtype)
    a = aval_of(alpha)
    if a.ndim < 1:
        raise op_value_error("dirichlet", f"alpha must have at least one dimension (the categories), "
                                          f"got {a.str_short()}")
    batch = a.shape[:-1]
    shape = batch if shape is None else canonical_shape("dirichlet", shape)
    _fits("dirichlet", shape + a.shape[-1:], alpha=alpha)
    return _dirichlet_jit(key, alpha, shape, dtype, impl)


# ---- discrete samplers -----------------------------------------------------------------------

def _bernoulli_impl(key, p, shape, impl):
    dt = aval_of(p).dtype
    return lt(_u01(key, impl, shape, dt), broadcast_to(p, shape))


_bernoulli_jit = jit(_bernoulli_impl, static_argnums=(2, 3))


def bernoulli(key, p: Any = 0.5, shape: Sequence[int] | None = None):
    """Booleans that are True with probability p.

    Args:
        key: a PRNG key (`padax.random.key`).
        p: the probability (array or scalar).
        shape: the sample shape (default p's shape).

    Returns:
        A bool array of `shape`.

    Examples:
        >>> import padax
        >>> padax.random.bernoulli(padax.random.key(0), 0.5, (5,)).tolist()   # as jax.random gives
        [False, False, True, True, False]
    """
    key, impl = check_key("bernoulli", key)
    dtype = _float_dtype("bernoulli", _param_dtype(p, None))
    p = _param("bernoulli", "p", p, dtype)
    shape = _shape_or("bernoulli", shape, aval_of(p).shape, p=p)
    return _bernoulli_jit(key, p, shape, impl)


def _categorical_impl(key, logits, axis, shape, impl):
    nd = aval_of(logits).ndim
    perm = [i for i in range(nd) if i != axis] + [axis]
    lg = transpose(logits, perm)  # categories last
    k = aval_of(lg).shape[-1]
    full_shape = tuple(shape) + (k,)
    noisy = add(broadcast_to(lg, full_shape), _gumbel(key, impl, full_shape, aval_of(lg).dtype))
    return argmax(noisy, len(shape), dtypes.default_int_dtype())


_categorical_jit = jit(_categorical_impl, static_argnums=(2, 3, 4))


def categorical(key, logits: Any, axis: int = -1, shape: Sequence[int] | None = None):
    """Category indices drawn with probabilities softmax(logits) along `axis` (Gumbel-max).

    Args:
        key: a PRNG key (`padax.random.key`).
        logits: unnormalised log-probabilities.
        axis: the category axis.
        shape: the result shape (default logits' shape without `axis`); it must be broadcast-
            compatible with that (extra leading dimensions draw more samples).

    Returns:
        An int64 array of indices.

    Examples:
        >>> import padax
        >>> logits = padax.log(padax.to_tensor([0.1, 0.2, 0.7]))
        >>> padax.random.categorical(padax.random.key(0), logits, shape=(6,)).tolist()   # as jax.random gives
        [1, 2, 2, 1, 2, 2]
    """
    key, impl = check_key("categorical", key)
    dtype = _float_dtype("categorical", _param_dtype(logits, None))
    logits = _param("categorical", "logits", logits, dtype)
    a = aval_of(logits)
    if a.ndim < 1:
        raise op_value_error("categorical", f"logits must have at least one dimension, got {a.str_short()}")
    if not -a.ndim <= int(axis) < a.ndim:
        raise op_value_error("categorical", f"axis {axis} is out of range for logits {a.str_short()}")
    axis = int(axis) % a.ndim
    batch = a.shape[:axis] + a.shape[axis + 1:]
    shape = batch if shape is None else canonical_shape("categorical", shape)
    if broadcast_shapes("categorical", shape, batch) != shape:
        raise op_value_error("categorical", f"shape {shape} is not broadcast-compatible with the batch shape "
                                            f"{batch} of logits {a.str_short()} (axis {axis} removed)")
    return _categorical_jit(key, logits, axis, shape, impl)


def _mulhi(a, b, w: int):
    """High word of the 2w-bit product of two unsigned w-bit arrays (half-word limbs)."""
    h = w // 2
    mask = (1 << h) - 1
    a0, a1 = bitwise_and(a, mask), shift_right_logical(a, h)
    b0, b1 = bitwise_and(b, mask), shift_right_logical(b, h)
    p00, p01, p10, p11 = mul(a0, b0), mul(a0, b1), mul(a1, b0), mul(a1, b1)
    mid = add(add(shift_right_logical(p00, h), bitwise_and(p01, mask)), bitwise_and(p10, mask))
    return add(add(add(p11, shift_right_logical(p01, h)), shift_right_logical(p10, h)), shift_right_logical(mid, h))


def _randint_impl(key, minval, maxval, top, shape, dtype, impl):
    nbits = np.dtype(dtype).itemsize * 8
    w = 64 if nbits == 64 else 32
    uw, un = _UINT[w], _UINT[nbits]
    sign = 0 if dtypes.is_unsigned(dtype) else 1 << (nbits - 1)
    lo, hi, top = (broadcast_to(x, shape) for x in (minval, maxval, top))

    def ordered(v):  # order-preserving map of dtype onto [0, 2**nbits), as uw
        u = bitcast_convert_type(v, un)
        return convert_element_type(bitwise_xor(u, sign) if sign else u, uw)

    ulo, uhi = ordered(lo), ordered(hi)
    span = add(sub(uhi, ulo), convert_element_type(top, uw))  # 0 here means 2**w (full 64-bit range)
    span = select(bitwise_and(le(hi, lo), bitwise_not(top)), full(shape, 1, uw), span)
    x1, x0 = words_impl(key, impl, shape, w, 2)
    # floor((x1 * 2**w + x0) * span / 2**(2w)) = mulhi(x1, span) + carry(x1*span + mulhi(x0, span))
    low = mul(x1, span)
    total = add(low, _mulhi(x0, span, w))
    r = add(_mulhi(x1, span, w), convert_element_type(lt(total, low), uw))
    r = select(eq(span, 0), x1, r)
    out = convert_element_type(add(ulo, r), un)
    return bitcast_convert_type(bitwise_xor(out, sign) if sign else out, dtype)


_randint_jit = jit(_randint_impl, static_argnums=(4, 5, 6))


def _int_bound(op: str, name: str, v: Any, dtype: np.dtype):
    """(bound as dtype, exceeds dtype max) for randint: out-of-range values are clipped."""
    info = dtypes.iinfo(dtype)
    if is_array(v):
        a = aval_of(v)
        if not (dtypes.is_integer(a.dtype) or a.dtype == dtypes.bool_):
            raise op_type_error(op, f"{name} must be an integer or integer array, got {a.str_short()}")
        if a.dtype == dtype:
            return v, False
        src = dtypes.iinfo(a.dtype) if a.dtype != dtypes.bool_ else None
        if src is not None:
            lo, hi = max(int(info.min), int(src.min)), min(int(info.max), int(src.max))
            above = gt(v, hi) if int(src.max) > int(info.max) else False
            v = _min(_max(v, lo), hi)
        else:
            above = False
        return convert_element_type(v, dtype), above
    arr = np.asarray(v)
    if arr.dtype.kind not in "biuO" or (arr.dtype.kind == "O" and not all(isinstance(e, int) for e in arr.flat)):
        raise op_type_error(op, f"{name} must be an integer or integer array, got {v!r}")
    lo, hi = int(info.min), int(info.max)
    obj = arr.astype(object)  # Python ints: no overflow while comparing and clipping
    above = np.asarray(np.frompyfunc(lambda e: int(e) > hi, 1, 1)(obj), dtype=bool)
    clipped = np.asarray(np.frompyfunc(lambda e: min(max(int(e), lo), hi), 1, 1)(obj)).astype(dtype)
    return asarray(clipped, dtype), (asarray(above) if above.any() else False)


def randint(key, shape: Sequence[int], minval: Any, maxval: Any, dtype: Any = None):
    """Uniform integers in [minval, maxval) of `shape` (bounds broadcast to it).

    Bounds beyond the dtype's range are clipped to it, except that a maxval above the largest value
    makes that value reachable; where maxval <= minval the result is minval.

    Args:
        key: a PRNG key (`padax.random.key`).
        shape: the sample shape.
        minval, maxval: the bounds (arrays or scalars).
        dtype: an integer dtype (default int64; int32 in 32-bit-only mode).

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> x = padax.random.randint(padax.random.key(0), (5,), 0, 10)
        >>> x.tolist(), x.dtype
        ([4, 2, 9, 5, 5], dtype('int64'))
    """
    key, impl = check_key("randint", key)
    dtype = _int_dtype("randint", dtype)
    lo, _ = _int_bound("randint", "minval", minval, dtype)
    hi, top = _int_bound("randint", "maxval", maxval, dtype)
    top = convert_element_type(top if is_array(top) else asarray(bool(top)), dtypes.bool_)
    shape = _shape_or("randint", shape, (), minval=lo, maxval=hi, maxval_top=top)
    return _randint_jit(key, lo, hi, top, shape, dtype, impl)


def _poisson_impl(key, lam, shape, dtype, impl):
    lam = broadcast_to(lam, shape)
    dt = aval_of(lam).dtype
    inf = full(shape, np.inf, dt)
    small = lt(lam, 10.0)
    valid = bitwise_and(ge(lam, 0.0), lt(lam, inf))
    # PTRS constants (Hormann 1993), from lam >= 10 (masked where lam is small)
    lp = _max(lam, full(shape, 10.0, dt))
    loglam = log(lp)
    b = add(mul(sqrt(lp), 2.53), 0.931)
    a = add(mul(b, 0.02483), -0.059)
    inv_alpha = add(div(full(shape, 1.1328, dt), sub(b, 3.4)), 1.1239)
    vr = sub(full(shape, 0.9277, dt), div(full(shape, 3.6224, dt), sub(b, 2.0)))
    neg_lam = neg(lam)

    def cond(c):
        r, done = c[0], c[1]
        return bitwise_and(reduce_or(bitwise_not(done), _all_axes(done)), lt(r, _MAX_ROUNDS))

    def body(c):
        r, done, res, count, logp = c
        u1, v = _round_uniforms(key, impl, r, shape, dt, 2)
        # Knuth: count uniforms until their product drops below exp(-lam)
        logp = add(logp, log(u1))
        knuth = lt(logp, neg_lam)
        # PTRS: one transformed-rejection trial
        uu = sub(u1, 0.5)
        us = sub(full(shape, 0.5, dt), _abs(uu))
        k = floor(add(mul(add(div(mul(a, 2.0), us), b), uu), add(lam, 0.43)))
        quick = bitwise_and(ge(us, 0.07), le(v, vr))
        reject = bitwise_or(lt(k, 0.0), bitwise_and(lt(us, 0.013), gt(v, us)))
        s = log(div(mul(v, inv_alpha), add(div(a, mul(us, us)), b)))
        t = sub(add(neg_lam, mul(k, loglam)), lgamma(add(k, 1.0)))
        ptrs = bitwise_or(quick, bitwise_and(bitwise_not(reject), le(s, t)))
        accept = select(small, knuth, ptrs)
        res = select(bitwise_and(bitwise_not(done), accept), select(small, count, k), res)
        return add(r, 1), bitwise_or(done, accept), res, add(count, 1.0), logp

    zeros = full(shape, 0.0, dt)
    init = (convert_element_type(np.uint32(0), dtypes.uint32),
            bitwise_or(bitwise_not(valid), eq(lam, 0.0)),
            select(valid, zeros, full(shape, -1.0, dt)), zeros, zeros)
    return convert_element_type(_while_loop(cond, body, init)[2], dtype)


_poisson_jit = jit(_poisson_impl, static_argnums=(2, 3, 4))


def poisson(key, lam: Any, shape: Sequence[int] | None = None, dtype: Any = None):
    """Poisson(lam) counts.

    Knuth's method for lam < 10, transformed rejection (PTRS) for lam >= 10; see the module notes.
    lam == 0 gives 0; a negative, infinite or NaN lam gives -1.

    Args:
        key: a PRNG key (`padax.random.key`).
        lam: the rate (array or scalar).
        shape: the sample shape (default lam's shape).
        dtype: an integer dtype (default int64; int32 in 32-bit-only mode).

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.poisson(padax.random.key(0), padax.to_tensor([0.5, 50.0])).tolist()
        [0, 44]
    """
    key, impl = check_key("poisson", key)
    dtype = _int_dtype("poisson", dtype)
    cd = _compute_dtype(_param_dtype(lam, None))
    lam = _param("poisson", "lam", lam, cd)
    shape = _shape_or("poisson", shape, aval_of(lam).shape, lam=lam)
    return _poisson_jit(key, lam, shape, dtype, impl)


def _binomial_impl(key, n, p, shape, dtype, impl):
    n, p = broadcast_to(n, shape), broadcast_to(p, shape)
    dt = aval_of(p).dtype
    zeros, ones = full(shape, 0.0, dt), full(shape, 1.0, dt)
    valid = bitwise_and(bitwise_and(ge(p, 0.0), le(p, 1.0)), bitwise_and(ge(n, 0.0), lt(n, full(shape, np.inf, dt))))
    flip = gt(p, 0.5)
    q = select(flip, sub(ones, p), p)  # the rarer outcome's probability, <= 1/2
    small = lt(mul(n, q), 10.0)
    # inversion: waiting times between successes are geometric(q); count those that fit in n trials
    log1mq = log1p(neg(_min(q, full(shape, 0.5, dt))))
    # BTRS constants (Hormann 1993), from n*q >= 10 (masked where n*q is small)
    qb = select(small, full(shape, 0.5, dt), q)
    nb = select(small, full(shape, 20.0, dt), n)
    spq = sqrt(mul(mul(nb, qb), sub(ones, qb)))
    b = add(mul(spq, 2.53), 1.15)
    a = add(add(mul(b, 0.0248), -0.0873), mul(qb, 0.01))
    c = add(mul(nb, qb), 0.5)
    vr = sub(full(shape, 0.92, dt), div(full(shape, 4.2, dt), b))
    alpha = mul(add(div(full(shape, 5.1, dt), b), 2.83), spq)
    lpq = log(div(qb, sub(ones, qb)))
    m = floor(mul(add(nb, 1.0), qb))
    h = add(lgamma(add(m, 1.0)), lgamma(add(sub(nb, m), 1.0)))

    def cond(cv):
        r, done = cv[0], cv[1]
        return bitwise_and(reduce_or(bitwise_not(done), _all_axes(done)), lt(r, _MAX_ROUNDS))

    def body(cv):
        r, done, res, count, waited = cv
        u, v = _round_uniforms(key, impl, r, shape, dt, 2)
        # inversion: one more geometric waiting time
        tiny = full(shape, float(dtypes.finfo(dt).tiny), dt)
        waited = add(waited, floor(add(div(log(_max(u, tiny)), log1mq), 1.0)))
        inv_done = gt(waited, n)
        # BTRS: one transformed-rejection trial
        uu = sub(u, 0.5)
        us = sub(full(shape, 0.5, dt), _abs(uu))
        k = floor(add(mul(add(div(mul(a, 2.0), us), b), uu), c))
        quick = bitwise_and(ge(us, 0.07), le(v, vr))
        inside = bitwise_and(ge(k, 0.0), le(k, nb))
        lv = log(div(mul(v, alpha), add(div(a, mul(us, us)), b)))
        ratio = add(sub(sub(h, lgamma(add(k, 1.0))), lgamma(add(sub(nb, k), 1.0))), mul(sub(k, m), lpq))
        btrs = bitwise_and(inside, bitwise_or(quick, le(lv, ratio)))
        accept = select(small, inv_done, btrs)
        res = select(bitwise_and(bitwise_not(done), accept), select(small, count, k), res)
        return add(r, 1), bitwise_or(done, accept), res, add(count, 1.0), waited

    trivial = bitwise_or(eq(q, 0.0), eq(n, 0.0))
    init = (convert_element_type(np.uint32(0), dtypes.uint32), bitwise_or(bitwise_not(valid), trivial),
            select(valid, zeros, full(shape, np.nan, dt)), zeros, zeros)
    k = _while_loop(cond, body, init)[2]
    k = select(flip, sub(n, k), k)
    return convert_element_type(k, dtype)


_binomial_jit = jit(_binomial_impl, static_argnums=(3, 4, 5))


def binomial(key, n: Any, p: Any, shape: Sequence[int] | None = None, dtype: Any = None):
    """Binomial(n, p) counts: successes in n trials of probability p.

    Inversion by geometric waiting times where n * min(p, 1-p) < 10, BTRS rejection above; see the
    module notes. A p outside [0, 1], a negative or infinite n gives NaN.

    Args:
        key: a PRNG key (`padax.random.key`).
        n: the number of trials (array or scalar).
        p: the success probability (array or scalar).
        shape: the sample shape (default the broadcast shape of n and p).
        dtype: a float dtype (default float32), as jax.random.binomial gives them.

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> padax.random.binomial(padax.random.key(0), padax.to_tensor([10.0, 1000.0]), 0.3).tolist()
        [2.0, 326.0]
    """
    key, impl = check_key("binomial", key)
    dtype = _float_dtype("binomial", dtype)
    cd = dtypes.canonicalize_dtype(dtypes.float64)  # the BTRS log-ratio test cancels terms of size n log n
    n, p = _param("binomial", "n", n, cd), _param("binomial", "p", p, cd)
    shape = _shape_or("binomial", shape, _bshape("binomial", n, p), n=n, p=p)
    return _binomial_jit(key, n, p, shape, dtype, impl)


def _sort_keys(key, impl, shape):
    return words_impl(key, impl, shape, 32, 2)


def _permutation_impl(key, x, axis, independent, impl):
    shape = aval_of(x).shape
    if independent:
        w1, w2 = _sort_keys(key, impl, shape)
    else:  # one permutation shared by every slice: the same sort keys along the other axes
        w1, w2 = (broadcast_in_dim(w, shape, (axis,)) for w in _sort_keys(key, impl, (shape[axis],)))
    return sort((w1, w2, x), axis, True, 2)[2]


_permutation_jit = jit(_permutation_impl, static_argnums=(2, 3, 4))


def permutation(key, x: Any, axis: int = 0, independent: bool = False):
    """A random permutation of range(x) (int x), or of an array's entries along `axis`.

    Args:
        key: a PRNG key (`padax.random.key`).
        x: an int n, or an array.
        axis: the axis to shuffle.
        independent: shuffle each slice along the other axes independently.

    Returns:
        An int64 array of n indices, or a shuffled copy of `x`.

    Examples:
        >>> import padax
        >>> key = padax.random.key(0)
        >>> padax.random.permutation(key, 5).tolist()
        [1, 0, 4, 3, 2]
        >>> padax.random.permutation(key, padax.to_tensor([[1, 2, 3], [4, 5, 6]]), axis=1, independent=True).tolist()
        [[2, 1, 3], [6, 5, 4]]
    """
    key, impl = check_key("permutation", key)
    if not is_array(x) and isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        if int(x) < 0:
            raise op_value_error("permutation", f"n must be non-negative, got {x}")
        x = iota(dtypes.default_int_dtype(), int(x))
    else:
        x = asarray(x)
    a = aval_of(x)
    if a.ndim < 1:
        raise op_value_error("permutation", f"x must be an int or an array of rank >= 1, got {a.str_short()}")
    if not -a.ndim <= int(axis) < a.ndim:
        raise op_value_error("permutation", f"axis {axis} is out of range for {a.str_short()}")
    return _permutation_jit(key, x, int(axis) % a.ndim, bool(independent), impl)


def _take(a, idx, axis):
    """a's entries along `axis` at int32 indices `idx`: shape a.shape[:axis] + idx.shape + a.shape[axis+1:]."""
    ashape = aval_of(a).shape
    nd = len(ashape)
    rest = ashape[:axis] + ashape[axis + 1:]
    at = transpose(a, [axis] + [i for i in range(nd) if i != axis])
    s = aval_of(idx).shape
    ns = len(s)
    dn = GatherDimensionNumbers(offset_dims=tuple(range(ns, ns + len(rest))), collapsed_slice_dims=(0,),
                                start_index_map=(0,))
    g = gather(at, reshape(idx, s + (1,)), dn, (1,) + rest, mode="clip")
    perm = [ns + j for j in range(axis)] + list(range(ns)) + [ns + axis + j for j in range(len(rest) - axis)]
    return transpose(g, perm)


def _choice_impl(key, a, p, n, shape, replace, axis, impl):
    size = math.prod(shape)
    if replace:
        if p is None:
            lo = full((), 0, dtypes.int32)
            idx = _randint_impl(key, lo, full((), n, dtypes.int32), full((), False, dtypes.bool_),
                                shape, dtypes.int32, impl)
        else:
            dt = aval_of(p).dtype
            cdf = cumsum(p, 0)
            total = reshape(_slice(cdf, (n - 1,), (n,)), ())
            u = mul(_u01(key, impl, shape, dt), broadcast_in_dim(total, shape, ()))
            nd = len(shape)
            below = le(broadcast_in_dim(cdf, shape + (n,), (nd,)), broadcast_in_dim(u, shape + (n,), tuple(range(nd))))
            cnt = reduce_sum(convert_element_type(below, dtypes.int32), (nd,))
            idx = _min(cnt, full(shape, n - 1, dtypes.int32))
    elif p is None:
        perm = _permutation_impl(key, iota(dtypes.int32, n), 0, False, impl)
        idx = reshape(_slice(perm, (0,), (size,)), shape)
    else:
        g = add(_gumbel(key, impl, (n,), aval_of(p).dtype), log(p))
        idx = reshape(top_k(g, size)[1], shape)
    if a is None:
        return convert_element_type(idx, dtypes.default_int_dtype())
    return _take(a, idx, axis)


_choice_jit = jit(_choice_impl, static_argnums=(3, 4, 5, 6, 7))


def choice(key, a: Any, shape: Sequence[int] = (), replace: bool = True, p: Any = None, axis: int = 0):
    """Samples from range(a) (int a) or from an array's entries along `axis`.

    Args:
        key: a PRNG key (`padax.random.key`).
        a: an int n (sample from range(n)) or an array.
        shape: the sample shape.
        replace: draw with replacement; without it the samples are distinct (shape must have at
            most n elements).
        p: weights over the n candidates (normalised here), making the draw weighted.
        axis: the axis of `a` to sample along.

    Returns:
        An array of shape `shape` for an int, else a.shape[:axis] + shape + a.shape[axis+1:].

    Examples:
        >>> import padax
        >>> key = padax.random.key(0)
        >>> padax.random.choice(key, 5, (3,), replace=False).tolist()
        [1, 0, 4]
        >>> padax.random.choice(key, padax.to_tensor([10, 20, 30]), (4,), p=padax.to_tensor([0.0, 0.1, 0.9])).tolist()
        [30, 30, 30, 30]
    """
    key, impl = check_key("choice", key)
    shape = canonical_shape("choice", shape)
    if not is_array(a) and isinstance(a, (int, np.integer)) and not isinstance(a, bool):
        n, arr, axis = int(a), None, 0
        if n < 0:
            raise op_value_error("choice", f"a must be non-negative, got {n}")
    else:
        arr = asarray(a)
        av = aval_of(arr)
        if av.ndim < 1:
            raise op_value_error("choice", f"a must be an int or an array of rank >= 1, got {av.str_short()}")
        if not -av.ndim <= int(axis) < av.ndim:
            raise op_value_error("choice", f"axis {axis} is out of range for {av.str_short()}")
        axis = int(axis) % av.ndim
        n = av.shape[axis]
    size = math.prod(shape)
    if n == 0 and size > 0:
        raise op_value_error("choice", "cannot draw samples from an empty set")
    if not replace and size > n:
        raise op_value_error("choice", f"cannot take {size} distinct samples from {n} without replacement")
    if p is not None:
        dtype = _float_dtype("choice", _param_dtype(p, None))
        p = _param("choice", "p", p, dtype)
        if aval_of(p).shape != (n,):
            raise op_value_error("choice", f"p must have shape ({n},) (one weight per candidate), got "
                                           f"{aval_of(p).str_short()}")
    return _choice_jit(key, arr, p, n, shape, bool(replace), axis, impl)


def _multinomial_impl(key, p, n, shape, dtype, impl):
    k = aval_of(p).shape[-1]
    full_shape = (n,) + tuple(shape) + (k,)
    logits = broadcast_to(log(p), full_shape)
    draws = argmax(add(logits, _gumbel(key, impl, full_shape, aval_of(p).dtype)), len(full_shape) - 1,
                   dtypes.int32)
    hits = eq(broadcast_in_dim(draws, full_shape, tuple(range(len(full_shape) - 1))),
              broadcasted_iota(dtypes.int32, full_shape, len(full_shape) - 1))
    return reduce_sum(convert_element_type(hits, dtype), (0,))


_multinomial_jit = jit(_multinomial_impl, static_argnums=(2, 3, 4, 5))


def multinomial(key, n: int, p: Any, shape: Sequence[int] | None = None, dtype: Any = None):
    """Counts of n draws over K categories with probabilities p (..., K) (normalised here).

    Computed as n categorical draws per sample, counted per category: O(n * K) work per sample.

    Args:
        key: a PRNG key (`padax.random.key`).
        n: the number of draws (a static Python int).
        p: probabilities, shape (..., K).
        shape: the batch shape (default p.shape[:-1]).
        dtype: a float dtype (default float32), like jax.random.multinomial.

    Returns:
        An array of shape `shape + (K,)` whose last axis sums to n.

    Examples:
        >>> import padax
        >>> padax.random.multinomial(padax.random.key(0), 10, padax.to_tensor([0.2, 0.3, 0.5]), (2,)).tolist()
        [[3.0, 3.0, 4.0], [4.0, 3.0, 3.0]]
    """
    key, impl = check_key("multinomial", key)
    if is_array(n) or not isinstance(n, (int, np.integer)) or isinstance(n, bool) or int(n) < 0:
        raise op_type_error("multinomial", f"n must be a non-negative Python int (the number of draws is "
                                           f"static), got {n!r}")
    dtype = _float_dtype("multinomial", dtype)
    pdt = _float_dtype("multinomial", _param_dtype(p, None))
    p = _param("multinomial", "p", p, pdt)
    a = aval_of(p)
    if a.ndim < 1:
        raise op_value_error("multinomial", f"p must have at least one dimension (the categories), got "
                                            f"{a.str_short()}")
    shape = a.shape[:-1] if shape is None else canonical_shape("multinomial", shape)
    _fits("multinomial", shape + a.shape[-1:], p=p)
    return _multinomial_jit(key, p, int(n), shape, dtype, impl)
