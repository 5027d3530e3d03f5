"""Paddle's AMP op lists, and the padax primitives each Paddle op name stands for.

padax casts at the level of primitives (the ops a traced program is made of), so a Paddle
op name in a list means the primitives it is computed with: `matmul_v2`, `linear_v2`,
`einsum` -> `dot_general`; `conv2d` -> `conv_general_dilated`; `mean` -> `reduce_sum`.
Composite Paddle ops (softmax, layer_norm, tanh_shrink, the losses) are built from primitives that
other ops share (max, sub, div, tanh are gray), so they cast their own inputs to float32 when the
active auto_cast black-lists their Paddle name (padax.amp.policy.float32_inputs) and return float32, as Paddle.
A custom list may also name padax primitives directly ('dot_general', 'exp', ...).
"""
from __future__ import annotations

from padax.core.primitive import registry as _registry

# Paddle's lists (paddle/amp/amp_lists.py), by Paddle op name.
WHITE_LIST = frozenset({"conv2d", "einsum", "matmul", "matmul_v2", "linear_v2", "max_pool2d_with_index", "mul",
                        "fused_gemm_epilogue", "fused_rotary_position_embedding", "flash_attn"})
ONLY_FP16_WHITE_LIST = frozenset({"fake_quantize_dequantize_abs_max", "fake_quantize_dequantize_moving_average_abs_max",
                                  "fused_attention", "fused_feedforward"})  # float16's white list only
FP16_BLACK_LIST = frozenset({
    "tan", "acos", "asin", "sinh", "cosh", "atanh", "tanh_shrink", "erfinv", "exp", "expm1", "log", "log10", "log2",
    "reciprocal", "rsqrt", "pow", "square", "reduce_sum", "mean", "reduce_mean", "reduce_prod", "cumprod", "cumsum",
    "dist", "pnorm", "frobenius_norm", "renorm", "group_norm", "layer_norm", "softmax", "softmin", "softplus",
    "log_softmax", "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits", "c_softmax_with_cross_entropy",
    "c_softmax_with_multi_label_cross_entropy", "cross_entropy", "cross_entropy2", "nll_loss", "huber_loss",
    "triplet_margin_loss", "log_loss", "hsigmoid_loss", "margin_cross_entropy"})
EXTRA_BLACK_LIST = frozenset({"linear_interp_v2", "nearest_interp_v2", "bilinear_interp_v2", "bicubic_interp_v2",
                              "trilinear_interp_v2", "lookup_table", "lookup_table_v2", "scatter"})

_REDUCE = ("reduce_sum",)
_EXP_LOG = ("exp", "log", "log1p", "expm1", "reduce_sum", "reduce_max")

# Paddle op name -> the padax primitives it is computed with. Names absent here (fused kernels,
# pooling with indices, interpolation, embedding lookups) have no primitive of their own in padax.
PRIMITIVES_OF: dict[str, tuple[str, ...]] = {
    "conv2d": ("conv_general_dilated",), "conv3d": ("conv_general_dilated",),
    "conv2d_transpose": ("conv_general_dilated",), "depthwise_conv2d": ("conv_general_dilated",),
    "einsum": ("dot_general",), "matmul": ("dot_general",), "matmul_v2": ("dot_general",),
    "linear_v2": ("dot_general",), "mul": ("dot_general",), "fused_gemm_epilogue": ("dot_general",),
    "bmm": ("dot_general",),
    "tan": ("tan",), "acos": ("acos",), "asin": ("asin",), "sinh": ("sinh",), "cosh": ("cosh",),
    "atanh": ("atanh",), "erfinv": ("erf_inv",), "exp": ("exp", "exp2"), "expm1": ("expm1",),
    "log": ("log", "log1p"), "log10": ("log",), "log2": ("log",), "rsqrt": ("rsqrt",), "pow": ("pow", "integer_pow"),
    "square": ("square", "integer_pow"), "reduce_sum": _REDUCE, "mean": _REDUCE, "reduce_mean": _REDUCE,
    "reduce_prod": ("reduce_prod",), "cumprod": ("cumprod",), "cumsum": ("cumsum",),
    "dist": _REDUCE, "pnorm": _REDUCE, "frobenius_norm": _REDUCE, "renorm": _REDUCE,
    "group_norm": _REDUCE, "layer_norm": _REDUCE + ("rsqrt",),
    "tanh_shrink": (),  # (not the tanh primitive: tanh is gray in Paddle; F.tanhshrink casts its input itself)
    "softplus": ("exp", "log1p"),
    # common gray ops a custom list may name (one primitive each)
    "elementwise_add": ("add",), "elementwise_sub": ("sub",), "elementwise_mul": ("mul",),
    "elementwise_div": ("div",), "elementwise_pow": ("pow",), "elementwise_max": ("max",),
    "elementwise_min": ("min",), "tanh": ("tanh",), "sigmoid": ("logistic",), "sqrt": ("sqrt",), "sin": ("sin",),
    "cos": ("cos",), "abs": ("abs",), "erf": ("erf",), "reduce_max": ("reduce_max",), "reduce_min": ("reduce_min",),
    **{name: _EXP_LOG for name in ("softmax", "softmin", "log_softmax", "softmax_with_cross_entropy",
                                   "sigmoid_cross_entropy_with_logits", "c_softmax_with_cross_entropy",
                                   "c_softmax_with_multi_label_cross_entropy", "cross_entropy", "cross_entropy2",
                                   "nll_loss", "huber_loss", "triplet_margin_loss", "log_loss", "hsigmoid_loss",
                                   "margin_cross_entropy")},
}

# Composite Paddle ops: their primitives are shared with every other op, so putting one on the
# white list would move all exps and sums to low precision; that is refused with a clear error.
COMPOSITES = frozenset(n for n, prims in PRIMITIVES_OF.items() if prims == _EXP_LOG) | {
    "dist", "pnorm", "frobenius_norm", "renorm", "group_norm", "layer_norm", "tanh_shrink", "softplus"}


def white_list() -> dict[str, dict[str, frozenset]]:
    """Paddle's white lists by dtype and level (Paddle op names).

    Examples:
        >>> import padax
        >>> lists = padax.amp.white_list()
        >>> sorted(lists), "matmul_v2" in lists["float16"]["O1"]
        (['bfloat16', 'float16'], True)
    """
    lists = {"float16": WHITE_LIST | ONLY_FP16_WHITE_LIST, "bfloat16": WHITE_LIST}
    return {dt: {lvl: names for lvl in ("OD", "O1", "O2")} for dt, names in lists.items()}


def black_list() -> dict[str, dict[str, frozenset]]:
    """Paddle's black lists by dtype and level (Paddle op names).

    Examples:
        >>> import padax
        >>> lists = padax.amp.black_list()
        >>> "exp" in lists["float16"]["O1"], "exp" in lists["float16"]["O2"]  # O2 keeps only the extra list in float32
        (True, False)
    """
    lists = {"OD": frozenset(), "O1": FP16_BLACK_LIST | EXTRA_BLACK_LIST, "O2": EXTRA_BLACK_LIST}
    return {dt: dict(lists) for dt in ("float16", "bfloat16")}


_PADDLE_NAMES = WHITE_LIST | ONLY_FP16_WHITE_LIST | FP16_BLACK_LIST | EXTRA_BLACK_LIST


def primitives(names) -> frozenset:
    """The padax primitive names for a collection of Paddle op names and/or primitive names."""
    out: set[str] = set()
    for n in names:
        out.update(PRIMITIVES_OF.get(n, (n,) if n not in _PADDLE_NAMES else ()))
    return frozenset(out)


def unknown_names(names) -> list[str]:
    """The names that are neither a Paddle op padax knows nor a padax primitive (likely typos)."""
    return sorted(n for n in names if n not in PRIMITIVES_OF and n not in _PADDLE_NAMES and n not in _registry)
