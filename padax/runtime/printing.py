"""How a Tensor prints: Paddle's layout, controlled by `padax.set_printoptions`.

    Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[0.86583614, 0.52014720, 0.25960937],
            [0.40641287, 0.97020894, 0.74437362]])

The rules are Paddle's: floats print with `precision` decimals (whole numbers as `3.`;
`sci_mode` switches to exponent notation), complex numbers as `(re+imj)`, other types as
Python prints them; every item is padded to the widest one (with a leading space for the
non-negative ones when some are negative); a Tensor with more than `threshold` elements shows
only `edgeitems` items at each end of every axis, with `...` between; rows wrap at `linewidth`
characters. The widths are measured on those edge items. bfloat16 and float8 values print as
their float32 values.
"""
from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Iterator

import ml_dtypes
import numpy as np

_WIDE = (np.dtype(ml_dtypes.bfloat16), np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e5m2))


@dataclasses.dataclass
class PrintOptions:
    precision: int = 8
    threshold: int = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool = False


options = PrintOptions()


def set_printoptions(precision: int | None = None, threshold: int | None = None, edgeitems: int | None = None,
                     sci_mode: bool | None = None, linewidth: int | None = None) -> None:
    """Set how Tensors print (None leaves a setting as it is): `precision` decimals of floats (8),
    `threshold` elements above which a Tensor is summarised (1000), `edgeitems` items kept at each end of
    a summarised axis (3), `sci_mode` exponent notation for floats (False), `linewidth` characters per
    line (80).

    Args:
        precision: decimals shown for floats (default 8).
        threshold: element count above which a Tensor is summarised (default 1000).
        edgeitems: items kept at each end of a summarised axis (default 3).
        sci_mode: exponent notation for floats (default False).
        linewidth: characters per line (default 80).

    Returns:
        None; every argument left as None keeps its current setting.

    Examples:
        >>> import padax
        >>> padax.set_printoptions(precision=2)
        >>> print(padax.to_tensor([1.23456, 2.0]))
        Tensor(shape=[2], dtype=float32, place=..., stop_gradient=True,
               [1.23, 2.  ])
        >>> padax.set_printoptions(precision=8)  # back to the default
    """
    for name, value, kind in (("precision", precision, int), ("threshold", threshold, int),
                              ("edgeitems", edgeitems, int), ("linewidth", linewidth, int),
                              ("sci_mode", sci_mode, bool)):
        if value is None:
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"set_printoptions: {name} must be {kind.__name__}, got {type(value).__name__}: {value!r}")
        setattr(options, name, value)


def _item(v: np.generic) -> str:
    p = options.precision
    kind = v.dtype.kind
    if kind == "f":
        if options.sci_mode:
            return f"{v:.{p}e}"
        return f"{v:.0f}." if np.ceil(v) == v else f"{v:.{p}f}"
    if kind == "c":
        fmt = "e" if options.sci_mode else "f"
        re, im = v.real, v.imag
        return f"({re:.{p}{fmt}}{'+' if im >= 0 else ''}{im:.{p}{fmt}}j)"
    return f"{v}"


def _padded(v: np.generic, width: int, signed: bool) -> str:
    s = _item(v)
    if width <= len(s):
        return s
    if signed and not v < 0:
        return " " + s.ljust(width - 1)
    return s.ljust(width)


def _edges(a: np.ndarray) -> np.ndarray:
    """The items that set the widths: `edgeitems` at each end of every axis longer than twice that."""
    k = options.edgeitems
    if a.size == 0:
        return np.array([])
    for axis, n in enumerate(a.shape):
        if n > 2 * k:
            a = np.concatenate([a.take(np.arange(k), axis), a.take(np.arange(n - k, n), axis)], axis)
    return a


def _body(a: np.ndarray, summary: bool, indent: int, width: int, signed: bool) -> str:
    k = options.edgeitems
    if a.ndim == 0:
        return _padded(a[()], width, signed)
    n = a.shape[0]
    cut = summary and n > 2 * k
    rows = list(range(k)) + [None] + list(range(n - k, n)) if cut else list(range(n))
    if a.ndim == 1:
        items = ["..." if i is None else _padded(a[i], width, signed) for i in rows]
        per_line = max(1, (options.linewidth - indent) // (width + 2))
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = ["..." if i is None else _body(a[i], summary, indent + 1, width, signed) for i in rows]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def format_values(value: np.ndarray, indent: int) -> str:
    """The bracketed values of a host array as Paddle prints them, continuation lines indented by `indent`."""
    a = np.asarray(value)
    if a.dtype in _WIDE:
        a = a.astype(np.float32)
    summary = int(np.prod(a.shape, dtype=np.int64)) > options.threshold
    edge = _edges(a).reshape(-1)
    width = max((len(_item(v)) for v in edge), default=0)
    signed = any(v < 0 for v in edge) if a.dtype.kind in "iufc" else False
    return _body(a, summary, indent, width, signed)


def tensor_repr(value: np.ndarray, shape: tuple, dtype_name: str, place: str, stop_gradient: bool = True,
                prefix: str = "Tensor") -> str:
    """`Tensor(shape=[...], dtype=..., place=..., stop_gradient=True,` and the values on the next line."""
    indent = len(prefix) + 1
    return (f"{prefix}(shape={list(shape)}, dtype={dtype_name}, place={place}, stop_gradient={stop_gradient},\n"
            f"{' ' * indent}{format_values(value, indent)})")


__all__ = ["set_printoptions", "format_values", "tensor_repr", "options"]


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """numpy's `printoptions` context manager (as `jax.numpy.printoptions`): sets numpy's options and
    the matching Tensor ones (precision, threshold, edgeitems, linewidth) for the `with` block.

    Examples:
        >>> import padax.numpy as pnp
        >>> with pnp.printoptions(precision=2):
        ...     print(pnp.array([1.23456, 2.0]))
        Tensor(shape=[2], dtype=float32, place=..., stop_gradient=True,
               [1.23, 2.  ])
        >>> print(pnp.array([1.23456, 2.0]))  # restored after the block
        Tensor(shape=[2], dtype=float32, place=..., stop_gradient=True,
               [1.23456001, 2.        ])
    """
    saved = dataclasses.replace(options)
    with np.printoptions(**kwargs):
        set_printoptions(**{k: kwargs[k] for k in ("precision", "threshold", "edgeitems", "linewidth")
                            if kwargs.get(k) is not None})
        try:
            yield
        finally:
            for f in dataclasses.fields(options):
                setattr(options, f.name, getattr(saved, f.name))
