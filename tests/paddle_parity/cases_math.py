"""Elementwise math, comparisons, logic and bitwise ops: Paddle's documented argument combinations,
with the dtypes Paddle's CPU kernels take (integer inputs of transcendental functions give float32)."""
from tests.paddle_parity._harness import A, Arr, I, case

S = (3, 4)
INF = float("inf")
F, D, H, BF, I32, I64, C64 = "float32", "float64", "float16", "bfloat16", "int32", "int64", "complex64"

# name -> (input range, the dtypes Paddle's CPU kernels accept)
_UNARY = {
    "abs": ((-3, 3), (F, D, I32, I64, C64)),
    "acos": ((-0.9, 0.9), (F, D, C64)), "asin": ((-0.9, 0.9), (F, D, C64)), "atan": ((-3, 3), (F, D, C64)),
    "acosh": ((1.1, 4), (F, D)), "asinh": ((-3, 3), (F, D, C64)), "atanh": ((-0.9, 0.9), (F, D)),
    "cos": ((-3, 3), (F, D, I32, C64)), "sin": ((-3, 3), (F, D, I64, C64)), "tan": ((-1.2, 1.2), (F, D, C64)),
    "cosh": ((-2, 2), (F, D, C64)), "sinh": ((-2, 2), (F, D, C64)), "tanh": ((-3, 3), (F, D, I32, C64)),
    "exp": ((-3, 3), (F, D, H, I32, I64, C64)), "expm1": ((-1, 1), (F, D, H, I64)),
    "log": ((0.1, 5), (F, D, H, BF, C64)), "log2": ((0.1, 5), (F, D, BF)), "log10": ((0.1, 5), (F, D, H)),
    "log1p": ((0.1, 5), (F, D, BF)), "sqrt": ((0.1, 5), (F, D, C64)), "rsqrt": ((0.1, 5), (F, D)),
    "square": ((-3, 3), (F, D, I32, I64, C64)), "reciprocal": ((0.5, 3), (F, D, C64)),
    "sigmoid": ((-5, 5), (F, D, I32)), "erf": ((-2, 2), (F, D, H)), "erfinv": ((-0.9, 0.9), (F, D)),
    "lgamma": ((0.2, 5), (F, D)), "digamma": ((0.5, 5), (F, D)), "gammaln": ((0.2, 5), (F, D)),
    "i0": ((-4, 4), (F, D)), "i0e": ((-4, 4), (F, D)), "i1": ((-4, 4), (F, D)), "i1e": ((-4, 4), (F, D)),
    "floor": ((-3, 3), (F, D, H, BF, I32, I64)), "ceil": ((-3, 3), (F, D, H, BF, I32, I64)),
    "trunc": ((-3, 3), (F, D, I32, I64)), "round": ((-3, 3), (F, D, I32, I64, C64)),
    "frac": ((-3, 3), (F, D, I32, I64)), "sign": ((-3, 3), (F, D, I32, I64)), "sgn": ((-3, 3), (F, D, C64)),
    "neg": ((-3, 3), (F, D, H, BF, I32, I64, C64)), "negative": ((-3, 3), (F, D, I32, C64)),
    "positive": ((-3, 3), (F, D, I64, C64)), "deg2rad": ((-3, 3), (F, D, I32, I64)),
    "rad2deg": ((-3, 3), (F, D, I32, I64)), "sinc": ((-3, 3), (F, D, C64)), "signbit": ((-3, 3), (F, D, I32)),
    "isnan": ((-3, 3), (F, D, H, BF, I32, C64)), "isinf": ((-3, 3), (F, D, I64, C64)),
    "isfinite": ((-3, 3), (F, D, H, I32, C64)), "isneginf": ((-3, 3), (F, D, I32)),
    "isposinf": ((-3, 3), (F, D, I64)), "isreal": ((-3, 3), (F, D, I32, C64, "bool")),
    "logit": ((0.1, 0.9), (F, D)), "angle": ((-3, 3), (F, D, C64)), "conj": ((-3, 3), (F, D, I32, C64)),
    "real": ((-3, 3), (C64, "complex128")), "imag": ((-3, 3), (C64, "complex128")),
    "nan_to_num": ((-3, 3), (F, D)), "stanh": ((-3, 3), (F, I32)),
    "bitwise_not": ((-5, 5), (I32, I64, "bool", "uint8")), "logical_not": ((-2, 2), (F, I32, "bool")),
}

CASES = []
for _name, ((_lo, _hi), _dts) in _UNARY.items():
    for _dt in _dts:
        lo, hi = (_lo, _hi)
        if _dt in (I32, I64):
            lo, hi = (1 if _lo > 0 else -3), 5
        CASES.append(case(_name, A(S, _dt, lo, hi), rtol=1e-4 if _name in ("stanh", "erfinv", "lgamma", "digamma")
                          and _dt != F else None))

CASES += [
    case("gammainc", A(S, F, 0.2, 5), A(S, F, 0.1, 6)), case("gammainc", A(S, D, 0.2, 5), A(S, D, 0.1, 6)),
    case("gammaincc", A(S, F, 0.2, 5), A(S, F, 0.1, 6)), case("gammaincc", A(S, D, 0.2, 5), A(S, D, 0.1, 6)),
    case("stanh", A(S, D), rtol=1e-6),  # Paddle computes float64 stanh with float32 constants
    case("stanh", A(S), scale_a=0.5, scale_b=2.0),
    case("round", Arr([[0.5, 1.5, 2.5, -0.5], [-1.5, -2.5, 0.49999997, 3.5]])),  # halves to even
    case("round", Arr([0.25, 0.35, 1.25, -0.25, 0.125, 1234.5, 0.05]), decimals=1),
    case("round", Arr([0.25, 0.35, 1.25, -0.25, 0.125, 1234.5, 0.05], D), decimals=2),
    case("round", Arr([0.25, 0.35, 1.25, -0.25, 0.125, 1234.5, 0.05]), decimals=-1),
    case("round", Arr([5, 15, 25], I64), decimals=-1),
    case("Tensor.round", Arr([0.5, 1.5, 2.5])),
    case("logit", A(S, F, 0.0, 1.0), eps=0.2),
    case("nan_to_num", Arr([[float("nan"), float("inf"), -float("inf"), 1.0]])),
    case("nan_to_num", Arr([[float("nan"), float("inf"), -float("inf"), 1.0]], D), nan=1.5, posinf=9.0, neginf=-9.0),
    case("nan_to_num", Arr([[float("nan"), float("inf"), -float("inf"), 1.0]]), posinf=1e3),
    case("isnan", Arr([float("nan"), float("inf"), 1.0])), case("isinf", Arr([float("nan"), -float("inf"), 1.0])),
    case("isfinite", Arr([float("nan"), float("inf"), 1.0])), case("isneginf", Arr([float("nan"), -float("inf"), 1.0])),
    case("polygamma", A(S, F, 0.5, 4), 1), case("polygamma", A(S, D, 0.5, 4), 2), case("polygamma", A(S, F, 0.5, 4), 0),
    case("multigammaln", A(S, F, 2.0, 5.0), 2), case("multigammaln", A(S, D, 2.0, 5.0), 3),
    case("increment", Arr([1.0])), case("increment", Arr([1.0], D), value=2.5), case("increment", Arr([3], I64), 2),
    case("scale", A(S), 2.0, 1.0), case("scale", A(S), scale=2.0, bias=1.0, bias_after_scale=False),
    case("scale", A(S, I64), 3, 1), case("scale", A(S, D), 0.5),
    case("frexp", A(S)), case("frexp", A(S, D)),
    case("clip", A(S), -1.0, 1.0), case("clip", A(S), min=0.5), case("clip", A(S), max=0.5),
    case("clip", A(S, I32, -5, 5), -2, 2), case("clip", A(S, I64, -5, 5), min=0), case("clip", A(S, D), -1.0, 1.0),
    case("clip", A(S, I32, -5, 5), -1.5, 2.5), case("clip", A(S, I64, -5, 5), max=0.5),  # float bounds: float32
    case("clamp", A(S), -1.0, 1.0),
    case("cast", A(S), "int32"), case("cast", A(S, I64), "float64"), case("cast", A(S, F, -2, 2), "bool"),
    case("cast", A(S, C64), "float32"), case("cast", A(S), "bfloat16"), case("Tensor.astype", A(S, I32), "float16"),
    case("renorm", A((3, 4)), 2.0, 0, 1.0), case("renorm", A((2, 3, 4), D), 1.0, 2, 2.0, rtol=1e-7),
    case("lerp", A(S), A(S), 0.3), case("lerp", A(S), A(S), A(S, F, 0, 1)), case("lerp", A(S, D), A(S, D), 0.5),
]

# ---- binary arithmetic and promotion -------------------------------------------------------------

_BINARY = {
    "add": (F, D, I32, I64, C64), "subtract": (F, D, I32, I64, C64), "multiply": (F, D, I32, I64, C64, "bool"),
    "divide": (F, D, I32, I64, C64), "floor_divide": (F, D, I32, I64), "remainder": (F, D, I32, I64),
    "mod": (F, I64), "floor_mod": (F, I32), "pow": (F, D, I32, I64), "maximum": (F, D, I32, I64),
    "minimum": (F, D, I32, I64), "fmax": (F, D, I32, I64), "fmin": (F, D, I32, I64),
    "atan2": (F, D, I32, I64), "hypot": (F, D), "logaddexp": (F, D), "copysign": (F, D, I32),
    "heaviside": (F, D, I32, I64), "nextafter": (F, D), "ldexp": (F, D), "gcd": (I32, I64), "lcm": (I32, I64),
    "mul": (F, I64), "sub": (F, I32), "div": (F, I64), "true_divide": (F, I32),
}
for _name, _dts in _BINARY.items():
    for _dt in _dts:
        lo, hi = (1, 6) if _dt in (I32, I64) else (0.5, 3.0)
        if _name == "ldexp":
            CASES.append(case(_name, A(S, _dt), A(S, I32, -3, 4)))
            continue
        CASES.append(case(_name, A(S, _dt, -hi, hi) if _name not in ("pow", "gcd", "lcm") else A(S, _dt, lo, hi),
                          A(S, _dt, lo, hi), rtol=1e-7 if _name == "atan2" and _dt in (I32, I64) else None))

CASES += [
    # broadcasting and Paddle's promotion of Tensor pairs and Python scalars
    # (Paddle's functions take Tensors; its operators take Python scalars, which are weak)
    case("add", A((3, 1)), A((1, 4))), case("add", A(S), A((4,))), case("Tensor.__add__", A(S), 2),
    case("Tensor.__add__", A(S, I32), 2), case("Tensor.__add__", A(S, I32), 2.5), case("Tensor.__radd__", A(S, I64), 1.5),
    case("add", A(S, F), A(S, D)), case("add", A(S, F), A(S, H)), case("add", A(S, C64), A(S, D)),
    case("Tensor.__mul__", A(S, I32), 3), case("Tensor.__mul__", A(S), 1.5), case("Tensor.__truediv__", A(S, I32), 2),
    case("Tensor.__truediv__", A(S), 4.0), case("Tensor.__rtruediv__", A(S, F, 1, 2), 1), case("Tensor.__sub__", A(S, I64), 1),
    case("Tensor.__rsub__", A(S), 1), case("Tensor.__pow__", A(S, I32, 1, 4), 2), case("Tensor.__pow__", A(S, I32, 1, 4), 0.5),
    case("Tensor.__rpow__", A(S, F, -1, 1), 2), case("Tensor.__floordiv__", A(S, I64, -9, 9), 2),
    case("Tensor.__mod__", A(S, I64, -9, 9), 4), case("Tensor.__mod__", A(S, F, -9, 9), 2.5),
    case("Tensor.__neg__", A(S, I32)), case("Tensor.__abs__", A(S)), case("Tensor.__invert__", A(S, "bool")),
    case("Tensor.__matmul__", A((3, 4)), A((4, 2))), case("Tensor.__and__", A(S, I32, 0, 9), A(S, I32, 0, 9)),
    case("Tensor.__or__", A(S, "bool"), A(S, "bool")), case("Tensor.__xor__", A(S, I64, 0, 9), A(S, I64, 0, 9)),
    case("Tensor.__lt__", A(S), 0.0), case("Tensor.__ge__", A(S, I32), 1), case("Tensor.__eq__", A(S, I64, 0, 3), 1),
    case("Tensor.__ne__", A(S, I64, 0, 3), A(S, I64, 0, 3)), case("Tensor.__gt__", A(S, I32), 1.5),
    case("add", A(S), A(S), alpha=2), case("subtract", A(S), A(S), alpha=0.5), case("add", A(S, I64), A(S, I64), alpha=3),
    case("multiply", A(S, "bool"), A(S, "bool")), case("divide", A(S, I64), A(S, I64, 1, 5)),
    case("divide", A(S, I64, -9, 9), A(S, I64, 1, 4), rounding_mode="trunc"),
    case("divide", A(S, I64, -9, 9), A(S, I64, 1, 4), rounding_mode="floor"),
    case("divide", A(S, F, -9, 9), A(S, F, 1, 4), rounding_mode="trunc"),
    case("divide", A(S, F, -9, 9), A(S, F, 1, 4), rounding_mode="floor"),
    case("floor_divide", A(S, I64, -9, 9), A(S, I64, 1, 4)), case("floor_divide", A(S, I64, -9, 9), 2),
    # float // as Python's: consistent with remainder (1 // 0.1 == 9), infinite operands, zero divisors
    case("floor_divide", Arr([1.0, 1.0, -1.0, 0.3, INF, -1.0, 2.5, 0.0, 7.0, 3.0, -7.5]),
         Arr([0.1, -0.1, 0.1, 0.1, 2.0, INF, -INF, 3.0, 0.0, -0.0, 2.0])),
    case("floor_divide", Arr([1.0, -1.0, 0.7], D), Arr([0.1, INF, 0.1], D)),
    case("norm", Arr([INF, 1.0])), case("norm", Arr([0.0, 0.0])), case("dist", Arr([INF, 0.0]), Arr([0.0, 0.0])),
    case("remainder", A(S, I64, -9, 9), A(S, I64, -4, -1)), case("remainder", A(S, F, -9, 9), 2.5),
    case("pow", A(S), 2), case("pow", A(S, F, 0.5, 2), 0.5), case("pow", A(S, I64, 1, 4), 3),
    case("pow", A(S, D, 0.5, 2), A(S, D, -1, 2)),
    case("maximum", A(S), A((4,))), case("minimum", A(S, I32), A(S, I32)),
    case("fmax", Arr([1.0, float("nan"), 3.0]), Arr([float("nan"), 2.0, 1.0])),
    case("fmin", Arr([1.0, float("nan"), 3.0]), Arr([float("nan"), 2.0, 1.0])),
    case("maximum", Arr([1.0, float("nan"), 3.0]), Arr([float("nan"), 2.0, 1.0])),
    case("heaviside", Arr([-1.0, 0.0, 2.0]), Arr([0.5, 0.5, 0.5])),
    case("copysign", A(S), -1.0), case("copysign", Arr([1.0, -2.0, 0.0]), Arr([-0.0, 0.0, -1.0])),
    case("gcd", Arr([12, -18, 0, 7], I64), Arr([8, 12, 5, 0], I64)), case("lcm", Arr([4, -6, 0, 7], I64), Arr([6, 4, 3, 0], I64)),
    case("add_n", [A(S), A(S), A(S)]), case("add_n", A(S)), case("add_n", [A(S, D), A(S, D)]),
    case("atan2", A(S, F), A(S, F, 0.5, 2)),
]

# ---- comparisons, logic, bitwise ------------------------------------------------------------------------

for _name in ("equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
              "eq", "ne", "lt", "le", "gt", "ge", "greater", "less"):
    CASES += [case(_name, A(S, I64, 0, 3), A(S, I64, 0, 3)), case(_name, A(S, F), A((4,))),
              case(_name, A(S, D, -1, 1), A(S, D, -1, 1))]
for _name in ("logical_and", "logical_or", "logical_xor"):
    CASES += [case(_name, A(S, "bool"), A(S, "bool")), case(_name, A(S, I32, 0, 2), A(S, I32, 0, 2)),
              case(_name, A(S, F, 0, 2), A(S, F, -1, 1)), case(_name, A((3, 1), "bool"), A((1, 4), "bool"))]
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    CASES += [case(_name, A(S, I32, -50, 50), A(S, I32, -50, 50)), case(_name, A(S, I64, 0, 99), A(S, I64, 0, 99)),
              case(_name, A(S, "bool"), A(S, "bool")), case(_name, A(S, "uint8", 0, 200), A(S, "uint8", 0, 200))]
CASES += [
    case("bitwise_invert", A(S, I32, -50, 50)), case("bitwise_invert", A(S, "bool")),
    case("bitwise_left_shift", A(S, I32, -50, 50), A(S, I32, 0, 5)),
    case("bitwise_left_shift", A(S, I64, 0, 50), A(S, I64, 0, 5), is_arithmetic=False),
    case("bitwise_right_shift", A(S, I32, -50, 50), A(S, I32, 0, 5)),
    case("bitwise_right_shift", A(S, I32, -50, 50), A(S, I32, 0, 5), is_arithmetic=False),
    case("bitwise_right_shift", A(S, "uint8", 0, 200), A(S, "uint8", 0, 5)),
    case("equal_all", A(S, I64, 0, 2), A(S, I64, 0, 2)), case("equal_all", A(S), A(S)),
    case("isclose", A(S), A(S)), case("isclose", Arr([1.0, 1.00001, float("nan")]), Arr([1.0, 1.0, float("nan")])),
    case("isclose", Arr([1.0, 1.01, float("nan")]), Arr([1.0, 1.0, float("nan")]), rtol=0.1, equal_nan=True),
    case("isclose", Arr([1.0, 1.01], D), Arr([1.0, 1.0], D), atol=0.001),
    case("allclose", A(S), A(S)), case("allclose", Arr([1.0, 1.00001]), Arr([1.0, 1.0])),
    case("allclose", Arr([1.0, float("nan")]), Arr([1.0, float("nan")]), equal_nan=True),
    case("isin", A(S, I64, 0, 9), Arr([1, 3, 5], I64)), case("isin", A(S, I64, 0, 9), Arr([1, 3, 5], I64), invert=True),
    case("isin", A(S, F, 0, 3), Arr([1.0, 2.0])), case("isin", Arr([1, 2, 3], I64), Arr([3, 1], I64), assume_unique=True),
    case("where", A(S, "bool"), A(S), A(S)), case("where", A(S, "bool"), A(S, I64), A(S, I64)),
    case("where", A(S, "bool"), A(S), 0.0), case("where", A(S, "bool"), 1.0, 0.0),
    case("where", A((3, 1), "bool"), A((1, 4)), A((4,))), case("where", A(S, "bool"), A(S, F), A(S, D)),
    case("where", A(S, "bool")), case("where", A((2, 3, 4), "bool")),
    case("nonzero", A(S, I64, 0, 2)), case("nonzero", A(S, I64, 0, 2), as_tuple=True),
    case("nonzero", A((2, 3, 4), "bool"), as_tuple=True), case("nonzero", Arr([0.0, 0.0])),
    case("nonzero", Arr([0.0, 1.5, 0.0, 2.0]), as_tuple=True), case("nonzero", Arr([[0, 0]], I64), as_tuple=True),
    case("argwhere", A(S, I64, 0, 2)),
]
