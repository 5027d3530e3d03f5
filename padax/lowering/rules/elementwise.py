"""Lowerings of elementwise primitives to StableHLO / CHLO ops."""
from __future__ import annotations

from padax.core import dtypes
from padax.functional.lax import elementwise as E
from padax.lowering._mlir import chlo, hlo, ir
from padax.lowering.mlir import aval_to_ir_type, full_like_aval, register_lowering


def _simple(prim, op):
    register_lowering(prim, lambda ctx, *args, **params: op(*args))


for _prim, _op in [
    (E.sub_p, hlo.subtract), (E.div_p, hlo.divide), (E.rem_p, hlo.remainder), (E.pow_p, hlo.power),
    (E.atan2_p, hlo.atan2), (E.nextafter_p, chlo.next_after),
    (E.neg_p, hlo.negate), (E.floor_p, hlo.floor), (E.ceil_p, hlo.ceil),
    (E.is_finite_p, hlo.is_finite), (E.exp_p, hlo.exponential), (E.log_p, hlo.log),
    (E.expm1_p, hlo.exponential_minus_one), (E.log1p_p, hlo.log_plus_one), (E.tanh_p, hlo.tanh),
    (E.logistic_p, hlo.logistic), (E.sin_p, hlo.sine), (E.cos_p, hlo.cosine), (E.tan_p, hlo.tan),
    (E.asin_p, chlo.asin), (E.acos_p, chlo.acos), (E.atan_p, chlo.atan), (E.sinh_p, chlo.sinh),
    (E.cosh_p, chlo.cosh), (E.asinh_p, chlo.asinh), (E.acosh_p, chlo.acosh), (E.atanh_p, chlo.atanh),
    (E.sqrt_p, hlo.sqrt), (E.rsqrt_p, hlo.rsqrt), (E.cbrt_p, hlo.cbrt), (E.erf_p, chlo.erf),
    (E.erfc_p, chlo.erfc), (E.erf_inv_p, chlo.erf_inv), (E.lgamma_p, chlo.lgamma),
    (E.digamma_p, chlo.digamma), (E.polygamma_p, chlo.polygamma), (E.zeta_p, chlo.zeta), (E.conj_p, chlo.conj),
    (E.shift_left_p, hlo.shift_left), (E.shift_right_arithmetic_p, hlo.shift_right_arithmetic),
    (E.shift_right_logical_p, hlo.shift_right_logical), (E.population_count_p, hlo.popcnt),
    (E.clz_p, hlo.count_leading_zeros), (E.xor_p, hlo.xor), (E.not_p, hlo.not_),
]:
    _simple(_prim, _op)


def _bool_aware(prim, bool_op, op):
    def rule(ctx, x, y):
        return (bool_op if ctx.avals_in[0].dtype == dtypes.bool_ else op)(x, y)
    register_lowering(prim, rule)


_bool_aware(E.add_p, hlo.or_, hlo.add)
_bool_aware(E.mul_p, hlo.and_, hlo.multiply)
_bool_aware(E.and_p, hlo.and_, hlo.and_)
_bool_aware(E.or_p, hlo.or_, hlo.or_)


@register_lowering(E.sign_p)
def _sign(ctx, x):
    if dtypes.is_unsigned(ctx.avals_in[0].dtype):
        zero = full_like_aval(0, ctx.avals_in[0])
        one = full_like_aval(1, ctx.avals_in[0])
        return hlo.select(_compare(x, zero, "NE", ctx.avals_in[0].dtype), one, zero)
    return hlo.sign(x)


@register_lowering(E.abs_p)
def _abs(ctx, x):
    if dtypes.is_unsigned(ctx.avals_in[0].dtype):
        return x
    return hlo.abs(x)


@register_lowering(E.round_p)
def _round(ctx, x, rounding_method=0):
    return hlo.round_nearest_even(x) if rounding_method == 1 else hlo.round_nearest_afz(x)


@register_lowering(E.exp2_p)
def _exp2(ctx, x):
    # pow(2, x) is correctly rounded where exp(x * ln2) loses ~|x| ulps to the rounded ln2
    return hlo.power(full_like_aval(2, ctx.avals_in[0]), x)


@register_lowering(E.square_p)
def _square(ctx, x):
    return hlo.multiply(x, x)


@register_lowering(E.integer_pow_p)
def _integer_pow(ctx, x, *, y):
    """x**y for a Python int y, by repeated squaring (exact for integers)."""
    aval = ctx.avals_in[0]
    if y == 0:
        return full_like_aval(1, aval)
    n, base, acc = abs(y), x, None
    while n:
        if n & 1:
            acc = base if acc is None else hlo.multiply(acc, base)
        n >>= 1
        if n:
            base = hlo.multiply(base, base)
    if y < 0:
        acc = hlo.divide(full_like_aval(1, aval), acc)
    return acc


@register_lowering(E.complex_p)
def _complex(ctx, x, y):
    aval = ctx.avals_in[0]
    if aval.dtype not in (dtypes.float32, dtypes.float64):
        # stablehlo.complex takes only f32/f64 parts: widen f16/bf16 (exactly) first
        ty = aval_to_ir_type(aval.update(dtype=dtypes.float32))
        x, y = hlo.convert(ty, x), hlo.convert(ty, y)
    return hlo.complex(x, y)


@register_lowering(E.real_p)
def _real(ctx, x):
    return hlo.real(x)


@register_lowering(E.imag_p)
def _imag(ctx, x):
    return hlo.imag(x)


def _compare_type(dtype) -> str:
    if dtypes.is_inexact(dtype):
        return "FLOAT"
    if dtypes.is_unsigned(dtype) or dtype == dtypes.bool_:
        return "UNSIGNED"
    return "SIGNED"


def _hlo_compare(x, y, direction: str, dtype) -> ir.Value:
    return hlo.compare(x, y, hlo.ComparisonDirectionAttr.get(direction),
                       compare_type=hlo.ComparisonTypeAttr.get(_compare_type(dtype)))


_STRICT = {"LT": "LT", "LE": "LT", "GT": "GT", "GE": "GT"}


def _compare(x, y, direction: str, dtype) -> ir.Value:
    if dtypes.is_complex(dtype) and direction in _STRICT:
        # XLA:CPU orders complex numbers inconsistently (GE looks at real parts only):
        # order lexicographically by (real, imag) as numpy does
        part = E._real_part(dtype)
        xr, xi, yr, yi = hlo.real(x), hlo.imag(x), hlo.real(y), hlo.imag(y)
        return hlo.or_(_hlo_compare(xr, yr, _STRICT[direction], part),
                       hlo.and_(_hlo_compare(xr, yr, "EQ", part), _hlo_compare(xi, yi, direction, part)))
    return _hlo_compare(x, y, direction, dtype)


def compare(x, y, direction: str, dtype) -> ir.Value:
    """Public helper for other rules (sort comparators, argmax...); complex orders lexicographically."""
    return _compare(x, y, direction, dtype)


def _minmax(prim, bool_op, op, direction):
    def rule(ctx, x, y):
        dtype = ctx.avals_in[0].dtype
        if dtype == dtypes.bool_:
            return bool_op(x, y)
        if dtypes.is_complex(dtype):
            # XLA:CPU compares only the real parts; pick lexicographically, NaN propagating
            pick_x = hlo.or_(_compare(x, y, direction, dtype), _compare(x, x, "NE", dtype))
            return hlo.select(pick_x, x, y)
        return op(x, y)
    register_lowering(prim, rule)


_minmax(E.max_p, hlo.or_, hlo.maximum, "GE")
_minmax(E.min_p, hlo.and_, hlo.minimum, "LE")


for _prim, _dir in [(E.eq_p, "EQ"), (E.ne_p, "NE"), (E.lt_p, "LT"), (E.le_p, "LE"),
                    (E.gt_p, "GT"), (E.ge_p, "GE")]:
    register_lowering(_prim, (lambda d: lambda ctx, x, y: _compare(x, y, d, ctx.avals_in[0].dtype))(_dir))
