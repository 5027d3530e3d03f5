"""`weight_quantize`, `weight_dequantize`, `weight_only_linear`, `llm_int8_linear` (Paddle's formulas; the
layout is described in `padax.nn.quant`)."""
from __future__ import annotations

from typing import Any

import padax
from padax import lax

__all__ = ["llm_int8_linear", "weight_dequantize", "weight_only_linear", "weight_quantize"]

_ALGOS = ("weight_only_int8", "weight_only_int4", "llm.int8")


def _round_away(x: Any) -> Any:
    return padax.sign(x) * padax.floor(padax.abs(x) + 0.5)


def _check_algo(op: str, algo: str, group_size: int) -> None:
    if algo not in _ALGOS:
        raise ValueError(f"padax.nn.quant.{op}: algo must be one of {list(_ALGOS)}, got {algo!r}")
    if group_size not in (-1, 64, 128):
        raise ValueError(f"padax.nn.quant.{op}: group_size must be -1, 64 or 128, got {group_size}")


def _expand(scale: Any, k: int, group_size: int) -> Any:
    """Scales [n] or [k / g, n] as a [k, n] array."""
    if group_size == -1:
        return padax.reshape(scale, [1, -1])
    return padax.repeat_interleave(scale, group_size, axis=0)[:k]


def _pack_int4(q: Any) -> Any:
    """[n, k] values in [-8, 7] -> [n / 2, k] int8, rows 2i (low nibble) and 2i + 1 (high nibble)."""
    u = q.astype("int32")
    lo, hi = u[0::2] & 0xF, u[1::2] & 0xF
    packed = lo | (hi << 4)
    return padax.where(packed > 127, packed - 256, packed).astype("int8")


def _unpack_int4(p: Any) -> Any:
    """The inverse of _pack_int4: [n / 2, k] int8 -> [2 * (n / 2), k] int32 values in [-8, 7]."""
    u = p.astype("int32") & 0xFF
    lo, hi = u & 0xF, (u >> 4) & 0xF
    lo = padax.where(lo > 7, lo - 16, lo)
    hi = padax.where(hi > 7, hi - 16, hi)
    return padax.reshape(padax.stack([lo, hi], axis=1), [-1, p.shape[1]])


def weight_quantize(x: Any, algo: str = "weight_only_int8", arch: int | None = None,
                    group_size: int = -1) -> tuple[Any, Any]:
    """Quantize a Linear weight [k, n] for weight-only or LLM.int8 matmuls (Paddle's `weight_quantize`).

    Args:
        x: the float weight [in_features, out_features].
        algo: 'weight_only_int8', 'weight_only_int4' or 'llm.int8'.
        arch: the GPU architecture (accepted; padax's layout does not depend on it).
        group_size: -1 (one scale per output channel), 64 or 128 (one per group of input rows).

    Returns:
        (out, scale): int8 [n, k] ([n / 2, k] packed for int4) and the scales ([n] or [k / group_size, n];
        x's dtype, float32 for llm.int8).

    Examples:
        >>> import padax
        >>> w = padax.to_tensor([[1.0, -0.5], [-2.0, 0.25]])
        >>> q, s = padax.nn.quant.weight_quantize(w)
        >>> q.tolist(), [round(v, 5) for v in s.tolist()]
        ([[64, -127], [-127, 64]], [0.01575, 0.00394])
    """
    _check_algo("weight_quantize", algo, group_size)
    x = padax.to_tensor(x) if not hasattr(x, "aval") else x
    if x.ndim != 2 or not padax.is_floating_point(x):
        raise ValueError(f"padax.nn.quant.weight_quantize: x must be a 2-D float weight [k, n], got "
                         f"{x.dtype.name}{list(x.shape)}")
    k, n = x.shape
    if group_size != -1 and k % group_size:
        raise ValueError(f"padax.nn.quant.weight_quantize: k = {k} rows do not divide into groups of {group_size}")
    bound = 7 if algo == "weight_only_int4" else 127
    if bound == 7 and n % 2:
        raise ValueError(f"padax.nn.quant.weight_quantize: weight_only_int4 packs two output channels per byte; "
                         f"n = {n} must be even")
    xf = x.astype("float32")
    a = padax.abs(xf)
    amax = padax.max(a, axis=0) if group_size == -1 else padax.max(padax.reshape(a, [k // group_size, group_size, n]),
                                                                   axis=1)
    scale = amax / bound
    safe = padax.where(scale == 0, padax.ones_like(scale), scale)
    q = padax.clip(_round_away(xf / _expand(safe, k, group_size)), -bound, bound).T
    out = _pack_int4(q) if bound == 7 else q.astype("int8")
    return out, scale.astype("float32" if algo == "llm.int8" else x.dtype)


def weight_dequantize(x: Any, scale: Any, algo: str = "weight_only_int8", out_dtype: Any = "float16",
                      group_size: int = -1) -> Any:
    """The float weight [k, n] back from `weight_quantize`'s (out, scale) (Paddle's `weight_dequantize`).

    Args:
        x: the int8 weight [n, k] ([n / 2, k] packed for int4).
        scale: its scales.
        algo: the algo it was quantized with.
        out_dtype: Paddle's deprecated argument (unused: the result has scale's dtype).
        group_size: as given to weight_quantize.

    Returns:
        The dequantized weight [k, n], in scale's dtype.

    Examples:
        >>> import padax
        >>> w = padax.to_tensor([[1.0, -0.5], [-2.0, 0.25]])
        >>> q, s = padax.nn.quant.weight_quantize(w, algo="weight_only_int4")
        >>> padax.nn.quant.weight_dequantize(q, s, algo="weight_only_int4").tolist()
        [[0.8571429252624512, -0.5], [-2.0, 0.2142857313156128]]
    """
    _check_algo("weight_dequantize", algo, group_size)
    q = _unpack_int4(x) if algo == "weight_only_int4" else x.astype("int32")
    k = q.shape[1]
    return (q.T.astype("float32") * _expand(scale.astype("float32"), k, group_size)).astype(scale.dtype)


def weight_only_linear(x: Any, weight: Any, bias: Any = None, weight_scale: Any = None,
                       weight_dtype: str = "int8", arch: int | None = None, group_size: int = -1) -> Any:
    """x @ dequantized(weight) + bias for a weight from `weight_quantize` (Paddle's `weight_only_linear`).

    Args:
        x: the input [..., k].
        weight: the int8 weight [n, k] ([n / 2, k] packed for int4).
        bias: [n] or None.
        weight_scale: the scales ([n] or [k / group_size, n]).
        weight_dtype: 'int8' or 'int4'.
        arch: accepted for Paddle compatibility.
        group_size: as given to weight_quantize.

    Returns:
        The output [..., n], in x's dtype.

    Examples:
        >>> import padax
        >>> w = padax.to_tensor([[1.0, -0.5], [-2.0, 0.25]])
        >>> q, s = padax.nn.quant.weight_quantize(w)
        >>> y = padax.nn.quant.weight_only_linear(padax.to_tensor([[1.0, 1.0]]), q, weight_scale=s)
        >>> [round(v, 3) for v in y[0].tolist()]
        [-1.0, -0.248]
    """
    if weight_dtype not in ("int8", "int4"):
        raise ValueError(f"padax.nn.quant.weight_only_linear: weight_dtype must be 'int8' or 'int4', got "
                         f"{weight_dtype!r}")
    if weight_scale is None:
        raise ValueError("padax.nn.quant.weight_only_linear: weight_scale is required")
    algo = "weight_only_int4" if weight_dtype == "int4" else "weight_only_int8"
    w = weight_dequantize(weight, weight_scale, algo, group_size=group_size).astype(x.dtype)
    if x.shape[-1] != w.shape[0]:
        raise ValueError(f"padax.nn.quant.weight_only_linear: x {list(x.shape)} has {x.shape[-1]} features, the "
                         f"weight {list(weight.shape)} ({weight_dtype}) takes {w.shape[0]}")
    y = padax.matmul(x, w)
    return y if bias is None else y + bias.astype(x.dtype)


def llm_int8_linear(x: Any, weight: Any, bias: Any = None, weight_scale: Any = None,
                    threshold: float = 6.0) -> Any:
    """LLM.int8 matmul (Paddle's `llm_int8_linear`): input features holding any |x| >= threshold (outliers)
    multiply the dequantized weight in floating point; the others are quantized per row
    (`s = max|x_row|`, `x_q = round(x / s * 127)`) and multiply the int8 weight with an int32 accumulator,
    rescaled by `s / 127 * weight_scale`.

    Args:
        x: the input [..., k].
        weight: the int8 weight [n, k] from `weight_quantize(..., algo='llm.int8')`.
        bias: [n] or None.
        weight_scale: the [n] scales.
        threshold: the outlier magnitude.

    Returns:
        The output [..., n], in x's dtype.

    Examples:
        >>> import padax
        >>> w = padax.to_tensor([[1.0, -0.5], [-2.0, 0.25]])
        >>> q, s = padax.nn.quant.weight_quantize(w, algo="llm.int8")
        >>> y = padax.nn.quant.llm_int8_linear(padax.to_tensor([[1.0, 8.0]]), q, weight_scale=s)
        >>> [round(v, 3) for v in y[0].tolist()]      # feature 1 (8.0) is an outlier
        [-14.992, 1.516]
    """
    if weight_scale is None:
        raise ValueError("padax.nn.quant.llm_int8_linear: weight_scale is required")
    n, k = weight.shape
    if x.shape[-1] != k:
        raise ValueError(f"padax.nn.quant.llm_int8_linear: x {list(x.shape)} has {x.shape[-1]} features, the "
                         f"weight [n, k] = {list(weight.shape)} takes {k}")
    xf = x.astype("float32")
    rows = padax.reshape(xf, [-1, k])
    outlier = padax.any(padax.abs(rows) >= threshold, axis=0)  # [k]
    inl = padax.where(outlier[None, :], padax.zeros_like(rows), rows)
    s = padax.max(padax.abs(inl), axis=1, keepdim=True)
    s_safe = padax.where(s == 0, padax.ones_like(s), s)
    xq = padax.clip(_round_away(inl / s_safe * 127.0), -127, 127).astype("int8")
    acc = lax.dot_general(xq, weight, (((1,), (1,)), ((), ())), preferred_element_type=padax.int32)
    w_scale = padax.reshape(weight_scale.astype("float32"), [1, n])
    y = acc.astype("float32") * (s / 127.0) * w_scale
    w_float = weight.astype("float32") * padax.reshape(weight_scale.astype("float32"), [n, 1])  # [n, k]
    outl = padax.where(outlier[None, :], rows, padax.zeros_like(rows))
    y = y + padax.matmul(outl, w_float.T)
    if bias is not None:
        y = y + bias.astype("float32")
    return padax.reshape(y, list(x.shape[:-1]) + [n]).astype(x.dtype)
